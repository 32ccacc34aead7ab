/**
 * The GPU's elementwise updates (AXPY, WAXPBY, SCAL into a separate output) with four elements per thread and vector
 * loads, against the one-element-per-thread program they replaced, in the same run: n = 2^26 takes the vector program,
 * n = 2^26 + 1 (not a multiple of four) the scalar one, so the two differ by one element of traffic. The yardstick is
 * the CUDA device copy of shared/tools/cuda-anchors.py run on the same lease (`--anchors=<log>` when recording;
 * `gpuConvert` allocates its destination per call, far too slow to be one). Checked in
 * the same run: the vector run's output equals the scalar run's on the first 2^26 elements bit for bit (exit code 1
 * otherwise).
 *
 * Writes bench/results/gpu-update-vector.json, <out>/gpu-update-vector.json (`--out=<dir>`, or $OUT) and, with
 * `--device=<name>`, the `gpu-update-vector` section of docs/performance.md; `--from=<json>` records a saved run.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/update-vector.js --out=$OUT (about 150 s on an H100, mostly uploads); `--small`
 * for a check on a software adapter (2^16).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import { gpuRuntime, gpuUnavailableReason, gpuUpdate, toDevice, type DeviceArray, type GpuFormatName } from '../../src/backends/webgpu/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { timeDeviceRuns } from './device-timing.js';

const small = process.argv.includes('--small');
const device = process.argv.find((a) => a.startsWith('--device='))?.slice(9);
const from = process.argv.find((a) => a.startsWith('--from='))?.slice(7);
const outDir = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? process.env.OUT;
const N = small ? 2 ** 16 : 2 ** 26;

interface Row { shape: string; format: string; arithmetic: string; bytesPerElement: number; vectorMs: number; scalarMs: number; sameBits: boolean }
interface Run { date: string; adapter: string; n: number; rows: Row[] }

function data(n: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: n }, () => 2 * random.nextDouble() - 1);
}

async function words(a: DeviceArray): Promise<Uint32Array> {
  return (await a.encoded()).words;
}

const SHAPES = [
  { shape: 'SCAL-like out ← α·x', reads: 1, alpha: 0.75, beta: 0, y: false },
  { shape: 'AXPY y ← α·x + y', reads: 2, alpha: 0.75, beta: 1, y: true },
  { shape: 'WAXPBY w ← α·x + β·y', reads: 2, alpha: 0.75, beta: -1.25, y: true },
] as const;

async function measure(): Promise<Run> {
  const rt = await gpuRuntime();
  if (!rt) throw new Error(`no WebGPU adapter (${gpuUnavailableReason()})`);
  const time = async (run: () => Promise<unknown>): Promise<number> =>
    (await timeDeviceRuns(rt, run, small ? { reps: 3, batches: 3, warmMs: 20, warmBurst: 2 } : { reps: 20, batches: 11, warmMs: 300, warmBurst: 5 })).ms;
  const xv = data(N + 1, 3), yv = data(N + 1, 5);
  const rows: Row[] = [];
  for (const format of ['f32', 'f16', 'bf16'] as GpuFormatName[]) {
    for (const arithmetic of ['f32', 'ff'] as const) {
      for (const s of SHAPES) {
        const run = async (n: number): Promise<{ ms: number; out: Uint32Array }> => {
          const x = await toDevice(xv.subarray(0, n), { format, strict: true });
          const y = await toDevice(yv.subarray(0, n), { format, strict: true });
          const w = s.shape.startsWith('AXPY') ? y : await toDevice(new Float32Array(n), { format, strict: true });
          const args = { alpha: s.alpha, x, beta: s.beta, ...(s.y ? { y } : {}), out: w };
          // The checked output is that of one call from the initial values (AXPY updates y in place).
          await gpuUpdate(args, { arithmetic });
          const out = await words(w);
          const ms = await time(() => gpuUpdate(args, { arithmetic }));
          for (const a of new Set([x, y, w])) a.destroy();
          return { ms, out };
        };
        const vector = await run(N);
        const scalar = await run(N + 1);
        const perWord = format === 'f32' ? 1 : 2;
        const sameBits = vector.out.every((v, k) => v === scalar.out[k]) && vector.out.length === N / perWord;
        rows.push({ shape: s.shape, format, arithmetic, bytesPerElement: (s.reads + 1) * (format === 'f32' ? 4 : 2), vectorMs: vector.ms, scalarMs: scalar.ms, sameBits });
        console.log(`${s.shape} ${format} ${arithmetic}: vector ${vector.ms.toFixed(4)} ms, scalar ${scalar.ms.toFixed(4)} ms, same bits ${sameBits}`);
      }
    }
  }
  return { date: today(), adapter: rt.context.adapter.name, n: N, rows };
}

/** The CUDA float32 device copy's GB/s in a cuda-anchors.py log. */
function anchorCopy(): number {
  const file = process.argv.find((a) => a.startsWith('--anchors='))?.slice(10);
  const line = file ? readFileSync(file, 'utf8').split('\n').find((l) => /device copy float32/.test(l)) : undefined;
  const gbps = line ? Number(/([\d.]+) GB\/s/.exec(line)?.[1]) : NaN;
  if (!(gbps > 0)) throw new Error('recording needs --anchors=<cuda-anchors.py log of the same device call> with its "device copy float32" line');
  return gbps;
}

function record(run: Run, deviceName: string): void {
  const copyGbps = anchorCopy();
  writeResults('gpu-update-vector', { device: deviceName, copyGbps, ...run });
  const gbps = (r: Row, ms: number): number => (r.bytesPerElement * run.n) / ms / 1e6;
  const table = markdownTable(
    ['update', 'storage', 'arith', 'bytes / element', 'vector ms', 'GB/s', 'of copy', 'scalar ms (n + 1)', 'GB/s', 'of copy', 'speed-up', 'same bits'],
    run.rows.map((r) => [r.shape, r.format, r.arithmetic, r.bytesPerElement, r.vectorMs.toFixed(4), gbps(r, r.vectorMs).toFixed(0), `${(100 * gbps(r, r.vectorMs) / copyGbps).toFixed(0)} %`,
      r.scalarMs.toFixed(4), gbps(r, r.scalarMs).toFixed(0), `${(100 * gbps(r, r.scalarMs) / copyGbps).toFixed(0)} %`, (r.scalarMs / r.vectorMs).toFixed(2), String(r.sameBits)]),
  );
  writePerformanceSection('gpu-update-vector', `## GPU elementwise updates with vector loads — ${deviceName}, ${run.date}

\`bench/gpu/update-vector.ts\`: n = 2^${Math.log2(run.n)} takes the update program with four elements per thread (one
vector load per input, four output elements per thread), n = 2^${Math.log2(run.n)} + 1 the one-element-per-thread
program (a length that is not a multiple of four), in the same process. Median per-call time over 11 batches of 20
resident calls. GB/s counts each input read and the output written once; "of copy" is against the CUDA device copy
(float32, shared/tools/cuda-anchors.py) measured on the same lease of the same machine: ${copyGbps.toFixed(0)} GB/s. "same bits": the vector
run's output equals the scalar run's on the first n elements, word for word.

${table}`);
}

async function main(): Promise<void> {
  if (from) {
    record(JSON.parse(readFileSync(from, 'utf8')) as Run, device ?? 'the lent GPU');
    return;
  }
  const t0 = performance.now();
  const run = await measure();
  if (outDir) writeFileSync(join(outDir, 'gpu-update-vector.json'), JSON.stringify(run, null, 1));
  if (device) record(run, device);
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (run.rows.some((r) => !r.sameBits)) process.exitCode = 1;
}

await main();
