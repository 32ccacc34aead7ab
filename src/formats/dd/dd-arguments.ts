/**
 * The slow path of the argument checks of the exported scalar double-double functions. Each function tests its
 * arguments inline in one condition (an `instanceof` and a length compare for `out`, a `typeof` per operand: V8
 * folds these into the type checks its arithmetic makes anyway); only when that test fails does it call here, to
 * name the offending argument in a {@link ModprecError} before anything is written.
 * @module
 */
import { fail } from '../../core/errors.js';

/** Throws `INVALID_STORAGE` for an `out` that cannot receive a pair. @throws {@link ModprecError} always */
export function failDdOut(out: unknown): never {
  return fail('INVALID_STORAGE', 'out', 'must be a Float64Array of length ≥ 2 (receives [hi, lo])', out);
}

/**
 * Names the first operand that is not a number (`names[i]` for `values[i]`): a Symbol or BigInt threw a TypeError
 * from the arithmetic, and a string turned `+` into concatenation.
 * @throws {@link ModprecError} `INVALID_VALUE` always
 */
export function failDdOperands(names: readonly string[], ...values: unknown[]): never {
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') fail('INVALID_VALUE', names[i]!, 'must be a number', values[i]);
  }
  throw new Error('failDdOperands: every operand is a number (a check calls it only when one is not)');
}

/**
 * {@link failDdOperands} after checking `out` (a `Float64Array` of length ≥ 2): an `undefined` out threw a
 * TypeError, and a short or non-float buffer silently dropped or rounded a part.
 * @throws {@link ModprecError} `INVALID_STORAGE` or `INVALID_VALUE` always
 */
export function failDdCall(out: unknown, names: readonly string[], ...values: unknown[]): never {
  if (!(out instanceof Float64Array) || out.length < 2) failDdOut(out);
  return failDdOperands(names, ...values);
}

// The parameter names of the checked functions, in argument order (one list per signature).
/** `split`'s operand. */
export const NAMES_A = ['a'] as const;
/** The operands of `twoSum`, `fastTwoSum` and `twoProd`. */
export const NAMES_A_B = ['a', 'b'] as const;
/** The operands of `twoProdError`. */
export const NAMES_A_B_P = ['a', 'b', 'p'] as const;
/** The operands of `ddTwoProdAccumulate`. */
export const NAMES_A_B_CH_CL = ['a', 'b', 'ch', 'cl'] as const;
/** One pair a (`ddSqrt`, `ddAbs`, `ddNeg`). */
export const NAMES_AH_AL = ['ah', 'al'] as const;
/** A pair and a double (`ddAddNumber`, `ddMulNumber`). */
export const NAMES_AH_AL_B = ['ah', 'al', 'b'] as const;
/** Two pairs a, b. */
export const NAMES_AH_AL_BH_BL = ['ah', 'al', 'bh', 'bl'] as const;
/** Three pairs a, b, c (the multiply-adds). */
export const NAMES_AH_AL_BH_BL_CH_CL = ['ah', 'al', 'bh', 'bl', 'ch', 'cl'] as const;
/** A pair given as hi, lo. */
export const NAMES_HI_LO = ['hi', 'lo'] as const;
