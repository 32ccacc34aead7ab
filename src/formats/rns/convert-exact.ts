/**
 * Exact conversions through BigInt: to and from rationals and decimal strings, plus division and
 * square root (computed exactly and rounded once). These are the slow, exact paths (tests, I/O, and the
 * few divisions of TRSV / the square root of NRM2); the residue arithmetic never uses BigInt.
 * @module
 */
import { fail } from '../../core/errors.js';
import { EVAL, evaluateSigned } from './interval-evaluation.js';
import type { RnsModuliSet } from './moduli-set.js';
import { MAX_EXPONENT, RnsNumber, checkRnsNumber, checkSameSet, markOwnOrdinary, setZero } from './rns-number-class.js';
import { resolveNumber } from './resolve.js';
import { bitLength, isqrt } from './bigint-math.js';

/**
 * An exact rational num/den with den > 0.
 * @group RNS
 */
export interface Rational {
  /** Numerator (carries the sign). */
  readonly num: bigint;
  /** Denominator, positive. */
  readonly den: bigint;
}

/**
 * The significand X of `x` as a BigInt, by the CRT (seed 000 eq. 3): X = |Σ M_i·|x_i w_i|_{m_i}|_M.
 * @param x - the number
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromNumber, rnsSignificand } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(106));
 * rnsFromNumber(x, 3);
 * rnsSignificand(x) % 3n; // → 0n
 * ```
 * @group RNS
 */
export function rnsSignificand(x: RnsNumber): bigint {
  checkRnsNumber('x', x);
  resolveNumber(x);
  const set = x.set;
  let s = 0n;
  for (let i = 0; i < set.size; i++) {
    const xi = (BigInt(x.digits[i]!) * BigInt(set.w[i]!)) % BigInt(set.moduli[i]!);
    s += set.Mi[i]! * xi;
  }
  return s % set.M;
}

/**
 * The exact value of `x` as a rational (the denominator a power of two). Exact, so it can be huge for
 * extreme exponents.
 * @param x - the number
 * @returns num/den with den > 0
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromNumber, rnsToRational } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(106));
 * rnsFromNumber(x, 0.375);
 * const { num, den } = rnsToRational(x);
 * num * 8n === 3n * den; // → true
 * ```
 * @group RNS
 */
export function rnsToRational(x: RnsNumber): Rational {
  checkRnsNumber('x', x);
  resolveNumber(x);
  const X = rnsSignificand(x);
  const signed = x.sign ? -X : X;
  return x.exp >= 0 ? { num: signed << BigInt(x.exp), den: 1n } : { num: signed, den: 1n << BigInt(-x.exp) };
}

/**
 * z := ±(N/D)·2^e2 rounded to nearest, ties to even (MPFR's RNDN), with a significand of at most p bits. N ≥ 0, D > 0.
 * @param inexact - whether the true magnitude is a little above N/D (N a truncation: a rest that is exactly half a unit
 *   then rounds up, as a tie must not)
 * @throws {@link ModprecError} `INVALID_VALUE` on exponent overflow (z untouched)
 */
export function setRoundedRational(z: RnsNumber, negative: boolean, N: bigint, D: bigint, e2: number, parameter = 'value', inexact = false): void {
  const set = z.set;
  if (N === 0n) { setZero(z, negative ? 1 : 0); return; }
  const p = set.precision;
  // Choose s with 2^(p−1) ≤ N/(D·2^s) < 2^(p+1), then round N/(D·2^s) to an integer (≤ 2^(p+1)).
  let s = bitLength(N) - bitLength(D) - p;
  if (s + 2 + e2 > MAX_EXPONENT || s + e2 < -MAX_EXPONENT) {
    fail('INVALID_VALUE', parameter, 'exponent must stay within ±2^30 (exponent overflow)', s + e2);
  }
  let q = scaledQuotient(N, D, s);
  if (q.Q >= 1n << BigInt(p)) {
    s += 1; // N/(D·2^s) was ≥ 2^p: one more bit of scale puts it in [2^(p−1), 2^p)
    q = scaledQuotient(N, D, s);
  }
  const up = q.rest > 0 || (q.rest === 0 && (inexact || (q.Q & 1n) === 1n));
  setSignificand(z, negative, up ? q.Q + 1n : q.Q, s + e2);
}

