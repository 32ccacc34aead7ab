/**
 * The three measurements a problem instance gets: accuracy (relative errors of every configuration
 * against the double-double reference), speed (median time, GB/s, GFLOP/s of every configuration) and
 * the roofline sweep point.
 * @module
 */
import type { KernelCase } from './kernel-case.js';
import { bytesPerElement, resolveConfiguration, type ResolvedConfiguration } from './operands.js';
import { relativeErrorDd } from './relative-error.js';
import { referencePrecision } from './reference.js';
import { measurement } from './measurement.js';
import { timeCall, timeCallAsync, type TimingOptions } from './timing.js';
import type { Configuration, Measurement } from './types.js';
import { GPU_BITS, type GpuRun, type GpuStudy } from './gpu-backend.js';
import { findFormat } from '../modprec.js';

/** Where measurements come from, for their `adapter` column. */
export interface MeasureContext {
  /** Adapter or CPU model. */
  readonly adapter: string;
}

function common(c: KernelCase, config: ResolvedConfiguration, ctx: MeasureContext) {
  return {
    kernel: c.kernel, storage: config.storage, arithmetic: config.arithmetic, backend: config.backend,
    adapter: ctx.adapter, problem: c.problem, size: c.size, nnz: c.nnz, seed: c.seed,
    precisionBits: config.arithmeticFormat.significandBits, bytesPerElement: bytesPerElement(config.storageFormat),
  };
}

/**
 * Runs `c` once in `config` and measures its error against the reference of the original inputs and
 * against the reference of the inputs as stored.
 */
export function measureAccuracy(c: KernelCase, config: ResolvedConfiguration, ctx: MeasureContext): Measurement {
  const bound = c.bind(config);
  bound.run();
  const result = bound.result();
  const b = c.bound(config);
  const stored = c.storedReference(config);
  return measurement({
    experiment: 'accuracy', ...common(c, config, ctx),
    relativeError: relativeErrorDd(result, c.reference(referencePrecision(config.arithmeticFormat.significandBits))),
    arithmeticError: stored === null ? null : relativeErrorDd(result, stored),
    bound: b !== null && Number.isFinite(b) ? b : null,
  });
}

/** Times `c` in `config`: median seconds per call, traffic and rates. */
export function measureSpeed(c: KernelCase, config: ResolvedConfiguration, ctx: MeasureContext, timing: TimingOptions): Measurement {
  const bound = c.bind(config);
  const t = timeCall(() => bound.run(), timing);
  const element = bytesPerElement(config.storageFormat);
  const bytes = element === null ? null : c.values * element + c.indexBytes;
  return measurement({
    experiment: 'speed', ...common(c, config, ctx), seed: c.seed,
    seconds: t.seconds, repetitions: t.repetitions, bytes, flops: c.flops,
    gbps: bytes === null ? null : bytes / t.seconds / 1e9, gflops: c.flops / t.seconds / 1e9,
  });
}

/** Storage bytes per element of the GPU formats (integers: the block scales, 4 bytes per 256 elements, not counted). */
const GPU_ELEMENT_BYTES: Readonly<Record<string, number>> = { dd: 16, f64: 8, ff: 8, f32: 4, f16: 2, bf16: 2, i16: 2, i8: 1 };

function gpuCommon(c: KernelCase, config: Configuration, adapter: string) {
  return {
    kernel: c.kernel, storage: config.storage, arithmetic: config.arithmetic, backend: 'gpu', adapter,
    problem: c.problem, size: c.size, nnz: c.nnz, seed: c.seed, precisionBits: GPU_BITS[config.arithmetic] ?? null,
    bytesPerElement: GPU_ELEMENT_BYTES[config.storage] ?? null,
  };
}

/** Throws when the library ran the call on its CPU fallback: the study must not report that as the GPU. */
function checkOnGpu(run: GpuRun): void {
  if (run.backend !== 'gpu') throw new Error('the GPU call fell back to the CPU');
}

/**
 * Runs `c` once on the GPU in `config` and measures its errors (the arithmetic-only error needs the
 * storage's rounding on the host: null for ff, which has no CPU codec).
 */
export async function measureAccuracyGpu(c: KernelCase, config: Configuration, gpu: GpuStudy): Promise<Measurement> {
  const bound = await c.bindGpu!(gpu, config);
  try {
    checkOnGpu(await bound.run());
    const result = await bound.result();
    const storage = findFormat(config.storage)?.storage;
    // Bound: that of fp32 arithmetic over the same storage — both binary32-based GPU arithmetics (f32, ff) round
    // each operation at least as accurately, in any summation order; the GPU dd arithmetic (unit roundoff 2^-110)
    // at least as the CPU's dd, whose bound it takes. None for ff storage (no CPU codec).
    const cpuArithmetic = config.arithmetic === 'dd' ? 'dd' : 'f32';
    const asCpu = storage ? resolveConfiguration({ storage: config.storage, arithmetic: cpuArithmetic, backend: 'cpu' }) : null;
    const b = asCpu ? c.bound(asCpu) : null;
    // Scaled integers: the GPU's block scales store other values than the CPU study's row scales, so the
    // CPU's stored reference does not apply (the bound does: a block's scale is at most the largest one).
    const storedKnown = asCpu !== null && !asCpu.storageFormat.isInteger;
    // Null also where the stored reference needs the wide (RNS) reference: narrow storage read into dd.
    const stored = storedKnown ? c.storedReference(asCpu) : null;
    return measurement({
      experiment: 'accuracy', ...gpuCommon(c, config, gpu.adapter),
      relativeError: relativeErrorDd(result, c.reference()),
      arithmeticError: stored ? relativeErrorDd(result, stored) : null,
      bound: b !== null && Number.isFinite(b) ? b : null,
    });
  } finally {
    bound.dispose();
  }
}

/** Times `c` on the GPU in `config` (calls awaited, device finished before each sample ends). */
export async function measureSpeedGpu(c: KernelCase, config: Configuration, gpu: GpuStudy, timing: TimingOptions): Promise<Measurement> {
  const bound = await c.bindGpu!(gpu, config);
  try {
    checkOnGpu(await bound.run());
    const t = await timeCallAsync(() => bound.run(), () => bound.sync(), timing);
    const element = GPU_ELEMENT_BYTES[config.storage] ?? null;
    const bytes = element === null ? null : c.values * element + c.indexBytes;
    return measurement({
      experiment: 'speed', ...gpuCommon(c, config, gpu.adapter),
      seconds: t.seconds, repetitions: t.repetitions, bytes, flops: c.flops,
      gbps: bytes === null ? null : bytes / t.seconds / 1e9, gflops: c.flops / t.seconds / 1e9,
    });
  } finally {
    bound.dispose();
  }
}
