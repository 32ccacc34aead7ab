/**
 * AXPY, WAXPBY and SCAL through the public API with `backend: 'gpu'`: lengths around the four-elements-a-thread form
 * (packed arrays of a length divisible by 4) and many workgroups, packed arrays and strided views among sentinels,
 * α = 0, β = 0 with NaN in the unread vector, output storages f32/f16/bf16/f64, default (f32) and float-float
 * arithmetic. Each element against the exact rational result within `axpyBound` / `waxpbyBound` / `scalBound`;
 * in f32 arithmetic also the CPU backend's bits (docs/gpu.md: each f32 operation rounded as the CPU's, no fma).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpy, axpyBound, formats, scal, scalBound, vector, waxpby, waxpbyBound } from '../../src/index.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectSpanKept, expectWithin, exactSumOfProducts, makeVector, seededValues, storedVector, type VecView } from './public-shapes-oracle.js';

interface Case {
  readonly n: number;
  readonly kernel: 'axpy' | 'waxpby' | 'scal';
  readonly alpha: number;
  readonly beta: number;
  /** 0: packed arrays (the vector form where n % 4 = 0); else the increment of every view. */
  readonly inc: number;
  readonly seed: number;
}

function operand(values: ArrayLike<number>, storage: FormatLike, arithmetic: FormatLike | undefined, inc: number): VecView {
  if (inc !== 0) return makeVector(values, storage, arithmetic, inc, 1);
  const r = vector(values, { storage, ...(arithmetic ? { arithmetic } : {}) });
  return { r, full: r, at: Array.from({ length: values.length }, (_, i) => i), before: storedVector(r) };
}

async function runCase(c: Case, out: FormatLike, arithmetic: FormatLike | undefined, compareCpu: boolean): Promise<void> {
  const n = c.n;
  const ar = arithmetic ? { arithmetic } : {};
  const mk = (v: ArrayLike<number>, s: FormatLike) => operand(v, s, arithmetic, c.inc);
  const x = mk(seededValues(n, c.seed, 10), arithmetic === formats.ff ? formats.f64 : formats.f32);
  const unreadY = c.kernel === 'axpy' ? false : c.beta === 0;
  // WAXPBY's y in f16 where an arithmetic is named (an f16 range's own arithmetic is f64, which the GPU refuses).
  const yStore = c.kernel === 'axpy' ? out : arithmetic ? formats.f16 : formats.f32;
  const y = mk(unreadY ? new Float64Array(n).fill(NaN) : seededValues(n, c.seed + 1, 10), yStore);
  const w = mk(seededValues(n, c.seed + 2), out);
  // The CPU's run on copies, for the bit comparison.
  const copy = (v: VecView, s: FormatLike) => operand(storedVector(v.r), s, arithmetic, c.inc);
  const cx = copy(x, arithmetic === formats.ff ? formats.f64 : formats.f32);
  let target: VecView;
  let bound: Float64Array;
  let terms: (i: number) => number[][];
  const [hx, hy, hw] = [storedVector(x.r), storedVector(y.r), storedVector(w.r)];
  const opts = { backend: 'gpu' as const, strict: true, ...ar };
  let cpuOut: Float64Array | undefined;
  if (c.kernel === 'axpy') {
    bound = axpyBound(c.alpha, x.r, y.r, ar);
    terms = (i) => [[c.alpha, hx[i]!], [hy[i]!]];
    if (compareCpu) { const cy = copy(y, out); axpy(c.alpha, cx.r, cy.r, ar); cpuOut = storedVector(cy.r); }
    expect((await axpy(c.alpha, x.r, y.r, opts)).backend).toBe('gpu');
    target = y;
  } else if (c.kernel === 'waxpby') {
    bound = waxpbyBound(c.alpha, x.r, c.beta, y.r, w.r, ar);
    terms = (i) => [...(c.alpha !== 0 ? [[c.alpha, hx[i]!]] : []), ...(c.beta !== 0 ? [[c.beta, hy[i]!]] : [])];
    if (compareCpu) { const cw = copy(w, out); waxpby(c.alpha, cx.r, c.beta, copy(y, yStore).r, cw.r, ar); cpuOut = storedVector(cw.r); }
    expect((await waxpby(c.alpha, x.r, c.beta, y.r, w.r, opts)).backend).toBe('gpu');
    target = w;
  } else {
    bound = scalBound(c.alpha, w.r, ar);
    terms = (i) => [[c.alpha, hw[i]!]];
    if (compareCpu) { const cw = copy(w, out); scal(c.alpha, cw.r, ar); cpuOut = storedVector(cw.r); }
    expect((await scal(c.alpha, w.r, opts)).backend).toBe('gpu');
    target = w;
  }
  const got = storedVector(target.r);
  const what = `${JSON.stringify(c)} out ${out.name} ${arithmetic?.name ?? 'default'}`;
  expectSpanKept(what, target);
  for (let i = 0; i < n; i++) {
    expectWithin(`${what} [${i}]`, got[i]!, exactSumOfProducts(terms(i)), bound[i]!);
    if (cpuOut) expect(Object.is(got[i], cpuOut[i]), `${what} [${i}]: GPU ${got[i]} vs CPU ${cpuOut[i]}`).toBe(true);
  }
}

const cases = fc.record({
  n: fc.constantFrom(0, 1, 3, 4, 5, 8, 63, 64, 65, 255, 256, 257, 1024, 4099),
  kernel: fc.constantFrom<'axpy' | 'waxpby' | 'scal'>('axpy', 'waxpby', 'scal'),
  alpha: fc.constantFrom(1, -0.75, 0, 3),
  beta: fc.constantFrom(0, 1, -0.5),
  inc: fc.constantFrom(0, 0, 1, 2, -1),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('AXPY / WAXPBY / SCAL, backend gpu: lengths across the four-a-thread form, views', () => {
  it('default options (f32 ranges: f32 arithmetic), f32 output, the CPU bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(cases, (c) => runCase(c, formats.f32, undefined, true)), { numRuns: 50 });
  });

  it('f32 arithmetic into f16/bf16/f64, the CPU bits', async () => {
    await requireRuntime();
    const out = fc.constantFrom(formats.f16, formats.bf16, formats.f64);
    await fc.assert(fc.asyncProperty(cases, out, (c, o) => runCase(c, o, formats.f32, true)), { numRuns: 40 });
  });

  it('float-float into f32/f16/bf16/f64', async () => {
    await requireRuntime();
    const out = fc.constantFrom(formats.f32, formats.f16, formats.bf16, formats.f64);
    await fc.assert(fc.asyncProperty(cases, out, (c, o) => runCase(c, o, formats.ff, false)), { numRuns: 40 });
  });
});
