/**
 * The experimental roofline (seed 004, section 3): the configurations of the paper and one measurement
 * per (configuration, intensity).
 * @module
 */
import { accessorRooflineLoop, plainRooflineLoop, ROOFLINE_CHAINS } from './roofline-kernel.js';
import { bytesPerElement, resolveConfiguration, vectorOf } from './operands.js';
import { measurement } from './measurement.js';
import { timeCall, type TimingOptions } from './timing.js';
import { randomValues, studyRandom } from './random-data.js';
import type { MeasureContext } from './experiments.js';
import type { Measurement } from './types.js';

/** A roofline configuration: the loop variant and the formats. */
export interface RooflineConfiguration {
  readonly variant: 'plain' | 'accessor';
  readonly storage: string;
  readonly arithmetic: string;
}

/**
 * The paper's four configurations: fp64 plain, Accessor⟨fp64, fp64⟩, fp32 plain, Accessor⟨fp64, fp32⟩
 * (fp32 storage, fp64 arithmetic); plus Accessor⟨fp32, fp32⟩ to isolate the accessor's cost on fp32.
 */
export const ROOFLINE_CONFIGURATIONS: readonly RooflineConfiguration[] = [
  { variant: 'plain', storage: 'f64', arithmetic: 'f64' },
  { variant: 'accessor', storage: 'f64', arithmetic: 'f64' },
  { variant: 'plain', storage: 'f32', arithmetic: 'f32' },
  { variant: 'accessor', storage: 'f32', arithmetic: 'f32' },
  { variant: 'accessor', storage: 'f32', arithmetic: 'f64' },
];

/** Label of a roofline configuration: `plain f64` or `accessor f32/f64`. */
export function rooflineLabel(c: Pick<RooflineConfiguration, 'variant' | 'storage' | 'arithmetic'>): string {
  return c.variant === 'plain' ? `plain ${c.storage}` : `accessor ${c.storage}/${c.arithmetic}`;
}

/**
 * Times the roofline loop of `config` over `length` elements (rounded down to a multiple of the chains) at `intensity` FLOPs per value (2 per multiply-add).
 * @returns a `roofline` measurement with GFLOP/s and GB/s (conversions not counted as FLOPs)
 */
export function measureRoofline(length: number, intensity: number, config: RooflineConfiguration, ctx: MeasureContext, timing: TimingOptions): Measurement {
  const multiplyAdds = Math.max(1, Math.round(intensity / 2));
  const n = Math.max(ROOFLINE_CHAINS, length - (length % ROOFLINE_CHAINS));
  const input = randomValues(n, 'uniform', studyRandom(0, 7));
  let run: () => void;
  let element: number;
  if (config.variant === 'plain') {
    const make = config.storage === 'f32' ? (v: Float64Array | number) => new Float32Array(v as number) : (v: Float64Array | number) => new Float64Array(v as number);
    const x = make(n);
    x.set(input);
    const y = make(n);
    const loop = plainRooflineLoop(config.storage === 'f32' ? 'f32' : 'f64', multiplyAdds, x, y);
    run = loop;
    element = x.BYTES_PER_ELEMENT;
  } else {
    const rc = resolveConfiguration({ storage: config.storage, arithmetic: config.arithmetic, backend: 'cpu' });
    const x = vectorOf(rc, input);
    const y = vectorOf(rc, new Float64Array(n));
    const loop = accessorRooflineLoop(multiplyAdds, x, y, rc.arithmeticFormat);
    run = loop;
    element = bytesPerElement(rc.storageFormat) ?? 8;
  }
  const t = timeCall(run, timing);
  const flops = 2 * multiplyAdds * n;
  const bytes = 2 * n * element;
  return measurement({
    experiment: 'roofline', kernel: 'roofline', variant: config.variant, storage: config.storage, arithmetic: config.arithmetic,
    backend: 'cpu', adapter: ctx.adapter, problem: 'mixbench', size: n, intensity: 2 * multiplyAdds,
    seconds: t.seconds, repetitions: t.repetitions, bytes, flops,
    gbps: bytes / t.seconds / 1e9, gflops: flops / t.seconds / 1e9,
  });
}
