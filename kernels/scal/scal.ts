/**
 * SCAL: x := α·x.
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
import { checkScalArguments, checkScalValues } from './scal-arguments.js';
import { checkSplit, runSplit, threadsOf, type ThreadsOption } from '../shared/threads-option.js';
import { restoringOutput } from '../shared/output-restore.js';

/**
 * x := α·x in place. α = 0 sets x to zero without reading it (as LAPACK's convention: NaN in x does not
 * survive a scaling by zero); α = 1 and empty vectors return at once.
 * @throws {@link ModprecError} `INVALID_VALUE`, `INVALID_STORAGE` (read-only x);
 *   `INVALID_VALUE` naming `x[i]` for a result that is NaN or ±∞ in an IEEE arithmetic where the output is stored in RNS
 *   (which holds finite values only): known once computed, the output is then put back as it was.
 * @example
 * ```ts
 * import { vector, toArray, formats, scal } from 'modprec';
 *
 * const x = vector([1, 2, 3], { storage: formats.f16, arithmetic: formats.f32 });
 * scal(0.5, x);
 * toArray(x); // → Float64Array(3) [ 0.5, 1, 1.5 ]
 * ```
 * @group Kernels
 */
export function scal(alpha: number, x: Range<1, any>, options?: KernelOptions & ThreadsOption & { backend?: CpuBackendOption }): void;
/**
 * SCAL on the GPU (WebGPU through gpu.js; the CPU backend with a notice where no adapter exists, unless `strict`).
 * @returns a promise of the run report (backend, adapter, fallback reason, arithmetic)
 */
export function scal(alpha: number, x: Range<1, any>, options: GpuBackendOptions): Promise<GpuKernelReport>;
export function scal(alpha: number, x: Range<1, any>, options: (KernelOptions & ThreadsOption & { backend?: CpuBackendOption }) | GpuBackendOptions = {}): void | Promise<GpuKernelReport> {
  checkScalArguments(alpha, x);
  const n = x.length();
  if (chooseKernelBackend('scal', options) === 'gpu') {
    const call = prepareGpuCall('scal', [['x', x]], options as GpuBackendOptions, undefined, (ar) => checkScalValues(ar, alpha, x));
    const cpu = (): void => scal(alpha, x, { arithmetic: call.arithmetic });
    return n === 0 || alpha === 1 ? quickReport(call) : updateOnGpu({ alpha, x, beta: 0, out: x, outName: 'x' }, call, cpu);
  }
  const requested = chooseBackend(options);
  options = options as KernelOptions;
  const ar = chooseArithmetic(options.arithmetic, [x]);
  // No reduction to order, but the option is validated as every kernel validates it (and as backend 'gpu' does).
  resolveAccumulation(options.accumulation);
  // α = 0 writes zeros and α = 1 returns at once (as backend 'gpu' does): neither reads x, so neither checks it.
  checkScalValues(ar, alpha, x);
  const cpu = chooseCpuBackend(requested, { kernel: 'scal', operands: [['x', x, 'write']], arithmetic: ar, accumulation: recursiveAccumulation });
  const threads = threadsOf(options, 'scal');
  // The pool checks the call also where it returns at once: a terminated pool is an error whatever α and n.
  if (threads) checkSplit(threads, 'scal', { alpha, x }, ar, recursiveAccumulation, cpu, requested);
  if (n === 0 || alpha === 1) return;
  if (threads) { runSplit(threads, 'scal', { alpha, x }, ar, recursiveAccumulation, cpu, requested); return; }
  const zero = alpha === 0;
  // A chunk whose double-double results are not finite is recomputed by the JavaScript kernel (update-dd-output-wasm.ts).
  const jsChunk = (from: number, count: number): void => scal(alpha, x.sub(span(from, from + count)), { arithmetic: ar, backend: 'js' });
  // A scale per element: read from an unscaled twin (kernels/shared/scale-twin.ts); x is stored through the JavaScript store.
  const numerics = wasmNumericsOf(ar, recursiveAccumulation);
  if (cpu === 'wasm' && runWasm(requested, () => wasmUpdateFor(zero ? '0' : 'ax', alpha, zero ? null : readTwin(x.accessor, n, numerics, ar.kind === 'dd'), 0, null, x.accessor, n, numerics, jsChunk))) return;
  const a = ar.register('a');
  const xv = ar.register('xv');
  const f = vectorKernel({
    kernel: 'scal', variant: { zero }, operands: [['x', x.accessor]], scalars: ['alpha'], registers: ['a', 'xv'], ar,
    prologue: () => ar.emitFromNumber(a, 'alpha'),
    body: (o) => [
      zero ? ar.emitFromNumber(xv, '0') : `${loadVectorElement(o.x!, ar, xv)} ${ar.emitMul(xv, a, xv)}`,
      o.x!.emitStore(ar, xv, 'x_p', o.x!.accessor.scale ? 'x_q' : undefined),
    ].join('\n'),
  });
  // An RNS x cannot hold a NaN or ±∞ result: x is put back and the element named (kernels/shared/output-restore.ts).
  restoringOutput(x, 'x', ar, () => f(n, ...operandArgs(x), alpha));
}
