/**
 * Shared assembly of 1-D kernels: parameters, declarations, the pointer-walking loop, and the host-side
 * argument list. The per-kernel files only say what happens to one element.
 * @module
 */
import type { ArithmeticFormat } from '../../formats/common/format.js';
import type { Accessor } from '../../../accessors/accessor.js';
import type { Range } from '../../core/range.js';
import type { Accumulation } from '../../../kernels/shared/accumulation.js';
import { Operand } from './operand.js';
import { compileProgram, mergeHelpers } from './program-cache.js';
import { vectorLoop } from './reduction-kernel.js';

/** What a 1-D kernel's generator needs to know. */
export interface VectorKernelSpec {
  /** Kernel name (cache key and function name). */
  kernel: string;
  /** Operands in parameter order, by generated-code name (`x`, `y`, `w`, …). */
  operands: readonly (readonly [string, Accessor<1, any>])[];
  /** Names of number parameters passed after the operands (α, β, …). */
  scalars: readonly string[];
  /** Arithmetic registers the body uses. */
  registers: readonly string[];
  /** Arithmetic and (for reductions) accumulation. */
  ar: ArithmeticFormat;
  acc?: Accumulation;
  /** Extra key parts (e.g. which coefficients are zero). */
  variant?: Record<string, unknown>;
  /** Source: statements before the loop (registers declared already). */
  prologue?: (ops: Record<string, Operand>) => string;
  /** Source: the loop body for element i (operand pointers `<name>_p`). */
  body: (ops: Record<string, Operand>) => string;
  /** Source: statements after the loop, ending in a `return` if the kernel returns something. */
  epilogue?: (ops: Record<string, Operand>) => string;
}

/** A compiled 1-D kernel: (n, ...operand args, ...scalars) → result. */
export type VectorKernel = (n: number, ...args: unknown[]) => number | undefined;

/** Compiles (once per signature) a 1-D kernel described by `spec`. */
export function vectorKernel(spec: VectorKernelSpec): VectorKernel {
  const ops: Record<string, Operand> = {};
  for (const [name, a] of spec.operands) ops[name] = new Operand(name, a);
  const list = Object.values(ops);
  const key = {
    kernel: spec.kernel, ar: spec.ar.name, acc: spec.acc?.name ?? null, variant: spec.variant ?? null,
    operands: list.map((o) => [o.name, o.signature()]),
  };
  return compileProgram<VectorKernel>(key, () => {
    const ar = spec.ar;
    const params = ['n', ...list.flatMap((o) => o.params()), ...spec.scalars];
    const decl = [
      ...list.map((o) => o.emitDeclare(ar)),
      ...spec.registers.map((r) => ar.emitDeclare(ar.register(r))),
      spec.acc ? spec.acc.emitDeclare('s', ar) + ' ' + spec.acc.emitReset('s', ar) : '',
    ].join('\n');
    const source = `return function ${spec.kernel}(${params.join(', ')}) {
${decl}
${spec.prologue?.(ops) ?? ''}
${vectorLoop(list, spec.body(ops))}
${spec.epilogue?.(ops) ?? ''}
};`;
    return { source, helpers: mergeHelpers(...list.map((o) => o.helpers()), ar.helpers, spec.acc?.helpers ?? {}) };
  });
}

/** Runtime arguments of the operands, in order. */
export function operandArgs(...ranges: readonly Range<1, any>[]): unknown[] {
  return ranges.flatMap((r) => Operand.args(r.accessor));
}