/**
 * Q = ⌊N/(D·2^t)⌋ and the sign of the rest minus one half (−1, 0 for an exact tie, 1). For t > 0, N is shifted down
 * instead of D up: ⌊⌊N/2^t⌋/D⌋ is the same Q, and with r = ⌊N/2^t⌋ − Q·D and N's t low bits L the rest is
 * (r + L/2^t)/D; against one half, 2r > D is above, 2r = D is a tie for L = 0 and above otherwise, 2r = D − 1
 * compares L with 2^(t−1), and 2r < D − 1 is below — so a numerator of 2^29 bits costs a shift and a small
 * division, not a division of two 2^29-bit integers (seconds).
 * @throws RangeError (the engine's BigInt size) where N·2^-t needs more bits than a BigInt holds
 */
function scaledQuotient(N: bigint, D: bigint, t: number): { Q: bigint; rest: -1 | 0 | 1 } {
  if (t <= 0) {
    const num = N << BigInt(-t);
    const Q = num / D;
    const twice = 2n * (num - Q * D);
    return { Q, rest: twice > D ? 1 : twice === D ? 0 : -1 };
  }
  const high = N >> BigInt(t);
  const Q = high / D;
  const twice = 2n * (high - Q * D);
  if (twice > D) return { Q, rest: 1 };
  const low = BigInt.asUintN(t, N); // as long as its value: short where N's low bits are zeros (a shifted N)
  if (twice === D) return { Q, rest: low === 0n ? 0 : 1 };
  if (twice === D - 1n) {
    const half = 1n << BigInt(t - 1);
    return { Q, rest: low > half ? 1 : low === half ? 0 : -1 };
  }
  return { Q, rest: -1 };
}

/** z := ±Q·2^e (0 < Q ≤ 2^p), residues by BigInt reduction, eval from the residues. */
function setSignificand(z: RnsNumber, negative: boolean, Q: bigint, e: number): void {
  const set = z.set;
  markOwnOrdinary(z);
  const d = z.digits;
  for (let i = 0; i < set.size; i++) d[i] = Number(Q % BigInt(set.moduli[i]!));
  evaluateSigned(set, d, 0, 0, 0);
  z.sign = negative ? 1 : 0;
  z.exp = e;
  z.lf = EVAL.lf; z.le = EVAL.le; z.uf = EVAL.uf; z.ue = EVAL.ue;
}

/**
 * z := num/den rounded to nearest, ties to even (MPFR's RNDN; |δ| ≤ 2^-p < u).
 * @param z - destination
 * @param num - numerator
 * @param den - denominator, non-zero
 * @throws {@link ModprecError} `INVALID_VALUE` for den = 0 or exponent overflow (z untouched); `INVALID_VALUE` naming
 *   `den` where it has so many bits (within p + 2 of the engine's largest BigInt, 2^30 bits in V8) that the exact
 *   quotient cannot be formed. num and den of any other size work (a 2^29-bit num included).
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromRational, rnsToDecimalString } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(212));
 * rnsFromRational(x, 2n, 3n);   // rounded once to 212 bits
 * rnsToDecimalString(x, 20); // → '6.6666666666666666667e-1'
 * ```
 * @group RNS
 */
export function rnsFromRational(z: RnsNumber, num: bigint, den: bigint): void {
  checkRnsNumber('z', z);
  if (typeof num !== 'bigint') fail('INVALID_VALUE', 'num', 'must be a bigint', num);
  if (typeof den !== 'bigint' || den === 0n) fail('INVALID_VALUE', 'den', 'must be a non-zero bigint', den);
  const negative = (num < 0n) !== (den < 0n);
  try {
    setRoundedRational(z, negative, num < 0n ? -num : num, den < 0n ? -den : den, 0);
  } catch (e) {
    // The one BigInt that can outgrow the engine's limit (V8: 2^30 bits) is num·2^k with about bitLength(den) + p
    // bits, formed where den is the longer; z is written only after it.
    if (e instanceof RangeError) fail('INVALID_VALUE', 'den', `must have at most the engine's largest BigInt's bits minus p + 2 (${z.set.precision + 2}), for the exact quotient`, `a ${bitLength(den < 0n ? -den : den)}-bit integer`);
    throw e;
  }
}

