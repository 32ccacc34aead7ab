/**
 * Accuracy of multiple-precision results, measured exactly: results far beyond double-double (RNS at
 * 1696 bits errs by ~2^-1690, below the smallest double) are compared with the exact rational result
 * (every double input is a dyadic rational) and reported in bits, −log2 of the norm-wise relative error,
 * beside the a-priori bound in bits (Higham's γ of the format's precision).
 * @module
 */
import { numberToRational, type Range, type Rational, type RnsNumber, rnsToRational, type StorageFormat } from '../modprec.js';
import { addRational, mulRational, subRational, ZERO } from './dyadic.js';

/** log2 |q| for a non-zero rational, to about 50 significant bits. */
export function log2Rational(q: Rational): number {
  const num = q.num < 0n ? -q.num : q.num;
  if (num === 0n) return -Infinity;
  // Shift both to 64 significant bits, take the quotient in doubles, add the exponents back.
  const shift = (x: bigint): [number, number] => {
    const bits = x.toString(2).length;
    const s = bits - 64;
    return [Number(s > 0 ? x >> BigInt(s) : x << BigInt(-s)), s];
  };
  const [n, sn] = shift(num);
  const [d, sd] = shift(q.den);
  return Math.log2(n / d) + sn - sd;
}

/** The exact value of element k of a 1-D range, as a rational (number, double-double and RNS storage). */
export function exactElement(r: Range<1, any>, k: number): Rational {
  const a = r.accessor;
  return exactStored(a.storage, a.storage.decode(a.data, a.offset + k * a.strides[0]!));
}

/** The exact value of element (i, j) of a 2-D range, as a rational. */
export function exactMatrixElement(r: Range<2, any>, i: number, j: number): Rational {
  const a = r.accessor;
  return exactStored(a.storage, a.storage.decode(a.data, a.offset + i * a.strides[0]! + j * a.strides[1]!));
}

/** The exact value of a decoded storage element. */
function exactStored(storage: StorageFormat, v: unknown): Rational {
  if (storage.kind === 'number') return numberToRational(v as number);
  if (storage.kind === 'dd') {
    const { hi, lo } = v as { hi: number; lo: number };
    return addRational(numberToRational(hi), numberToRational(lo));
  }
  if (storage.kind !== 'mp') throw new Error(`no exact conversion for storage ${storage.name} (kind ${storage.kind})`);
  return rnsToRational(v as RnsNumber);
}

/** −log2 of the norm-wise relative error ‖ŷ − y‖₂/‖y‖₂ (Infinity for an exact result). */
export function accuracyBits(computed: readonly Rational[], exact: readonly Rational[]): number {
  let err: Rational = ZERO;
  let norm: Rational = ZERO;
  for (let i = 0; i < exact.length; i++) {
    const d = subRational(computed[i]!, exact[i]!);
    err = addRational(err, mulRational(d, d));
    norm = addRational(norm, mulRational(exact[i]!, exact[i]!));
  }
  if (err.num === 0n) return Infinity;
  return -(log2Rational(err) - log2Rational(norm)) / 2;
}

/**
 * The a-priori bound in bits, −log2 of γ_k(u)·(1 + u)·‖|A||x|‖₂/‖y‖₂ + u, with u = 2^(1−p) (a format of p
 * bits that rounds at least as accurately as truncation), k terms per output, in logarithms so that
 * precisions beyond the double range (u = 2^-1695) stay finite.
 * @param p - significand bits of the arithmetic
 * @param k - terms per output
 * @param log2Ratio - log2(‖|A||x|‖₂/‖y‖₂), the condition of the product sum
 */
export function boundBits(p: number, k: number, log2Ratio: number): number {
  const log2U = 1 - p;
  // γ_k(u) = k·u/(1 − k·u); for the precisions here k·u ≪ 1, so log2 γ_k ≈ log2 k + log2 u − log2(1 − k·u).
  const log2Gamma = Math.log2(k) + log2U - Math.log2(1 - k * 2 ** Math.max(log2U, -1074));
  const log2Sum = Math.log2(2 ** (log2Gamma + log2Ratio - log2U) + 1) + log2U; // γ·ratio + u, factored by u
  return -(log2Sum + Math.log2(1 + 2 ** -40)); // the (1 + u) factor and fp64 rounding of the logarithms
}
