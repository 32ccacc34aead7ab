/**
 * The substitution redo (./trsv-substitution-source.ts) for a matrix split across bindings: A is read through windows
 * of whole columns, one pass each, so the one-workgroup substitution runs as a chain of passes that keep their state
 * in the solve's x words.
 *
 * - The check pass looks for a non-finite x (or one over x's storage range), stores the verdict in the word after x
 *   (`flagAt`) and, where it redoes and op(A) = A, starts every row's sum at 0 + bᵢ. A solve that rounds x_j to x's
 *   storage between rows (a scaled integer x, or a storage that rounds the arithmetic's values) always redoes.
 * - Window pass k covers the steps s0 ≤ s < s1 of substitution order, whose columns of A are its window. op(A) = A:
 *   step j reads column j (x_j's pivot and the entries of later rows), as in one binding. op(A) = Aᵀ: step j reads
 *   op(A)(i, j) = A(j, i), in column i — so a pass takes the rows of its own steps (A's columns in the window): it
 *   starts each row's sum from zero with the terms of the steps before s0, in step order, then runs its steps,
 *   updating only its rows (sums from 0 + bᵢ, terms op(A)(i, j)·(−x_j) as in one binding). Every row's sum gets the same terms in the same order as in one binding (step order):
 *   the results are the one-binding redo's bit for bit, the CPU's.
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { arrayArgs, elementIndex, kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { WorkgroupSettings } from '../../src/backends/webgpu/gpujs-extensions.js';
import { zeroSignLines } from './trsv-zero-sign-source.js';
import { ifNonFinite, opIndexOf, REDO_WORKGROUP, scaledRoundingArgs, storageOverflowBits, substitutionLines, sumStartLines, type RoundTripStorage, type ScaledRounding, type SubstitutionShape } from './trsv-substitution-source.js';

type Source = { source: string; args: ReturnType<typeof arrayArgs>; workgroup: WorkgroupSettings };

const WORKGROUP: WorkgroupSettings = { workgroupSize: REDO_WORKGROUP, workgroupArrays: [{ type: 'i32', length: 1 }] };

/** Lines that store `name` (a register) as row `i`'s words of x. */
function storeRow(c: number, i: string, name: string): string[] {
  return Array.from({ length: c }, (_, k) => `mpAtomicStore(XAtomic[(${i}) * ${c} + ${k}], mpBits(${c === 1 ? name : `${name}[${k}]`}));`);
}

/** A register of row `i`'s words of x. */
function loadRow(c: number, i: string): string {
  return c === 1 ? `mpFloat(mpAtomicLoad(XAtomic[${i}]))` : `[${Array.from({ length: c }, (_, k) => `mpFloat(mpAtomicLoad(XAtomic[(${i}) * ${c} + ${k}]))`).join(', ')}]`;
}

/** How the passes read b_i (x as stored: the solve has not yet overwritten it) into a register. */
function readBOf(arithmetic: GpuArithmetic, B: DeviceArray): (i: string, dst: string) => string[] {
  return (i, dst) => {
    const rb = B.format.emitRead('B', elementIndex('B', B, i), `${dst}r`, arithmetic);
    return [rb.code, `let ${dst} = ${arithmetic.literal(0)};`, arithmetic.assign(dst, rb.register)];
  };
}

/**
 * The check pass.
 * @param arithmetic - the solve's arithmetic
 * @param B - the right-hand side as stored (its storage's overflow bound)
 * @param shape - the variant
 * @param always - the solve rounds x_j between rows: the verdict is always to redo
 * @returns source, arguments (XAtomic, n, flagAt) and workgroup
 */
