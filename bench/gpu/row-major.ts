/**
 * GEMV and TRSV on row-major matrix views against the same matrix stored column-major (issue 14: the GPU reads any
 * layout in place). n = 8192 (quick: 512), fp32 storage, f32 and ff arithmetic; every row-major result is checked in
 * the same run against the column-major one (relative difference ≤ the kernels' a-priori scale: 2^-20 in f32, 2^-40
 * in ff, per Σ|terms|). Only the public resident API (`toDevice`, `deviceMatrix`, `deviceMatrixView`, `gpuGemv`,
 * `gpuTrsv`), so an older build's dist runs it too: the before/after comparison runs both builds in one device call.
 *
 * Writes $OUT/row-major[-<label>].json; `--from=a.json,b.json --device=…` records runs into bench/results and the
 * `gpu-row-major` section of docs/performance.md.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/row-major.js [--quick] [--label=…] [--out=<dir>]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { timeDeviceRuns } from './device-timing.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

interface Row {
  kernel: string;
  layout: 'column-major' | 'row-major';
  arithmetic: 'f32' | 'ff';
  ms: number;
  /** Largest |row-major − column-major| / Σ|terms| over the rows (0 for the column-major rows). */
  difference: number;
  ok: boolean;
}

interface Run { date: string; label: string; device: string; n: number; rows: Row[] }

/** Reproducible values in [-1, 1) (xorshift32). */
function values(count: number, seed: number): Float64Array {
  const out = new Float64Array(count);
  let s = seed >>> 0 || 1;
  for (let k = 0; k < count; k++) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    out[k] = s / 2 ** 31 - 1;
  }
  return out;
}

async function measure(label: string, quick: boolean): Promise<Run> {
  const rt = await gpuRuntime();
  if (!rt) throw new Error('no WebGPU adapter');
  const n = quick ? 512 : 8192;
  const shape = quick ? { reps: 2, batches: 2, warmMs: 10, warmBurst: 2 } : { reps: 20, batches: 7, warmMs: 300, warmBurst: 10 };
  // A: column-major colData (i + j·n); its transpose's column-major array is A's row-major array.
  const colData = values(n * n, 7);
  const rowData = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) rowData[i * n + j] = colData[i + j * n]!;
  // TRSV: a well-conditioned lower triangle (diagonal 1–2, off-diagonal ≤ 1/n) in both layouts.
  const tri = new Float64Array(n * n), triRow = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    for (let i = j; i < n; i++) {
      const v = i === j ? 1.5 + 0.5 * colData[i + j * n]! : colData[i + j * n]! / n;
      tri[i + j * n] = v;
      triRow[i * n + j] = v;
    }
  }
  const format = { format: 'f32' as const, strict: true as const };
  const colMatrix = deviceMatrix(await toDevice(colData, format), n, n);
  const rowMatrix = deviceMatrixView(await toDevice(rowData, format), { rows: n, cols: n, offset: 0, rowStride: n, colStride: 1 });
  const triCol = deviceMatrix(await toDevice(tri, format), n, n);
  const triRowView = deviceMatrixView(await toDevice(triRow, format), { rows: n, cols: n, offset: 0, rowStride: n, colStride: 1 });
  const x = await toDevice(values(n, 11), format);
  const xAbs = (await x.toHost()).map(Math.abs);
  const rows: Row[] = [];
  for (const arithmetic of ['f32', 'ff'] as const) {
    const tol = arithmetic === 'f32' ? 2 ** -20 : 2 ** -40;
    for (const trans of ['N', 'T'] as const) {
      const results: Float64Array[] = [];
      for (const [layout, A] of [['column-major', colMatrix], ['row-major', rowMatrix]] as const) {
        const y = await toDevice(new Float64Array(n), { format: 'f64', strict: true });
        const run = () => gpuGemv({ A, x, y, trans }, { arithmetic, strict: true });
        await run();
        results.push(await y.toHost());
        const t = await timeDeviceRuns(rt, run, shape);
        // Σ|a_ij·x_j| ≤ Σ|x_j| (|a| < 1): the scale of every row's terms.
        const scale = xAbs.reduce((s, v) => s + v, 0);
        const difference = layout === 'column-major' ? 0 : Math.max(...results[1]!.map((v, i) => Math.abs(v - results[0]![i]!))) / scale;
        rows.push({ kernel: `GEMV ${trans} n=${n}`, layout, arithmetic, ms: t.ms, difference, ok: difference <= tol });
        y.destroy();
      }
    }
    for (const [uplo, trans] of [['L', 'N'], ['L', 'T']] as const) {
      const results: Float64Array[] = [];
      for (const [layout, A] of [['column-major', triCol], ['row-major', triRowView]] as const) {
        const b = values(n, 13);
        let xs = await toDevice(b, { format: 'f64', strict: true });
        await gpuTrsv({ A, x: xs, uplo, trans }, { arithmetic, strict: true });
        results.push(await xs.toHost());
        // x is overwritten: time solves of a fresh copy each (the upload is O(n), the solve O(n²)).
        const t = await timeDeviceRuns(rt, async () => {
          xs.destroy();
          xs = await toDevice(b, { format: 'f64', strict: true });
          return gpuTrsv({ A, x: xs, uplo, trans }, { arithmetic, strict: true });
        }, shape);
        const scale = Math.max(...results[0]!.map(Math.abs)) * 2;
        const difference = layout === 'column-major' ? 0 : Math.max(...results[1]!.map((v, i) => Math.abs(v - results[0]![i]!))) / scale;
        rows.push({ kernel: `TRSV ${uplo} ${trans} n=${n}`, layout, arithmetic, ms: t.ms, difference, ok: difference <= tol * 64 });
        xs.destroy();
      }
    }
  }
  for (const r of rows) console.log(`${label} ${r.kernel} ${r.layout} ${r.arithmetic}: ${r.ms.toFixed(4)} ms, difference ${r.difference.toExponential(1)} ${r.ok ? 'ok' : 'FAILED'}`);
  return { date: today(), label, device: arg('device') ?? '', n, rows };
}

