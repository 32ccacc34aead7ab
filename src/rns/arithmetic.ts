/**
 * Arithmetic on {@link RnsNumber}: add, subtract, multiply (residue-wise), fused a·b + c, negate,
 * absolute value, sign and comparison. Results go into a destination that may alias an operand; every
 * operation satisfies fl(x ∘ y) = (x ∘ y)(1 + δ) with |δ| < u = 4/√M (seed 000 eq. 6):
 *
 * - multiply: X·Y ≤ 2^(2p) ≤ M/4 is exact in RNS; it is rounded to p bits only if it exceeds 2^p (δ ≤ 2^-p/(1−2^-24)).
 * - add: the operand with the larger exponent is scaled by 2^γ (γ = exponent difference) so both share the
 *   smaller exponent. If |y| < 2^(−p−1)·|x| (decided on the intervals, conservatively), y is dropped:
 *   δ = −y/(x+y), |δ| ≤ 2^(−p−1)/(1 − 2^(−p−1)) < 2^-p. Otherwise the scaled significand is below
 *   2^(2p+1)(1+2^-24)^2 (it is |x|/|y| < 2^(p+1)(1+2^-24)^2 times a significand ≤ 2^p, or at most 2^p),
 *   so the exact sum fits below M/2 (M ≥ 2^(2p+2)(1+2^-18)), and it is then rounded to p bits if needed.
 * - sign and magnitude of a difference come from interval subtraction; when that straddles 0 or is too
 *   wide, they are recomputed from the residues (`interval-evaluation.ts`).
 * @module
 */
import { fail } from '../errors.js';
import { EXT, addDown, addUp, compareExt, isTight, mulDown, mulUp, subDown, subUp } from './ext-float.js';
import { EVAL, evaluateSigned } from './interval-evaluation.js';
import type { RnsModuliSet } from './moduli-set.js';
import { needsRounding, roundSignificand } from './rounding.js';
import { MAX_EXPONENT, RnsNumber, checkSameSet, copyInto, setZero } from './rns-number.js';

const scratch = new WeakMap<RnsModuliSet, RnsNumber>();

/** A scratch number of `set` for internal use (not re-entrant). */
export function scratchOf(set: RnsModuliSet): RnsNumber {
  let s = scratch.get(set);
  if (!s) { s = new RnsNumber(set); scratch.set(set, s); }
  return s;
}

function checkSets(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  if (x.set !== z.set || y.set !== z.set) {
    checkSameSet('x', x, z.set);
    checkSameSet('y', y, z.set);
  }
}

/** Throws before anything is written if a result exponent in [lo, lo + p + 4] could leave the range. */
function checkResultExponent(set: RnsModuliSet, lo: number): void {
  if (lo < -MAX_EXPONENT || lo + set.precision + 4 > MAX_EXPONENT) {
    fail('INVALID_VALUE', 'result', 'exponent must stay within ±2^30 (exponent overflow)', lo);
  }
}

/** Recomputes the eval of `z` from its residues (value known to be non-zero and non-negative). */
function refreshEval(z: RnsNumber): void {
  evaluateSigned(z.set, z.digits, 0, z.uf, z.ue);
  z.lf = EVAL.lf; z.le = EVAL.le; z.uf = EVAL.uf; z.ue = EVAL.ue;
}

/** Rounds if needed, and keeps the eval tight. */
function finish(z: RnsNumber): void {
  if (!isTight(z.lf, z.le, z.uf, z.ue)) refreshEval(z);
  if (needsRounding(z)) roundSignificand(z);
}

function addSigned(z: RnsNumber, x: RnsNumber, y: RnsNumber, negY: number): void {
  checkSets(z, x, y);
  const set = z.set;
  const sy = y.sign ^ negY;
  if (x.uf === 0) {
    if (y.uf === 0) setZero(z, x.sign & sy);
    else copyInto(z, y, negY);
    return;
  }
  if (y.uf === 0) { copyInto(z, x, 0); return; }
  const ex = x.exp;
  const ey = y.exp;
  const p = set.precision;
  if (compareExt(y.uf, y.ue + ey, x.lf, x.le + ex - p - 1) < 0) { copyInto(z, x, 0); return; }
  if (compareExt(x.uf, x.ue + ex, y.lf, y.le + ey - p - 1) < 0) { copyInto(z, y, negY); return; }
  let a = x, b = y, sa = x.sign, sb = sy, gamma = ex - ey, zexp = ey;
  if (gamma < 0) { a = y; b = x; sa = sy; sb = x.sign; gamma = -gamma; zexp = ex; }
  checkResultExponent(set, zexp);
  alignedAdd(z, a, sa, b, sb, gamma, zexp);
}

/**
 * z := (−1)^sa·A·2^(γ+zexp) + (−1)^sb·B·2^zexp exactly in RNS, then rounded to p bits if needed. The caller
 * guarantees A·2^γ + B < M/2·(1 − 2^-19) (so the signed evaluation has its margin).
 */
