/**
 * Double-double on the GPU (issue 18): DD DOT n = 2^26 and DD GEMV N n = 8192 with dd storage (against the
 * device copy bandwidth), GEMV n = 8192 with fp64 storage and dd arithmetic (against cuBLAS DGEMV, timed by
 * cuda-anchors.py in the same device call), TRSV n = 8192 in dd against fp32 storage + ff, and DOT with fp64
 * storage. Every variant is checked in the same run against the CPU's double-double kernels (formats.dd) on the
 * same stored values: within the CPU dd bound (DOT: dotBound; GEMV rows: γ_{n+3}(2^-102)·Σ|a·x|).
 *
 * Writes $OUT/dd-gpu.json; `--from=<json> [--device=…]` records a run into bench/results and docs/performance.md
 * (section `dd-gpu`).
 *
 * Every kernel is timed twice in the same run: the dd arithmetic as shipped (fused multiply-adds) and unfused (the
 * build before them), which must agree word for word.
 *
 * A third row per DOT and GEMV, `dd window (new)`, times DOT's windowed multiply-adds (ddGpuArithmeticWindow; GEMV N's
 * row pass shares the step code) in the same run, checked against the bound only; `--no-window` leaves it out.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/dd-gpu.js [--small] [--no-window] [--out=<dir>]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import { toDevice, toDeviceSpan } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpujsCopy, timeDeviceRuns } from './device-timing.js';
import { gpuRuntime, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { gpuUnavailableReason } from '../../src/backends/webgpu/backend.js';
import { dot, dotBound, trsv, vector, matrix, formats } from '../../src/index.js';
import { ddGpuArithmeticUnfused, ddGpuArithmeticWindow } from '../../src/formats/dd/dd-gpu-arithmetic.js';

// --quick / --small: small sizes and one run each (llvmpipe: checks that everything runs and is right).
const quick = process.argv.includes('--quick') || process.argv.includes('--small');
const outDir = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? process.env.OUT;

/**
 * The arithmetic variants timed side by side: the GPU dd arithmetic as shipped (fused multiply-adds straight from
 * the storage kinds) and the same arithmetic unfused (each operand packed into a register first: the build before
 * the fused multiply-adds). Both must give the same results bit for bit; each row is checked on its own.
 */
const VARIANTS = [
  { label: 'dd', option: 'dd' as const },
  { label: 'dd unfused (before)', option: { name: 'dd-unfused', arithmetic: { gpu: ddGpuArithmeticUnfused } } },
] as const;

/**
 * DOT's windowed multiply-adds (ddGpuArithmeticWindow, off by default): each unrolled step's products summed in a
 * 128-bit fixed-point window, one xf addition per accumulator and step. Another rounding, so its rows are checked
 * against the bound only (not the shipped words). `--no-window` leaves the rows out.
 */
const WINDOW = { label: 'dd window (new)', option: { name: 'dd-window', arithmetic: { gpu: ddGpuArithmeticWindow } }, boundOnly: true } as const;
const windowRows = !process.argv.includes('--no-window');

interface Row {
  kernel: string;
  size: string;
  storage: string;
  arithmetic: string;
  ms: number;
  gbs: number;
  copyFraction: number;
  check: string;
  goal: string;
}
const rows: Row[] = [];
let copyGbs = NaN;

/** Reproducible values in [-1, 1) (xorshift32). */
function fill(out: Float64Array, seed: number, step = 1, offset = 0, scale = 1): void {
  let s = seed >>> 0 || 1;
  for (let k = offset; k < out.length; k += step) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[k] = ((s >>> 0) / 2 ** 31 - 1) * scale;
  }
}

/** A dd vector of n pairs (hi random, lo a random fraction of hi's ulp: a genuine double-double). */
function ddVector(n: number, seed: number): ReturnType<typeof vector> {
  const v = vector(n, { storage: formats.dd, arithmetic: formats.dd });
  const d = v.accessor.data as Float64Array;
  fill(d, seed, 2, 0);
  fill(d, seed + 1, 2, 1, 2 ** -54);
  for (let k = 0; k < n; k++) d[2 * k + 1] = d[2 * k + 1]! * Math.abs(d[2 * k]!);
  return v;
}

