/**
 * The host's share of a small GPU call in two builds, measured in one process: each build's compiled tree (its own
 * modules, runtime and device) runs the same calls, the two taking turns call by call, so the load of a shared machine
 * falls on both alike (run after run, separate processes differed by ±50 % on a loaded 2-core VM: more than the
 * change measured). Per kernel (the cases of ./host-cost.ts, f32 storage, float-float) and n: the median and least time
 * from the call to its first `queue.submit` (the submit probe of each tree's program.ts), the device drained after
 * every call. The results themselves are checked by ./host-cost.ts.
 *
 * Writes bench/results/gpu-host-cost-ab-n<n>.json and, with `--record`, the `gpu-host-cost-ab-n<n>` section of
 * docs/performance.md.
 *
 * Run: node dist/bench/gpu/host-cost-ab.js --base=<dist of the earlier build> [--head=<dist; default this one>]
 *   [--base-label=…] [--head-label=…] [--n=256] [--reps=61] [--record] — one n per process (a second size's set-up in
 *   both trees crashed Dawn on llvmpipe).
 * (both trees need the submit probe: builds from commit c003781 on).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machineDescription, markdownTable, today, writePerformanceSection, writeResults } from '../report.js';
import { rand32 } from './bench-data.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const here = dirname(fileURLToPath(import.meta.url));
const headDist = resolve(arg('head') ?? join(here, '..', '..'));
const baseDist = arg('base');
// One size per process: setting up a second size's operands in both trees' devices crashed Dawn on llvmpipe.
const N = Number(arg('n') ?? 256);
const REPS = Number(arg('reps') ?? 61);
const WARM = 5;
const labels = { base: arg('base-label') ?? 'base', head: arg('head-label') ?? 'this build' };

// Each tree is loaded at run time from its own path: its modules are typed `any` here.
type Call = () => Promise<unknown>;
interface Side {
  calls: Record<string, Call>;
  drain: () => Promise<unknown>;
  /** Runs kernel `k` once; the time from the call to its first submit, and until the call's promise settled (ms). */
  run: (k: string) => Promise<{ first: number; whole: number }>;
  device: string;
}

/** One build's tree, set up with the same operands as the other's. */
async function side(dist: string, n: number): Promise<Side> {
  const load = (path: string): Promise<any> => import(pathToFileURL(join(dist, path)).href);
  const g = await load('src/backends/webgpu/index.js');
  const program = await load('src/backends/webgpu/program.js');
  const laplacian = await load('src/sparse/laplacian.js');
  const api = await load('src/index.js');
  const rt = await g.gpuRuntime();
  if (!rt) throw new Error(`no WebGPU adapter (${g.gpuUnavailableReason()})`);
  const f32 = { format: 'f32', strict: true };
  const v = rand32(n, 3);
  const x = await g.toDevice(v, f32);
  const y = await g.toDevice(rand32(n, 5), f32);
  const out = await g.toDevice(new Float32Array(n), f32);
  const t = await g.toDevice(rand32(n, 7), f32);
  const A = g.deviceMatrix(await g.toDevice(rand32(n * n, 9), f32), n, n);
  // Unit diagonal, tiny entries below it: repeated solves in place keep x bounded.
  const l = rand32(n * n, 11).map((e, k) => (k % (n + 1) === 0 ? 1 : k % n > Math.floor(k / n) ? e / (4 * n) : 0));
  const L = g.deviceMatrix(await g.toDevice(l, f32), n, n);
  const grid = Math.round(Math.sqrt(n));
  const E = await g.toDeviceEll(laplacian.laplacianEll([grid, grid]), f32);
  const xe = await g.toDevice(v.subarray(0, E.cols), f32);
  const ye = await g.toDevice(new Float32Array(E.rows), f32);
  const ff = { arithmetic: 'ff' };
  const calls: Record<string, Call> = {
    DOT: () => g.gpuDot(x, y, ff),
    NRM2: () => g.gpuNrm2(x, ff),
    AXPY: () => g.gpuUpdate({ alpha: 2 ** -30, x, beta: 1, y: t, out: t }, ff),
    WAXPBY: () => g.gpuUpdate({ alpha: 0.5, x, beta: -2, y, out }, ff),
    'GEMV N': () => g.gpuGemv({ A, x, y: out }, ff),
    'GEMV T': () => g.gpuGemv({ A, x, y: out, trans: 'T' }, ff),
    'TRSV L N': () => g.gpuTrsv({ A: L, x: t, uplo: 'L' }, ff),
    'ELL SpMV': () => g.gpuEllSpmv({ A: E, x: xe, y: ye }, ff),
  };
  // The public API on ranges (backend: 'gpu'): each call uploads its operands and writes its result back.
  const st = { storage: api.formats.f32, arithmetic: api.formats.f32 };
  const gpu = { backend: 'gpu', arithmetic: api.formats.ff, strict: true };
  const av = rand32(n * n, 9);
  const rx = api.vector(v, st), ry = api.vector(rand32(n, 5), st), rout = api.vector(n, st), rb = api.vector(rand32(n, 7), st);
  const rA = api.matrix(n, n, (i: number, j: number) => av[j * n + i], { ...st, layout: 'col-major' });
  const rL = api.matrix(n, n, (i: number, j: number) => l[j * n + i], { ...st, layout: 'col-major' });
  const rE = laplacian.laplacianEll([grid, grid]);
  const rxe = api.vector(v.subarray(0, rE.cols), st), rye = api.vector(rE.rows, st);
  Object.assign(calls, {
    'DOT (ranges)': () => api.dot(rx, ry, gpu),
    'GEMV N (ranges)': () => api.gemv({ alpha: 1, A: rA, x: rx, beta: 0, y: rout, trans: 'N' }, gpu),
    'GEMV T (ranges)': () => api.gemv({ alpha: 1, A: rA, x: rx, beta: 0, y: rout, trans: 'T' }, gpu),
    'TRSV L N (ranges)': () => api.trsv({ A: rL, x: rb, uplo: 'L' }, gpu),
    'ELL SpMV (ranges)': () => api.ellSpmv({ alpha: 1, A: rE, x: rxe, beta: 0, y: rye }, gpu),
  });
  let start = 0;
  let first = NaN;
  let submits = 0;
  program.setSubmitProbe((phase: string) => {
    if (phase === 'submit' && submits++ === 0) first = performance.now() - start;
  });
  return {
    calls,
    drain: () => rt.context.device.queue.onSubmittedWorkDone(),
    run: async (k) => {
      submits = 0;
      start = performance.now();
      await calls[k]!();
      return { first, whole: performance.now() - start };
    },
    device: `${rt.context.adapter.name} (${rt.context.adapter.backend})`,
  };
}

