/**
 * Shared parts of the public-shapes GPU tests (test/gpu/public-shapes-*.test.ts): operands built through the
 * public API as views inside sentinel-filled spans, reproducible data, and an exact oracle — every finite double
 * is sig·2^exp, so α·Σ aᵢbᵢ + β·y is an integer count of a small power of two, summed with BigInt — against
 * which a GPU result is checked within the library's own a-priori bound, compared exactly as rationals.
 */
import { expect } from 'vitest';
import { colMajor, range, rowMajor, span } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { absRational, addRational, compareRational, exactOf, rational, subRational, type Rational } from '../../src/testing/index.js';

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** A finite double as sig·2^exp (sig an integer). */
function split(x: number): { sig: bigint; exp: number } {
  F64[0] = x;
  const bits = U64[0]!;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const mag = biased === 0 ? frac : frac | (1n << 52n);
  return { sig: bits >> 63n ? -mag : mag, exp: biased === 0 ? -1074 : biased - 1075 };
}

/** A double-double value (the dd arithmetic's registers): hi + lo exactly. */
export interface Pair {
  readonly hi: number;
  readonly lo: number;
}

/** A factor of a product: a double, or a double-double pair (its hi + lo, distributed). */
export type Factor = number | Pair;

/** Products of pairs expanded into products of doubles: (a + b)·c = a·c + b·c. */
function expand(p: readonly Factor[]): number[][] {
  let out: number[][] = [[]];
  for (const f of p) {
    const parts = typeof f === 'number' ? [f] : f.lo === 0 ? [f.hi] : [f.hi, f.lo];
    out = out.flatMap((q) => parts.map((v) => [...q, v]));
  }
  return out;
}

/**
 * Exactly Σ_k Π factors_k over finite doubles and pairs: each product is sig·2^exp; all are shifted to the smallest
 * exponent present and added as BigInt (no 2^-2148 grid: the data here spans a few dozen binades).
 */
export function exactSumOfProducts(products: readonly (readonly Factor[])[]): Rational {
  const parts: { sig: bigint; exp: number }[] = [];
  let minExp = Infinity;
  for (const p of products.flatMap((q) => (q.every((f) => typeof f === 'number') ? [q as number[]] : expand(q)))) {
    let sig = 1n;
    let exp = 0;
    for (const f of p) {
      if (!Number.isFinite(f)) throw new Error(`exactSumOfProducts: non-finite factor ${f}`);
      const s = split(f);
      sig *= s.sig;
      exp += s.exp;
    }
    if (sig === 0n) continue;
    parts.push({ sig, exp });
    if (exp < minExp) minExp = exp;
  }
  if (parts.length === 0) return rational(0n);
  let units = 0n;
  for (const { sig, exp } of parts) units += sig << BigInt(exp - minExp);
  return minExp >= 0 ? rational(units << BigInt(minExp)) : rational(units, 1n << BigInt(-minExp));
}

/** |got − exact| ≤ bound, compared exactly (a bound of +∞ admits any finite value). */
export function withinBound(got: Factor, exact: Rational, bound: number): boolean {
  const [hi, lo] = typeof got === 'number' ? [got, 0] : [got.hi, got.lo];
  if (!Number.isFinite(hi) || !Number.isFinite(lo)) return false;
  if (bound === Infinity) return true;
  if (!(bound >= 0)) return false;
  const error = absRational(subRational(addRational(exactOf(hi), exactOf(lo)), exact));
  return compareRational(error, exactOf(bound)) <= 0;
}

/** Asserts withinBound with a message that shows the values. */
export function expectWithin(what: string, got: Factor, exact: Rational, bound: number): void {
  if (withinBound(got, exact, bound)) return;
  const approx = Number(exact.num) / Number(exact.den);
  const g = typeof got === 'number' ? got : got.hi + got.lo;
  expect.fail(`${what}: got ${JSON.stringify(got)}, exact ≈ ${approx}, |error| ≈ ${Math.abs(g - approx)} > bound ${bound}`);
}

/** Reproducible values in [-1, 1) scaled by 2^k with k in [-e, 0] (xorshift32): several binades, so sums round. */
export function seededValues(n: number, seed: number, binades = 6): Float64Array {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const u = next() / 2 ** 31 - 1;
    out[k] = u * 2 ** -(next() % (binades + 1));
  }
  return out;
}

/** A 1-D view of n elements at increment `inc` inside a span with `pad` sentinels before, after and between. */
export interface VecView {
  readonly r: Range<1, any>;
  /** The whole span the view lives in. */
  readonly full: Range<1, any>;
  /** Span index of view element i. */
  readonly at: readonly number[];
  /** The span's values before the kernel (to check that only the view's elements change). */
  readonly before: Float64Array;
}

/** Sentinel of span element k: distinct, finite, exactly representable in every 16-bit storage. */
export const sentinel = (k: number): number => 0.5 + (k % 7) / 8;

