/**
 * α and β of the "y := α·op(A)·x + β·y" kernels (GEMV, ELL SpMV): which special case each falls in (part of the
 * cache key, so α = 1 costs no multiplication and β = 0 never reads y), and the source that combines the
 * reduction result with y.
 * @module
 */
import type { ArithmeticFormat, Register } from '../../src/formats/common/format.js';
import type { Cursor } from '../../src/backends/cpu/cursor.js';
import { loadAt } from '../../src/backends/cpu/cursor.js';

/** Which special value a coefficient has. */
export type CoefficientCase = 'zero' | 'one' | 'general';

/** The case of coefficient `c`: 0 (either sign), 1, or anything else (NaN included). */
export function coefficientCase(c: number): CoefficientCase {
  return c === 0 ? 'zero' : c === 1 ? 'one' : 'general';
}

/** Registers the combination uses (declare them once per kernel). */
export const COMBINE_REGISTERS = ['ra', 'rb', 'yv', 'by', 'res'] as const;

/** Statements converting the runtime parameters `alpha` and `beta` into the registers `ra`, `rb`. */
export function emitCoefficients(ar: ArithmeticFormat, alpha: CoefficientCase, beta: CoefficientCase): string {
  return [
    alpha === 'general' ? ar.emitFromNumber(ar.register('ra'), 'alpha') : '',
    beta === 'general' ? ar.emitFromNumber(ar.register('rb'), 'beta') : '',
  ].join(' ');
}

/**
 * Statements leaving α·t + β·y in register `res` (y read at cursor `y` only when β ≠ 0). Output registers
 * never alias a template's multiplicands, so formats whose templates write `dst` early stay correct.
 * Roundings: α·t one (unless α = 1), β·y one (unless β = 1), the sum one (unless β = 0).
 */
export function emitCombine(
  ar: ArithmeticFormat, t: Register, y: Cursor, alpha: CoefficientCase, beta: CoefficientCase,
): string {
  const [ra, rb, yv, by, res] = COMBINE_REGISTERS.map((n) => ar.register(n)) as [Register, Register, Register, Register, Register];
  if (alpha === 'zero') {
    if (beta === 'zero') return ar.emitFromNumber(res, '0');
    return `${loadAt(y, ar, yv)} ${beta === 'one' ? ar.emitSet(res, yv) : ar.emitMul(res, rb, yv)}`;
  }
  if (beta === 'zero') return alpha === 'one' ? ar.emitSet(res, t) : ar.emitMul(res, ra, t);
  const yPart = beta === 'one' ? loadAt(y, ar, by) : `${loadAt(y, ar, yv)} ${ar.emitMul(by, rb, yv)}`;
  return `${yPart} ${alpha === 'one' ? ar.emitAdd(res, t, by) : ar.emitFma(res, ra, t, by)}`;
}
