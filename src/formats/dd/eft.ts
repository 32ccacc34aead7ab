/**
 * Error-free transformations (EFTs) of binary64: each turns one rounded operation into the rounded
 * result plus its exact rounding error, so a double-double operation can carry the error along.
 *
 * Results go into a caller-owned `Float64Array` of length ≥ 2 (`out[0]` = rounded result,
 * `out[1]` = error); nothing is allocated. See docs/double-double.md for why this convention
 * (measured in bench/dd-api.ts).
 *
 * JavaScript has no fused multiply-add, so {@link twoProd} uses Dekker's product with Veltkamp's
 * splitting (Dekker 1971). The splitting multiplies by 2^27 + 1, which overflows for |a| > ~2^996;
 * beyond {@link SPLIT_LIMIT} the operand is scaled by 2^-28 first (exact), split, and the error
 * scaled back, so `twoProd` stays error-free for every finite product whose error term does not
 * underflow (|a·b| ≥ 2^-969) and which does not itself overflow.
 *
 * @module
 */
import { NAMES_A, NAMES_A_B, NAMES_A_B_P, failDdCall, failDdOperands } from './dd-arguments.js';

/** Veltkamp's splitting constant 2^⌈53/2⌉ + 1. */
const SPLITTER = 134217729;

/**
 * Largest |a| that {@link split} handles without scaling: `SPLITTER · a` must not overflow
 * (2^996 · (2^27 + 1) < 2^1024). Above it the operand is scaled by 2^-28 first.
 * @group Double-double
 */
export const SPLIT_LIMIT = 2 ** 996;

const DOWN = 2 ** -28;
const UP = 2 ** 28;

/**
 * Output buffer of the allocation-free API: `out[0]` is the high (rounded) part, `out[1]` the low part.
 * @group Double-double
 */
export type DdBuffer = Float64Array;

/**
 * Knuth's TwoSum: `out[0] = fl(a + b)`, `out[1] = (a + b) − fl(a + b)` exactly, for any finite a, b
 * whose sum does not overflow. 6 flops, no branch.
 * @param out - receives [sum, error]
 * @param a - first addend
 * @param b - second addend
 * @example
 * ```ts
 * import { twoSum } from 'modprec';
 *
 * const r = new Float64Array(2);
 * twoSum(r, 1, 2 ** -60);   // 1 + 2^-60 is not a double: the sum and its exact error
 * r; // → Float64Array(2) [ 1, 8.673617379884035e-19 ]
 * ```
 * @group Double-double
 */
export function twoSum(out: DdBuffer, a: number, b: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof a !== 'number' || typeof b !== 'number'
  ) failDdCall(out, NAMES_A_B, a, b);
  sumPair(out, a, b);
}

/**
 * {@link twoSum} without the argument check, for the library's own callers (numbers into a Float64Array(2)).
 * @param out - receives [s, e]
 * @param a - first addend
 * @param b - second addend
 */
export function sumPair(out: DdBuffer, a: number, b: number): void {
  const s = a + b;
  const bb = s - a;
  let e = (a - (s - bb)) + (b - bb);
  // s − a overflows where |b| > |a| and s is within half an ulp of the overflow threshold once rounded back
  // (twoSum(−1.4557850111658402e307, MAX_VALUE): s finite, error NaN). With the larger operand first, s − b is at
  // most |a| plus half an ulp of s, which cannot overflow: the same exact error (TwoSum is symmetric).
  if (e - e !== 0 && s - s === 0) {
    const aa = s - b;
    e = (b - (s - aa)) + (a - aa);
  }
  out[0] = s;
  out[1] = e;
}

/**
 * Dekker's FastTwoSum: exact like {@link twoSum} in 3 flops, provided the exponent of `a` is ≥ that of
 * `b` (e.g. |a| ≥ |b|, or a = 0). Callers guarantee the precondition; violating it gives a wrong error term.
 * @param out - receives [sum, error]
 * @param a - larger addend
 * @param b - smaller addend
 * @example
 * ```ts
 * import { fastTwoSum } from 'modprec';
 *
 * const r = new Float64Array(2);
 * fastTwoSum(r, 1e16, 1);   // |a| ≥ |b|
 * r; // → Float64Array(2) [ 10000000000000000, 1 ]
 * ```
 * @group Double-double
 */
export function fastTwoSum(out: DdBuffer, a: number, b: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof a !== 'number' || typeof b !== 'number'
  ) failDdCall(out, NAMES_A_B, a, b);
  const s = a + b;
  out[0] = s;
  out[1] = b - (s - a);
}

