/**
 * TRSV into scaled integer storage where the solve leaves the arithmetic's range: an integer x stores a NaN unknown as
 * 0 and ±∞ saturated (src/formats/convert/integer.ts), as GEMV and AXPY store theirs, and bᵢ is overwritten, so
 * trsvBound (taken after the solve, in terms of x̂) must be +∞ wherever the stored x̂ᵢ may be such a value. Checked
 * against the exact BigInt solution of the values A and b held, on the JavaScript, the automatic CPU choice and the
 * WebAssembly (i32 is no GPU storage, and the GPU's substitution of scaled i8/i16 x takes this same bound).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { trsv, trsvBound, range, type Range } from '../../src/index.js';
import { rowMajor } from '../../accessors/row-major.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import { asArithmetic } from '../../src/formats/common/registry.js';
import { exactOf } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { absRational, compareRational, divRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { exactAt } from '../wasm/public-operands.js';

const BACKENDS = ['js', 'cpu', 'wasm'] as const;
type IntName = 'i8' | 'i16' | 'i32';
const ARRAYS = { i8: Int8Array, i16: Int16Array, i32: Int32Array } as const;
const MAX = { i8: 127, i16: 32767, i32: 2147483647 } as const;

interface Case {
  n: number; uplo: 'U' | 'L'; trans: 'N' | 'T'; diag: 'N' | 'U';
  a: (i: number, j: number) => number; aStorage: string;
  storage: IntName; q: readonly number[]; scales: readonly number[];
  arithmetic: string; accumulation: string;
}

/** A (row-major, in `aStorage`) and x (one scale per element over the raw integers q) in the case's arithmetic. */
function build(c: Case): { A: Range<2, any>; x: Range<1, any>; raw: () => number[] } {
  const A0 = range(rowMajor<2>({ size: [c.n, c.n], storage: c.aStorage, arithmetic: 'f64' } as any));
  for (let i = 0; i < c.n; i++) for (let j = 0; j < c.n; j++) A0.set(i, j, c.a(i, j));
  const data = ARRAYS[c.storage].from(c.q);
  const scale = Float64Array.from(c.scales);
  const x = scaledReducedRowMajor<1>({ size: [c.n], storage: c.storage, arithmetic: 'f64', data, scaleMask: [true], scale } as any);
  const ar = asArithmetic(c.arithmetic);
  return { A: range(A0.accessor.withArithmetic(ar)), x: range(x.withArithmetic(ar)), raw: () => [...data] };
}

/** The exact solution of op(A)·x = b for the values held (null: a zero pivot). */
function exactSolution(c: Case, A: Range<2, any>, x: Range<1, any>): Rational[] | null {
  const n = c.n, lower = (c.uplo === 'L') !== (c.trans === 'T');
  const opA = (i: number, j: number): Rational => exactAt(A, c.trans === 'N' ? [i, j] : [j, i])!;
  const out: Rational[] = [];
  for (let k = 0; k < n; k++) {
    const i = lower ? k : n - 1 - k;
    let s = exactAt(x, [i])!;
    for (let j = lower ? 0 : i + 1; j < (lower ? i : n); j++) s = subRational(s, mulRational(opA(i, j), out[j]!));
    const d = c.diag === 'U' ? exactOf(1) : opA(i, i);
    if (d.num === 0n) return null;
    out[i] = divRational(s, d);
  }
  return out;
}

