/**
 * The narrow-storage DOT from DRAM (issue 20's ratios, focused): the WebAssembly DOT in fp64 arithmetic on operands
 * in a wasmArena (read in place), n = 2^24, for fp64, fp32, bf16, fp16 and i8 storage and each inner-loop form of the
 * fp32 and 16-bit chunks (src/backends/wasm/wasm-kernel-forms.ts: `halfDotPromote`), i8 with one scale per operand
 * (powers of two, binary32 scales, 53-bit scales; with and without `int8PairForms`), bf16 with sparse zeros (with and
 * without `halfDotResume`), with the C STREAM dot
 * (/work/shared/tools/stream.c or $STREAM_C, gcc -O3 -march=native -fopenmp, OMP_NUM_THREADS=1; STREAM_BIN: a binary
 * built elsewhere) once per round, at its end. Every form is checked bit for bit against the default one before timing; rounds
 * interleaved, medians over rounds of the time and of the process's CPU time (on a shared machine the latter leaves
 * out the time other processes held the core). Prints the table and each form's ratio f64 time / its time; writes
 * bench/results/wasm-dot-narrow.json.
 * Run: npx tsc -p tsconfig.json && node dist/bench/wasm-dot-narrow.js [--rounds=9] [--n=24] [--only=f32,bf16,f16]
 * (--n: log2 of the length; --only: those storages' cases and f64's, 'i8 scaled' and 'bf16 sparse' among them)
 */
import { loadavg } from 'node:os';
import { setWasmKernelForms, type WasmKernelForms } from '../src/backends/wasm/wasm-kernel-forms.js';
import { dot, formats, range, scaledReducedRowMajor, vector, wasmArena, type Range } from '../src/index.js';
import { seededRandom } from '../src/sparse/seeded-random.js';
import { compileStream, streamDot } from './stream-dot.js';
import { machineDescription, markdownTable, writeResults } from './report.js';

