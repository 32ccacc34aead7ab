/**
 * The study plan: an ordered list of small steps, each with a rough time estimate, so the runner can
 * show progress and a time-left estimate, stop between steps on Ctrl-C, and keep what was measured.
 * @module
 */
import { BASELINE, rooflineLength } from './defaults.js';
import { measureAccuracy, measureAccuracyGpu, measureSpeed, measureSpeedGpu, type MeasureContext } from './experiments.js';
import type { GpuStudy } from './gpu-backend.js';
import { resolveConfiguration, type ResolvedConfiguration } from './operands.js';
import { kernelProblems } from './problems.js';
import { measureRoofline, ROOFLINE_CONFIGURATIONS, rooflineLabel } from './roofline.js';
import { precisionSweepSteps } from './precision-sweep.js';
import { solverExperimentSteps, solverProblems } from './solver-experiment.js';
import { gpuRnsSweepSteps } from './precision-sweep-gpu.js';
import { gpuStreamLength, measureGpuStream } from './gpu-bandwidth.js';
import { configurationLabel, type Configuration, type Measurement, type SkippedPart, type StudyOptions } from './types.js';
import { realMatrixNames } from './cases/ell-case.js';
import type { MpfrLibrary } from './mpfr-engine.js';

/** One unit of work. */
export interface StudyStep {
  /** What the progress line shows. */
  readonly label: string;
  /** Rough seconds it takes (only ratios matter: the runner calibrates against elapsed time). */
  readonly estimate: number;
  /** Does the work. */
  run(): Measurement[] | Promise<Measurement[]>;
}

/** The steps, the parts left out (none of them has a step) and other notes. */
export interface StudyPlan {
  readonly steps: readonly StudyStep[];
  readonly skipped: readonly SkippedPart[];
  readonly notes: readonly string[];
}

/** The real (SuiteSparse) matrices ELL SpMV will read, or a skipped part saying which are missing and why. */
function matrixSkips(options: StudyOptions): SkippedPart[] {
  const folder = options.matrixFolder;
  const found = realMatrixNames(folder, options.matrices);
  const remedy = 'download the matrices (Matrix Market .mtx files from sparse.tamu.edu) into a folder and pass --matrices DIR';
  if (found.length === 0) {
    return [{
      part: 'SuiteSparse matrices (ELL SpMV)', remedy,
      reason: folder === null ? 'no matrix folder was found (../shared/matrices beside the package, or test/fixtures/matrices of a source checkout)'
        : `the folder ${folder} holds none of ${options.matrices.length > 0 ? options.matrices.join(', ') : 'the .mtx files'}`,
    }];
  }
  const missing = options.matrices.filter((m) => !found.includes(m));
  return missing.length === 0 ? [] : [{ part: `SuiteSparse matrices ${missing.join(', ')} (ELL SpMV)`, reason: `not in ${folder}`, remedy }];
}

/**
 * Rough costs on a slow core, for the time-left estimate (the runner rescales them by the elapsed time):
 * seconds per FLOP of a kernel run, per FLOP of the double-double reference, per value written into a
 * storage, per FLOP of the fp64 set-up (LU).
 */
const RUN_COST = 3e-9;
const REFERENCE_COST = 3e-8;
const FILL_COST = 3e-8;
const SETUP_COST = 2e-9;

function sameConfiguration(a: Configuration, b: Configuration): boolean {
  return a.storage === b.storage && a.arithmetic === b.arithmetic && a.backend === b.backend;
}

/**
 * Builds the plan of `options`.
 * @param options - validated options
 * @param ctx - adapter name for the measurements
 * @param gpu - the opened GPU, when GPU configurations run
 * @param mpfr - gmp-wasm, when the precision sweep can time MPFR
 */
