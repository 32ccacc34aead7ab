/**
 * Row-major GEMV N from DRAM on the WebAssembly backend (issue 20's "GEMV N f64 ≥ 80 % of the 1-thread C STREAM
 * dot", focused): A 4096² in a wasmArena (read in place), f64 and f32 storage, f64 arithmetic, with two rows and
 * four rows (the default since 2026-11-28; `gemvRowGroup`, src/backends/wasm/wasm-kernel-forms.ts) sharing each load of x, and the
 * C STREAM dot once per round (/work/shared/tools/stream.c or $STREAM_C, gcc -O3 -march=native -fopenmp,
 * OMP_NUM_THREADS=1; STREAM_BIN: a binary built elsewhere). Each form is checked bit for bit against the default
 * before timing; rounds interleaved, medians. Writes bench/results/wasm-gemv-rows.json.
 * Run: npx tsc -p tsconfig.json && node dist/bench/wasm-gemv-rows.js [--rounds=9] [--m=4096]
 */
import { loadavg } from 'node:os';
import { setWasmKernelForms, type WasmKernelForms } from '../src/backends/wasm/wasm-kernel-forms.js';
import { formats, gemv, range, rowMajor, vector, wasmArena, type Range } from '../src/index.js';
import { seededRandom } from '../src/sparse/seeded-random.js';
import { compileStream, streamDot } from './stream-dot.js';
import { machineDescription, markdownTable, writeResults } from './report.js';

const arg = (name: string, fallback: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const rounds = arg('rounds', 9);
const M = arg('m', 4096);
const STREAM_N = 2 ** 24;
const loadAtStart = loadavg()[0]!;

const arena = wasmArena(M * M * 12 + 2 ** 20);
const random = seededRandom(11);
const x = vector(M), y = vector(M);
for (let j = 0; j < M; j++) x.set(j, random.nextDouble() - 0.5);
const matrices = (['f64', 'f32'] as const).map((storage) => {
  const A: Range<2, any> = range(rowMajor<2>({ size: [M, M], storage: formats[storage], arithmetic: formats.f64, memory: arena }));
  for (let i = 0; i < M; i++) for (let j = 0; j < M; j++) A.set(i, j, random.nextDouble() - 0.5);
  return { storage, A, bytes: (storage === 'f64' ? 8 : 4) * M * M };
});

interface Case { name: string; storage: 'f64' | 'f32'; bytes: number; forms: Partial<WasmKernelForms>; run: () => void }
const cases: Case[] = matrices.flatMap(({ storage, A, bytes }) => ([2, 4] as const).map((group) => {
  const forms = { gemvRowGroup: group };
  return {
    name: `GEMV N ${storage} storage ${M}², row-major, in place, ${group} rows a group${group === 4 ? ' (default)' : ''}`, storage, bytes, forms,
    run: (): void => {
      const previous = setWasmKernelForms(forms);
      try { gemv({ alpha: 1, A, x, beta: 0, y }, { backend: 'wasm' }); } finally { setWasmKernelForms(previous); }
    },
  };
}));
const yOf = (): Float64Array => Float64Array.from({ length: M }, (_, i) => y.get(i));
for (const c of cases) {
  const reference = cases.find((d) => d.storage === c.storage && d.forms.gemvRowGroup === 2)!;
  reference.run();
  const want = yOf();
  c.run();
  if (!yOf().every((v, i) => Object.is(v, want[i]))) throw new Error(`${c.name}: not the default form's bits`);
}

const binary = compileStream();
const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const stream: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < cases.length; k++) {
    const c = cases[(k + r) % cases.length]!;
    const t0 = performance.now();
    c.run();
    times.get(c.name)!.push(performance.now() - t0);
  }
  if (binary) stream.push(streamDot(binary, STREAM_N));
}
const median = (v: readonly number[]): number => { const s = [...v].sort((p, q) => p - q); return s[s.length >> 1]!; };
const streamGBs = stream.length ? median(stream) : NaN;
const rows = cases.map((c) => {
  const ms = median(times.get(c.name)!), gbs = c.bytes / ms / 1e6;
  return [c.name, ms.toFixed(2), gbs.toFixed(2), Number.isFinite(streamGBs) ? `${((100 * gbs) / streamGBs).toFixed(0)} %` : '—'];
});
console.log(`${machineDescription()}; ${rounds} rounds; load average ${loadAtStart.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; STREAM dot (1 thread, n = 2^24) ${Number.isFinite(streamGBs) ? streamGBs.toFixed(2) + ' GB/s' : 'not run'}`);
console.log(markdownTable(['case', 'ms', 'GB/s', 'of STREAM dot'], rows));
writeResults('wasm-gemv-rows', { m: M, rounds, loadAverage: { start: loadAtStart, end: loadavg()[0] }, node: process.version, stream: { dotGBs: streamGBs, runs: stream }, cases: cases.map((c) => ({ name: c.name, bytes: c.bytes, ms: times.get(c.name) })) });
