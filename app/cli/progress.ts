/**
 * Progress display: a redrawn line on a terminal wide enough for one, one line per step otherwise (logs,
 * CI, pipes, and terminals that report no width or a width of 0). Written to stderr so `--json` output on
 * stdout stays clean.
 * @module
 */
import type { ProgressEvent } from '../study/run-study.js';

/** Where progress goes: a stream with an optional terminal width. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Narrowest terminal that gets a redrawn line; narrower (or unknown, or 0) gets one line per step. */
export const MIN_REDRAW_COLUMNS = 20;

/** Fewest characters of a step's label worth showing: below this the label is dropped, not cut. */
const MIN_LABEL = 12;

/** m:ss (or h:mm:ss) of a number of seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

/**
 * The text of one progress report, without line control characters. With `bar`, it fits in `width`
 * columns by dropping parts in order of importance — first the bar, then the times, then the label (cut
 * with "…" while at least a few characters of it remain) — so the step count "done/total" always stays;
 * only a width below that count's own length makes the line longer than `width`.
 * @param e - the progress event
 * @param width - terminal columns (Infinity: no limit)
 * @param bar - draw the bar and fit the width (a terminal) or write the plain log form
 */
export function progressLine(e: ProgressEvent, width: number, bar: boolean): string {
  const count = `${String(e.done).padStart(String(e.total).length)}/${e.total}`;
  const left = e.remaining === null ? 'estimating…' : `${formatDuration(e.remaining)} left`;
  const head = `${count} ${formatDuration(e.elapsed)} elapsed, ${left}`;
  if (!bar) return `[${head}] ${e.label}`;
  const cells = 20;
  const filled = e.total === 0 ? cells : Math.round((cells * e.done) / e.total);
  const gauge = `[${'#'.repeat(filled)}${'-'.repeat(cells - filled)}]`;
  const withLabel = (prefix: string): string | undefined => {
    if (!e.label) return prefix.length <= width ? prefix : undefined;
    const full = `${prefix}  ${e.label}`;
    if (full.length <= width) return full;
    const room = width - prefix.length - 3; // two spaces and the ellipsis
    return room >= MIN_LABEL ? `${prefix}  ${e.label.slice(0, room)}…` : undefined;
  };
  return withLabel(`${gauge} ${head}`) ?? withLabel(head) ?? withLabel(count) ?? ([head, count].find((c) => c.length <= width) ?? count);
}

/** A progress reporter for `stream`: call it with each event; `finish()` ends the redrawn line. */
export function progressReporter(stream: ProgressStream): { report(e: ProgressEvent): void; finish(): void } {
  const columns = stream.columns ?? 0;
  const redraw = stream.isTTY === true && Number.isFinite(columns) && columns >= MIN_REDRAW_COLUMNS;
  let drawn = false;
  return {
    report(e) {
      if (redraw) {
        // One column short of the width: a line filling the last column would wrap on some terminals.
        stream.write(`\r\x1b[2K${progressLine(e, columns - 1, true)}`);
        drawn = true;
      } else if (e.label) {
        stream.write(progressLine(e, Infinity, false) + '\n');
      }
    },
    finish() {
      if (redraw && drawn) stream.write('\n');
    },
  };
}
