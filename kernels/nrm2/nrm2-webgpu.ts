/**
 * NRM2 on the GPU, as the CPU computes it: ‖x‖₂ = 2^e·√(Σ (x_k·2^−e)²) with 2^e the power of two just below
 * max|x_k|, so no square overflows or underflows harmfully. Pass 1 finds max|x_k| and whether a NaN occurs (a
 * reduction of (max, NaN flag) pairs); the host reads those two numbers, picks e as the CPU kernel does, and a
 * second reduction sums the scaled squares in the arithmetic (ASUM's and DOT's passes); the square root is taken in
 * the same arithmetic on the host (formats.ff's CPU square root: the same algorithm), then 2^e is applied in two
 * exact steps. NaN anywhere gives NaN, ±∞ (and no NaN) +∞, as on the CPU.
 *
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { firstPassThreads, REDUCE_FAN_IN, reduceProgramSpec } from '../dot/dot-webgpu.js';
import { hostNrm2 } from '../../src/backends/webgpu/host-fallback.js';
import { firstPasses, runVectorReduction } from '../../src/backends/webgpu/vector-reduction.js';
import { elementIndex, arrayArgs, getPlan, kernelSource, memo, objectId, readKey, type GpuKernelOptions, type GpuRunInfo } from '../../src/backends/webgpu/kernel-common.js';
import { boundedScratch, getProgram, submitPasses, type Pass, type PassCache, type Program } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, readWords, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';

/**
 * Result of {@link gpuNrm2}: the value (rounded to a double) and the run report.
 * @group GPU
 */
export interface GpuNrm2Result extends GpuRunInfo {
  readonly value: number;
}

/** Pass 1: per thread, (max |x_k|, 1 if a NaN was seen) over k = t, t + T, …. */
function maxPassSource(arithmetic: GpuArithmetic, x: DeviceArray): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ['n', 'Integer'] as const, ['T', 'Integer'] as const];
  const read = x.format.emitRead('X', elementIndex('X', x, 'k'), 'v', arithmetic);
  const body = ['let m = 0.0;', 'let bad = 0.0;', 'let k = this.thread.x;', 'while (k < n) {', read.code,
    `const a = Math.abs(${arithmetic.head(read.register)});`, 'if (a > m) { m = a; }', 'if (a !== a) { bad = 1.0; }', 'k = k + T;', '}', 'return [m, bad];'];
  return { source: kernelSource(args, body), args };
}

/** Further passes: the (max, flag) pairs P[2i], P[2i + 1] of i = t, t + T, … < count. */
function maxReduceSource(): { source: string; args: [string, 'Array' | 'Integer'][] } {
  const args: [string, 'Array' | 'Integer'][] = [['P', 'Array'], ['count', 'Integer'], ['T', 'Integer']];
  const body = ['let m = 0.0;', 'let bad = 0.0;', 'let i = this.thread.x;', 'while (i < count) {', 'const a = P[2 * i];', 'const b = P[2 * i + 1];',
    'if (a > m) { m = a; }', 'if (b > bad) { bad = b; }', 'if (a !== a) { bad = 1.0; }', 'i = i + T;', '}', 'return [m, bad];'];
  return { source: kernelSource(args, body), args };
}

/** Pass 2: per thread, Σ (x_k·s1·s2)² in the arithmetic (s1, s2 exact powers of two). */
function squaresPassSource(arithmetic: GpuArithmetic, x: DeviceArray): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ['n', 'Integer'] as const, ['T', 'Integer'] as const, ['s1', 'Float'] as const, ['s2', 'Float'] as const];
  const read = x.format.emitRead('X', elementIndex('X', x, 'k'), 'v', arithmetic);
  const body = [arithmetic.declareZero('acc'), 'let k = this.thread.x;', 'while (k < n) {', read.code,
    arithmetic.declareMul('w1', read.register, { kind: 'f32', name: 's1' }),
    arithmetic.declareMul('w2', arithmetic.register('w1'), { kind: 'f32', name: 's2' }),
    arithmetic.mulAdd('acc', arithmetic.register('w2'), arithmetic.register('w2')),
    'k = k + T;', '}', `return ${arithmetic.returnValue('acc')};`];
  return { source: kernelSource(args, body), args };
}

/** Thread counts of a reduction of `first` partials down to one. */
function reduceCounts(first: number): number[] {
  const counts = [first];
  while (counts[counts.length - 1]! > 1) counts.push(counts[counts.length - 1]! <= REDUCE_FAN_IN ? 1 : Math.ceil(counts[counts.length - 1]! / REDUCE_FAN_IN));
  return counts;
}