export function makeVector(
  values: ArrayLike<Factor>, storage: FormatLike, arithmetic: FormatLike | undefined, inc = 1, pad = 0,
): VecView {
  const n = values.length;
  const a = Math.abs(inc);
  const size = 2 * pad + (n > 0 ? (n - 1) * a + 1 : 0) + 1;
  const full = range(colMajor<1>({ size: [size], storage, ...(arithmetic ? { arithmetic } : {}) } as never)) as Range<1, any>;
  for (let k = 0; k < size; k++) full.set(k, sentinel(k));
  const offset = pad + (inc < 0 && n > 0 ? (n - 1) * a : 0);
  const r = range(colMajor<1>({ size: [n], stride: inc, offset, storage, ...(arithmetic ? { arithmetic } : {}), data: full.accessor.data } as never)) as Range<1, any>;
  for (let i = 0; i < n; i++) r.set(i, values[i]! as never);
  const before = storedVector(full);
  return { r, full, at: Array.from({ length: n }, (_, i) => offset + i * inc), before };
}

/** The stored values of a 1-D range, read back (what the kernels read). */
export function storedVector(r: Range<1, any>): Float64Array {
  const ar = r.accessor.arithmetic;
  return Float64Array.from({ length: r.length(0) }, (_, i) => ar.toNumber(r.get(i)));
}

/** Expects every span element outside the view to keep its value (bit for bit, NaN as NaN). */
export function expectSpanKept(what: string, v: VecView): void {
  const inView = new Set(v.at);
  for (let k = 0; k < v.before.length; k++) {
    if (inView.has(k)) continue;
    const now = v.full.accessor.arithmetic.toNumber(v.full.get(k));
    expect(Object.is(now, v.before[k]), `${what}: span element ${k} outside the view changed`).toBe(true);
  }
}

/** How a matrix sits in memory. */
export type MatLayout = 'col' | 'col-lda' | 'row' | 'sub-col' | 'sub-row';

/** An m×n matrix stored as `layout`, its entries from fill(i, j); returns the range (a view for 'sub-*'). */
export function makeMatrix(
  m: number, n: number, fill: (i: number, j: number) => Factor, storage: FormatLike, arithmetic: FormatLike | undefined, layout: MatLayout,
): Range<2, any> {
  const ar = arithmetic ? { arithmetic } : {};
  let A: Range<2, any>;
  if (layout === 'col') A = range(colMajor<2>({ size: [m, n], storage, ...ar } as never)) as Range<2, any>;
  else if (layout === 'col-lda') A = range(colMajor<2>({ size: [m, n], stride: m + 3, storage, ...ar } as never)) as Range<2, any>;
  else if (layout === 'row') A = range(rowMajor<2>({ size: [m, n], stride: n + 1, storage, ...ar } as never)) as Range<2, any>;
  else {
    const make = layout === 'sub-col' ? colMajor : rowMajor;
    const P = range(make<2>({ size: [m + 3, n + 2], storage, ...ar } as never)) as Range<2, any>;
    for (let i = 0; i < m + 3; i++) for (let j = 0; j < n + 2; j++) P.set(i, j, sentinel(i + 3 * j));
    A = P.sub(span(2, m + 2), span(1, n + 1));
  }
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) A.set(i, j, fill(i, j) as never);
  return A;
}

/** The stored entries of a matrix, column-major, read back. */
export function storedMatrix(A: Range<2, any>): Float64Array {
  const [m, n] = [A.length(0), A.length(1)];
  const out = new Float64Array(m * n);
  const ar = A.accessor.arithmetic;
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) out[i + j * m] = ar.toNumber(A.get(i, j));
  return out;
}

/** A value as the range's arithmetic holds it: a double, or a dd pair (dd arithmetic). */
function factorOf(v: unknown): Factor {
  return typeof v === 'number' ? v : { hi: (v as Pair).hi, lo: (v as Pair).lo };
}

/** The stored values of a 1-D range as exact factors (dd pairs keep their lo). */
export function storedFactors(r: Range<1, any>): Factor[] {
  return Array.from({ length: r.length(0) }, (_, i) => factorOf(r.get(i)));
}

/** The stored entries of a matrix as exact factors, column-major. */
export function storedMatrixFactors(A: Range<2, any>): Factor[] {
  const [m, n] = [A.length(0), A.length(1)];
  const out: Factor[] = new Array<Factor>(m * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) out[i + j * m] = factorOf(A.get(i, j));
  return out;
}

/** Reproducible double-double values: hi as {@link seededValues}, lo a fraction of hi's last place (lo may be 0). */
export function seededPairs(n: number, seed: number, binades = 6): Pair[] {
  const hi = seededValues(n, seed, binades);
  const t = seededValues(n, seed + 7919, 0);
  return Array.from(hi, (h, k) => {
    const lo = k % 5 === 0 ? 0 : h * 2 ** -54 * t[k]!;
    const s = h + lo;
    return { hi: s, lo: lo - (s - h) };
  });
}