function alignedAdd(z: RnsNumber, a: RnsNumber, sa: number, b: RnsNumber, sb: number, gamma: number, zexp: number): void {
  const set = z.set;
  const alf = a.lf, ale = a.le + gamma, auf = a.uf, aue = a.ue + gamma;
  const blf = b.lf, ble = b.le, buf = b.uf, bue = b.ue;
  const t = z.tables;
  const n = set.size;
  const m = set.moduli;
  const inv = set.inverseModuli;
  const pw = t.pow2;
  const off = gamma * n;
  const ad = a.digits, bd = b.digits, zd = z.digits;
  z.exp = zexp;
  if (sa === sb) {
    // a·2^γ + b < m² + m < 2^53 is exact: one reduction per residue.
    for (let i = 0; i < n; i++) {
      const mm = m[i]!;
      const r = ad[i]! * pw[off + i]! + bd[i]!;
      const v = r - Math.floor(r * inv[i]!) * mm;
      zd[i] = v < 0 ? v + mm : v >= mm ? v - mm : v;
    }
    z.sign = sa;
    addDown(alf, ale, blf, ble);
    z.lf = EXT.f; z.le = EXT.e;
    addUp(auf, aue, buf, bue);
    z.uf = EXT.f; z.ue = EXT.e;
    finish(z);
    return;
  }
  // a·2^γ − b ≡ a·2^γ + (m − b): again one exact sum below 2^53 and one reduction.
  for (let i = 0; i < n; i++) {
    const mm = m[i]!;
    const r = ad[i]! * pw[off + i]! + (mm - bd[i]!);
    const v = r - Math.floor(r * inv[i]!) * mm;
    zd[i] = v < 0 ? v + mm : v >= mm ? v - mm : v;
  }
  subDown(alf, ale, buf, bue);
  const lowF = EXT.f, lowE = EXT.e;
  subUp(auf, aue, blf, ble);
  const upF = EXT.f, upE = EXT.e;
  if (lowF > 0 && isTight(lowF, lowE, upF, upE)) {
    z.sign = sa;
    z.lf = lowF; z.le = lowE; z.uf = upF; z.ue = upE;
  } else {
    let negative: boolean;
    if (upF < 0) {
      subDown(blf, ble, auf, aue);
      const lf2 = EXT.f, le2 = EXT.e;
      subUp(buf, bue, alf, ale);
      negative = true;
      z.lf = lf2; z.le = le2; z.uf = EXT.f; z.ue = EXT.e;
      if (!(lf2 > 0) || !isTight(z.lf, z.le, z.uf, z.ue)) negative = evaluateDifference(z, auf, aue, buf, bue);
    } else {
      negative = evaluateDifference(z, auf, aue, buf, bue);
      if (EVAL.zero) { setZero(z, 0); return; }
    }
    z.sign = negative ? sb : sa;
    if (negative) {
      for (let i = 0; i < n; i++) { const v = zd[i]!; zd[i] = v === 0 ? 0 : m[i]! - v; }
    }
  }
  if (needsRounding(z)) roundSignificand(z);
}

/** Evaluates the residues of z as a signed difference bounded by max(a, b); sets z's eval, returns the sign. */
function evaluateDifference(z: RnsNumber, auf: number, aue: number, buf: number, bue: number): boolean {
  const hint = compareExt(auf, aue, buf, bue) >= 0;
  evaluateSigned(z.set, z.digits, 0, hint ? auf : buf, hint ? aue : bue);
  z.lf = EVAL.lf; z.le = EVAL.le; z.uf = EVAL.uf; z.ue = EVAL.ue;
  return EVAL.negative;
}

/**
 * z := x + y, rounded (|δ| < u).
 * @param z - destination (may alias x or y)
 * @param x - first operand
 * @param y - second operand
 * @throws {@link ModprecError} `INVALID_FORMAT` if the operands use different moduli sets;
 *   `INVALID_VALUE` on exponent overflow (z untouched)
 */
export function rnsAdd(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  addSigned(z, x, y, 0);
}

/**
 * z := x − y, rounded (|δ| < u).
 * @param z - destination (may alias x or y)
 * @param x - minuend
 * @param y - subtrahend
 * @throws {@link ModprecError} as {@link rnsAdd}
 */
export function rnsSub(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  addSigned(z, x, y, 1);
}

/**
 * z := x · y, rounded (|δ| < u). Residues are multiplied independently (no carries).
 * @param z - destination (may alias x or y)
 * @param x - first factor
 * @param y - second factor
 * @throws {@link ModprecError} as {@link rnsAdd}
 */
export function rnsMul(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  checkSets(z, x, y);
  const set = z.set;
  const sign = x.sign ^ y.sign;
  if (x.uf === 0 || y.uf === 0) { setZero(z, sign); return; }
  multiplyExact(z, x, y);
  if (needsRounding(z)) roundSignificand(z);
}

