/**
 * The solver experiment (issue 21, item 3): CG with its vectors, and GMRES with its Krylov basis, stored in
 * fp64, fp32, fp16, bf16, double-double and RNS, on the 3-D Laplacian and SuiteSparse matrices. Each solve
 * gives one `solver` row (iterations, median seconds, the final true residual recomputed here in
 * double-double, the tolerance asked as `bound`) and `convergence` rows (its residual history, sampled).
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  asStorage, cg, csrToEll, dd, type EllMatrix, formats, gmres, laplacianEll, type Range, readMatrixMarketCsr, rns106, type StorageFormat, type SolverResult, vector, waxpby,
} from '../modprec.js';
import { ellSpmvReference } from './reference.js';
import { measurement } from './measurement.js';
import { median } from './timing.js';
import { bytesPerElement } from './operands.js';
import { randomValues, studyRandom } from './random-data.js';
import { realMatrixNames } from './cases/ell-case.js';
import type { MeasureContext } from './experiments.js';
import type { StudyStep } from './plan.js';
import type { Measurement, StudyOptions } from './types.js';

/** The solvers of the experiment: CG varies its vectors' storage, GMRES its basis storage (vectors fp64). */
export type StudySolver = 'cg' | 'gmres';

/** The storage formats swept, widest first; fp16/bf16 vectors compute in fp64 (they have no arithmetic of their own). */
export const SOLVER_STORAGES: readonly StorageFormat[] = [formats.f64, formats.f32, formats.f16, formats.bf16, dd, rns106].map((f) => asStorage(f));

/** Relative true residual every solve is asked to reach. */
export const SOLVER_TOLERANCE = 1e-10;

/** Restart length of GMRES. */
export const GMRES_RESTART = 30;

/** Most points of one convergence curve kept in the results (the last iteration always among them). */
export const CURVE_POINTS = 64;

/** Per mode: the Laplacian grid side, the SuiteSparse matrices (all found in full mode), the iteration cap, timed runs, largest order RNS runs on. */
export const SOLVER_PLAN: Readonly<Record<'quick' | 'full', {
  laplacianSide: number; matrices: readonly string[] | 'all'; maxIterations: number; samples: number; rnsMaxRows: number;
}>> = {
  quick: { laplacianSide: 6, matrices: ['bcsstk01', 'arc130'], maxIterations: 200, samples: 1, rnsMaxRows: 300 },
  full: { laplacianSide: 16, matrices: 'all', maxIterations: 3000, samples: 3, rnsMaxRows: 1200 },
};

/** One problem: an ELL matrix, whether CG applies (symmetric with a positive diagonal), and a seeded random b. */
export interface SolverProblem {
  readonly name: string;
  readonly A: EllMatrix;
  readonly symmetric: boolean;
  readonly b: Float64Array;
}

/**
 * b uniform in [−1, 1], seeded. Not b = A·1: a solution of small integers is exact in every storage, so a
 * narrow format would round a nearly converged x onto it and look better than it is.
 */
function randomRightHandSide(n: number): Float64Array {
  return randomValues(n, 'uniform', studyRandom(1, 7));
}

/** Whether every stored diagonal entry is positive (with a symmetric pattern header: CG may apply). */
function positiveDiagonal(A: EllMatrix): boolean {
  for (let i = 0; i < A.rows; i++) {
    let d = 0;
    for (let k = 0; k < A.width; k++) if (A.colIndex[i + k * A.stride] === i) d += A.values[i + k * A.stride]!;
    if (!(d > 0)) return false;
  }
  return true;
}

/** A problem from an ELL matrix. */
export function solverProblem(name: string, A: EllMatrix, symmetric: boolean): SolverProblem {
  return { name, A, symmetric: symmetric && positiveDiagonal(A), b: randomRightHandSide(A.rows) };
}

/** The problems of `options`: the 3-D Laplacian, then the SuiteSparse matrices of the mode found in the matrix folder. */
export function solverProblems(options: StudyOptions): SolverProblem[] {
  const plan = SOLVER_PLAN[options.mode];
  const side = plan.laplacianSide;
  const out = [solverProblem('laplacian-3d', laplacianEll([side, side, side]), true)];
  const wanted = plan.matrices === 'all' ? options.matrices : plan.matrices;
  for (const name of realMatrixNames(options.matrixFolder, wanted)) {
    const text = readFileSync(join(options.matrixFolder!, `${name}.mtx`), 'utf8');
    const header = text.slice(0, text.indexOf('\n')).toLowerCase();
    out.push(solverProblem(name, csrToEll(readMatrixMarketCsr(text)), header.includes('symmetric')));
  }
  return out;
}

/**
 * x as an unevaluated sum hi + lo of fp64 vectors: its values rounded once to double-double (the library's
 * WAXPBY 1·x + 0·x in dd arithmetic into dd storage), so a dd or RNS solution keeps its extra digits.
 */
export function solutionParts(x: Range<1, any>): { hi: Float64Array; lo: Float64Array } {
  const w = vector(new Float64Array(x.length()), { storage: dd, arithmetic: dd });
  waxpby(1, x, 0, x, w, { arithmetic: dd });
  const hi = new Float64Array(x.length());
  const lo = new Float64Array(x.length());
  for (let i = 0; i < hi.length; i++) {
    const v = w.get(i) as { hi: number; lo: number };
    hi[i] = v.hi;
    lo[i] = v.lo;
  }
  return { hi, lo };
}