async function timeRuns(rt: GpuRuntime, run: () => Promise<unknown>, reps = 5, batches = 5): Promise<number> {
  // --quick (llvmpipe): one run, to check that everything runs and is right.
  const shape = quick ? { reps: 1, batches: 1, warmMs: 0, warmBurst: 1 } : { reps, batches, warmMs: 300, warmBurst: 1 };
  return (await timeDeviceRuns(rt, run, shape)).ms;
}

function push(row: Omit<Row, 'copyFraction'>): void {
  const full = { ...row, copyFraction: row.gbs / copyGbs };
  rows.push(full);
  console.log(`${row.kernel} ${row.size} ${row.storage}/${row.arithmetic}: ${row.ms.toFixed(4)} ms, ${row.gbs.toFixed(0)} GB/s (${(100 * full.copyFraction).toFixed(0)} % of copy) ${row.check} ${row.goal}`);
}

async function benchCopy(rt: GpuRuntime): Promise<void> {
  copyGbs = (await gpujsCopy(rt, (run) => timeRuns(rt, run, 20, 7))).gbs;
}

async function benchDot(rt: GpuRuntime): Promise<void> {
  const n = quick ? 2 ** 14 : 2 ** 26;
  const x = ddVector(n, 3);
  const y = ddVector(n, 5);
  const t0 = performance.now();
  const cpu = dot(x, y);
  const cpuMs = performance.now() - t0;
  const bound = dotBound(x, y);
  for (const storage of ['dd', 'f64'] as const) {
    // f64 storage: the pairs' heads (the same data, half the bytes).
    const hx = storage === 'dd' ? x : vector(Float64Array.from({ length: n }, (_, k) => (x.accessor.data as Float64Array)[2 * k]!), { storage: formats.f64, arithmetic: formats.dd });
    const hy = storage === 'dd' ? y : vector(Float64Array.from({ length: n }, (_, k) => (y.accessor.data as Float64Array)[2 * k]!), { storage: formats.f64, arithmetic: formats.dd });
    const dx = await toDevice(hx as never, { strict: true });
    const dy = await toDevice(hy as never, { strict: true });
    const ref = storage === 'dd' ? cpu : dot(hx, hy);
    const refBound = storage === 'dd' ? bound : dotBound(hx, hy);
    const values: number[] = [];
    for (const variant of [...VARIANTS, ...(windowRows ? [WINDOW] : [])]) {
      const got = await gpuDot(dx, dy, { arithmetic: variant.option, strict: true });
      const boundOnly = 'boundOnly' in variant;
      if (!boundOnly) values.push(got.value);
      const err = Math.abs(got.value - ref);
      const ok = err <= 2 * refBound && (boundOnly || Object.is(got.value, values[0]));
      const ms = await timeRuns(rt, () => gpuDot(dx, dy, { arithmetic: variant.option, strict: true }));
      const bytes = (storage === 'dd' ? 32 : 16) * n;
      const gbs = bytes / ms / 1e6;
      push({
        kernel: 'DOT', size: `n=2^${Math.log2(n)}`, storage, arithmetic: variant.label, ms, gbs,
        check: `|gpu − cpu dd| ${err.toExponential(2)} vs 2·dotBound ${(2 * refBound).toExponential(2)}${boundOnly ? '' : ', same value as fused'}: ${ok ? 'ok' : 'FAILED'} (CPU dd ${cpuMs.toFixed(0)} ms)`,
        goal: storage === 'dd' && variant.label === 'dd' ? `goal ≥ 50 % of copy: ${gbs >= copyGbs / 2 ? 'met' : 'MISSED'}` : '',
      });
    }
    dx.destroy();
    dy.destroy();
  }
}

