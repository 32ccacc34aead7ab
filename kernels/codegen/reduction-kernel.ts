/**
 * Shared source for 1-D reductions of one or two vectors (DOT, ASUM, NRM2's sum of squares): the loop walks
 * pointers, loads through each operand's templates, and hands terms to the accumulation.
 * @module
 */
import type { ArithmeticFormat, Register } from '../../src/formats/format.js';
import type { Accumulation } from './accumulation.js';
import type { Operand } from './operand.js';

/** Loop header that walks pointers `<name>_p` (and scale pointers) of 1-D operands over i in [0, n). */
export function vectorLoop(operands: readonly Operand[], body: string): string {
  const init = operands.map((o) => {
    const s = o.accessor.scale ? `, ${o.name}_q = ${o.scaleOffset}` : '';
    return `let ${o.name}_p = ${o.offset}${s};`;
  }).join(' ');
  const step = operands.map((o) => {
    const s = o.accessor.scale ? `, ${o.name}_q += ${o.scaleStride(0)}` : '';
    return `${o.name}_p += ${o.stride(0)}${s}`;
  }).join(', ');
  return `${init}\nfor (let i = 0; i < n; i++${step ? ', ' + step : ''}) {\n${body}\n}`;
}

/** Loads element i of a 1-D operand (inside {@link vectorLoop}) into `dst`. */
export function loadVectorElement(o: Operand, ar: ArithmeticFormat, dst: Register): string {
  return o.emitLoad(ar, dst, `${o.name}_p`, o.accessor.scale ? `${o.name}_q` : undefined);
}

/** Declarations of the accumulation and of arithmetic registers named `names`. */
export function declareAll(ar: ArithmeticFormat, acc: Accumulation, base: string, names: readonly string[], operands: readonly Operand[]): string {
  return [
    ...operands.map((o) => o.emitDeclare(ar)),
    acc.emitDeclare(base, ar),
    acc.emitReset(base, ar),
    ...names.map((n) => ar.emitDeclare(ar.register(n))),
  ].join('\n');
}