/** ‖b − A·x‖₂ / ‖b‖₂ for x = hi + lo, with A·hi and A·lo each in double-double (the library's ELL SpMV in dd). */
export function trueRelativeResidual(A: EllMatrix, b: Float64Array, x: { hi: Float64Array; lo: Float64Array }): number {
  const ax = ellSpmvReference(A, A.values, x.hi);
  const axLo = ellSpmvReference(A, A.values, x.lo);
  let rr = 0;
  let bb = 0;
  for (let i = 0; i < A.rows; i++) {
    // b − hi is exact when they agree to within a factor 2 (Sterbenz); the rest are small corrections.
    const r = (b[i]! - ax.hi[i]!) - ax.lo[i]! - axLo.hi[i]! - axLo.lo[i]!;
    rr += r * r;
    bb += b[i]! * b[i]!;
  }
  const v = Math.sqrt(rr) / Math.sqrt(bb);
  return Number.isNaN(v) ? Infinity : v;
}

/** Sampled indices of a history of `length` entries: at most {@link CURVE_POINTS}, evenly spaced, first and last included. */
export function curveIndices(length: number): number[] {
  if (length <= CURVE_POINTS) return Array.from({ length }, (_, k) => k);
  const step = (length - 1) / (CURVE_POINTS - 1);
  return [...new Set(Array.from({ length: CURVE_POINTS }, (_, k) => Math.round(k * step)))];
}

/** Runs one solve of `solver` with `storage` on `p`. */
function solve(solver: StudySolver, p: SolverProblem, storage: StorageFormat, maxIterations: number): SolverResult {
  return solver === 'cg'
    ? cg(p.A, p.b, { storage, tolerance: SOLVER_TOLERANCE, maxIterations })
    : gmres(p.A, p.b, { basisStorage: storage, restart: GMRES_RESTART, tolerance: SOLVER_TOLERANCE, maxIterations });
}

/** The arithmetic a solve computes in: CG its vectors' own (fp64 for fp16/bf16), GMRES fp64. */
function arithmeticName(solver: StudySolver, storage: StorageFormat): string {
  if (solver === 'gmres') return 'f64';
  return storage.name === 'f16' || storage.name === 'bf16' ? 'f64' : storage.name;
}

/** The rows of one solve: a `solver` row and its `convergence` rows. */
export function measureSolve(solver: StudySolver, p: SolverProblem, storage: StorageFormat, mode: 'quick' | 'full', ctx: MeasureContext): { rows: Measurement[]; result: SolverResult } {
  const plan = SOLVER_PLAN[mode];
  const seconds: number[] = [];
  let result: SolverResult | undefined;
  for (let s = 0; s < plan.samples; s++) {
    const t0 = performance.now();
    result = solve(solver, p, storage, plan.maxIterations);
    seconds.push((performance.now() - t0) / 1000);
  }
  const r = result!;
  let nnz = 0;
  for (let k = 0; k < p.A.colIndex.length; k++) if (p.A.colIndex[k]! >= 0) nnz++;
  const common = {
    kernel: solver, storage: storage.name, arithmetic: arithmeticName(solver, storage), backend: 'cpu', adapter: ctx.adapter,
    problem: p.name, size: p.A.rows, nnz, bytesPerElement: bytesPerElement(storage),
  };
  const row = measurement({
    experiment: 'solver', ...common, iterations: r.iterations, seconds: median(seconds), repetitions: seconds.length,
    relativeError: trueRelativeResidual(p.A, p.b, solutionParts(r.x)), bound: SOLVER_TOLERANCE,
  });
  const curve = curveIndices(r.history.length).map((k) => measurement({
    experiment: 'convergence', ...common, iterations: k, relativeError: Number.isFinite(r.history[k]!) ? r.history[k]! : null,
  }));
  return { rows: [row, ...curve], result: r };
}

/** Why a solve stopped short, in words (null when it converged). */
function shortfall(r: SolverResult): string | null {
  if (r.status === 'converged') return null;
  return r.status === 'breakdown' ? `${r.breakdown} after ${r.iterations} iterations` : `iteration limit (${r.iterations})`;
}

/**
 * The steps of the solver experiment: one per solver and problem (CG only on the problems it applies to),
 * each running every storage format; what stopped short of the tolerance is noted.
 */
export function solverExperimentSteps(problems: readonly SolverProblem[], mode: 'quick' | 'full', ctx: MeasureContext, notes: string[]): StudyStep[] {
  const plan = SOLVER_PLAN[mode];
  const steps: StudyStep[] = [];
  for (const p of problems) {
    for (const solver of ['cg', 'gmres'] as const) {
      if (solver === 'cg' && !p.symmetric) continue;
      const storages = SOLVER_STORAGES.filter((s) => !s.name.startsWith('rns') || p.A.rows <= plan.rnsMaxRows);
      if (storages.length < SOLVER_STORAGES.length) notes.push(`solver ${solver} ${p.name}: RNS left out (order ${p.A.rows} > ${plan.rnsMaxRows}; its software arithmetic is too slow for this mode).`);
      steps.push({
        label: `solver ${solver} ${p.name} n=${p.A.rows}`,
        estimate: 0.3 * storages.length * plan.samples,
        run: () => {
          const rows: Measurement[] = [];
          const short: string[] = [];
          for (const storage of storages) {
            const m = measureSolve(solver, p, storage, mode, ctx);
            rows.push(...m.rows);
            const why = shortfall(m.result);
            if (why) short.push(`${storage.name}: ${why}`);
          }
          if (short.length > 0) notes.push(`solver ${solver} ${p.name}: not converged to ${SOLVER_TOLERANCE} — ${short.join('; ')}.`);
          return rows;
        },
      });
    }
  }
  return steps;
}