async function benchGemv(rt: GpuRuntime): Promise<void> {
  const n = quick ? 128 : 8192;
  const A = matrix(n, n, undefined, { storage: formats.dd, arithmetic: formats.dd });
  const ad = A.accessor.data as Float64Array;
  fill(ad, 7, 2, 0);
  fill(ad, 8, 2, 1, 2 ** -54);
  for (let k = 0; k < n * n; k++) ad[2 * k + 1] = ad[2 * k + 1]! * Math.abs(ad[2 * k]!);
  const x = ddVector(n, 11);
  const heads = (r: ReturnType<typeof vector>, len: number): Float64Array => Float64Array.from({ length: len }, (_, k) => (r.accessor.data as Float64Array)[2 * k]!);
  const xa = x.accessor.data as Float64Array;
  for (const storage of ['dd', 'f64'] as const) {
    const hostA = storage === 'dd' ? A : matrix(n, n, undefined, { storage: formats.f64, arithmetic: formats.dd });
    if (storage === 'f64') (hostA.accessor.data as Float64Array).set(heads(A as never, n * n));
    const hx = storage === 'dd' ? x : vector(heads(x, n), { storage: formats.f64, arithmetic: formats.dd });
    const span = await toDeviceSpan(hostA as never, true);
    const dA = deviceMatrix(span.span, n, n);
    const dx = await toDevice(hx as never, { strict: true });
    const dy = await toDevice(new Float64Array(n), { format: 'dd', strict: true });
    let firstWords: Uint32Array | undefined;
    // A third row: the shipped arithmetic with two accumulators per thread (another summation order, so only the
    // bound is checked): whether shorter dependency chains help the compute-bound dd GEMV.
    for (const variant of [...VARIANTS, { label: 'dd, 2 chains', option: 'dd' as const, chains: 2 }, ...(windowRows ? [WINDOW] : [])]) {
      const options = { arithmetic: variant.option, strict: true, ...('chains' in variant ? { chains: variant.chains } : {}) };
      await gpuGemv({ A: dA, x: dx, y: dy, alpha: 1, beta: 0 }, options);
      const words = (await dy.encoded()).words.slice();
      const boundOnly = 'chains' in variant || 'boundOnly' in variant;
      const same = firstWords === undefined || boundOnly || words.every((w, k) => w === firstWords![k]);
      firstWords ??= words;
      const got = new Float64Array(words.buffer, words.byteOffset, 2 * n);
      // Rows checked against the CPU dd DOT of the row (the same stored values).
      let worst = 0;
      let ok = same;
      for (const i of [0, 1, n >> 1, n - 1]) {
        const row = storage === 'dd'
          ? (() => { const r = vector(n, { storage: formats.dd, arithmetic: formats.dd }); const d = r.accessor.data as Float64Array; for (let j = 0; j < n; j++) { d[2 * j] = ad[2 * (i + j * n)]!; d[2 * j + 1] = ad[2 * (i + j * n) + 1]!; } return r; })()
          : vector(Float64Array.from({ length: n }, (_, j) => ad[2 * (i + j * n)]!), { storage: formats.f64, arithmetic: formats.dd });
        const ref = dot(row, hx);
        let mag = 0;
        for (let j = 0; j < n; j++) mag += Math.abs(ad[2 * (i + j * n)]! * xa[2 * j]!);
        const err = Math.abs(got[2 * i]! + got[2 * i + 1]! - ref);
        const allowed = 2 * ((n + 3) * 2 ** -102 * mag) + 2 ** -52 * Math.abs(ref);
        worst = Math.max(worst, err / mag);
        ok &&= err <= allowed;
      }
      const ms = await timeRuns(rt, () => gpuGemv({ A: dA, x: dx, y: dy, alpha: 1, beta: 0 }, options));
      const bytes = (storage === 'dd' ? 16 : 8) * (n * n + n) + 16 * n;
      const gbs = bytes / ms / 1e6;
      const fused = variant.label === 'dd';
      push({
        kernel: 'GEMV N', size: `n=${n}`, storage, arithmetic: variant.label, ms, gbs,
        check: `4 rows vs CPU dd: max |y−y*|/Σ|a·x| ${worst.toExponential(2)}${boundOnly ? '' : ', y words as fused'}: ${ok ? 'ok' : 'FAILED'}`,
        goal: !fused ? '' : storage === 'dd' ? `goal ≥ 50 % of copy: ${gbs >= copyGbs / 2 ? 'met' : 'MISSED'}` : `goal ≤ 2× cuBLAS DGEMV (0.177 ms; this run's figure from cuda-anchors.py): ${ms <= 0.354 ? 'met' : 'MISSED'} vs 0.354 ms`,
      });
    }
    span.span.destroy();
    dx.destroy();
    dy.destroy();
  }
}

