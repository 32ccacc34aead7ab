/**
 * The study's solver experiment on tiny problems: a row per solver, problem and storage format; residuals
 * that are true residuals of the returned x (recomputed here independently, in exact rational arithmetic);
 * convergence curves that are the solver's own history; figures whose series and categories name rows
 * that exist and whose points are those rows' values.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  curveIndices, CURVE_POINTS, GMRES_RESTART, SOLVER_STORAGES, SOLVER_TOLERANCE, solverExperimentSteps, solverProblem, solverProblems, type SolverProblem,
} from '../../app/study/solver-experiment.js';
import { solverFigures, reachedTolerance } from '../../app/report/solver-plots.js';
import { MEASUREMENT_COLUMNS } from '../../app/report/csv.js';
import { tinyMatrixFolder } from './study-fixture.js';
import { cg, csrToEll, gmres, laplacianEll, readMatrixMarketCsr, toArray, type EllMatrix } from '../../src/index.js';
import type { Measurement, StudyResult } from '../../app/study/types.js';
import { renderReport } from '../../app/report/html.js';

let problems: SolverProblem[];
let rows: Measurement[];
const notes: string[] = [];

beforeAll(async () => {
  const folder = tinyMatrixFolder();
  const read = (name: string): EllMatrix => csrToEll(readMatrixMarketCsr(readFileSync(join(folder, `${name}.mtx`), 'utf8')));
  problems = [
    solverProblem('laplacian-3d', laplacianEll([4, 4, 4]), true),
    solverProblem('tridiagonal', read('tridiagonal'), true),
    solverProblem('irregular', read('irregular'), false),
  ];
  rows = [];
  for (const step of solverExperimentSteps(problems, 'quick', { adapter: 'test CPU' }, notes)) rows.push(...(await step.run()));
});

const solves = (): Measurement[] => rows.filter((m) => m.experiment === 'solver');

/** v·2^1074 as an exact BigInt (every finite double is an integer multiple of 2^-1074). */
function scaled(v: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const exp = (bits >> 52n) & 0x7ffn;
  const frac = bits & ((1n << 52n) - 1n);
  const magnitude = exp === 0n ? frac : (frac | (1n << 52n)) << (exp - 1n);
  return bits >> 63n ? -magnitude : magnitude;
}

/** ‖b − A·x‖₂² / ‖b‖₂² exactly (BigInt, everything scaled by 2^2148), rounded to a double at the end. */
function exactResidualSquared(A: EllMatrix, b: Float64Array, x: readonly number[]): number {
  let rr = 0n;
  let bb = 0n;
  for (let i = 0; i < A.rows; i++) {
    const bi = scaled(b[i]!) << 1074n;
    let r = bi;
    for (let k = 0; k < A.width; k++) {
      const c = A.colIndex[i + k * A.stride]!;
      if (c >= 0) r -= scaled(A.values[i + k * A.stride]!) * scaled(x[c]!);
    }
    rr += r * r;
    bb += bi * bi;
  }
  if (rr === 0n) return 0;
  const shift = (v: bigint): bigint => BigInt(Math.max(0, v.toString(2).length - 60));
  const [sr, sb] = [shift(rr), shift(bb)];
  return (Number(rr >> sr) / Number(bb >> sb)) * 2 ** Number(sr - sb);
}

