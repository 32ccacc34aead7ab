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
import { fail } from '../../core/errors.js';
import { EXT, addDown, addUp, compareExt, isTight, mulDown, mulUp, subDown, subUp } from './ext-float.js';
import { EVAL, evaluateSigned } from './interval-evaluation.js';
import type { RnsModuliSet } from './moduli-set.js';
import { needsRounding, roundSignificand } from './rounding.js';
import { MAX_EXPONENT, OPEN_AFTER, RnsNumber, checkRnsNumber, checkSameSet, markOwnOrdinary, setZero } from './rns-number-class.js';
import { copyInto, resolveNumber } from './resolve.js';
import { runFusedLoop, runProductLoop } from './fused-loops.js';
import { runTwoProductLoop } from './two-product-loop.js';
import { OPEN_TERM_EXPONENT, accumulateOpen, openSum } from './open-sum.js';

const scratch = new WeakMap<RnsModuliSet, RnsNumber>();

/** A scratch number of `set` for internal use (not re-entrant). */
export function scratchOf(set: RnsModuliSet): RnsNumber {
  let s = scratch.get(set);
  if (!s) { s = new RnsNumber(set); scratch.set(set, s); }
  return s;
}

// `?.`: a missing operand (null, undefined), z included, reaches the typed errors instead of a TypeError on `.set`
// (one compare more than the sets' own on the kernels' path: a missing z has no set).
function checkSets(z: RnsNumber, x: RnsNumber, y: RnsNumber, xName = 'x', yName = 'y'): void {
  const set = z?.set;
  if (x?.set !== set || y?.set !== set || set === undefined) {
    checkRnsNumber('z', z);
    checkSameSet(xName, x, set!);
    checkSameSet(yName, y, set!);
  }
}