async function benchTrsv(rt: GpuRuntime): Promise<void> {
  const n = quick ? 200 : 8192;
  // Lower triangular, well conditioned: off-diagonal ±1/n, diagonal in [1, 2).
  const L = new Float64Array(n * n);
  fill(L, 13, 1, 0, 1 / n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < j; i++) L[i + j * n] = 0;
    L[j + j * n] = 1.5 + 0.5 * L[j + j * n]! * n;
  }
  const b = new Float64Array(n);
  fill(b, 17);
  const times: Record<string, number> = {};
  const A32 = deviceMatrix(await toDevice(L, { format: 'f32', strict: true }), n, n);
  const x32 = await toDevice(b, { format: 'f32', strict: true });
  times.ff = await timeRuns(rt, () => gpuTrsv({ A: A32, x: x32, uplo: 'L' }, { arithmetic: 'ff', strict: true }), 3, 5);
  A32.data.destroy();
  const Add = deviceMatrix(await toDevice(L, { format: 'dd', strict: true }), n, n);
  const xdd = await toDevice(b, { format: 'dd', strict: true });
  await gpuTrsv({ A: Add, x: xdd, uplo: 'L' }, { arithmetic: 'dd', strict: true });
  const w = (await xdd.encoded()).words;
  const got = new Float64Array(w.buffer, w.byteOffset, 2 * n);
  // CPU dd solve of the same system.
  const Lc = matrix(n, n, (i, j) => L[i + j * n]!, { storage: formats.f64, arithmetic: formats.dd });
  const xc = vector(b, { storage: formats.dd, arithmetic: formats.dd });
  trsv({ A: Lc, x: xc, uplo: 'L' });
  const xcd = xc.accessor.data as Float64Array;
  let worst = 0;
  let scale = 0;
  for (let i = 0; i < n; i++) {
    worst = Math.max(worst, Math.abs(got[2 * i]! - xcd[2 * i]! + (got[2 * i + 1]! - xcd[2 * i + 1]!)));
    scale = Math.max(scale, Math.abs(xcd[2 * i]!));
  }
  const xd2 = await toDevice(b, { format: 'dd', strict: true });
  times.dd = await timeRuns(rt, () => gpuTrsv({ A: Add, x: xd2, uplo: 'L' }, { arithmetic: 'dd', strict: true }), 3, 5);
  // The unfused arithmetic (before): the same solution word for word, timed in the same run.
  const xu = await toDevice(b, { format: 'dd', strict: true });
  await gpuTrsv({ A: Add, x: xu, uplo: 'L' }, { arithmetic: VARIANTS[1].option, strict: true });
  const wu = (await xu.encoded()).words;
  const sameAsFused = wu.every((v, k) => v === w[k]);
  times.unfused = await timeRuns(rt, () => gpuTrsv({ A: Add, x: xd2, uplo: 'L' }, { arithmetic: VARIANTS[1].option, strict: true }), 3, 5);
  const bytes = 16 * (n * (n + 1)) / 2 + 32 * n;
  push({ kernel: 'TRSV L N', size: `n=${n}`, storage: 'f32', arithmetic: 'ff', ms: times.ff!, gbs: (4 * (n * (n + 1)) / 2 + 8 * n) / times.ff! / 1e6, check: '', goal: '' });
  push({
    kernel: 'TRSV L N', size: `n=${n}`, storage: 'dd', arithmetic: 'dd', ms: times.dd!, gbs: bytes / times.dd! / 1e6,
    check: `max |x−x_cpu dd|/max|x| ${(worst / scale).toExponential(2)} ${worst / scale < 1e-25 ? 'ok' : 'FAILED'}`,
    goal: `goal ≤ 3× fp32+ff (${(3 * times.ff!).toFixed(3)} ms): ${times.dd! <= 3 * times.ff! ? 'met' : 'MISSED'} (${(times.dd! / times.ff!).toFixed(2)}×)`,
  });
  push({
    kernel: 'TRSV L N', size: `n=${n}`, storage: 'dd', arithmetic: VARIANTS[1].label, ms: times.unfused!, gbs: bytes / times.unfused! / 1e6,
    check: `x words as fused: ${sameAsFused ? 'ok' : 'FAILED'}`, goal: `${(times.unfused! / times.ff!).toFixed(2)}× fp32+ff`,
  });
  Add.data.destroy();
}

