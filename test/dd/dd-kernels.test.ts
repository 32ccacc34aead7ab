import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import '../../src/formats/dd/register.js';
import { vector, matrix, dot, nrm2, asum, range, rowMajor, dotBound, gamma } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { axpy } from '../../kernels/axpy/axpy.js';
import { ddMulAccumulate } from '../../src/formats/dd/mul.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { absRational, subRational, compareRational, mulRational, divRational, type Rational } from '../../src/testing/rational.js';
import { genDot, prng } from './gen-dot.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';

const U104 = 2 ** -104;
/** A 1-element DD range to receive a DD result in full. */
const ddCell = () => range(rowMajor<1, DdValue>({ size: 1, storage: 'dd' }));
const cellRational = (r: ReturnType<typeof ddCell>): Rational => {
  const v = r.get(0);
  return exactDotPairs([v.hi, v.lo], [1, 1]);
};
function exactDotPairs(x: ArrayLike<number>, y: ArrayLike<number>): Rational { return exactDot(x, y); }
/** |a − b| ≤ bound (a double), decided exactly. */
const within = (a: Rational, b: Rational, bound: number): boolean =>
  compareRational(absRational(subRational(a, b)), exactOf(bound)) <= 0;
const absDot = (x: ArrayLike<number>, y: ArrayLike<number>): number =>
  roundRationalToDouble(exactDot(Float64Array.from(x, Math.abs), Float64Array.from(y, Math.abs))) * (1 + 2 ** -50);
// Magnitudes in [1e-6, 1e6] or 0: the bounds assume no underflow (products stay far above 2^-969, and above
// the fp32 normal range for the fp32 cases).
const values = (n: number) => fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((v) => (Math.abs(v) < 1e-6 ? 0 : v)), { minLength: n, maxLength: n });

