/**
 * GEMV: y := α·op(A)·x + β·y through any accessors, in any arithmetic, with any accumulation.
 * @module
 */
import { chooseCpuBackend, orderedNumerics, wasmNumericsOf, type CpuBackendOption } from '../shared/cpu-backend.js';
import { wasmOrderedGemv } from './gemv-ordered-wasm.js';
import { runWasm } from '../shared/run-wasm.js';
import { readMatrixTwin, readTwin } from '../shared/scale-twin.js';
import { wasmGemv } from './gemv-wasm.js';
import { wasmDdGemv } from './gemv-dd-wasm.js';
import { wasmKahanGemv } from './gemv-kahan-wasm.js';
import { chooseBackend, prepareGpuCall, gemvOnGpu, type GpuBackendOptions, type GpuKernelReport } from '../../src/backends/webgpu-bridge/gpu-dispatch.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { chooseArithmetic, type KernelOptions, chooseKernelBackend } from '../shared/kernel-options.js';
import { resolveAccumulationIn } from '../shared/accumulation.js';
import { checkGemvArguments, checkGemvValues, type GemvArguments } from './gemv-arguments.js';
import { gemvProgram, type GemvLoop } from './gemv-cpu.js';
import { checkGpuLoop, chooseLoop, wasmLoopRefusal } from './gemv-loop-option.js';
import { coefficientCase } from './coefficients.js';
import { checkSplit, runSplit, threadsOf, type ThreadsOption } from '../shared/threads-option.js';
import { restoringOutput } from '../shared/output-restore.js';

/**
 * Options of {@link gemv}.
 * @group Kernels
 */
export interface GemvOptions extends KernelOptions, ThreadsOption {
  /**
   * Loop order: `'dot'` (one reduction per row of op(A)), `'dot-blocked'` (the reductions of a few consecutive
   * rows advance together, column by column), `'axpy'` (column by column into a scratch vector), or `'auto'`
   * (default). When the columns of op(A) are contiguous (e.g. column-major A with trans 'N'), `'auto'` takes
   * `'axpy'` if the accumulation is recursive and the arithmetic computes on plain doubles, else
   * `'dot-blocked'`; otherwise `'dot'`. All orders add each row's products in the same order, so they give the
   * same bits (`'axpy'`: for the recursive accumulation, the only one it runs); the choice is about memory
   * access only.
   */
  loop?: 'auto' | GemvLoop;
}

let scratch = new Float64Array(0);

/** The scratch vector of the column-oriented loop (grown on demand, reused across calls). */
function scratchOf(m: number): Float64Array {
  if (scratch.length < m) scratch = new Float64Array(m);
  return scratch;
}

/**
 * y := α·op(A)·x + β·y, with BLAS semantics: β = 0 means y is not read (NaN or ±Inf there do not leak);
 * α = 0 skips the product (A and x are not read); α = 0 and β = 1, or an empty op(A) (m = 0 or n = 0, as in the
 * reference BLAS), return at once with y untouched.
 * Every element is read through its accessor (decoded, scaled, converted to the arithmetic) and y is written
 * back rounded to its storage. y must not share storage with A or x.
 * @param args - `{ alpha, A, x, beta, y, trans }`, see {@link GemvArguments}
 * @param options - arithmetic (default: the most precise among A, x, y), accumulation (default recursive),
 *   loop order (see {@link GemvOptions.loop})
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` when the lengths do not fit op(A); `INVALID_STORAGE` for a
 *   read-only y; `INVALID_OPTION` for a bad trans, loop or accumulation, or a non-range; `INVALID_VALUE` for a
 *   non-number α or β, or naming `y[i]` for a result that is NaN or ±∞ in an IEEE arithmetic where y is stored in RNS
 *   (which holds finite values only: known once computed, y is then put back as it was). Nothing is written when it throws.
 * @example
 * ```ts
 * import { range, vector, toArray, formats, reducedRowMajor, gemv } from 'modprec';
 *
 * // A (2×3) stored in fp32, computed on in fp64: y := A·x
 * const A = range(reducedRowMajor({ size: [2, 3], storage: formats.f32, arithmetic: formats.f64 }));
 * for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) A.set(i, j, i + j);
 * const x = vector([1, 1, 1]), y = vector(2);
 * gemv({ alpha: 1, A, x, beta: 0, y, trans: 'N' });
 * toArray(y); // → Float64Array(2) [ 3, 6 ]
 * ```
 * @group Kernels
 */
export function gemv(args: GemvArguments, options?: GemvOptions & { backend?: CpuBackendOption }): void;
/**
 * GEMV on the GPU (WebGPU through gpu.js; CPU fallback with a notice where no adapter exists, unless `strict`):
 * operands are uploaded in their storage formats, the result is written back through the output range.
 * @returns a promise of the run report (backend, adapter, fallback reason, arithmetic)
 */
