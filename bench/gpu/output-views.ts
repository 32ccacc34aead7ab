/**
 * What device views cost on the GPU: the same kernel on packed operands and on strided views of a larger span
 * (stride 2, the other elements untouched), timed in the same run. The updates write an output view in place (a
 * strided-output program; an input that is the output view itself is read from the output binding, another input
 * sharing its buffer from a snapshot of its extent; a 16-bit view of stride 2 a half word per thread; an 8-bit view of
 * the guide's E5M2, strides 1 and 2 from element 1, a byte lane per thread — and, timed in the same run with the
 * `userViewsInPlace` switch off, through the packed twin and scatter pass it replaced); GEMV's y of a
 * 16-bit view goes through a packed twin and one scatter pass (a gather pass too when its old values are read); an
 * input view only changes the index arithmetic. Each view run is checked in the same run: its result must
 * equal the packed run's bit for bit, and the span's other elements must keep their bits (exit code 1 otherwise).
 *
 * Writes bench/results/gpu-output-views.json, <out>/gpu-output-views.json (`--out=<dir>`, or $OUT) and, with
 * `--device=<name>`, the `gpu-output-views` section of docs/performance.md.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/output-views.js --out=$OUT --device="NVIDIA H100" (it prints its
 * own running time; sized to stay well under 60 s on an H100); `--quick` for 2^20-element vectors, `--small` for a check
 * on a software adapter (2^14, a few seconds).
 */
import { markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import {
  deviceMatrix, deviceView, gpuDot, gpuGemv, gpuRuntime, gpuUnavailableReason, gpuUpdate, toDevice, type DeviceArray,
} from '../../src/backends/webgpu/index.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { timeDeviceRuns } from './device-timing.js';
import { join } from 'node:path';
import { typedArrayStorage, registerFormat } from '../../src/index.js';
import { setViewStoreSwitches } from '../../src/backends/webgpu/kernel-switches.js';
// The E5M2 writer the GPU tests give the guide's format (compiled with the bench: tsc follows the import).
import { decodeE5M2, e5m2LanePart, encodeE5M2 } from '../../test/gpu/e5m2-gpu-writer.js';

const quick = process.argv.includes('--quick');
const small = process.argv.includes('--small');
const device = process.argv.find((a) => a.startsWith('--device='))?.slice(9);
const outDir = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? process.env.OUT;
/** Vector length and GEMV order of the run. */
const N = small ? 2 ** 14 : quick ? 2 ** 20 : 2 ** 26;
const GEMV_N = small ? 256 : quick ? 1024 : 8192;

interface Row {
  kernel: string;
  size: string;
  operand: string;
  packedMs: number;
  viewMs: number;
  ratio: number;
  sameBits: boolean;
  untouched: boolean;
}
const rows: Row[] = [];

/** Reproducible values in [-1, 1). */
function data(n: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: n }, () => 2 * random.nextDouble() - 1);
}

/** A span of 2n words whose even elements are `values` and odd elements NaN sentinels. */
function interleaved(values: Float32Array): Float32Array {
  const span = new Float32Array(2 * values.length);
  const bits = new Uint32Array(span.buffer);
  for (let k = 0; k < values.length; k++) {
    span[2 * k] = values[k]!;
    bits[2 * k + 1] = 0x7fc00000 | (k & 0x3fffff);
  }
  return span;
}

function sentinelsKept(span: Float32Array): boolean {
  const bits = new Uint32Array(span.buffer, span.byteOffset, span.length);
  for (let k = 0; 2 * k + 1 < span.length; k++) if (bits[2 * k + 1] !== (0x7fc00000 | (k & 0x3fffff))) return false;
  return true;
}

function sameBits(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  return true;
}

/** Median per-call time (ms) over batches of runs, waiting for the device once per batch, after a warm-up (device-timing.ts). */
async function timeRuns(run: () => Promise<unknown>): Promise<number> {
  const rt = await gpuRuntime();
  if (!rt) throw new Error('no GPU runtime');
  return (await timeDeviceRuns(rt, run, small ? { reps: 3, batches: 3, warmMs: 20, warmBurst: 2 } : { reps: 20, batches: 11, warmMs: 300, warmBurst: 5 })).ms;
}

async function hostValues(a: DeviceArray): Promise<Float32Array> {
  return Float32Array.from(await a.toHost());
}

