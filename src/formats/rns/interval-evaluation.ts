/**
 * Interval evaluation of the fractional representation X/M of an RNS significand (seed 000 eq. 4,
 * after Isupov's method): X/M = frac(Σ ξ_i/m_i) with ξ_i = |x_i·w_i|_{m_i}, computed in double precision
 * with a rigorous error bound, and refined by exact power-of-two scaling of the residues when X/M is too
 * small for the bound to say anything (extended exponent range).
 *
 * **Error bound of {@link fracSum}.** Let r_i = fl(1/m_i), so r_i = (1/m_i)(1 + ε_i), |ε_i| ≤ 2^-53, and
 * t_i = fl(ξ_i·r_i) = (ξ_i/m_i)(1 + ε_i)(1 + η_i), |η_i| ≤ 2^-53. As ξ_i/m_i < 1,
 * |t_i − ξ_i/m_i| ≤ 2^-52 + 2^-106; in particular t_i < 1 (ξ_i/m_i ≤ 1 − 2^-26). The accumulator a stays
 * in [0, 1): a ← fl(a + t_i) has exact value < 2, so its rounding error is ≤ 2^-53 (half an ulp in [1, 2));
 * when a ≥ 1 we subtract 1, exactly (Sterbenz), and count a wrap K. With the final a = f:
 *   |(K + f) − Σ ξ_i/m_i| ≤ n·(2^-52 + 2^-106 + 2^-53) < n·2^-51 =: E.
 * Since Σ ξ_i/m_i = (integer) + X/M by the CRT (eq. 3), X/M ∈ [f − E, f + E] modulo 1.
 *
 * **Refinement.** If f is within E of an integer, X/M is within 2E of 0 or of 1. Reading the residues as a
 * signed value X̃ ∈ (−M/2, M/2), either case means |X̃| ≤ 2E·M, so X̃·2^j stays in (−M/4, M/4] for
 * 2^j·2E ≤ 1/4; multiplying every ξ_i by |2^j|_{m_i} gives the ξ of X̃·2^j exactly, and we evaluate again.
 * Each pass gains about −log2(8E) ≈ 45 bits; X̃ ≠ 0 guarantees termination. Once f is clear of the
 * integers the sign of X̃ is that of 1/2 − f and |X̃|·2^J/M ∈ [mag − E, mag + E] with mag = min(f, 1 − f)
 * (1 − f is exact by Sterbenz). We stop when mag ≥ 2^-6, so the relative width is ≤ 2^7·E.
 * @module
 */
import { DOWN, EXT, UP, exponentOf, normalize, subDown, subUp } from './ext-float.js';
import { checkSize, fail } from '../../core/errors.js';
import type { RnsModuliSet } from './moduli-set.js';
import { rnsTables } from './moduli-set.js';
import { RNS_STATS } from './stats.js';

/**
 * Result of the evaluations: sign of the signed reading, and the enclosure [l, u] of |X̃|/M (or X/M).
 * @group RNS
 */
export const EVAL = { zero: false, negative: false, lf: 0, le: 0, uf: 0, ue: 0 };

/** Wrap count K of the last {@link fracSum}. */
export const FRAC = { wraps: 0 };

/**
 * ξ_i = |x_i·w_i|_{m_i} into `xi`.
 * @param set - the moduli set
 * @param x - residues (length ≥ offset + n)
 * @param offset - index of the first residue in `x`
 * @param xi - output, length n
 */
export function computeXi(set: RnsModuliSet, x: ArrayLike<number>, offset: number, xi: Float64Array): void {
  const n = set.size;
  const m = set.moduli;
  const inv = set.inverseModuli;
  const w = set.w;
  for (let i = 0; i < n; i++) {
    const mm = m[i]!;
    const pr = x[offset + i]! * w[i]!;
    const r = pr - Math.floor(pr * inv[i]!) * mm;
    xi[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
  }
}

/**
 * f = the computed fractional part of Σ ξ_i/m_i, in [0, 1); the wrap count goes to {@link FRAC}.
 * |K + f − Σ ξ_i/m_i| ≤ set.evalError (see the module comment).
 */
export function fracSum(set: RnsModuliSet, xi: Float64Array): number {
  const n = set.size;
  const inv = set.inverseModuli;
  let a = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    a += xi[i]! * inv[i]!;
    if (a >= 1) { a -= 1; k++; }
  }
  FRAC.wraps = k;
  return a;
}

