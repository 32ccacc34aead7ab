/**
 * DOT on the GPU: Σ x_k·y_k by a multi-pass reduction in a fixed order. Pass 1 runs T threads, thread t
 * accumulating elements t, t+T, t+2T, … (coalesced); each further pass sums 256 partials per thread; the
 * last runs one thread. T depends only on n, so the result is bit-for-bit the same from run to run.
 *
 * @module
 */
import { checkSize, fail } from '../errors.js';
import type { GpuArithmetic } from './arithmetic.js';
import { cpuDot } from './cpu-fallback.js';
import { bindingWindows, bufferView, DeviceArray, windowOf } from './device-array.js';
import { gpuFormat } from './formats.js';
import { allowFallback, UNROLL, accumulateLoop, arrayArgs, bindArray, memo, readKey, chooseArithmetic, commonRuntime, getPlan, kernelSource, objectId, runInfo, type GpuKernelOptions, type GpuRunInfo } from './kernel-common.js';
import { getProgram, submitPasses, type BoundArray, type Pass, type PassCache } from './program.js';
import { createWordBuffer, type GpuRuntime } from './runtime.js';

/** Result of {@link gpuDot}: the value (float-float read back exactly as a double) and the run report. */
export interface GpuDotResult extends GpuRunInfo {
  readonly value: number;
}

/** Options of {@link gpuDot} and {@link gpuDotResident}. */
export interface GpuDotOptions extends GpuKernelOptions {
  /**
   * Most threads of the first pass (default 2^17); each takes at least 64 elements. The result depends on
   * it (it fixes the summation order), so keep it fixed where runs must agree bit for bit.
   */
  readonly maxThreads?: number;
}

/** Threads of the first pass for n elements (≥ 64 elements per thread, at most `maxThreads`, default 2^17). */
export function firstPassThreads(n: number, maxThreads = 2 ** 17): number {
  return Math.max(1, Math.min(maxThreads, Math.ceil(n / 64)));
}

function reducePlan(count: number): number[] {
  const sizes: number[] = [];
  while (count > 1) {
    count = count <= 256 ? 1 : Math.ceil(count / 256);
    sizes.push(count);
  }
  return sizes;
}

function partialProgramSource(arithmetic: GpuArithmetic, x: DeviceArray, y: DeviceArray): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ...arrayArgs('Y', y), ['n', 'Integer'] as const, ['T', 'Integer'] as const];
  const body = [
    arithmetic.declareZero('acc'),
    ...accumulateLoop(arithmetic, { start: 'this.thread.x', end: 'n', step: 'T' }, UNROLL, (index, suffix) => {
      const rx = x.format.emitRead('X', index, `a${suffix}`, arithmetic);
      const ry = y.format.emitRead('Y', index, `b${suffix}`, arithmetic);
      return { code: `${rx.code} ${ry.code}`, a: rx.register, b: ry.register };
    }),
    `return ${arithmetic.returnValue('acc')};`,
  ];
  return { source: kernelSource(args, body), args };
}

/**
 * The source of a pass summing `count` partials, thread t taking t, t+T, … (in `arithmetic`).
 * @param arithmetic - the arithmetic
 * @returns source and arguments
 */
export function reduceProgramSpec(arithmetic: GpuArithmetic): { source: string; args: [string, 'Array' | 'Integer'][] } {
  const args: [string, 'Array' | 'Integer'][] = [['P', 'Array'], ['count', 'Integer'], ['T', 'Integer']];
  const read = gpuFormat(arithmetic.name === 'ff' ? 'ff' : 'f32').emitRead('P', 'k', 'p', arithmetic);
  const body = [arithmetic.declareZero('acc'), 'for (let k = this.thread.x; k < count; k = k + T) {', read.code, arithmetic.add('acc', read.register), '}', `return ${arithmetic.returnValue('acc')};`];
  return { source: kernelSource(args, body), args };
}

/**
 * Records the DOT passes; the result (one element in `ff` or `f32` format) is the plan's last buffer.
 * @returns the result buffer holder
 */