async function spanOf(a: DeviceArray): Promise<Float32Array> {
  // The view's span, read back whole: toHost of a view returns its elements, so read the span through a packed
  // view of all of it.
  return Float32Array.from(await deviceView(a, 0, a.spanLength, 1).toHost());
}

async function gemvCase(n: number): Promise<void> {
  const A = await toDevice(data(n * n, 7), { format: 'f32', strict: true });
  const Am = deviceMatrix(A, n, n);
  const x = await toDevice(data(n, 11), { format: 'f32', strict: true });
  for (const beta of [0, 1]) {
    const y0 = data(n, 13);
    const yPacked = await toDevice(y0, { format: 'f32', strict: true });
    const ySpan = interleaved(y0);
    const yView = deviceView(await toDevice(ySpan, { format: 'f32', strict: true }), 0, n, 2);
    // One checked run each from the same y0, then timed runs (which keep updating y: only time matters then).
    await gpuGemv({ A: Am, x, y: yPacked, beta }, { arithmetic: 'ff' });
    await gpuGemv({ A: Am, x, y: yView, beta }, { arithmetic: 'ff' });
    const same = sameBits(await hostValues(yPacked), await hostValues(yView));
    const untouched = sentinelsKept(await spanOf(yView));
    const packedMs = await timeRuns(() => gpuGemv({ A: Am, x, y: yPacked, beta: 0 }, { arithmetic: 'ff' }));
    const viewMs = await timeRuns(() => gpuGemv({ A: Am, x, y: yView, beta: 0 }, { arithmetic: 'ff' }));
    rows.push({ kernel: `GEMV N, β = ${beta} (checked); timed β = 0`, size: `n=${n}`, operand: 'y (output), stride 2', packedMs, viewMs, ratio: viewMs / packedMs, sameBits: same, untouched });
    yPacked.destroy();
    yView.destroy();
  }
  A.destroy();
  x.destroy();
}

async function updateCase(n: number): Promise<void> {
  const xv = data(n, 17);
  const y0 = data(n, 19);
  const x = await toDevice(xv, { format: 'f32', strict: true });
  const outPacked = await toDevice(y0, { format: 'f32', strict: true });
  const outView = deviceView(await toDevice(interleaved(y0), { format: 'f32', strict: true }), 0, n, 2);
  await gpuUpdate({ alpha: 0.75, x, beta: 0, out: outPacked }, { arithmetic: 'ff' });
  await gpuUpdate({ alpha: 0.75, x, beta: 0, out: outView }, { arithmetic: 'ff' });
  const same = sameBits(await hostValues(outPacked), await hostValues(outView));
  const untouched = sentinelsKept(await spanOf(outView));
  const packedMs = await timeRuns(() => gpuUpdate({ alpha: 0.75, x, beta: 0, out: outPacked }, { arithmetic: 'ff' }));
  const viewMs = await timeRuns(() => gpuUpdate({ alpha: 0.75, x, beta: 0, out: outView }, { arithmetic: 'ff' }));
  rows.push({ kernel: 'update out ← 0.75·x, f32 (written in place)', size: `n=2^${Math.log2(n)}`, operand: 'out (output), stride 2', packedMs, viewMs, ratio: viewMs / packedMs, sameBits: same, untouched });
  x.destroy();
  outPacked.destroy();
  outView.destroy();
}

/** SCAL in place on a stride-2 view (x is out: read from the output binding, no copy), against SCAL in place packed. */
async function scalInPlaceCase(n: number): Promise<void> {
  const y0 = data(n, 31);
  const packed = await toDevice(y0, { format: 'f32', strict: true });
  const view = deviceView(await toDevice(interleaved(y0), { format: 'f32', strict: true }), 0, n, 2);
  // Checked once with a scale that keeps every bit exact (×2), then timed with ×1 (values stay put run after run).
  await gpuUpdate({ alpha: 2, x: packed, beta: 0, out: packed }, { arithmetic: 'f32' });
  await gpuUpdate({ alpha: 2, x: view, beta: 0, out: view }, { arithmetic: 'f32' });
  const same = sameBits(await hostValues(packed), await hostValues(view));
  const untouched = sentinelsKept(await spanOf(view));
  const packedMs = await timeRuns(() => gpuUpdate({ alpha: 1, x: packed, beta: 0, out: packed }, { arithmetic: 'f32' }));
  const viewMs = await timeRuns(() => gpuUpdate({ alpha: 1, x: view, beta: 0, out: view }, { arithmetic: 'f32' }));
  rows.push({ kernel: 'SCAL in place x ← 1·x, f32 (x is out: read from the output binding)', size: `n=2^${Math.log2(n)}`, operand: 'x = out, stride 2', packedMs, viewMs, ratio: viewMs / packedMs, sameBits: same, untouched });
  packed.destroy();
  view.destroy();
}

