/**
 * The a-priori bound of one output of "y := α·t + β·y" where t is a sum of products read through accessors:
 * the per-component bound of GEMV and of ELL SpMV.
 *
 * With S = Σ|pⱼ| (products of the represented values), c and d the accumulation's bound for the sum,
 * r the read roundings of one product, and the coefficient roundings counted by case:
 *   |t̂ − t| ≤ E_t·S,  E_t = γ_r + (c + d)(1 + γ_r)
 *   |fl(α·t̂ + β·ŷ) − (α·t + β·y)| ≤ |α|·S·(E_t(1 + γ_kα) + γ_kα) + γ_kβ·|β|·|y|
 * which is Higham's γ_{n+2}(|α||A||x| + |β||y|) for the recursive sum without read roundings, then the
 * write to y's storage: ŷ′ = ŷ(1 + θ_w) + η. A NaN or ±∞ among the values of an output makes its bound +∞.
 *
 * Underflow: every product, the α and β products and the final sum may round into the arithmetic's subnormal range,
 * each off by at most η absolutely (Higham §2.1, fl(x op y) = (x op y)(1 + δ) + ε); the product errors pass through α.
 * Overflow: an output whose value may reach the arithmetic's largest value, or whose quotient by its scale may reach
 * the storage's (an integer storage saturates), has bound +∞ — the guide's one rule for non-finite values.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import { gamma, type Accumulation } from '../shared/accumulation.js';
import { coefficientRoundings, compose, inflate, orInfinity, readRoundings, writeError, type WriteError } from '../shared/accessor-rounding.js';
import { arithmeticLimits, flushableRead, scaledWriteUnderflow } from '../shared/bound-terms.js';

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
  /** The output (its storage limits the stored quotient). */
  readonly y: Accessor<1, any>;
  /** α or β (where read) converts to ±∞ in the arithmetic (3.5e38 in fp32): no finite bound. */
  readonly coefficientOverflows: boolean;
  /** Absolute errors per unit of S and of |y| of α's and β's conversions where they round into the subnormal range. */
  readonly alphaUnderflow: number;
  readonly betaUnderflow: number;
  /** 2η where reading y into the arithmetic rounds (fp64 y read into fp32 arithmetic may underflow): times |β|. */
  readonly yReadUnderflow: number;
}

/** Whether the finite coefficient c converts to ±∞ in `ar`. */
function convertsToInfinity(ar: ArithmeticFormat, c: number): boolean {
  return Number.isFinite(c) && !Number.isFinite(ar.toNumber(ar.fromNumber(c)));
}

/** The absolute error of converting c to `ar` when that rounds (η at most, in the subnormal range); 0 when exact. */
function conversionUnderflow(ar: ArithmeticFormat, c: number): number {
  return coefficientRoundings(ar, c) === 0 ? 0 : 2 * arithmeticLimits(ar).readEta;
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
    absAlpha: Math.abs(alpha), absBeta: Math.abs(beta), alphaRoundings, betaRoundings, write: writeError(y, ar), y,
    coefficientOverflows: convertsToInfinity(ar, alpha) || (beta !== 0 && convertsToInfinity(ar, beta)),
    alphaUnderflow: conversionUnderflow(ar, alpha), betaUnderflow: beta === 0 ? 0 : conversionUnderflow(ar, beta),
    yReadUnderflow: readRoundings(y, ar) > 0 ? 2 * arithmeticLimits(ar).readEta : 0,
  };
}

/**
 * Bound on |ŷᵢ − yᵢ| for one output.
 * @param ctx - the call's shared part
 * @param terms - number of products in the sum
 * @param absSum - S = Σ|pⱼ| over the products of this output
 * @param absY - |yᵢ| on entry (as stored)
 * @param scale - the scale of yᵢ (1 when unscaled)
 * @param readUnderflow - absolute error of the sum from reads that round into the arithmetic's subnormal range
 *   (2η times the other factor's magnitude for each such read), before α
 */