async function dotOnDevice(runtime: GpuRuntime, x: DeviceArray, y: DeviceArray, arithmetic: GpuArithmetic, maxThreads: number): Promise<DeviceArray> {
  const n = x.length;
  const context = runtime.context;
  const c = arithmetic.components;
  // Arrays over one storage binding are read through windows, each summed by its own first pass.
  const windows = bindingWindows([x, y], n);
  const perWindow = windows.length === 1 ? firstPassThreads(n, maxThreads) : Math.ceil(firstPassThreads(n, maxThreads) / 64) * 64;
  const first = perWindow * windows.length;
  const sizes = reducePlan(first);
  const counts = [first, ...sizes];
  const key = `dot|${objectId(x)}|${objectId(y)}|${n}|${arithmetic.name}|${maxThreads}`;
  const plan = getPlan(runtime, key, windows.length + sizes.length, () => counts.map((t) => createWordBuffer(context, t * c)));
  const partial = memo(`dot1|${arithmetic.name}|${readKey(x)}|${readKey(y)}`, () => partialProgramSource(arithmetic, x, y));
  const p1 = await getProgram(context, { source: partial.source, args: partial.args, components: c });
  const reduce = memo(`dotr|${arithmetic.name}`, () => reduceProgramSpec(arithmetic));
  const pr = await getProgram(context, { source: reduce.source, args: reduce.args, components: c });
  const passes: { pass: Pass; cache: PassCache }[] = [];
  windows.forEach((w, k) => {
    const arrays: Record<string, BoundArray> = {};
    const scalars: Record<string, number> = { n: w.count, T: perWindow };
    bindArray('X', x, arrays, scalars);
    bindArray('Y', y, arrays, scalars);
    if (windows.length > 1) {
      arrays.X = windowOf(x, w);
      arrays.Y = windowOf(y, w);
    }
    const output = windows.length > 1 ? { buffer: plan.scratch[0]!, offset: k * perWindow * c * 4, size: perWindow * c * 4 } : { buffer: plan.scratch[0]! };
    passes.push({ pass: { program: p1, arrays, scalars, output, threads: perWindow }, cache: plan.passes[k]! });
  });
  for (let s = 1; s < counts.length; s++) {
    passes.push({
      pass: { program: pr, arrays: { P: { buffer: plan.scratch[s - 1]! } }, scalars: { count: counts[s - 1]!, T: counts[s]! }, output: { buffer: plan.scratch[s]! }, threads: counts[s]! },
      cache: plan.passes[windows.length + s - 1]!,
    });
  }
  submitPasses(context, passes);
  // A view of the plan's last buffer as a one-element array (not owned: do not destroy).
  return bufferView(runtime, plan.scratch[counts.length - 1]!, gpuFormat(c === 2 ? 'ff' : 'f32'), 1);
}

/** The first-pass thread limit of `options` (default 2^17). @throws {@link ModprecError} `INVALID_SIZE` unless a positive integer */
function maxThreadsOf(options: GpuDotOptions): number {
  const t = checkSize('options.maxThreads', options.maxThreads ?? 2 ** 17);
  if (t < 1) fail('INVALID_SIZE', 'options.maxThreads', 'must be at least 1', t);
  return t;
}

function validate(x: DeviceArray, y: DeviceArray): void {
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  if (!(y instanceof DeviceArray)) fail('INVALID_STORAGE', 'y', 'must be a DeviceArray (see toDevice)', y);
  if (x.length !== y.length) fail('DIMENSION_MISMATCH', 'y', `must have the length of x (${x.length})`, y.length);
}

/**
 * Dot product of two resident arrays on the GPU (the CPU when they are host-resident).
 *
 * @param x - first operand
 * @param y - second operand, same length
 * @param options - arithmetic (`f32` or `ff`), first-pass threads
 * @returns the value and which backend/adapter ran it
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` for different lengths; `INVALID_STORAGE` for non-resident or mixed operands
 * @example
 * ```ts
 * const x = await toDevice(data, { format: 'f32' });
 * const { value, adapter } = await gpuDot(x, x, { arithmetic: 'ff' });
 * ```
 */
export async function gpuDot(x: DeviceArray, y: DeviceArray, options: GpuDotOptions = {}): Promise<GpuDotResult> {
  validate(x, y);
  const maxThreads = maxThreadsOf(options);
  const arithmetic = chooseArithmetic(options, [x, y]);
  const runtime = commonRuntime({ x, y });
  if (!runtime) {
    allowFallback(options, x.fallbackReason);
    const value = cpuDot(await x.toHost(), await y.toHost(), arithmetic);
    return { value, ...runInfo(undefined, arithmetic, x.fallbackReason) };
  }
  const result = await dotOnDevice(runtime, x, y, arithmetic, maxThreads);
  const [value] = await result.toHost();
  return { value: value!, ...runInfo(runtime, arithmetic, '') };
}

/**
 * Dot product left on the device (no read back): for chaining and for timing many resident runs.
 * The returned one-element array is overwritten by the next call with the same operands.
 * @param x - first operand
 * @param y - second operand
 * @param options - arithmetic
 * @returns the one-element result array and the run report
 * @throws {@link ModprecError} as {@link gpuDot}; `BACKEND_UNAVAILABLE` for host-resident operands
 */
export async function gpuDotResident(x: DeviceArray, y: DeviceArray, options: GpuDotOptions = {}): Promise<{ result: DeviceArray; info: GpuRunInfo }> {
  validate(x, y);
  const maxThreads = maxThreadsOf(options);
  const arithmetic = chooseArithmetic(options, [x, y]);
  const runtime = commonRuntime({ x, y });
  if (!runtime) fail('BACKEND_UNAVAILABLE', 'x', 'must live on a GPU for a resident result');
  return { result: await dotOnDevice(runtime, x, y, arithmetic, maxThreads), info: runInfo(runtime, arithmetic, '') };
}
