/**
 * Checks shared by the WebAssembly accumulation tests: a computed DOT, ASUM or GEMV result within its published bound
 * of the exact rational value (each double is a dyadic rational: the oracle is exact), and the GEMV operand specs
 * the WebAssembly readers take.
 */
import fc from 'fast-check';
import { vector, type Range } from '../../src/index.js';
import { addRational, mulRational, type Rational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { errorOf, exactDotOf, exactMatrix, exactVector, withinBound, type MatrixSpec, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';

/** GEMV matrices: one scale per operand at most (a scaled matrix has a scale per row or column: WebAssembly reads none). */
export const wasmGemvMatrixSpec: fc.Arbitrary<MatrixSpec> = fc.record({
  storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const),
  layout: fc.constantFrom('row' as const, 'col' as const), sub: fc.boolean(), scaleRows: fc.constant(false),
});
/** GEMV outputs: f64 or f32, strides of either sign, sub-ranges. */
export const wasmGemvOutputSpec: fc.Arbitrary<VectorSpec> = fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() });

/** Throws unless the double `got` is within `bound` of the exact x·y. */
export function expectDotWithinBound(x: Range<1, any>, y: Range<1, any>, got: number, bound: number): void {
  const exact = exactDotOf(exactVector(x), exactVector(y));
  const computed = exactVector(vector([got]))[0]!;
  if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
}

/** Throws unless the double `got` is within `bound` of the exact Σ|x_i|. */
export function expectAsumWithinBound(x: Range<1, any>, got: number, bound: number): void {
  const ones = exactVector(vector(Array.from({ length: x.length() }, () => 1)));
  const exact = exactDotOf(exactVector(x).map((r) => (r.num < 0n ? { ...r, num: -r.num } : r)), ones);
  const computed = exactVector(vector([got]))[0]!;
  if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
}

/**
 * Throws unless each y_i after the call is within bound_i of the exact α·(op(A)·x)_i + β·y_i.
 * @param c - the case: m, n, op and the coefficients
 * @param a - the operands after the call (y holds the result)
 * @param yIn - y's exact values before the call (null where β = 0: y is not read)
 * @param bound - gemvBound's per-element bounds
 */
export function expectGemvWithinBound(
  c: { m: number; n: number; trans: 'N' | 'T'; alpha: number; beta: number }, a: { A: Range<2, any>; x: Range<1, any>; y: Range<1, any> },
  yIn: readonly Rational[] | null, bound: ArrayLike<number>,
): void {
  const eA = exactMatrix(a.A), ex = exactVector(a.x), out = exactVector(a.y);
  for (let i = 0; i < c.m; i++) {
    const r = Array.from({ length: c.n }, (_, j) => (c.trans === 'N' ? eA[i]![j]! : eA[j]![i]!));
    let exact = mulRational(exactOf(c.alpha), exactDotOf(r, ex));
    if (yIn) exact = addRational(exact, mulRational(exactOf(c.beta), yIn[i]!));
    if (!withinBound(out[i]!, exact, bound[i]!)) throw new Error(`y[${i}]: error ${errorOf(out[i]!, exact)} > bound ${bound[i]}`);
  }
}