function record(files: string[]): void {
  const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Run);
  const device = arg('device') ?? runs[0]!.device;
  writeResults('gpu-row-major', { device, runs });
  const byKey = (run: Run, r: Row) => run.rows.find((q) => q.kernel === r.kernel && q.layout === r.layout && q.arithmetic === r.arithmetic);
  const base = runs[0]!;
  const header = ['kernel', 'layout', 'arith', ...runs.map((r) => `${r.label} (ms)`), ...(runs.length > 1 ? [`${runs.at(-1)!.label} / ${base.label}`] : []), 'row-major vs column-major'];
  const table = markdownTable(header, base.rows.map((r) => {
    const times = runs.map((run) => byKey(run, r)?.ms);
    const last = times.at(-1), first = times[0];
    return [r.kernel, r.layout, r.arithmetic, ...times.map((t) => (t === undefined ? '—' : t.toFixed(4))),
      ...(runs.length > 1 ? [last !== undefined && first !== undefined ? (last / first).toFixed(2) : '—'] : []),
      runs.map((run) => { const q = byKey(run, r); return q ? `${q.difference.toExponential(1)} ${q.ok ? 'ok' : 'FAILED'}` : '—'; }).join(' / ')];
  }));
  writePerformanceSection('gpu-row-major', `## GEMV and TRSV on row-major matrix views (issue 14) — ${base.date}

${device}. \`bench/gpu/row-major.ts\`: the same fp32 matrix as a column-major array and as a row-major view
(\`deviceMatrixView\`, rowStride n, colStride 1), x and y/b in fp64, median per-call time over 7 batches of 20 resident
calls. The builds ran back to back in one device call (${runs.map((r) => r.label).join(', ')}). The last column is each
build's largest difference between the row-major and the column-major result, relative to the rows' Σ|terms| (GEMV) or
2·max|x| (TRSV), checked against 2^-20 (f32) / 2^-40 (ff) (×64 for TRSV).

${table}`);
}

const from = arg('from');
if (from) {
  record(from.split(','));
} else {
  const label = arg('label') ?? 'this build';
  const run = await measure(label, process.argv.includes('--quick'));
  const out = arg('out') ?? process.env.OUT;
  if (out) writeFileSync(join(out, `row-major${label === 'this build' ? '' : `-${label}`}.json`), JSON.stringify(run, null, 2));
  if (run.rows.some((r) => !r.ok)) process.exitCode = 1;
}
