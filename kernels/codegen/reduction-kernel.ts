/**
 * Shared source for 1-D reductions of one or two vectors (DOT, ASUM, NRM2's sum of squares): the loop walks
 * pointers, loads through each operand's templates, and hands terms to the accumulation.
 * @module
 */
import type { ArithmeticFormat, Register } from '../../src/formats/format.js';
import type { Accumulation } from './accumulation.js';
import type { Operand } from './operand.js';

/**
 * Loop over i in [0, n) for 1-D operands, with each operand's storage position in `<name>_p` (and scale
 * position in `<name>_q`). Two versions are emitted: when every stride is 1 at run time, the positions step by
 * the constant 1 (V8 then proves the index arithmetic cannot overflow and the loop runs as fast as a
 * hand-written `x[i]` loop — bench/zero-cost.ts; a step by a run-time stride or `offset + i` costs ~20 %);
 * otherwise the pointers step by their strides.
 */
export function vectorLoop(operands: readonly Operand[], body: string): string {
  const init = operands.map((o) => {
    const s = o.accessor.scale ? `, ${o.name}_q = ${o.scaleOffset}` : '';
    return `let ${o.name}_p = ${o.offset}${s};`;
  }).join(' ');
  const step = operands.map((o) => {
    const s = o.accessor.scale ? `, ${o.name}_q += ${o.scaleStride(0)}` : '';
    return `${o.name}_p += ${o.stride(0)}${s}`;
  }).join(', ');
  const strided = `${init}\nfor (let i = 0; i < n; i++${step ? ', ' + step : ''}) {\n${body}\n}`;
  if (operands.length === 0 || operands.some((o) => o.accessor.scale)) return strided;
  const unit = operands.map((o) => `${o.stride(0)} === 1`).join(' && ');
  const steps = operands.map((o) => `${o.name}_p++`).join(', ');
  return `if (${unit}) {\n${init}\nfor (let i = 0; i < n; i++, ${steps}) {\n${body}\n}\n} else {\n${strided}\n}`;
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
