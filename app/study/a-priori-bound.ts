/**
 * A-priori forward error bounds of the product-sum kernels (DOT, GEMV, ELL SpMV, WAXPBY) as the study
 * runs them, relative to the norm of the exact result of the fp64 inputs — the bound every measured
 * `relativeError` must respect (Higham, Accuracy and Stability, §3.1, eq. 3.5, with the storage and
 * conversion roundings added as extra (1 + δ) factors).
 *
 * Each output yᵢ = Σⱼ aᵢⱼxⱼ over kᵢ terms is computed from stored inputs â = a(1 + δ), |δ| ≤ uₛ (0 when
 * the storage holds every double), read into the arithmetic with one more rounding u_r when the
 * arithmetic is narrower than the storage, summed recursively (γ_k of the arithmetic's u), and written
 * back rounded to the storage (u_o). So, componentwise,
 *   |ŷᵢ − yᵢ| ≤ Eᵢ + u_o (|yᵢ| + Eᵢ) + η_o,   Eᵢ = ((1 + uₛ)²(1 + u_r)²(1 + γ_k) − 1) (|A||x|)ᵢ + absolute terms,
 * where the absolute terms cover subnormal inputs (η per value, half the storage's smallest subnormal)
 * and underflowing products in the arithmetic (η per operation). The norm-wise bound is ‖that‖₂ / ‖y‖₂.
 * @module
 */
import { type ArithmeticFormat, gamma, type StorageFormat } from '../modprec.js';

const etaCache = new Map<string, number>();

/** Unit roundoff of the double-double reference (an upper bound of its per-operation relative error). */
const REFERENCE_UNIT = 2 ** -104;

/**
 * Half the smallest positive value that survives the round trip `keep` (the largest absolute error of
 * rounding a tiny value), found by halving from 1.
 */
export function halfSmallestPositive(key: string, keep: (x: number) => number): number {
  let eta = etaCache.get(key);
  if (eta === undefined) {
    let s = 1;
    while (s / 2 > 0 && keep(s / 2) > 0) s /= 2;
    eta = s / 2;
    etaCache.set(key, eta);
  }
  return eta;
}

/**
 * (1 + a₁)(1 + a₂)… − 1 without cancellation: formed as a running e ← e + a + e·a, so terms far below
 * 2^-53 (double-double unit roundoffs) are not lost to 1 + a = 1.
 */
export function compound(...terms: readonly number[]): number {
  let e = 0;
  for (const a of terms) e = e + a + e * a;
  return e;
}

/** Rounding parameters of a configuration: relative unit roundoffs and absolute underflow errors. */
export interface RoundingTerms {
  /** Relative rounding of fp64 inputs into the storage (0 when the storage holds every double). */
  readonly storage: number;
  /** Relative rounding of a read (storage → arithmetic) when the arithmetic is narrower. */
  readonly read: number;
  /** Unit roundoff of the arithmetic. */
  readonly arithmetic: number;
  /** Relative rounding of writing a result into the storage. */
  readonly output: number;
  /** Absolute error of storing a tiny value. */
  readonly storageEta: number;
  /** Absolute error of an operation that underflows in the arithmetic. */
  readonly arithmeticEta: number;
}

/** Half the smallest positive value arithmetic `a` keeps: the absolute error of an operation that underflows. */
function arithmeticEta(a: ArithmeticFormat): number {
  return halfSmallestPositive(`a:${a.name}`, (x) => Math.abs(a.toNumber(a.fromNumber(x))));
}

/** The rounding terms of storage `s` with arithmetic `a` (`resultStored`: the result is written to `s`). */
export function roundingTerms(s: StorageFormat, a: ArithmeticFormat, resultStored: boolean): RoundingTerms {
  const sBits = s.significandBits;
  const aBits = a.significandBits;
  const buffer = s.allocate(1);
  const storeRound = (x: number): number => { s.encode(buffer, 0, x as never); return Math.abs(Number(s.decode(buffer, 0))); };
  const numberKind = s.kind === 'number';
  return {
    storage: numberKind && sBits < 53 ? 2 ** -sBits : 0,
    read: aBits < sBits ? a.unitRoundoff : 0,
    arithmetic: a.unitRoundoff,
    output: resultStored ? (sBits < aBits ? 2 ** -sBits : 0) : (aBits > 53 ? 2 ** -53 : 0),
    storageEta: numberKind ? halfSmallestPositive(`s:${s.name}`, storeRound) : 0,
    arithmeticEta: arithmeticEta(a),
  };
}

/**
 * The rounding terms of a scaled-integer storage read in arithmetic `a` (outputs kept in `a`'s own format):
 * a stored element is integer·scale with |integer·scale − v| ≤ scale/2 + 2^-53·|v| (the quotient v/scale is
 * rounded to fp64 before it is rounded to an integer), so the storage error is relative 2^-53 plus absolute
 * `largestScale`/2; a read multiplies by the scale in the arithmetic (one rounding) and, in an arithmetic
 * narrower than fp64, first converts the fp64 scale (a second one); the result is not rounded again.
 */
export function integerRoundingTerms(a: ArithmeticFormat, largestScale: number): RoundingTerms {
  const u = a.unitRoundoff;
  return {
    storage: 2 ** -53,
    read: a.significandBits < 53 ? compound(u, u) : u,
    arithmetic: u,
    output: 0,
    // (1 + 2^-21): room for a binary32 scale rounded up, as the GPU module stores its block scales.
    storageEta: (largestScale / 2) * (1 + 2 ** -21),
    arithmeticEta: arithmeticEta(a),
  };
}

/** One output's data: its term count k, Σ|aⱼ||xⱼ|, Σ|aⱼ| + Σ|xⱼ| (for the subnormal terms), and |yᵢ|. */
export interface OutputTerms {
  readonly terms: number;
  readonly absProducts: number;
  readonly absInputs: number;
  readonly absExact: number;
}

/**
 * The norm-wise relative bound ‖bound‖₂ / ‖y‖₂ over `outputs` (see the module comment).
 * @returns a non-negative number, Infinity when k·u ≥ 1 or y = 0
 */
export function productSumBound(outputs: readonly OutputTerms[], r: RoundingTerms): number {
  let boundSquares = 0;
  let normSquares = 0;
  for (const o of outputs) {
    // The last term is the reference's own error (double-double: each operation within 3·2^-106 relative).
    const relative = compound(r.storage, r.storage, r.read, r.read, gamma(o.terms, r.arithmetic)) + gamma(o.terms + 1, REFERENCE_UNIT);
    // Absolute terms: a subnormal input's error is η, not u·|value|; each product and sum may underflow.
    const absolute = (r.storageEta * (o.absInputs + r.storageEta * o.terms)) * (1 + relative) + 2 * o.terms * r.arithmeticEta;
    const e = relative * o.absProducts + absolute;
    const b = e + r.output * (o.absExact + e) + r.storageEta;
    boundSquares += b * b;
    normSquares += o.absExact * o.absExact;
  }
  return normSquares > 0 ? Math.sqrt(boundSquares / normSquares) : Infinity;
}
