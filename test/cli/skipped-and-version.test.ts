/**
 * #16 item 5: `--version`; an unwritable --out is refused before anything runs; everything left out (no
 * GPU, no MPFR, no SuiteSparse matrices) is said in the terminal before the study and in the report, and
 * no step is planned for it.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../app/cli/main.js';
import { parseArgs } from '../../app/cli/parse-args.js';
import { planStudy } from '../../app/study/plan.js';
import type { StudyResult } from '../../app/study/types.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } } };
}

const packageVersion = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

describe('modprec --version', () => {
  it('prints "modprec <package.json version>" for --version, -V, version and study --version, and exits 0', async () => {
    for (const argv of [['--version'], ['-V'], ['version'], ['study', '--quick', '--version']]) {
      const c = capture();
      expect(await main(argv, c.io), argv.join(' ')).toBe(0);
      expect(c.out.join('')).toBe(`modprec ${packageVersion}\n`);
      expect(c.err).toEqual([]);
    }
  });
});

describe('--out is checked before the study starts', () => {
  it('a folder under a regular file (cannot be created, even by root) exits 2 naming --out; no step runs', async () => {
    const base = mkdtempSync(join(tmpdir(), 'modprec-out-'));
    const file = join(base, 'a-file');
    writeFileSync(file, 'x');
    const c = capture();
    expect(await main(['study', '--kernels', 'dot', '--formats', 'f64', '--sizes', '8', '--seeds', '1', '--out', join(file, 'report')], c.io)).toBe(2);
    const err = c.err.join('');
    expect(err).toMatch(/^modprec: --out: cannot write the report into ".*a-file\/report" \(ENOTDIR\)/);
    expect(err).not.toMatch(/steps planned|\[/); // refused before planning and before any progress line
    expect(c.out).toEqual([]);
  });

  it('an existing writable folder is kept and left without the probe file', async () => {
    const out = mkdtempSync(join(tmpdir(), 'modprec-out-'));
    const c = capture();
    expect(await main(['study', '--kernels', 'dot', '--formats', 'f64', '--sizes', '8', '--seeds', '1', '--out', out], c.io)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['index.html', 'results.csv', 'results.json']);
  });
});

describe('skipped parts', () => {
  it('without gmp-wasm the sweep plans no MPFR step and says why; the library formats still run', () => {
    const parsed = parseArgs(['study', '--kernels', 'sweep', '--backend', 'cpu'], { packageRoot: process.cwd(), gpuAvailable: () => false });
    if (parsed.command !== 'study') throw new Error('expected study');
    const plan = planStudy(parsed.options, { adapter: 'test' }, undefined, undefined);
    expect(plan.steps.some((s) => /MPFR/.test(s.label))).toBe(false);
    expect(plan.steps.length).toBeGreaterThan(0);
    expect(plan.skipped.map((s) => s.part)).toEqual(['MPFR in the multiple-precision sweep']);
    expect(plan.skipped[0]!.reason).toMatch(/gmp-wasm/);
    expect(plan.skipped[0]!.remedy).toMatch(/npm install gmp-wasm/);
  });

  it('with gmp-wasm loaded the MPFR steps are planned and nothing is skipped', () => {
    const parsed = parseArgs(['study', '--kernels', 'sweep', '--backend', 'cpu'], { packageRoot: process.cwd(), gpuAvailable: () => false });
    if (parsed.command !== 'study') throw new Error('expected study');
    const fakeMpfr = { getContext: () => { throw new Error('not called while planning'); } };
    const plan = planStudy(parsed.options, { adapter: 'test' }, undefined, fakeMpfr);
    expect(plan.steps.filter((s) => /MPFR/.test(s.label)).length).toBe(5);
    expect(plan.skipped).toEqual([]);
  });

  it('auto on a machine without a GPU device: the GPU is a skipped part with a remedy, not a silent omission', () => {
    const parsed = parseArgs(['study'], { packageRoot: process.cwd(), gpuAvailable: () => false });
    if (parsed.command !== 'study') throw new Error('expected study');
    expect(parsed.skipped.map((s) => s.part)).toEqual(['GPU configurations']);
    const explicit = parseArgs(['study', '--backend', 'cpu'], { packageRoot: process.cwd(), gpuAvailable: () => false });
    if (explicit.command !== 'study') throw new Error('expected study');
    expect(explicit.skipped).toEqual([]); // asked for the CPU only: nothing was left out
  });

  it('an empty matrix folder: SuiteSparse matrices are skipped in the terminal (before the first step), the summary and results.json', async () => {
    const out = mkdtempSync(join(tmpdir(), 'modprec-report-'));
    const empty = mkdtempSync(join(tmpdir(), 'modprec-matrices-'));
    const c = capture();
    const argv = ['study', '--kernels', 'ell-spmv', '--formats', 'f64', '--sizes', '30', '--seeds', '1', '--backend', 'cpu', '--matrices', empty, '--out', out];
    expect(await main(argv, c.io)).toBe(0);
    const err = c.err.join('');
    const planned = err.indexOf('skipped: SuiteSparse matrices (ELL SpMV)');
    expect(planned).toBeGreaterThanOrEqual(0);
    expect(planned).toBeLessThan(err.indexOf('[')); // said before the first progress line
    expect(err).toContain('--matrices DIR');
    expect(c.out.join('')).toContain('skipped: SuiteSparse matrices (ELL SpMV)');
    const saved = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as StudyResult;
    expect(saved.skipped.map((s) => s.part)).toEqual(['SuiteSparse matrices (ELL SpMV)']);
    // Only the generated matrices were measured.
    expect(new Set(saved.measurements.map((m) => m.problem))).toEqual(new Set(['laplacian-2d', 'laplacian-3d', 'banded']));
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  });
});
