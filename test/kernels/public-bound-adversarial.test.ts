/**
 * The a-priori bounds of DOT (with and without `into`), ASUM and NRM2 on adversarial inputs, through the public API
 * on the JavaScript and WebAssembly backends, in fp64, fp32, double-double and float-float with every accumulation:
 * heavy cancellation, values near the arithmetic's overflow, products in the subnormal range, huge factors times tiny
 * ones (beyond Dekker's splitting range), magnitudes spread over 600 binades — over every built-in storage, scales
 * as extreme as 1e±300, 2^±120, 1e-40 and 1e38, strides of either sign and sub-ranges. |computed − exact| ≤ bound is
 * decided exactly (BigInt rationals); a bound is +∞ where a NaN or ±∞ is read; a refused call is refused by the bound
 * with the kernel's error. (The scales 2^120, 1e-40 and 1e38, which the public fuzzers do not draw, found the scaled
 * underflows of test/kernels/public-bound-scaled-underflow.test.ts; an empty DOT into a scale of 1e-300 in fp32 the
 * NaN of test/kernels/public-dot-into-scaled.test.ts.)
 */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, asum, asumBound, nrm2, nrm2Bound, ModprecError, range, rowMajor, scaledReducedRowMajor, type Range } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, ZERO, type Rational } from '../../src/testing/rational.js';
import { buildVec, describeVec, exactAt, exactVec, within, type StorageName, type VecSpec } from '../wasm/public-operands.js';

const ARITHMETICS = ['f64', 'f32', 'dd', 'ff'] as const;
const ACCUMULATIONS = [undefined, 'recursive', 'kahan', 'dd', 'pairwise', 'dot2'] as const;
const BACKENDS = ['js', 'wasm'] as const;
const SCALES = [1, 0.5, 1 / 3, 3.7e-5, 1e-300, 1e300, 2 ** -1070, 1e-40, 1e38, 2 ** -140, 2 ** 120, 7] as const;

const mantissa = fc.integer({ min: -(2 ** 24), max: 2 ** 24 });
const scaled = (lo: number, hi: number) => fc.tuple(mantissa, fc.integer({ min: lo, max: hi })).map(([m, e]) => m * 2 ** e);
const arrayOf = <T>(a: fc.Arbitrary<T>, n: number) => fc.array(a, { minLength: n, maxLength: n });

/** x and y of length n in one of the adversarial modes. */
function valuesArb(n: number): fc.Arbitrary<{ x: number[]; y: number[]; mode: string }> {
  return fc.oneof(
    // Cancellation: the second half of xᵢyᵢ cancels the first up to small remainders (condition up to ~1e30).
    fc.tuple(arrayOf(scaled(-60, 60), n), arrayOf(scaled(-10, 10), n), arrayOf(scaled(-80, -30), n)).map(([x, y, small]) => {
      for (let i = 0; i < n >> 1; i++) { const j = n - 1 - i; if (y[j] !== 0) x[j] = -(x[i]! * y[i]!) / y[j]! + small[i]!; }
      return { x, y, mode: 'cancellation' };
    }),
    // Near the top of binary32 or binary64.
    fc.tuple(fc.constantFrom(127, 1023, 100, 500), arrayOf(fc.tuple(mantissa, fc.integer({ min: -30, max: 0 })), n), arrayOf(fc.double({ min: -2, max: 2, noNaN: true }), n))
      .map(([top, xs, y]) => ({ x: xs.map(([m, e]) => m * 2 ** (top - 24 + e)), y, mode: `near 2^${top}` })),
    // Products in binary32's or binary64's subnormal range.
    fc.tuple(fc.constantFrom(-75, -70, -63, -540, -520), arrayOf(scaled(-12, 12), n), arrayOf(scaled(-12, 12), n))
      .map(([e, x, y]) => ({ x: x.map((v) => v * 2 ** (e - 24)), y: y.map((v) => v * 2 ** (e - 24)), mode: `products near 2^${2 * e}` })),
    // Huge factors times tiny ones: moderate products.
    fc.tuple(fc.constantFrom([990, 1023, -1000, -990], [110, 127, -140, -110]), arrayOf(fc.tuple(mantissa, fc.nat(1000)), n), arrayOf(fc.tuple(mantissa, fc.nat(1000)), n))
      .map(([[a, b, c, d], xs, ys]) => ({
        x: xs.map(([m, e]) => (m / 2 ** 24) * 2 ** (a! + (e % (b! - a! + 1)))), y: ys.map(([m, e]) => (m / 2 ** 24) * 2 ** (c! + (e % (d! - c! + 1)))), mode: 'huge × tiny',
      })),
    // Magnitudes spread over many binades.
    fc.tuple(arrayOf(scaled(-300, 300), n), arrayOf(scaled(-300, 300), n)).map(([x, y]) => ({ x, y, mode: 'spread 2^±300' })),
    fc.tuple(arrayOf(scaled(-160, 120), n), arrayOf(scaled(-160, 120), n)).map(([x, y]) => ({ x, y, mode: 'spread 2^-160..2^120' })),
  );
}

