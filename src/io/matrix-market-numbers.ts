/**
 * Reading and writing the numbers of a Matrix Market file.
 *
 * Reading is strict: a token must match the number syntax completely (JavaScript's `Number()` alone
 * would accept `0x1f`, `''`, `Infinity` or ` 1 `). Real values are rounded to the nearest double (the
 * correctly rounded conversion of `Number()`). Writing uses the shortest string that reads back to the
 * same double (`String(x)`, plus `-0` for negative zero), so writing then reading is exact.
 *
 * @module
 */
import { parseError, quoteToken } from './matrix-market-parse-error.js';

const INDEX = /^\+?\d+$/;
const INTEGER = /^[+-]?\d+$/;
// The digits before and after the point are one unambiguous path (`\d+(?:\.\d*)?`, not `\d+\.?\d*`): with the
// point optional between two digit runs, a long run of digits that fails at its end was split every possible way,
// and a 200,000-digit token took half a minute to reject (quadratic backtracking).
const REAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const FORTRAN_REAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)[dDqQ][+-]?\d+$/;
const NON_FINITE = /^[+-]?(?:nan|inf|infinity)$/i;

/**
 * Parses a 1-based index or a size: digits, optionally with a leading `+`.
 *
 * @param token - the token
 * @param line - line number, for errors
 * @param what - what the number is, for errors (e.g. `"row index"`)
 * @param max - largest accepted value
 * @returns the number
 * @throws {@link ModprecError} `PARSE_ERROR` when it is not an unsigned integer or exceeds `max`
 */
export function parseCount(token: string, line: number, what: string, max: number): number {
  if (!INDEX.test(token)) parseError(line, `${what} must be a non-negative integer, got ${quoteToken(token)}`);
  const value = Number(token);
  if (value > max) parseError(line, `${what} ${quoteToken(token)} exceeds ${max}`);
  return value;
}

/**
 * Parses a 1-based row or column index and checks it against the declared size.
 *
 * @param token - the token
 * @param line - line number, for errors
 * @param what - `"row"` or `"column"`
 * @param size - declared number of rows or columns
 * @returns the 0-based index
 * @throws {@link ModprecError} `PARSE_ERROR` when it is not an integer in `1 … size`
 */
export function parseIndex(token: string, line: number, what: string, size: number): number {
  if (!INDEX.test(token)) parseError(line, `${what} index must be a positive integer, got ${quoteToken(token)}`);
  const value = Number(token);
  if (value < 1 || value > size) parseError(line, `${what} index ${token} is outside 1..${size} declared on the size line`);
  return value - 1;
}

/**
 * Parses a value of a `real` or `integer` file.
 *
 * @param token - the token
 * @param line - line number, for errors
 * @param integer - whether the field is `integer` (digits only, at most 2^53 − 1 in magnitude)
 * @param allowNonFinite - accept `nan`, `inf`, `infinity` and overflow to ±Infinity
 * @returns the value as a double
 * @throws {@link ModprecError} `PARSE_ERROR` for anything else, with a hint for Fortran `D` exponents
 */
export function parseValue(token: string, line: number, integer: boolean, allowNonFinite: boolean): number {
  if (integer) {
    if (!INTEGER.test(token)) parseError(line, `value must be an integer (field 'integer'), got ${quoteToken(token)}`);
    const value = Number(token);
    if (!Number.isSafeInteger(value)) parseError(line, `integer value ${quoteToken(token)} exceeds 2^53 - 1 and is not exact as a double`);
    return value;
  }
  if (REAL.test(token)) {
    const value = Number(token);
    if (!Number.isFinite(value) && !allowNonFinite) {
      parseError(line, `value ${quoteToken(token)} overflows the double range; pass { allowNonFinite: true } to read it as infinity`);
    }
    return value;
  }
  if (NON_FINITE.test(token)) {
    if (!allowNonFinite) parseError(line, `value ${quoteToken(token)} is not finite; pass { allowNonFinite: true } to accept NaN and infinities`);
    const negative = token.startsWith('-');
    return /nan/i.test(token) ? NaN : negative ? -Infinity : Infinity;
  }
  if (FORTRAN_REAL.test(token)) {
    const fixed = token.replace(/[dDqQ]/, 'e');
    parseError(line, `value ${quoteToken(token)} has a Fortran exponent letter; Matrix Market numbers use 'e' (write ${quoteToken(fixed)})`);
  }
  return parseError(line, `value must be a real number such as 1, -2.5 or 1.5e-3, got ${quoteToken(token)}`);
}

/**
 * Formats a double so that {@link parseValue} reads back exactly the same double (sign of zero included).
 *
 * @param value - any double
 * @returns the shortest round-trip decimal (`String(value)`), `-0` for negative zero
 */
export function formatValue(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}