describe('DD arithmetic through the core kernels', () => {
  it('the kernels\' multiply-add is ddMulAccumulate, bit for bit (AXPY on DD storage)', () => {
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 1, max: 30 }).chain((n) => fc.tuple(values(n), values(n))), (alpha, [a, b]) => {
      const n = a.length;
      const x = range(rowMajor<1, DdValue>({ size: n, storage: 'dd' }));
      const y = range(rowMajor<1, DdValue>({ size: n, storage: 'dd' }));
      a.forEach((v, i) => { x.set(i, { hi: v / 3, lo: (v / 3) * 2 ** -55 }); y.set(i, { hi: b[i]! / 7, lo: (b[i]! / 7) * 2 ** -56 }); });
      const expected = Array.from({ length: n }, (_, i) => {
        const xi = x.get(i), yi = y.get(i), o = new Float64Array(2);
        ddMulAccumulate(o, alpha, 0, xi.hi, xi.lo, yi.hi, yi.lo);
        return [o[0], o[1]];
      });
      axpy(alpha, x, y);
      expect(Array.from({ length: n }, (_, i) => [y.get(i).hi, y.get(i).lo])).toEqual(expected);
    }), { numRuns: 100 });
  });

  it('DOT, fp64 storage, DD arithmetic: error ≤ γ_{n−1}(2^-104)·Σ|xᵢyᵢ| (products exact, sums ≤ 3u²+13u³)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 60 }).chain((n) => fc.tuple(values(n), values(n))), ([xs, ys]) => {
      const x = vector(xs, { arithmetic: 'dd' });
      const y = vector(ys);
      const out = ddCell();
      dot(x, y, { into: out });
      const bound = gamma(xs.length - 1, U104) * absDot(xs, ys);
      expect(within(cellRational(out), exactDot(xs, ys), bound)).toBe(true);
    }), { numRuns: 200 });
  });

  it('DOT, DD storage and arithmetic: error ≤ γ_{n+3}(2^-104)·Σ|xᵢ||yᵢ| (≤ 15u² per fused product-add, 3.01u² per partial sum)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(values(n), values(n), values(n))), ([a, b, c]) => {
      const x = range(rowMajor<1, DdValue>({ size: a.length, storage: 'dd' }));
      const y = range(rowMajor<1, DdValue>({ size: a.length, storage: 'dd' }));
      const xs: number[] = [], ys: number[] = [];
      a.forEach((v, i) => {
        // x = a/3 and y = b + c·2^-60 as DD values (non-trivial low parts)
        x.set(i, { hi: v / 3, lo: (v / 3) * 2 ** -55 });
        y.set(i, { hi: b[i]!, lo: c[i]! * 2 ** -60 * (b[i] === 0 ? 0 : 1e-6) });
      });
      for (let i = 0; i < a.length; i++) {
        const xi = x.get(i), yi = y.get(i);
        xs.push(xi.hi, xi.hi, xi.lo, xi.lo); ys.push(yi.hi, yi.lo, yi.hi, yi.lo);
      }
      const out = ddCell();
      dot(x, y, { into: out });
      const ax = [], ay = [];
      for (let i = 0; i < xs.length; i += 4) { ax.push(Math.abs(xs[i]!) + Math.abs(xs[i + 2]!)); ay.push(Math.abs(ys[i]!) + Math.abs(ys[i + 1]!)); }
      const bound = gamma(a.length + 3, U104) * absDot(ax, ay) * (1 + 2 ** -50);
      expect(within(cellRational(out), exactDot(xs, ys), bound)).toBe(true);
    }), { numRuns: 150 });
  });

  it('DD storage read by fp64 arithmetic rounds each element to fp64 (same bits as an fp64 DOT of hi + lo)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }).chain((n) => fc.tuple(values(n), values(n))), ([a, b]) => {
      const x = range(rowMajor<1, number>({ size: a.length, storage: 'dd', arithmetic: 'f64' }));
      a.forEach((v, i) => x.set(i, v / 7));
      const xd = x.accessor.data as Float64Array;
      for (let i = 0; i < a.length; i++) xd[2 * i + 1] = xd[2 * i]! * 2 ** -54 * (i % 3 - 1); // low parts
      const rounded = a.map((_, i) => xd[2 * i]! + xd[2 * i + 1]!);
      // The same backend on both sides (WebAssembly, which reads dd storage as hi + lo too, sums in another order).
      for (const backend of ['js', 'wasm'] as const) expect(dot(x, vector(b), { backend })).toBe(dot(vector(rounded), vector(b), { backend }));
    }), { numRuns: 100 });
  });

  it('fp32 storage, DD arithmetic: reads are exact, same bound as fp64 storage', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 60 }).chain((n) => fc.tuple(values(n), values(n))), ([xs, ys]) => {
      const x = vector(xs, { storage: 'f32', arithmetic: 'dd' });
      const y = vector(ys, { storage: 'f32' });
      const fx = xs.map(Math.fround), fy = ys.map(Math.fround);
      const out = ddCell();
      dot(x, y, { into: out });
      expect(within(cellRational(out), exactDot(fx, fy), gamma(xs.length - 1, U104) * absDot(fx, fy))).toBe(true);
    }), { numRuns: 100 });
  });

  it('GEMV in DD (y := A·x, fp64 A and x, DD y): each row within γ_{n−1}(2^-104)·Σ|aᵢⱼxⱼ|', () => {
    const rand = prng(7);
    for (const [m, n] of [[1, 1], [5, 17], [40, 33]] as const) {
      const a = new Float64Array(m * n).map(() => (rand() - 0.5) * 2 ** Math.floor(rand() * 40 - 20));
      const xs = new Float64Array(n).map(() => rand() - 0.5);
      const A = matrix(m, n, (i, j) => a[i * n + j]!, { layout: 'row-major' });
      const x = vector(xs);
      const y = range(rowMajor<1, DdValue>({ size: m, storage: 'dd' }));
      gemv({ alpha: 1, A, x, beta: 0, y, trans: 'N' });
      for (let i = 0; i < m; i++) {
        const row = a.subarray(i * n, (i + 1) * n);
        const v = y.get(i);
        expect(within(exactDot([v.hi, v.lo], [1, 1]), exactDot(row, xs), gamma(n - 1, U104) * absDot(row, xs))).toBe(true);
      }
    }
  });

  it('ill-conditioned DOT (GenDot): fp64 loses every digit by cond 1e20; DD keeps ≤ ~1e-16 up to cond 1e16 and its bound up to 1e30', () => {
    const n = 100;
    let fp64Lost = 0, cases = 0;
    const ddErrorsUpTo1e16: number[] = [];
    for (const c of [1e4, 1e8, 1e12, 1e16, 1e20, 1e24, 1e30]) {
      for (let seed = 1; seed <= 4; seed++) {
        const { x: xs, y: ys, cond } = genDot(n, c, seed * 1000 + Math.log10(c));
        const exact = exactDot(xs, ys);
        const x = vector(xs), y = vector(ys);
        const relF64 = relErr(dot(x, y), exact);
        const out = ddCell();
        dot(vector(xs, { arithmetic: 'dd' }), y, { into: out });
        const errDd = absRational(subRational(cellRational(out), exact));
        const relDd = roundRationalToDouble(divRational(errDd, absRational(exact)));
        // the proven bound, relative: γ_{n−1}(2^-104)·Σ|xy| / |xᵀy| = γ·cond/2
        expect(compareRational(errDd, mulRational(absRational(exact), exactOf(gamma(n - 1, U104) * cond / 2 * (1 + 2 ** -40))))).toBeLessThanOrEqual(0);
        if (cond <= 2e16) ddErrorsUpTo1e16.push(relDd);
        if (cond >= 1e20) { cases++; if (relF64 > 1e-2) fp64Lost++; }
      }
    }
    expect(fp64Lost).toBeGreaterThanOrEqual(cases - 1);
    ddErrorsUpTo1e16.sort((p, q) => p - q);
    expect(ddErrorsUpTo1e16[ddErrorsUpTo1e16.length >> 1]).toBeLessThanOrEqual(1e-16);
    expect(ddErrorsUpTo1e16[ddErrorsUpTo1e16.length - 1]).toBeLessThanOrEqual(1e-14);
  });
});

