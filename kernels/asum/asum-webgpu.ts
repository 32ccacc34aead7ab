/**
 * ASUM on the GPU: Σ|x_k| by a multi-pass reduction in a fixed order — a first pass of T threads (thread t
 * summing |x_k| for k = t, t + T, …, eight loads in flight), then DOT's reduction passes over the partials.
 * T depends only on n, so the result is the same from run to run.
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { firstPassThreads, REDUCE_FAN_IN, reduceProgramSpec } from '../dot/dot-webgpu.js';
import { hostAsum } from '../../src/backends/webgpu/host-fallback.js';
import { firstPasses, runVectorReduction } from '../../src/backends/webgpu/vector-reduction.js';
import { elementIndex, arrayArgs, getPlan, kernelSource, memo, objectId, readKey, UNROLL, type GpuKernelOptions, type GpuRunInfo } from '../../src/backends/webgpu/kernel-common.js';
import { boundedScratch, getProgram, submitPasses, type Pass, type PassCache } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, readWords, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { throughInterleaved } from '../../src/backends/webgpu/dd-split-device.js';

/**
 * Result of {@link gpuAsum}: the value (rounded to a double) and the run report.
 * @group GPU
 */
export interface GpuAsumResult extends GpuRunInfo {
  readonly value: number;
}

function firstPassSource(arithmetic: GpuArithmetic, x: DeviceArray): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('X', x), ['n', 'Integer'] as const, ['T', 'Integer'] as const];
  const body = [arithmetic.declareZero('acc'), 'let k = this.thread.x;', `while (k + ${UNROLL - 1} * T < n) {`];
  const regs: GpuRegister[] = [];
  for (let q = 0; q < UNROLL; q++) {
    const read = x.format.emitRead('X', elementIndex('X', x, `k + ${q} * T`), `a${q}`, arithmetic);
    const abs = arithmetic.declareAbs(`b${q}`, read.register);
    body.push(read.code, abs.code);
    regs.push(abs.register);
  }
  regs.forEach((r) => body.push(arithmetic.add('acc', r)));
  const tail = x.format.emitRead('X', elementIndex('X', x, 'k'), 'at', arithmetic);
  const tailAbs = arithmetic.declareAbs('bt', tail.register);
  body.push(`k = k + ${UNROLL} * T;`, '}', 'while (k < n) {', tail.code, tailAbs.code, arithmetic.add('acc', tailAbs.register), 'k = k + T;', '}', `return ${arithmetic.returnValue('acc')};`);
  return { source: kernelSource(args, body), args };
}

async function asumOnDevice(runtime: GpuRuntime, x: DeviceArray, arithmetic: GpuArithmetic): Promise<number> {
  const context = runtime.context;
  const c = arithmetic.components;
  // An x over one storage binding is read through windows, each summed by its own first pass.
  const firsts = firstPasses(x, firstPassThreads(x.length), c);
  const counts = [firsts.count];
  while (counts[counts.length - 1]! > 1) counts.push(counts[counts.length - 1]! <= REDUCE_FAN_IN ? 1 : Math.ceil(counts[counts.length - 1]! / REDUCE_FAN_IN));
  const plan = getPlan(runtime, `asum|${objectId(x)}|${x.length}|${firsts.windows}|${arithmetic.name}`, firsts.windows + counts.length - 1, () => counts.map((t) => boundedScratch(createWordBuffer(context, t * c))));
  const spec = memo(`asum1|${arithmetic.name}|${readKey(x)}`, () => firstPassSource(arithmetic, x));
  const p1 = await getProgram(context, { source: spec.source, args: spec.args, components: c });
  const reduce = memo(`dotr|${arithmetic.name}`, () => reduceProgramSpec(arithmetic));
  const pr = await getProgram(context, { source: reduce.source, args: reduce.args, components: c });
  const passes: { pass: Pass; cache: PassCache }[] = [];
  for (let k = 0; k < firsts.windows; k++) passes.push({ pass: { program: p1, ...firsts.pass(k, plan.scratch[0]!), threads: firsts.count / firsts.windows }, cache: plan.passes[k]! });
  for (let s = 1; s < counts.length; s++) {
    passes.push({ pass: { program: pr, arrays: { P: { buffer: plan.scratch[s - 1]! } }, scalars: { count: counts[s - 1]!, T: counts[s]! }, output: { buffer: plan.scratch[s]! }, threads: counts[s]! }, cache: plan.passes[firsts.windows + s - 1]! });
  }
  submitPasses(context, passes);
  const words = await readWords(context, plan.scratch[counts.length - 1]!, c);
  return arithmetic.words.decode({ words }, 1, 1)[0]!;
}

/**
 * Σ|x_k| of a resident array on the GPU (on the CPU backend for a host-resident one).
 *
 * @param x - the array
 * @param options - arithmetic (`formats.f32` / `formats.ff` or their names)
 * @returns the value and which backend ran it
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` for a non-resident or destroyed operand
 * @example
 * ```ts
 * import { toDevice, gpuAsum } from 'modprec/gpu';
 *
 * const { value } = await gpuAsum(await toDevice([1, -2, 3]), { arithmetic: 'ff' });
 * value; // → 6
 * ```
 * @group GPU
 */
export async function gpuAsum(x: DeviceArray, options: GpuKernelOptions = {}): Promise<GpuAsumResult> {
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  return throughInterleaved([x], undefined, (dd) => gpuAsumOf(dd(x), options));
}

/** gpuAsum on operands in the kernels' layouts. */
async function gpuAsumOf(x: DeviceArray, options: GpuKernelOptions): Promise<GpuAsumResult> {
  return runVectorReduction(x, options, asumOnDevice, hostAsum, 'gpuAsum');
}
