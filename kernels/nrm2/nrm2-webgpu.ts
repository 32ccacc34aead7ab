/**
 * NRM2 on the GPU, as the CPU computes it: ‖x‖₂ = 2^e·√(Σ (x_k·2^−e)²) with 2^e the power of two just below
 * max|x_k|, so no square overflows or underflows harmfully. Pass 1 finds max|x_k| and whether a NaN occurs (a
 * reduction of (max, NaN flag) pairs); the squares pass reads that maximum from the device, picks e from its bits as
 * the CPU kernel does from its value, and sums the scaled squares in the arithmetic (ASUM's and DOT's passes). One
 * submission and one wait: the host reads the maximum and the sum together, checks the NaN flag and the special
 * maxima, takes the square root in the same arithmetic (formats.ff's CPU square root: the same algorithm) and applies
 * 2^e in two exact steps. NaN anywhere gives NaN, ±∞ (and no NaN) +∞, as on the CPU.
 *
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { firstPassThreads, REDUCE_FAN_IN, reduceProgramSpec } from '../dot/dot-webgpu.js';
import { hostNrm2 } from '../../src/backends/webgpu/host-fallback.js';
import { firstPasses, runVectorReduction } from '../../src/backends/webgpu/vector-reduction.js';
import { elementIndex, arrayArgs, getPlan, kernelSource, memo, objectId, readKey, type GpuKernelOptions, type GpuRunInfo } from '../../src/backends/webgpu/kernel-common.js';
import { boundedScratch, getProgram, submitPasses, type BoundArray, type Pass, type PassCache, type Program } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, readWords, readWordsOf, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import type { GpuBuffer } from '../../src/backends/webgpu/webgpu-types.js';
import { throughInterleaved } from '../../src/backends/webgpu/dd-split-device.js';

/**
 * Result of {@link gpuNrm2}: the value (rounded to a double) and the run report.
 * @group GPU
 */
export interface GpuNrm2Result extends GpuRunInfo {
  readonly value: number;
}

/**
 * Sets the NaN flag when `a` (a magnitude) is NaN, from its bits: WGSL lets a compiler assume no NaN occurs, and the
 * NVIDIA driver folds `a != a` to false — NRM2 of (NaN, ∞, …) gave +∞ on an H200 where the CPU gives NaN.
 */
const NAN_FLAG = 'if ((mpBits(a) & 2147483647) > 2139095040) { bad = 1.0; }';

/** Pass 1: per thread, (max |x_k|, 1 if a NaN was seen) over k = t, t + T, …. */
function maxPassSource(arithmetic: GpuArithmetic, x: DeviceArray): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ['n', 'Integer'] as const, ['T', 'Integer'] as const];
  const read = x.format.emitRead('X', elementIndex('X', x, 'k'), 'v', arithmetic);
  const body = ['let m = 0.0;', 'let bad = 0.0;', 'let k = this.thread.x;', 'while (k < n) {', read.code,
    `const a = Math.abs(${arithmetic.head(read.register)});`, 'if (a > m) { m = a; }', NAN_FLAG, 'k = k + T;', '}', 'return [m, bad];'];
  return { source: kernelSource(args, body), args };
}

/** Further passes: the (max, flag) pairs P[2i], P[2i + 1] of i = t, t + T, … < count. */
function maxReduceSource(): { source: string; args: [string, 'Array' | 'Integer'][] } {
  const args: [string, 'Array' | 'Integer'][] = [['P', 'Array'], ['count', 'Integer'], ['T', 'Integer']];
  const body = ['let m = 0.0;', 'let bad = 0.0;', 'let i = this.thread.x;', 'while (i < count) {', 'const a = P[2 * i];', 'const b = P[2 * i + 1];',
    'if (a > m) { m = a; }', 'if (b > bad) { bad = b; }', NAN_FLAG, 'i = i + T;', '}', 'return [m, bad];'];
  return { source: kernelSource(args, body), args };
}

/**
 * Source declaring the integers `h1`, `h2` (h1 + h2 = −e) of the maximum `M[0]` (an f32): e = ⌊log₂ max⌋ from its bits
 * — the exponent field of a normal, 31 − clz − 149 of a subnormal — and h1 = trunc(−e/2) as the host computes it (i32
 * division truncates). A zero, infinite or NaN maximum takes e = 0: the host returns without reading the sum then.
 */
function exponentSplitSource(): string {
  return `const mb = mpBits(M[0]);
const field = (mb >> 23) & 255;
let e = field - 127;
if (field === 0) { e = 31 - mpClz(mb) - 149; }
if (mb === 0 || field === 255) { e = 0; }
const h1 = mpIdiv(0 - e, 2);
const h2 = 0 - e - h1;`;
}

/**
 * Pass 2: per thread, Σ (x_k·s1·s2)² in the arithmetic, s1 = 2^h1 and s2 = 2^h2 exact powers of two: from the
 * device's maximum (argument `M`, {@link exponentSplitSource}; h1, h2 ∈ [−64, 75], normal binary32 powers) or, for an
 * arithmetic whose exponent range holds every square, 1 and 1 (`unscaled`).
 */