/** checkSets for one operand x. */
function checkSet(z: RnsNumber, x: RnsNumber): void {
  const set = z?.set;
  if (x?.set !== set || set === undefined) {
    checkRnsNumber('z', z);
    checkSameSet('x', x, set!);
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
  resolveNumber(x);
  resolveNumber(y);
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
  const alf = a.lf, ale = a.le + gamma, auf = a.uf, aue = a.ue + gamma;
  const blf = b.lf, ble = b.le, buf = b.uf, bue = b.ue;
  const n = z.set.size;
  const m = z.set.moduli;
  const inv = z.set.inverseModuli;
  const pw = z.tables.pow2;
  const off = gamma * n;
  const ad = a.digits, bd = b.digits, zd = z.digits;
  markOwnOrdinary(z);
  // a·2^γ + b < m² + m < 2^53 is exact (and a·2^γ − b ≡ a·2^γ + (m − b)): one reduction per residue.
  if (sa === sb) {
    for (let i = 0; i < n; i++) {
      const mm = m[i]!;
      const r = ad[i]! * pw[off + i]! + bd[i]!;
      const v = r - Math.floor(r * inv[i]!) * mm;
      zd[i] = v < 0 ? v + mm : v >= mm ? v - mm : v;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const mm = m[i]!;
      const r = ad[i]! * pw[off + i]! + (mm - bd[i]!);
      const v = r - Math.floor(r * inv[i]!) * mm;
      zd[i] = v < 0 ? v + mm : v >= mm ? v - mm : v;
    }
  }
  z.exp = zexp;
  IV[0] = alf; IV[1] = ale; IV[2] = auf; IV[3] = aue; IV[4] = blf; IV[5] = ble; IV[6] = buf; IV[7] = bue;
  finishAligned(z, sa, sb);
}

/**
 * The evals handed to {@link finishAligned}: [lo, up] of the scaled operand A' (fraction, exponent, fraction,
 * exponent), then of B. A typed array because doubles passed as arguments to a call that is not inlined are
 * boxed (a heap allocation each).
 */
const IV = new Float64Array(8);

/**
 * The residues of z hold (−1)^sa·A' + (−1)^sb·B (A' = A·2^γ, each given by its eval in {@link IV}) with the
 * sign of A' when sa ≠ sb (B's residues were negated): sets z's sign and eval, recomputing them from the
 * residues when interval arithmetic cannot decide, and rounds to p bits if needed.
 */
function finishAligned(z: RnsNumber, sa: number, sb: number): void {
  const alf = IV[0]!, ale = IV[1]!, auf = IV[2]!, aue = IV[3]!, blf = IV[4]!, ble = IV[5]!, buf = IV[6]!, bue = IV[7]!;
  if (sa === sb) {
    z.sign = sa;
    addDown(alf, ale, blf, ble);
    z.lf = EXT.f; z.le = EXT.e;
    addUp(auf, aue, buf, bue);
    z.uf = EXT.f; z.ue = EXT.e;
    finish(z);
    return;
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
      const n = z.set.size, m = z.set.moduli, zd = z.digits;
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
 *   `INVALID_VALUE` on exponent overflow (z untouched), or naming an operand (z included) that is not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsAdd, rnsCompare, rnsFromNumber, rnsToNumber } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * const x = rnsZero(set), y = rnsZero(set), z = rnsZero(set);
 * rnsFromNumber(x, 1);
 * rnsFromNumber(y, 2 ** -150);   // far below a double's precision of 1
 * rnsAdd(z, x, y);
 * rnsToNumber(z); // → 1
 * rnsCompare(z, x); // → 1
 * ```
 * @group RNS
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
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsSub, rnsSign, rnsFromNumber } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * const x = rnsZero(set), y = rnsZero(set), z = rnsZero(set);
 * rnsFromNumber(x, 0.1);
 * rnsFromNumber(y, 0.1);
 * rnsSub(z, x, y);
 * rnsSign(z); // → 0
 * ```
 * @group RNS
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
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsMul, rnsFromNumber, rnsToNumber } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * const x = rnsZero(set), z = rnsZero(set);
 * rnsFromNumber(x, 0.1);
 * rnsMul(z, x, x);   // the exact square of the double 0.1 fits in 212 bits
 * rnsToNumber(z) === 0.1 * 0.1; // → true
 * ```
 * @group RNS
 */
export function rnsMul(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  checkSets(z, x, y);
  const set = z.set;
  // Open sums are closed; factors bound to array elements stay bound (multiplyExact reads them in place).
  if (x.open !== 0) resolveNumber(x);
  if (y.open !== 0) resolveNumber(y);
  const sign = x.sign ^ y.sign;
  if (x.uf === 0 || y.uf === 0) { setZero(z, sign); return; }
  multiplyExact(z, x, y);
  if (needsRounding(z)) roundSignificand(z);
}

/**
 * z := a · b + c with two roundings (each |δ| < u), the RNS counterpart of a multiply-add. In place (z is c:
 * a sum being accumulated), after 8 such steps with short terms the sum is kept *open*: exact, with no eval
 * until it is read (`open-sum.ts`). Every function of this library closes it before reading it; code that reads
 * the fields of an `RnsNumber` directly must call `rnsResolve` first.
 * @param z - destination (may alias any operand)
 * @param a - first factor
 * @param b - second factor
 * @param c - addend
 * @throws {@link ModprecError} as {@link rnsAdd}
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFma, rnsFromNumber, rnsToNumber } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * const a = rnsZero(set), b = rnsZero(set), s = rnsZero(set);
 * rnsFromNumber(a, 0.1);
 * rnsFromNumber(b, 10);
 * rnsFromNumber(s, -1);
 * rnsFma(s, a, b, s);   // s := 0.1·10 − 1: the representation error of 0.1, kept
 * rnsToNumber(s); // → 5.551115123125783e-17
 * ```
 * @group RNS
 */
export function rnsFma(z: RnsNumber, a: RnsNumber, b: RnsNumber, c: RnsNumber): void {
  checkSets(z, a, b, 'a', 'b');
  if (c?.set !== z.set) checkSameSet('c', c, z.set);
  if (a.open !== 0) resolveNumber(a);
  if (b.open !== 0) resolveNumber(b);
  if (z !== c) { fmaOrdinary(z, a, b, c); return; }
  // In place (a kernel's sum): keep the sum open while the terms are short (open-sum.ts).
  const runs = c.runs;
  if (c.open !== 0 || runs >= OPEN_AFTER) {
    if (a.uf === 0 || b.uf === 0) { if (c.open !== 0) return; } // adds ±0 to an open (non-zero-signed) sum
    else {
      checkResultExponent(z.set, a.exp + b.exp);
      // P/M < 2^(a.ue + b.ue + Me): the fractions of the two evals and of M are below 1.
      const termExponent = a.ue + b.ue + z.set.Me;
      if (termExponent <= OPEN_TERM_EXPONENT) {
        if (c.open === 0) { resolveNumber(c); openSum(c, a.exp + b.exp, termExponent); }
        if (accumulateOpen(c, a, b, termExponent)) return;
      }
      resolveNumber(c);
    }
  }
  fmaOrdinary(z, a, b, c);
  z.runs = runs + 1;
}

/** Product scratch of {@link rnsMulAdd2}'s fallback, apart from {@link scratchOf}, which the multiply-add uses. */
const productScratch = new WeakMap<RnsModuliSet, RnsNumber>();

/**
 * z := a·x + b·y. When both exact products have tight evals and their aligned sum stays below M/4 (e.g. WAXPBY
 * on double inputs), one pass over the residues forms it exactly and rounds once: |δ| < u for the whole
 * expression. Otherwise a·x is rounded, then added by {@link rnsFma}: two roundings, each |δ| < u.
 * @param z - destination (may alias any operand)
 * @param a - first factor of the first product
 * @param x - second factor of the first product
 * @param b - first factor of the second product
 * @param y - second factor of the second product
 * @throws {@link ModprecError} as {@link rnsAdd}
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsMulAdd2, rnsFromNumber, rnsToNumber } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * const [a, x, b, y, z] = [0, 1, 2, 3, 4].map(() => rnsZero(set));
 * rnsFromNumber(a!, 2); rnsFromNumber(x!, 3); rnsFromNumber(b!, -1); rnsFromNumber(y!, 5);
 * rnsMulAdd2(z!, a!, x!, b!, y!);   // 2·3 − 1·5
 * rnsToNumber(z!); // → 1
 * ```
 * @group RNS
 */
export function rnsMulAdd2(z: RnsNumber, a: RnsNumber, x: RnsNumber, b: RnsNumber, y: RnsNumber): void {
  checkSets(z, a, x, 'a', 'x');
  checkSets(z, b, y, 'b', 'y');
  if (a.open !== 0) resolveNumber(a);
  if (x.open !== 0) resolveNumber(x);
  if (b.open !== 0) resolveNumber(b);
  if (y.open !== 0) resolveNumber(y);
  if (a.uf !== 0 && x.uf !== 0 && b.uf !== 0 && y.uf !== 0 && mulAdd2OnePass(z, a, x, b, y)) return;
  let t = productScratch.get(z.set);
  if (!t) { t = new RnsNumber(z.set); productScratch.set(z.set, t); }
  rnsMul(t, a, x);
  rnsFma(z, b, y, t);
}

/**
 * The one-pass case of {@link rnsMulAdd2} (non-zero operands): returns false, with nothing written, when it
 * does not apply (a product's eval not tight, exponents too far apart, the sum not below M/4, or both factors of
 * a product bound to array elements).
 */
function mulAdd2OnePass(z: RnsNumber, a: RnsNumber, x: RnsNumber, b: RnsNumber, y: RnsNumber): boolean {
  // The loop reads the first factor of each product from its own digits.
  if (a.refArray !== null) { const t = a; a = x; x = t; }
  if (b.refArray !== null) { const t = b; b = y; y = t; }
  if (a.refArray !== null || b.refArray !== null) return false;
  const set = z.set;
  let e1 = a.exp + x.exp, e2 = b.exp + y.exp;
  checkResultExponent(set, e1);
  checkResultExponent(set, e2);
  productEval(set, a, x);
  let lf1 = PE[0]!, le1 = PE[1]!, uf1 = PE[2]!, ue1 = PE[3]!;
  productEval(set, b, y);
  let lf2 = PE[0]!, le2 = PE[1]!, uf2 = PE[2]!, ue2 = PE[3]!;
  if (!isTight(lf1, le1, uf1, ue1) || !isTight(lf2, le2, uf2, ue2)) return false;
  let s1 = a.sign ^ x.sign, s2 = b.sign ^ y.sign;
  // The product with the larger exponent goes first: it is the one scaled by 2^γ.
  // (One temporary per swapped variable: a temporary shared by integers and doubles made V8 box them.)
  if (e1 < e2) {
    const ta = a; a = b; b = ta;
    const tx = x; x = y; y = tx;
    const te = e1; e1 = e2; e2 = te;
    const ts = s1; s1 = s2; s2 = ts;
    const tlf = lf1; lf1 = lf2; lf2 = tlf;
    const tle = le1; le1 = le2; le2 = tle;
    const tuf = uf1; uf1 = uf2; uf2 = tuf;
    const tue = ue1; ue1 = ue2; ue2 = tue;
  }
  const gamma = e1 - e2;
  if (gamma > z.tables.maxShift) return false;
  addUp(uf1, ue1 + gamma, uf2, ue2);
  if (EXT.e > -2) return false;
  runTwoProductLoop(z, a, x, b, y, gamma, s1 === s2);
  markOwnOrdinary(z);
  z.exp = e2;
  IV[0] = lf1; IV[1] = le1 + gamma; IV[2] = uf1; IV[3] = ue1 + gamma;
  IV[4] = lf2; IV[5] = le2; IV[6] = uf2; IV[7] = ue2;
  finishAligned(z, s1, s2);
  return true;
}

/** z := a·b + c, ordinary numbers (each rounded |δ| < u): see {@link rnsFma}. */
function fmaOrdinary(z: RnsNumber, a: RnsNumber, b: RnsNumber, c: RnsNumber): void {
  const set = z.set;
  if (a.uf === 0 || b.uf === 0 || c.uf === 0) { const t = scratchOf(set); rnsMul(t, a, b); addSigned(z, t, c, 0); return; }
  resolveNumber(c);
  // The exact product (X·Y ≤ 2^(2p) ≤ M/4, not rounded yet) is added to c exactly when the aligned sum stays
  // below M/4, and the sum is rounded once: one rounding instead of two (product, then sum), so
  // |δ| ≤ 2^-p/(1 − 2^-24) < u for the whole a·b + c as well.
  const e = a.exp + b.exp;
  checkResultExponent(set, e);
  productEval(set, a, b);
  const plf = PE[0]!, ple = PE[1]!, puf = PE[2]!, pue = PE[3]!;
  let gamma = e - c.exp;
  const scaledFirst = gamma >= 0;
  if (!scaledFirst) gamma = -gamma;
  if (isTight(plf, ple, puf, pue) && gamma <= z.tables.maxShift) {
    if (scaledFirst) addUp(puf, pue + gamma, c.uf, c.ue);
    else addUp(c.uf, c.ue + gamma, puf, pue);
    if (EXT.e <= -2) {
      const zexp = scaledFirst ? c.exp : e;
      checkResultExponent(set, zexp);
      if (scaledFirst) {
        IV[0] = plf; IV[1] = ple + gamma; IV[2] = puf; IV[3] = pue + gamma;
        IV[4] = c.lf; IV[5] = c.le; IV[6] = c.uf; IV[7] = c.ue;
      } else {
        IV[0] = c.lf; IV[1] = c.le + gamma; IV[2] = c.uf; IV[3] = c.ue + gamma;
        IV[4] = plf; IV[5] = ple; IV[6] = puf; IV[7] = pue;
      }
      fusedMulAlignedAdd(z, a, b, c, gamma, scaledFirst);
      return;
    }
  }
  resolveNumber(a);
  resolveNumber(b);
  const t = scratchOf(set);
  multiplyExact(t, a, b);
  if (scaledFirst) addUp(t.uf, t.ue + gamma, c.uf, c.ue);
  else addUp(c.uf, c.ue + gamma, t.uf, t.ue);
  if (EXT.e <= -2 && gamma <= z.tables.maxShift) {
    const big = scaledFirst ? t : c, small = scaledFirst ? c : t;
    checkResultExponent(set, scaledFirst ? c.exp : t.exp);
    alignedAdd(z, big, big.sign, small, small.sign, gamma, scaledFirst ? c.exp : t.exp);
    return;
  }
  if (needsRounding(t)) roundSignificand(t);
  addSigned(z, t, c, 0);
}

/**
 * z := a·b + c in one pass over the residues: the product P = A·B (exact) and c are aligned (the one with
 * the larger exponent scaled by 2^γ) and added or subtracted, then finished as {@link alignedAdd}. The caller
 * checked that the aligned sum stays below M/4 and put both evals in {@link IV}. Why one pass: it saves the
 * product's store and reload and one canonicalisation per residue (the kernels' multiply-add is this), and
 * factors bound to mp_array elements are read in place.
 */
function fusedMulAlignedAdd(z: RnsNumber, a: RnsNumber, b: RnsNumber, c: RnsNumber, gamma: number,
  scaledFirst: boolean): void {
  const sp = a.sign ^ b.sign, sc = c.sign;
  const cexp = c.exp, pexp = a.exp + b.exp;
  runFusedLoop(z, a, b, c, gamma, scaledFirst, sp === sc, true);
  markOwnOrdinary(z);
  z.exp = scaledFirst ? cexp : pexp;
  if (scaledFirst) finishAligned(z, sp, sc);
  else finishAligned(z, sc, sp);
}

/** The eval of an exact product X·Y: [lf, le, uf, ue] (a typed array, so no double is boxed). */
const PE = new Float64Array(4);

/** PE := I(X·Y/M) = I(X/M)·I(Y/M)·M, rounded outward. */
function productEval(set: RnsModuliSet, x: RnsNumber, y: RnsNumber): void {
  mulDown(x.lf, x.le, y.lf, y.le);
  mulDown(EXT.f, EXT.e, set.MfLo, set.Me);
  PE[0] = EXT.f; PE[1] = EXT.e;
  mulUp(x.uf, x.ue, y.uf, y.ue);
  mulUp(EXT.f, EXT.e, set.MfUp, set.Me);
  PE[2] = EXT.f; PE[3] = EXT.e;
}

/** z := x·y exactly (no rounding: X·Y ≤ 2^(2p) ≤ M/4); the caller rounds or consumes the wide result. */
function multiplyExact(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  const set = z.set;
  const e = x.exp + y.exp;
  checkResultExponent(set, e);
  productEval(set, x, y);
  if (x.refArray === null && y.refArray === null) {
    // Own residues: the loop inline (through the dispatcher it measured ~1.5× slower here, bench/rns-profile.ts).
    const n = set.size, m = set.moduli, inv = set.inverseModuli;
    const xd = x.digits, yd = y.digits, zd = z.digits;
    for (let i = 0; i < n; i++) {
      const mm = m[i]!;
      const pr = xd[i]! * yd[i]!;
      const r = pr - Math.floor(pr * inv[i]!) * mm;
      zd[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
    }
  } else {
    // Factors bound to array elements are read in place (before z, which may be one of them, is unbound).
    runProductLoop(z, x, y);
  }
  markOwnOrdinary(z);
  z.sign = x.sign ^ y.sign;
  z.exp = e;
  z.lf = PE[0]!; z.le = PE[1]!; z.uf = PE[2]!; z.ue = PE[3]!;
  if (!isTight(z.lf, z.le, z.uf, z.ue)) refreshEval(z);
}

/**
 * z := −x (exact).
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets; `INVALID_VALUE` naming an operand that is
 *   not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsNeg, rnsFromNumber, rnsToNumber } from 'modprec';
 *
 * const set = rnsModuliSet(106);
 * const x = rnsZero(set);
 * rnsFromNumber(x, 1.5);
 * rnsNeg(x, x);
 * rnsToNumber(x); // → -1.5
 * ```
 * @group RNS
 */
export function rnsNeg(z: RnsNumber, x: RnsNumber): void {
  checkSet(z, x);
  copyInto(z, x, 1);
}

/**
 * z := |x| (exact).
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets; `INVALID_VALUE` naming an operand that is
 *   not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsAbs, rnsFromNumber, rnsToNumber } from 'modprec';
 *
 * const set = rnsModuliSet(106);
 * const x = rnsZero(set);
 * rnsFromNumber(x, -1.5);
 * rnsAbs(x, x);
 * rnsToNumber(x); // → 1.5
 * ```
 * @group RNS
 */
export function rnsAbs(z: RnsNumber, x: RnsNumber): void {
  checkSet(z, x);
  // Closed first: an open sum's sign bit is not its value's sign until the sum is evaluated (copyInto would close
  // it only after x.sign was read: |s| of an open s = −2199.25 came out −2199.25).
  if (x.open !== 0) resolveNumber(x);
  copyInto(z, x, x.sign);
}

/**
 * z := x (exact copy).
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets; `INVALID_VALUE` naming an operand that is
 *   not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsSet, rnsCompare, rnsFromNumber } from 'modprec';
 *
 * const set = rnsModuliSet(106);
 * const x = rnsZero(set), copy = rnsZero(set);
 * rnsFromNumber(x, 0.1);
 * rnsSet(copy, x);
 * rnsCompare(copy, x); // → 0
 * ```
 * @group RNS
 */
export function rnsSet(z: RnsNumber, x: RnsNumber): void {
  checkSet(z, x);
  copyInto(z, x, 0);
}

/**
 * Sign of x: −1, 0 or 1 (zero of either sign gives 0). Read from the sign bit and the interval evaluation.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `x` when it is not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsSign, rnsFromNumber } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(106));
 * rnsFromNumber(x, -1e-300);
 * rnsSign(x); // → -1
 * ```
 * @group RNS
 */
export function rnsSign(x: RnsNumber): number {
  checkRnsNumber('x', x);
  return signOf(x);
}

/** rnsSign without the operand check (the comparisons' and kernels' path). */
export function signOf(x: RnsNumber): number {
  if (x.open !== 0) resolveNumber(x);
  return x.uf === 0 ? 0 : x.sign ? -1 : 1;
}

/**
 * Compares x with y: −1, 0, 1 as x < y, x = y, x > y (exact). Decided on the interval evaluations when they
 * separate the magnitudes, else by the sign of the (exact before rounding) difference.
 * @throws {@link ModprecError} `INVALID_FORMAT` for mixed moduli sets; `INVALID_VALUE` naming an operand that is
 *   not an RnsNumber
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsCompare, rnsFromNumber, rnsFromDoubleDouble } from 'modprec';
 *
 * const set = rnsModuliSet(106);
 * const x = rnsZero(set), y = rnsZero(set);
 * rnsFromNumber(x, 1);
 * rnsFromDoubleDouble(y, 1, 2 ** -100);   // 1 + 2^-100: no double tells them apart
 * rnsCompare(x, y); // → -1
 * ```
 * @group RNS
 */
export function rnsCompare(x: RnsNumber, y: RnsNumber): number {
  const set = x?.set;
  if (y?.set !== set || set === undefined) {
    checkRnsNumber('x', x);
    checkSameSet('y', y, x.set);
  }
  resolveNumber(x);
  resolveNumber(y);
  const sx = signOf(x), sy = signOf(y);
  if (sx !== sy || sx === 0) return Math.sign(sx - sy);
  // Same non-zero sign: compare magnitudes by the intervals, shifted by the exponents.
  if (compareExt(x.uf, x.ue + x.exp, y.lf, y.le + y.exp) < 0) return -sx;
  if (compareExt(y.uf, y.ue + y.exp, x.lf, x.le + x.exp) < 0) return sx;
  const d = scratchOf(x.set);
  rnsSub(d, x, y);
  return signOf(d);
}
