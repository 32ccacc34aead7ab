#!/usr/bin/env node
/**
 * The `modprec` command: `modprec study [flags]` runs the study and writes the report (see --help and
 * docs/study.md); `modprec --version` prints the version. Exit codes: 0 done, 1 failure, 2 bad command line (nothing run), 130 interrupted
 * by Ctrl-C (the report of what was measured is written).
 * @module
 */
import { fileURLToPath } from 'node:url';
import { realpathSync } from 'node:fs';
import { parseArgs } from './parse-args.js';
import { helpText } from './help.js';
import { UsageError, USAGE_EXIT_CODE } from './usage-error.js';
import { progressReporter, formatDuration } from './progress.js';
import { summaryTable } from './summary-table.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot, runStudy, versions } from '../study/run-study.js';
import { checkOutputFolder } from './output-folder.js';
import type { SkippedPart } from '../study/types.js';
import { resultJson, writeReport } from '../report/write-report.js';
import { gpuHardwarePresent, openGpu, type GpuStudy } from '../study/gpu-backend.js';

/** Exit code when Ctrl-C interrupted the study (128 + SIGINT). */
export const INTERRUPTED_EXIT_CODE = 130;

/** Streams the command writes to (replaceable in tests). */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
}


/**
 * Runs the command line `argv` (without node and script).
 * @param argv - e.g. `['study', '--quick']`
 * @param io - output streams
 * @param signal - aborting stops the study after the current step
 * @returns the exit code
 */
export async function main(argv: readonly string[], io: CliIo = process, signal?: AbortSignal): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv, { packageRoot: packageRoot(), gpuAvailable: gpuHardwarePresent });
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`modprec: ${error.message}\n`);
      return USAGE_EXIT_CODE;
    }
    throw error;
  }
  if (parsed.command === 'help') {
    io.stdout.write(helpText());
    return 0;
  }
  if (parsed.command === 'version') {
    io.stdout.write(`modprec ${versions().modprec}\n`);
    return 0;
  }
  try {
    checkOutputFolder(parsed.out);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`modprec: ${error.message}\n`);
      return USAGE_EXIT_CODE;
    }
    throw error;
  }
  let options = parsed.options;
  let gpu: GpuStudy | undefined;
  const skipped: SkippedPart[] = [...parsed.skipped];
  if (options.backends.includes('gpu')) {
    const opened = await openGpu();
    if ('reason' in opened) {
      if (!options.backends.includes('cpu')) {
        io.stderr.write(`modprec: --backend gpu: ${opened.reason}\n`);
        return USAGE_EXIT_CODE;
      }
      skipped.push({ part: 'GPU configurations', reason: opened.reason, remedy: 'see docs/gpu.md for the WebGPU set-up; --backend cpu leaves the GPU out on purpose' });
      options = { ...options, backends: ['cpu'], configurations: options.configurations.filter((c) => c.backend === 'cpu') };
    } else {
      gpu = opened;
    }
  }
  const progress = progressReporter(io.stderr);
  const result = await runStudy(options, {
    signal, command: `modprec ${argv.join(' ')}`, skipped, onProgress: (e) => progress.report(e), ...(gpu ? { gpu } : {}),
    onPlan: (plan) => io.stderr.write(planText(plan.steps, plan.skipped)),
  });
  progress.finish();
  let files;
  try {
    files = writeReport(parsed.out, result);
  } catch (error) {
    // The folder was writable when the study started; keep the measurements somewhere rather than lose them.
    const fallback = mkdtempSync(join(tmpdir(), 'modprec-report-'));
    files = writeReport(fallback, result);
    io.stderr.write(`modprec: could not write the report into ${parsed.out} (${error instanceof Error ? error.message : String(error)}); written to ${fallback} instead\n`);
    if (parsed.json) io.stdout.write(resultJson(result));
    return 1;
  }
  if (parsed.json) io.stdout.write(resultJson(result));
  else io.stdout.write(`${summaryTable(result)}\n`);
  const took = formatDuration((Date.now() - Date.parse(result.run.started)) / 1000);
  io.stderr.write(`modprec: ${result.status === 'complete' ? 'study complete' : 'study interrupted'} in ${took}; report: ${files.html}\n`);
  return result.status === 'complete' ? 0 : INTERRUPTED_EXIT_CODE;
}

/** What the terminal shows before the first step: the step count and every part left out, with why and what to do. */
export function planText(steps: number, skipped: readonly SkippedPart[]): string {
  const lines = [`modprec: ${steps} steps planned${skipped.length > 0 ? `; left out (${skipped.length}):` : ''}`];
  for (const s of skipped) lines.push(`  skipped: ${s.part} — ${s.reason}${s.remedy ? ` (to include it: ${s.remedy})` : ''}`);
  return lines.join('\n') + '\n';
}

/** Whether this file is the program being run (not imported by a test). */
function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts++;
    if (interrupts > 1) process.exit(INTERRUPTED_EXIT_CODE); // a second Ctrl-C does not wait
    process.stderr.write('\nmodprec: stopping after the current step (Ctrl-C again to quit at once)…\n');
    controller.abort();
  });
  main(process.argv.slice(2), process, controller.signal).then(
    // An open WebGPU device keeps the event loop alive: exit once stdout has drained.
    (code) => { process.stdout.write('', () => process.exit(code)); },
    (error: unknown) => {
      process.stderr.write(`modprec: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
