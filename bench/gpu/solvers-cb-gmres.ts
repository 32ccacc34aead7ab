/**
 * CB-GMRES on the GPU (issue 21, goal 1): restarted GMRES on the 3-D Laplacian with its Krylov basis stored in fp64,
 * fp32 and fp16, vectors in fp64 and float-float arithmetic, to the same true relative residual; time to tolerance of
 * each basis storage (and each Gram–Schmidt variant: DGKS, the default, and CGS2), measured in one run, the final
 * residual checked on the host in fp64 in the same run, and a per-operation breakdown of one iteration's steps.
 *
 * On the device: node dist/bench/gpu/solvers-cb-gmres.js --out=$OUT [--grid=128] [--budget=90]   (writes $OUT/solvers-cb-gmres.json)
 * Here (llvmpipe): node dist/bench/gpu/solvers-cb-gmres.js --small --out=/tmp/cbg
 * Locally, to record it: node dist/bench/gpu/solvers-cb-gmres.js --render=path/to/solvers-cb-gmres.json
 * The budget (seconds) bounds the whole run: a solve is started only while the time left exceeds the longest one so far.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gmres, formats, laplacianEll, ellWithStorage, ellFromMatrix, ellSpmv, vector, toArray, type SolverResult } from '../../src/index.js';
import {
  deviceMatrix, deviceView, DeviceArray, gpuEllSpmv, gpuFormat, gpuGemv, gpuNrm2, gpuRuntime, gpuUpdate, toDevice, toDeviceEll, type GpuFormatName,
} from '../../src/backends/webgpu/index.js';
import { markdownTable, writePerformanceSection, writeResults } from '../report.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const small = process.argv.includes('--small');

interface Row { basis: string; orthogonalization: string; ms: number; status: string; iterations: number; trueResidual: number; hostResidual: number; restarts: number }
interface Op { op: string; basis: string; ms: number }
interface Run {
  date: string; device: string; grid: number; n: number; restart: number; tolerance: number; rows: Row[]; warmupMs: number; ops: Op[];
  budgetS: number; elapsedS: number;
}

/** Median of `reps` awaited calls of `run` (host wall time: what the solver's steps wait for). */
async function hostMs(run: () => Promise<unknown>, reps: number): Promise<number> {
  for (let r = 0; r < 2; r++) await run();
  const t: number[] = [];
  for (let r = 0; r < reps; r++) { const t0 = performance.now(); await run(); t.push(performance.now() - t0); }
  return t.sort((a, b) => a - b)[t.length >> 1]!;
}

/**
 * The steps of one GMRES iteration at basis column k, timed alone as the solver awaits them: SpMV, GEMV T and N
 * against the k leading basis columns, the norm and the coefficients read back together, the write of a basis column.
 */
async function iterationOps(E: ReturnType<typeof laplacianEll>, basis: string, k: number, columns: number, reps: number): Promise<Op[]> {
  const n = E.rows;
  const ff = { arithmetic: formats.ff, strict: true };
  const fmt = gpuFormat(basis as GpuFormatName);
  const span = new DeviceArray((await gpuRuntime())!, fmt, n * columns, 256, { words: new Uint32Array(Math.max(1, fmt.words(n * columns))) }, '');
  const w = await toDevice(Float64Array.from({ length: n }, (_, i) => Math.sin(i)), { format: 'f64', strict: true });
  const h = await toDevice(new Float64Array(k), { format: 'f64', strict: true });
  const A = await toDeviceEll({ rows: E.rows, cols: E.cols, width: E.width, stride: E.stride, colIndex: E.colIndex, values: E.values }, { format: 'f32', strict: true } as never);
  const V = deviceMatrix(span, n, k, n);
  const column = deviceView(span, k * n, n, 1);
  const ops: Op[] = [];
  const time = async (op: string, run: () => Promise<unknown>): Promise<void> => { ops.push({ op, basis, ms: await hostMs(run, reps) }); };
  try {
    await time('ELL SpMV (A·v)', () => gpuEllSpmv({ A, x: column, y: w, alpha: 1, beta: 0 }, ff));
    await time(`GEMV T (h = Vᵀw, ${k} columns)`, () => gpuGemv({ A: V, x: w, y: h, alpha: 1, beta: 0, trans: 'T' }, ff));
    await time(`GEMV N (w −= V·h, ${k} columns)`, () => gpuGemv({ A: V, x: h, y: w, alpha: -1, beta: 1, trans: 'N' }, ff));
    await time('NRM2 (‖w‖, read back)', () => gpuNrm2(w, ff));
    await time('read back h alone', () => h.toHost());
    await time('NRM2 and h read back together', () => Promise.all([gpuNrm2(w, ff), h.toHost()]));
    await time('write a basis column (w/‖w‖ into the basis)', () => gpuUpdate({ alpha: 0.5, x: w, beta: 0, out: column }, ff));
  } finally {
    span.destroy(); w.destroy(); h.destroy();
  }
  return ops;
}