function squaresPassSource(arithmetic: GpuArithmetic, x: DeviceArray, unscaled: boolean): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ['n', 'Integer'] as const, ['T', 'Integer'] as const, ...(unscaled ? [] : [['M', 'Array'] as const])];
  const read = x.format.emitRead('X', elementIndex('X', x, 'k'), 'v', arithmetic);
  const scales = unscaled ? ['const s1 = 1.0;', 'const s2 = 1.0;'] : [exponentSplitSource(), 'const s1 = mpFloat((h1 + 127) << 23);', 'const s2 = mpFloat((h2 + 127) << 23);'];
  const body = [...scales, arithmetic.declareZero('acc'), 'let k = this.thread.x;', 'while (k < n) {', read.code,
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

/**
 * The first passes (one per binding window of x) and the reduction passes of one reduction, recorded but not
 * submitted; the last partial (the result) is in the returned buffer.
 */
function reducePasses(runtime: GpuRuntime, key: string, program: Program, x: DeviceArray, extra: { arrays?: Record<string, BoundArray> }, reducer: Program, components: number): { passes: { pass: Pass; cache: PassCache }[]; result: GpuBuffer } {
  const context = runtime.context;
  const firsts = firstPasses(x, firstPassThreads(x.length), components);
  const counts = reduceCounts(firsts.count);
  const plan = getPlan(runtime, `${key}|${firsts.windows}`, firsts.windows + counts.length - 1, () => counts.map((t) => boundedScratch(createWordBuffer(context, t * components))));
  const passes: { pass: Pass; cache: PassCache }[] = [];
  for (let k = 0; k < firsts.windows; k++) {
    const first = firsts.pass(k, plan.scratch[0]!);
    passes.push({ pass: { program, ...first, arrays: { ...first.arrays, ...extra.arrays }, threads: firsts.count / firsts.windows }, cache: plan.passes[k]! });
  }
  for (let s = 1; s < counts.length; s++) {
    passes.push({ pass: { program: reducer, arrays: { P: { buffer: plan.scratch[s - 1]! } }, scalars: { count: counts[s - 1]!, T: counts[s]! }, output: { buffer: plan.scratch[s]! }, threads: counts[s]! }, cache: plan.passes[firsts.windows + s - 1]! });
  }
  return { passes, result: plan.scratch[counts.length - 1]! };
}

/** The exponent e of the CPU kernel: max·2^-e in [1, 2). */
function scaleExponent(max: number): number {
  let e = Math.floor(Math.log2(max));
  if (max * 2 ** -e >= 2) e++;
  if (max * 2 ** -e < 1) e--;
  return e;
}

async function nrm2OnDevice(runtime: GpuRuntime, x: DeviceArray, given: GpuArithmetic): Promise<number> {
  const context = runtime.context;
  const c = given.components;
  const unscaled = given.squaresInRange === true;
  // dd keeps binary64's range per operation; its unscaled squares need the register's whole range.
  const arithmetic = unscaled ? (given.squaresVariant?.() ?? given) : given;
  const sqSpec = memo(`nrm2sq|${arithmetic.name}|${readKey(x)}|${unscaled ? 'unscaled' : 'device-max'}`, () => squaresPassSource(arithmetic, x, unscaled));
  const sqProgram = await getProgram(context, { source: sqSpec.source, args: sqSpec.args, components: c });
  const sum = memo(`dotr|${arithmetic.name}`, () => reduceProgramSpec(arithmetic));
  const sumReducer = await getProgram(context, { source: sum.source, args: sum.args, components: c });
  const sqKey = `nrm2sq|${objectId(x)}|${x.length}|${arithmetic.name}`;
  // An arithmetic whose exponent range holds every square (dd) sums them unscaled: no max pass.
  if (unscaled) {
    const squares = reducePasses(runtime, sqKey, sqProgram, x, {}, sumReducer, c);
    submitPasses(context, squares.passes);
    return arithmetic.sqrtOfWords(await readWords(context, squares.result, c));
  }
  const maxSpec = memo(`nrm2max|${arithmetic.name}|${readKey(x)}`, () => maxPassSource(arithmetic, x));
  const maxProgram = await getProgram(context, { source: maxSpec.source, args: maxSpec.args, components: 2 });
  const maxReduce = memo('nrm2maxr', maxReduceSource);
  const maxReducer = await getProgram(context, { source: maxReduce.source, args: maxReduce.args, components: 2 });
  const max = reducePasses(runtime, `nrm2max|${objectId(x)}|${x.length}|${arithmetic.name}`, maxProgram, x, {}, maxReducer, 2);
  const squares = reducePasses(runtime, sqKey, sqProgram, x, { arrays: { M: { buffer: max.result } } }, sumReducer, c);
  submitPasses(context, [...max.passes, ...squares.passes]);
  const [mw, sw] = await readWordsOf(context, [{ buffer: max.result, words: 2 }, { buffer: squares.result, words: c }]);
  const [m, bad] = new Float32Array(mw.buffer, mw.byteOffset, 2);
  if (bad !== 0) return NaN;
  if (m === 0 || !Number.isFinite(m!)) return m!;
  // The device split −e the same way from the same binary32 maximum (its bits; the tests cover subnormal and
  // extreme maxima).
  const e = scaleExponent(m!);
  const root = arithmetic.sqrtOfWords(sw);
  return root * 2 ** (e - Math.trunc(e / 2)) * 2 ** Math.trunc(e / 2);
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
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  return throughInterleaved([x], undefined, (dd) => gpuNrm2Of(dd(x), options));
}

/** gpuNrm2 on operands in the kernels' layouts. */
async function gpuNrm2Of(x: DeviceArray, options: GpuKernelOptions): Promise<GpuNrm2Result> {
  return runVectorReduction(x, options, nrm2OnDevice, hostNrm2, 'gpuNrm2');
}
