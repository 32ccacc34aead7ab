/**
 * The three measurements a problem instance gets: accuracy (relative errors of every configuration
 * against the double-double reference), speed (median time, GB/s, GFLOP/s of every configuration) and
 * the roofline sweep point.
 * @module
 */
import type { KernelCase } from './kernel-case.js';
import { bytesPerElement, type ResolvedConfiguration } from './operands.js';
import { relativeErrorDd } from './dd-reference.js';
import { measurement } from './measurement.js';
import { timeCall, type TimingOptions } from './timing.js';
import type { Measurement } from './types.js';

/** Where measurements come from, for their `adapter` column. */
export interface MeasureContext {
  /** Adapter or CPU model. */
  readonly adapter: string;
}

function common(c: KernelCase, config: ResolvedConfiguration, ctx: MeasureContext) {
  return {
    kernel: c.kernel, storage: config.storage, arithmetic: config.arithmetic, backend: config.backend,
    adapter: ctx.adapter, problem: c.problem, size: c.size, nnz: c.nnz, seed: c.seed,
    precisionBits: config.arithmeticFormat.significandBits,
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
  return measurement({
    experiment: 'accuracy', ...common(c, config, ctx),
    relativeError: relativeErrorDd(result, c.reference()),
    arithmeticError: relativeErrorDd(result, c.storedReference(config.storageFormat)),
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
