/**
 * The fixed cost of a GPU call at small sizes, and the host's share of it (issue 19, item 5). For each kernel (DOT,
 * GEMV N and T, TRSV L N, ELL SpMV, AXPY, WAXPBY, NRM2; f32 storage, float-float arithmetic) and n = 256 … 4096, on
 * warm plans and programs, it times per call:
 * - host: from the call to the moment its work goes to `queue.submit` (argument checks, plan and program look-ups,
 *   pass lists, uniform and bind-group work, encoding) — through the submit probe of src/backends/webgpu/program.ts;
 *   for a call that submits twice (NRM2: the largest magnitude, read back, then the scaled sum) the encoding of the
 *   second submit is added, the read-back wait between them is not (TRSV on ranges: the block inversion of the new
 *   A, the inverses' column copy, the solve — 3 submits; before 2026-11-27 the inversion's submit was not probed and
 *   counted as host time);
 * - submit: the `queue.submit` calls themselves (Dawn's share on the host);
 * - total: from the call until its work is done (the call awaited, then the queue drained): DOT and NRM2 include the
 *   read-back of their value.
 * - created: the device buffers and bind groups a warm call creates (none, since session 15, on resident arrays and
 *   for DOT, GEMV, TRSV and ELL SpMV on ranges).
 * The same for DOT, GEMV N and T, TRSV L N and ELL SpMV through the public API on ranges (`backend: 'gpu'`, rows
 * "(ranges)"): each call uploads its operands and writes its result back through its range.
 * Each is the median over the repetitions; the device waits between calls, so one call's work does not slow the next
 * one's host part. On a software adapter (llvmpipe) the device work is CPU work too: only the host column is a
 * host-side figure there. Every kernel's result is checked once against a double-precision reference in the same run
 * (exit code 1 otherwise).
 *
 * Writes bench/results/gpu-host-cost.json (`--record`: the section of docs/performance.md too), and
 * <out>/gpu-host-cost.json with `--out=<dir>` or $OUT. `--from=FILE` renders a saved run instead of measuring;
 * `--before=FILE` (with `--record` or `--from`) puts an earlier build's saved run beside it (either may list several
 * files, comma-separated: each row's median over them); `--label=…` names the build
 * in the JSON and the table; `--device=…` names the machine; `--reps=N` sets the repetitions (default 41, quick 15).
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/host-cost.js [--quick] [--out=$OUT] [--device="NVIDIA H100"]
 * (`--quick`: n = 256 and 1024, fewer repetitions: a few seconds).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machineDescription, markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import {
  deviceMatrix, gpuDot, gpuEllSpmv, gpuGemv, gpuNrm2, gpuRuntime, gpuTrsv, gpuUnavailableReason, gpuUpdate, toDevice, toDeviceEll,
  type DeviceArray,
} from '../../src/backends/webgpu/index.js';
import { setSubmitProbe } from '../../src/backends/webgpu/program.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { dot, ellSpmv, formats, gemv, matrix, toArray, trsv, vector } from '../../src/index.js';
import { Accurate, rand32 } from './bench-data.js';

const quick = process.argv.includes('--quick');
const record = process.argv.includes('--record');
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const outDir = arg('out') ?? process.env.OUT;
const label = arg('label') ?? 'this build';
const SIZES = quick ? [256, 1024] : [256, 1024, 4096];
const REPS = Number(arg('reps') ?? (quick ? 15 : 41));
const WARM = 5;

interface Row {
  kernel: string;
  n: number;
  hostMs: number;
  /** The least host time of the repetitions: on a loaded machine, nearer the cost of the call's own work than the median. */
  hostMinMs: number;
  /** The part of hostMs spent in submitPasses (recording the passes: uniforms, bind groups, dispatches). */
  encodeMs: number;
  submitMs: number;
  totalMs: number;
  /** `queue.submit` calls per call through submitPasses. */
  submits: number;
  /** Largest error of the checked run relative to its bound scale (≤ 1 passes). */
  check: number;
  /** Device buffers and bind groups created per warm call (absent in runs saved before 2026-11-27). */
  buffers?: number;
  bindGroups?: number;
}

interface Run {
  date: string;
  machine: string;
  device: string;
  label: string;
  rows: Row[];
  /** Runs whose per-row medians these are (see load). */
  medianOf?: number;
}

