/**
 * The resident kernels refuse an output that overlaps an input as the CPU kernels refuse overlapping ranges: with
 * `INVALID_STORAGE` naming the output and the input, by the CPU's own exact test (kernels/shared/aliasing.ts), before
 * anything is read or written. Device arrays overlap where they are views of one storage (the same buffer, shared by
 * every view of an array) and some element of one is an element of the other; AXPY's and WAXPBY's output may be
 * exactly an input (the same elements), as on the CPU. Until session 28 the resident kernels ran such calls, reading
 * the overlapping input from a copy taken before the write, where the CPU refused them.
 * @module
 */
import { checkNoOverlap, type AliasOperand } from '../../../kernels/shared/aliasing.js';
import { DeviceArray } from './device-array.js';

/** An operand as the overlap test reads it: a 1-D device array, or a matrix of one (element (i, j) at offset + i·s₀ + j·s₁). */
export type OverlapOperand = DeviceArray | { readonly data: DeviceArray; readonly size: readonly [number, number]; readonly strides: readonly [number, number] };

/** The operand as the CPU's overlap test reads an accessor: element units in its storage (shared by its views). */
function aliasOperandOf(op: OverlapOperand): AliasOperand {
  const a = op instanceof DeviceArray ? op : op.data;
  const [size, strides] = op instanceof DeviceArray ? [[op.length], [op.stride]] : [op.size, op.strides];
  return { data: a.storage, size, strides, offset: a.offset, storage: { wordsPerElement: 1 }, dimensionality: size.length, scale: undefined } as unknown as AliasOperand;
}

/** Whether an operand is well formed enough to test (the kernel's own checks name what is not). */
function testable(op: OverlapOperand | undefined): op is OverlapOperand {
  if (op instanceof DeviceArray) return true;
  return op !== undefined && op !== null && typeof op === 'object' && op.data instanceof DeviceArray && op.size.every((s) => Number.isSafeInteger(s) && s >= 0) && op.strides.every(Number.isSafeInteger);
}

/**
 * Refuses an output overlapping an input, as the CPU kernels do (`checkNoOverlap`: the same code, parameter and
 * message); operands that are not device arrays are left to the kernel's own checks.
 * @param outputName - the output's parameter name (`y`, `x`, `out`)
 * @param output - the output
 * @param inputs - [parameter name, operand] of every input
 * @param elementwise - whether an input with exactly the output's elements is allowed (AXPY, WAXPBY)
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming the output
 * @example
 * ```ts
 * refuseResidentOverlap('y', y, [['x', x]]); // throws INVALID_STORAGE naming y where y and x share an element
 * ```
 */
export function refuseResidentOverlap(outputName: string, output: OverlapOperand | undefined, inputs: readonly (readonly [string, OverlapOperand | undefined])[], elementwise = false): void {
  if (!testable(output)) return;
  const checked = inputs.filter((entry): entry is readonly [string, OverlapOperand] => testable(entry[1]));
  checkNoOverlap(outputName, aliasOperandOf(output), checked.map(([name, op]) => [name, aliasOperandOf(op)] as const), elementwise);
}

/**
 * A resident matrix as an overlap operand: GEMV's and TRSV's A (element (i, j) at `data.offset + i·data.stride +
 * j·ld`), or ELL's values (slot k of row i at `values.offset + i·values.stride + k·(valuesLd ?? stride)`); undefined
 * for what is not one (the kernel's own checks name it).
 * @param A - a DeviceMatrix, or a DeviceEll with `ell` true
 * @param ell - whether A is an ELL matrix (its values are the operand)
 * @returns the operand, or undefined
 * @example
 * ```ts
 * refuseResidentOverlap('y', y, [['A', matrixOverlapOperand(A)], ['x', x]]);
 * ```
 */
export function matrixOverlapOperand(A: unknown, ell = false): OverlapOperand | undefined {
  if (typeof A !== 'object' || A === null) return undefined;
  const m = A as { rows?: unknown; cols?: unknown; ld?: unknown; data?: unknown; width?: unknown; stride?: unknown; values?: unknown; valuesLd?: unknown };
  const data = ell ? m.values : m.data;
  if (!(data instanceof DeviceArray)) return undefined;
  const size = [m.rows, ell ? m.width : m.cols] as [number, number];
  const strides = [data.stride, ell ? (m.valuesLd ?? m.stride) : m.ld] as [number, number];
  return { data, size, strides };
}
