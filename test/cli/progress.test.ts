/** Progress display: a redrawn bar on a terminal (with the time left), one line per step otherwise. */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { MIN_REDRAW_COLUMNS, formatDuration, progressLine, progressReporter } from '../../app/cli/progress.js';

describe('progress', () => {
  it('formats durations as m:ss and h:mm:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(3 * 3600 + 7 * 60 + 5)).toBe('3:07:05');
    expect(formatDuration(-4)).toBe('0:00');
  });

  it('draws a bar filled in proportion, with the time left, cut to the terminal width', () => {
    const line = progressLine({ done: 5, total: 20, label: 'accuracy dot uniform n=100 seed 1', elapsed: 10, remaining: 30 }, 200, true);
    expect(line).toMatch(/^\[#####-{15}\]  5\/20 0:10 elapsed, 0:30 left  accuracy dot/);
    const cut = progressLine({ done: 5, total: 20, label: 'x'.repeat(300), elapsed: 10, remaining: null }, 60, true);
    expect(cut.length).toBe(60);
    expect(cut).toContain('estimating…');
  });

  it('fits any width: never longer than the width once the step count fits, never just an ellipsis, the count always shown', () => {
    const event = fc.record({
      done: fc.nat(5000), extra: fc.nat(5000), label: fc.string({ maxLength: 200 }).map((s) => `step ${s}`), elapsed: fc.double({ min: 0, max: 1e6, noNaN: true }),
      remaining: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true })),
    }).map(({ done, extra, ...rest }) => ({ ...rest, done, total: done + extra }));
    fc.assert(fc.property(event, fc.integer({ min: 0, max: 300 }), (e, width) => {
      const line = progressLine(e, width, true);
      const count = `${String(e.done).padStart(String(e.total).length)}/${e.total}`;
      expect(line).toContain(count);
      expect(line).not.toMatch(/^…?$/);
      if (width >= count.length) expect(line.length).toBeLessThanOrEqual(width);
      // A label is either whole, or cut to at least a dozen characters and marked with "…".
      if (line.includes('step') && !line.endsWith(e.label)) expect(line.endsWith('…')).toBe(true);
    }), { numRuns: 500 });
  });

  it('writes one line per step on a terminal reporting 0 columns, no width, or fewer than the minimum', () => {
    for (const columns of [0, undefined, MIN_REDRAW_COLUMNS - 1, NaN]) {
      const out: string[] = [];
      const r = progressReporter({ write: (s: string) => out.push(s), isTTY: true, ...(columns === undefined ? {} : { columns }) });
      r.report({ done: 0, total: 3, label: 'accuracy dot uniform n=100 seed 1', elapsed: 0, remaining: null });
      r.report({ done: 1, total: 3, label: 'accuracy dot uniform n=100 seed 2', elapsed: 1, remaining: 2 });
      r.finish();
      expect(out, String(columns)).toEqual([
        '[0/3 0:00 elapsed, estimating…] accuracy dot uniform n=100 seed 1\n',
        '[1/3 0:01 elapsed, 0:02 left] accuracy dot uniform n=100 seed 2\n',
      ]);
    }
  });

  it('on a narrow terminal drops the bar, then the times, before it cuts the label to nothing', () => {
    const e = { done: 7, total: 120, label: 'speed gemv uniform n=512', elapsed: 65, remaining: 30 };
    expect(progressLine(e, 80, true)).toBe('[#-------------------]   7/120 1:05 elapsed, 0:30 left  speed gemv uniform n=512');
    expect(progressLine(e, 79, true)).toBe('[#-------------------]   7/120 1:05 elapsed, 0:30 left  speed gemv uniform n=5…');
    expect(progressLine(e, 60, true)).toBe('  7/120 1:05 elapsed, 0:30 left  speed gemv uniform n=512');
    expect(progressLine(e, 33, true)).toBe('  7/120  speed gemv uniform n=512');
    expect(progressLine(e, 25, true)).toBe('  7/120  speed gemv unif…');
    expect(progressLine(e, 15, true)).toBe('  7/120');
  });

  it('redraws one line on a terminal and ends it once; writes one line per step elsewhere', () => {
    const tty: string[] = [];
    const onTty = progressReporter({ write: (s: string) => tty.push(s), isTTY: true, columns: 80 });
    onTty.report({ done: 0, total: 2, label: 'a', elapsed: 0, remaining: null });
    onTty.report({ done: 1, total: 2, label: 'b', elapsed: 1, remaining: 1 });
    onTty.finish();
    expect(tty.slice(0, 2).every((s) => s.startsWith('\r\x1b[2K') && !s.includes('\n'))).toBe(true);
    expect(tty[2]).toBe('\n');
    const log: string[] = [];
    const onLog = progressReporter({ write: (s: string) => log.push(s) });
    onLog.report({ done: 0, total: 2, label: 'a', elapsed: 0, remaining: null });
    onLog.report({ done: 2, total: 2, label: '', elapsed: 2, remaining: 0 });
    onLog.finish();
    expect(log).toEqual(['[0/2 0:00 elapsed, estimating…] a\n']);
  });
});