const STORAGES: readonly StorageName[] = ['f64', 'f32', 'f16', 'bf16', 'i8', 'i16', 'i32', 'dd', 'ddSplit'];
function specArb(values: number[]): fc.Arbitrary<VecSpec> {
  return fc.record({
    storage: fc.constantFrom(...STORAGES, 'f64', 'f32', 'dd'), kind: fc.constantFrom('none', 'none', 'one', 'each'),
    scales: fc.array(fc.constantFrom(...SCALES), { minLength: 1, maxLength: 3 }), stride: fc.constantFrom(1, -1, 2, -3),
    before: fc.constantFrom(0, 1), after: fc.constantFrom(0, 2), lo: fc.array(fc.double({ min: -0.49, max: 0.49, noNaN: true }), { minLength: 1, maxLength: 3 }),
  }).map((r) => ({
    storage: r.storage, scale: (r.storage.startsWith('i') && r.kind === 'none' ? 'one' : r.kind) as VecSpec['scale'], scales: r.scales,
    stride: r.stride, before: r.before, after: r.after, values, lo: r.lo,
  }));
}

const caseArb = fc.oneof(fc.constantFrom(0, 1, 2, 3, 8, 9, 16, 17, 33), fc.integer({ min: 1, max: 70 })).chain((n) => valuesArb(n).chain((v) =>
  fc.record({ v: fc.constant(v), xs: specArb(v.x), ys: specArb(v.y), arithmetic: fc.constantFrom(...ARITHMETICS), accumulation: fc.constantFrom(...ACCUMULATIONS) })));

type Outcome = number | ModprecError;
function outcome(f: () => number): Outcome {
  try { return f(); } catch (e) { if (e instanceof ModprecError) return e; throw e; }
}

/**
 * The bound's and the kernel's outcomes agree: both refused alike (or the kernel refused a value an RNS or IEEE
 * arithmetic cannot take, INVALID_VALUE, where the bound is +∞ or refused too); returns the bound and result, or null.
 */
function agreed(bound: Outcome, result: Outcome, what: string): { bound: number; result: number } | null {
  if (result instanceof ModprecError && result.code === 'INVALID_VALUE' && (bound === Infinity || bound instanceof ModprecError)) return null;
  if (bound instanceof ModprecError || result instanceof ModprecError) {
    if (bound instanceof ModprecError && result instanceof ModprecError && bound.code === result.code && bound.parameter === result.parameter) return null;
    throw new Error(`${what}: bound ${String(bound)}, kernel ${String(result)}`);
  }
  return { bound, result };
}

const exactDotOf = (x: (Rational | null)[], y: (Rational | null)[]): Rational | null => {
  if (x.some((e) => e === null) || y.some((e) => e === null)) return null;
  return x.reduce<Rational>((s, e, i) => addRational(s, mulRational(e!, y[i]!)), ZERO);
};

