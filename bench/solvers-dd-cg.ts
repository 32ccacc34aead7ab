/**
 * Double-double CG against fp64 CG on SPD systems (issue 21, goal 2): the true relative residual ‖b − A·x‖/‖b‖ after
 * every iteration of both, the same code with only the vectors' storage (and so the arithmetic) changed.
 * Run: npx tsc -p tsconfig.json && node dist/bench/solvers-dd-cg.js
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cg, formats, readMatrixMarketCsr, csrToEll, laplacianEll, type EllMatrix, type SolverResult } from '../src/index.js';
import { markdownTable, machineDescription, projectRoot, today, writePerformanceSection, writeResults } from './report.js';

interface Case { name: string; A: EllMatrix }
const matrices = join(projectRoot, '..', '..', 'shared', 'matrices');
const sharedMatrix = (file: string): EllMatrix | undefined => {
  for (const dir of [matrices, '/work/shared/matrices']) {
    try { return csrToEll(readMatrixMarketCsr(readFileSync(join(dir, file), 'utf8'))); } catch { /* try the next */ }
  }
  return undefined;
};
const cases: Case[] = [{ name: '2-D Laplacian 100×100 (n = 10 000)', A: laplacianEll([100, 100]) }];
const bcsstk01 = sharedMatrix('bcsstk01.mtx');
if (bcsstk01) cases.push({ name: 'SuiteSparse HB/bcsstk01 (n = 48)', A: bcsstk01 });
const bus494 = sharedMatrix('494_bus.mtx');
if (bus494) cases.push({ name: 'SuiteSparse HB/494_bus (n = 494)', A: bus494 });

const TOL = 1e-25;
const fmt = (v: number) => v.toExponential(2);
const sections: string[] = [];
const results: Record<string, unknown> = {};
for (const { name, A } of cases) {
  const n = A.rows;
  // b = A·1 scaled to unit norm: a right-hand side every entry of the solution touches
  const b = Float64Array.from({ length: n }, (_, i) => Math.sin(0.7 * i + 1));
  const t0 = performance.now();
  const f64 = cg(A, b, { tolerance: TOL, recordTrueResidual: true, maxIterations: 20 * n });
  const t1 = performance.now();
  const dd = cg(A, b, { tolerance: TOL, storage: formats.dd, recordTrueResidual: true, maxIterations: 20 * n });
  const t2 = performance.now();
  const best = (r: SolverResult) => Math.min(...r.trueHistory!);
  // Curves kept at most 400 points each ([iteration, value] pairs), so the JSON stays small.
  const thin = (h: readonly number[]) => { const step = Math.max(1, Math.ceil(h.length / 400)); return h.flatMap((v, k) => (k % step === 0 || k === h.length - 1 ? [[k, v]] : [])); };
  results[name] = {
    n, tolerance: TOL,
    f64: { status: r2s(f64), iterations: f64.iterations, trueResidual: f64.trueResidualNorm, best: best(f64), ms: t1 - t0, trueHistory: thin(f64.trueHistory!), history: thin(f64.history) },
    dd: { status: r2s(dd), iterations: dd.iterations, trueResidual: dd.trueResidualNorm, best: best(dd), ms: t2 - t1, trueHistory: thin(dd.trueHistory!), history: thin(dd.history) },
  };
  // The curves, sampled: the true residual of both at about 12 iteration counts.
  // Sampled over the double-double run, then where fp64 CG ended.
  const span = dd.trueHistory!.length - 1;
  const marks = [...new Set([...Array.from({ length: 13 }, (_, k) => Math.round((k * span) / 12)), f64.trueHistory!.length - 1])].sort((a, b) => a - b);
  const at = (r: SolverResult, k: number) => (k < r.trueHistory!.length ? fmt(r.trueHistory![k]!) : '(stopped)');
  sections.push(`### ${name}

| | fp64 CG | double-double CG |
|---|---|---|
| end | ${r2s(f64)} after ${f64.iterations} iterations | ${r2s(dd)} after ${dd.iterations} iterations |
| final true relative residual | ${fmt(f64.trueResidualNorm)} | ${fmt(dd.trueResidualNorm)} |
| lowest true residual on the way | ${fmt(best(f64))} | ${fmt(best(dd))} |
| time | ${(t1 - t0).toFixed(0)} ms | ${(t2 - t1).toFixed(0)} ms |

True relative residual ‖b − A·x_k‖₂/‖b‖₂ after iteration k (the curves, sampled):

${markdownTable(['k', 'fp64 CG', 'double-double CG'], marks.map((k) => [k, at(f64, k), at(dd, k)]))}`);
}
function goal(): string {
  const hits = Object.entries(results).filter(([, v]) => (v as any).f64.best > 1e-13 && (v as any).dd.trueResidual <= TOL);
  if (hits.length === 0) return 'not met on these systems.';
  return `met on ${hits.map(([k, v]) => `${k} (fp64 never below ${fmt((v as any).f64.best)}, double-double ${fmt((v as any).dd.trueResidual)})`).join('; ')}.`;
}
function r2s(r: SolverResult): string {
  return r.status === 'breakdown' ? `breakdown (${r.breakdown})` : r.status;
}
writeResults('solvers-dd-cg', results);
writePerformanceSection('solvers-dd-cg', `## Double-double CG against fp64 CG (issue 21)

${machineDescription()}, ${today()}. \`node dist/bench/solvers-dd-cg.js\`. The same \`cg\` call on an SPD system, tolerance
${TOL}: once with fp64 vectors and arithmetic, once with \`storage: formats.dd\` (double-double vectors and arithmetic;
the matrix stays fp64, read exactly). \`recordTrueResidual\` recomputes b − A·x after every iteration. fp64 CG's true
residual stalls where its rounding errors leave it (about κ·2⁻⁵³) and the solver stops with the breakdown
\`stagnation\` (or, slowly converging after each restart from the true residual, at the iteration limit 20·n); double-double
CG goes on to the tolerance. Raw curves: bench/results/solvers-dd-cg.json.

Goal (DD CG ≤ 1e-25 where fp64 CG stalls above 1e-13): ${goal()}

${sections.join('\n\n')}`);
console.log(JSON.stringify(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, { f64: (v as any).f64.trueResidual, dd: (v as any).dd.trueResidual, itF: (v as any).f64.iterations, itD: (v as any).dd.iterations }]))));
