/**
 * Adjacent doubles: successor, predecessor and the unit in the last place.
 *
 * Positive doubles ordered by value have consecutive bit patterns, so the neighbours are the
 * bit pattern ± 1 (with a borrow/carry between the two 32-bit words).
 *
 * @module
 */
import { fail } from '../../core/errors.js';
import { F64, HIGH_WORD, LOW_WORD, U32_OF_F64 } from './bit-views.js';

const MIN_SUBNORMAL = 2 ** -1074;

/** Adds ±1 to the magnitude's bit pattern of the nonzero finite double in F64[0]; returns the result. */
function stepMagnitude(x: number, up: boolean): number {
  F64[0] = x;
  const low = U32_OF_F64[LOW_WORD];
  if (up) {
    if (low === 0xffffffff) {
      U32_OF_F64[LOW_WORD] = 0;
      U32_OF_F64[HIGH_WORD] += 1;
    } else U32_OF_F64[LOW_WORD] = low + 1;
  } else if (low === 0) {
    U32_OF_F64[LOW_WORD] = 0xffffffff;
    U32_OF_F64[HIGH_WORD] -= 1;
  } else U32_OF_F64[LOW_WORD] = low - 1;
  return F64[0];
}

/**
 * The smallest double greater than `x` (IEEE 754 nextUp).
 *
 * @param x - any number
 * @returns nextUp(x); nextUp(±0) = 2^−1074, nextUp(−2^−1074) = −0, nextUp(max) = Infinity,
 *   nextUp(Infinity) = Infinity, nextUp(−Infinity) = −Number.MAX_VALUE, NaN for NaN
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { nextUp } from 'modprec';
 *
 * nextUp(1) === 1 + Number.EPSILON; // true
 * ```
 * @group Formats
 */
export function nextUp(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  if (x !== x || x === Infinity) return x;
  if (x === 0) return MIN_SUBNORMAL;
  if (x === -MIN_SUBNORMAL) return -0;
  return stepMagnitude(x, x > 0);
}

/**
 * The largest double less than `x` (IEEE 754 nextDown).
 *
 * @param x - any number
 * @returns nextDown(x) = −nextUp(−x)
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { nextDown } from 'modprec';
 *
 * nextDown(1) === 1 - Number.EPSILON / 2; // true
 * ```
 * @group Formats
 */
export function nextDown(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  return -nextUp(-x);
}

/**
 * The gap between |x| and the next double of larger magnitude (unit in the last place).
 *
 * @param x - any number
 * @returns nextUp(|x|) − |x| for finite x, so ulp(1) = 2^−52, ulp(±0) = 2^−1074 and
 *   ulp(Number.MAX_VALUE) = 2^971 (the gap to the would-be next value); Infinity for ±Infinity, NaN for NaN
 * @throws {@link ModprecError} `INVALID_VALUE` when x is not a number (a Symbol, a BigInt, a string)
 * @example
 * ```ts
 * import { ulp } from 'modprec';
 *
 * ulp(1); // → 2.220446049250313e-16
 * ulp(0) === Number.MIN_VALUE; // → true
 * ```
 * @group Formats
 */
export function ulp(x: number): number {
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  const a = Math.abs(x);
  if (a !== a || a === Infinity) return a;
  if (a === Number.MAX_VALUE) return 2 ** 971;
  return nextUp(a) - a;
}