/** ξ_i ← |ξ_i·2^j|_{m_i} (0 ≤ j ≤ maxShift). */
function scaleXi(set: RnsModuliSet, xi: Float64Array, j: number, pow2: Float64Array): void {
  const n = set.size;
  const m = set.moduli;
  const inv = set.inverseModuli;
  const off = j * n;
  for (let i = 0; i < n; i++) {
    const mm = m[i]!;
    const pr = xi[i]! * pow2[off + i]!;
    const r = pr - Math.floor(pr * inv[i]!) * mm;
    xi[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
  }
}

/**
 * Evaluates residues read as a signed value X̃ ∈ (−M/2, M/2) — the caller guarantees |X̃| ≤ M/2·(1 − 2^-19).
 * Sets {@link EVAL}: `zero`, `negative`, and a rigorous enclosure [lf·2^le, uf·2^ue] of |X̃|/M.
 *
 * @param set - the moduli set
 * @param x - residues
 * @param offset - index of the first residue
 * @param hintF - optional upper bound of |X̃|/M (fraction; 0 for none) to start scaling from
 * @param hintE - its exponent
 */
export function evaluateSigned(set: RnsModuliSet, x: ArrayLike<number>, offset: number, hintF: number, hintE: number): void {
  const n = set.size;
  let nonzero = false;
  for (let i = 0; i < n; i++) if (x[offset + i] !== 0) { nonzero = true; break; }
  EVAL.zero = !nonzero;
  EVAL.negative = false;
  if (!nonzero) { EVAL.lf = 0; EVAL.le = 0; EVAL.uf = 0; EVAL.ue = 0; return; }
  RNS_STATS.evaluations++;
  const t = rnsTables(set);
  const xi = t.scratchXi;
  computeXi(set, x, offset, xi);
  const E = set.evalError;
  let J = 0;
  if (hintF !== 0) {
    // |X̃|/M < 2^hintE, so |X̃|·2^j/M < 1/4 for j = −hintE − 2.
    const j = Math.min(-hintE - 2, t.maxShift);
    if (j > 0) { scaleXi(set, xi, j, t.pow2); J = j; }
  }
  for (;;) {
    const f = fracSum(set, xi);
    let bound: number;
    if (f >= E && f <= 1 - E) {
      const negative = f > 0.5;
      const mag = negative ? 1 - f : f;
      if (mag >= 2 ** -6) {
        EVAL.negative = negative;
        normalize((mag - E) * DOWN, -J); // mag − E ≥ 2^-7 is normal: the widening lemma applies
        EVAL.lf = EXT.f; EVAL.le = EXT.e;
        normalize((mag + E) * UP, -J);
        EVAL.uf = EXT.f; EVAL.ue = EXT.e;
        return;
      }
      bound = mag + E;
    } else {
      bound = 2 * E;
    }
    // |X̃·2^J|/M ≤ bound < 2^exponentOf(bound): scale so that it stays ≤ 1/4.
    const j = -exponentOf(bound) - 2;
    if (J + j > t.maxShift + 64) throw new Error('rns: interval evaluation did not converge (invariant broken)');
    scaleXi(set, xi, Math.min(j, t.maxShift), t.pow2);
    J += Math.min(j, t.maxShift);
  }
}

/**
 * Throws unless `x` holds `set.size` residues from `offset`, each an integer in [0, m_i): a missing x threw a TypeError,
 * and a short one or a residue out of range gave an enclosure of nothing (NaN bounds or the wrong X).
 * @throws {@link ModprecError} `INVALID_SIZE` (offset), `INVALID_STORAGE` (x) or `INVALID_VALUE` (a residue)
 */
function checkResidues(set: RnsModuliSet, x: ArrayLike<number>, offset: number): void {
  checkSize('offset', offset);
  const n = set.size;
  if (typeof x !== 'object' || x === null || !(x.length >= offset + n)) {
    fail('INVALID_STORAGE', 'x', `must be an array of at least offset + ${n} residues (offset ${offset})`, x);
  }
  for (let i = 0; i < n; i++) {
    const r = x[offset + i];
    if (!(typeof r === 'number' && Number.isInteger(r) && r >= 0 && r < set.moduli[i]!)) {
      fail('INVALID_VALUE', `x[${offset + i}]`, `must be an integer residue in [0, ${set.moduli[i]})`, r);
    }
  }
}

/**
 * A rigorous enclosure of X/M for residues of any X ∈ [0, M) (seed 000's I(X/M)), into {@link EVAL}
 * (`negative` is false). Near 0 and near M the extended exponent keeps the bounds tight.
 *
 * @param set - the moduli set
 * @param x - residues, x_i ∈ [0, m_i)
 * @param offset - index of the first residue
 * @throws {@link ModprecError} `INVALID_VALUE` for a set {@link rnsModuliSet} did not make or a residue that is not an
 *   integer in [0, m_i); `INVALID_STORAGE` for an x shorter than offset + n; `INVALID_SIZE` for a bad offset
 * @example
 * ```ts
 * import { rnsModuliSet, evaluateUnsigned, RNS_EVAL } from 'modprec';
 *
 * const set = rnsModuliSet(106);
 * // the residues of X = 0 give the enclosure [0, 0]
 * evaluateUnsigned(set, new Float64Array(set.size), 0);
 * RNS_EVAL.zero; // → true
 * ```
 * @group RNS
 */
export function evaluateUnsigned(set: RnsModuliSet, x: ArrayLike<number>, offset: number): void {
  const t = rnsTables(set);
  checkResidues(set, x, offset);
  const xi = t.scratchXi;
  computeXi(set, x, offset, xi);
  const E = set.evalError;
  const f = fracSum(set, xi);
  EVAL.zero = false;
  EVAL.negative = false;
  if (f >= 2 * E && f <= 1 - 2 * E) {
    normalize((f - E) * DOWN, 0); // f − E ≥ E is normal
    EVAL.lf = EXT.f; EVAL.le = EXT.e;
    const u = (f + E) * UP;
    normalize(u > 1 ? 1 : u, 0); // X/M < 1
    EVAL.uf = EXT.f; EVAL.ue = EXT.e;
    return;
  }
  // Within 2E of 0 or 1: read the residues as signed; X/M = |X̃|/M or 1 − |X̃|/M.
  evaluateSigned(set, x, offset, 0, 0);
  if (EVAL.zero || !EVAL.negative) return;
  const { lf, le, uf, ue } = EVAL;
  subDown(0.5, 1, uf, ue);
  EVAL.lf = EXT.f; EVAL.le = EXT.e;
  subUp(0.5, 1, lf, le);
  EVAL.uf = EXT.f; EVAL.ue = EXT.e;
  EVAL.negative = false;
}
