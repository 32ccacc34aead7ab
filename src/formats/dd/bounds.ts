/**
 * Published relative error bounds of the double-double (double-word) algorithms used here, as
 * numbers, for tests and for the a-priori bounds of kernels. u = 2^-53 is the unit roundoff of binary64.
 *
 * "JMP" is Joldes, Muller, Popescu, "Tight and rigorous error bounds for basic building blocks of
 * double-word arithmetic", ACM TOMS 44(2), 2017 (hal-01351529v3); algorithm numbers are theirs, and each
 * bound is the theorem the paper states for that algorithm (several were re-checked in Coq by Muller
 * and Rideau, ACM TOMS 48(1), 2022). Every bound holds when no underflow or overflow occurs.
 *
 * @module
 */
import { failDdOperands } from './dd-arguments.js';

/**
 * Unit roundoff of binary64, u = 2^-53 (the u of every bound below).
 * @group Double-double
 */
export const F64_UNIT_ROUNDOFF = 2 ** -53;
const U2 = F64_UNIT_ROUNDOFF * F64_UNIT_ROUNDOFF;
const U3 = U2 * F64_UNIT_ROUNDOFF;

/**
 * JMP Algorithm 4 (DWPlusFP), double-word + double: relative error ≤ 2u².
 * @group Double-double
 */
export const DD_ADD_NUMBER_BOUND = 2 * U2;
/**
 * JMP Algorithm 6 (AccurateDWPlusDW), double-word + double-word: relative error ≤ 3u² + 13u³.
 * @group Double-double
 */
export const DD_ADD_BOUND = 3 * U2 + 13 * U3;
/**
 * JMP Algorithm 5 (SloppyDWPlusDW): relative error ≤ 3u² only when both operands have the same sign;
 * with opposite signs the relative error is unbounded (it can reach 1 under cancellation).
 * @group Double-double
 */
export const DD_SLOPPY_ADD_SAME_SIGN_BOUND = 3 * U2;
/**
 * JMP Algorithm 7 (DWTimesFP1), double-word × double: relative error ≤ 1.5u² + 4u³.
 * @group Double-double
 */
export const DD_MUL_NUMBER_BOUND = 1.5 * U2 + 4 * U3;
/**
 * JMP Algorithm 10 (DWTimesDW1, the variant without FMA), double-word × double-word: relative error ≤ 7u².
 * @group Double-double
 */
export const DD_MUL_BOUND = 7 * U2;
/**
 * JMP Algorithm 17 (DWDivDW2), double-word ÷ double-word: relative error ≤ 15u² + 56u³.
 * @group Double-double
 */
export const DD_DIV_BOUND = 15 * U2 + 56 * U3;
/**
 * Square root of a double-word (Lefèvre, Louvet, Muller, Picot, Rideau, "Accurate calculation of Euclidean
 * norms using double-word arithmetic", ACM TOMS 49(1), 2023, algorithm SQRTDWtoDW): relative error ≤ 25/8 u².
 * Their algorithm uses an FMA for sh² − xh; here that quantity is computed exactly with TwoProd, which gives
 * the same rounded value, so the bound carries over.
 * @group Double-double
 */
export const DD_SQRT_BOUND = (25 / 8) * U2;
/**
 * Correct rounding of a real x to a double-double (hi = RN(x), lo = RN(x − hi)): relative error ≤ u²
 * (|lo − (x − hi)| ≤ u·|x − hi| ≤ u²·|x|), when lo stays in the normal range (|x| ≥ 2^-969).
 * @group Double-double
 */
export const DD_ROUNDING_BOUND = U2;

/**
 * {@link ddMulAccumulate} (the fused multiply-accumulate of the kernels): the error is at most
 * 15u²·|a·b| + 4u²·|c| (proof at the function). Multiple of |a·b|.
 * @group Double-double
 */
export const DD_MUL_ACCUMULATE_PRODUCT_BOUND = 15 * U2;
/**
 * {@link ddMulAccumulate}: multiple of |c| in its error bound (see {@link DD_MUL_ACCUMULATE_PRODUCT_BOUND}).
 * @group Double-double
 */
export const DD_MUL_ACCUMULATE_ADDEND_BOUND = 4 * U2;

/**
 * {@link ddTwoProdAccumulate} (the multiply-accumulate of two doubles into a double-double, used by the kernels
 * when both factors are exact doubles): the error is at most (3 + 8u)u²·(|a·b| + |c|) (proof at the function;
 * 3 + 8u is a double at or above the proved 3 + 6u). Below 2^-104 = 4u², so γ_n(2^-104) bounds hold.
 * @group Double-double
 */
export const DD_TWO_PROD_ACCUMULATE_BOUND = (3 + 8 * F64_UNIT_ROUNDOFF) * U2;

/**
 * Bound on |fl(a·b + c) − (a·b + c)| for {@link ddMulAccumulate}: 15u²·|a·b| + 4u²·|c|. Both multiples are
 * below 2^-102, so the operation fits the model fl(ab + c) = ab(1 + δ₁) + c(1 + δ₂), |δᵢ| ≤ 2^-102, that
 * the kernels' γ_n bounds are built on.
 * @param absProduct - |a·b|
 * @param absAddend - |c|
 * @returns the absolute error bound
 * @example
 * ```ts
 * import { ddMulAccumulateErrorBound } from 'modprec';
 *
 * // |fl(a·b + c) − (a·b + c)| for a·b ≈ 1, c ≈ 2
 * ddMulAccumulateErrorBound(1, 2) < 2 ** -100; // → true
 * ```
 * @group Double-double
 */
export function ddMulAccumulateErrorBound(absProduct: number, absAddend: number): number {
  if (typeof absProduct !== 'number' || typeof absAddend !== 'number') {
    failDdOperands(['absProduct', 'absAddend'], absProduct, absAddend);
  }
  return DD_MUL_ACCUMULATE_PRODUCT_BOUND * absProduct + DD_MUL_ACCUMULATE_ADDEND_BOUND * absAddend;
}

/**
 * Bound on |fl(a·b + c) − (a·b + c)| for {@link ddMulAdd} (multiplication then accurate addition):
 * (3u² + 13u³)·|a·b + c| + 7u²·(1 + 3u² + 13u³)·|a·b|. Relative to |a·b + c| it is unbounded under cancellation.
 * @param absProduct - |a·b|
 * @param absResult - |a·b + c|
 * @returns the absolute error bound
 * @example
 * ```ts
 * import { ddMulAddErrorBound } from 'modprec';
 *
 * // a·b ≈ 1 and a·b + c ≈ 1e-10: the bound is relative to |a·b|, not to the small result
 * ddMulAddErrorBound(1, 1e-10) > 1e-10 * 2 ** -104; // → true
 * ```
 * @group Double-double
 */
export function ddMulAddErrorBound(absProduct: number, absResult: number): number {
  if (typeof absProduct !== 'number' || typeof absResult !== 'number') {
    failDdOperands(['absProduct', 'absResult'], absProduct, absResult);
  }
  return DD_ADD_BOUND * absResult + DD_MUL_BOUND * (1 + DD_ADD_BOUND) * absProduct;
}