/** Solves on every backend; each stored x̂ᵢ within its trsvBound of the exact solution. Returns each backend's raws. */
function solveAndCheck(c: Case): Map<string, { raw: number[]; bound: Float64Array }> {
  const results = new Map<string, { raw: number[]; bound: Float64Array }>();
  const probe = build(c);
  const exact = exactSolution(c, probe.A, probe.x);
  for (const backend of BACKENDS) {
    const { A, x, raw } = build(c);
    const args = { A, x, uplo: c.uplo, trans: c.trans, diag: c.diag };
    const opts = { arithmetic: c.arithmetic, accumulation: c.accumulation };
    trsv(args, { ...opts, backend } as any);
    const bound = trsvBound(args, opts as any);
    results.set(backend, { raw: raw(), bound });
    if (!exact) continue;
    for (let i = 0; i < c.n; i++) {
      if (bound[i] === Infinity) continue;
      const err = absRational(subRational(exactAt(x, [i])!, exact[i]!));
      const what = `${backend} ${c.uplo}${c.trans}${c.diag} n=${c.n} ${c.arithmetic}/${c.accumulation} x=${c.storage} q=[${c.q}] scales=[${c.scales}]: x[${i}] = ${x.get(i)}, exact ${roundRationalToDouble(exact[i]!)}, bound ${bound[i]}`;
      expect(bound[i]! >= 0 && compareRational(err, exactOf(bound[i]!)) <= 0, what).toBe(true);
    }
  }
  return results;
}