describe('solver experiment: rows', () => {
  it('has one solver row per solver, problem and storage format (CG only on the SPD problems), every column present', () => {
    for (const p of problems) {
      for (const solver of ['cg', 'gmres']) {
        const mine = solves().filter((m) => m.kernel === solver && m.problem === p.name);
        if (solver === 'cg' && !p.symmetric) { expect(mine).toEqual([]); continue; }
        expect(mine.map((m) => m.storage).sort(), `${solver} ${p.name}`).toEqual(SOLVER_STORAGES.map((s) => s.name).sort());
      }
    }
    expect(problems.map((p) => p.symmetric)).toEqual([true, true, false]);
    for (const m of rows) expect(Object.keys(m).sort()).toEqual([...MEASUREMENT_COLUMNS].sort());
    for (const m of solves()) {
      expect(m.seconds! > 0 && Number.isFinite(m.seconds!)).toBe(true);
      expect(Number.isInteger(m.iterations) && m.iterations! >= 0).toBe(true);
      expect(m.bound).toBe(SOLVER_TOLERANCE);
      expect(m.size).toBe(problems.find((p) => p.name === m.problem)!.A.rows);
    }
  });

  it('the residual of a row is the true residual of the x the solver returns (recomputed exactly), not the solver\'s own figure', () => {
    for (const m of solves()) {
      const p = problems.find((q) => q.name === m.problem)!;
      const storage = SOLVER_STORAGES.find((s) => s.name === m.storage)!;
      const r = m.kernel === 'cg'
        ? cg(p.A, p.b, { storage, tolerance: SOLVER_TOLERANCE, maxIterations: 200 })
        : gmres(p.A, p.b, { basisStorage: storage, restart: GMRES_RESTART, tolerance: SOLVER_TOLERANCE, maxIterations: 200 });
      expect(r.iterations, `${m.kernel} ${m.problem} ${m.storage}`).toBe(m.iterations);
      const exact = Math.sqrt(exactResidualSquared(p.A, p.b, toArray(r.x)));
      // fp64 x only: a dd/RNS solution carries digits beyond fp64 that the study keeps and this check drops
      if (!['f64', 'f32', 'f16', 'bf16'].includes(m.kernel === 'cg' ? m.storage : 'f64')) continue;
      // The study's double-double recomputation errs by far less than 1e-6 relative, or by 2^-100 absolute.
      expect(Math.abs(m.relativeError! - exact), `${m.kernel} ${m.problem} ${m.storage}`).toBeLessThanOrEqual(1e-6 * exact + 2 ** -100);
      // The solver says converged only when its own true residual met the tolerance; the recomputation agrees.
      if (r.status === 'converged') expect(reachedTolerance(m), `${m.kernel} ${m.problem} ${m.storage}`).toBe(true);
    }
  });

  it('convergence rows are the solver\'s history, sampled: start at iteration 0 with 1, end at the last iteration', () => {
    for (const s of solves()) {
      const curve = rows.filter((m) => m.experiment === 'convergence' && m.kernel === s.kernel && m.problem === s.problem && m.storage === s.storage);
      const its = curve.map((m) => m.iterations!);
      expect(its[0]).toBe(0);
      expect(curve[0]!.relativeError).toBe(1); // x0 = 0: r0 = b
      expect(its.length).toBeLessThanOrEqual(CURVE_POINTS);
      for (let k = 1; k < its.length; k++) expect(its[k]!).toBeGreaterThan(its[k - 1]!);
      expect(its[its.length - 1]).toBeGreaterThanOrEqual(Math.min(s.iterations!, 1));
    }
  });

  it('curveIndices keeps the first and last entry, at most CURVE_POINTS, increasing', () => {
    for (const n of [1, 2, 63, 64, 65, 1000, 3001]) {
      const k = curveIndices(n);
      expect(k[0]).toBe(0);
      expect(k[k.length - 1]).toBe(n - 1);
      expect(k.length).toBe(Math.min(n, CURVE_POINTS));
      for (let i = 1; i < k.length; i++) expect(k[i]!).toBeGreaterThan(k[i - 1]!);
    }
  });

  it('fp64 CG and GMRES converge on the well-conditioned Laplacian; fp32-vector CG stalls above the tolerance with a note', () => {
    const at = (solver: string, storage: string) => solves().find((m) => m.kernel === solver && m.problem === 'laplacian-3d' && m.storage === storage)!;
    expect(reachedTolerance(at('cg', 'f64'))).toBe(true);
    expect(reachedTolerance(at('gmres', 'f64'))).toBe(true);
    expect(reachedTolerance(at('gmres', 'f16'))).toBe(true); // the restarts recompute the residual in fp64
    // fp32 vectors: the recurrence cannot go below about κ·2^-24 ≫ 1e-10.
    expect(at('cg', 'f32').relativeError!).toBeGreaterThan(SOLVER_TOLERANCE);
    expect(notes.some((n) => n.startsWith('solver cg laplacian-3d: not converged') && n.includes('f32:'))).toBe(true);
  });
});