/** A 16-bit output view of stride 2: written in place a half word per thread. */
async function f16Case(n: number): Promise<void> {
  const xv = data(n, 37);
  const x = await toDevice(xv, { format: 'f16', strict: true });
  const outPacked = await toDevice(new Float32Array(n), { format: 'f16', strict: true });
  const spanInit = new Float32Array(2 * n).fill(-3);
  const span = await toDevice(spanInit, { format: 'f16', strict: true });
  const outView = deviceView(span, 1, n, 2);
  await gpuUpdate({ alpha: 0.5, x, beta: 0, out: outPacked }, { arithmetic: 'f32' });
  await gpuUpdate({ alpha: 0.5, x, beta: 0, out: outView }, { arithmetic: 'f32' });
  const same = sameBits(await hostValues(outPacked), await hostValues(outView));
  const all = await deviceView(span, 0, 2 * n, 1).toHost();
  let untouched = true;
  for (let k = 0; k < n; k++) if (all[2 * k] !== -3) untouched = false;
  const packedMs = await timeRuns(() => gpuUpdate({ alpha: 0.5, x, beta: 0, out: outPacked }, { arithmetic: 'f32' }));
  const viewMs = await timeRuns(() => gpuUpdate({ alpha: 0.5, x, beta: 0, out: outView }, { arithmetic: 'f32' }));
  rows.push({ kernel: 'update out ← 0.5·x, f16 (half-word stores in place)', size: `n=2^${Math.log2(n)}`, operand: 'out (output), stride 2', packedMs, viewMs, ratio: viewMs / packedMs, sameBits: same, untouched });
  x.destroy();
  outPacked.destroy();
  span.destroy();
}

/** The guide's E5M2 (four 8-bit lanes a word), its GPU part writable and declaring `hostBytes`. */
function registerE5M2(): string {
  const name = 'e5m2-bench';
  const part = e5m2LanePart(name);
  registerFormat({
    name,
    storage: {
      ...typedArrayStorage<Uint8Array>({ name, array: Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344, encodeHelper: { name: 'e5m2BenchEncode', fn: encodeE5M2 }, decodeHelper: { name: 'e5m2BenchDecode', fn: decodeE5M2 } }),
      gpu: part,
    },
  });
  return name;
}

/**
 * An 8-bit output view (the guide's E5M2) of stride `stride` from element 1: written in place one byte lane a thread
 * (atomic: view elements share words), and with the `userViewsInPlace` switch off through a packed twin and a scatter
 * pass (the form before) — two rows, the same bits.
 */
async function e5m2Case(n: number, format: string, stride: number): Promise<void> {
  const x = await toDevice(data(n, 41), { format: 'f32', strict: true });
  const outPacked = await toDevice(new Float32Array(n), { format: format as 'f32', strict: true });
  const span = await toDevice(new Float32Array(stride * n + 1).fill(-3), { format: format as 'f32', strict: true });
  const outView = deviceView(span, 1, n, stride);
  const run = (out: DeviceArray) => gpuUpdate({ alpha: 0.5, x, beta: 0, out }, { arithmetic: 'f32' });
  await run(outPacked);
  const expected = await hostValues(outPacked);
  const packedMs = await timeRuns(() => run(outPacked));
  for (const inPlace of [true, false]) {
    const before = setViewStoreSwitches({ userViewsInPlace: inPlace });
    try {
      await run(outView);
      const same = sameBits(expected, await hostValues(outView));
      const all = await deviceView(span, 0, stride * n + 1, 1).toHost();
      let untouched = true;
      const inView = (k: number): boolean => k >= 1 && (k - 1) % stride === 0 && (k - 1) / stride < n;
      for (let k = 0; k < all.length; k++) if (!inView(k) && all[k] !== -3) untouched = false;
      const viewMs = await timeRuns(() => run(outView));
      const form = inPlace ? 'byte lanes in place' : 'twin + scatter (userViewsInPlace off)';
      rows.push({ kernel: `update out ← 0.5·x, E5M2 (${form})`, size: `n=2^${Math.log2(n)}`, operand: `out (output), stride ${stride} from element 1`, packedMs, viewMs, ratio: viewMs / packedMs, sameBits: same, untouched });
    } finally {
      setViewStoreSwitches(before);
    }
  }
  x.destroy();
  outPacked.destroy();
  span.destroy();
}