export function updateBound(ctx: UpdateBoundContext, terms: number, absSum: number, absY: number, scale: number, readUnderflow = 0, yScaleError = 0): number {
  const u = ctx.ar.unitRoundoff;
  const gr = gamma(ctx.productReads, u);
  const { ofAbsSum, ofResult } = ctx.acc.bound(terms, u);
  const sumError = gr + (ofAbsSum + ofResult) * (1 + gr);
  const ga = gamma(ctx.alphaRoundings, u);
  const alphaPart = ctx.absAlpha * absSum;
  const betaPart = ctx.absBeta === 0 ? 0 : ctx.absBeta * absY;
  const { opEta: eta, max, readEta } = arithmeticLimits(ctx.ar);
  // A y below 2^-126 read without rounding may still be flushed (flushableRead).
  const yReadUnderflow = Math.max(ctx.yReadUnderflow, 2 * readEta * flushableRead(absY, readEta));
  // A sum of products (and the partial sums on its way) that may overflow the arithmetic, or a y it cannot read.
  if (ctx.coefficientOverflows || !(absSum * (1 + 2 * sumError) < max) || !(absY * (1 + 4 * u) < max)) return Infinity;
  // Each product may underflow by η (then scaled by α and the later roundings), and so may α·t, β·y and their sum,
  // and the conversions of α and β (then multiplied by the sum and by y).
  const underflow = (eta * (2 * ctx.absAlpha * terms * (1 + sumError) + 3) + ctx.absAlpha * readUnderflow * (1 + sumError) + yReadUnderflow * ctx.absBeta * (absY > 0 ? 1 : 0) + ctx.alphaUnderflow * absSum * (1 + sumError) + ctx.betaUnderflow * absY + ctx.absBeta * yScaleError) * (1 + ga);
  const computed = alphaPart * (sumError * (1 + ga) + ga) + gamma(ctx.betaRoundings, u) * betaPart + underflow;
  if (outputOverflows(ctx.ar, ctx.y, alphaPart + betaPart + computed, scale)) return Infinity;
  const w = withScaleConversion(ctx.write, ctx.ar, ctx.y, scale);
  // (+ two smallest doubles: η·scale may round down in fp64's own subnormal range.)
  const absolute = w.absolutePerScale > 0 ? w.absolutePerScale * scale + 2 * Number.MIN_VALUE : 0;
  return orInfinity(inflate(computed * (1 + w.relative) + w.relative * (alphaPart + betaPart) + absolute, terms + 12));
}

/** The write's error with the conversion of its scale s added where s converts into the subnormal range (∞ if lost). */
function withScaleConversion(w: WriteError, ar: ArithmeticFormat, y: Accessor<1, any>, s: number): WriteError {
  const e = scaledWriteUnderflow(y, ar, s);
  return e === 0 ? w : { relative: compose(w.relative, e), absolutePerScale: w.absolutePerScale };
}

/**
 * Whether an output of magnitude at most t may overflow: t (with room for its last roundings) reaches the arithmetic's
 * largest value, or its quotient by the scale reaches the storage's (or the arithmetic's, where the division is done
 * there) — an integer storage saturates beyond its largest value + 1/2.
 */
function outputOverflows(ar: ArithmeticFormat, y: Accessor<1, any>, t: number, scale: number): boolean {
  const max = arithmeticLimits(ar).max;
  const grown = t * (1 + 8 * ar.unitRoundoff);
  if (!(grown < max)) return true;
  const st = y.storage;
  // A floating-point storage divides by the scale converted to the arithmetic: a scale that converts to 0 or ±∞ there
  // (8e-323 or 1e300 in fp32) stores NaN, ±∞ or 0 (and y's own read overflows).
  if (y.scale && !st.isInteger) {
    const s = Math.abs(ar.toNumber(ar.fromNumber(scale)));
    if (scale !== 0 && (s === 0 || !Number.isFinite(s))) return true;
  }
  const q = grown / scale;
  return st.isInteger ? !(q <= st.maxValue + 0.5) : !(q < Math.min(st.maxValue, max));
}

/**
 * Bound on |ŷᵢ − β·yᵢ| for y := β·y (α = 0, β ≠ 1): reading y, converting β, one product, the write.
 * β = 0 writes an exact zero: bound 0 (unless the scale cannot be divided by in the arithmetic).
 */
export function scaleBound(ar: ArithmeticFormat, y: Accessor<1, any>, beta: number, absY: number, scale: number, yScaleError = 0): number {
  // (A scale that converts to 0 or ±∞ in the arithmetic makes even the zero's store NaN or ±∞.)
  if (beta === 0) return outputOverflows(ar, y, 0, scale) ? Infinity : 0;
  const k = readRoundings(y, ar) + coefficientRoundings(ar, beta) + 1;
  const exact = Math.abs(beta) * absY;
  const w = withScaleConversion(writeError(y, ar), ar, y, scale);
  const { opEta: eta, max, readEta } = arithmeticLimits(ar);
  if (convertsToInfinity(ar, beta) || !(absY * (1 + 4 * ar.unitRoundoff) < max)) return Infinity;
  // The product β·y may round into the subnormal range (η absolutely), and so may the conversion of β (times |y|).
  // A read of y that rounds may underflow too (fp64 y read into fp32 arithmetic): η times |β|.
  const readUnderflow = (readRoundings(y, ar) > 0 || flushableRead(absY, readEta)) && absY > 0 ? 2 * readEta * Math.abs(beta) : 0;
  const e = gamma(k, ar.unitRoundoff) * exact + eta + readUnderflow + Math.abs(beta) * yScaleError * (1 + 4 * ar.unitRoundoff) + conversionUnderflow(ar, beta) * absY * (1 + 4 * ar.unitRoundoff);
  if (outputOverflows(ar, y, exact + e, scale)) return Infinity;
  const absolute = w.absolutePerScale > 0 ? w.absolutePerScale * scale + 2 * Number.MIN_VALUE : 0;
  return orInfinity(inflate(e * (1 + w.relative) + w.relative * exact + absolute, 12));
}
