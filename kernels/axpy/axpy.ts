/**
 * AXPY: y := α·x + y.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { chooseArithmetic, type KernelOptions, chooseKernelBackend } from '../shared/kernel-options.js';
import { vectorKernel, operandArgs } from '../../src/backends/cpu/vector-kernel.js';
import { loadVectorElement } from '../../src/backends/cpu/reduction-kernel.js';
import { chooseCpuBackend, wasmNumericsOf, type CpuBackendOption } from '../shared/cpu-backend.js';
import { runWasm } from '../shared/run-wasm.js';
import { readTwin } from '../shared/scale-twin.js';
import { wasmUpdateFor } from '../shared/update-dd-output-wasm.js';
import { span } from '../../src/core/span.js';
import { recursiveAccumulation, resolveAccumulation } from '../shared/accumulation.js';
import { chooseBackend, prepareGpuCall, updateOnGpu, quickReport, type GpuBackendOptions, type GpuKernelReport } from '../../src/backends/webgpu-bridge/gpu-dispatch.js';
import { checkAxpyArguments, checkAxpyValues } from './axpy-arguments.js';
import { checkSplit, runSplit, threadsOf, type ThreadsOption } from '../shared/threads-option.js';
import { restoringOutput } from '../shared/output-restore.js';

/**
 * y := α·x + y, each element read through its accessor and written back rounded to y's storage.
 * α = 0 or an empty vector returns at once (y is not touched, so NaN in y stays as it was).
 * @param alpha - the coefficient α
 * @param x - the vector added
 * @param y - the vector updated in place (writable, same length)
 * @param options - arithmetic (default: the most precise of the operands')
 * @throws {@link ModprecError} `DIMENSION_MISMATCH`, `INVALID_VALUE` (α not a number), `INVALID_STORAGE` (read-only y, or y
 *   overlapping x in memory other than as the same elements);
 *   `INVALID_VALUE` naming `y[i]` for a result that is NaN or ±∞ in an IEEE arithmetic where the output is stored in RNS
 *   (which holds finite values only): known once computed, the output is then put back as it was.
 * @example
 * ```ts
 * import { vector, toArray, axpy } from 'modprec';
 *
 * const x = vector([1, 2]), y = vector([10, 20]);
 * axpy(2, x, y);   // y := 2x + y
 * toArray(y); // → Float64Array(2) [ 12, 24 ]
 * ```
 * @group Kernels
 */
export function axpy(alpha: number, x: Range<1, any>, y: Range<1, any>, options?: KernelOptions & ThreadsOption & { backend?: CpuBackendOption }): void;
/**
 * AXPY on the GPU (WebGPU through gpu.js; the CPU backend with a notice where no adapter exists, unless `strict`).
 * @returns a promise of the run report (backend, adapter, fallback reason, arithmetic)
 */
export function axpy(alpha: number, x: Range<1, any>, y: Range<1, any>, options: GpuBackendOptions): Promise<GpuKernelReport>;
export function axpy(alpha: number, x: Range<1, any>, y: Range<1, any>, options: (KernelOptions & ThreadsOption & { backend?: CpuBackendOption }) | GpuBackendOptions = {}): void | Promise<GpuKernelReport> {
  checkAxpyArguments(alpha, x, y);
  const n = x.length();
  if (chooseKernelBackend('axpy', options) === 'gpu') {
    const call = prepareGpuCall('axpy', [['x', x], ['y', y]], options as GpuBackendOptions, undefined, (ar) => checkAxpyValues(ar, alpha, x, y));
    const cpu = (): void => axpy(alpha, x, y, { arithmetic: call.arithmetic });
    return n === 0 || alpha === 0 ? quickReport(call) : updateOnGpu({ alpha, x, beta: 1, y, out: y, outName: 'y' }, call, cpu);
  }
  const requested = chooseBackend(options);
  options = options as KernelOptions;
  const ar = chooseArithmetic(options.arithmetic, [x, y]);
  // No reduction to order, but the option is validated as every kernel validates it (and as backend 'gpu' does).
  resolveAccumulation(options.accumulation);
  // α = 0 returns at once and reads nothing (as backend 'gpu' does): only values it would read are checked.
  checkAxpyValues(ar, alpha, x, y);
  const cpu = chooseCpuBackend(requested, { kernel: 'axpy', operands: [['x', x, 'read'], ['y', y, 'write']], arithmetic: ar, accumulation: recursiveAccumulation });
  const threads = threadsOf(options, 'axpy');
  // The pool checks the call also where it returns at once: a terminated pool is an error whatever α and n.
  if (threads) checkSplit(threads, 'axpy', { alpha, x, y }, ar, recursiveAccumulation, cpu, requested);
  if (n === 0 || alpha === 0) return;
  if (threads) { runSplit(threads, 'axpy', { alpha, x, y }, ar, recursiveAccumulation, cpu, requested); return; }
  // A chunk whose double-double results are not finite is recomputed by the JavaScript kernel (update-dd-output-wasm.ts).
  const jsChunk = (from: number, count: number): void => axpy(alpha, x.sub(span(from, from + count)), y.sub(span(from, from + count)), { arithmetic: ar, backend: 'js' });
  // A scale per element: read from an unscaled twin (kernels/shared/scale-twin.ts); y is stored through the JavaScript store.
  const twin = (r: typeof x, slot: number): typeof x.accessor => readTwin(r.accessor, n, wasmNumericsOf(ar, recursiveAccumulation), ar.kind === 'dd', slot);
  if (cpu === 'wasm' && runWasm(requested, () => wasmUpdateFor('ax+y', alpha, twin(x, 0), 1, twin(y, 1), y.accessor, n, wasmNumericsOf(ar, recursiveAccumulation), jsChunk))) return;
  const a = ar.register('a');
  const xv = ar.register('xv');
  const yv = ar.register('yv');
  const f = vectorKernel({
    kernel: 'axpy', operands: [['x', x.accessor], ['y', y.accessor]], scalars: ['alpha'], registers: ['a', 'xv', 'yv'], ar,
    prologue: () => ar.emitFromNumber(a, 'alpha'),
    body: (o) => [
      loadVectorElement(o.x!, ar, xv),
      loadVectorElement(o.y!, ar, yv),
      ar.emitFma(yv, a, xv, yv),
      o.y!.emitStore(ar, yv, 'y_p', o.y!.accessor.scale ? 'y_q' : undefined),
    ].join('\n'),
  });
  // An RNS y cannot hold a NaN or ±∞ result: y is put back and the element named (kernels/shared/output-restore.ts).
  restoringOutput(y, 'y', ar, () => f(n, ...operandArgs(x, y), alpha));
}
