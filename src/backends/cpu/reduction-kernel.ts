/**
 * Shared source for 1-D reductions of one or two vectors (DOT, ASUM, NRM2's sum of squares): the loop walks
 * pointers, loads through each operand's templates, and hands terms to the accumulation.
 * @module
 */
import { declareRegister, type ArithmeticFormat, type Register } from '../../formats/common/format.js';
import type { Accumulation } from '../../../kernels/shared/accumulation.js';
import type { Operand } from './operand.js';
import { cursor, cursorLoop } from './cursor.js';

/**
 * Loop over i in [0, n) for 1-D operands, with each operand's storage position in `<name>_p` (and scale
 * position in `<name>_q`): a {@link cursorLoop}, so unit strides get the fast constant-step loop.
 */
export function vectorLoop(operands: readonly Operand[], body: string): string {
  return cursorLoop('i', 'n', operands.map((o) => ({ c: cursor(o, `${o.name}_p`, `${o.name}_q`), d: 0 })), body);
}

/** Loads element i of a 1-D operand (inside {@link vectorLoop}) into `dst`. */
export function loadVectorElement(o: Operand, ar: ArithmeticFormat, dst: Register): string {
  return o.emitLoad(ar, dst, `${o.name}_p`, o.accessor.scale ? `${o.name}_q` : undefined);
}

/** Declarations of the operands' temporaries, the accumulation and `registers` (of `ar`, or from `Operand.valueRegister`). */
export function declareAll(ar: ArithmeticFormat, acc: Accumulation, base: string, registers: readonly Register[], operands: readonly Operand[]): string {
  return [
    ...operands.map((o) => o.emitDeclare(ar)),
    acc.emitDeclare(base, ar),
    acc.emitReset(base, ar),
    ...registers.map((r) => declareRegister(ar, r)),
  ].join('\n');
}
