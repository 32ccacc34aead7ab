/**
 * ELL SpMV: y := α·A·x + β·y for an ELL matrix whose values are read through any accessor.
 * @module
 */
import { chooseCpuBackend, orderedNumerics, wasmNumericsOf, type CpuBackendOption } from '../shared/cpu-backend.js';
import { wasmOrderedEllSpmv } from './ell-spmv-ordered-wasm.js';
import { chooseBackend, prepareGpuCall, ellSpmvOnGpu, type GpuBackendOptions, type GpuKernelReport } from '../../src/backends/webgpu-bridge/gpu-dispatch.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { chooseArithmetic, type KernelOptions, chooseKernelBackend } from '../shared/kernel-options.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { EllOperand } from './ell-operand.js';
import type { Range } from '../../src/core/range.js';
import { resolveAccumulationIn } from '../shared/accumulation.js';
import { coefficientCase } from '../gemv/coefficients.js';
import { scaleYProgram } from '../gemv/gemv-cpu.js';
import { checkEllSpmvArguments, checkEllValues, type EllSpmvArguments } from './ell-spmv-arguments.js';
import { ellSpmvProgram } from './ell-spmv-cpu.js';
import { wasmEllRefusal, wasmEllSpmv } from './ell-spmv-wasm.js';
import { wasmDdEllSpmv } from './ell-spmv-dd-wasm.js';
import { runWasm } from '../shared/run-wasm.js';
import { readMatrixTwin, readTwin } from '../shared/scale-twin.js';
import { checkSplit, runSplit, threadsOf, type ThreadsOption } from '../shared/threads-option.js';
import { restoringOutput } from '../shared/output-restore.js';

/**
 * y := α·A·x + β·y for an ELL matrix (Ginkgo's layout: slots column-major, padding marked by column −1 and
 * skipped). Each row is one reduction through the accumulation strategy, over the row's slots in order;
 * values, x and y are read through their accessors and y is written back rounded to its storage.
 * BLAS semantics: β = 0 means y is not read (NaN or ±Inf there do not leak); α = 0 (or a matrix without
 * columns or slots) computes y := β·y without reading A or x; α = 0 and β = 1, or no rows, return at once.
 * y must not share storage with x or A's values.
 * @param args - `{ alpha, A, x, beta, y }`, see {@link EllSpmvArguments}
 * @param options - arithmetic (default: the most precise among A's values, x, y), accumulation (default recursive)
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` for lengths that do not fit A; `INVALID_STORAGE` for a
 *   read-only y; `INVALID_OPTION`, `INVALID_VALUE`; for a plain EllMatrix, its validation errors
 *   (`INDEX_OUT_OF_RANGE` for a column index outside the matrix); `INVALID_VALUE` naming `y[i]` for a result that is
 *   NaN or ±∞ in an IEEE arithmetic where y is stored in RNS (which holds finite values only: known once computed, y is
 *   then put back as it was). Nothing is written when it throws.
 * @example
 * ```ts
 * import { vector, toArray, formats, ellSpmv, ellWithStorage, csrToEll, readMatrixMarketCsr } from 'modprec';
 *
 * // the 2×2 matrix [[4, -1], [-1, 4]] from Matrix Market text, kept in fp32, computed on in fp64
 * const text = '%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 4\n1 2 -1\n2 1 -1\n2 2 4\n';
 * const A = ellWithStorage(csrToEll(readMatrixMarketCsr(text)), { storage: formats.f32, arithmetic: formats.f64 });
 * const x = vector([1, 2]), y = vector(2);
 * ellSpmv({ alpha: 1, A, x, beta: 0, y });
 * toArray(y); // → Float64Array(2) [ 2, 7 ]
 * ```
 * @group Kernels
 */
export function ellSpmv(args: EllSpmvArguments, options?: KernelOptions & ThreadsOption & { backend?: CpuBackendOption }): void;
/**
 * ELL SpMV on the GPU (WebGPU through gpu.js; CPU fallback with a notice where no adapter exists, unless `strict`):
 * operands are uploaded in their storage formats, the result is written back through the output range.
 * @returns a promise of the run report (backend, adapter, fallback reason, arithmetic)
 */
