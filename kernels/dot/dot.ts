/**
 * DOT: xᵀy through any accessors, in any arithmetic, with any accumulation.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { chooseArithmetic, checkReadableIn, type KernelOptions, chooseKernelBackend } from '../shared/kernel-options.js';
import { resolveAccumulationIn } from '../shared/accumulation.js';
import { dotProgram } from './dot-cpu.js';
import { primeOnce } from '../../src/backends/cpu/prime.js';
import { dotOnGpu, chooseBackend, prepareGpuCall, type GpuBackendOptions } from '../../src/backends/webgpu-bridge/gpu-dispatch.js';
import type { GpuDotResult } from './dot-webgpu.js';
import { chooseCpuBackend, orderedNumerics, wasmNumericsOf, type CpuBackendOption } from '../shared/cpu-backend.js';
import { runWasm } from '../shared/run-wasm.js';
import { readTwin } from '../shared/scale-twin.js';
import { wasmDot } from './dot-wasm.js';
import { wasmDdDot } from './dot-dd-wasm.js';
import { wasmKahanDot } from './dot-kahan-wasm.js';
import { wasmOrderedDot } from '../shared/ordered-sum-wasm.js';
import { checkDotGpuInto, checkDotInto, checkDotOperands, checkDotThreadsInto } from './dot-arguments.js';
import { dotIntoStore } from './dot-into-cpu.js';
import { runSplit, threadsOf, type ThreadsOption } from '../shared/threads-option.js';
import { restoringOutput } from '../shared/output-restore.js';

/**
 * Options of {@link dot}.
 * @group Kernels
 */
export interface DotOptions extends KernelOptions, ThreadsOption {
  /**
   * A 1-element range that receives the result in full arithmetic precision (rounded to its storage):
   * e.g. a double-double range to keep all of a double-double DOT.
   */
  into?: Range<1, any>;
}

/**
 * The dot product Σ xᵢyᵢ, read through each operand's accessor and computed in the chosen arithmetic.
 * An empty pair returns 0 at once.
 * @param x - first vector (any storage, any stride)
 * @param y - second vector, same length
 * @param options - arithmetic (default: the most precise of the operands'), accumulation, `into`;
 *   `backend: 'gpu'` runs it on WebGPU (see the overload)
 * @returns the result rounded to the nearest double
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` when lengths differ; `INVALID_OPTION` for non-ranges;
 *   `INVALID_STORAGE` when `into` overlaps x or y in memory (x and y may share anything: both are only read);
 *   `INVALID_VALUE` naming `options.into[0]` for a NaN or ±∞ result in an IEEE arithmetic where `into` is stored in RNS
 *   (which holds finite values only: known once computed, `into` is then left as it was)
 * @example
 * ```ts
 * import { vector, formats, dot } from 'modprec';
 *
 * const x = vector([1, 2, 3], { storage: formats.f32, arithmetic: formats.f64 });
 * dot(x, x); // 14
 * ```
 * @group Kernels
 */
export function dot(x: Range<1, any>, y: Range<1, any>, options?: DotOptions & { backend?: CpuBackendOption }): number;
/**
 * DOT on the GPU (WebGPU through gpu.js; CPU fallback with a notice where no adapter exists, unless `strict`).
 * @returns a promise of the value and the run report (backend, adapter, fallback reason, arithmetic)
 */