/** Runs the first passes (one per binding window of x) and the reduction passes; returns the words of the last partial. */
async function reduce(runtime: GpuRuntime, key: string, program: Program, x: DeviceArray, extra: Record<string, number>, reducer: Program, components: number): Promise<Uint32Array> {
  const context = runtime.context;
  const firsts = firstPasses(x, firstPassThreads(x.length), components);
  const counts = reduceCounts(firsts.count);
  const plan = getPlan(runtime, `${key}|${firsts.windows}`, firsts.windows + counts.length - 1, () => counts.map((t) => boundedScratch(createWordBuffer(context, t * components))));
  const passes: { pass: Pass; cache: PassCache }[] = [];
  for (let k = 0; k < firsts.windows; k++) passes.push({ pass: { program, ...firsts.pass(k, plan.scratch[0]!, extra), threads: firsts.count / firsts.windows }, cache: plan.passes[k]! });
  for (let s = 1; s < counts.length; s++) {
    passes.push({ pass: { program: reducer, arrays: { P: { buffer: plan.scratch[s - 1]! } }, scalars: { count: counts[s - 1]!, T: counts[s]! }, output: { buffer: plan.scratch[s]! }, threads: counts[s]! }, cache: plan.passes[firsts.windows + s - 1]! });
  }
  submitPasses(context, passes);
  return readWords(context, plan.scratch[counts.length - 1]!, components);
}

/** The exponent e of the CPU kernel: max·2^-e in [1, 2). */
function scaleExponent(max: number): number {
  let e = Math.floor(Math.log2(max));
  if (max * 2 ** -e >= 2) e++;
  if (max * 2 ** -e < 1) e--;
  return e;
}

async function nrm2OnDevice(runtime: GpuRuntime, x: DeviceArray, arithmetic: GpuArithmetic): Promise<number> {
  const context = runtime.context;
  // An arithmetic whose exponent range holds every square (dd) sums them unscaled: no max pass.
  if (arithmetic.squaresInRange) return arithmetic.sqrtOfWords(await squares(runtime, x, arithmetic, { s1: 1, s2: 1 }));
  const maxSpec = memo(`nrm2max|${arithmetic.name}|${readKey(x)}`, () => maxPassSource(arithmetic, x));
  const maxProgram = await getProgram(context, { source: maxSpec.source, args: maxSpec.args, components: 2 });
  const maxReduce = memo('nrm2maxr', maxReduceSource);
  const maxReducer = await getProgram(context, { source: maxReduce.source, args: maxReduce.args, components: 2 });
  const mw = await reduce(runtime, `nrm2max|${objectId(x)}|${x.length}|${arithmetic.name}`, maxProgram, x, {}, maxReducer, 2);
  const [max, bad] = new Float32Array(mw.buffer, mw.byteOffset, 2);
  if (bad !== 0) return NaN;
  if (max === 0 || !Number.isFinite(max!)) return max!;
  const e = scaleExponent(max!);
  const h1 = Math.trunc(-e / 2);
  const root = arithmetic.sqrtOfWords(await squares(runtime, x, arithmetic, { s1: 2 ** h1, s2: 2 ** (-e - h1) }));
  return root * 2 ** (e - Math.trunc(e / 2)) * 2 ** Math.trunc(e / 2);
}

/** Pass 2 and its reduction: the words of Σ (x_k·s1·s2)². */
async function squares(runtime: GpuRuntime, x: DeviceArray, arithmetic: GpuArithmetic, scales: { s1: number; s2: number }): Promise<Uint32Array> {
  const context = runtime.context;
  const c = arithmetic.components;
  const sqSpec = memo(`nrm2sq|${arithmetic.name}|${readKey(x)}`, () => squaresPassSource(arithmetic, x));
  const sqProgram = await getProgram(context, { source: sqSpec.source, args: sqSpec.args, components: c });
  const sum = memo(`dotr|${arithmetic.name}`, () => reduceProgramSpec(arithmetic));
  const sumReducer = await getProgram(context, { source: sum.source, args: sum.args, components: c });
  return reduce(runtime, `nrm2sq|${objectId(x)}|${x.length}|${arithmetic.name}`, sqProgram, x, scales, sumReducer, c);
}

/**
 * ‖x‖₂ of a resident array on the GPU (on the CPU backend for a host-resident one), safe from overflow and
 * underflow as the CPU kernel: NaN anywhere gives NaN, ±∞ (and no NaN) +∞.
 *
 * @param x - the array (or a strided view)
 * @param options - arithmetic (`formats.f32` / `formats.ff` or their names)
 * @returns the value and which backend ran it
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` for a non-resident or destroyed operand
 * @example
 * ```ts
 * import { toDevice, gpuNrm2 } from 'modprec/gpu';
 *
 * const { value } = await gpuNrm2(await toDevice([3, 4]), { arithmetic: 'ff' });
 * value; // → 5
 * ```
 * @group GPU
 */
export async function gpuNrm2(x: DeviceArray, options: GpuKernelOptions = {}): Promise<GpuNrm2Result> {
  return runVectorReduction(x, options, nrm2OnDevice, hostNrm2);
}