/** CUDA figures of the same device call (cuda-anchors.py output), and the device copy bandwidth they measured. */
interface Anchors {
  readonly lines: readonly string[];
  readonly copyGbs: number;
  readonly dgemvMs: number;
}

function readAnchors(file: string): Anchors {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => /^(cuBLAS|cuSPARSE|device copy)/.test(l));
  const figure = (re: RegExp): number => Number(re.exec(lines.join('\n'))?.[1] ?? NaN);
  return { lines, copyGbs: figure(/device copy float64 n=2\^27: [\d.]+ ms\s+(\d+) GB\/s/), dgemvMs: figure(/cuBLAS DGEMV n=8192: ([\d.]+) ms/) };
}

function report(data: { device: string; copyGbs: number; rows: Row[]; date: string }, anchors: Anchors): void {
  const copy = anchors.copyGbs;
  const table = markdownTable(['kernel', 'size', 'storage', 'arithmetic', 'ms', 'GB/s', '% of device copy', 'check (same run)', 'goal'],
    data.rows.map((r) => {
      const fraction = r.gbs / copy;
      let goal = r.goal;
      const shipped = r.arithmetic === 'dd';
      if (shipped && (r.kernel === 'DOT' && r.storage === 'dd' || r.kernel === 'GEMV N' && r.storage === 'dd')) goal = `≥ 50 % of device copy: ${fraction >= 0.5 ? 'met' : 'MISSED'}`;
      if (r.kernel === 'GEMV N' && r.storage === 'f64') goal = shipped ? '' : `${(r.ms / anchors.dgemvMs).toFixed(1)}× cuBLAS DGEMV`;
      if (shipped && r.kernel === 'GEMV N' && r.storage === 'f64') goal = `≤ 2× cuBLAS DGEMV (${anchors.dgemvMs} ms, same call): ${r.ms <= 2 * anchors.dgemvMs ? 'met' : 'MISSED'} (${(r.ms / anchors.dgemvMs).toFixed(1)}×)`;
      return [r.kernel, r.size, r.storage, r.arithmetic, r.ms.toFixed(4), r.gbs.toFixed(0), `${(100 * fraction).toFixed(1)} %`, r.check.replace(/\|/g, '\\|'), goal.replace(/\|/g, '\\|')];
    }));
  writePerformanceSection('dd-gpu', `## Double-double on the GPU (${data.device}) — ${data.date}

Issue 18's goals, produced by \`bench/gpu/dd-gpu.ts\` (raw figures in \`bench/results/dd-gpu.json\`): median per-call time over batches of resident runs; each variant checked in the same run against the CPU's double-double kernels (formats.dd) on the same stored values (DOT within 2·dotBound, GEMV rows within 2·γ_{n+3}(2^-102)·Σ|a·x|, TRSV against the CPU dd solve). Device: ${data.device}. Device copy: CUDA \`cp.copyto\` of 2^27 doubles in the same device call, ${copy} GB/s (gpu.js's f32 copy kernel measured ${data.copyGbs.toFixed(0)} GB/s in the node run). GB/s counts the bytes each kernel must move (dd: 16 bytes per element).

${table}

CUDA figures of the same call (\`cuda-anchors.py\`):

\`\`\`
${anchors.lines.join('\n')}
\`\`\`

**Reading it.** Each kernel runs twice: \`dd\` is the arithmetic as shipped (fused multiply-adds straight from the storage kinds: no pack/unpack of each operand, 16 limb products for two f32/f64 operands instead of 39) and \`dd unfused (before)\` the same arithmetic with every operand packed into a register first (the build before); the two must agree word for word (the check column says so) and their ratio is the gain. DOT is the exception: dd runs its unfused multiply-adds there (the arithmetic's \`dotVariant\`, since session 10), which were 1.6–2.1× faster in DOT's unrolled chains (6.7 vs 10.8 ms dd·dd, 3.4 vs 7.2 ms f64·f64 at 2^26), so both DOT rows run the same code. In the two calls of 2026-11-26 the first f64-storage row of one section took 4.1 ms instead of 1.9 (GEMV) or 3.3 (DOT): the GEMV row in one call, the DOT row in the other, each normal in the other call — a warm-up effect of the bench, not of the arithmetic; a single row is worth checking against a second call. GEMV has a third row, \`dd, 2 chains\`: two accumulators per thread (another summation order, checked against the bound only). All remain compute-bound: every multiply-add still normalises and packs the 112-bit accumulator, and a dd×dd product takes 39 limb products (docs/double-double.md, "Limits", estimates where the integer operations go). DOT and GEMV have a last row, \`dd window (new)\` (\`ddGpuArithmeticWindow\`, off by default; \`--no-window\` drops it): each unrolled step's products summed in a 128-bit fixed-point window from 14-bit-limb products, one xf addition per accumulator and step (docs/double-double.md, "Windowed DOT multiply-adds") — another rounding, so it is checked against the bound only; its ratio to the rows above is the gain.`);
}

