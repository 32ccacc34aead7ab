/**
 * Open sums: the kernels' sums (DOT, GEMV rows, …) accumulate exactly in RNS, with no eval and no rounding per
 * term, while the exact sum has room below M.
 *
 * An open number holds a signed integer D as residues mod M (D ≡ digits, |D| < M/2; each residue in
 * [−m_i, 2m_i), made canonical on closing), the value (−1)^s·D·2^E (s = sign, E = exp), and only an upper bound
 * |D|/M ≤ B·2^U: B a double (`openBound`), U an integer fixed when the sum opens (`openUnit`). Adding a term
 * (−1)^t·P·2^e (P = A·B of two ordinary numbers) is one residue pass (`runFusedLoop`): the operand with the
 * larger exponent is scaled by 2^|e − E|, and D + P' or P' − D (then s flips) or D' ± P is formed exactly; the
 * bound grows by the term's bound (scaled alike), rounded up.
 * Why: an ordinary multiply-add also updates the sum's interval evaluation, decides its sign and tests it for
 * rounding — about a third of its time on short significands. Closing the sum evaluates D once
 * (`evaluateSigned`, started from the bound), takes its sign and rounds once, so the result is the exact sum
 * rounded once: |δ| ≤ 2^-p/(1 − 2^-24) < u, tighter than the per-term bound of recursive summation.
 * Why a double for the bound: the extended floats of the evals (`ext-float.ts`) need a normalisation per
 * operation (three per term, ~20 ns at 424 bits); in units of 2^U the bound stays in the double range for any
 * realistic sum, and where it would not (terms 2^1000 apart) it overflows to +∞ and the sum closes.
 *
 * A sum opens after `OPEN_AFTER` consecutive in-place multiply-adds (closing costs about one evaluation, which
 * short sums such as sparse rows would not recover), and only for terms below 2^-20·M (short significands,
 * e.g. data read from doubles): full-precision products fill M and are rounded term by term instead. The bound
 * is kept ≤ M/8, so every residue pass is exact and the evaluation's precondition |D| ≤ M/2·(1 − 2^-19) holds;
 * a term that would break it (or needs a shift beyond the power table) closes the sum first.
 * @module
 */
import { EXT, UP, normalize, pow2 } from './ext-float.js';
import { EVAL, evaluateSigned } from './interval-evaluation.js';
import { runFusedLoop } from './fused-loops.js';
import { needsRounding, roundSignificand } from './rounding.js';
import { type RnsNumber, setZero } from './rns-number-class.js';

/** Largest exponent e of a term's bound 2^e·M for which a sum opens (terms below 2^-20·M). */
export const OPEN_TERM_EXPONENT = -20;

/** Largest exponent of the bound of an open sum: |D| ≤ 2^-3·M. */
const OPEN_BOUND_EXPONENT = -3;

/** The smallest positive double: added to a bound rounded to nearest, it makes the bound an upper bound. */
const MIN_POSITIVE = 2 ** -1074;

/** Upward widening of a product of three factors in [1/2, 1], each multiplication rounded to nearest. */
const UP3 = 1 + 2 ** -50;

/**
 * Makes the ordinary, own (not bound) number `c` an open sum: D = its significand, same sign and exponent; the
 * bound's unit is 2^max(termExponent, c.ue) (termExponent: the first term's exponent bound), its value c's eval
 * upper bound in that unit.
 * A zero takes the exponent `exp` of the first term, so that term is not scaled.
 */
export function openSum(c: RnsNumber, exp: number, termExponent: number): void {
  // The unit is the larger of the two exponents, so c's bound (≤ 1 in that unit) cannot overflow; a much
  // smaller term then costs only the smallest double's worth of slack.
  let unit = termExponent;
  if (c.uf === 0) { c.exp = exp; c.sign = 0; c.openBound = 0; }
  else {
    if (c.ue > unit) unit = c.ue;
    c.openBound = c.uf * pow2(c.ue - unit) * UP + MIN_POSITIVE;
  }
  c.openUnit = unit;
  c.openLimit = Math.min(pow2(OPEN_BOUND_EXPONENT - unit), Number.MAX_VALUE);
  c.open = 1;
}

/**
 * c := c + a·b for an open sum c (a and b ordinary, non-zero, possibly bound to array elements; the caller has
 * checked that the term is short: P/M < 2^termExponent with termExponent = a.ue + b.ue + Me), when the exact sum
 * keeps its bound ≤ M/8 (a smaller exponent moves the sum's exponent down; its significand grows by γ bits,
 * which the bound covers).
 * Rounding: the term's bound uf_a·uf_b·MfUp is widened by UP3, scaled by powers of two (exact unless subnormal)
 * and increased by the smallest double; the sum of bounds likewise (×UP, + smallest double): each stays ≥ the
 * exact value whatever the rounding to nearest did.
 * @returns false, with c unchanged, when the term does not fit (the caller closes c and adds it the
 *   ordinary way)
 */
export function accumulateOpen(c: RnsNumber, a: RnsNumber, b: RnsNumber, termExponent: number): boolean {
  const e = a.exp + b.exp;
  let gamma = e - c.exp;
  const scaledFirst = gamma >= 0;
  if (!scaledFirst) gamma = -gamma;
  if (gamma > c.tables.maxShift) return false;
  const t = a.uf * b.uf * c.set.MfUp * UP3 * pow2(termExponent - c.openUnit) + MIN_POSITIVE;
  const g = pow2(gamma);
  const bound = (scaledFirst ? c.openBound + t * g : c.openBound * g + t) * UP + MIN_POSITIVE;
  if (!(bound <= c.openLimit)) return false;
  const flip = (a.sign ^ b.sign) !== c.sign;
  runFusedLoop(c, a, b, c, gamma, scaledFirst, !flip, false);
  // (−1)^s·D − P' = (−1)^(s⊕1)·(P' − D): the loop formed P' − D, so the sign flips.
  if (scaledFirst && flip) c.sign ^= 1;
  if (!scaledFirst) c.exp = e;
  c.openBound = bound;
  return true;
}

/**
 * Makes the open sum `z` an ordinary number: evaluates D from its residues (starting from the bound), takes
 * |D| and the sign, and rounds to p bits if needed. An exact zero sum is +0.
 */
export function closeOpenSum(z: RnsNumber): void {
  z.open = 0;
  z.runs = 0;
  const n = z.set.size, m = z.set.moduli, d = z.digits;
  for (let i = 0; i < n; i++) { const v = d[i]!, mm = m[i]!; d[i] = v < 0 ? v + mm : v >= mm ? v - mm : v; }
  normalize(z.openBound, z.openUnit);
  evaluateSigned(z.set, d, 0, EXT.f, EXT.e);
  if (EVAL.zero) { setZero(z, 0); return; }
  if (EVAL.negative) {
    for (let i = 0; i < n; i++) { const v = d[i]!; d[i] = v === 0 ? 0 : m[i]! - v; }
    z.sign ^= 1;
  }
  z.lf = EVAL.lf; z.le = EVAL.le; z.uf = EVAL.uf; z.ue = EVAL.ue;
  if (needsRounding(z)) roundSignificand(z);
}
