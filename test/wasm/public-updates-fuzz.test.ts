/**
 * AXPY, WAXPBY and SCAL through the public API: the automatic choice, `backend: 'wasm'` and `backend: 'js'` give the
 * same raw bits (every element of every buffer and scale, by Object.is) — the docs promise bits for the updates in
 * every arithmetic they run — over every built-in storage, scales, strides of either sign, sub-ranges, lengths at
 * the lane, unroll and chunk boundaries, and NaN/±∞/±0/subnormals/values near overflow. Where WebAssembly refuses a
 * case it must be a typed error with nothing written.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { axpy, axpyBound, waxpby, waxpbyBound, scal, scalBound, ModprecError } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, mulRational, type Rational } from '../../src/testing/rational.js';
import { buildVec, exactAt, within, firstRawDifference, lengthArb, vecSpecArb, describeVec, runs, SPECIALS, type Built, type VecSpec } from './public-operands.js';

const ARITHMETICS = ['f64', 'f32', 'dd'] as const;
const ACCUMULATIONS = [undefined, 'recursive', 'kahan', 'dd', 'pairwise', 'dot2'] as const;
const BACKENDS = ['js', 'cpu', 'wasm'] as const;
const coefficient = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom(0, -0, 1, -1, 2, 0.5) }, { weight: 1, arbitrary: fc.constantFrom(...SPECIALS) });

type Run = (ops: Built<1>[], opts: Record<string, unknown>) => void;

/** Runs the case on every backend from identical operands; returns each backend's raw snapshots or the error it raised. */
function runAll(specs: readonly VecSpec[], arithmetic: string, accumulation: string | undefined, run: Run): Map<string, number[][] | ModprecError> {
  const out = new Map<string, number[][] | ModprecError>();
  for (const backend of BACKENDS) {
    const ops = specs.map((s) => buildVec(s, arithmetic));
    const before = ops.map((o) => o.raw());
    try {
      run(ops, { backend, arithmetic, ...(accumulation ? { accumulation } : {}) });
      out.set(backend, ops.map((o) => o.raw()));
    } catch (e) {
      if (!(e instanceof ModprecError)) throw e;
      const after = ops.map((o) => o.raw());
      for (let k = 0; k < ops.length; k++) {
        const d = firstRawDifference(before[k]!, after[k]!);
        if (d) throw new Error(`${backend} threw ${e.code} (${e.message}) after writing operand ${k}: ${d}`);
      }
      out.set(backend, e);
    }
  }
  return out;
}

/** The JavaScript's bits from the automatic choice, and from `'wasm'` unless it refused with a typed error. */
function expectSameBits(results: Map<string, number[][] | ModprecError>, what: string): void {
  const js = results.get('js')!;
  const cpu = results.get('cpu')!;
  const wasm = results.get('wasm')!;
  if (js instanceof ModprecError) {
    // A case the JavaScript refuses is refused by every backend, with the same code.
    expect(cpu instanceof ModprecError && cpu.code === js.code, `${what}: js ${js.code}, cpu ${String(cpu)}`).toBe(true);
    return;
  }
  if (cpu instanceof ModprecError) throw new Error(`${what}: cpu threw ${cpu.code} ${cpu.message} where js ran`);
  for (let k = 0; k < js.length; k++) {
    const d = firstRawDifference(js[k]!, cpu[k]!);
    if (d) throw new Error(`${what}: operand ${k} cpu ≠ js at ${d}`);
    if (!(wasm instanceof ModprecError)) {
      const w = firstRawDifference(js[k]!, wasm[k]!);
      if (w) throw new Error(`${what}: operand ${k} wasm ≠ js at ${w}`);
    }
  }
}

const config = fc.record({
  arithmetic: fc.constantFrom(...ARITHMETICS),
  accumulation: fc.constantFrom(...ACCUMULATIONS),
  alpha: coefficient,
  beta: coefficient,
});

/**
 * Each output element, as the JavaScript stored it, within the kernel's bound (computed before the call, from fresh
 * identical operands) of the exact α·x + β·y of the stored values; +∞ wherever a value read is NaN or ±∞.
 */
