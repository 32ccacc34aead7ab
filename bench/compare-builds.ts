/**
 * CPU kernels of two builds of modprec timed in one process, in interleaved rounds: the build in this checkout
 * (`dist/`) against an earlier one (`--base=DIR`, a `dist/` folder compiled from another commit). Both run the
 * same kernels on the same data through their own public entry points; their results are compared bit for bit in
 * the same run before anything is timed.
 *
 * Writes bench/results/cpu-before-after.json and the `cpu-before-after` section of docs/performance.md.
 *
 * Run: npm run build && node dist/bench/compare-builds.js --base=/path/to/old/dist [--label=7d97142]
 */
import { seededRandom } from '../src/sparse/seeded-random.js';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machineDescription, markdownTable, projectRoot, today, writePerformanceSection, writeResults } from './report.js';

type Lib = any; // two builds of the public API: their types are checked where they are built, not here

interface Case {
  name: string;
  /** Makes the operands with this build and returns the call to time and the result to compare. */
  setup(lib: Lib): { run: () => unknown; result: () => Float64Array | number };
}

const N = 2 ** 20;
const M = 1000;

/** Reproducible values in [-0.5, 0.5). */
function data(n: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: n }, () => random.nextDouble() - 0.5);
}

const xs = data(N, 1), ys = data(N, 2), as = data(M * M, 3);

function vec(lib: Lib, values: Float64Array, storage = 'f64', arithmetic = 'f64'): any {
  return lib.vector(values, { storage: lib.formats[storage], arithmetic: lib.formats[arithmetic] });
}

function dense(lib: Lib, diagonal = 0): any {
  return lib.matrix(M, M, (i: number, j: number) => as[i + j * M]! + (i === j ? diagonal : 0));
}

const cases: Case[] = [
  { name: 'DOT f64, n = 2^20', setup: (l) => { const x = vec(l, xs), y = vec(l, ys); let r = 0; return { run: () => (r = l.dot(x, y)), result: () => r }; } },
  { name: 'DOT f32 storage, f64 arithmetic, n = 2^20', setup: (l) => { const x = vec(l, xs, 'f32'), y = vec(l, ys, 'f32'); let r = 0; return { run: () => (r = l.dot(x, y)), result: () => r }; } },
  { name: 'DOT bf16 storage, f64 arithmetic, n = 2^20', setup: (l) => { const x = vec(l, xs, 'bf16'), y = vec(l, ys, 'bf16'); let r = 0; return { run: () => (r = l.dot(x, y)), result: () => r }; } },
  { name: 'DOT f64 data, dd arithmetic, n = 2^20', setup: (l) => { const x = vec(l, xs), y = vec(l, ys); let r = 0; return { run: () => (r = l.dot(x, y, { arithmetic: l.formats.dd })), result: () => r }; } },
  { name: 'DOT f64 data, rns424 arithmetic, n = 2^12', setup: (l) => { const x = vec(l, xs.subarray(0, 4096)), y = vec(l, ys.subarray(0, 4096)); let r = 0; return { run: () => (r = l.dot(x, y, { arithmetic: l.formats.rns424 })), result: () => r }; } },
  { name: 'GEMV N f64, 1000 × 1000 column-major', setup: (l) => { const A = dense(l), x = vec(l, xs.subarray(0, M)), y = vec(l, new Float64Array(M)); return { run: () => l.gemv({ alpha: 1, A, x, beta: 0, y, trans: 'N' }), result: () => l.toArray(y) }; } },
  { name: 'GEMV T f64, 1000 × 1000 column-major', setup: (l) => { const A = dense(l), x = vec(l, xs.subarray(0, M)), y = vec(l, new Float64Array(M)); return { run: () => l.gemv({ alpha: 1, A, x, beta: 0, y, trans: 'T' }), result: () => l.toArray(y) }; } },
  {
    name: 'TRSV U N f64, n = 1000 column-major',
    setup: (l) => {
      const A = dense(l, M), b = xs.subarray(0, M), x = vec(l, b);
      // Each call solves from the same right-hand side, so every timed call does the same work.
      return { run: () => { for (let i = 0; i < M; i++) x.set(i, b[i]!); l.trsv({ A, x, uplo: 'U', trans: 'N', diag: 'N' }); }, result: () => l.toArray(x) };
    },
  },
  {
    name: 'ELL SpMV f64, 3-D Laplacian 64³',
    setup: (l) => {
      const A = l.ellFromMatrix(l.laplacianEll([64, 64, 64]));
      const x = vec(l, xs.subarray(0, 64 ** 3)), y = vec(l, new Float64Array(64 ** 3));
      return { run: () => l.ellSpmv({ alpha: 1, A, x, beta: 0, y }), result: () => l.toArray(y) };
    },
  },
  { name: 'AXPY f64, n = 2^20', setup: (l) => { const x = vec(l, xs), y = vec(l, ys); return { run: () => l.axpy(0.5, x, y), result: () => l.toArray(y) }; } },
  { name: 'WAXPBY f64, n = 2^20', setup: (l) => { const x = vec(l, xs), y = vec(l, ys), w = vec(l, new Float64Array(N)); return { run: () => l.waxpby(2, x, -1, y, w), result: () => l.toArray(w) }; } },
  { name: 'SCAL f64, n = 2^20', setup: (l) => { const x = vec(l, xs); return { run: () => l.scal(-1, x), result: () => l.toArray(x) }; } },
  { name: 'NRM2 f64, n = 2^20', setup: (l) => { const x = vec(l, xs); let r = 0; return { run: () => (r = l.nrm2(x)), result: () => r }; } },
  { name: 'ASUM f64, n = 2^20', setup: (l) => { const x = vec(l, xs); let r = 0; return { run: () => (r = l.asum(x)), result: () => r }; } },
];

