/**
 * Runs a study plan step by step: reports progress with a calibrated time-left estimate, yields to the
 * event loop between steps so Ctrl-C (an AbortSignal) is seen, and always returns what was measured.
 * @module
 */
import os from 'node:os';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planStudy } from './plan.js';
import { withSpeedups } from './measurement.js';
import type { GpuStudy } from './gpu-backend.js';
import type { Measurement, RunInfo, SkippedPart, StudyOptions, StudyResult } from './types.js';
import { loadMpfr } from './mpfr-engine.js';

/** A progress report, sent before each step and once at the end. */
export interface ProgressEvent {
  /** Steps finished. */
  readonly done: number;
  /** Steps in the plan. */
  readonly total: number;
  /** The step about to run ('' at the end). */
  readonly label: string;
  /** Seconds since the study started. */
  readonly elapsed: number;
  /** Estimated seconds left (null before the first step has finished). */
  readonly remaining: number | null;
}

/** Hooks of {@link runStudy}. */
export interface RunHooks {
  /** Called before every step and at the end. */
  onProgress?(event: ProgressEvent): void;
  /** Aborting stops the study between two steps; the result then has status `interrupted`. */
  signal?: AbortSignal;
  /** The command line, recorded in the run metadata. */
  command?: string;
  /** The opened GPU, when the options include GPU configurations. */
  gpu?: GpuStudy;
  /** Parts the caller already left out (the GPU when none opened); the plan adds its own. */
  skipped?: readonly SkippedPart[];
  /** Called once the plan is made, before the first step: its step count and everything left out. */
  onPlan?(plan: { readonly steps: number; readonly skipped: readonly SkippedPart[] }): void;
}

/** How the references are computed (recorded in every report). */
export const REFERENCE_DESCRIPTION =
  'the library\'s own kernels on the fp64 inputs in double-double arithmetic (formats.dd, ~106 bits: exact products, double-double sums); results kept as hi+lo. ' +
  'Configurations computing in double-double are checked against the same kernels in 212-bit RNS arithmetic (formats.rns212), rounded once to double-double';

/** CPU model, core count, OS — the `machine` column. */
export function machineName(): string {
  const cpus = os.cpus();
  return `${(cpus[0]?.model ?? 'unknown CPU').trim()}, ${cpus.length} cores, ${os.platform()} ${os.arch()}`;
}

/** The package's root folder (where package.json is), from this file's location in src/ or dist/src/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Versions of Node, modprec and the charting library. */
export function versions(): Record<string, string> {
  const read = (file: string): string => {
    try { return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown'; } catch { return 'unknown'; }
  };
  const root = packageRoot();
  return { node: process.version, modprec: read(join(root, 'package.json')), uplot: read(join(root, 'node_modules', 'uplot', 'package.json')) };
}

/**
 * Runs the study of `options`.
 * @returns the result, `interrupted` when the signal aborted it (measurements so far included)
 */
export async function runStudy(options: StudyOptions, hooks: RunHooks = {}): Promise<StudyResult> {
  const run: RunInfo = {
    started: new Date().toISOString(), machine: machineName(), versions: versions(),
    command: hooks.command ?? 'modprec study', reference: REFERENCE_DESCRIPTION,
  };
  const adapter = (os.cpus()[0]?.model ?? 'CPU').trim();
  const mpfr = options.precisionSweep ? await loadMpfr() : undefined;
  const plan = planStudy(options, { adapter }, hooks.gpu, mpfr);
  const skipped = [...(hooks.skipped ?? []), ...plan.skipped];
  hooks.onPlan?.({ steps: plan.steps.length, skipped });
  const notes = plan.notes as string[]; // steps add notes (GPU failures) while they run
  const measurements: Measurement[] = [];
  const total = plan.steps.length;
  const totalEstimate = plan.steps.reduce((s, st) => s + st.estimate, 0);
  const t0 = performance.now();
  let estimatedDone = 0;
  let doneSteps = 0;
  let status: StudyResult['status'] = 'complete';
  const elapsed = (): number => (performance.now() - t0) / 1000;
  for (let i = 0; i < total; i++) {
    // Let pending signals (Ctrl-C) and output through before the next step.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (hooks.signal?.aborted) { status = 'interrupted'; break; }
    const step = plan.steps[i]!;
    const e = elapsed();
    const remaining = estimatedDone > 0 ? (totalEstimate - estimatedDone) * (e / estimatedDone) : null;
    hooks.onProgress?.({ done: i, total, label: step.label, elapsed: e, remaining });
    try {
      measurements.push(...(await step.run()));
    } catch (error) {
      notes.push(`${step.label}: failed — ${error instanceof Error ? error.message : String(error)}`);
    }
    estimatedDone += step.estimate;
    doneSteps++;
  }
  if (status === 'complete' && hooks.signal?.aborted) status = 'interrupted';
  hooks.onProgress?.({ done: doneSteps, total, label: '', elapsed: elapsed(), remaining: 0 });
  if (status === 'interrupted') notes.push('Interrupted (Ctrl-C): the report holds the measurements taken so far.');
  return { schema: 'modprec-study/1', run, options, status, skipped, notes, measurements: withSpeedups(measurements) };
}
