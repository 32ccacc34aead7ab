/**
 * The source a step of windowed dd multiply-adds emits (src/formats/dd/dd-gpu-window.ts), without a GPU: each
 * accumulator's terms in runs of at most K (every window length K from 1 to MAX_WINDOW_TERMS), every term once in
 * its window's add and once in its slow path (after the window's settle, in term order), accumulators with another
 * operand kind left to plain multiply-adds; other window lengths are a typed error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_WINDOW_TERMS, windowSteps } from '../../src/formats/dd/dd-gpu-window.js';
import { ddGpuArithmetic, ddGpuArithmeticGemvLong, ddGpuArithmeticGemvLongDd, ddGpuArithmeticGemvLongDdX, ddGpuArithmeticGemvWindow8, ddGpuArithmeticUnfused, ddGpuArithmeticWide, ddGpuArithmeticWindow4, ddGpuArithmeticWindowLean4, ddGpuArithmeticWindowLean8, ddGpuArithmeticWindowLeanOf, ddGpuArithmeticWindowOf } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ModprecError } from '../../src/core/errors.js';

const plain = (acc: string, a: { name: string }, b: { name: string }): string => `${acc} = PLAIN(${acc}, ${a.name}, ${b.name});`;

describe('windowed dd multiply-add steps', () => {
  it('every window term is added once and sent to the slow path once, after its window settles; runs hold ≤ K terms', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom('dd', 'f64')), { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: MAX_WINDOW_TERMS }), (spec, k) => {
      const terms = spec.map(([acc, kind], q) => ({ acc: acc === 0 ? 'acc' : `acc${acc}`, a: { kind, name: `a${q}` }, b: { kind: 'dd', name: `b${q}` } }) as const);
      const lines = windowSteps(terms, plain, k);
      for (const [q, t] of terms.entries()) {
        const add = lines.findIndex((l) => new RegExp(`= mpDwAdd\\w+\\(\\w+, a${q}, b${q},`).test(l));
        const slow = lines.findIndex((l) => l.startsWith(`${t.acc} = mpDwSlow`) && l.includes(`a${q}, b${q},`));
        expect(add).toBeGreaterThanOrEqual(0);
        expect(lines.filter((l) => l.includes(`a${q}, b${q},`)).length).toBe(2);
        const settle = lines.findIndex((l, k) => k > add && l.startsWith(`${t.acc} = mpDwSettle(`));
        expect(settle).toBeGreaterThan(add);
        expect(slow).toBeGreaterThan(settle);
      }
      // One settle per run of ≤ K terms of an accumulator; each window's adds name its terms in order.
      for (const acc of new Set(terms.map((t) => t.acc))) {
        const count = terms.filter((t) => t.acc === acc).length;
        expect(lines.filter((l) => l.startsWith(`${acc} = mpDwSettle(`)).length).toBe(Math.ceil(count / k));
        const settles = lines.flatMap((l, i) => (l.startsWith(`${acc} = mpDwSettle(`) ? [i] : []));
        let from = 0;
        for (const at of settles) {
          const adds = lines.slice(from, at).filter((l) => /= mpDwAdd\w+\(/.test(l) && l.startsWith(`${acc}w`)).length;
          expect(adds).toBeGreaterThanOrEqual(1);
          expect(adds).toBeLessThanOrEqual(k);
          from = at + 1;
        }
      }
      expect(lines.some((l) => l.includes('PLAIN'))).toBe(false);
    }));
  });

  it('an accumulator with an operand of another kind gets plain multiply-adds, the others windows', () => {
    const lines = windowSteps([
      { acc: 'acc', a: { kind: 'dd', name: 'a0' }, b: { kind: 'dd', name: 'b0' } },
      { acc: 'acc1', a: { kind: 'f32', name: 'a1' }, b: { kind: 'dd', name: 'b1' } },
      { acc: 'acc', a: { kind: 'f64', name: 'a2' }, b: { kind: 'dd', name: 'b2' } },
    ], plain);
    expect(lines.filter((l) => l.includes('PLAIN'))).toEqual(['acc1 = PLAIN(acc1, a1, b1);']);
    expect(lines.filter((l) => l.startsWith('acc = mpDwSettle('))).toHaveLength(1);
    expect(lines.some((l) => l.includes('mpDwAddF64Dd(') && l.includes('a2, b2'))).toBe(true);
  });

  it('the default window holds MAX_WINDOW_TERMS = 8 terms; lengths outside 1 … 8 are INVALID_OPTION naming windowTerms', () => {
    const terms = Array.from({ length: 9 }, (_, q) => ({ acc: 'acc', a: { kind: 'dd', name: `a${q}` }, b: { kind: 'dd', name: `b${q}` } }) as const);
    expect(MAX_WINDOW_TERMS).toBe(8);
    expect(windowSteps(terms, plain).filter((l) => l.startsWith('acc = mpDwSettle('))).toHaveLength(2);
    for (const bad of [0, 9, 2.5, NaN, -1]) {
      const typed = expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'windowTerms' });
      expect(() => windowSteps(terms, plain, bad)).toThrow(ModprecError);
      expect(() => windowSteps(terms, plain, bad)).toThrow(typed);
      expect(() => ddGpuArithmeticWindowOf(bad)).toThrow(typed);
    }
  });

  it('ddGpuArithmeticWindowOf(k) is one arithmetic per k, named dd-window<k>, whose steps hold windows of ≤ k terms', () => {
    const terms = Array.from({ length: 8 }, (_, q) => ({ acc: 'acc', a: { kind: 'dd', name: `a${q}` }, b: { kind: 'f64', name: `b${q}` } }) as const);
    for (let k = 1; k <= MAX_WINDOW_TERMS; k++) {
      const part = ddGpuArithmeticWindowOf(k);
      expect(part).toBe(ddGpuArithmeticWindowOf(k));
      expect(part.name).toBe(`dd-window${k}`);
      expect(part.dotVariant).toBeUndefined();
      expect(part.gemvVariant).toBeUndefined();
      expect(part.mulAddSteps!(terms).filter((l) => l.startsWith('acc = mpDwSettle('))).toHaveLength(Math.ceil(8 / k));
    }
  });

  it('a run of one pair of kinds takes its slow terms in one looping call, in term order; per-term calls without slowLoop or for mixed kinds', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: MAX_WINDOW_TERMS }), fc.boolean(), (count, k, mixed) => {
      const terms = Array.from({ length: count }, (_, q) => ({ acc: 'acc', a: { kind: mixed && q % 3 === 1 ? 'f64' : 'dd', name: `a${q}` }, b: { kind: 'dd', name: `b${q}` } }) as const);
      const looped = windowSteps(terms, plain, k, true);
      const perTerm = windowSteps(terms, plain, k, false);
      expect(perTerm.filter((l) => l.includes('mpDwSlowRun'))).toEqual([]);
      expect(perTerm.filter((l) => /^acc = mpDwSlow(Dd|F64)/.test(l))).toHaveLength(count);
      for (let s = 0; s < count; s += k) {
        const run = terms.slice(s, s + k);
        const oneKind = run.every((t) => t.a.kind === run[0]!.a.kind);
        const id = `accw${run[0]!.a.name}`;
        const call = looped.filter((l) => l.startsWith(`acc = mpDwSlowRun${run.length}`) && l.includes(`(acc, ${run[0]!.a.name}, `));
        if (run.length > 1 && oneKind) {
          expect(call).toEqual([`acc = mpDwSlowRun${run.length}${run[0]!.a.kind === 'dd' ? 'Dd' : 'F64'}Dd(acc, ${run.map((t, q) => `${t.a.name}, ${t.b.name}, ${id}t${q}`).join(', ')});`]);
        } else {
          expect(call).toEqual([]);
          for (const t of run) expect(looped.some((l) => l.startsWith('acc = mpDwSlow') && !l.includes('Run') && l.includes(`${t.a.name}, ${t.b.name},`))).toBe(true);
        }
      }
    }));
  });

  it('the lean form: the same runs with its own code, add and settle (mpDl…) and the shared slow paths; one arithmetic per k, dd-lean<k>; DOT takes it with ddDotLean (on by default), the wide windows of 4 without', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom('dd', 'f64')), { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: MAX_WINDOW_TERMS }), (spec, k) => {
      const terms = spec.map(([acc, kind], q) => ({ acc: acc === 0 ? 'acc' : `acc${acc}`, a: { kind, name: `a${q}` }, b: { kind: 'dd', name: `b${q}` } }) as const);
      const wide = windowSteps(terms, plain, k);
      const lean = windowSteps(terms, plain, k, true, 'lean');
      // Line for line the wide steps with the code, add and settle renamed; the slow paths are the same calls.
      expect(lean).toEqual(wide.map((l) => l.replace(/mpDw(Exp|Add|Settle)/g, 'mpDl$1')));
      expect(lean.some((l) => /mpDw(Exp|Add|Settle)/.test(l))).toBe(false);
      expect(ddGpuArithmeticWindowLeanOf(k).mulAddSteps!(terms)).toEqual(lean);
    }));
    for (let k = 1; k <= MAX_WINDOW_TERMS; k++) {
      expect(ddGpuArithmeticWindowLeanOf(k)).toBe(ddGpuArithmeticWindowLeanOf(k));
      expect(ddGpuArithmeticWindowLeanOf(k).name).toBe(`dd-lean${k}`);
      expect(ddGpuArithmeticWindowLeanOf(k, false).name).toBe(`dd-lean${k}-per-term`);
      expect(ddGpuArithmeticWindowLeanOf(k)).not.toBe(ddGpuArithmeticWindowOf(k));
    }
    expect(() => ddGpuArithmeticWindowLeanOf(9)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'windowTerms' }));
    // Operands of kinds the window does not take (f32, ff reads, beside dd or f64): the unfused multiply-adds, line for line.
    for (const kind of ['f32', 'ff'] as const) {
      for (const other of ['dd', 'f64'] as const) {
        const steps = Array.from({ length: 8 }, (_, q) => ({ acc: q % 2 ? 'acc1' : 'acc', a: { kind, name: `a${q}` }, b: { kind: other, name: `b${q}` } }));
        // Grouped by accumulator (in order of first use), each in term order.
        const byAcc = [...steps.filter((t) => t.acc === 'acc'), ...steps.filter((t) => t.acc === 'acc1')];
        expect(ddGpuArithmeticWindowLean4.mulAddSteps!(steps)).toEqual(byAcc.map((t) => ddGpuArithmeticUnfused.mulAdd(t.acc, t.a, t.b)));
      }
    }
    // The default (MODPREC_GPU_DD_DOT_LEAN unset) is the lean form in windows of 8 with one accumulator a thread;
    // without the switch, the wide windows of 4 with DOT's own two.
    expect(gpuKernelSwitches().ddDotLean).toBe(process.env.MODPREC_GPU_DD_DOT_LEAN !== '0');
    // (ddDotLong off: the lean or wide form for every storage; with 'auto', f64 storage takes the long window.)
    const previous = setGpuKernelSwitches({ ddDotLean: true, ddDotLong: false });
    const dd = { x: 'dd', y: 'dd' };
    try {
      expect(ddGpuArithmetic.dotVariant!(dd)).toBe(ddGpuArithmeticWindowLean8);
      expect(ddGpuArithmetic.dotChains!(dd)).toBe(1);
      expect(ddGpuArithmetic.dotVariant!({ x: 'f64', y: 'f64' })).toBe(ddGpuArithmeticWindowLean8);
      setGpuKernelSwitches({ ddDotLean: false });
      expect(ddGpuArithmetic.dotVariant!(dd)).toBe(ddGpuArithmeticWindow4);
      expect(ddGpuArithmetic.dotChains!(dd)).toBeUndefined();
      expect(ddGpuArithmetic.dotGroups!(dd)).toBeUndefined();
    } finally {
      setGpuKernelSwitches(previous);
    }
  });

  it("dd's gemvVariant: the long window for every term kind by default, x decoded once a call (f64·f64 alone with ddGemvLongDd off); without ddGemvLong windows of eight terms, the fused multiply-add for other kinds and the tail; no variants of its own, nor in the unfused and wide parts", () => {
    expect(ddGpuArithmetic.gemvVariant!()).toBe(ddGpuArithmeticGemvLongDdX);
    const decoded = setGpuKernelSwitches({ ddGemvDecodedXDd: false });
    try {
      expect(ddGpuArithmetic.gemvVariant!()).toBe(ddGpuArithmeticGemvLongDd);
    } finally {
      setGpuKernelSwitches(decoded);
    }
    const dd = setGpuKernelSwitches({ ddGemvLongDd: false });
    try {
      expect(ddGpuArithmetic.gemvVariant!()).toBe(ddGpuArithmeticGemvLong);
    } finally {
      setGpuKernelSwitches(dd);
    }
    const previous = setGpuKernelSwitches({ ddGemvLong: false });
    let part;
    try {
      part = ddGpuArithmetic.gemvVariant!();
    } finally {
      setGpuKernelSwitches(previous);
    }
    expect(part).toBe(ddGpuArithmeticGemvWindow8);
    expect(part.name).toBe('dd-gemv-window8');
    expect(part.components).toBe(ddGpuArithmetic.components);
    for (const p of [part, ddGpuArithmeticUnfused, ddGpuArithmeticWide]) {
      expect(p.gemvVariant).toBeUndefined();
      expect(p.dotVariant).toBeUndefined();
    }
    const step = (kind: 'dd' | 'f64' | 'f32'): { acc: string; a: { kind: string; name: string }; b: { kind: string; name: string } }[] =>
      Array.from({ length: 16 }, (_, q) => ({ acc: 'acc', a: { kind, name: `a${q}` }, b: { kind: 'f64', name: `b${q}` } }));
    const windowed = part.mulAddSteps!(step('dd'));
    expect(windowed.filter((l) => l.startsWith('acc = mpDwSettle('))).toHaveLength(2);
    const fusedLines = part.mulAddSteps!(step('f32'));
    expect(fusedLines).toEqual(step('f32').map((t) => ddGpuArithmetic.mulAdd(t.acc, t.a, t.b)));
    expect(fusedLines[0]).toMatch(/^acc = mpXfFmaF32F64\(/);
    expect(part.mulAdd('acc', { kind: 'f64', name: 'a' }, { kind: 'f64', name: 'b' })).toBe(ddGpuArithmetic.mulAdd('acc', { kind: 'f64', name: 'a' }, { kind: 'f64', name: 'b' }));
  });
});