const ARITHMETIC = { arithmetic: 'ff' } as const;
/** Relative error allowed of a float-float result against Σ|terms| (f32 storage is exact in ff; ~n·2^-44 at most). */
const FF_TOLERANCE = 2 ** -36;

/** Per-call medians of host, submit and total time of `call` (warm). */
async function measure(drain: () => Promise<unknown>, call: () => Promise<unknown>): Promise<{ hostMs: number; hostMinMs: number; encodeMs: number; submitMs: number; totalMs: number; submits: number; buffers: number; bindGroups: number }> {
  for (let r = 0; r < WARM; r++) {
    await call();
    await drain();
  }
  const created = { ...creations };
  const host: number[] = [];
  const encode: number[] = [];
  const submit: number[] = [];
  const total: number[] = [];
  let submits = 0;
  for (let r = 0; r < REPS; r++) {
    // Host: from the call to its first submit, plus the encoding of each later one (a kernel that submitted twice,
    // as NRM2 did before session 12, read a value back in between: that wait is not host work).
    let phaseStart = 0;
    let hostMs = 0;
    let encodeStart = 0;
    let encodeMs = 0;
    let inSubmit = 0;
    let count = 0;
    setSubmitProbe((phase) => {
      const t = performance.now();
      if (phase === 'encode') {
        encodeStart = t;
        if (count > 0) phaseStart = t;
      } else if (phase === 'submit') {
        hostMs += t - phaseStart;
        encodeMs += t - encodeStart;
        phaseStart = t;
      } else if (phase === 'submitted') {
        inSubmit += t - phaseStart;
        count++;
      }
    });
    const t0 = performance.now();
    phaseStart = t0;
    await call();
    setSubmitProbe(undefined);
    await drain();
    const t1 = performance.now();
    host.push(hostMs);
    encode.push(encodeMs);
    submit.push(inSubmit);
    total.push(t1 - t0);
    submits = count;
  }
  const median = (v: number[]): number => v.sort((a, b) => a - b)[v.length >> 1]!;
  return {
    hostMs: median(host), hostMinMs: host[0]!, encodeMs: median(encode), submitMs: median(submit), totalMs: median(total), submits,
    buffers: (creations.buffers - created.buffers) / REPS, bindGroups: (creations.bindGroups - created.bindGroups) / REPS,
  };
}

/** Device buffers and bind groups created so far (counted from main's start on). */
const creations = { buffers: 0, bindGroups: 0 };

/** Counts the device's createBuffer and createBindGroup calls into {@link creations}. */
function countCreations(device: object): void {
  const d = device as Record<string, (...a: unknown[]) => unknown>;
  const createBuffer = d.createBuffer!;
  const createBindGroup = d.createBindGroup!;
  d.createBuffer = (...a) => { creations.buffers++; return createBuffer.apply(device, a); };
  d.createBindGroup = (...a) => { creations.bindGroups++; return createBindGroup.apply(device, a); };
}

/**
 * Largest |got − want| over its allowance: FF_TOLERANCE·Σ|terms| for the float-float computation, plus half an ulp of
 * binary32 (2^-24·|want|) where the result is stored in f32 (`stored`).
 */
function worst(got: ArrayLike<number>, want: readonly number[], scale: readonly number[], stored = false): number {
  let e = 0;
  for (let k = 0; k < want.length; k++) {
    const allowed = FF_TOLERANCE * scale[k]! + (stored ? 2 ** -24 * Math.abs(want[k]!) : 0);
    e = Math.max(e, Math.abs(got[k]! - want[k]!) / Math.max(allowed, 2 ** -149));
  }
  return e;
}

/** y = op(A)·x with A column-major n×n (reference and Σ|terms| per row). */
function matVec(a: Float32Array, x: Float32Array, n: number, trans: boolean): { value: number[]; scale: number[] } {
  const value: number[] = [];
  const scale: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = new Accurate();
    let abs = 0;
    for (let j = 0; j < n; j++) {
      const t = (trans ? a[i * n + j]! : a[j * n + i]!) * x[j]!;
      s.add(t);
      abs += Math.abs(t);
    }
    value.push(s.value);
    scale.push(abs);
  }
  return { value, scale };
}