/**
 * z := a · b + c with two roundings (each |δ| < u), the RNS counterpart of a multiply-add.
 * @param z - destination (may alias any operand)
 * @param a - first factor
 * @param b - second factor
 * @param c - addend
 * @throws {@link ModprecError} as {@link rnsAdd}
 */
export function rnsFma(z: RnsNumber, a: RnsNumber, b: RnsNumber, c: RnsNumber): void {
  checkSets(z, a, b);
  if (c.set !== z.set) checkSameSet('c', c, z.set);
  const set = z.set;
  const t = scratchOf(set);
  if (a.uf === 0 || b.uf === 0 || c.uf === 0) { rnsMul(t, a, b); addSigned(z, t, c, 0); return; }
  // The exact product (X·Y ≤ 2^(2p) ≤ M/4, not rounded yet) …
  multiplyExact(t, a, b);
  // … is added to c exactly when the aligned sum stays below M/4, and the sum is rounded once: one rounding
  // instead of two (product, then sum), so |δ| ≤ 2^-p/(1 − 2^-24) < u for the whole a·b + c as well.
  let gamma = t.exp - c.exp;
  const scaledFirst = gamma >= 0;
  if (!scaledFirst) gamma = -gamma;
  const big = scaledFirst ? t : c, small = scaledFirst ? c : t;
  addUp(big.uf, big.ue + gamma, small.uf, small.ue);
  if (EXT.e <= -2 && gamma <= z.tables.maxShift) {
    const zexp = scaledFirst ? c.exp : t.exp;
    checkResultExponent(set, zexp);
    alignedAdd(z, big, big.sign, small, small.sign, gamma, zexp);
    return;
  }
  if (needsRounding(t)) roundSignificand(t);
  addSigned(z, t, c, 0);
}

/** z := x·y exactly (no rounding: X·Y ≤ 2^(2p) ≤ M/4); the caller rounds or consumes the wide result. */
function multiplyExact(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  const set = z.set;
  const e = x.exp + y.exp;
  checkResultExponent(set, e);
  mulDown(x.lf, x.le, y.lf, y.le);
  mulDown(EXT.f, EXT.e, set.MfLo, set.Me);
  const lf = EXT.f, le = EXT.e;
  mulUp(x.uf, x.ue, y.uf, y.ue);
  mulUp(EXT.f, EXT.e, set.MfUp, set.Me);
  const n = set.size;
  const m = set.moduli;
  const inv = set.inverseModuli;
  const xd = x.digits, yd = y.digits, zd = z.digits;
  for (let i = 0; i < n; i++) {
    const mm = m[i]!;
    const pr = xd[i]! * yd[i]!;
    const r = pr - Math.floor(pr * inv[i]!) * mm;
    zd[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
  }
  z.sign = x.sign ^ y.sign;
  z.exp = e;
  z.lf = lf; z.le = le; z.uf = EXT.f; z.ue = EXT.e;
  if (!isTight(z.lf, z.le, z.uf, z.ue)) refreshEval(z);
}

/**
 * z := −x (exact).
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets
 */
export function rnsNeg(z: RnsNumber, x: RnsNumber): void {
  if (x.set !== z.set) checkSameSet('x', x, z.set);
  copyInto(z, x, 1);
}

/**
 * z := |x| (exact).
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets
 */
export function rnsAbs(z: RnsNumber, x: RnsNumber): void {
  if (x.set !== z.set) checkSameSet('x', x, z.set);
  copyInto(z, x, x.sign);
}

/**
 * z := x (exact copy).
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets
 */
export function rnsSet(z: RnsNumber, x: RnsNumber): void {
  if (x.set !== z.set) checkSameSet('x', x, z.set);
  copyInto(z, x, 0);
}

/**
 * Sign of x: −1, 0 or 1 (zero of either sign gives 0). Read from the sign bit and the interval evaluation.
 */
export function rnsSign(x: RnsNumber): number {
  return x.uf === 0 ? 0 : x.sign ? -1 : 1;
}

/**
 * Compares x with y: −1, 0, 1 as x < y, x = y, x > y (exact). Decided on the interval evaluations when they
 * separate the magnitudes, else by the sign of the (exact before rounding) difference.
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets
 */
export function rnsCompare(x: RnsNumber, y: RnsNumber): number {
  if (x.set !== y.set) checkSameSet('y', y, x.set);
  const sx = rnsSign(x), sy = rnsSign(y);
  if (sx !== sy || sx === 0) return Math.sign(sx - sy);
  // Same non-zero sign: compare magnitudes by the intervals, shifted by the exponents.
  if (compareExt(x.uf, x.ue + x.exp, y.lf, y.le + y.exp) < 0) return -sx;
  if (compareExt(y.uf, y.ue + y.exp, x.lf, x.le + x.exp) < 0) return sx;
  const d = scratchOf(x.set);
  rnsSub(d, x, y);
  return rnsSign(d);
}