async function dotCase(n: number): Promise<void> {
  const xv = data(n, 23);
  const yv = data(n, 29);
  const xp = await toDevice(xv, { format: 'f32', strict: true });
  const yp = await toDevice(yv, { format: 'f32', strict: true });
  const xs = deviceView(await toDevice(interleaved(xv), { format: 'f32', strict: true }), 0, n, 2);
  const ys = deviceView(await toDevice(interleaved(yv), { format: 'f32', strict: true }), 0, n, 2);
  const a = await gpuDot(xp, yp, { arithmetic: 'ff' });
  const b = await gpuDot(xs, ys, { arithmetic: 'ff' });
  const packedMs = await timeRuns(() => gpuDot(xp, yp, { arithmetic: 'ff' }));
  const viewMs = await timeRuns(() => gpuDot(xs, ys, { arithmetic: 'ff' }));
  // A strided view reads twice the bytes of a packed array through the cache lines it touches.
  rows.push({ kernel: 'DOT', size: `n=2^${Math.log2(n)}`, operand: 'x, y (inputs), stride 2', packedMs, viewMs, ratio: viewMs / packedMs, sameBits: Object.is(a.value, b.value), untouched: true });
  for (const d of [xp, yp, xs, ys]) d.destroy();
}

async function main(): Promise<void> {
  const rt = await gpuRuntime();
  if (!rt) {
    const reason = gpuUnavailableReason();
    console.log(`no WebGPU adapter (${reason}): nothing measured`);
    return;
  }
  const t0 = performance.now();
  await gemvCase(GEMV_N);
  await updateCase(N);
  await scalInPlaceCase(N);
  await f16Case(N);
  const e5m2 = registerE5M2();
  for (const stride of [1, 2]) await e5m2Case(N, e5m2, stride);
  await dotCase(N);
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  for (const r of rows) console.log(`${r.kernel} ${r.size} ${r.operand}: packed ${r.packedMs.toFixed(4)} ms, view ${r.viewMs.toFixed(4)} ms (${r.ratio.toFixed(2)}×), same bits ${r.sameBits}, sentinels kept ${r.untouched}`);
  const failed = rows.filter((r) => !r.sameBits || !r.untouched);
  const result = { date: today(), device: device ?? 'unrecorded', f32Storage: true, arithmetic: 'ff', rows };
  if (!small) writeResults('gpu-output-views', result);
  if (outDir) writeFileSync(join(outDir, 'gpu-output-views.json'), JSON.stringify(result, null, 1));
  if (device) renderSection(result, device);
  if (failed.length > 0) {
    console.error(`CHECK FAILED: ${failed.map((r) => `${r.kernel} ${r.operand}`).join('; ')}`);
    process.exitCode = 1;
  }
}

/** Writes the docs section from a saved run (`--from=FILE` `--device=NAME`), as the device run does. */
function renderSection(result: { rows: Row[]; date: string }, name: string): void {
  writePerformanceSection('gpu-output-views', [
    `What a device view costs (${name}, ${result.date}; f32 storage, float-float arithmetic; each view run checked in the same run: same bits as the packed run, the span's other elements untouched).`,
    '',
    markdownTable(['kernel', 'size', 'view operand', 'packed ms', 'view ms', 'view / packed', 'same bits', 'span untouched'],
      result.rows.map((r) => [r.kernel, r.size, r.operand, r.packedMs.toFixed(4), r.viewMs.toFixed(4), r.ratio.toFixed(2), String(r.sameBits), String(r.untouched)])),
  ].join('\n'));
}

const from = process.argv.find((a) => a.startsWith('--from='))?.slice(7);
if (from) {
  const saved = JSON.parse(readFileSync(from, 'utf8')) as { rows: Row[]; date: string; device: string };
  writeResults('gpu-output-views', saved);
  renderSection(saved, device ?? saved.device);
} else {
  await main();
}
