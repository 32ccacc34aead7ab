/**
 * Building measurement rows: every field present, `null` where it does not apply.
 * @module
 */
import type { Measurement } from './types.js';

/** The fields a caller must give; the rest default to null. */
type Required = Pick<Measurement, 'experiment' | 'kernel' | 'storage' | 'arithmetic' | 'backend' | 'adapter' | 'problem' | 'size'>;

/** A measurement with the given fields and `null` (variant `accessor`) elsewhere. */
export function measurement(fields: Required & Partial<Measurement>): Measurement {
  return {
    variant: 'accessor', nnz: null, seed: null, relativeError: null, arithmeticError: null, bound: null,
    seconds: null, repetitions: null, bytes: null, bytesPerElement: null, flops: null, gbps: null, gflops: null, speedup: null,
    intensity: null, precisionBits: null, accuracyBits: null, boundBits: null, iterations: null,
    ...fields,
  };
}

/** Key identifying "the same problem" across configurations (for speed-ups and averages). */
export function problemKey(m: Pick<Measurement, 'experiment' | 'kernel' | 'problem' | 'size' | 'intensity'>): string {
  return `${m.experiment}|${m.kernel}|${m.problem}|${m.size}|${m.intensity ?? ''}`;
}

/**
 * Fills `speedup` of every speed and roofline row: the time of the fp64/fp64 CPU row of the same problem
 * (for the roofline: the plain fp64 loop) divided by the row's time.
 * @returns new rows (the input is not modified)
 */
export function withSpeedups(rows: readonly Measurement[]): Measurement[] {
  const base = new Map<string, number>();
  for (const m of rows) {
    const isBase = m.storage === 'f64' && m.arithmetic === 'f64' && m.backend === 'cpu' &&
      (m.experiment === 'speed' || (m.experiment === 'roofline' && m.variant === 'plain'));
    if (isBase && m.seconds !== null) base.set(problemKey(m), m.seconds);
  }
  return rows.map((m) => {
    if (m.experiment !== 'speed' && m.experiment !== 'roofline') return m;
    const b = base.get(problemKey(m));
    return { ...m, speedup: b !== undefined && m.seconds ? b / m.seconds : null };
  });
}
