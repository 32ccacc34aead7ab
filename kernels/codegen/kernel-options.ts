/**
 * Options every kernel takes, and the operand checks every kernel shares.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/format.js';
import { asArithmetic, type FormatLike } from '../../src/formats/registry.js';
import type { Accumulation } from './accumulation.js';
import { Range } from '../../src/range.js';
import type { Dimensionality } from '../../accessors/accessor.js';
import { fail } from '../../src/errors.js';

/** Options common to all kernels. */
export interface KernelOptions {
  /** Arithmetic format to compute in (default: the most precise arithmetic among the operands). */
  arithmetic?: FormatLike;
  /** Summation strategy of reductions (default `recursive`). */
  accumulation?: string | Accumulation;
}

/** The arithmetic a kernel computes in: the option, else the operand arithmetic with the most significand bits. */
export function chooseArithmetic(option: FormatLike | undefined, operands: readonly Range<any, any>[]): ArithmeticFormat {
  if (option !== undefined) return asArithmetic(option, 'options.arithmetic');
  let best = operands[0]!.accessor.arithmetic as ArithmeticFormat;
  for (const r of operands) {
    const a = r.accessor.arithmetic as ArithmeticFormat;
    if (a.significandBits > best.significandBits) best = a;
  }
  return best;
}

/**
 * Checks that `value` is a range of dimensionality `dim` (and writable when `writable`).
 * @throws {@link ModprecError} `INVALID_OPTION` / `DIMENSION_MISMATCH` / `INVALID_STORAGE`
 */
export function checkRange<D extends Dimensionality>(name: string, value: unknown, dim: D, writable = false): Range<D, any> {
  if (!(value instanceof Range)) fail('INVALID_OPTION', name, 'must be a range (range(rowMajor(…)) etc.)', value);
  if (value.dimensionality !== dim) {
    fail('DIMENSION_MISMATCH', name, `must be a ${dim}-D range`, `${value.dimensionality}-D range`);
  }
  if (writable && !value.accessor.writable) fail('INVALID_STORAGE', name, 'must be writable (not made by toConst)');
  return value as Range<D, any>;
}

/** Checks a scalar coefficient (α, β): a finite or non-finite JS number. @throws {@link ModprecError} `INVALID_VALUE` */
export function checkScalar(name: string, value: unknown): number {
  if (typeof value !== 'number') fail('INVALID_VALUE', name, 'must be a number', value);
  return value;
}

/** Checks two lengths agree. @throws {@link ModprecError} `DIMENSION_MISMATCH` naming both */
export function checkSameLength(nameA: string, a: number, nameB: string, b: number): void {
  if (a !== b) fail('DIMENSION_MISMATCH', nameB, `must have length ${a} (the length of ${nameA})`, b);
}