async function measure(): Promise<void> {
  const grid = Number(arg('grid') ?? (small ? 16 : 128));
  const restart = Number(arg('restart') ?? (small ? 20 : 100));
  const budgetMs = Number(arg('budget') ?? (small ? 600 : 90)) * 1000;
  const began = performance.now();
  const tolerance = 1e-10;
  const out = arg('out') ?? '.';
  const runtime = await gpuRuntime();
  const device = runtime ? `${runtime.context.adapter.name} (${runtime.context.adapter.backend})` : 'no adapter (CPU fallback)';
  const E = laplacianEll([grid, grid, grid]);
  const n = E.rows;
  // The stencil's values (6, −1) are exact in fp32: the matrix goes up in fp32, read in float-float.
  const A = ellWithStorage(E, { storage: formats.f32 });
  const b = Float64Array.from({ length: n }, (_, i) => 1 + 0.5 * Math.sin(i));
  const options = (basis: string, orthogonalization: 'dgks' | 'cgs2') =>
    ({ backend: 'gpu' as const, strict: true, arithmetic: formats.ff, restart, tolerance, basisStorage: basis, orthogonalization });
  // Compile every kernel of every variant once (a few iterations), untimed.
  const t0 = performance.now();
  for (const basis of ['f64', 'f32', 'f16']) await gmres(A, b, { ...options(basis, 'dgks'), maxIterations: restart + 2 });
  await gmres(A, b, { ...options('f64', 'cgs2'), maxIterations: restart + 2 });
  const warmupMs = performance.now() - t0;
  const rows: Row[] = [];
  const ops: Op[] = [];
  const exact = ellFromMatrix(E);
  const save = (): void => {
    const run: Run = { date: new Date().toISOString().slice(0, 10), device, grid, n, restart, tolerance, rows, warmupMs, ops,
      budgetS: budgetMs / 1000, elapsedS: (performance.now() - began) / 1000 };
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'solvers-cb-gmres.json'), JSON.stringify(run, null, 1) + '\n');
  };
  // One iteration's steps at half the restart length, per basis storage (a few seconds).
  for (const basis of ['f64', 'f32', 'f16']) ops.push(...await iterationOps(E, basis, restart >> 1, restart + 1, small ? 3 : 9));
  for (const o of ops) console.log(JSON.stringify(o));
  save();
  // Interleaved: the default (DGKS) with each basis, then CGS2 with fp64 and fp16, then a second round while the budget lasts.
  const order: [string, 'dgks' | 'cgs2'][] = [['f64', 'dgks'], ['f16', 'dgks'], ['f32', 'dgks'], ['f64', 'cgs2'], ['f16', 'cgs2'],
    ['f64', 'dgks'], ['f16', 'dgks'], ['f32', 'dgks'], ['f64', 'cgs2'], ['f16', 'cgs2']];
  let longest = 0;
  for (const [basis, orthogonalization] of order) {
    if (rows.length > 0 && performance.now() - began + 1.2 * longest > budgetMs) break;
    const start = performance.now();
    const r: SolverResult = await gmres(A, b, options(basis, orthogonalization));
    const ms = performance.now() - start;
    longest = Math.max(longest, ms);
    // The same residual on the host, in fp64, from the returned x.
    const y = vector(b);
    ellSpmv({ alpha: -1, A: exact, x: r.x, beta: 1, y });
    const res = toArray(y);
    let rr = 0, bb = 0;
    for (let i = 0; i < n; i++) { rr += res[i]! ** 2; bb += b[i]! ** 2; }
    rows.push({ basis, orthogonalization, ms, status: r.status === 'breakdown' ? `breakdown (${r.breakdown})` : r.status, iterations: r.iterations,
      trueResidual: r.trueResidualNorm, hostResidual: Math.sqrt(rr / bb), restarts: Math.ceil(r.iterations / restart) });
    console.log(JSON.stringify(rows[rows.length - 1]));
    save();
  }
  // Correctness in the same run: every solve must have reached the tolerance, checked on the host in fp64.
  const bad = rows.filter((r) => r.status !== 'converged' || r.hostResidual > 2 * tolerance);
  console.log(JSON.stringify({ solves: rows.length, allConverged: bad.length === 0, elapsedS: (performance.now() - began) / 1000 }));
  if (bad.length > 0) process.exitCode = 1;
}