export function dot(x: Range<1, any>, y: Range<1, any>, options: GpuBackendOptions): Promise<GpuDotResult>;
export function dot(x: Range<1, any>, y: Range<1, any>, options: (DotOptions & { backend?: CpuBackendOption }) | GpuBackendOptions = {}): number | Promise<GpuDotResult> {
  checkDotOperands(x, y);
  const requested = chooseKernelBackend('dot', options);
  const into = checkDotInto(x, y, (options as DotOptions).into);
  if (requested === 'gpu') {
    // The GPU's float-float (or binary32) result is rounded into the storage once (on the device where the storage
    // has a writable GPU part; scaled ranges by the CPU's scaled store); multiple-precision storage has no such write.
    const call = prepareGpuCall('dot', [['x', x], ['y', y]], options as GpuBackendOptions, undefined, (ar) => checkReadableIn(ar, [['x', x], ['y', y]]));
    checkDotGpuInto(into, call);
    return dotOnGpu(x, y, call, () => dot(x, y, { arithmetic: call.arithmetic, into }), into);
  }
  options = options as DotOptions;
  const ar = chooseArithmetic(options.arithmetic, [x, y]);
  // Options, then values (then what a backend cannot run): the order of every backend.
  const acc = resolveAccumulationIn(options.accumulation, ar);
  checkReadableIn(ar, [['x', x], ['y', y]]);
  const n = x.length();
  const cpu = chooseCpuBackend(requested, {
    kernel: 'dot', operands: [['x', x, 'read'], ['y', y, 'read']], arithmetic: ar, accumulation: acc,
  });
  const threads = threadsOf(options, 'dot');
  checkDotThreadsInto(into, threads);
  if (threads) {
    return runSplit(threads, 'dot', { x, y }, ar, acc, cpu, requested)!;
  }
  let result = 0;
  const numerics = cpu === 'wasm' ? wasmNumericsOf(ar, acc) : undefined;
  // `into` takes the WebAssembly's result through the JavaScript DOT's own store (dot-into-cpu.ts), and the
  // kernel returns that register's double; a result left to the JavaScript kernel below is stored by it.
  // An RNS `into` cannot hold a NaN or ±∞ result, a user's storage may refuse one: named `options.into[0]`, `into`
  // left as it was (kernels/shared/output-restore.ts).
  const storing = <T>(run: () => T): T => (into ? restoringOutput(into, 'options.into', ar, run) : run());
  const finish = (hi: number, lo: number, pair: boolean): number => (into ? storing(() => dotIntoStore(into.accessor, ar, pair)(hi, lo, ...Operand.args(into.accessor))) : pair ? hi + lo : hi);
  const ordered = orderedNumerics(numerics);
  // A scale per element: the values as the arithmetic reads them, in an unscaled twin (kernels/shared/scale-twin.ts).
  const [xa, ya] = numerics === undefined ? [x.accessor, y.accessor] : [readTwin(x.accessor, n, numerics, ar.kind === 'dd'), readTwin(y.accessor, n, numerics, ar.kind === 'dd', 1)];
  if (ordered) {
    // pairwise, dot2: the JavaScript loop's bits; a non-finite result is its to answer (kernels/shared/ordered-sum-wasm.ts).
    if (runWasm(requested, () => { result = wasmOrderedDot(xa, ya, n, ordered.accumulation, ordered.arithmetic); }) && Number.isFinite(result)) return finish(result, 0, false);
  } else if (numerics === 'kahan-f64' || numerics === 'kahan-f32') {
    // A non-finite compensated sum (TwoSum's error of ∞ is NaN) is the JavaScript kernel's to answer (dot-kahan-wasm.ts).
    if (runWasm(requested, () => { result = wasmKahanDot(xa, ya, n, numerics === 'kahan-f32' ? 'f32' : 'f64'); }) && Number.isFinite(result)) return finish(result, 0, false);
  } else if (numerics === 'dd') {
    // A non-finite double-double sum (non-finite inputs, or a splitting overflow near the top of the range) is
    // recomputed by the guarded JavaScript loop, which handles both (kernels/dot/dot-dd-wasm.ts).
    let pair = [0, 0];
    if (runWasm(requested, () => { pair = wasmDdDot(xa, ya, n, ar.kind === 'dd'); result = pair[0]! + pair[1]!; }) && Number.isFinite(result)) return finish(pair[0]!, pair[1]!, true);
  } else if (cpu === 'wasm' && runWasm(requested, () => { result = wasmDot(xa, ya, n, wasmNumericsOf(ar, acc) === 'f32' ? 'f32' : 'f64'); })) return finish(result, 0, false);
  const f = dotProgram(x.accessor, y.accessor, into?.accessor, ar, acc);
  const args = [...Operand.args(x.accessor), ...Operand.args(y.accessor), ...(into ? Operand.args(into.accessor) : [])];
  // A cold kernel's first long run would leave V8 in a deoptimisation loop (src/backends/cpu/prime.ts); DOT has no
  // side effect but `into`, which the full run overwrites.
  return storing(() => {
    primeOnce(f, n, (k) => f(k, ...args));
    return f(n, ...args);
  });
}