export function planStudy(options: StudyOptions, ctx: MeasureContext, gpu?: GpuStudy, mpfr?: MpfrLibrary): StudyPlan {
  const notes: string[] = [];
  const skipped: SkippedPart[] = options.kernels.includes('ell-spmv') ? matrixSkips(options) : [];
  const cpu = options.configurations.filter((c) => c.backend === 'cpu');
  const gpuConfigs = gpu ? options.configurations.filter((c) => c.backend === 'gpu') : [];
  if (gpu) notes.push(`GPU: ${gpu.adapter}${gpu.software ? ' — a software adapter (the CPU emulating a GPU): its timings say nothing about GPUs' : ''}; configurations ${gpuConfigs.map((c) => `${c.storage}/${c.arithmetic}`).join(', ')}.`);
  const configs: ResolvedConfiguration[] = cpu.map(resolveConfiguration);
  // A GPU configuration that fails (a limit of the adapter, a format a kernel cannot write) costs its row
  // only, with a note; the CPU rows of the step are kept.
  const gpuRow = async (what: string, config: Configuration, measure: () => Promise<Measurement>, rows: Measurement[]): Promise<void> => {
    try {
      rows.push(await measure());
    } catch (error) {
      notes.push(`${what} ${config.storage}/${config.arithmetic}@gpu: failed — ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  // Speed-ups need the fp64/fp64 baseline even when the user left it out.
  const speedConfigs = configs.some((c) => sameConfiguration(c, BASELINE)) ? configs : [resolveConfiguration(BASELINE), ...configs];
  const timing = { samples: options.samples, minSampleSeconds: options.minSampleSeconds, maxSeconds: 20 * options.minSampleSeconds * options.samples };
  const accuracy: StudyStep[] = [];
  const speed: StudyStep[] = [];
  const byOrder = (a: { order: string }, b: { order: string }): number => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);
  for (const kernel of options.kernels) {
    const { problems, unavailable } = kernelProblems(kernel, options);
    if (unavailable) {
      skipped.push({ part: kernel, reason: unavailable, remedy: '' });
      continue;
    }
    const kernelSteps: { step: StudyStep; order: string }[] = [];
    const pad = (k: number): string => String(k).padStart(8, '0');
    const firstOfSetup = new Map<string, number>();
    problems.forEach((p, pi) => { if (p.setupKey !== undefined && !firstOfSetup.has(p.setupKey)) firstOfSetup.set(p.setupKey, pi); });
    for (const [pi, p] of problems.entries()) {
      for (const [si, seed] of options.seeds.entries()) {
        // Steps sharing a set-up (one LU for TRSV's two factors) run back to back, seed by seed.
        const order = p.setupKey === undefined ? `${pad(pi)}|${pad(si)}` : `${pad(firstOfSetup.get(p.setupKey)!)}|${pad(si)}|${pad(pi)}`;
        kernelSteps.push({ order, step: {
          label: `accuracy ${kernel} ${p.problem} n=${p.size} seed ${seed}`,
          estimate: (configs.length + gpuConfigs.length) * (p.values * FILL_COST + p.flops * RUN_COST + 1e-3) + 2 * p.flops * REFERENCE_COST + p.setupFlops * SETUP_COST,
          run: async () => {
            const c = p.make(seed);
            const rows = configs.map((config) => measureAccuracy(c, config, ctx));
            if (gpu && c.bindGpu) for (const config of gpuConfigs) await gpuRow(`accuracy ${kernel} ${p.problem} n=${p.size}`, config, () => measureAccuracyGpu(c, config, gpu), rows);
            return rows;
          },
        } });
      }
      if (!p.speed) continue;
      speed.push({
        label: `speed ${kernel} ${p.problem} n=${p.size}`,
        estimate: (speedConfigs.length + gpuConfigs.length) * ((timing.samples + 2) * Math.max(timing.minSampleSeconds, p.flops * RUN_COST) + p.values * FILL_COST) + p.setupFlops * SETUP_COST,
        run: async () => {
          const c = p.make(options.seeds[0]!);
          const rows = speedConfigs.map((config) => measureSpeed(c, config, ctx, timing));
          if (gpu && c.bindGpu) for (const config of gpuConfigs) await gpuRow(`speed ${kernel} ${p.problem} n=${p.size}`, config, () => measureSpeedGpu(c, config, gpu, timing), rows);
          return rows;
        },
      });
    }
    accuracy.push(...kernelSteps.sort(byOrder).map((k) => k.step));
  }
  if (gpu && gpuConfigs.length > 0 && speed.length > 0) {
    // The memory ceiling of the GPU roofline, in the same run as the kernels' speeds.
    const streamLength = gpuStreamLength(gpu);
    speed.push({
      label: `speed GPU streaming read n=${streamLength}`,
      estimate: (timing.samples + 2) * Math.max(timing.minSampleSeconds, 0.05) + 2 * streamLength * FILL_COST,
      run: async () => {
        const rows: Measurement[] = [];
        await gpuRow('speed streaming read', { storage: 'f32', arithmetic: 'f32', backend: 'gpu' }, () => measureGpuStream(gpu, streamLength, timing), rows);
        return rows;
      },
    });
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
  const sweep = options.precisionSweep ? [...precisionSweepSteps(options, ctx, notes, skipped, mpfr), ...gpuRnsSweepSteps(options, ctx, notes, gpu)] : [];
  const solvers = options.solvers ? solverExperimentSteps(solverProblems(options), options.mode, ctx, notes) : [];
  if (configs.length + gpuConfigs.length === 0) notes.push('No configuration selected: accuracy and speed were skipped.');
  if (configs.length > 0) notes.push(`CPU configurations (storage/arithmetic): ${configs.map(configurationLabel).join(', ')}.`);
  return { steps: [...accuracy, ...speed, ...roofline, ...sweep, ...solvers], skipped, notes };
}
