/**
 * Open sums: the kernels' sums (DOT, GEMV rows, …) accumulate exactly in RNS, with no eval and no rounding per
 * term, while the exact sum has room below M.
 *
 * An open number holds a signed integer D as residues mod M (D ≡ digits, |D| < M/2; each residue in
 * [−m_i, 2m_i), made canonical on closing), the value (−1)^s·D·2^E
 * (s = sign, E = exp), and only an upper bound |D|/M ≤ uf·2^ue. Adding a term (−1)^t·P·2^e (P = A·B of two
 * ordinary numbers) is one residue pass (`runFusedLoop`): the operand with the larger exponent is scaled by
 * 2^|e − E|, and D + P' or P' − D (then s flips) or D' ± P is formed exactly; the bound grows by the term's bound.
 * Why: an ordinary multiply-add also updates the sum's interval evaluation, decides its sign and tests it for
 * rounding — about a third of its time on short significands. Closing the sum evaluates D once
 * (`evaluateSigned`, started from the bound), takes its sign and rounds once, so the result is the exact sum
 * rounded once: |δ| ≤ 2^-p/(1 − 2^-24) < u, tighter than the per-term bound of recursive summation.
 *
 * A sum opens after `OPEN_AFTER` consecutive in-place multiply-adds (closing costs about one evaluation, which
 * short sums such as sparse rows would not recover), and only for terms below 2^-20·M (short significands,
 * e.g. data read from doubles): full-precision products fill M and are rounded term by term instead. The bound
 * is kept ≤ M/8, so every residue pass is exact and the evaluation's precondition |D| ≤ M/2·(1 − 2^-19) holds;
 * a term that would break it (or needs a shift beyond the power table) closes the sum first.
 * @module
 */
import { EXT, addUp } from './ext-float.js';
import { EVAL, evaluateSigned } from './interval-evaluation.js';
import { runFusedLoop } from './fused-loops.js';
import { needsRounding, roundSignificand } from './rounding.js';
import { type RnsNumber, setZero } from './rns-number.js';

/** Largest exponent e of a term's bound 2^e·M for which a sum opens (terms below 2^-20·M). */
export const OPEN_TERM_EXPONENT = -20;

/** Largest exponent of the bound of an open sum: |D| ≤ 2^-3·M. */
const OPEN_BOUND_EXPONENT = -3;

/**
 * Makes the ordinary, own (not bound) number `c` an open sum: D = its significand, same sign and exponent,
 * bound = its eval's upper bound. A zero takes the exponent `exp` of the first term, so that term is not scaled.
 */
export function openSum(c: RnsNumber, exp: number): void {
  if (c.uf === 0) { c.exp = exp; c.sign = 0; }
  c.open = 1;
}

/**
 * c := c + a·b for an open sum c (a and b ordinary, non-zero, possibly bound to array elements; the caller has
 * checked the term's exponent), when the exact sum keeps its bound ≤ M/8 (a smaller exponent moves the sum's
 * exponent down; its significand grows by γ bits, which the bound covers). The term's bound P/M ≤ EXT.f·2^EXT.e
 * must be in {@link EXT} on entry.
 * @returns false, with c unchanged, when the term does not fit (the caller closes c and adds it the
 *   ordinary way)
 */
export function accumulateOpen(c: RnsNumber, a: RnsNumber, b: RnsNumber): boolean {
  const puf = EXT.f, pue = EXT.e;
  const e = a.exp + b.exp;
  let gamma = e - c.exp;
  const scaledFirst = gamma >= 0;
  if (!scaledFirst) gamma = -gamma;
  if (gamma > c.tables.maxShift) return false;
  if (scaledFirst) addUp(c.uf, c.ue, puf, pue + gamma);
  else addUp(c.uf, c.ue + gamma, puf, pue);
  if (EXT.e > OPEN_BOUND_EXPONENT) return false;
  const uf = EXT.f, ue = EXT.e;
  const flip = (a.sign ^ b.sign) !== c.sign;
  runFusedLoop(c, a, b, c, gamma, scaledFirst, !flip, false);
  // (−1)^s·D − P' = (−1)^(s⊕1)·(P' − D): the loop formed P' − D, so the sign flips.
  if (scaledFirst && flip) c.sign ^= 1;
  if (!scaledFirst) c.exp = e;
  c.uf = uf; c.ue = ue;
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
  evaluateSigned(z.set, d, 0, z.uf, z.ue);
  if (EVAL.zero) { setZero(z, 0); return; }
  if (EVAL.negative) {
    for (let i = 0; i < n; i++) { const v = d[i]!; d[i] = v === 0 ? 0 : m[i]! - v; }
    z.sign ^= 1;
  }
  z.lf = EVAL.lf; z.le = EVAL.le; z.uf = EVAL.uf; z.ue = EVAL.ue;
  if (needsRounding(z)) roundSignificand(z);
}