function sameBits(a: Float64Array | number, b: Float64Array | number): boolean {
  const fa = typeof a === 'number' ? Float64Array.of(a) : a;
  const fb = typeof b === 'number' ? Float64Array.of(b) : b;
  if (fa.length !== fb.length) return false;
  const ua = new BigUint64Array(fa.buffer, fa.byteOffset, fa.length), ub = new BigUint64Array(fb.buffer, fb.byteOffset, fb.length);
  for (let k = 0; k < ua.length; k++) if (ua[k] !== ub[k]) return false;
  return true;
}

function timeOnce(run: () => unknown, reps: number): number {
  const t0 = performance.now();
  for (let k = 0; k < reps; k++) run();
  return (performance.now() - t0) / reps;
}

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;

async function main(): Promise<void> {
  const baseArg = process.argv.find((a) => a.startsWith('--base='))?.slice(7);
  if (!baseArg) throw new Error('usage: node dist/bench/compare-builds.js --base=DIR (a dist/ folder of another commit)');
  const label = process.argv.find((a) => a.startsWith('--label='))?.slice(8) ?? baseArg;
  const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 15);
  const base: Lib = await import(pathToFileURL(join(resolve(baseArg), 'src', 'index.js')).href);
  const head: Lib = await import(pathToFileURL(join(projectRoot, 'dist', 'src', 'index.js')).href);
  const rows: { kernel: string; baseMs: number; headMs: number; ratio: number; bestRatio: number; sameBits: boolean }[] = [];
  for (const c of cases) {
    // Correctness first, on fresh operands: both builds must give the same bits.
    const b0 = c.setup(base), h0 = c.setup(head);
    b0.run();
    h0.run();
    const same = sameBits(b0.result(), h0.result());
    const b = c.setup(base), h = c.setup(head);
    // Calls per sample: enough for ~5 ms, so the timer's resolution does not matter.
    const once = timeOnce(h.run, 1);
    const reps = Math.max(1, Math.min(200, Math.round(5 / Math.max(once, 1e-3))));
    for (let k = 0; k < 3; k++) { b.run(); h.run(); }
    const tb: number[] = [], th: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Alternate which build goes first, so neither always runs on a warmer cache or a quieter moment.
      if (r % 2 === 0) { tb.push(timeOnce(b.run, reps)); th.push(timeOnce(h.run, reps)); } else { th.push(timeOnce(h.run, reps)); tb.push(timeOnce(b.run, reps)); }
    }
    const row = { kernel: c.name, baseMs: median(tb), headMs: median(th), ratio: median(th) / median(tb), bestRatio: Math.min(...th) / Math.min(...tb), sameBits: same };
    rows.push(row);
    console.log(`${c.name}: base ${row.baseMs.toFixed(3)} ms, this build ${row.headMs.toFixed(3)} ms, ratio ${row.ratio.toFixed(3)} (best ${row.bestRatio.toFixed(3)}), same bits: ${same}`);
  }
  writeResults('cpu-before-after', { base: label, rounds, rows });
  const table = markdownTable(
    ['kernel', `${label} (ms)`, 'this build (ms)', 'time ratio (median)', 'time ratio (best)', 'same bits'],
    rows.map((r) => [r.kernel, r.baseMs.toFixed(3), r.headMs.toFixed(3), r.ratio.toFixed(3), r.bestRatio.toFixed(3), r.sameBits ? 'yes' : 'NO']),
  );
  writePerformanceSection('cpu-before-after', `## CPU kernels before and after the accessor-layer work — ${today()}

${machineDescription()}. Both builds loaded in one process (\`bench/compare-builds.ts\`, base \`${label}\`), each kernel timed in
${rounds} interleaved rounds (the order alternating), median per-call time of each side; a ratio above 1 means this build
is slower. Results of both builds compared bit for bit in the same run. On this shared 2-core VM ratios move by a few
per cent from run to run.

${table}`);
}

await main();