interface Row { kernel: string; n: number; baseMs: number; headMs: number; baseLeastMs: number; headLeastMs: number; baseWholeMs: number; headWholeMs: number }

async function main(): Promise<void> {
  if (!baseDist) throw new Error('--base=<dist folder of the earlier build> is required');
  const rows: Row[] = [];
  let device = '';
  const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  for (const n of [N]) {
    const sides = { base: await side(resolve(baseDist), n), head: await side(headDist, n) };
    device = sides.head.device;
    for (const k of Object.keys(sides.head.calls)) {
      const times = { base: [] as number[], head: [] as number[] };
      const whole = { base: [] as number[], head: [] as number[] };
      for (const s of ['base', 'head'] as const) {
        for (let r = 0; r < WARM; r++) {
          await sides[s].run(k);
          await sides[s].drain();
        }
      }
      for (let r = 0; r < REPS; r++) {
        // Alternate which build goes first, so neither always follows the other's device work.
        for (const s of r % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const)) {
          const t = await sides[s].run(k);
          times[s].push(t.first);
          whole[s].push(t.whole);
          await sides[s].drain();
        }
      }
      const row = { kernel: k, n, baseMs: median(times.base), headMs: median(times.head), baseLeastMs: Math.min(...times.base), headLeastMs: Math.min(...times.head), baseWholeMs: median(whole.base), headWholeMs: median(whole.head) };
      rows.push(row);
      console.log(`${k.padEnd(9)} n=${String(n).padStart(5)}: median ${row.baseMs.toFixed(4)} → ${row.headMs.toFixed(4)} ms (${(row.headMs / row.baseMs).toFixed(2)}), least ${row.baseLeastMs.toFixed(4)} → ${row.headLeastMs.toFixed(4)} ms (${(row.headLeastMs / row.baseLeastMs).toFixed(2)}); whole call ${row.baseWholeMs.toFixed(4)} → ${row.headWholeMs.toFixed(4)} ms`);
    }
  }
  const result = { date: today(), machine: machineDescription(), device, labels, reps: REPS, rows };
  writeResults(`gpu-host-cost-ab-n${N}`, result);
  if (process.argv.includes('--record')) {
    writePerformanceSection(`gpu-host-cost-ab-n${N}`, [
      `## Host time of a small GPU call (n = ${N}), ${labels.base} and ${labels.head} in one process — ${device}, ${result.date}`,
      '',
      `\`bench/gpu/host-cost-ab.ts\` (${result.machine}): both builds' trees loaded in one process, each with its own device,`,
      `taking turns call by call (${REPS} calls each, the device drained after every call), so the machine's load falls on both`,
      'alike. Time from the call to its first `queue.submit`: checks, plan and program look-ups, uniforms, bind groups,',
      'encoding; and the whole call, until its promise settles (on llvmpipe that includes the device work, which is CPU work',
      'there; DOT and the range calls read their result back). f32 storage, float-float arithmetic; rows "(ranges)": the',
      'public API on ranges (`backend: \'gpu\'`), which uploads the operands and writes the result back on every call.',
      'The results are checked by `bench/gpu/host-cost.ts`.',
      '',
      markdownTable(['kernel', 'n', `median ms, ${labels.base}`, `median ms, ${labels.head}`, 'ratio', `least ms, ${labels.base}`, `least ms, ${labels.head}`, 'ratio', `whole call ms, ${labels.base}`, `whole call ms, ${labels.head}`, 'ratio'],
        rows.map((r) => [r.kernel, r.n, r.baseMs.toFixed(4), r.headMs.toFixed(4), (r.headMs / r.baseMs).toFixed(2), r.baseLeastMs.toFixed(4), r.headLeastMs.toFixed(4), (r.headLeastMs / r.baseLeastMs).toFixed(2),
          r.baseWholeMs.toFixed(4), r.headWholeMs.toFixed(4), (r.headWholeMs / r.baseWholeMs).toFixed(2)])),
    ].join('\n'));
  }
  process.exit(0);
}

await main();
