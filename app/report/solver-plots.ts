/**
 * Figures of the solver experiment: convergence curves (relative residual per iteration, one chart per
 * solver and problem), and per problem the time to the tolerance, the iterations and the final true
 * residual of every storage format (one chart per solver).
 * @module
 */
import { distinct } from './aggregate.js';
import { DASHES, MAX_SERIES, PALETTE, type ChartSpec, type FigureSpec, type SeriesSpec } from './plot-specs.js';
import type { Measurement } from '../study/types.js';

/** Display names of the solvers. */
const SOLVER_TITLES: Readonly<Record<string, string>> = { cg: 'CG (vector storage)', gmres: 'GMRES(30) (Krylov basis storage)' };
const solverTitle = (s: string): string => SOLVER_TITLES[s] ?? s;
const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Series i gets colour i and dash i (the formats are at most {@link MAX_SERIES}). */
function styled(series: readonly Omit<SeriesSpec, 'color' | 'dash'>[]): SeriesSpec[] {
  return series.slice(0, MAX_SERIES).map((s, i) => ({ ...s, color: PALETTE[i]!, dash: DASHES[i]! }));
}

/** A positive finite value, else null (log axes). */
const positive = (v: number | null | undefined): number | null => (v !== null && v !== undefined && Number.isFinite(v) && v > 0 ? v : null);

/** Whether a `solver` row reached its tolerance (kept in `bound`) by the true residual recomputed by the study. */
export function reachedTolerance(m: Measurement): boolean {
  return m.relativeError !== null && m.bound !== null && m.relativeError <= m.bound;
}

/** Convergence curves: one chart per solver and problem, one line per storage format. */
function convergenceFigure(rows: readonly Measurement[]): FigureSpec | null {
  const curves = rows.filter((m) => m.experiment === 'convergence' && m.iterations !== null);
  const charts: ChartSpec[] = [];
  for (const solver of distinct(curves, (m) => m.kernel)) {
    for (const problem of distinct(curves.filter((m) => m.kernel === solver), (m) => m.problem)) {
      const here = curves.filter((m) => m.kernel === solver && m.problem === problem);
      const xs = [...new Set(here.map((m) => m.iterations!))].sort((a, b) => a - b);
      const series = distinct(here, (m) => m.storage).map((storage) => {
        const at = new Map(here.filter((m) => m.storage === storage).map((m) => [m.iterations!, m.relativeError]));
        return { label: storage, line: true, marker: 0, values: xs.map((x) => positive(at.get(x))) };
      });
      const facet = `${solverTitle(solver)} on ${problem} (n = ${here[0]!.size})`;
      charts.push({ id: `solver-convergence-${slug(`${solver}-${problem}`)}`, facet, xLabel: 'iteration', yLabel: '‖r‖₂ / ‖b‖₂', xLog: false, yLog: true, xs, series: styled(series) });
    }
  }
  if (charts.length === 0) return null;
  return {
    id: 'solver-convergence', section: 'solvers', title: 'Solvers: convergence against the storage format',
    caption: 'The relative residual the solver tracks, per iteration, for each storage format of the vectors (CG) or of the Krylov basis (GMRES, vectors and arithmetic in fp64). ' +
      'One chart per solver and matrix (pick it in the list). A narrow storage follows fp64 until its rounding shows: CG with fp32/fp16/bf16 vectors stalls near that precision, ' +
      'while GMRES with a narrow basis keeps converging (its restarts recompute the residual in fp64), at the cost of a few more iterations. Curves are sampled to at most 64 points.',
    charts,
  };
}

/** One value per problem (categorical x) and storage format, one chart per solver. */
function perProblemFigure(rows: readonly Measurement[], id: string, title: string, yLabel: string, caption: string,
  value: (m: Measurement) => number | null): FigureSpec | null {
  const solves = rows.filter((m) => m.experiment === 'solver');
  const charts: ChartSpec[] = [];
  for (const solver of distinct(solves, (m) => m.kernel)) {
    const here = solves.filter((m) => m.kernel === solver);
    const problems = distinct(here, (m) => m.problem);
    const xs = problems.map((_, i) => i + 1);
    const series = distinct(here, (m) => m.storage).map((storage) => ({
      label: storage, line: false, marker: 8,
      values: problems.map((p) => { const m = here.find((r) => r.problem === p && r.storage === storage); return m ? positive(value(m)) : null; }),
    }));
    const chart: ChartSpec = { id: `${id}-${slug(solver)}`, facet: solverTitle(solver), xLabel: 'matrix', yLabel, xLog: false, yLog: true, xs, categories: problems, series: styled(series) };
    if (chart.series.some((s) => s.values.some((v) => v !== null))) charts.push(chart);
  }
  return charts.length === 0 ? null : { id, section: 'solvers', title, caption, charts };
}

/** Every figure of the solver experiment, in page order (none when it did not run). */
export function solverFigures(rows: readonly Measurement[]): FigureSpec[] {
  const tolerance = rows.find((m) => m.experiment === 'solver')?.bound ?? null;
  const tol = tolerance === null ? 'the tolerance' : `the tolerance ${tolerance.toExponential(0)}`;
  return [
    convergenceFigure(rows),
    perProblemFigure(rows, 'solver-time', 'Solvers: time to tolerance per storage format', 'seconds to tolerance (lower is better)',
      `Wall time of the whole solve (median of the timed runs) for each storage format, only where the recomputed true residual reached ${tol}: ` +
      'a missing point is a solve that stalled, broke down or hit the iteration limit (the notes say which). One chart per solver.',
      (m) => (reachedTolerance(m) ? m.seconds : null)),
    perProblemFigure(rows, 'solver-iterations', 'Solvers: iterations per storage format', 'iterations',
      'Iterations each solve took, converged or not (a solve that stopped at the iteration limit shows the limit). One chart per solver.',
      (m) => m.iterations),
    perProblemFigure(rows, 'solver-residual', 'Solvers: final true residual per storage format', '‖b − A·x‖₂ / ‖b‖₂',
      `The true relative residual of the returned x, recomputed by the study in double-double (not the solver's own figure). Points at or below ${tol} converged. One chart per solver.`,
      (m) => m.relativeError),
  ].filter((f): f is FigureSpec => f !== null);
}
