/**
 * The transposed copy of the one-dispatch GPU TRSV (`TrsvKernelSwitches.transposedCopy`): for op(A) = Aᵀ, op(A)'s
 * block triangle written once per matrix in column-major order, so that the solve runs the N solve's walker on it.
 *
 * Why: the solve is a chain of 64-row steps; after block C of x is known every helper adds its tile op(A)(R, C)·x_C.
 * With op(A) = A those tiles together are one block column of A — 64 contiguous runs — and a warp reads 32 adjacent
 * rows of one column. With op(A) = Aᵀ they are one block row of A: for every later block R, 64 pieces of 256 bytes
 * lda elements apart (lda·4 = 32 KiB at n = 8192, a power of two), so a step's loads are thousands of short runs
 * spread over the whole matrix (more DRAM rows opened, more pages touched) however the lanes of a tile are
 * numbered (row lanes and quad rows only made each tile's sectors whole). A copy in op(A)'s own column-major order
 * gives the transposed solve the N solve's addresses.
 *
 * What is copied: every element op(A)(i, j), i, j < n, of the diagonal blocks and the blocks on op(A)'s side of them
 * (the tiles and the diagonal the walker and its substitution redo read), read as the walker reads A — a binary32
 * register (fp32, fp16, bf16 and scaled storages under f32 or float-float arithmetic) or the arithmetic's own (a
 * float-float register of an ff or f64 storage) — and stored in that register's words, so the walker reads the same
 * values back bit for bit; everything else is 0. n_p² elements (n_p: n rounded up to 64), ld = n_p.
 *
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { bindArray, arrayArgs, getPlan, kernelSource, memo, readKey, type Plan } from '../../src/backends/webgpu/kernel-common.js';
import { bindingLimit, bufferView, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuFormat } from '../../src/backends/webgpu/formats.js';
import type { GpuStorageFormat } from '../../src/backends/webgpu/formats.js';
import { getProgram, submitPasses, type BoundArray, type Pass } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import type { GpuBuffer } from '../../src/backends/webgpu/webgpu-types.js';
import type { DeviceMatrix } from '../gemv/gemv-webgpu.js';
import { TRSV_TILE } from './trsv-walker-source.js';

/** What the copy needs of the solve: size, padded size and which triangle op(A) is. */
export interface CopyShape {
  readonly n: number;
  readonly np: number;
  readonly lowerOp: boolean;
}

/**
 * The storage the copy holds op(A) in: binary32 words where the walker reads A into binary32 registers, else the
 * arithmetic's own words (whose read gives its register back).
 * @param arithmetic - the solve's arithmetic
 * @param A - the matrix's storage
 * @returns the copy's storage format
 */
export function transposedCopyFormat(arithmetic: GpuArithmetic, A: DeviceArray): GpuStorageFormat {
  return A.format.emitRead('A', '0', 'probe', arithmetic).register.kind === 'f32' ? gpuFormat('f32') : arithmetic.words;
}

/**
 * Source of the copy pass: thread t writes element (t mod n_p, ⌊t/n_p⌋) of the copy — op(A)(i, j) = A(j, i) inside
 * the block triangle, 0 outside it and past n.
 * @param arithmetic - the solve's arithmetic (A's reads as the walker makes them)
 * @param A - the matrix's storage (a view too: AOff + i·AInc + j·lda)
 * @param lowerOp - op(A) lower triangular
 * @returns source, arguments and the components of the written register
 */
export function transposedCopySource(arithmetic: GpuArithmetic, A: DeviceArray, lowerOp: boolean): { source: string; args: ReturnType<typeof arrayArgs>; components: 1 | 2 | 4 } {
  const args = [...arrayArgs('A', A), ['n', 'Integer'] as const, ['lda', 'Integer'] as const, ['np', 'Integer'] as const];
  // op(A)(i, j) = A(j, i).
  const index = A.isView ? 'AOff + ci * AInc + ri * lda' : 'ci + ri * lda';
  const ra = A.format.emitRead('A', index, 'a', arithmetic);
  const inside = `ri < n && ci < n && ${lowerOp ? 'mpIdiv(ri, 64) >= mpIdiv(ci, 64)' : 'mpIdiv(ri, 64) <= mpIdiv(ci, 64)'}`;
  const body = ['const t = this.thread.x;', 'const ri = mpImod(t, np);', 'const ci = mpIdiv(t, np);'];
  if (ra.register.kind === 'f32') {
    body.push('let w = 0.0;', `if (${inside}) {`, ra.code, `w = ${ra.register.name};`, '}', 'return w;');
    return { source: kernelSource(args, body), args, components: 1 };
  }
  body.push(arithmetic.declareZero('w'), `if (${inside}) {`, ra.code, arithmetic.assign('w', ra.register), '}', `return ${arithmetic.returnValue('w')};`);
  return { source: kernelSource(args, body), args, components: arithmetic.components as 1 | 2 | 4 };
}

/** The copy's plan: its buffer, its pass, and which inversion of A (the inverses' buffer and generation) it was made beside. */
type CopyPlan = Plan & { copy?: Pass; copied?: { inv: GpuBuffer; generation: number } };

/**
 * The transposed copy for this matrix, variant and arithmetic (made, or made again, where A's inverses were: the same
 * `generation` of {@link blockInverses}' plan, so a refilled A gets a new copy, queued before the solve that reads it),
 * or undefined where it does not fit one storage binding (the solve then reads A itself).
 * @param runtime - the runtime
 * @param A - the matrix (op(A) = Aᵀ)
 * @param shape - n, n_p and op(A)'s triangle
 * @param arithmetic - the solve's arithmetic
 * @param invKey - the key of A's inverses' plan (names A's buffers, variant and arithmetic)
 * @param inv - the inverses' buffer
 * @param generation - the inverses' generation
 * @returns the copy as a column-major n_p × n_p device array (ld = n_p), or undefined
 */
export async function transposedCopy(runtime: GpuRuntime, A: DeviceMatrix, shape: CopyShape, arithmetic: GpuArithmetic, invKey: string, inv: GpuBuffer, generation: number): Promise<DeviceArray | undefined> {
  const { n, np } = shape;
  const format = transposedCopyFormat(arithmetic, A.data);
  const words = format.words(np * np);
  if (words * 4 > bindingLimit(runtime) || np % TRSV_TILE !== 0) return undefined;
  const context = runtime.context;
  const plan = getPlan(runtime, `${invKey}|transposed`, 1, () => [createWordBuffer(context, words)]) as CopyPlan;
  const out = plan.scratch[0]!;
  if (!plan.copy) {
    const spec = memo(`trsvTC|${arithmetic.name}|${readKey(A.data)}|${shape.lowerOp}`, () => transposedCopySource(arithmetic, A.data, shape.lowerOp));
    const program = await getProgram(context, { source: spec.source, args: spec.args, components: spec.components });
    const arrays: Record<string, BoundArray> = {};
    const scalars: Record<string, number> = { n, lda: A.ld, np };
    bindArray('A', A.data, arrays, scalars);
    plan.copy = { program, arrays, scalars, output: { buffer: out }, threads: np * np };
  }
  // No await between the check and the submit: calls in flight together on one A queue the copy once, before their solves.
  if (plan.copied?.inv !== inv || plan.copied.generation !== generation) {
    plan.copied = { inv, generation };
    submitPasses(context, [{ pass: plan.copy, cache: plan.passes[0]! }]);
  }
  return bufferView(runtime, out, format, np * np);
}