function expectWithinBound(specs: readonly VecSpec[], arithmetic: string, accumulation: string | undefined, outIndex: number,
  bound: (ops: Built<1>[], opts: Record<string, unknown>) => Float64Array, exact: (ops: Built<1>[], i: number) => Rational | null,
  run: Run, what: string): void {
  const opts = { arithmetic, ...(accumulation ? { accumulation } : {}) };
  const ops = specs.map((s) => buildVec(s, arithmetic));
  const b = bound(ops, opts);
  const e = Array.from({ length: ops[outIndex]!.range.length() }, (_, i) => exact(ops, i));
  run(ops, { ...opts, backend: 'js' });
  const out = ops[outIndex]!.range;
  for (let i = 0; i < e.length; i++) {
    // (A NaN or ±∞ read: the bits test above covers those elements; quick returns leave them, with bound 0.)
    if (e[i] === null) continue;
    const c = exactAt(out, [i]);
    if (b[i] !== Infinity && (c === null || !withinR(c, e[i]!, b[i]!))) throw new Error(`${what}: element ${i} = ${out.get(i)} outside bound ${b[i]}`);
  }
}
const withinR = (c: Rational, e: Rational, b: number): boolean => within(0, addRational(e, mulRational(c, exactOf(-1))), b);
const term = (c: number, v: Rational | null): Rational | null => (v === null || !Number.isFinite(c) ? null : mulRational(exactOf(c), v));
const plus = (a: Rational | null, b: Rational | null): Rational | null => (a === null || b === null ? null : addRational(a, b));

describe('public updates: automatic, wasm and js give the same bits', () => {
  it('AXPY y := αx + y', () => {
    fc.assert(fc.property(lengthArb.chain((n) => fc.tuple(vecSpecArb(n), vecSpecArb(n), config)), ([xs, ys, c]) => {
      const r = runAll([xs, ys], c.arithmetic, c.accumulation, ([x, y], o) => axpy(c.alpha, x!.range, y!.range, o));
      const what = `axpy α=${c.alpha} ${c.arithmetic}/${c.accumulation} x=${describeVec(xs)} y=${describeVec(ys)}`;
      expectSameBits(r, what);
      expectWithinBound([xs, ys], c.arithmetic, c.accumulation, 1, ([x, y], o) => axpyBound(c.alpha, x!.range, y!.range, o),
        ([x, y], i) => (c.alpha === 0 ? exactAt(y!.range, [i]) : plus(term(c.alpha, exactAt(x!.range, [i])), exactAt(y!.range, [i]))),
        ([x, y], o) => axpy(c.alpha, x!.range, y!.range, o), what);
    }), { numRuns: runs(100) });
  });

  it('WAXPBY w := αx + βy', () => {
    fc.assert(fc.property(lengthArb.chain((n) => fc.tuple(vecSpecArb(n), vecSpecArb(n), vecSpecArb(n), config)), ([xs, ys, ws, c]) => {
      const r = runAll([xs, ys, ws], c.arithmetic, c.accumulation, ([x, y, w], o) => waxpby(c.alpha, x!.range, c.beta, y!.range, w!.range, o));
      const what = `waxpby α=${c.alpha} β=${c.beta} ${c.arithmetic}/${c.accumulation} x=${describeVec(xs)} y=${describeVec(ys)} w=${describeVec(ws)}`;
      expectSameBits(r, what);
      expectWithinBound([xs, ys, ws], c.arithmetic, c.accumulation, 2, ([x, y, w], o) => waxpbyBound(c.alpha, x!.range, c.beta, y!.range, w!.range, o),
        ([x, y], i) => {
          const a = c.alpha === 0 ? exactOf(0) : term(c.alpha, exactAt(x!.range, [i]));
          const b = c.beta === 0 ? exactOf(0) : term(c.beta, exactAt(y!.range, [i]));
          return plus(a, b);
        }, ([x, y, w], o) => waxpby(c.alpha, x!.range, c.beta, y!.range, w!.range, o), what);
    }), { numRuns: runs(100) });
  });

  it('SCAL x := αx', () => {
    fc.assert(fc.property(lengthArb.chain((n) => fc.tuple(vecSpecArb(n), config)), ([xs, c]) => {
      const r = runAll([xs], c.arithmetic, c.accumulation, ([x], o) => scal(c.alpha, x!.range, o));
      const what = `scal α=${c.alpha} ${c.arithmetic}/${c.accumulation} x=${describeVec(xs)}`;
      expectSameBits(r, what);
      expectWithinBound([xs], c.arithmetic, c.accumulation, 0, ([x], o) => scalBound(c.alpha, x!.range, o),
        ([x], i) => (c.alpha === 0 ? exactOf(0) : term(c.alpha, exactAt(x!.range, [i]))), ([x], o) => scal(c.alpha, x!.range, o), what);
    }), { numRuns: runs(100) });
  });
});