const arg = (name: string, fallback: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const rounds = arg('rounds', 9);
// --only=f32,bf16 (storage names, or 'i8 scaled', 'bf16 sparse'): those cases only, with f64's (the ratios' base).
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const N = 2 ** arg('n', 24);
const loadAtStart = loadavg()[0]!;

const STORAGES = [['f64', 8], ['f32', 4], ['bf16', 2], ['f16', 2], ['i8', 1]] as const;
// Operands: 2·N·(8 + 4 + 2 + 2 + 1) bytes, three scaled i8 pairs (2·N each) and bf16 with zeros (2·N).
const arena = wasmArena(2 * N * 22 + 2 ** 20);
const random = seededRandom(7);
const operands = new Map<string, [Range<1, any>, Range<1, any>]>();
for (const [name] of STORAGES) {
  // i8 holds integers: values scaled into its range.
  const scale = name === 'i8' ? 200 : 1;
  const make = (): Range<1, any> => {
    const r = vector(N, { storage: formats[name], arithmetic: formats.f64, memory: arena });
    for (let i = 0; i < N; i++) r.set(i, (random.nextDouble() - 0.5) * scale);
    return r;
  };
  operands.set(name, [make(), make()]);
}
// bf16 with a zero in x every 2^16 elements (from element 1000): the checked chunk declines each such block
// (a zero product); halfDotResume takes it in the exact chunk and resumes, where the earlier form (off) ran the rest
// of the DOT in the exact chunk from the first.
{
  const [bx, by] = operands.get('bf16')!;
  const zeros = vector(N, { storage: formats.bf16, arithmetic: formats.f64, memory: arena });
  for (let i = 0; i < N; i++) zeros.set(i, (i - 1000) % 2 ** 16 === 0 ? 0 : bx.get(i));
  operands.set('bf16 sparse zeros', [zeros, by]);
}
// i8 with one scale per operand (issue 20's "int8 scaled"): powers of two (the exact integer-sum form), binary32
// scales (24 significant bits: the i16-product form) and scales of 53 bits (the general chunk), each pair of scales
// kernels/dot/dot-narrow-wasm.ts's `int8PairForm` sorts; the same integers in every pair.
const SCALED_I8 = [['i8 scaled 2^-7, 2^-5', 2 ** -7, 2 ** -5], ['i8 scaled f32', Math.fround(0.37 / 127), Math.fround(1.3 / 127)], ['i8 scaled 53-bit', 0.37 / 127, 1.3 / 127]] as const;
{
  const [qx, qy] = operands.get('i8')!;
  for (const [name, sx, sy] of SCALED_I8) {
    const make = (q: Range<1, any>, scale: number): Range<1, any> => {
      const r = range(scaledReducedRowMajor<1>({ size: [N], storage: formats.i8, arithmetic: formats.f64, scaleMask: [false], memory: arena }));
      r.accessor.writeScale!(0, scale);
      for (let i = 0; i < N; i++) r.set(i, q.get(i) * scale);
      return r;
    };
    operands.set(name, [make(qx, sx), make(qy, sy)]);
  }
}

interface Case { name: string; storage: string; bytes: number; forms: Partial<WasmKernelForms> }
const cases: Case[] = [];
for (const [name, bytes] of STORAGES) {
  cases.push({ name: `${name} (default forms)`, storage: name, bytes: 2 * N * bytes, forms: {} });
  if (name === 'bf16' || name === 'f16') for (const halfDotPromote of ['shuffle', 'memory'] as const) cases.push({ name: `${name}, halfDotPromote '${halfDotPromote}'`, storage: name, bytes: 2 * N * bytes, forms: { halfDotPromote } });
  // Session 24's forms (same bits): the general chunk's pointer loop (f64, f32; off), and the forms before the lean bf16
  // chunk's two steps an iteration and the fp16 chunk's products as xy·2^-97 became defaults (both on since session 24).
  if (name === 'f64' || name === 'f32') cases.push({ name: `${name}, dotPointerLoop`, storage: name, bytes: 2 * N * bytes, forms: { dotPointerLoop: true } });
  const before = name === 'bf16' ? { halfDotPairs: false } : name === 'f16' ? { halfDotScaledSums: false } : null;
  if (before) cases.push({ name: `${name}, ${Object.keys(before)[0]} off (before session 24)`, storage: name, bytes: 2 * N * bytes, forms: before });
}
for (const halfDotResume of [true, false]) cases.push({ name: `bf16 sparse zeros, halfDotResume ${halfDotResume ? 'on' : 'off'}`, storage: 'bf16 sparse zeros', bytes: 4 * N, forms: { halfDotResume } });
for (const [name] of SCALED_I8) {
  cases.push({ name: `${name} (default forms)`, storage: name, bytes: 2 * N, forms: {} });
  // The general chunk (value × scale per element), which every scaled i8 pair took before int8PairForms.
  if (name !== 'i8 scaled 53-bit') cases.push({ name: `${name}, int8PairForms off`, storage: name, bytes: 2 * N, forms: { int8PairForms: false } });
}
if (only) cases.splice(0, cases.length, ...cases.filter((c) => c.storage === 'f64' || only.some((o) => c.storage === o || (o.includes(' ') && c.storage.startsWith(o)))));
const run = (c: Case): number => {
  const previous = setWasmKernelForms(c.forms);
  try { const [x, y] = operands.get(c.storage)!; return dot(x, y, { backend: 'wasm' }); } finally { setWasmKernelForms(previous); }
};
for (const c of cases) {
  const want = run({ ...c, forms: {} });
  if (!Object.is(run(c), want)) throw new Error(`DOT ${c.name}: differs from the default form`);
}

// Warm-up: every kernel compiled and tiered up before timing. Short vectors (--n below 24) repeat each call so that
// a timing covers 2^24 elements.
const reps = Math.max(1, Math.floor(2 ** 24 / N));
for (let w = 0; w < 3; w++) for (const c of cases) for (let k = 0; k < reps; k++) run(c);
const binary = compileStream();
const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
// CPU time of this process as well: on a shared machine it leaves out the time other processes held the core.
const cpuTimes = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const stream: number[] = [];
// Each round starts one case later (a case's place in the round, such as right after the STREAM child process,
// showed up to 2× on a shared VM); STREAM runs at the round's end.
for (let r = 0; r < rounds; r++) {
  for (const c of [...cases.slice(r % cases.length), ...cases.slice(0, r % cases.length)]) {
    // Untimed first: the case itself, then an fp64 DOT (2·8·n bytes) so that its operands are not left in the
    // last-level cache. On the shared VM a case right after one of another storage ran up to 1.2× slower without the
    // first run, and the same operands read twice in a row up to 1.2× faster without the second.
    run(c);
    run(cases[0]!);
    const t0 = performance.now(), c0 = process.cpuUsage();
    for (let k = 0; k < reps; k++) run(c);
    const cpu = process.cpuUsage(c0);
    times.get(c.name)!.push((performance.now() - t0) / reps);
    cpuTimes.get(c.name)!.push((cpu.user + cpu.system) / 1000 / reps);
  }
  if (binary) stream.push(streamDot(binary, N));
}
const median = (v: readonly number[]): number => { const s = [...v].sort((p, q) => p - q); return s[s.length >> 1]!; };
const streamGBs = stream.length ? median(stream) : NaN;
const f64ms = median(times.get('f64 (default forms)')!), f64cpu = median(cpuTimes.get('f64 (default forms)')!);
const rows = cases.map((c) => {
  const t = median(times.get(c.name)!), cpu = median(cpuTimes.get(c.name)!);
  return [c.name, t.toFixed(2), cpu.toFixed(2), (c.bytes / t / 1e6).toFixed(2), (f64ms / t).toFixed(2), (f64cpu / cpu).toFixed(2)];
});
console.log(`${machineDescription()}; n = ${N}, ${rounds} rounds; load average ${loadAtStart.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; STREAM dot (1 thread) ${Number.isFinite(streamGBs) ? streamGBs.toFixed(2) + ' GB/s' : 'not run'}`);
console.log(markdownTable(['DOT in place, fp64 arithmetic', 'ms', 'CPU ms', 'GB/s', 'f64 / this (time)', 'f64 / this (CPU time)'], rows));
writeResults('wasm-dot-narrow', { n: N, rounds, loadAverage: { start: loadAtStart, end: loadavg()[0] }, node: process.version, stream: { dotGBs: streamGBs }, cases: cases.map((c) => ({ ...c, ms: times.get(c.name), cpuMs: cpuTimes.get(c.name) })) });
