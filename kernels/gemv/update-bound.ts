/**
 * The a-priori bound of one output of "y := α·t + β·y" where t is a sum of products read through accessors:
 * the per-component bound of GEMV and of ELL SpMV.
 *
 * With S = Σ|pⱼ| (products of the represented values), c and d the accumulation's bound for the sum,
 * r the read roundings of one product, and the coefficient roundings counted by case:
 *   |t̂ − t| ≤ E_t·S,  E_t = γ_r + (c + d)(1 + γ_r)
 *   |fl(α·t̂ + β·ŷ) − (α·t + β·y)| ≤ |α|·S·(E_t(1 + γ_kα) + γ_kα) + γ_kβ·|β|·|y|
 * which is Higham's γ_{n+2}(|α||A||x| + |β||y|) for the recursive sum without read roundings, then the
 * write to y's storage: ŷ′ = ŷ(1 + θ_w) + η. Underflow inside the arithmetic: each product and sum of t may add
 * η_ar absolutely (fl(a∘b) = (a∘b)(1 + δ) + ε, |ε| ≤ η_ar, half the arithmetic's subnormal spacing), and so may α·t̂,
 * β·y and their sum — 2n·η_ar in t̂ (as dotBound counts), carried through α, plus 3η_ar, doubled for the (1 + u)
 * factors on their way (as termBound does). A NaN or ±∞ among the values of an output makes its bound +∞.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import { gamma, type Accumulation } from '../shared/accumulation.js';
import { coefficientRoundings, inflate, orInfinity, readRoundings, writeError, type WriteError } from '../shared/accessor-rounding.js';
import { arithmeticLimits } from '../shared/bound-terms.js';

/** What the bound of every output of one call shares. */
export interface UpdateBoundContext {
  /** Arithmetic of the kernel. */
  readonly ar: ArithmeticFormat;
  /** Summation strategy of the reductions. */
  readonly acc: Accumulation;
  /** Read roundings of one product (matrix element and vector element together). */
  readonly productReads: number;
  /** |α|. */
  readonly absAlpha: number;
  /** |β|. */
  readonly absBeta: number;
  /** Roundings on α·t: the conversion of α, the product, the final sum. */
  readonly alphaRoundings: number;
  /** Roundings on β·y: reading y, the conversion of β, the product, the final sum. */
  readonly betaRoundings: number;
  /** Error of the write to y's storage. */
  readonly write: WriteError;
}

/** The shared part of the bound for a call with these operands and coefficients (α ≠ 0). */
export function updateBoundContext(
  ar: ArithmeticFormat, acc: Accumulation, matrix: Accessor<any, any>, x: Accessor<1, any>, y: Accessor<1, any>,
  alpha: number, beta: number,
): UpdateBoundContext {
  const alphaRoundings = (alpha === 1 ? 0 : 1 + coefficientRoundings(ar, alpha)) + (beta === 0 ? 0 : 1);
  const betaRoundings = beta === 0 ? 0 : readRoundings(y, ar) + (beta === 1 ? 0 : 1 + coefficientRoundings(ar, beta)) + 1;
  return {
    ar, acc, productReads: readRoundings(matrix, ar) + readRoundings(x, ar),
    absAlpha: Math.abs(alpha), absBeta: Math.abs(beta), alphaRoundings, betaRoundings, write: writeError(y, ar),
  };
}

/**
 * Bound on |ŷᵢ − yᵢ| for one output.
 * @param ctx - the call's shared part
 * @param terms - number of products in the sum
 * @param absSum - S = Σ|pⱼ| over the products of this output
 * @param absY - |yᵢ| on entry (as stored)
 * @param scale - the scale of yᵢ (1 when unscaled)
 */
export function updateBound(ctx: UpdateBoundContext, terms: number, absSum: number, absY: number, scale: number): number {
  const u = ctx.ar.unitRoundoff;
  const gr = gamma(ctx.productReads, u);
  const { ofAbsSum, ofResult } = ctx.acc.bound(terms, u);
  const sumError = gr + (ofAbsSum + ofResult) * (1 + gr);
  const ga = gamma(ctx.alphaRoundings, u);
  const alphaPart = ctx.absAlpha * absSum;
  const betaPart = ctx.absBeta === 0 ? 0 : ctx.absBeta * absY;
  // Products or partial sums below the arithmetic's normal range err absolutely (binary32 subnormals: 2^-150 each).
  const underflow = 2 * arithmeticLimits(ctx.ar).eta * (ctx.absAlpha * 2 * terms + 3);
  const computed = alphaPart * (sumError * (1 + ga) + ga) + gamma(ctx.betaRoundings, u) * betaPart + underflow;
  const w = ctx.write;
  return orInfinity(inflate(computed * (1 + w.relative) + w.relative * (alphaPart + betaPart) + w.absolutePerScale * scale, terms + 12));
}

/**
 * Bound on |ŷᵢ − β·yᵢ| for y := β·y (α = 0, β ≠ 1): reading y, converting β, one product, the write.
 * β = 0 writes an exact zero: bound 0.
 */
export function scaleBound(ar: ArithmeticFormat, y: Accessor<1, any>, beta: number, absY: number, scale: number): number {
  if (beta === 0) return 0;
  const k = readRoundings(y, ar) + coefficientRoundings(ar, beta) + 1;
  const exact = Math.abs(beta) * absY;
  const w = writeError(y, ar);
  // The product β·y may round into the subnormal range: η_ar more, doubled as in updateBound.
  const e = gamma(k, ar.unitRoundoff) * exact + 2 * arithmeticLimits(ar).eta;
  return orInfinity(inflate(e * (1 + w.relative) + w.relative * exact + w.absolutePerScale * scale, 12));
}
