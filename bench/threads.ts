/**
 * Worker threads on DRAM-bound kernels (issue 20 item 2, goal "2 workers ≥ 1.6× one thread on DOT/GEMV from
 * DRAM"): DOT (n = 2^24) and GEMV N and T (4096², column-major) in f64, each called on the calling thread alone
 * and split over a pool of 2 threads (`createThreadPool(2)`: one worker plus the calling thread), same operands
 * (in shared memory), same process, rounds interleaved, median over rounds. Results are checked before timing
 * (DOT within two bounds of the one-thread value, GEMV bit-identical).
 *
 * Writes bench/results/threads.json and the `threads` section of docs/performance.md (with the machine, the date
 * and the load average: other processes on the machine steal the second thread's core).
 * Run: npm run bench:threads (= npx tsc -p tsconfig.json && node dist/bench/threads.js; add -- --rounds=N)
 * `--quick`: small sizes (2^18, 512²), nothing written — a check that every case runs.
 */
import { loadavg } from 'node:os';
import { dot, dotBound, formats, gemv, matrix, toArray, vector, type Range } from '../src/index.js';
import { createThreadPool } from '../src/threads/index.js';
import { seededRandom } from '../src/sparse/seeded-random.js';
import { machineDescription, markdownTable, today, writePerformanceSection, writeResults } from './report.js';

const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 7);
const quick = process.argv.includes('--quick');
const N = quick ? 2 ** 18 : 2 ** 24;
const M = quick ? 512 : 4096;
const loadAtStart = loadavg()[0]!;

function filled(n: number, seed: number): Range<1> {
  const random = seededRandom(seed);
  const r = vector(n, { shared: true, storage: formats.f64 });
  const d = r.accessor.data as Float64Array;
  for (let i = 0; i < n; i++) d[i] = random.nextDouble() - 0.5;
  return r;
}

const pool = await createThreadPool(2);
const x = filled(N, 1), y = filled(N, 2);
const random = seededRandom(3);
const A = matrix(M, M, () => random.nextDouble() - 0.5, { shared: true });
const v = filled(M, 4), out = vector(M, { shared: true });

interface Case { name: string; bytes: number; one: () => unknown; split: () => unknown }
const cases: Case[] = [
  { name: `DOT f64, n = 2^${Math.log2(N)}`, bytes: 16 * N, one: () => dot(x, y), split: () => dot(x, y, { threads: pool }) },
  ...(['N', 'T'] as const).map((trans): Case => ({
    name: `GEMV ${trans} f64, ${M}² col-major`, bytes: 8 * M * M,
    one: () => gemv({ alpha: 1, A, x: v, beta: 0, y: out, trans }),
    split: () => gemv({ alpha: 1, A, x: v, beta: 0, y: out, trans }, { threads: pool }),
  })),
];

// Checks: the split DOT within two bounds of the one-thread value; the split GEMV writes the one-thread bits.
const d1 = dot(x, y), d2 = dot(x, y, { threads: pool });
if (!(Math.abs(d1 - d2) <= 2 * dotBound(x, y))) throw new Error(`split DOT ${d2} is not within 2 bounds of ${d1}`);
for (const trans of ['N', 'T'] as const) {
  gemv({ alpha: 1, A, x: v, beta: 0, y: out, trans });
  const ref = toArray(out);
  gemv({ alpha: 1, A, x: v, beta: 0, y: out, trans }, { threads: pool });
  if (toArray(out).some((e, i) => !Object.is(e, ref[i]))) throw new Error(`split GEMV ${trans} differs from one thread`);
}

/** Milliseconds of one call (the best of 3 back-to-back calls: one round's sample). */
function sample(f: () => unknown): number {
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const times = new Map<string, { one: number[]; split: number[] }>(cases.map((c) => [c.name, { one: [], split: [] }]));
for (const c of cases) { c.one(); c.split(); } // warm-up: compile, prime, touch every page
for (let r = 0; r < rounds; r++) {
  for (const c of cases) {
    times.get(c.name)!.one.push(sample(c.one));
    times.get(c.name)!.split.push(sample(c.split));
  }
}
await pool.terminate();

const median = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1]!;
const results = cases.map((c) => {
  const t = times.get(c.name)!;
  const one = median(t.one), split = median(t.split);
  return { name: c.name, bytes: c.bytes, oneMs: one, splitMs: split, oneGBs: c.bytes / one / 1e6, splitGBs: c.bytes / split / 1e6, ratio: one / split };
});
const loadAtEnd = loadavg()[0]!;
const rows = results.map((r) => [r.name, r.oneMs.toFixed(2), r.splitMs.toFixed(2), r.oneGBs.toFixed(1), r.splitGBs.toFixed(1), `**${r.ratio.toFixed(2)}×**`]);
const table = markdownTable(['kernel', '1 thread (ms)', '2 threads (ms)', '1 thread (GB/s)', '2 threads (GB/s)', 'speed-up'], rows);
console.log(table);
console.log(`load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}`);
if (!quick) {
  writeResults('threads', { rounds, threads: 2, loadAverage: { start: loadAtStart, end: loadAtEnd }, cases: results });
  writePerformanceSection('threads', `## Worker threads on DRAM-bound kernels (issue 20 item 2) — ${today()}

Machine: ${machineDescription()}; 1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end${loadAtStart > 0.5 ? ' (**other load was present**: the second thread shares a core with it, so the speed-up is low and noisy)' : ''}.
The same f64 operands in shared memory, each call on the calling thread alone and split over \`createThreadPool(2)\`
(one worker plus the calling thread; the automatic CPU backend, WebAssembly SIMD where it runs), ${rounds} interleaved
rounds, each round's sample the best of 3 calls, median over rounds. Goal: ≥ 1.6× with 2 threads.
Run: \`npm run bench:threads\` (bench/threads.ts).

${table}
`);
}
