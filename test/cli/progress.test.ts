/** Progress display: a redrawn bar on a terminal (with the time left), one line per step otherwise. */
import { describe, it, expect } from 'vitest';
import { formatDuration, progressLine, progressReporter } from '../../app/cli/progress.js';

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