/** x·y (reference and Σ|terms|, one entry each). */
function dotReference(x: Float32Array, y: Float32Array): { value: number[]; scale: number[] } {
  const s = new Accurate();
  let abs = 0;
  for (let k = 0; k < x.length; k++) {
    s.add(x[k]! * y[k]!);
    abs += Math.abs(x[k]! * y[k]!);
  }
  return { value: [s.value], scale: [abs] };
}

/** A·x for an ELL matrix (reference and Σ|terms| per row; padding entries have column −1). */
function ellReference(ell: ReturnType<typeof laplacianEll>, x: Float32Array): { value: number[]; scale: number[] } {
  const value: number[] = [];
  const scale: number[] = [];
  for (let i = 0; i < ell.rows; i++) {
    const s = new Accurate();
    let abs = 0;
    for (let j = 0; j < ell.width; j++) {
      const c = ell.colIndex[j * ell.stride + i]!;
      if (c < 0) continue;
      const t = ell.values[j * ell.stride + i]! * x[c]!;
      s.add(t);
      abs += Math.abs(t);
    }
    value.push(s.value);
    scale.push(abs);
  }
  return { value, scale };
}

/**
 * A column-major n×n lower triangle for TRSV: unit-ish diagonal and tiny off-diagonal entries, so that repeated
 * solves of x in place keep x bounded.
 */
function lowerTriangle(n: number): Float32Array {
  const lv = rand32(n * n, 11);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) lv[j * n + i] = i === j ? 1 + Math.abs(lv[j * n + i]!) : i > j ? lv[j * n + i]! / (4 * n) : 0;
  return lv;
}

/** Adds a measured row and prints it. */
function pushRow(rows: Row[], kernel: string, n: number, m: Awaited<ReturnType<typeof measure>>, check: number): void {
  rows.push({ kernel, n, ...m, check });
  console.log(`${kernel.padEnd(19)} n=${String(n).padStart(5)}: host ${m.hostMs.toFixed(4)} ms (least ${m.hostMinMs.toFixed(4)}, encode ${m.encodeMs.toFixed(4)}), submit ${m.submitMs.toFixed(4)} ms, total ${m.totalMs.toFixed(4)} ms (${m.submits} submit${m.submits === 1 ? '' : 's'}; per call ${m.buffers} buffers, ${m.bindGroups} bind groups created), check ${check.toExponential(1)}`);
}