export function splitRedoCheckSource(arithmetic: GpuArithmetic, B: DeviceArray, shape: SubstitutionShape, always = false): Source {
  const c = arithmetic.components;
  const args = [...arrayArgs('B', B), ['XAtomic', 'Array'] as const, ['n', 'Integer'] as const, ['flagAt', 'Integer'] as const];
  const body = [
    'const l = mpLocalId();',
    ...(always ? ['if (l === 0) { mpSharedIntSet(0, 0, 1); }']
      : [`for (let i = mpI32(l); i < n; i = i + ${REDO_WORKGROUP}) {`, `let xi = ${loadRow(c, 'i')};`, ...ifNonFinite(arithmetic, 'xi', 'mpSharedIntSet(0, 0, 1);', storageOverflowBits(B)), '}']),
    // Every read of x is done once the verdict is uniform (workgroupUniformLoad waits for the workgroup).
    'const redo = mpSharedIntUniform(0, 0);',
    'if (l === 0) { mpAtomicStore(XAtomic[flagAt], redo); }',
    ...(shape.trans ? [] : ['if (redo !== 0) {', `for (let i = mpI32(l); i < n; i = i + ${REDO_WORKGROUP}) {`, ...sumStartLines(arithmetic, readBOf(arithmetic, B), 'i', 'start'), ...storeRow(c, 'i', 'start'), '}', '}']),
    arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`,
  ];
  return { source: kernelSource(args, body), args, workgroup: WORKGROUP };
}

/**
 * A window pass: steps s0 ≤ s < s1, A bound from element aOff (its columns of those steps), rows rowLo ≤ i < rowHi
 * (the same columns: op(A) = Aᵀ only).
 * @param arithmetic - the solve's arithmetic
 * @param A - the matrix
 * @param B - the right-hand side as stored
 * @param shape - the variant
 * @param rounding - x_j rounded to a scaled storage between rows (as the one-binding redo's; its arguments: scaledRoundingArgs)
 * @param storage - x_j rounded to x's unscaled storage between rows (as the one-binding redo's)
 * @returns source, arguments and workgroup
 */
export function splitRedoWindowSource(arithmetic: GpuArithmetic, A: DeviceArray, B: DeviceArray, shape: SubstitutionShape & { readonly lowerOp: boolean }, rounding?: ScaledRounding, storage?: RoundTripStorage): Source {
  const c = arithmetic.components;
  const args = [...arrayArgs('A', A), ...arrayArgs('B', B), ['XAtomic', 'Array'] as const, ['n', 'Integer'] as const, ['lda', 'Integer'] as const,
    ['aOff', 'Integer'] as const, ['s0', 'Integer'] as const, ['s1', 'Integer'] as const, ['rowLo', 'Integer'] as const, ['rowHi', 'Integer'] as const, ['flagAt', 'Integer'] as const, ...scaledRoundingArgs(rounding)];
  const readB = readBOf(arithmetic, B);
  const body = ['const l = mpLocalId();', 'if (l === 0) { mpSharedIntSet(0, 0, mpAtomicLoad(XAtomic[flagAt])); }', 'if (mpSharedIntUniform(0, 0) !== 0) {'];
  if (shape.trans) {
    // Rows of this window's steps: the terms of the earlier steps, in step order (column i of A holds them).
    const order = (s: string) => (shape.lowerOp ? s : `n - 1 - ${s}`);
    const index = (j: string, i: string) => `${A.isView ? `AOff + ${j} * AInc + ${i} * lda` : `${j} + ${i} * lda`} - aOff`;
    const ra = A.format.emitRead('A', index('swj', 'swi'), 'swa', arithmetic);
    body.push(`for (let swi = mpI32(l); swi < n; swi = swi + ${REDO_WORKGROUP}) {`, 'if (swi >= rowLo && swi < rowHi) {', ...sumStartLines(arithmetic, readB, 'swi', 'swacc'),
      'for (let sws = mpI32(0); sws < s0; sws = sws + 1) {', `const swj = ${order('sws')};`, ra.code, `let swx = ${loadRow(c, 'swj')};`,
      arithmetic.declareZero('swz'), arithmetic.declareSub('swnx', arithmetic.register('swz'), arithmetic.register('swx')),
      arithmetic.mulAdd('swacc', ra.register, arithmetic.register('swnx')), '}', ...storeRow(c, 'swi', 'swacc'), '}', '}', 'mpBarrier();');
  }
  body.push(...substitutionLines(arithmetic, A, shape, { owners: REDO_WORKGROUP, broadcast: 1, readB, overflow: storageOverflowBits(B), window: true, rounding, storage }), '}');
  // No redo: an exactly-zero x_i of this window's columns takes substitution's sign (./trsv-zero-sign-source.ts; the
  // verdict is given, so an infinite pivot's zero keeps +0 / t_ii's sign).
  const zeroSign = zeroSignLines(arithmetic, A, shape, 'zr', { opIndex: (row, col) => `${opIndexOf(A, shape, row, col)} - aOff` });
  body.push('if (mpSharedIntUniform(0, 0) === 0) {', `for (let zr = mpI32(l); zr < n; zr = zr + ${REDO_WORKGROUP}) {`, 'if (zr >= rowLo && zr < rowHi) {', ...zeroSign, '}', '}', '}');
  body.push(arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`);
  return { source: kernelSource(args, body), args, workgroup: { workgroupSize: REDO_WORKGROUP, workgroupArrays: [{ type: 'i32', length: 1 }, { type: 'f32', length: 2 * c }] } };
}
