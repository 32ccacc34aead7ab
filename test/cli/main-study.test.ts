/** `modprec study` end to end through main(): files written, JSON on stdout, Ctrl-C keeps the partial report. */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, INTERRUPTED_EXIT_CODE } from '../../app/cli/main.js';
import { MEASUREMENT_COLUMNS } from '../../app/report/csv.js';
import type { StudyResult } from '../../app/study/types.js';

function capture(onErr?: (s: string) => void) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out, err,
    io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => { err.push(s); onErr?.(s); } } },
  };
}
const args = (out: string) => ['study', '--kernels', 'dot,gemv', '--formats', 'f64,f32', '--sizes', '8,16', '--seeds', '2', '--out', out];

describe('modprec study through main()', () => {
  it('writes results.json, results.csv (one row per measurement) and index.html, and prints the JSON with --json', async () => {
    const out = mkdtempSync(join(tmpdir(), 'modprec-report-'));
    const c = capture();
    expect(await main([...args(out), '--json'], c.io)).toBe(0);
    const printed = JSON.parse(c.out.join('')) as StudyResult;
    const saved = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as StudyResult;
    expect(saved).toEqual(printed);
    expect(saved.status).toBe('complete');
    // 2 kernels × 4 configurations × 2 distributions × 2 sizes × 2 seeds accuracy rows, and the speed rows.
    expect(saved.measurements.filter((m) => m.experiment === 'accuracy').length).toBe(2 * 4 * 2 * 2 * 2);
    expect(saved.measurements.filter((m) => m.experiment === 'speed').length).toBe(2 * 4 * 2);
    const csv = readFileSync(join(out, 'results.csv'), 'utf8').trimEnd().split('\n');
    expect(csv.length).toBe(saved.measurements.length + 1);
    const header = csv[0]!.split(',');
    for (const col of ['machine', 'version_node', 'version_modprec', 'backend', 'adapter', 'seed', ...MEASUREMENT_COLUMNS]) expect(header).toContain(col);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<script type="application/json" id="plot-data">');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/); // nothing fetched at view time
    expect(c.err.join('')).toMatch(/study complete/);
  });

  it('prints a summary table without --json, per-step progress lines when stderr is not a terminal', async () => {
    const out = mkdtempSync(join(tmpdir(), 'modprec-report-'));
    const c = capture();
    expect(await main(args(out), c.io)).toBe(0);
    const table = c.out.join('');
    expect(table).toMatch(/kernel\s+storage\/arith/);
    expect(table).toMatch(/gemv\s+f32\/f64/);
    const lines = c.err.join('').split('\n').filter((l) => l.startsWith('['));
    expect(lines.length).toBeGreaterThan(10);
    expect(lines[0]).toMatch(/^\[ *0\/\d+ .* elapsed, estimating…\] accuracy dot/);
    expect(lines.some((l) => / left\]/.test(l))).toBe(true);
  });

  it('Ctrl-C (abort) stops between steps, keeps what was measured, writes the report and exits 130', async () => {
    const out = mkdtempSync(join(tmpdir(), 'modprec-report-'));
    const controller = new AbortController();
    let steps = 0;
    const c = capture((s) => { if (s.startsWith('[') && ++steps === 3) controller.abort(); });
    expect(await main([...args(out), '--json'], c.io, controller.signal)).toBe(INTERRUPTED_EXIT_CODE);
    const saved = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as StudyResult;
    expect(saved.status).toBe('interrupted');
    expect(saved.measurements.length).toBe(3 * 4); // three accuracy steps of four configurations
    expect(saved.notes.some((n) => /Interrupted/.test(n))).toBe(true);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  });
});