async function kernelRows(n: number, rows: Row[]): Promise<void> {
  const rt = (await gpuRuntime())!;
  const drain = (): Promise<unknown> => rt.context.device.queue.onSubmittedWorkDone();
  const xv = rand32(n, 3);
  const yv = rand32(n, 5);
  const x = await toDevice(xv, { format: 'f32', strict: true });
  const y = await toDevice(yv, { format: 'f32', strict: true });
  const out = await toDevice(new Float32Array(n), { format: 'f32', strict: true });
  const push = (kernel: string, m: Awaited<ReturnType<typeof measure>>, check: number): void => pushRow(rows, kernel, n, m, check);


  // DOT (value read back) and NRM2.
  {
    const ref = dotReference(xv, yv);
    const { value } = await gpuDot(x, y, ARITHMETIC);
    push('DOT', await measure(drain, () => gpuDot(x, y, ARITHMETIC)), worst([value], ref.value, ref.scale));
    const q = new Accurate();
    for (let k = 0; k < n; k++) q.add(xv[k]! * xv[k]!);
    const norm = await gpuNrm2(x, ARITHMETIC);
    push('NRM2', await measure(drain, () => gpuNrm2(x, ARITHMETIC)), worst([norm.value], [Math.sqrt(q.value)], [Math.sqrt(q.value)]));
  }

  // AXPY y ← α·x + y (in place; α tiny so y stays put over the repetitions) and WAXPBY out ← α·x + β·y.
  {
    const yAxpy = await toDevice(yv, { format: 'f32', strict: true });
    await gpuUpdate({ alpha: 0.5, x, beta: 1, y: yAxpy, out: yAxpy }, ARITHMETIC);
    const got = await yAxpy.toHost();
    // The result is rounded once to binary32 storage: half an ulp of it, i.e. 2^-24 relative.
    const want = Array.from(xv, (v, k) => 0.5 * v + yv[k]!);
    const check = worst(got, want, Array.from(xv, (v, k) => Math.abs(0.5 * v) + Math.abs(yv[k]!)), true);
    push('AXPY', await measure(drain, () => gpuUpdate({ alpha: 2 ** -30, x, beta: 1, y: yAxpy, out: yAxpy }, ARITHMETIC)), check);
    yAxpy.destroy();
    await gpuUpdate({ alpha: 0.5, x, beta: -2, y, out }, ARITHMETIC);
    const gotW = await out.toHost();
    const wantW = Array.from(xv, (v, k) => 0.5 * v - 2 * yv[k]!);
    push('WAXPBY', await measure(drain, () => gpuUpdate({ alpha: 0.5, x, beta: -2, y, out }, ARITHMETIC)), worst(gotW, wantW, Array.from(xv, (v, k) => Math.abs(0.5 * v) + Math.abs(2 * yv[k]!)), true));
  }

  // GEMV N and T, y ← A·x (β = 0: y is the same after every repetition).
  {
    const av = rand32(n * n, 7);
    const A = deviceMatrix(await toDevice(av, { format: 'f32', strict: true }), n, n);
    for (const trans of ['N', 'T'] as const) {
      await gpuGemv({ A, x, y: out, trans }, ARITHMETIC);
      const ref = matVec(av, xv, n, trans === 'T');
      const check = worst(await out.toHost(), ref.value, ref.scale, true);
      push(`GEMV ${trans}`, await measure(drain, () => gpuGemv({ A, x, y: out, trans }, ARITHMETIC)), check);
    }
    A.data.destroy();
  }

  // TRSV L N: unit-ish diagonal and tiny off-diagonal entries, so that repeated solves of x in place keep x bounded.
  {
    const lv = lowerTriangle(n);
    const L = deviceMatrix(await toDevice(lv, { format: 'f32', strict: true }), n, n);
    const b = await toDevice(yv, { format: 'f32', strict: true });
    await gpuTrsv({ A: L, x: b, uplo: 'L' }, ARITHMETIC);
    const sol = await b.toHost();
    // Residual L·x − b over Σ|L_ij·x_j| (backward error: float-float solve, binary32 rounding of x at the end).
    const res = matVec(lv, Float32Array.from(sol), n, false);
    const check = worst(res.value, Array.from(yv), res.scale.map((s) => s * 2 ** -23 / FF_TOLERANCE));
    const xs = await toDevice(yv, { format: 'f32', strict: true });
    push('TRSV L N', await measure(drain, () => gpuTrsv({ A: L, x: xs, uplo: 'L' }, ARITHMETIC)), check);
    for (const d of [L.data, b, xs]) d.destroy();
  }

  // ELL SpMV y ← A·x, the 2-D Laplacian of a √n × √n grid (5 entries per row).
  {
    const g = Math.round(Math.sqrt(n));
    const ell = laplacianEll([g, g]);
    const A = await toDeviceEll(ell, { format: 'f32', strict: true });
    const xe = await toDevice(xv.subarray(0, ell.cols), { format: 'f32', strict: true });
    const ye = await toDevice(new Float32Array(ell.rows), { format: 'f32', strict: true });
    await gpuEllSpmv({ A, x: xe, y: ye }, ARITHMETIC);
    const ref = ellReference(ell, xv);
    const check = worst(await ye.toHost(), ref.value, ref.scale, true);
    push('ELL SpMV', await measure(drain, () => gpuEllSpmv({ A, x: xe, y: ye }, ARITHMETIC)), check);
    for (const d of [A.values, xe, ye]) d.destroy();
  }
  for (const d of [x, y, out] as DeviceArray[]) d.destroy();
}

/**
 * The same kernels through the public API on ranges (`backend: 'gpu'`, f32 storage, float-float arithmetic): each
 * call uploads its operands (their contents may have changed since the last call) and writes its result back
 * through its range; its total includes that read-back. ELL SpMV's matrix is a plain ELL matrix (fp64 values).
 */
