/**
 * Options every kernel takes, and the operand checks every kernel shares.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { asArithmetic, type FormatLike } from '../../src/formats/common/registry.js';
import type { Accumulation } from './accumulation.js';
import { Range } from '../../src/core/range.js';
import type { Dimensionality } from '../../accessors/accessor.js';
import { fail } from '../../src/core/errors.js';

/**
 * Options common to all kernels.
 * @group Kernels
 */
export interface KernelOptions {
  /**
   * Arithmetic format to compute in (default: the most precise arithmetic among the operands — smallest unit roundoff,
   * then most significand bits; two different ones alike in both are `INVALID_FORMAT` naming this option).
   */
  arithmetic?: FormatLike;
  /** Summation strategy of reductions (default `recursive`). */
  accumulation?: string | Accumulation;
}

/**
 * The arithmetic a kernel computes in: the option, else the most precise operand arithmetic — the smallest unit
 * roundoff, then the most significand bits. By bits alone a tie went to the first operand: dot(x, y) of a dd and an
 * rns106 operand (106 bits each) computed in dd and dot(y, x) in rns106, and a user's 53-bit arithmetic against fp64
 * likewise; now the smaller u decides, and two arithmetics alike in both are a typed error asking for the option.
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `options.arithmetic` when two operand arithmetics of different
 *   names have the same unit roundoff and significand bits
 */
export function chooseArithmetic(option: FormatLike | undefined, operands: readonly Range<any, any>[]): ArithmeticFormat {
  if (option !== undefined) return asArithmetic(option, 'options.arithmetic');
  let best = operands[0]!.accessor.arithmetic as ArithmeticFormat;
  for (const r of operands) {
    const a = r.accessor.arithmetic as ArithmeticFormat;
    if (a.unitRoundoff < best.unitRoundoff || (a.unitRoundoff === best.unitRoundoff && a.significandBits > best.significandBits)) best = a;
  }
  for (const r of operands) {
    const a = r.accessor.arithmetic as ArithmeticFormat;
    if (a.name !== best.name && a.unitRoundoff === best.unitRoundoff && a.significandBits === best.significandBits) {
      fail('INVALID_FORMAT', 'options.arithmetic', `must be given: the operands compute in ${best.name} and ${a.name}, equally precise`);
    }
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

/**
 * For arithmetics that cannot hold NaN or ±∞ (kind `mp`: RNS), checks every value the kernel will read is finite,
 * so the kernel fails with a typed error before it writes anything rather than part-way through.
 * No-op for other arithmetics (they propagate NaN and ∞ as IEEE does).
 * @param ar - the kernel's arithmetic
 * @param reads - the operands the kernel will read, by parameter name
 * @throws {@link ModprecError} `INVALID_VALUE` naming the operand and the index of the first non-finite value
 */
export function checkReadableIn(ar: ArithmeticFormat, reads: readonly (readonly [string, Range<any, any>])[]): void {
  if (ar.kind !== 'mp') return;
  for (const [name, r] of reads) {
    const at = firstNonFinite(r);
    if (at) fail('INVALID_VALUE', `${name}[${at.index.join(', ')}]`, `must be finite for ${ar.name} arithmetic (it has no NaN or infinity)`, at.value);
  }
}

/**
 * The first element of a range (row-major order of indices) that is not finite, or undefined; multiple-precision
 * storages hold finite values by construction. A double-double is finite when both parts are: a raw pair with a
 * finite hi and a non-finite lo would otherwise fail in a conversion part-way through a kernel, naming its own `lo`.
 */
export function firstNonFinite(r: Range<any, any>): { index: number[]; value: number } | undefined {
  const a = r.accessor;
  const st = a.storage;
  if (st.kind === 'mp') return undefined;
  const size = a.size as readonly number[];
  if (size.some((s) => s === 0)) return undefined;
  const index = new Array<number>(size.length).fill(0);
  for (;;) {
    const v = st.decode(a.data as never, a.linearIndex(index));
    const pair = v as { hi: number; lo: number };
    const x = st.kind !== 'dd' ? (v as number) : Number.isFinite(pair.hi) ? pair.lo : pair.hi;
    if (!Number.isFinite(x)) return { index, value: x };
    let d = size.length - 1;
    while (d >= 0 && ++index[d]! === size[d]) index[d--] = 0;
    if (d < 0) return undefined;
  }
}

/**
 * For arithmetics that cannot hold NaN or ±∞ (kind `mp`: RNS), checks the coefficients a call multiplies by are
 * finite — on every backend, naming the coefficient (the CPU's conversion would name its own `value`, the GPU's a
 * kernel's `alpha` for a β it scales by), before anything is written. Callers pass only the coefficients the call
 * uses: none on a quick return (an empty product, α = 0 with β = 1, …), as IEEE arithmetics never read them there.
 * @param ar - the kernel's arithmetic
 * @param coefficients - the coefficients used, by parameter name
 * @throws {@link ModprecError} `INVALID_VALUE` naming the first non-finite coefficient
 */
export function checkCoefficientsIn(ar: ArithmeticFormat, coefficients: readonly (readonly [string, number])[]): void {
  if (ar.kind !== 'mp') return;
  for (const [name, c] of coefficients) {
    if (!Number.isFinite(c)) fail('INVALID_VALUE', name, `must be finite for ${ar.name} arithmetic (it has no NaN or infinity)`, c);
  }
}