describe('bounds on adversarial inputs (js and wasm, every arithmetic and accumulation)', () => {
  it('DOT', () => {
    fc.assert(fc.property(caseArb, ({ v, xs, ys, arithmetic, accumulation }) => {
      const x = buildVec(xs, arithmetic).range, y = buildVec(ys, arithmetic).range;
      const exact = exactDotOf(exactVec(x), exactVec(y));
      for (const backend of BACKENDS) {
        const options = { arithmetic, backend, ...(accumulation ? { accumulation } : {}) } as never;
        const what = `${v.mode}, ${backend} ${arithmetic}/${accumulation}, x ${describeVec(xs)}, y ${describeVec(ys)}`;
        const r = agreed(outcome(() => dotBound(x, y, options)), outcome(() => dot(x, y, options)), what);
        if (!r) continue;
        if (exact === null) { if (r.bound !== Infinity) throw new Error(`${what}: a NaN or ±∞ is read, bound ${r.bound}`); continue; }
        if (!within(r.result, exact, r.bound)) throw new Error(`${what}: ${r.result} outside the bound ${r.bound}`);
      }
    }), { numRuns: 250 });
  });

  it('DOT into every storage, scaled or not', () => {
    const intoArb = fc.record({ storage: fc.constantFrom('f64', 'f32', 'f16', 'bf16', 'i8', 'i16', 'i32', 'dd', 'dd-split'), scaled: fc.boolean(), scale: fc.constantFrom(...SCALES, 1e-10, 1e10) });
    fc.assert(fc.property(caseArb, intoArb, ({ v, xs, ys, arithmetic, accumulation }, t) => {
      const x = buildVec(xs, arithmetic).range, y = buildVec(ys, arithmetic).range;
      const exact = exactDotOf(exactVec(x), exactVec(y));
      for (const backend of BACKENDS) {
        const into: Range<1, any> = t.storage.startsWith('i') || t.scaled
          ? range(scaledReducedRowMajor<1>({ size: [1], storage: t.storage, arithmetic, scaleMask: [false], scale: new Float64Array([t.scale]) }))
          : range(rowMajor<1>({ size: [1], storage: t.storage, arithmetic }));
        const options = { arithmetic, backend, into, ...(accumulation ? { accumulation } : {}) } as never;
        const what = `${v.mode}, ${backend} ${arithmetic}/${accumulation}, into ${JSON.stringify(t)}, x ${describeVec(xs)}, y ${describeVec(ys)}`;
        const r = agreed(outcome(() => dotBound(x, y, options)), outcome(() => dot(x, y, options)), what);
        if (!r || r.bound === Infinity) continue;
        if (exact === null) throw new Error(`${what}: a NaN or ±∞ is read, bound ${r.bound}`);
        const stored = exactAt(into, [0]);
        if (stored === null || compareRational(absRational(subRational(stored, exact)), exactOf(r.bound)) > 0) {
          throw new Error(`${what}: stored ${String(into.get(0))} outside the bound ${r.bound}`);
        }
      }
    }), { numRuns: 150 });
  });

  it('ASUM and NRM2', () => {
    fc.assert(fc.property(caseArb, ({ v, xs, arithmetic, accumulation }) => {
      const x = buildVec(xs, arithmetic).range;
      const values = exactVec(x);
      const finite = values.every((e) => e !== null);
      let sum: Rational = ZERO, squares: Rational = ZERO;
      if (finite) for (const e of values) { sum = addRational(sum, absRational(e!)); squares = addRational(squares, mulRational(e!, e!)); }
      for (const backend of BACKENDS) {
        const options = { arithmetic, backend, ...(accumulation ? { accumulation } : {}) } as never;
        const what = `${v.mode}, ${backend} ${arithmetic}/${accumulation}, x ${describeVec(xs)}`;
        const a = agreed(outcome(() => asumBound(x, options)), outcome(() => asum(x, options)), `asum ${what}`);
        if (a && !finite && a.bound !== Infinity) throw new Error(`asum ${what}: a NaN or ±∞ is read, bound ${a.bound}`);
        if (a && finite && !within(a.result, sum, a.bound)) throw new Error(`asum ${what}: ${a.result} outside the bound ${a.bound}`);
        const q = agreed(outcome(() => nrm2Bound(x, options)), outcome(() => nrm2(x, options)), `nrm2 ${what}`);
        if (!q || q.bound === Infinity) continue;
        if (!finite) throw new Error(`nrm2 ${what}: a NaN or ±∞ is read, bound ${q.bound}`);
        // |r − √S| ≤ b ⟺ max(0, r − b)² ≤ S ≤ (r + b)², decided exactly.
        const low = subRational(exactOf(q.result), exactOf(q.bound)), high = addRational(exactOf(q.result), exactOf(q.bound));
        const ok = Number.isFinite(q.result) && (low.num < 0n || compareRational(mulRational(low, low), squares) <= 0) && compareRational(squares, mulRational(high, high)) <= 0;
        if (!ok) throw new Error(`nrm2 ${what}: ${q.result} outside the bound ${q.bound}`);
      }
    }), { numRuns: 250 });
  });
});
