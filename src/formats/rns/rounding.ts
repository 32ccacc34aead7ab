/**
 * Exact low-order bits of an RNS significand and rounding by power-of-two scaling.
 *
 * With ξ_i = |x_i·w_i|_{m_i} and K the integer part of Σ ξ_i/m_i, the CRT gives X = Σ ξ_i·M_i − K·M
 * exactly, hence X mod 2^k = (Σ ξ_i·|M_i|_{2^k} − K·|M|_{2^k}) mod 2^k, a sum of n small multiples of
 * k-bit constants: we add it in 21-bit limbs (ξ_i < 2^26, so each product is < 2^47 and 32 of them fit a
 * double exactly before a carry pass). K is exact when X/M is known to lie in [0, 1/2): then
 * Σ ξ_i/m_i ∈ [K, K + 1/2) and the computed K' + f is within E < 1/4 of it, so K = K' + [f ≥ 3/4].
 *
 * Rounding X to p bits: with r = X mod 2^k, X' = (X − r)/2^k + c, c = [r > 2^(k−1)] or, for r = 2^(k−1), the parity
 * of (X − r)/2^k (bit k of X), is X/2^k rounded to nearest, ties to even (MPFR's RNDN), and its residues are |(x_i − |r|_{m_i})·|2^-k|_{m_i} + c|_{m_i} because 2^k divides X − r
 * and 2 is invertible modulo every (odd) m_i.
 * @module
 */
import { EXT, addUp, exponentOf, mulDown, mulUp, subDown } from './ext-float.js';
import { EVAL, FRAC, computeXi, evaluateSigned, fracSum } from './interval-evaluation.js';
import { LIMB_BITS, type RnsModuliSet, rnsTables } from './moduli-set.js';
import type { RnsNumber } from './rns-number-class.js';
import { rnsUnbind } from './rns-array.js';
import { RNS_STATS } from './stats.js';

const LIMB = 2 ** LIMB_BITS;
const INV_LIMB = 2 ** -LIMB_BITS;

/** Propagates carries so limbs 0 … count−1 are in [0, 2^21); the carry out goes into limb `count`. */
function carry(acc: Float64Array, count: number): void {
  let c = 0;
  for (let j = 0; j < count; j++) {
    const v = acc[j]! + c;
    c = Math.floor(v * INV_LIMB);
    acc[j] = v - c * LIMB;
  }
  acc[count] = acc[count]! + c;
}

/**
 * X mod 2^k in 21-bit limbs (little-endian) into `out`, for residues whose ξ are in `xi` and whose exact
 * CRT wrap count is `K`. Returns the number of limbs ⌈k/21⌉.
 * @param set - moduli set
 * @param xi - ξ_i = |x_i w_i|_{m_i}
 * @param K - integer with X = Σ ξ_i M_i − K·M
 * @param k - number of low bits wanted, 1 ≤ k ≤ maxShift + 21
 * @param out - accumulator, length ≥ ⌈k/21⌉ + 1
 */
export function lowBits(set: RnsModuliSet, xi: Float64Array, K: number, k: number, out: Float64Array): number {
  const t = rnsTables(set);
  const n = set.size;
  const L = t.limbs;
  const Lk = Math.ceil(k / LIMB_BITS);
  const miLimbs = t.miLimbs;
  out.fill(0, 0, Lk + 1);
  for (let i = 0; i < n; i++) {
    const v = xi[i]!;
    if (v !== 0) {
      const base = i * L;
      for (let j = 0; j < Lk; j++) out[j] = out[j]! + v * miLimbs[base + j]!;
    }
    if ((i & 31) === 31) carry(out, Lk);
  }
  const mLimbs = t.mLimbs;
  for (let j = 0; j < Lk; j++) out[j] = out[j]! - K * mLimbs[j]!;
  carry(out, Lk);
  // Keep k bits: the carry out of limb Lk−1 and the bits above k are multiples of 2^k.
  const topBits = k - LIMB_BITS * (Lk - 1);
  const top = out[Lk - 1]!;
  const topMod = 2 ** topBits;
  out[Lk - 1] = top - Math.floor(top / topMod) * topMod;
  out[Lk] = 0;
  return Lk;
}

/** 2^0 … 2^LIMB_BITS (a table: `**` is a call in the rounding's few bit tests). */
const POW2 = Float64Array.from({ length: LIMB_BITS + 1 }, (_, k) => 2 ** k);

/** Bit `at` of the integer held in 21-bit limbs. */
export function bitOf(limbs: Float64Array, at: number): boolean {
  const j = Math.floor(at / LIMB_BITS);
  return Math.floor(limbs[j]! / POW2[at - j * LIMB_BITS]!) % 2 === 1;
}

/** Whether any of bits [0, below) of the integer held in 21-bit limbs is set. */
export function anyBitBelow(limbs: Float64Array, below: number): boolean {
  if (below <= 0) return false;
  const jl = Math.floor(below / LIMB_BITS);
  for (let j = 0; j < jl; j++) if (limbs[j] !== 0) return true;
  const r = below - jl * LIMB_BITS;
  return r > 0 && limbs[jl]! % POW2[r]! !== 0;
}

/** |R|_{m_i} of the number R in `count` 21-bit limbs, into `out` (length n). */
export function residuesOfLimbs(set: RnsModuliSet, limbs: Float64Array, count: number, out: Float64Array): void {
  const t = rnsTables(set);
  const n = set.size;
  const m = set.moduli;
  const inv = set.inverseModuli;
  const lp = t.limbPow;
  out.fill(0, 0, n);
  for (let j = 0; j < count; j++) {
    const l = limbs[j]!;
    if (l !== 0) {
      const off = j * n;
      for (let i = 0; i < n; i++) out[i] = out[i]! + l * lp[off + i]!; // < 2^47 per term
    }
    if ((j & 31) === 31 || j === count - 1) {
      for (let i = 0; i < n; i++) {
        const v = out[i]!;
        const mm = m[i]!;
        const r = v - Math.floor(v * inv[i]!) * mm;
        out[i] = r < 0 ? r + mm : r >= mm ? r - mm : r;
      }
    }
  }
}