async function rangeRows(n: number, rows: Row[]): Promise<void> {
  const rt = (await gpuRuntime())!;
  const drain = (): Promise<unknown> => rt.context.device.queue.onSubmittedWorkDone();
  const st = { storage: formats.f32, arithmetic: formats.f32 };
  const options = { backend: 'gpu', arithmetic: formats.ff, strict: true } as const;
  const xv = rand32(n, 3);
  const yv = rand32(n, 5);
  const x = vector(xv, st), y = vector(yv, st), out = vector(n, st);
  const push = (kernel: string, m: Awaited<ReturnType<typeof measure>>, check: number): void => pushRow(rows, `${kernel} (ranges)`, n, m, check);
  {
    const ref = dotReference(xv, yv);
    const { value } = await dot(x, y, options);
    push('DOT', await measure(drain, () => dot(x, y, options)), worst([value], ref.value, ref.scale));
  }
  {
    const av = rand32(n * n, 7);
    const A = matrix(n, n, (i, j) => av[j * n + i]!, { ...st, layout: 'col-major' });
    for (const trans of ['N', 'T'] as const) {
      await gemv({ alpha: 1, A, x, beta: 0, y: out, trans }, options);
      const ref = matVec(av, xv, n, trans === 'T');
      push(`GEMV ${trans}`, await measure(drain, () => gemv({ alpha: 1, A, x, beta: 0, y: out, trans }, options)), worst(toArray(out), ref.value, ref.scale, true));
    }
  }
  {
    const lv = lowerTriangle(n);
    const L = matrix(n, n, (i, j) => lv[j * n + i]!, { ...st, layout: 'col-major' });
    const b = vector(yv, st);
    await trsv({ A: L, x: b, uplo: 'L' }, options);
    const res = matVec(lv, Float32Array.from(toArray(b)), n, false);
    const check = worst(res.value, Array.from(yv), res.scale.map((q) => q * 2 ** -23 / FF_TOLERANCE));
    // Solved again in place on every repetition: x stays bounded (unit-ish diagonal, tiny off-diagonal entries).
    push('TRSV L N', await measure(drain, () => trsv({ A: L, x: b, uplo: 'L' }, options)), check);
  }
  {
    const g = Math.round(Math.sqrt(n));
    const ell = laplacianEll([g, g]);
    const xe = vector(xv.subarray(0, ell.cols), st), ye = vector(ell.rows, st);
    await ellSpmv({ alpha: 1, A: ell, x: xe, beta: 0, y: ye }, options);
    const ref = ellReference(ell, xv);
    push('ELL SpMV', await measure(drain, () => ellSpmv({ alpha: 1, A: ell, x: xe, beta: 0, y: ye }, options)), worst(toArray(ye), ref.value, ref.scale, true));
  }
}

/**
 * A saved run: this bench's JSON in $OUT, or bench/results' copy of it (wrapped with machine and date); several files,
 * comma-separated (runs of one build taken in turn with another's on a loaded machine), give each row's medians.
 */
function load(files: string): Run {
  const runs = files.split(',').map((file) => {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Run | { data: Run };
    return 'data' in saved ? saved.data : saved;
  });
  if (runs.length === 1) return runs[0]!;
  const median = (v: number[]): number => v.sort((a, b) => a - b)[v.length >> 1]!;
  const rows = runs[0]!.rows.map((r) => {
    const same = runs.map((run) => run.rows.find((q) => q.kernel === r.kernel && q.n === r.n)!);
    return { ...r, hostMs: median(same.map((q) => q.hostMs)), hostMinMs: Math.min(...same.map((q) => q.hostMinMs)), encodeMs: median(same.map((q) => q.encodeMs)), submitMs: median(same.map((q) => q.submitMs)), totalMs: median(same.map((q) => q.totalMs)), check: Math.max(...same.map((q) => q.check)) };
  });
  return { ...runs[0]!, medianOf: runs.length, rows };
}

const HEADER = [
  'f32 storage, float-float arithmetic, warm plans and programs, medians per call. *host*: from the call until its work is',
  'handed to `queue.submit` (checks, plan and program look-ups, uniform and bind-group work, encoding), and its least value over',
  'the repetitions (runs) — on a loaded machine nearer the cost of the work itself; *encoding*: its part',
  'in `submitPasses` (uniforms, bind groups, the compute pass and its dispatches); *submit*: `queue.submit` itself; *total*:',
  'until the work is done (DOT and NRM2 read their value back, one wait each: NRM2 has submitted once since session 12, its',
  'maximum and sum read through one staging buffer). On a software adapter the device work is CPU work too: only *host* and *encoding* are host-side figures there,',
  'and they include cold caches: llvmpipe has just run the previous call\'s kernels on the same cores (hence GEMV\'s and TRSV\'s',
  'larger host times there). Separate runs on a loaded machine differ by tens of percent: compare builds with',
  '`bench/gpu/host-cost-ab.ts`, which runs both in one process.',
];

