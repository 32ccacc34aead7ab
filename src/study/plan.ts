/**
 * The study plan: an ordered list of small steps, each with a rough time estimate, so the runner can
 * show progress and a time-left estimate, stop between steps on Ctrl-C, and keep what was measured.
 * @module
 */
import { BASELINE, rooflineLength } from './defaults.js';
import { measureAccuracy, measureSpeed, type MeasureContext } from './experiments.js';
import { resolveConfiguration, type ResolvedConfiguration } from './operands.js';
import { kernelProblems } from './problems.js';
import { measureRoofline, ROOFLINE_CONFIGURATIONS, rooflineLabel } from './roofline.js';
import { precisionSweepSteps } from './precision-sweep.js';
import { configurationLabel, type Configuration, type Measurement, type StudyOptions } from './types.js';

/** One unit of work. */
export interface StudyStep {
  /** What the progress line shows. */
  readonly label: string;
  /** Rough seconds it takes (only ratios matter: the runner calibrates against elapsed time). */
  readonly estimate: number;
  /** Does the work. */
  run(): Measurement[] | Promise<Measurement[]>;
}

/** The steps and the notes on what was left out. */
export interface StudyPlan {
  readonly steps: readonly StudyStep[];
  readonly notes: readonly string[];
}

/** Seconds per FLOP assumed for a configuration run and for the double-double reference. */
const RUN_COST = 3e-9;
const REFERENCE_COST = 3e-8;

function sameConfiguration(a: Configuration, b: Configuration): boolean {
  return a.storage === b.storage && a.arithmetic === b.arithmetic && a.backend === b.backend;
}

/**
 * Builds the plan of `options`.
 * @param options - validated options
 * @param ctx - adapter name for the measurements
 */
export function planStudy(options: StudyOptions, ctx: MeasureContext): StudyPlan {
  const notes: string[] = [];
  const cpu = options.configurations.filter((c) => c.backend === 'cpu');
  if (options.backends.includes('gpu')) {
    notes.push('GPU backend: no GPU kernels are exported by the library yet; GPU configurations were skipped.');
  }
  const configs: ResolvedConfiguration[] = cpu.map(resolveConfiguration);
  // Speed-ups need the fp64/fp64 baseline even when the user left it out.
  const speedConfigs = configs.some((c) => sameConfiguration(c, BASELINE)) ? configs : [resolveConfiguration(BASELINE), ...configs];
  const timing = { samples: options.samples, minSampleSeconds: options.minSampleSeconds, maxSeconds: 20 * options.minSampleSeconds * options.samples };
  const accuracy: StudyStep[] = [];
  const speed: StudyStep[] = [];
  for (const kernel of options.kernels) {
    const { problems, unavailable } = kernelProblems(kernel, options);
    if (unavailable) {
      notes.push(`${kernel}: skipped — ${unavailable}.`);
      continue;
    }
    for (const p of problems) {
      for (const seed of options.seeds) {
        accuracy.push({
          label: `accuracy ${kernel} ${p.problem} n=${p.size} seed ${seed}`,
          estimate: p.flops * (configs.length * RUN_COST + 2 * REFERENCE_COST) + 1e-3 * configs.length,
          run: () => {
            const c = p.make(seed);
            return configs.map((config) => measureAccuracy(c, config, ctx));
          },
        });
      }
      if (!p.speed) continue;
      speed.push({
        label: `speed ${kernel} ${p.problem} n=${p.size}`,
        estimate: speedConfigs.length * ((timing.samples + 2) * Math.max(timing.minSampleSeconds, p.flops * RUN_COST) + 1e-3),
        run: () => {
          const c = p.make(options.seeds[0]!);
          return speedConfigs.map((config) => measureSpeed(c, config, ctx, timing));
        },
      });
    }
  }
  const roofline: StudyStep[] = [];
  for (const intensity of options.rooflineIntensities) {
    const n = rooflineLength(options.rooflineLength, intensity, options.mode);
    for (const rc of ROOFLINE_CONFIGURATIONS) {
      roofline.push({
        label: `roofline ${rooflineLabel(rc)} ${intensity} FLOP/value`,
        estimate: (timing.samples + 2) * Math.max(timing.minSampleSeconds, n * intensity * 1e-9) + n * 3e-8,
        run: () => [measureRoofline(n, intensity, rc, ctx, timing)],
      });
    }
  }
  const sweep = options.precisionSweep ? precisionSweepSteps(options, ctx, notes) : [];
  if (configs.length === 0) notes.push('No CPU configuration selected: accuracy and speed were skipped.');
  else notes.push(`Configurations (storage/arithmetic): ${configs.map(configurationLabel).join(', ')}.`);
  return { steps: [...accuracy, ...speed, ...roofline, ...sweep], notes };
}