/**
 * Exact X (0 ≤ X < M/2, X < 2^bits) of `x` in 21-bit limbs into the set's scratch; returns the limb count.
 * @param x - the number (its eval must be valid)
 * @param bits - a bound with X < 2^bits
 */
export function significandLimbs(x: RnsNumber, bits: number): number {
  const set = x.set;
  const t = rnsTables(set);
  // The eval must be valid, so x is no open sum (closing one rounds through here); only a binding is undone.
  rnsUnbind(x);
  computeXi(set, x.digits, 0, t.scratchXi);
  const f = fracSum(set, t.scratchXi);
  const K = FRAC.wraps + (f >= 0.75 ? 1 : 0);
  return lowBits(set, t.scratchXi, K, Math.max(1, bits), t.scratchLimbs);
}

/** Bit length bound B (X ≤ 2^B) from the eval's upper bound: X ≤ up·M. */
export function significandBitsUpper(x: RnsNumber): number {
  const set = x.set;
  mulUp(x.uf, x.ue, set.MfUp, set.Me);
  return EXT.f === 0.5 ? EXT.e - 1 : EXT.e;
}

/** Whether X might exceed 2^p (I(X/M).up above the set's threshold 2^p/M): then the number is rounded. */
export function needsRounding(x: RnsNumber): boolean {
  const t = x.tables;
  if (x.uf === 0) return false;
  if (x.ue !== t.roundThresholdE) return x.ue > t.roundThresholdE;
  return x.uf > t.roundThresholdF;
}

/**
 * Rounds the significand of `z` (0 ≤ X < M/2, eval valid) to p bits, to nearest with ties to even (X correctly
 * rounded, as MPFR's RNDN), scaling by 2^k and adding k to the exponent. Relative error ≤ 2^-p < 4/√M.
 * The caller has checked that exp + k stays in range (k ≤ p + 4).
 */
export function roundSignificand(z: RnsNumber): void {
  const set = z.set;
  const p = set.precision;
  const B = significandBitsUpper(z);
  if (B <= p) return;
  const t = z.tables;
  const n = set.size;
  const xi = t.scratchXi;
  computeXi(set, z.digits, 0, xi);
  const f = fracSum(set, xi);
  const K = FRAC.wraps + (f >= 0.75 ? 1 : 0);
  const limbs = t.scratchLimbs;
  // X ≤ 2^B has B bits (or is 2^B) when lo·M ≥ 2^(B−1); else (X just below a power of two) its length is read from
  // its limbs, so that the rounding keeps p bits, not p − 1.
  let k = B - p;
  mulDown(z.lf, z.le, set.MfLo, set.Me);
  if (!(EXT.f > 0 && EXT.e >= B)) {
    const count = lowBits(set, xi, K, B + 1, limbs);
    let j = count - 1;
    while (j > 0 && limbs[j] === 0) j--;
    k = (limbs[j] === 0 ? 0 : LIMB_BITS * j + exponentOf(limbs[j]!)) - p;
    if (k <= 0) return;
  }
  RNS_STATS.roundings++;
  let Lk = lowBits(set, xi, K, k, limbs); // r = X mod 2^k
  // To nearest, ties to even: the round bit k−1 rounds up when a bit below it is set, or (a tie, rare) when the kept
  // part is odd — bit k of X, read from X mod 2^(k+1) and cleared again.
  let roundUp = 0;
  if (bitOf(limbs, k - 1)) {
    if (anyBitBelow(limbs, k - 1)) roundUp = 1;
    else {
      Lk = lowBits(set, xi, K, k + 1, limbs);
      if (bitOf(limbs, k)) { roundUp = 1; limbs[Math.floor(k / LIMB_BITS)] -= POW2[k % LIMB_BITS]!; }
    }
  }
  const r = t.scratchR;
  residuesOfLimbs(set, limbs, Lk, r);
  const m = set.moduli;
  const inv = set.inverseModuli;
  const ip = t.invPow2;
  const off = k * n;
  const d = z.digits;
  for (let i = 0; i < n; i++) {
    const mm = m[i]!;
    let v = d[i]! - r[i]!;
    if (v < 0) v += mm;
    const pr = v * ip[off + i]!;
    let q = pr - Math.floor(pr * inv[i]!) * mm;
    q = q < 0 ? q + mm : q >= mm ? q - mm : q;
    q += roundUp;
    d[i] = q >= mm ? q - mm : q;
  }
  z.exp += k;
  // X' ∈ [X/2^k − 1/2, X/2^k + 1/2]: I(X'/M) = I(X/M)·2^-k ± 1/(2M).
  const lf = z.lf, le = z.le - k, uf = z.uf, ue = z.ue - k;
  subDown(lf, le, t.halfInvMf, t.halfInvMe);
  if (EXT.f > 0) { z.lf = EXT.f; z.le = EXT.e; } else {
    evaluateSigned(set, d, 0, 0, 0);
    z.lf = EVAL.lf; z.le = EVAL.le; z.uf = EVAL.uf; z.ue = EVAL.ue;
    return;
  }
  addUp(uf, ue, t.halfInvMf, t.halfInvMe);
  z.uf = EXT.f; z.ue = EXT.e;
}