function render(file: string): void {
  const run = JSON.parse(readFileSync(file, 'utf8')) as Run;
  writeResults('solvers-cb-gmres', run);
  // The faster of each variant's runs (the rounds are interleaved); every run is in the JSON.
  const variants = [...new Set(run.rows.map((r) => `${r.basis}|${r.orthogonalization}`))];
  const fastest = variants.map((v) => run.rows.filter((r) => `${r.basis}|${r.orthogonalization}` === v).sort((x, y) => x.ms - y.ms)[0]!);
  const runsEach = Math.max(...variants.map((v) => run.rows.filter((r) => `${r.basis}|${r.orthogonalization}` === v).length));
  const base = fastest.find((r) => r.basis === 'f64' && r.orthogonalization === 'dgks')!;
  const ok = (r: Row): boolean => r.status === 'converged' && r.hostResidual <= 2 * run.tolerance;
  const narrow = fastest.filter((r) => r.basis !== 'f64' && ok(r));
  const best = narrow.length === 0 ? 0 : Math.max(...narrow.map((r) => {
    const peer = fastest.find((p) => p.basis === 'f64' && p.orthogonalization === r.orthogonalization);
    return peer ? peer.ms / r.ms : 0;
  }));
  const missing = ['f64', 'f32', 'f16'].filter((x) => !fastest.some((f) => f.basis === x && f.orthogonalization === 'dgks'));
  const opBases = [...new Set(run.ops.map((o) => o.basis))];
  const opNames = [...new Set(run.ops.map((o) => o.op))];
  writePerformanceSection('solvers-cb-gmres', `## CB-GMRES on the GPU: the Krylov basis in fp64, fp32, fp16 (issue 21)

${run.device}, ${run.date}, one device call (\`node dist/bench/gpu/solvers-cb-gmres.js --out=$OUT\`, ${run.elapsedS.toFixed(0)} s of a ${run.budgetS} s budget). \`gmres(A, b, { backend: 'gpu',
arithmetic: formats.ff, restart: ${run.restart}, tolerance: ${run.tolerance}, basisStorage, orthogonalization })\` on the 3-D Laplacian ${run.grid}³
(n = ${run.n}; the matrix stored in fp32, exact for this stencil), vectors in fp64, every kernel in float-float. The
vectors, the basis and the matrix stay on the device. Each classical Gram–Schmidt pass is two GEMVs against the basis
(all coefficients in one GEMV T, the update in one GEMV N) and **one** wait for the host: the coefficients and the new
norm are read back together (before this session: three waits per pass — the norm before, the norm after, the
coefficients). DGKS (default) repeats the pass when it cancels more than 1 − 1/√2 of the vector; CGS2 always does.
Times are to the tolerance (${runsEach > 1 ? 'the faster of the interleaved runs of each variant' : 'one run of each variant, in the order of the table'}), after one untimed warm-up of every variant (kernel compilation,
${(run.warmupMs / 1000).toFixed(1)} s). "host residual" recomputes ‖b − A·x‖₂/‖b‖₂ in fp64 on the CPU from the returned x.

${markdownTable(['basis storage', 'Gram–Schmidt', 'time (ms)', 'speed-up vs fp64 basis (same Gram–Schmidt)', 'iterations', 'ms per iteration', 'status', 'true residual (device, ff)', 'host residual (fp64)'],
  fastest.map((r) => {
    const peer = fastest.find((p) => p.basis === 'f64' && p.orthogonalization === r.orthogonalization);
    return [r.basis, r.orthogonalization, r.ms.toFixed(0), peer ? (peer.ms / r.ms).toFixed(2) : '—', r.iterations, (r.ms / r.iterations).toFixed(2), r.status, r.trueResidual.toExponential(2), r.hostResidual.toExponential(2)];
  }))}

Goal (fp32 or fp16 basis ≥ 1.3× faster than the fp64 basis to the same true residual 1e-10): ${best >= 1.3 ? 'met' : 'not met'}
(best ${best.toFixed(2)}×${fastest.every(ok) ? '' : '; not every variant reached the tolerance'}).${missing.length ? ` Not measured: ${missing.join(', ')} basis (the budget ended the run first).` : ''}
The 2026-11-26 run of the previous version took 20.1 / 18.0 / 17.1 s (fp64 / fp32 / fp16 basis, 18 ms per iteration).

**One iteration's steps**, each timed alone as the solver awaits it (median host wall time, ms; at column ${(run.restart >> 1)} of ${run.restart + 1}):

${markdownTable(['step', ...opBases.map((x) => `${x} basis`)], opNames.map((name) => [name, ...opBases.map((x) => run.ops.find((o) => o.op === name && o.basis === x)?.ms.toFixed(3) ?? '—')]))}
${base ? `\nWith the fp64 basis and DGKS an iteration took ${(base.ms / base.iterations).toFixed(2)} ms in the solve.` : ''}`);
}

const file = arg('render');
if (file) render(file);
else await measure();
