/**
 * Decimal strings ⇄ double-double, through exact BigInt rationals: parsing is correctly rounded
 * (hi = RN(x), lo = RN(x − hi)), formatting is correctly rounded to the requested number of
 * significant digits (ties to even).
 * @module
 */
import { fail } from '../../core/errors.js';
import type { DdBuffer } from './eft.js';
import { ddFromRational, ddToRational } from './rational.js';
import { NAMES_HI_LO, failDdOperands, failDdOut } from './dd-arguments.js';

const DECIMAL = /^\s*([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?\s*$/;

/**
 * Parses a decimal number (`-12.5e-3`, `.5`, `1E+40`; surrounding white space allowed) and rounds it
 * correctly to a double-double.
 * @param out - receives [hi, lo]
 * @param text - the decimal string
 * @param parameter - name used in error messages
 * @throws {@link ModprecError} `PARSE_ERROR` if `text` is not a decimal number (including `NaN`, `Infinity`, hex);
 *   `INVALID_VALUE` if it exceeds the double range
 * @example
 * ```ts
 * import { ddFromDecimal } from 'modprec';
 *
 * const r = new Float64Array(2);
 * ddFromDecimal(r, '0.1'); // r[0] = 0.1, r[1] = -5.551115123125783e-18
 * ```
 * @group Double-double
 */
export function ddFromDecimal(out: DdBuffer, text: string, parameter = 'text'): void {
  if (!(out instanceof Float64Array) || out.length < 2) failDdOut(out);
  if (typeof text !== 'string') fail('PARSE_ERROR', parameter, 'must be a decimal string', text);
  const m = DECIMAL.exec(text);
  if (m === null) fail('PARSE_ERROR', parameter, 'must be a decimal number such as "-1.25e-3"', text);
  const negative = m[1] === '-';
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? m[4] ?? '';
  const digits = (intPart + fracPart).replace(/^0+/, '');
  const exponentText = m[5] ?? '0';
  // A zero keeps its sign in both parts (hi + lo of (−0, +0) would be +0).
  if (digits === '') { out[0] = out[1] = negative ? -0 : 0; return; }
  const exponent = Number(exponentText);
  // Value = digits · 10^scale, with 10^(magnitude−1) ≤ value < 10^magnitude.
  const scale = exponent - fracPart.length;
  const magnitude = scale + digits.length;
  // Beyond 10^310 nothing is finite; below 10^-330 < 2^-1075 everything rounds to zero (skip huge powers).
  if (!Number.isSafeInteger(exponent) ? exponent > 0 : magnitude > 310) {
    fail('INVALID_VALUE', parameter, 'must lie within the double range', text);
  }
  if (!Number.isSafeInteger(exponent) || magnitude < -330) { out[0] = out[1] = negative ? -0 : 0; return; }
  const n = BigInt(digits) * (negative ? -1n : 1n);
  if (scale >= 0) ddFromRational(out, n * 10n ** BigInt(scale), 1n, parameter);
  else ddFromRational(out, n, 10n ** BigInt(-scale), parameter);
}

/**
 * Formats hi + lo with `digits` significant digits in exponential notation (`-1.2345e-7`, like
 * `Number.prototype.toExponential`), correctly rounded from the exact value (ties to even).
 * Non-finite parts give `"NaN"`, `"Infinity"` or `"-Infinity"` (the value of hi + lo).
 * @param hi - high part
 * @param lo - low part
 * @param digits - significant digits, an integer in [1, 1000] (32 show a double-double's ~106 bits; reading the string
 *   back gives the same pair only with more, as a pair's significand can be longer: the value of
 *   −10364226626371657693716117522653272e-91 as a pair, at 34 digits, reads back as another pair)
 * @returns the decimal string
 * @throws {@link ModprecError} `INVALID_OPTION` if `digits` is not an integer in [1, 1000]
 * @example
 * ```ts
 * import { ddToDecimal } from 'modprec';
 *
 * ddToDecimal(0.1, -5.551115123125783e-18, 20); // "1.0000000000000000000e-1"
 * ```
 * @group Double-double
 */
export function ddToDecimal(hi: number, lo: number, digits = 32): string {
  if (typeof hi !== 'number' || typeof lo !== 'number') failDdOperands(NAMES_HI_LO, hi, lo);
  if (!Number.isInteger(digits) || digits < 1 || digits > 1000) {
    fail('INVALID_OPTION', 'digits', 'must be an integer in [1, 1000]', digits);
  }
  if (!Number.isFinite(hi) || !Number.isFinite(lo)) return String(hi + lo);
  const { num, den } = ddToRational(hi, lo);
  const sign = num < 0n || (num === 0n && Object.is(hi, -0)) ? '-' : '';
  const a = num < 0n ? -num : num;
  if (a === 0n) return `${sign}${digits > 1 ? '0.' + '0'.repeat(digits - 1) : '0'}e+0`;
  // Find E with 10^E ≤ |x| < 10^(E+1), starting from the double estimate.
  let e = Math.floor(Math.log10(Math.abs(hi !== 0 ? hi : lo)));
  const atLeast = (k: number): boolean => (k >= 0 ? a >= den * 10n ** BigInt(k) : a * 10n ** BigInt(-k) >= den);
  while (!atLeast(e)) e -= 1;
  while (atLeast(e + 1)) e += 1;
  // m = round(|x| · 10^(digits−1−E)), ties to even.
  const shift = digits - 1 - e;
  const n2 = shift >= 0 ? a * 10n ** BigInt(shift) : a;
  const d2 = shift >= 0 ? den : den * 10n ** BigInt(-shift);
  let m = n2 / d2;
  const twiceRemainder = (n2 - m * d2) * 2n;
  if (twiceRemainder > d2 || (twiceRemainder === d2 && (m & 1n) === 1n)) m += 1n;
  let text = m.toString();
  if (text.length > digits) { text = text.slice(0, digits); e += 1; } // rounded up to 10^digits
  const mantissa = digits > 1 ? `${text[0]}.${text.slice(1)}` : text;
  return `${sign}${mantissa}e${e >= 0 ? '+' : '-'}${Math.abs(e)}`;
}