export function gemv(args: GemvArguments, options: GpuBackendOptions): Promise<GpuKernelReport>;
export function gemv(args: GemvArguments, options: (GemvOptions & { backend?: CpuBackendOption }) | GpuBackendOptions = {}): void | Promise<GpuKernelReport> {
  const { alpha, beta, opA, A, x, y, m, n } = checkGemvArguments(args);
  if (chooseKernelBackend('gemv', options) === 'gpu') {
    const o = options as GpuBackendOptions & GemvOptions;
    checkGpuLoop(o.loop);
    const call = prepareGpuCall('gemv', [['A', A], ['x', x], ['y', y]], o, undefined, (ar) => checkGemvValues(ar, args, m, n));
    return gemvOnGpu({ alpha, A, x, beta, y, trans: args.trans ?? 'N', m, n }, call, () => gemv(args, { arithmetic: call.arithmetic }));
  }
  options = options as GemvOptions;
  const ar = chooseArithmetic(options.arithmetic, [A, x, y]);
  const acc = resolveAccumulationIn(options.accumulation, ar);
  const requested = chooseBackend(options);
  const loop = chooseLoop(options.loop, opA, ar, acc);
  // The values before what WebAssembly cannot run, as every backend orders them (dot, the updates and backend 'gpu').
  checkGemvValues(ar, args, m, n);
  const cpu = chooseCpuBackend(requested, {
    kernel: 'gemv', arithmetic: ar, accumulation: acc,
    operands: [['A', A, 'read'], ['x', x, 'read'], ['y', y, 'write']],
    kernelRefusal: wasmLoopRefusal(options.loop, opA, acc),
  });
  // The reference BLAS's quick return: an empty op(A) leaves y untouched (even for β ≠ 1).
  const threads = threadsOf(options, 'gemv');
  const split = { alpha, A, x, beta, y, trans: args.trans ?? 'N', loop: options.loop ?? 'auto' };
  // The pool checks the call also where it returns at once: the same errors whatever the sizes and coefficients.
  if (threads) checkSplit(threads, 'gemv', split, ar, acc, cpu, requested);
  if (m === 0 || n === 0 || (alpha === 0 && beta === 1)) return;
  if (threads) { runSplit(threads, 'gemv', split, ar, acc, cpu, requested); return; }
  const alphaCase = coefficientCase(alpha);
  if (cpu === 'wasm' && alphaCase !== 'zero') {
    const numerics = wasmNumericsOf(ar, acc), ordered = orderedNumerics(numerics);
    // A scale per element of x: read from an unscaled twin (kernels/shared/scale-twin.ts).
    const xa = readTwin(x.accessor, n, numerics, ar.kind === 'dd');
    // Scales per row, column or element of A: an unscaled twin of the JavaScript's reads, op(A)'s layout kept.
    const Aa = readMatrixTwin(opA, numerics, ar.kind === 'dd');
    if (ordered) {
      // pairwise, dot2: the JavaScript row loop's sums; a non-finite one leaves y to the JavaScript kernel.
      let done = false;
      if (runWasm(requested, () => { done = wasmOrderedGemv(alpha, Aa, xa, beta, y.accessor, m, n, ordered.accumulation, ordered.arithmetic); }) && done) return;
    } else if (numerics === 'kahan-f64' || numerics === 'kahan-f32') {
      // A non-finite compensated row sum leaves y untouched and is recomputed by the JavaScript kernel.
      let done = false;
      if (runWasm(requested, () => { done = wasmKahanGemv(alpha, Aa, xa, beta, y.accessor, m, n, numerics === 'kahan-f32' ? 'f32' : 'f64'); }) && done) return;
    } else if (numerics === 'dd') {
      // A non-finite double-double sum leaves y untouched and is recomputed by the guarded JavaScript kernel.
      let done = false;
      if (runWasm(requested, () => { done = wasmDdGemv(alpha, Aa, xa, beta, y.accessor, m, n, ar, acc.name === 'dd'); }) && done) return;
    } else if (numerics === 'f32') {
      if (runWasm(requested, () => wasmGemv(alpha, Aa, xa, beta, y.accessor, m, n, 'f32'))) return;
    } else if (runWasm(requested, () => wasmGemv(alpha, Aa, xa, beta, y.accessor, m, n))) return;
  }
  const f = gemvProgram({ A: opA, x: x.accessor, y: y.accessor, ar, acc, loop, alpha: alphaCase, beta: coefficientCase(beta) });
  // An RNS y cannot hold a NaN or ±∞ result: y is put back and the element named (kernels/shared/output-restore.ts).
  restoringOutput(y, 'y', ar, () => {
    if (alphaCase === 'zero') f(m, n, ...Operand.args(y.accessor), alpha, beta);
    else f(m, n, ...Operand.args(opA), ...Operand.args(x.accessor), ...Operand.args(y.accessor), alpha, beta, loop === 'axpy' ? scratchOf(m) : undefined);
  });
}
