/**
 * The multiple-precision sweep (seed 000 Table 5, seed 001 Fig. 3): GEMV and WAXPBY at increasing
 * precision — MPFR (gmp-wasm) at 106…1696 bits, and every registered multiple-precision format of the
 * library (double-double `dd`, RNS formats) as it lands. Reported as time and MFLOP/s at precision p.
 * @module
 */
import { findFormat, formatNames } from '../formats/registry.js';
import type { MeasureContext } from './experiments.js';
import { gemvCase, libraryGemv } from './cases/gemv-case.js';
import { waxpbyCase } from './cases/waxpby-case.js';
import { loadMpfr, mpfrGemv, mpfrWaxpby, type MpfrLibrary, type MpfrRun } from './mpfr-engine.js';
import { measurement } from './measurement.js';
import { median, timeCall } from './timing.js';
import { resolveConfiguration } from './operands.js';
import { randomValues, studyRandom } from './random-data.js';
import type { StudyStep } from './plan.js';
import type { Measurement, StudyOptions } from './types.js';

/** Precisions of the MPFR runs, in bits (seed 000 Table 5). */
export const SWEEP_BITS: readonly number[] = [106, 212, 424, 848, 1696];

/** Problem sizes of the sweep: GEMV order and WAXPBY length. */
export const SWEEP_SIZES: Readonly<Record<'quick' | 'full', { gemv: number; waxpby: number }>> = {
  quick: { gemv: 64, waxpby: 4096 },
  full: { gemv: 300, waxpby: 100_000 },
};

/** Registered formats beyond fp64 usable as both storage and arithmetic (double-double, RNS, …). */
export function multiplePrecisionFormats(): string[] {
  return formatNames().filter((n) => {
    const f = findFormat(n);
    return f?.storage && f.arithmetic && f.arithmetic.significandBits > 53;
  });
}

let mpfr: Promise<MpfrLibrary | undefined> | undefined;

/** Seconds of untimed MPFR runs before each timing. */
const MPFR_WARM_UP = 0.2;

function mpfrRow(kernel: 'gemv' | 'waxpby', bits: number, size: number, flops: number, seconds: number[], ctx: MeasureContext): Measurement {
  const t = median(seconds);
  return measurement({
    experiment: 'precision', kernel, storage: `mpfr${bits}`, arithmetic: `mpfr${bits}`, backend: 'cpu', adapter: ctx.adapter,
    problem: 'uniform', size, seed: 1, seconds: t, repetitions: seconds.length, flops, gflops: flops / t / 1e9, precisionBits: bits,
  });
}

/**
 * Times `make()` runs: a fresh context per sample, so temporaries never pile up. Untimed runs first, for
 * at least {@link MPFR_WARM_UP} seconds: WebAssembly and the JS wrapper start in slower tiers and take
 * thousands of calls to be optimised (without this, the first precision looks several times slower).
 */
function timeMpfr(make: () => MpfrRun, samples: number): number[] {
  const warmUntil = performance.now() + MPFR_WARM_UP * 1000;
  do {
    const warm = make();
    warm.run();
    warm.dispose();
  } while (performance.now() < warmUntil);
  const seconds: number[] = [];
  for (let s = 0; s < samples; s++) {
    const r = make();
    const t0 = performance.now();
    r.run();
    seconds.push((performance.now() - t0) / 1000);
    if (!Number.isFinite(r.first())) throw new Error('MPFR run produced a non-finite value');
    r.dispose();
  }
  return seconds;
}

/**
 * The sweep's steps; notes say what could not run.
 * @param notes - receives a line per missing engine
 */
export function precisionSweepSteps(options: StudyOptions, ctx: MeasureContext, notes: string[]): StudyStep[] {
  const { gemv: n, waxpby: m } = SWEEP_SIZES[options.mode];
  const samples = Math.max(1, Math.min(options.samples, 3));
  const steps: StudyStep[] = [];
  const a = randomValues(n * n, 'uniform', studyRandom(1, 0));
  const x = randomValues(n, 'uniform', studyRandom(1, 1));
  const wx = randomValues(m, 'uniform', studyRandom(1, 1));
  const wy = randomValues(m, 'uniform', studyRandom(1, 2));
  for (const bits of SWEEP_BITS) {
    steps.push({
      label: `precision sweep MPFR ${bits} bits`,
      estimate: samples * (n * n + 3 * m) * 4e-6 + 0.05,
      run: async () => {
        mpfr ??= loadMpfr();
        const lib = await mpfr;
        if (!lib) return [];
        return [
          mpfrRow('gemv', bits, n, 2 * n * n, timeMpfr(() => mpfrGemv(lib, bits, n, a, x), samples), ctx),
          mpfrRow('waxpby', bits, m, 3 * m, timeMpfr(() => mpfrWaxpby(lib, bits, 0.75, wx, -1.3125, wy), samples), ctx),
        ];
      },
    });
  }
  const formats = ['f64', ...multiplePrecisionFormats()];
  if (formats.length === 1) notes.push('Precision sweep: no multiple-precision format (double-double, RNS) is registered yet; fp64 and MPFR only.');
  for (const name of formats) {
    steps.push({
      label: `precision sweep ${name}`,
      estimate: 0.3,
      run: () => {
        const config = resolveConfiguration({ storage: name, arithmetic: name, backend: 'cpu' });
        const cases = [waxpbyCase(m, 'uniform', 1), ...(libraryGemv() ? [gemvCase(n, 'uniform', 1)] : [])];
        return cases.map((c) => {
          const bound = c.bind(config);
          const t = timeCall(() => bound.run(), { samples, minSampleSeconds: options.minSampleSeconds });
          return measurement({
            experiment: 'precision', kernel: c.kernel, storage: name, arithmetic: name, backend: 'cpu', adapter: ctx.adapter,
            problem: c.problem, size: c.size, seed: c.seed, seconds: t.seconds, repetitions: t.repetitions, flops: c.flops,
            gflops: c.flops / t.seconds / 1e9, precisionBits: config.arithmeticFormat.significandBits,
          });
        });
      },
    });
  }
  return steps;
}