function render(run: Run, before?: Run): void {
  const fmt = (v: number | undefined): string => (v === undefined ? '—' : v.toFixed(4));
  const created = (r: Row | undefined): string => (r?.buffers === undefined ? '—' : `${+r.buffers.toFixed(2)} / ${+r.bindGroups!.toFixed(2)}`);
  if (!before) {
    writePerformanceSection('gpu-host-cost', [
      `## Fixed cost of a GPU call at small sizes: the host's share — ${run.device}, ${run.date}`,
      '',
      `\`bench/gpu/host-cost.ts\` (${run.label}${run.medianOf ? `, each figure the median of ${run.medianOf} runs' medians (least: the least of them)` : ''}; ${run.machine}).`,
      ...HEADER,
      '',
      markdownTable(['kernel', 'n', 'host ms', 'least host ms', 'of which encoding', 'submit ms', 'total ms', 'submits', 'buffers / bind groups created per call', 'check (≤ 1)'],
        run.rows.map((r) => [r.kernel, r.n, fmt(r.hostMs), fmt(r.hostMinMs), fmt(r.encodeMs), fmt(r.submitMs), fmt(r.totalMs), r.submits, created(r), r.check.toExponential(1)])),
    ].join('\n'));
    return;
  }
  const earlier = new Map(before.rows.map((r) => [`${r.kernel}|${r.n}`, r]));
  writePerformanceSection('gpu-host-cost', [
    `## Fixed cost of a GPU call at small sizes: the host's share, ${before.label} and ${run.label} — ${run.device}, ${run.date}`,
    '',
    `\`bench/gpu/host-cost.ts\` of both builds on one machine (${run.machine}), the runs taken in turn${run.medianOf ? `; each figure the median of ${run.medianOf} runs' medians` : ''}.`,
    ...HEADER,
    '',
    markdownTable(['kernel', 'n', `host ms, ${before.label}`, `host ms, ${run.label}`, 'ratio', `least host ms, ${before.label}`, `least host ms, ${run.label}`, 'ratio', `encoding, ${before.label}`, `encoding, ${run.label}`, `total ms, ${before.label}`, `total ms, ${run.label}`, `created per call, ${before.label}`, `created per call, ${run.label}`, 'check (≤ 1)'],
      run.rows.map((r) => {
        const b = earlier.get(`${r.kernel}|${r.n}`);
        return [r.kernel, r.n, fmt(b?.hostMs), fmt(r.hostMs), b ? (r.hostMs / b.hostMs).toFixed(2) : '—', fmt(b?.hostMinMs), fmt(r.hostMinMs), b ? (r.hostMinMs / b.hostMinMs).toFixed(2) : '—', fmt(b?.encodeMs), fmt(r.encodeMs), fmt(b?.totalMs), fmt(r.totalMs), created(b), created(r), r.check.toExponential(1)];
      })),
  ].join('\n'));
}

async function main(): Promise<void> {
  const rt = await gpuRuntime();
  if (!rt) {
    console.log(`no WebGPU adapter (${gpuUnavailableReason()}): nothing measured`);
    return;
  }
  const device = arg('device') ?? `${rt.context.adapter.name} (${rt.context.adapter.backend})`;
  countCreations(rt.context.device);
  const t0 = performance.now();
  const rows: Row[] = [];
  for (const n of SIZES) await kernelRows(n, rows);
  for (const n of SIZES) await rangeRows(n, rows);
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const run: Run = { date: today(), machine: machineDescription(), device, label, rows };
  writeResults('gpu-host-cost', run);
  if (outDir) writeFileSync(join(outDir, 'gpu-host-cost.json'), JSON.stringify(run, null, 1));
  if (record) render(run, beforeFile ? load(beforeFile) : undefined);
  const failed = rows.filter((r) => !(r.check <= 1));
  if (failed.length > 0) {
    console.error(`CHECK FAILED: ${failed.map((r) => `${r.kernel} n=${r.n} (${r.check})`).join('; ')}`);
    process.exitCode = 1;
  }
}

const from = arg('from');
const beforeFile = arg('before');
if (from) {
  render(load(from), beforeFile ? load(beforeFile) : undefined);
} else {
  await main();
}