function relErr(x: number, exact: Rational): number {
  return roundRationalToDouble(divRational(absRational(subRational(exactOf(x), exact)), absRational(exact)));
}

describe('accumulation strategies (pairwise, kahan, dot2, dd) in fp64 and fp32 arithmetic', () => {
  const strategies = ['recursive', 'pairwise', 'kahan', 'dot2', 'dd'] as const;

  it('DOT within the a-priori bound of each strategy (dotBound) against the exact oracle', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 80 }).chain((n) => fc.tuple(values(n), values(n))), fc.constantFrom('f64', 'f32'), ([xs, ys], ar) => {
      const x = vector(xs, { storage: ar });
      const y = vector(ys, { storage: ar });
      const fx = ar === 'f32' ? xs.map(Math.fround) : xs, fy = ar === 'f32' ? ys.map(Math.fround) : ys;
      const exact = exactDot(fx, fy);
      for (const acc of strategies) {
        const r = dot(x, y, { accumulation: acc });
        expect(within(exactOf(r), exact, dotBound(x, y, { accumulation: acc })), `${acc} in ${ar}`).toBe(true);
      }
    }), { numRuns: 150 });
  });

  it('pairwise over many blocks (n = 5000, deep carries) stays within γ_{B+⌊log₂⌈n/B⌉⌋+1}, in fp64 and in DD', () => {
    const rand = prng(9);
    const n = 5000;
    const xs = Float64Array.from({ length: n }, () => (rand() - 0.5) * 2 ** Math.floor(rand() * 30));
    const ys = Float64Array.from({ length: n }, () => rand() - 0.3);
    const exact = exactDot(xs, ys);
    const x = vector(xs), y = vector(ys);
    const r = dot(x, y, { accumulation: 'pairwise' });
    expect(within(exactOf(r), exact, dotBound(x, y, { accumulation: 'pairwise' }))).toBe(true);
    const out = ddCell();
    dot(vector(xs, { arithmetic: 'dd' }), y, { accumulation: 'pairwise', into: out });
    expect(within(cellRational(out), exact, gamma(16 + 9 + 1, 2 ** -102) * absDot(xs, ys))).toBe(true);
    // and the block tree really helps on a sum that recursive summation spoils
    const ones = new Float64Array(n).fill(1);
    const big = Float64Array.from({ length: n }, (_, i) => (i === 0 ? 2 ** 53 : 1));
    expect(dot(vector(big), vector(ones), { accumulation: 'pairwise' })).toBeGreaterThan(dot(vector(big), vector(ones)));
  });

  it('Dot2 meets Ogita–Rump–Oishi’s bound u|xᵀy| + γ_n²Σ|xᵢyᵢ| on GenDot data up to cond 1e30', () => {
    for (const c of [1e8, 1e16, 1e24, 1e30]) {
      for (let seed = 1; seed <= 3; seed++) {
        const { x: xs, y: ys } = genDot(64, c, seed);
        const exact = exactDot(xs, ys);
        const r = dot(vector(xs), vector(ys), { accumulation: 'dot2' });
        const g = gamma(64, 2 ** -53);
        const bound = 2 ** -53 * Math.abs(roundRationalToDouble(exact)) * (1 + 2 ** -50) + g * g * absDot(xs, ys);
        expect(within(exactOf(r), exact, bound)).toBe(true);
      }
    }
  });

  it('dd and dot2 accumulation stay fp64-accurate at cond 1e12 (their bounds: ≤ u + 2e-18 and ≤ u + 1.3e-16)', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const { x: xs, y: ys, cond } = genDot(100, 1e12, seed);
      const exact = exactDot(xs, ys);
      const rel = (acc: string) => relErr(dot(vector(xs), vector(ys), { accumulation: acc }), exact);
      const g = gamma(100, 2 ** -53);
      expect(rel('dd')).toBeLessThanOrEqual(2 ** -53 + gamma(99, 2 ** -104) * cond);
      expect(rel('dot2')).toBeLessThanOrEqual(2 ** -53 + g * g * cond);
    }
  });

  it('GEMV, NRM2 and ASUM accept every strategy and stay within γ bounds', () => {
    const rand = prng(3);
    const m = 7, n = 50;
    const a = new Float64Array(m * n).map(() => rand() - 0.5);
    const xs = new Float64Array(n).map(() => (rand() - 0.5) * 1e3);
    for (const acc of strategies) {
      const A = matrix(m, n, (i, j) => a[i * n + j]!, { layout: 'row-major' });
      const y = vector(m);
      gemv({ alpha: 1, A, x: vector(xs), beta: 0, y, trans: 'N' }, { accumulation: acc });
      for (let i = 0; i < m; i++) {
        const row = a.subarray(i * n, (i + 1) * n);
        expect(within(exactOf(y.get(i) as number), exactDot(row, xs), (gamma(n + 2, 2 ** -53)) * absDot(row, xs)), `gemv ${acc}`).toBe(true);
      }
      const s = asum(vector(xs), { accumulation: acc });
      expect(within(exactOf(s), exactDot(xs.map(Math.abs), new Float64Array(n).fill(1)), gamma(n + 1, 2 ** -53) * absDot(xs, new Float64Array(n).fill(1))), `asum ${acc}`).toBe(true);
      const r = nrm2(vector(xs), { accumulation: acc });
      const exactSq = roundRationalToDouble(exactDot(xs, xs));
      expect(Math.abs(r - Math.sqrt(exactSq)) / Math.sqrt(exactSq), `nrm2 ${acc}`).toBeLessThanOrEqual(gamma(n + 4, 2 ** -53));
    }
  });

  it('compensated strategies refuse arithmetics they cannot make error-free, naming the option', () => {
    const x = vector([1, 2], { arithmetic: 'dd' });
    for (const acc of ['kahan', 'dot2']) {
      expect(() => dot(x, x, { accumulation: acc })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.accumulation' }));
    }
    expect(dot(x, x, { accumulation: 'pairwise' })).toBe(5);
    expect(dot(x, x, { accumulation: 'dd' })).toBe(5);
  });
});