describe('TRSV into scaled integer storage beyond the arithmetic', () => {
  it('the fuzz case: LNU, f64/kahan, b[1] saturated in i32 under a scale of 1e300 (read as +∞, solved as NaN, stored 0)', () => {
    for (const accumulation of ['kahan', 'dot2', 'recursive']) {
      const c: Case = {
        n: 4, uplo: 'L', trans: 'N', diag: 'U', aStorage: 'dd',
        a: (i, j) => (i === j ? 1.4e-45 : 0.125 * (i + j)),
        storage: 'i32', q: [3, 2147483647, 5, 7], scales: [1, 1e300, 1, 1e300], arithmetic: 'f64', accumulation,
      };
      const results = solveAndCheck(c);
      const js = results.get('js')!;
      for (const [b, r] of results) expect(r.raw, `${accumulation} ${b}: the JavaScript's bits`).toEqual(js.raw);
      // x[1] is 2147483647e300 − 0.125·3 exactly (beyond the doubles): saturated (recursive) or 0 (Kahan's NaN), never
      // with a finite bound; x[0] = b[0] is untouched and exact.
      expect(js.raw[1] === 2147483647 || (accumulation !== 'recursive' && js.raw[1] === 0), `${accumulation}: x[1] raw ${js.raw[1]}`).toBe(true);
      expect(js.bound[1], accumulation).toBe(Infinity);
      expect(js.raw[0]).toBe(3);
      expect(js.bound[0]).toBeLessThan(1);
    }
  });

  it('a row whose sum overflows fp64 without any overflowing read (Kahan: NaN, stored 0) has bound +∞', () => {
    // b₁ = 7.5e307 and −t₁₀·x₀ = 1.5e308: the sum overflows, Kahan's compensation makes it NaN. (Under 5e298 the
    // largest i32 reads as 1.07e308: no read of x overflows.)
    const c: Case = {
      n: 2, uplo: 'L', trans: 'N', diag: 'U', aStorage: 'f64', a: (i, j) => (i === j ? 1 : -3),
      storage: 'i32', q: [1e9, 1.5e9], scales: [5e298, 5e298], arithmetic: 'f64', accumulation: 'kahan',
    };
    const js = solveAndCheck(c).get('js')!;
    expect(js.raw).toEqual([1e9, 0]);
    expect(js.bound[0]).toBeLessThan(1e299);
    expect(js.bound[1]).toBe(Infinity);
  });

  it('f32 recursive: bᵢ read as +∞ (i16 under 1e35) less an overflowing product is NaN, stored 0: bound +∞', () => {
    // b₁ = 32767·1e35 > 3.4e38 and t₁₀·x₀ = 1e40: ∞ − ∞ in binary32, though both are finite in fp64.
    const c: Case = {
      n: 2, uplo: 'L', trans: 'N', diag: 'U', aStorage: 'f32', a: (i, j) => (i === j ? 1 : 1e38),
      storage: 'i16', q: [100, 32767], scales: [1, 1e35], arithmetic: 'f32', accumulation: 'recursive',
    };
    const results = solveAndCheck(c);
    for (const [b, r] of results) {
      expect(r.raw, b).toEqual([100, 0]);
      expect(r.bound[0], b).toBeLessThan(0.6); // half a unit: the write's rounding
      expect(r.bound[1], b).toBe(Infinity);
    }
  });

  it('a tiny entry in a row scaled by a 1e300 pivot still carries the earlier row\'s write error (seed -1920360294)', () => {
    // x₅ = −127·1e300 / 3e38 stored in i8 under a scale of 1e300 keeps 0 (a write error of 4e263, bound 5e299); row 4
    // divides 1.18e-264·x₅ by its pivot 1e300. The bound's row scaling (2^-996 for that row) took 1.18e-264 to 0 before
    // the product with z₅, and row 4's bound came out as half its own quantum, 5e-301, below the error 5.0e-301 + 4e-315.
    const cells = new Array<number>(36).fill(0);
    Object.assign(cells, { 2: 1e300, 4: 1e300, 5: 1e300, 11: 1e300, 12: 1e300, 17: 1e300, 31: 1e300, 34: 1.1811023622047333e-264, 35: 1e300 });
    const pivots = [1, 1, 1, 1, 1e300, 3e38];
    const results = solveAndCheck({
      n: 6, uplo: 'L', trans: 'T', diag: 'N', aStorage: 'f64', a: (i, j) => (i === j ? pivots[i]! : cells[i * 6 + j]!),
      storage: 'i8', q: [-127, 0, -127, 0, 0, -127], scales: [1, 1, 1, 1, 1e-300, 1e300], arithmetic: 'f64', accumulation: 'recursive',
    });
    for (const [b, r] of results) expect(r.bound[4], b).toBeGreaterThan(1e-266);
  });

  it('property: solutions stored in i8/i16/i32 under extreme scales are within trsvBound of the exact ones', () => {
    const scaleArb = fc.constantFrom(1, 0.5, 1e300, 1e299, 1e-300, 2 ** -1070, 1e30, 1e36, 3.7e-5, 1e-40);
    const entry = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -2, max: 2, noNaN: true }) },
      { weight: 2, arbitrary: fc.constantFrom(1e300, -1e300, 1.7e308, 3e38, -1e38, 1e-300, 5e-324, 0) });
    const arb = fc.record({
      n: fc.integer({ min: 1, max: 6 }), uplo: fc.constantFrom<'U' | 'L'>('U', 'L'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
      diag: fc.constantFrom<'N' | 'U'>('N', 'U'), storage: fc.constantFrom<IntName>('i8', 'i16', 'i32'),
      cells: fc.array(entry, { minLength: 36, maxLength: 36 }), pivots: fc.array(fc.constantFrom(1, -2, 0.5, 1e-300, 1e300, 3e38, 1e-40), { minLength: 6, maxLength: 6 }),
      fractions: fc.array(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(-1, 1, 0)), { minLength: 6, maxLength: 6 }),
      scales: fc.array(scaleArb, { minLength: 6, maxLength: 6 }),
      c: fc.constantFrom(['f64', 'recursive'], ['f64', 'kahan'], ['f64', 'dot2'], ['f64', 'pairwise'], ['f64', 'dd'], ['f32', 'recursive'], ['f32', 'kahan'], ['dd', 'recursive']),
    });
    fc.assert(fc.property(arb, (t) => {
      const max = MAX[t.storage];
      // Raw integers from −max − 1 to max (saturated ones included), each under its own scale.
      const q = t.fractions.slice(0, t.n).map((f) => Math.max(-max - 1, Math.min(max, Math.round(f * max))));
      solveAndCheck({
        n: t.n, uplo: t.uplo, trans: t.trans, diag: t.diag, aStorage: 'f64',
        a: (i, j) => (i === j ? t.pivots[i]! : t.cells[i * 6 + j]!),
        storage: t.storage, q, scales: t.scales.slice(0, t.n), arithmetic: t.c[0]!, accumulation: t.c[1]!,
      });
    }), { numRuns: 300 });
  });
});