/**
 * Veltkamp's splitting: `a = out[0] + out[1]` exactly, each part fitting in 26 bits (so products of
 * parts are exact). Operands above {@link SPLIT_LIMIT} in magnitude are scaled by 2^-28 first.
 * @param out - receives [high part, low part]
 * @param a - finite number to split
 * @example
 * ```ts
 * import { split } from 'modprec';
 *
 * const r = new Float64Array(2);
 * split(r, 0.1);
 * r[0]! + r[1]! === 0.1; // → true
 * ```
 * @group Double-double
 */
export function split(out: DdBuffer, a: number): void {
  if (!(out instanceof Float64Array) || out.length < 2 || typeof a !== 'number') failDdCall(out, NAMES_A, a);
  if (Math.abs(a) > SPLIT_LIMIT) {
    const s = a * DOWN;
    const t = SPLITTER * s;
    const h = t - (t - s);
    out[0] = h * UP;
    out[1] = (s - h) * UP;
    return;
  }
  const t = SPLITTER * a;
  const h = t - (t - a);
  out[0] = h;
  out[1] = a - h;
}

/**
 * The exact error `a·b − p` of the rounded product `p = fl(a·b)` (Dekker's product with Veltkamp
 * splitting; 17 flops). Exact when p is finite and |a·b| ≥ 2^-969 (else the error underflows). A non-finite factor
 * with a finite p (a p that is not a·b) gives the double a·b − p (NaN or ±∞), as every other non-finite input gives
 * a non-finite or zero result: it never throws.
 * @param a - first factor
 * @param b - second factor
 * @param p - `a * b` as computed by JavaScript
 * @returns the exact rounding error of p
 * @example
 * ```ts
 * import { twoProdError } from 'modprec';
 *
 * const p = 0.1 * 0.1;
 * twoProdError(0.1, 0.1, p); // → -8.326672684688674e-19
 * ```
 * @group Double-double
 */
export function twoProdError(a: number, b: number, p: number): number {
  if (typeof a !== 'number' || typeof b !== 'number' || typeof p !== 'number') failDdOperands(NAMES_A_B_P, a, b, p);
  return productError(a, b, p);
}

/** {@link twoProdError} without the argument check, for the double-double code itself (its operands are numbers). */
export function productError(a: number, b: number, p: number): number {
  if (!(Math.abs(a) <= SPLIT_LIMIT && Math.abs(b) <= SPLIT_LIMIT)) return twoProdErrorScaled(a, b, p);
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return (((ah * bh - p) + ah * bl) + al * bh) + al * bl;
}

/** {@link twoProdError} for operands beyond {@link SPLIT_LIMIT} (or non-finite ones): scale, split, scale back. */
export function twoProdErrorScaled(a: number, b: number, p: number): number {
  if (!Number.isFinite(p)) return Number.isNaN(p) ? p : 0;
  // A non-finite factor with a finite p (a p that is not fl(a·b)): scaling never brings it into range, and the two
  // functions called each other until the stack overflowed (twoProdError(Infinity, 1, 5), twoProdError(NaN, 1, 0)).
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a * b - p;
  let scale = 1;
  if (Math.abs(a) > SPLIT_LIMIT) { a *= DOWN; scale *= UP; }
  if (Math.abs(b) > SPLIT_LIMIT) { b *= DOWN; scale *= UP; }
  // p / scale is exact: a was large, so the scaled product is far from the subnormal range.
  return productError(a, b, p / scale) * scale;
}

/**
 * Dekker's TwoProd: `out[0] = fl(a·b)`, `out[1] = a·b − fl(a·b)` exactly (conditions as in
 * {@link twoProdError}).
 * @param out - receives [product, error]
 * @param a - first factor
 * @param b - second factor
 * @example
 * ```ts
 * import { twoProd } from 'modprec';
 *
 * const r = new Float64Array(2);
 * twoProd(r, 0.1, 0.1);   // 0.1·0.1 = r[0] + r[1] exactly
 * r[0]; // → 0.010000000000000002
 * r[1]; // → -8.326672684688674e-19
 * ```
 * @group Double-double
 */
export function twoProd(out: DdBuffer, a: number, b: number): void {
  if (
    !(out instanceof Float64Array) || out.length < 2 || typeof a !== 'number' || typeof b !== 'number'
  ) failDdCall(out, NAMES_A_B, a, b);
  productPair(out, a, b);
}

/**
 * {@link twoProd} without the argument check, for the library's own callers (numbers into a Float64Array(2)).
 * @param out - receives [p, e]
 * @param a - first factor
 * @param b - second factor
 */
export function productPair(out: DdBuffer, a: number, b: number): void {
  const p = a * b;
  out[0] = p;
  out[1] = productError(a, b, p);
}