async function main(): Promise<void> {
  const from = process.argv.find((a) => a.startsWith('--from='))?.slice(7);
  if (from) {
    const saved = JSON.parse(readFileSync(from, 'utf8')) as { device: string; copyGbs: number; rows: Row[]; date: string };
    const device = process.argv.find((a) => a.startsWith('--device='))?.slice(9);
    if (device) saved.device = device;
    const anchorsFile = process.argv.find((a) => a.startsWith('--anchors='))?.slice(10);
    if (!anchorsFile) throw new Error('--from needs --anchors=<cuda-anchors.py output of the same call>');
    const anchors = readAnchors(anchorsFile);
    writeResults('dd-gpu', { ...saved, anchors });
    report(saved, anchors);
    return;
  }
  const rt = await gpuRuntime();
  if (!rt) {
    console.log(`no GPU: ${gpuUnavailableReason()}`);
    process.exit(1);
  }
  const ad = rt.context.adapter;
  console.log(`adapter: ${ad.name} [${ad.vendor} ${ad.architecture}] via ${ad.backend}`);
  for (const [name, fn] of [['copy', benchCopy], ['dot', benchDot], ['gemv', benchGemv], ['trsv', benchTrsv]] as const) {
    const t0 = performance.now();
    try {
      await fn(rt);
    } catch (e) {
      console.log(`${name} failed: ${(e as Error).stack ?? e}`);
    }
    console.log(`[${name} section: ${((performance.now() - t0) / 1000).toFixed(1)} s]`);
  }
  const data = { device: `${ad.name} (${ad.backend})`, copyGbs, rows, date: today() };
  if (outDir) writeFileSync(join(outDir, 'dd-gpu.json'), JSON.stringify(data, null, 2));
  if (quick) console.log(JSON.stringify(rows.map((r) => [r.kernel, r.storage, r.check])));
  process.exit(0);
}

void main();
