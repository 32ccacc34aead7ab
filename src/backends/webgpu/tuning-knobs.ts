/**
 * Numeric tuning knobs of the GPU kernels that benchmarks and tests set through the environment (`MODPREC_TRSV_SPIN`,
 * `MODPREC_TRSV_WAIT`, …). Each is read from `process.env` the first time a kernel asks for it and kept: a `process.env`
 * read costs about a microsecond in Node, and TRSV asked for six per call. A test or benchmark that changes one of
 * them in-process calls {@link rereadTuningKnobs} after the change (and after restoring it): the next kernel call sees
 * the new value, and passes built with the old one are rebuilt ({@link tuningGeneration} tells them apart).
 * @module
 */

const values = new Map<string, number | undefined>();
let generation = 0;

/**
 * The knob `name` from the environment — a non-negative decimal integer — else `fallback` (unset or not such an
 * integer). Read once until {@link rereadTuningKnobs}.
 * @param name - the environment variable
 * @param fallback - its default
 * @returns the value
 * @example
 * ```ts
 * tuningKnob('MODPREC_TRSV_SPIN', 256); // 256 unless MODPREC_TRSV_SPIN was set to digits
 * ```
 */
export function tuningKnob(name: string, fallback: number): number {
  let value = values.get(name);
  if (value === undefined && !values.has(name)) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    value = env !== undefined && /^\d+$/.test(env) ? Number(env) : undefined;
    values.set(name, value);
  }
  return value ?? fallback;
}

/**
 * Forgets the knobs read so far: the next {@link tuningKnob} reads the environment again. Call it after changing or
 * restoring a `MODPREC_…` knob in `process.env` within a process.
 * @example
 * ```ts
 * process.env.MODPREC_TRSV_SPIN = '0';
 * rereadTuningKnobs();
 * tuningKnob('MODPREC_TRSV_SPIN', 256); // 0
 * ```
 */
export function rereadTuningKnobs(): void {
  values.clear();
  generation++;
}

/**
 * A number that changes whenever the knobs are re-read: a cache of passes built from knob values keeps it and
 * rebuilds when it differs.
 * @returns the generation
 */
export function tuningGeneration(): number {
  return generation;
}
