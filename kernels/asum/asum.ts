/**
 * ASUM: Σ|xᵢ|.
 * @module
 */
import { chooseCpuBackend, orderedNumerics, wasmNumericsOf, type CpuBackendOption } from '../shared/cpu-backend.js';
import { runWasm } from '../shared/run-wasm.js';
import { readTwin } from '../shared/scale-twin.js';
import { wasmAsum } from './asum-wasm.js';
import { wasmDdAsum } from './asum-dd-wasm.js';
import { wasmOrderedAsum } from '../shared/ordered-sum-wasm.js';
import type { Range } from '../../src/core/range.js';
import { checkRange, chooseArithmetic, checkReadableIn, type KernelOptions, chooseKernelBackend } from '../shared/kernel-options.js';
import { resolveAccumulationIn } from '../shared/accumulation.js';
import { vectorKernel, operandArgs } from '../../src/backends/cpu/vector-kernel.js';
import { loadVectorElement } from '../../src/backends/cpu/reduction-kernel.js';
import { chooseBackend, prepareGpuCall, asumOnGpu, type GpuBackendOptions } from '../../src/backends/webgpu-bridge/gpu-dispatch.js';
import type { GpuAsumResult } from './asum-webgpu.js';
import { checkSplit, runSplit, threadsOf, type ThreadsOption } from '../shared/threads-option.js';

/**
 * The sum of magnitudes Σ|xᵢ| (the real BLAS ASUM), computed in the chosen arithmetic and accumulation.
 * @returns the sum rounded to a double (0 for an empty vector)
 * @throws {@link ModprecError} `INVALID_OPTION` for a non-range
 * @example
 * ```ts
 * import { vector, asum } from 'modprec';
 *
 * asum(vector([1, -2, 3])); // → 6
 * ```
 * @group Kernels
 */
export function asum(x: Range<1, any>, options?: KernelOptions & ThreadsOption & { backend?: CpuBackendOption }): number;
/**
 * ASUM on the GPU (WebGPU through gpu.js; the CPU backend with a notice where no adapter exists, unless `strict`).
 * @returns a promise of the value and the run report (backend, adapter, fallback reason, arithmetic)
 */
export function asum(x: Range<1, any>, options: GpuBackendOptions): Promise<GpuAsumResult>;
export function asum(x: Range<1, any>, options: (KernelOptions & ThreadsOption & { backend?: CpuBackendOption }) | GpuBackendOptions = {}): number | Promise<GpuAsumResult> {
  checkRange('x', x, 1);
  if (chooseKernelBackend('asum', options) === 'gpu') {
    const call = prepareGpuCall('asum', [['x', x]], options as GpuBackendOptions, undefined, (ar) => checkReadableIn(ar, [['x', x]]));
    return asumOnGpu(x, call, () => asum(x, { arithmetic: call.arithmetic }));
  }
  options = options as KernelOptions;
  const n = x.length();
  const ar = chooseArithmetic(options.arithmetic, [x]);
  // Options, then values (then what a backend cannot run): the order of every backend.
  const acc = resolveAccumulationIn(options.accumulation, ar);
  checkReadableIn(ar, [['x', x]]);
  const requested = chooseBackend(options);
  const cpu = chooseCpuBackend(requested, { kernel: 'asum', operands: [['x', x, 'read']], arithmetic: ar, accumulation: acc });
  const threads = threadsOf(options, 'asum');
  // An empty x is checked with the pool as a split call is (a dd arithmetic or a terminated pool is refused alike).
  if (threads && n === 0) checkSplit(threads, 'asum', { x }, ar, acc, cpu, requested);
  if (threads && n > 0) return runSplit(threads, 'asum', { x }, ar, acc, cpu, requested)!;
  if (n === 0) return 0;
  let result = 0;
  if (cpu === 'wasm') {
    const numerics = wasmNumericsOf(ar, acc), kahan = numerics === 'kahan-f64' || numerics === 'kahan-f32';
    const ordered = orderedNumerics(numerics);
    // A scale per element: the values as the arithmetic reads them, in an unscaled twin (kernels/shared/scale-twin.ts).
    const xa = readTwin(x.accessor, n, numerics, ar.kind === 'dd');
    // pairwise, dot2: the JavaScript loop's bits; a non-finite result is its to answer (kernels/shared/ordered-sum-wasm.ts).
    if (numerics === 'dd') {
      // Eight double-double lanes (kernels/asum/asum-dd-wasm.ts): within asumBound; ±Inf, NaN: the JavaScript's answer.
      let pair: [number, number] = [NaN, NaN];
      if (runWasm(requested, () => { pair = wasmDdAsum(xa, n, ar.kind === 'dd'); }) && Number.isFinite(pair[0] + pair[1])) return pair[0] - (0 - pair[1]);
    } else if (ordered) {
      if (runWasm(requested, () => { result = wasmOrderedAsum(xa, n, ordered.accumulation, ordered.arithmetic); }) && Number.isFinite(result)) return result;
    } else {
    const lanes = numerics === 'f32' || numerics === 'kahan-f32' ? 'f32' : 'f64';
    // A non-finite compensated sum (TwoSum's error NaN) is recomputed by the JavaScript kernel: its special values.
    if (runWasm(requested, () => { result = wasmAsum(xa, n, lanes, kahan); }) && (!kahan || Number.isFinite(result))) return result;
    }
  }
  const xv = ar.register('xv');
  const res = ar.register('res');
  const f = vectorKernel({
    kernel: 'asum', operands: [['x', x.accessor]], scalars: [], registers: ['xv', 'res'], ar, acc,
    body: (o) => `${loadVectorElement(o.x!, ar, xv)} ${ar.emitAbs(xv, xv)} ${acc.emitAdd('s', xv, ar)}`,
    epilogue: () => `${acc.emitResult(res, 's', ar)} return ${ar.emitToNumber(res)};`,
  });
  return f(n, ...operandArgs(x)) as number;
}