/**
 * z := x / y, computed exactly and rounded once (|δ| ≤ 2^-p < u). Slow (BigInt).
 * @throws {@link ModprecError} `INVALID_VALUE` if y is zero or on exponent overflow; `INVALID_FORMAT` for mixed sets
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromNumber, rnsDiv, rnsToDecimalString } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * const one = rnsZero(set), three = rnsZero(set), z = rnsZero(set);
 * rnsFromNumber(one, 1);
 * rnsFromNumber(three, 3);
 * rnsDiv(z, one, three);
 * rnsToDecimalString(z, 30); // → '3.33333333333333333333333333333e-1'
 * ```
 * @group RNS
 */
export function rnsDiv(z: RnsNumber, x: RnsNumber, y: RnsNumber): void {
  checkRnsNumber('z', z); // a division of BigInts follows: the check costs nothing beside it
  if (x?.set !== z.set) checkSameSet('x', x, z.set);
  if (y?.set !== z.set) checkSameSet('y', y, z.set);
  // Closed before their signs and evals are read: an open sum's are not its value's until it is evaluated (a
  // quotient of an open sum took the wrong sign, and an open sum that was exactly 0 divided with a RangeError).
  resolveNumber(x);
  resolveNumber(y);
  if (y.uf === 0) fail('INVALID_VALUE', 'y', 'must be non-zero (division by zero)', 0);
  const negative = (x.sign ^ y.sign) === 1;
  if (x.uf === 0) { setZero(z, negative ? 1 : 0); return; }
  setRoundedRational(z, negative, rnsSignificand(x), rnsSignificand(y), x.exp - y.exp, 'result');
}

/**
 * z := √x correctly rounded to nearest (|δ| ≤ 2^-p < u): the integer root of X scaled to p + 32 bits, rounded to p bits
 * with the knowledge whether it was exact (the root of a p-bit value is never a tie). Slow (BigInt).
 * @throws {@link ModprecError} `INVALID_VALUE` if x < 0; `INVALID_FORMAT` for mixed sets
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromNumber, rnsSqrt, rnsToDecimalString } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * const two = rnsZero(set), r = rnsZero(set);
 * rnsFromNumber(two, 2);
 * rnsSqrt(r, two);
 * rnsToDecimalString(r, 30); // → '1.41421356237309504880168872421e+0'
 * ```
 * @group RNS
 */
export function rnsSqrt(z: RnsNumber, x: RnsNumber): void {
  checkRnsNumber('z', z);
  if (x?.set !== z.set) checkSameSet('x', x, z.set);
  resolveNumber(x); // an open sum's sign and eval are its value's only once it is closed (as in rnsDiv)
  if (x.uf === 0) { setZero(z, x.sign); return; }
  if (x.sign) fail('INVALID_VALUE', 'x', 'must be non-negative for a square root', -1);
  let X = rnsSignificand(x);
  let e = x.exp;
  if (e % 2 !== 0) { X <<= 1n; e -= 1; }
  // √(X·2^(2s)) has about bitLength(X)/2 + s ≥ p + 32 bits.
  const s = Math.max(0, z.set.precision + 32 - Math.floor(bitLength(X) / 2));
  const S = X << BigInt(2 * s);
  const R = isqrt(S);
  // R truncates the root: a rest of exactly half a unit of R's rounding is a tie only when the root is exact.
  setRoundedRational(z, false, R, 1n, e / 2 - s, 'value', R * R !== S);
}

/**
 * Parses a decimal string (`[-+]digits[.digits][e[-+]digits]`, also `.5`, `Infinity` rejected) into z,
 * rounded to nearest, ties to even.
 * @param z - destination
 * @param text - the decimal string
 * @throws {@link ModprecError} `PARSE_ERROR` for malformed text; `INVALID_VALUE` if the decimal exponent
 *   exceeds ±2·10^6 or the result's exponent overflows (z untouched)
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromDecimalString, rnsToDecimalString } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(424));
 * rnsFromDecimalString(x, '0.1');   // 0.1 to 424 bits, not the double 0.1
 * rnsToDecimalString(x, 40); // → '1.000000000000000000000000000000000000000e-1'
 * ```
 * @group RNS
 */
export function rnsFromDecimalString(z: RnsNumber, text: string): void {
  checkRnsNumber('z', z);
  const m = typeof text === 'string' ? /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text) : null;
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) fail('PARSE_ERROR', 'text', 'must be a decimal number', text);
  const intPart = m[2]!;
  const fracPart = m[3] ?? '';
  const e10 = (m[4] === undefined ? 0 : Number(m[4])) - fracPart.length;
  if (!Number.isSafeInteger(e10) || Math.abs(e10) > 2e6) fail('INVALID_VALUE', 'text', 'decimal exponent must be within ±2e6', text);
  const digits = BigInt((intPart + fracPart).replace(/^0+(?=\d)/, '') || '0');
  const negative = m[1] === '-';
  if (e10 >= 0) setRoundedRational(z, negative, digits * 10n ** BigInt(e10), 1n, 0);
  else setRoundedRational(z, negative, digits, 10n ** BigInt(-e10), 0);
}

