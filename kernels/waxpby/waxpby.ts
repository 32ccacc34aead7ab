/**
 * WAXPBY: w := α·x + β·y (the multiple-precision papers' benchmark kernel).
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
import { checkWaxpbyArguments, checkWaxpbyValues } from './waxpby-arguments.js';
import { checkSplit, runSplit, threadsOf, type ThreadsOption } from '../shared/threads-option.js';
import { restoringOutput } from '../shared/output-restore.js';

/**
 * w := α·x + β·y. A zero coefficient means its vector is not read (NaN or Inf there does not leak);
 * with both zero, w is set to zero; with α = 0 alone, w = β·y + 0 (so a −0 product is stored as +0) on every backend. w may be x or y (the same range): each element is read before written.
 * @param alpha - coefficient of x
 * @param x - first input
 * @param beta - coefficient of y
 * @param y - second input
 * @param w - output (writable, same length)
 * @param options - arithmetic (default: the most precise of the operands')
 * @throws {@link ModprecError} `DIMENSION_MISMATCH`, `INVALID_VALUE`, `INVALID_STORAGE` (read-only w, or w overlapping
 *   x or y in memory other than as the same elements);
 *   `INVALID_VALUE` naming `w[i]` for a result that is NaN or ±∞ in an IEEE arithmetic where the output is stored in RNS
 *   (which holds finite values only): known once computed, the output is then put back as it was.
 * @example
 * ```ts
 * import { vector, toArray, waxpby } from 'modprec';
 *
 * const x = vector([1, 2]), y = vector([10, 20]), w = vector(2);
 * waxpby(2, x, -1, y, w);   // w := 2x − y
 * toArray(w); // → Float64Array(2) [ -8, -16 ]
 * ```
 * @group Kernels
 */
export function waxpby(alpha: number, x: Range<1, any>, beta: number, y: Range<1, any>, w: Range<1, any>, options?: KernelOptions & ThreadsOption & { backend?: CpuBackendOption }): void;
/**
 * WAXPBY on the GPU (WebGPU through gpu.js; the CPU backend with a notice where no adapter exists, unless `strict`).
 * @returns a promise of the run report (backend, adapter, fallback reason, arithmetic)
 */
export function waxpby(alpha: number, x: Range<1, any>, beta: number, y: Range<1, any>, w: Range<1, any>, options: GpuBackendOptions): Promise<GpuKernelReport>;
export function waxpby(
  alpha: number, x: Range<1, any>, beta: number, y: Range<1, any>, w: Range<1, any>, options: (KernelOptions & ThreadsOption & { backend?: CpuBackendOption }) | GpuBackendOptions = {},
): void | Promise<GpuKernelReport> {
  checkWaxpbyArguments(alpha, x, beta, y, w);
  const n = x.length();
  if (chooseKernelBackend('waxpby', options) === 'gpu') {
    const call = prepareGpuCall('waxpby', [['x', x], ['y', y], ['w', w]], options as GpuBackendOptions, undefined, (ar) => checkWaxpbyValues(ar, alpha, x, beta, y));
    const cpu = (): void => waxpby(alpha, x, beta, y, w, { arithmetic: call.arithmetic });
    return n === 0 ? quickReport(call) : updateOnGpu({ alpha, x, beta, y, out: w, outName: 'w' }, call, cpu);
  }
  const requested = chooseBackend(options);
  options = options as KernelOptions;
  const ar = chooseArithmetic(options.arithmetic, [x, y, w]);
  // No reduction to order, but the option is validated as every kernel validates it (and as backend 'gpu' does).
  resolveAccumulation(options.accumulation);
  checkWaxpbyValues(ar, alpha, x, beta, y);
  const useX = alpha !== 0;
  const useY = beta !== 0;
  const cpu = chooseCpuBackend(requested, {
    kernel: 'waxpby', arithmetic: ar, accumulation: recursiveAccumulation,
    operands: [...(useX ? [['x', x, 'read'] as const] : []), ...(useY ? [['y', y, 'read'] as const] : []), ['w', w, 'write']],
  });
  const threads = threadsOf(options, 'waxpby');
  // The pool checks the call also where it returns at once (n = 0): the same errors whatever n.
  if (threads) checkSplit(threads, 'waxpby', { alpha, x, beta, y, w }, ar, recursiveAccumulation, cpu, requested);
  if (n === 0) return;
  if (threads) { runSplit(threads, 'waxpby', { alpha, x, beta, y, w }, ar, recursiveAccumulation, cpu, requested); return; }
  const form = useX ? (useY ? 'ax+by' : 'ax') : useY ? 'by+0' : '0';
  // A chunk whose double-double results are not finite is recomputed by the JavaScript kernel (update-dd-output-wasm.ts).
  const jsChunk = (from: number, count: number): void => {
    const s = span(from, from + count);
    waxpby(alpha, x.sub(s), beta, y.sub(s), w.sub(s), { arithmetic: ar, backend: 'js' });
  };
  // A scale per element: read from an unscaled twin (kernels/shared/scale-twin.ts); w is stored through the JavaScript store.
  const twin = (r: typeof x, slot: number): typeof x.accessor => readTwin(r.accessor, n, wasmNumericsOf(ar, recursiveAccumulation), ar.kind === 'dd', slot);
  if (cpu === 'wasm' && runWasm(requested, () => wasmUpdateFor(form, alpha, useX ? twin(x, 0) : null, beta, useY ? twin(y, 1) : null, w.accessor, n, wasmNumericsOf(ar, recursiveAccumulation), jsChunk))) return;
  const [a, b, xv, yv, t] = ['a', 'b', 'xv', 'yv', 't'].map((r) => ar.register(r)) as [any, any, any, any, any];
  const f = vectorKernel({
    kernel: 'waxpby', variant: { useX, useY },
    operands: [['x', x.accessor], ['y', y.accessor], ['w', w.accessor]], scalars: ['alpha', 'beta'],
    registers: ['a', 'b', 'xv', 'yv', 't'], ar,
    prologue: () => `${ar.emitFromNumber(a, 'alpha')} ${ar.emitFromNumber(b, 'beta')}`,
    body: (o) => [
      useX && useY && ar.emitMulAdd2
        ? `${loadVectorElement(o.x!, ar, xv)} ${loadVectorElement(o.y!, ar, yv)} ${ar.emitMulAdd2(t, a, xv, b, yv)}`
        : [
          useX ? `${loadVectorElement(o.x!, ar, xv)} ${ar.emitMul(t, a, xv)}` : ar.emitFromNumber(t, '0'),
          useY ? `${loadVectorElement(o.y!, ar, yv)} ${ar.emitFma(t, b, yv, t)}` : '',
        ].join('\n'),
      o.w!.emitStore(ar, t, 'w_p', o.w!.accessor.scale ? 'w_q' : undefined),
    ].join('\n'),
  });
  // An RNS w cannot hold a NaN or ±∞ result: w is put back and the element named (kernels/shared/output-restore.ts).
  restoringOutput(w, 'w', ar, () => f(n, ...operandArgs(x, y, w), alpha, beta));
}
