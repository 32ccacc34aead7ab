/**
 * Progress display: a redrawn bar on a terminal, one line per step otherwise (logs, CI, pipes).
 * Written to stderr so `--json` output on stdout stays clean.
 * @module
 */
import type { ProgressEvent } from '../study/run-study.js';

/** Where progress goes: a stream with an optional terminal width. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** m:ss (or h:mm:ss) of a number of seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

/** The text of one progress report, without line control characters. */
export function progressLine(e: ProgressEvent, width: number, bar: boolean): string {
  const left = e.remaining === null ? 'estimating…' : `${formatDuration(e.remaining)} left`;
  const head = `${String(e.done).padStart(String(e.total).length)}/${e.total} ${formatDuration(e.elapsed)} elapsed, ${left}`;
  if (!bar) return `[${head}] ${e.label}`;
  const cells = 20;
  const filled = e.total === 0 ? cells : Math.round((cells * e.done) / e.total);
  const line = `[${'#'.repeat(filled)}${'-'.repeat(cells - filled)}] ${head}  ${e.label}`;
  return line.length > width ? line.slice(0, Math.max(0, width - 1)) + '…' : line;
}

/** A progress reporter for `stream`: call it with each event; `finish()` ends the bar's line. */
export function progressReporter(stream: ProgressStream): { report(e: ProgressEvent): void; finish(): void } {
  const tty = stream.isTTY === true;
  let drawn = false;
  return {
    report(e) {
      if (tty) {
        stream.write(`\r\x1b[2K${progressLine(e, stream.columns ?? 100, true)}`);
        drawn = true;
      } else if (e.label) {
        stream.write(progressLine(e, Infinity, false) + '\n');
      }
    },
    finish() {
      if (tty && drawn) stream.write('\n');
    },
  };
}