/**
 * x as a decimal string `[-]d.ddd…e±N` with `significantDigits` digits, rounded to nearest with ties to even (as
 * MPFR's `mpfr_get_str` in MPFR_RNDN; a tie is exact here, x being a dyadic rational). The default,
 * ⌈(p + 20)·log10 2⌉ + 1 digits, makes the decimal error below 2^(−p−19)·|x|, so parsing it back with
 * {@link rnsFromDecimalString} gives x within u.
 * @param x - the number
 * @param significantDigits - number of significant digits (1 … 100000)
 * @throws {@link ModprecError} `INVALID_OPTION` for a bad digit count; `INVALID_VALUE` naming `x` when its decimal
 *   exponent lies beyond ±2·10^6 (the window {@link rnsFromDecimalString} parses; the exact digits of 2^(2^29) would
 *   take a 2^29-bit integer)
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromNumber, rnsToDecimalString } from 'modprec';
 *
 * const x = rnsZero(rnsModuliSet(106));
 * rnsFromNumber(x, 0.1);
 * rnsToDecimalString(x, 25); // → '1.000000000000000055511151e-1'
 * ```
 * @group RNS
 */
export function rnsToDecimalString(x: RnsNumber, significantDigits?: number): string {
  checkRnsNumber('x', x);
  const D = significantDigits ?? Math.ceil((x.set.precision + 20) * Math.log10(2)) + 1;
  if (!Number.isInteger(D) || D < 1 || D > 100000) fail('INVALID_OPTION', 'significantDigits', 'must be an integer in [1, 100000]', D);
  resolveNumber(x);
  const sign = x.sign ? '-' : '';
  if (x.uf === 0) return `${sign}0`;
  // |x| < 2^(exp + p + 1): its decimal exponent is about (exp + bits of X)·log10 2 (checked before any BigInt is built).
  const e10 = (x.exp + bitLength(rnsSignificand(x))) * Math.log10(2);
  if (Math.abs(e10) > 2e6 + 1) fail('INVALID_VALUE', 'x', 'must have a decimal exponent within ±2e6 to be printed (as rnsFromDecimalString parses)', `2^${x.exp}·X`);
  const { num, den } = rnsToRational(x);
  const N = num < 0n ? -num : num;
  // Decimal exponent estimate, corrected below: 10^E10 ≤ N/den < 10^(E10+1).
  let E10 = Math.floor((bitLength(N) - bitLength(den)) * Math.log10(2));
  for (;;) {
    const shift = D - 1 - E10;
    const a = shift >= 0 ? N * 10n ** BigInt(shift) : N;
    const b = shift >= 0 ? den : den * 10n ** BigInt(-shift);
    let S = a / b;
    const rem = a - S * b;
    if (S >= 10n ** BigInt(D)) { E10 += 1; continue; }
    if (S < 10n ** BigInt(D - 1)) { E10 -= 1; continue; }
    // To nearest, a tie to the even last digit (a decimal tie exists: 2·rem = b is exact in BigInt).
    if (2n * rem > b || (2n * rem === b && (S & 1n) === 1n)) S += 1n;
    if (S === 10n ** BigInt(D)) { S = 10n ** BigInt(D - 1); E10 += 1; }
    const s = S.toString();
    return `${sign}${s[0]}${D > 1 ? '.' + s.slice(1) : ''}e${E10 >= 0 ? '+' : ''}${E10}`;
  }
}

/**
 * A new number of `set` from a decimal string.
 * @example
 * ```ts
 * import { rnsModuliSet, rnsFromString } from 'modprec';
 *
 * const third = rnsFromString(rnsModuliSet(424), '0.333333333333333333333333333333333333');
 * ```
 * @throws {@link ModprecError} as {@link rnsFromDecimalString}
 * @group RNS
 */
export function rnsFromString(set: RnsModuliSet, text: string): RnsNumber {
  const z = new RnsNumber(set);
  rnsFromDecimalString(z, text);
  return z;
}