export function ellSpmv(args: EllSpmvArguments, options: GpuBackendOptions): Promise<GpuKernelReport>;
export function ellSpmv(args: EllSpmvArguments, options: (KernelOptions & ThreadsOption & { backend?: CpuBackendOption }) | GpuBackendOptions = {}): void | Promise<GpuKernelReport> {
  const { alpha, beta, A, x, y } = checkEllSpmvArguments(args);
  if (chooseKernelBackend('ellSpmv', options) === 'gpu') {
    const call = prepareGpuCall('ellSpmv', [['A.values', A.values], ['x', x], ['y', y]], options as GpuBackendOptions, undefined, (ar) => checkEllValues(ar, alpha, beta, A, x, y));
    return ellSpmvOnGpu({ alpha, A, x, beta, y }, call, () => ellSpmv(args, { arithmetic: call.arithmetic }));
  }
  options = options as KernelOptions;
  const ar = chooseArithmetic(options.arithmetic, [A.values, x, y]);
  const acc = resolveAccumulationIn(options.accumulation, ar);
  const { rows, cols, width, stride, colIndex } = A.structure;
  const requested = chooseBackend(options);
  const numerics = wasmNumericsOf(ar, acc);
  const dd = numerics === 'dd', f32 = numerics === 'f32' || numerics === 'kahan-f32', kahan = numerics === 'kahan-f64' || numerics === 'kahan-f32';
  const ordered = orderedNumerics(numerics);
  // Values scaled per slot, and double-double values in fp32 arithmetic, are read into a twin by a JavaScript pass over
  // them (kernels/shared/scale-twin.ts), as long as the JavaScript kernel's own: the automatic choice keeps such a call
  // there (the same bits; backend 'wasm' runs it).
  const twinValues = A.values.accessor.scale?.mask[1] === true || (f32 && A.values.accessor.storage.kind === 'dd');
  // The values before what WebAssembly cannot run, as every backend orders them (dot, the updates and backend 'gpu').
  checkEllValues(ar, alpha, beta, A, x, y);
  const cpu = requested === 'cpu' && twinValues ? 'js' : chooseCpuBackend(requested, {
    kernel: 'ellSpmv', arithmetic: ar, accumulation: acc,
    operands: [['x', x, 'read'], ['y', y, 'write']],
    kernelRefusal: wasmEllRefusal(A.values.accessor, rows),
  });
  const threads = threadsOf(options, 'ellSpmv');
  // The pool checks the call also where it returns at once: the same errors whatever the sizes and coefficients.
  if (threads) checkSplit(threads, 'ellSpmv', { alpha, A, x, beta, y }, ar, acc, cpu, requested);
  if (rows === 0 || (alpha === 0 && beta === 1)) return;
  if (threads) { runSplit(threads, 'ellSpmv', { alpha, A, x, beta, y }, ar, acc, cpu, requested); return; }
  const alphaCase = cols === 0 || width === 0 ? 'zero' : coefficientCase(alpha);
  if (alphaCase === 'zero') {
    if (beta !== 1) restoringOutput(y, 'y', ar, () => scaleYProgram(y.accessor, ar, coefficientCase(beta))(rows, 0, ...Operand.args(y.accessor), 0, beta));
    return;
  }
  // A scale per element of x: read from an unscaled twin (kernels/shared/scale-twin.ts).
  const xa = cpu === 'wasm' ? readTwin(x.accessor, cols, wasmNumericsOf(ar, acc), ar.kind === 'dd') : x.accessor;
  // Those values as an unscaled twin of the JavaScript's reads (scaled per row, the kernels read them themselves).
  const va = cpu === 'wasm' && twinValues ? readMatrixTwin(A.values.accessor, wasmNumericsOf(ar, acc), ar.kind === 'dd', 2, true) : A.values.accessor;
  if (cpu === 'wasm' && dd) {
    // A non-finite double-double sum leaves y untouched and is recomputed by the guarded JavaScript kernel.
    let done = false;
    if (runWasm(requested, () => { done = wasmDdEllSpmv(alpha, A.structure, va, xa, beta, y.accessor, ar, acc.name === 'dd'); }) && done) return;
  } else if (cpu === 'wasm' && ordered) {
    // A non-finite row sum leaves y untouched and is recomputed by the JavaScript kernel.
    let done = false;
    if (runWasm(requested, () => { done = wasmOrderedEllSpmv(alpha, A.structure, va, xa, beta, y.accessor, ordered.accumulation, ordered.arithmetic); }) && done) return;
  } else if (cpu === 'wasm' && runWasm(requested, () => wasmEllSpmv(alpha, A.structure, va, xa, beta, y.accessor, f32, kahan))) return;
  const f = ellSpmvProgram({ values: A.values.accessor, x: x.accessor, y: y.accessor, ar, acc, alpha: alphaCase, beta: coefficientCase(beta) });
  // An RNS y cannot hold a NaN or ±∞ result: y is put back and the element named (kernels/shared/output-restore.ts).
  restoringOutput(y, 'y', ar, () => f(rows, width, stride, colIndex, ...Operand.args(A.values.accessor), ...Operand.args(x.accessor), ...Operand.args(y.accessor), alpha, beta));
}