describe('solver experiment: figures', () => {
  it('every chart\'s series and categories name rows that exist, and its points are those rows\' values', () => {
    const figures = solverFigures(rows);
    expect(figures.map((f) => f.id)).toEqual(['solver-convergence', 'solver-time', 'solver-iterations', 'solver-residual']);
    for (const f of figures) {
      expect(f.section).toBe('solvers');
      for (const c of f.charts) {
        for (const s of c.series) {
          expect(s.values.length).toBe(c.xs.length);
          expect(SOLVER_STORAGES.map((x) => x.name)).toContain(s.label);
        }
        expect(new Set(c.series.map((s) => s.color)).size).toBe(c.series.length);
        if (f.id === 'solver-convergence') continue;
        const solver = c.id.slice(f.id.length + 1);
        for (const [xi, problem] of c.categories!.entries()) {
          for (const s of c.series) {
            const m = solves().find((r) => r.kernel === solver && r.problem === problem && r.storage === s.label);
            const v = s.values[xi];
            if (m === undefined) { expect(v).toBeNull(); continue; }
            const want = f.id === 'solver-time' ? (reachedTolerance(m) ? m.seconds : null) : f.id === 'solver-iterations' ? m.iterations : m.relativeError;
            expect(v, `${f.id} ${solver} ${problem} ${s.label}`).toBe(want !== null && want > 0 ? want : null);
          }
        }
      }
    }
    const convergence = figures[0]!.charts;
    for (const c of convergence) {
      const s = solves().find((m) => c.facet.includes(` on ${m.problem} `));
      expect(s, c.facet).toBeDefined();
      expect(c.xLog).toBe(false);
      expect(c.yLog).toBe(true);
    }
    expect(convergence.length).toBe(new Set(solves().map((m) => `${m.kernel}|${m.problem}`)).size);
  });

  it('the report page has a Solvers section with every chart of the experiment in its plot data', () => {
    const result = { schema: 'modprec-study/1', status: 'complete', skipped: [], notes, measurements: rows,
      run: { started: 'now', machine: 'test', versions: {}, command: 'test', reference: 'test' }, options: { mode: 'quick' } } as unknown as StudyResult;
    const html = renderReport(result, { script: '', style: '' });
    expect(html).toContain('<section id="section-solvers"><h2>Solvers</h2>');
    const data = JSON.parse(html.match(/<script type="application\/json" id="plot-data">(.*?)<\/script>/s)![1]!) as { id: string }[];
    expect(data.map((c) => c.id).sort()).toEqual(solverFigures(rows).flatMap((f) => f.charts.map((c) => c.id)).sort());
  });

  it('makes no figure when the experiment did not run', () => {
    expect(solverFigures(rows.filter((m) => m.experiment !== 'solver' && m.experiment !== 'convergence'))).toEqual([]);
  });
});

describe('solver experiment: problems of a mode', () => {
  it('quick: the 3-D Laplacian 6³ and the quick SuiteSparse matrices found in the folder (symmetry from the header)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'modprec-solver-matrices-'));
    writeFileSync(join(dir, 'bcsstk01.mtx'), readFileSync(join(tinyMatrixFolder(), 'tridiagonal.mtx')));
    writeFileSync(join(dir, 'arc130.mtx'), readFileSync(join(tinyMatrixFolder(), 'irregular.mtx')));
    writeFileSync(join(dir, 'west0479.mtx'), readFileSync(join(tinyMatrixFolder(), 'irregular.mtx')));
    const ps = solverProblems({ mode: 'quick', matrixFolder: dir, matrices: [] } as never);
    expect(ps.map((p) => [p.name, p.A.rows, p.symmetric])).toEqual([['laplacian-3d', 216, true], ['arc130', 6, false], ['bcsstk01', 4, true]]);
  });
});
