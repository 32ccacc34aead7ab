/**
 * RNS multiple precision on the GPU (issue 17): GEMV 1000×1000 at 106 … 1696 bits, WAXPBY n = 10^6 at 120 bits,
 * DOT n = 128³ and ELL SpMV (3-D 7-point Laplacian 128³, fp64 matrix read into RNS by the kernel, RNS vectors) at
 * 424 bits, against MPFR (gmp-wasm, raw bindings, preallocated variables) on the host CPU in the same run. Every
 * device result is checked in the same run against the exact value (BigInt): DOT, SpMV rows, WAXPBY elements and
 * GEMV rows within their bounds (and correctly rounded where the algorithm rounds once).
 *
 * Times are per whole call (submit, all passes, wait for completion) with the data resident on the device: the
 * median over batches after a warm-up (device-timing.ts, shared by the GPU benchmarks), beside a gpu.js copy's
 * bandwidth measured in the same run. MPFR is timed on a slice where the full size would need gigabytes of WebAssembly memory
 * (DOT: 2^18 elements; SpMV: 2^15 rows) and scaled linearly to the full size (its cost per element is constant).
 *
 * Each GEMV size also has rows `GEMV N, rnsFoldSteps 4000` and `GEMV N, rnsFoldSteps 4000 + rnsFoldSplit`: the same
 * call with the row sums' partial residues reduced lazily (the kernel switches `rnsFoldSteps` and `rnsFoldSplit`, off by
 * default), their words checked against the `GEMV N` row's.
 *
 * The WAXPBY section also times each form of the rounding (kernel-switches.ts, RnsRoundingSwitches: quotient pass
 * and j-major column pairs as before, then tiled columns, the quotient in the columns pass, one word a column, two
 * limbs a thread, four words a thread, no zero columns, no accumulator, each on top of the previous) in the same call,
 * each row's words checked against the default row's. `--forms=4,5,6,7` times only those forms, in that order (0-based
 * indices into that list, repeats allowed; default: all) — 4 is session 15's form, 5 adds four words a thread
 * (RnsRoundingSwitches `vectorWords`), 6 no zero columns (`noZeroColumns`), 7 no accumulator (`updateNoAccumulator`,
 * off by default): old and new in one call, e.g. `--forms=6,7,6,7`. `MODPREC_GPU_RNS_VECTOR=0` and
 * `MODPREC_GPU_RNS_NO_ZERO_COLUMNS=0` turn the two off for every section's default rows (GEMV, DOT, ELL too);
 * `--gemv-forms=vector0,noacc,zeros` times GEMV at every size with such a setting beside the default in-process
 * (words checked, the default timed again after them; the section then skips its fold and row-thread rows).
 * With `--out=DIR`, each section's rows are written to DIR/rns-gpu-<section>.json when it ends, and all of them to
 * DIR/rns-gpu.json at the end.
 *
 * Each GEMV size also has rows `GEMV N, 2^k row-sum threads` (k = 18, 20, 21; MODPREC_GPU_RNS_ROW_THREADS, default
 * 19): the row sums' column chunks sized for 2^k residue threads, words checked against the `GEMV N` row's.
 *
 * Every row also has the host's share of a call ("host ms": from the call until its work goes to `queue.submit`).
 * `--profile` adds each pass timed on its own and the whole call minus their sum (what a call spends outside its
 * passes). Before and after: run an earlier build's dist/bench/gpu/rns-gpu.js (`--out=DIR`) in the same device call
 * and compare the JSON files.
 *
 * Run: npx tsc -p tsconfig.json && node dist/bench/gpu/rns-gpu.js [--quick] [--profile] [--only=gemv,waxpby,dot,ell] [--forms=6,7,6,7] [--gemv-forms=vector0,noacc] [--out=DIR]
 *      node dist/bench/gpu/rns-gpu.js --record=FILE.json   (writes docs/performance.md and bench/results from a run)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, machineDescription, today, writePerformanceSection, writeResults } from '../report.js';
import { gpuRuntime, gpuUnavailableReason, releaseGpu, releaseGpuWhenIdle } from '../../src/backends/webgpu/index.js';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { exactOfDouble, rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsGpuWaxpby } from '../../src/formats/rns/gpu/update-rns-webgpu.js';
import { rnsGpuDot } from '../../kernels/dot/dot-rns-webgpu.js';
import { rnsGpuGemv } from '../../kernels/gemv/gemv-rns-webgpu.js';
import { rnsEllToDevice, rnsGpuEllSpmv } from '../../kernels/ell-spmv/ell-spmv-rns-webgpu.js';
import { ELL_PADDING } from '../../src/sparse/ell-matrix.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { gpujsCopy, timeDeviceRuns } from './device-timing.js';
import { profileRnsPasses } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { getProgram, setSubmitProbe, submitPasses } from '../../src/backends/webgpu/program.js';
import { createWordBuffer } from '../../src/backends/webgpu/runtime.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';
import { MAX_RNS_FOLD_STEPS, setGpuKernelSwitches, setRnsRoundingSwitches, type RnsRoundingSwitches } from '../../src/backends/webgpu/kernel-switches.js';

const quick = process.argv.includes('--quick');
const outDir = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? process.env.OUT;
const record = process.argv.find((a) => a.startsWith('--record='))?.slice(9);
/** `--only=gemv,waxpby,dot,ell`: those sections alone (recording merges them into the stored results). */
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const want = (section: string): boolean => !only || only.includes(section);
/** `--profile`: also time every pass of each kernel on its own (one wait per pass: upper bounds, for proportions). */
const profile = process.argv.includes('--profile');
/** `--forms=4,5,6`: the rounding forms (indices into ROUNDING_FORMS) timed in the WAXPBY section, in that order (repeats allowed: `--forms=6,7,6,7`); default all. */
const formsArg = process.argv.find((a) => a.startsWith('--forms='))?.slice(8);
const formIndices = formsArg?.split(',').map(Number);

/** Calls `call` until `ms` milliseconds have passed (at least once). */
async function warmUp(call: () => Promise<void>, ms: number): Promise<void> {
  const end = performance.now() + ms;
  do await call(); while (performance.now() < end);
}

/** Residue threads of the row sums (log2) timed beside the default 19 in the GEMV section. */
const ROW_THREADS = [18, 20, 21];
/**
 * The forms of the RNS rounding timed beside the default in the WAXPBY section (each row's words checked against the
 * default's): the form before 2026-11-27 (a quotient pass, then j-major column pairs), and each change on top of the
 * previous one — tiled columns, the quotient found by the columns pass, one word per column, two limbs a thread (all
 * on by default since), four words a thread (`vectorWords`), no zero columns (`noZeroColumns`; both 2026-11-27, session
 * 16), no accumulator (`updateNoAccumulator`, session 17).
 */
const ROUNDING_FORMS: readonly (readonly [string, RnsRoundingSwitches])[] = [
  ['before: quotient pass, column pairs j-major', { columnTiles: false, columnQuotient: false, columnWord: false, columnPairs: false, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false }],
  ['+ tiled', { columnTiles: true, columnQuotient: false, columnWord: false, columnPairs: false, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false }],
  ['+ tiled, quotient in the columns pass', { columnTiles: true, columnQuotient: true, columnWord: false, columnPairs: false, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false }],
  ['+ tiled, quotient in the columns pass, one word a column', { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: false, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false }],
  ['+ tiled, quotient in the columns pass, one word a column, two limbs a thread', { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false }],
  ['+ tiled, quotient in the columns pass, one word a column, two limbs a thread, four words a thread', { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: true, noZeroColumns: false, updateNoAccumulator: false }],
  ['+ tiled, quotient in the columns pass, one word a column, two limbs a thread, four words a thread, no zero columns', { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: true, noZeroColumns: true, updateNoAccumulator: false }],
  ['+ tiled, quotient in the columns pass, one word a column, two limbs a thread, four words a thread, no zero columns, no accumulator', { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: true, noZeroColumns: true, updateNoAccumulator: true }],
];

/**
 * `--gemv-forms=a,b,…`: switch settings timed beside the default in the GEMV section at every size (each row's words
 * checked against the default's, the default timed again after them: the clocks' ramp favours later rows); with the
 * flag, the section skips its rnsFoldSteps and row-thread rows. Names: `vector0` (`vectorWords` off, as
 * MODPREC_GPU_RNS_VECTOR=0), `noacc` (`updateNoAccumulator` on: GEMV's α·x stage without an accumulator), `zeros`
 * (`noZeroColumns` off).
 */
const GEMV_FORMS: Readonly<Record<string, readonly [string, Partial<RnsRoundingSwitches>]>> = {
  vector0: ['vectorWords off (MODPREC_GPU_RNS_VECTOR=0)', { vectorWords: false }],
  noacc: ['updateNoAccumulator on (MODPREC_GPU_RNS_NO_ACCUMULATOR=1)', { updateNoAccumulator: true }],
  zeros: ['noZeroColumns off (MODPREC_GPU_RNS_NO_ZERO_COLUMNS=0)', { noZeroColumns: false }],
};
const gemvFormsArg = process.argv.find((a) => a.startsWith('--gemv-forms='))?.slice(13).split(',').filter((f) => f !== '');
for (const f of gemvFormsArg ?? []) if (!(f in GEMV_FORMS)) throw new Error(`--gemv-forms: unknown form ${f} (known: ${Object.keys(GEMV_FORMS).join(', ')})`);

// ---- exact oracle (dyadic rationals in BigInt) ----
interface Dy { v: bigint; e: number }
const dy = (x: RnsExactValue): Dy => ({ v: x.sign ? -x.X : x.X, e: x.exp });
const mul = (a: Dy, b: Dy): Dy => ({ v: a.v * b.v, e: a.e + b.e });
function add(a: Dy, b: Dy): Dy {
  if (a.v === 0n) return b;
  if (b.v === 0n) return a;
  const e = Math.min(a.e, b.e);
  return { v: (a.v << BigInt(a.e - e)) + (b.v << BigInt(b.e - e)), e };
}
const neg = (a: Dy): Dy => ({ v: -a.v, e: a.e });
const absd = (a: Dy): Dy => ({ v: a.v < 0n ? -a.v : a.v, e: a.e });
/** log2 of a positive BigInt (to double precision). */
function log2Big(a: bigint): number {
  const len = a.toString(2).length;
  return len > 53 ? len - 53 + Math.log2(Number(a >> BigInt(len - 53))) : Math.log2(Number(a));
}
/** |err| / (2^-p·Σ|t|): the error in units of 2^-p·Σ|t| (0 when exact). */
function errorUnits(err: Dy, scale: Dy, p: number): number {
  if (err.v === 0n) return 0;
  const a = err.v < 0n ? -err.v : err.v, c = scale.v < 0n ? -scale.v : scale.v;
  return 2 ** (log2Big(a) + err.e - log2Big(c) - scale.e + p);
}
function roundP(a: Dy, p: number): Dy {
  let m = a.v < 0n ? -a.v : a.v;
  if (m === 0n) return { v: 0n, e: 0 };
  const k = m.toString(2).length - p;
  if (k <= 0) return a;
  const q = m >> BigInt(k), r = m - (q << BigInt(k)), half = 1n << BigInt(k - 1);
  m = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
  return { v: a.v < 0n ? -m : m, e: a.e + k };
}
const same = (a: Dy, b: Dy): boolean => add(a, neg(b)).v === 0n;

function doubles(n: number, seed: number): Float64Array {
  const r = seededRandom(seed);
  return Float64Array.from({ length: n }, () => 2 * r.nextDouble() - 1);
}
/** Random p-bit significands in (−1, 1). */
function fullPrecision(n: number, p: number, seed: number): RnsExactValue[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => {
    let X = 0n;
    for (let b = 0; b < p; b += 30) X = (X << 30n) | BigInt(Math.floor(r.nextDouble() * 2 ** 30));
    X &= (1n << BigInt(p)) - 1n;
    return { sign: r.nextDouble() < 0.5 ? 1 : 0, X, exp: -p } as RnsExactValue;
  });
}

/**
 * Per-call time of `fn` by the GPU benchmarks' shared timing (device-timing.ts): the median over batches of
 * `reps` calls after a warm-up. Each call waits for its own work, so a batch's wait adds nothing.
 */
async function minTime(fn: () => Promise<unknown>, reps: number): Promise<number> {
  const rt = (await gpuRuntime())!;
  return (await timeDeviceRuns(rt, fn, { reps: Math.max(1, Math.ceil(reps / 3)), batches: 3, warmMs: quick ? 0 : 150, warmBurst: 1 })).ms;
}

interface Result {
  kernel: string; precision: number; size: string; moduli: number; gpuMs: number; goal: string; met: boolean | null; mpfrMs?: number; speedup?: number; gflops?: number; bytes: number; check: string; ok: boolean;
  /** Host time of a call until its work is submitted (median), ms. */
  hostMs?: number;
  /** With `--profile`: each pass on its own (ms), the whole call minus their sum (ms), and one empty submit-and-wait (ms). */
  passes?: Record<string, number>;
  outsideMs?: number;
  roundTripMs?: number;
}

/**
 * One submit of a 1-thread pass and the wait for it (median of 21): the latency each pass timed on its own carries,
 * and a whole call carries once.
 */
async function roundTrip(): Promise<number> {
  const rt = (await gpuRuntime())!;
  const program = await getProgram(rt.context, { source: 'function (X) { return X[this.thread.x]; }', args: [['X', 'Array']], components: 1 });
  const a = createWordBuffer(rt.context, 4), b = createWordBuffer(rt.context, 4);
  const cache = {};
  const times: number[] = [];
  for (let k = 0; k < 26; k++) {
    const t0 = performance.now();
    submitPasses(rt.context, [{ pass: { program, arrays: { X: { buffer: a } }, scalars: {}, output: { buffer: b }, threads: 1 }, cache }]);
    await rt.context.device.queue.onSubmittedWorkDone();
    if (k >= 5) times.push(performance.now() - t0);
  }
  a.destroy();
  b.destroy();
  times.sort((x, y) => x - y);
  return times[times.length >> 1]!;
}

/**
 * The host's share of a call: from the call until its first command buffer goes to `queue.submit` (argument checks,
 * program and buffer look-ups, scalar uploads, uniforms and bind groups, encoding), the median of 7 calls. The submit
 * itself is left out: a software adapter (llvmpipe) runs the passes inside it.
 */
async function hostTime(call: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  let t0: number | undefined;
  setSubmitProbe((phase) => {
    if (phase === 'submit' && t0 !== undefined) { times.push(performance.now() - t0); t0 = undefined; }
  });
  try {
    for (let k = 0; k < 7; k++) { t0 = performance.now(); await call(); }
  } finally {
    setSubmitProbe(undefined);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

/**
 * The host time of `call` and, with `--profile`, each of its passes timed on its own (the minimum over 3 calls, per
 * label) and what the whole call (`ms`) spends outside them: `ms` minus their sum — host work, allocation, submits
 * and waits that the passes do not account for (each pass's own wait is inside its time, so this is a lower bound).
 */
async function callProfile(call: () => Promise<unknown>, ms: number): Promise<Pick<Result, 'hostMs' | 'passes' | 'outsideMs' | 'roundTripMs'>> {
  const hostMs = await hostTime(call);
  if (!profile) return { hostMs };
  const passes: Record<string, number> = {};
  profileRnsPasses((label, t) => { passes[label] = Math.min(passes[label] ?? Infinity, t); });
  try {
    for (let k = 0; k < 3; k++) await call();
  } finally {
    profileRnsPasses();
  }
  return { hostMs, passes, outsideMs: ms - Object.values(passes).reduce((a, t) => a + t, 0), roundTripMs: await roundTrip() };
}

async function run(): Promise<{ adapter: string; copyGBs: number | null; results: Result[] }> {
  // MPFR's set-up and the host-side checks are long stretches without device work: keep the device meanwhile.
  releaseGpuWhenIdle(false);
  const rt = await gpuRuntime();
  if (!rt) throw new Error(`no WebGPU adapter: ${gpuUnavailableReason()}`);
  const adapter = `${rt.context.adapter.name} (${rt.context.adapter.backend})`;
  const results: Result[] = [];
  // With --out, each section's rows go to DIR/rns-gpu-<section>.json as soon as it ends (a call cut short by its time
  // limit keeps the sections it finished).
  let sectionStart = 0;
  const saveSection = (section: string): void => {
    const rows = results.slice(sectionStart);
    sectionStart = results.length;
    if (outDir && rows.length > 0) writeFileSync(join(outDir, `rns-gpu-${section}.json`), JSON.stringify({ adapter, date: today(), host: machineDescription(), copyGBs: copy?.gbs ?? null, results: rows }, null, 2));
  };
  // The copy yardstick of "fraction of copy bandwidth" (a 512 MiB copy: left out of a quick run).
  const copy = quick ? undefined : await gpujsCopy(rt, (fn) => minTime(fn, 6));
  const { init } = await import('gmp-wasm');
  const { binding: b } = await init();
  const mpVar = (prec: number, v: number): number => { const x = b.mpfr_t(); b.mpfr_init2(x, prec); b.mpfr_set_d(x, v, 0); return x; };
  const free = (vars: number[]): void => vars.forEach((v) => { b.mpfr_clear(v); b.mpfr_t_free(v); });

  // ---- GEMV 1000×1000 (A of doubles stored as RNS, x full-precision, y of doubles), α = 1/3, β = −0.5 ----
  const gemvN = quick ? 64 : 1000;
  const goals: Record<number, number> = { 106: 0.62, 212: 1.12, 424: 1.7, 848: 2.58, 1696: 4.92 };
  const Avals = doubles(gemvN * gemvN, 1);
  for (const p of !want('gemv') ? [] : quick ? [106, 424] : [106, 212, 424, 848, 1696]) {
    const set = rnsDeviceSet(p);
    const xv = fullPrecision(gemvN, p, 2 + p);
    const yv = doubles(gemvN, 3);
    const A = await rnsToDevice(Avals, set);
    const x = await rnsToDevice(xv, set);
    const y = await rnsToDevice(yv, set);
    const alpha = 1 / 3, beta = -0.5;
    await rnsGpuGemv({ A, m: gemvN, n: gemvN, x, y, alpha, beta });
    const rowsChecked = [0, 1, gemvN >> 1, gemvN - 1];
    const gotRows = await y.toExact(rowsChecked);
    let worst = -Infinity;
    for (const [at, i] of rowsChecked.entries()) {
      const got = { [i]: gotRows[at]! };
      let s: Dy = mul(dy(exactOfDouble(beta)), dy(exactOfDouble(yv[i]!)));
      let sabs = absd(s);
      for (let j = 0; j < gemvN; j++) {
        const t = mul(mul(dy(exactOfDouble(alpha)), dy(exactOfDouble(Avals[i + j * gemvN]!))), dy(xv[j]!));
        s = add(s, t);
        sabs = add(sabs, absd(t));
      }
      worst = Math.max(worst, errorUnits(add(dy(got[i]!), neg(s)), sabs, p));
    }
    const gemvCall = (): Promise<void> => rnsGpuGemv({ A, m: gemvN, n: gemvN, x, y, alpha, beta: 0 });
    // The exact check above keeps the GPU idle for seconds, and the rows of a size got faster one after another,
    // whatever their settings (2026-11-27: 4.91 ms at 1696 bits against 1.22 ms for the same call a row later; 50 calls
    // of warm-up did not remove it): the GPU's clocks ramp up under load. Two seconds of calls first.
    await warmUp(gemvCall, quick ? 0 : 2000);
    const ms = await minTime(gemvCall, quick ? 3 : 10);
    const profiled = await callProfile(gemvCall, ms);
    const bytes = (set.size + 6) * 4 * gemvN * gemvN;
    results.push({ kernel: 'GEMV N', precision: p, size: `${gemvN}×${gemvN}`, moduli: set.size, gpuMs: ms, goal: `≤ ${goals[p]} ms`, met: quick ? null : ms <= goals[p]!, bytes, check: `max error ${worst.toFixed(2)}·2^-p·Σ|terms| (bound 4)`, ok: worst <= 4, ...profiled });
    console.log(JSON.stringify(results.at(-1)));
    // The same call with the partial residues reduced lazily (kernel switches rnsFoldSteps, rnsFoldSplit, off by
    // default): its words against the form above (y holds that form's α·A·x after the timed calls), then its time.
    const reference = await y.toExact();
    const sameRows = (got: RnsExactValue[]): boolean => got.every((v, k) => v.sign === reference[k]!.sign && v.X === reference[k]!.X && v.exp === reference[k]!.exp);
    // --gemv-forms: each switch setting in this call (words against the default's, then its time), then the default again.
    for (const name of gemvFormsArg ?? []) {
      const [label, change] = GEMV_FORMS[name]!;
      const previous = setRnsRoundingSwitches(change);
      try {
        await gemvCall();
        const same = sameRows(await y.toExact());
        const formMs = await minTime(gemvCall, quick ? 3 : 10);
        const formProfiled = await callProfile(gemvCall, formMs);
        results.push({ kernel: `GEMV N, ${label}`, precision: p, size: `${gemvN}×${gemvN}`, moduli: set.size, gpuMs: formMs, goal: `≤ ${goals[p]} ms`, met: quick ? null : formMs <= goals[p]!, bytes, check: `all ${gemvN} rows word for word those of GEMV N`, ok: same, ...formProfiled });
      } finally {
        setRnsRoundingSwitches(previous);
      }
      console.log(JSON.stringify(results.at(-1)));
    }
    if (gemvFormsArg) {
      await gemvCall();
      const same = sameRows(await y.toExact());
      const againMs = await minTime(gemvCall, quick ? 3 : 10);
      results.push({ kernel: 'GEMV N, default again', precision: p, size: `${gemvN}×${gemvN}`, moduli: set.size, gpuMs: againMs, goal: `≤ ${goals[p]} ms`, met: quick ? null : againMs <= goals[p]!, bytes, check: `all ${gemvN} rows word for word those of GEMV N`, ok: same, ...(await callProfile(gemvCall, againMs)) });
      console.log(JSON.stringify(results.at(-1)));
    }
    for (const rnsFoldSplit of gemvFormsArg ? [] : [false, true]) {
      const previous = setGpuKernelSwitches({ rnsFoldSteps: MAX_RNS_FOLD_STEPS, rnsFoldSplit });
      try {
        await gemvCall();
        const lazy = await y.toExact();
        const same = lazy.every((v, k) => v.sign === reference[k]!.sign && v.X === reference[k]!.X && v.exp === reference[k]!.exp);
        const lazyMs = await minTime(gemvCall, quick ? 3 : 10);
        const lazyProfiled = await callProfile(gemvCall, lazyMs);
        const kernel = `GEMV N, rnsFoldSteps ${MAX_RNS_FOLD_STEPS}${rnsFoldSplit ? ' + rnsFoldSplit' : ''}`;
        results.push({ kernel, precision: p, size: `${gemvN}×${gemvN}`, moduli: set.size, gpuMs: lazyMs, goal: `≤ ${goals[p]} ms`, met: quick ? null : lazyMs <= goals[p]!, bytes, check: `all ${gemvN} rows word for word those of GEMV N`, ok: same, ...lazyProfiled });
      } finally {
        setGpuKernelSwitches(previous);
      }
      console.log(JSON.stringify(results.at(-1)));
    }
    // The same call with other numbers of residue threads in the row sums (MODPREC_GPU_RNS_ROW_THREADS: 2^k, default
    // 2^19; column chunks of N/S columns, S = 2^k/(rows·moduli)): words against the default's, then the time.
    for (const k of gemvFormsArg ? [] : ROW_THREADS) {
      process.env.MODPREC_GPU_RNS_ROW_THREADS = String(k);
      rereadTuningKnobs();
      try {
        await gemvCall();
        const words = await y.toExact();
        const same = words.every((v, j) => v.sign === reference[j]!.sign && v.X === reference[j]!.X && v.exp === reference[j]!.exp);
        const kMs = await minTime(gemvCall, quick ? 3 : 10);
        const kProfiled = await callProfile(gemvCall, kMs);
        results.push({ kernel: `GEMV N, 2^${k} row-sum threads`, precision: p, size: `${gemvN}×${gemvN}`, moduli: set.size, gpuMs: kMs, goal: `≤ ${goals[p]} ms`, met: quick ? null : kMs <= goals[p]!, bytes, check: `all ${gemvN} rows word for word those of GEMV N`, ok: same, ...kProfiled });
      } finally {
        delete process.env.MODPREC_GPU_RNS_ROW_THREADS;
        rereadTuningKnobs();
      }
      console.log(JSON.stringify(results.at(-1)));
    }
    [A, x, y].forEach((a) => a.destroy());
  }

  saveSection('gemv');

  // ---- WAXPBY n = 10^6 at 120 bits, doubles ----
  if (want('waxpby')) {
    const n = quick ? 4096 : 1_000_000, p = 120;
    const set = rnsDeviceSet(p);
    const xv = doubles(n, 5), yv = doubles(n, 6);
    const x = await rnsToDevice(xv, set), y = await rnsToDevice(yv, set), w = await rnsToDevice(new Float64Array(n), set);
    const alpha = Math.PI, beta = -1 / 7;
    await rnsGpuWaxpby(alpha, x, beta, y, w);
    const sample = Array.from({ length: Math.min(n, 1024) }, (_, i) => Math.floor((i * n) / Math.min(n, 1024)));
    const words = await w.toExact(sample);
    let ok = true;
    sample.forEach((k, i) => {
      const exact = add(mul(dy(exactOfDouble(alpha)), dy(exactOfDouble(xv[k]!))), mul(dy(exactOfDouble(beta)), dy(exactOfDouble(yv[k]!))));
      if (!same(dy(words[i]!), roundP(exact, p))) ok = false;
    });
    const waxpbyCall = (): Promise<void> => rnsGpuWaxpby(alpha, x, beta, y, w);
    await warmUp(waxpbyCall, quick ? 0 : 2000); // the clocks' ramp (see the GEMV section)
    const ms = await minTime(waxpbyCall, quick ? 3 : 20);
    const profiled = await callProfile(waxpbyCall, ms);
    const gflops = (3 * n) / ms / 1e6;
    results.push({ kernel: 'WAXPBY', precision: p, size: `n = ${n}`, moduli: set.size, gpuMs: ms, goal: '≥ 4 GFLOP/s', met: quick ? null : gflops >= 4, gflops, bytes: 3 * (set.size + 6) * 4 * n, check: '1024 sampled elements correctly rounded', ok, ...profiled });
    console.log(JSON.stringify(results.at(-1)));
    // Every form of the rounding (kernel-switches.ts, RnsRoundingSwitches), old and new in this call: each one's words
    // (all n elements, raw) against the default form's above, then its time.
    const reference = await w.toWords();
    for (const k of formIndices ?? ROUNDING_FORMS.map((_, j) => j)) {
      const entry = ROUNDING_FORMS[k];
      if (!entry) throw new Error(`--forms: no rounding form ${k} (0 … ${ROUNDING_FORMS.length - 1})`);
      const [label, form] = entry;
      const previous = setRnsRoundingSwitches(form);
      try {
        await waxpbyCall();
        const words = await w.toWords();
        const sameWords = words.length === reference.length && words.every((v, k) => v === reference[k]);
        const formMs = await minTime(waxpbyCall, quick ? 3 : 20);
        const formProfiled = await callProfile(waxpbyCall, formMs);
        const formGflops = (3 * n) / formMs / 1e6;
        results.push({ kernel: `WAXPBY, ${label}`, precision: p, size: `n = ${n}`, moduli: set.size, gpuMs: formMs, goal: '≥ 4 GFLOP/s', met: quick ? null : formGflops >= 4, gflops: formGflops, bytes: 3 * (set.size + 6) * 4 * n, check: `all ${n} elements word for word those of WAXPBY`, ok: sameWords, ...formProfiled });
      } finally {
        setRnsRoundingSwitches(previous);
      }
      console.log(JSON.stringify(results.at(-1)));
    }
    [x, y, w].forEach((a) => a.destroy());
  }

  saveSection('waxpby');

  // ---- DOT n = 128³ at 424 bits, doubles; MPFR on a slice ----
  const p424 = 424, set424 = rnsDeviceSet(p424);
  if (want('dot')) {
    const n = quick ? 4096 : 128 ** 3;
    const xv = doubles(n, 7), yv = doubles(n, 8);
    const x = await rnsToDevice(xv, set424), y = await rnsToDevice(yv, set424);
    const s = await rnsGpuDot(x, y);
    const [got] = await s.toExact();
    let exact: Dy = { v: 0n, e: -2148 };
    for (let k = 0; k < n; k++) exact = add(exact, mul(dy(exactOfDouble(xv[k]!)), dy(exactOfDouble(yv[k]!))));
    const ok = same(dy(got!), roundP(exact, p424));
    s.destroy();
    const ms = await minTime(async () => (await rnsGpuDot(x, y)).destroy(), quick ? 3 : 10);
    const profiled = await callProfile(async () => (await rnsGpuDot(x, y)).destroy(), ms);
    const slice = Math.min(n, 1 << 18);
    const mx = Array.from({ length: slice }, (_, k) => mpVar(p424, xv[k]!)), my = Array.from({ length: slice }, (_, k) => mpVar(p424, yv[k]!));
    const acc = mpVar(p424, 0), t = mpVar(p424, 0);
    let mpfr = Infinity;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      b.mpfr_set_d(acc, 0, 0);
      for (let k = 0; k < slice; k++) { b.mpfr_mul(t, mx[k]!, my[k]!, 0); b.mpfr_add(acc, acc, t, 0); }
      mpfr = Math.min(mpfr, performance.now() - t0);
    }
    free([...mx, ...my, acc, t]);
    const mpfrMs = (mpfr * n) / slice;
    results.push({ kernel: 'DOT', precision: p424, size: `n = ${n}`, moduli: set424.size, gpuMs: ms, goal: '≥ 100× MPFR', met: quick ? null : mpfrMs / ms >= 100, mpfrMs, speedup: mpfrMs / ms, gflops: (2 * n) / ms / 1e6, bytes: 2 * (set424.size + 6) * 4 * n, check: 'correctly rounded (one rounding of the exact sum)', ok, ...profiled });
    [x, y].forEach((a) => a.destroy());
    console.log(JSON.stringify(results.at(-1)));
  }

  saveSection('dot');

  // ---- ELL SpMV, 7-point Laplacian on a g³ grid, fp64 matrix, RNS vectors at 424 bits ----
  if (want('ell')) {
    const g = quick ? 8 : 128, rows = g ** 3, width = 7;
    const colIndex = new Int32Array(rows * width).fill(ELL_PADDING);
    const vals = new Float64Array(rows * width);
    for (let i = 0; i < rows; i++) {
      const [a, b2, c] = [i % g, Math.floor(i / g) % g, Math.floor(i / (g * g))];
      let k = 0;
      const put = (col: number, v: number): void => { colIndex[i + k * rows] = col; vals[i + k * rows] = v; k++; };
      put(i, 6);
      if (a > 0) put(i - 1, -1);
      if (a < g - 1) put(i + 1, -1);
      if (b2 > 0) put(i - g, -1);
      if (b2 < g - 1) put(i + g, -1);
      if (c > 0) put(i - g * g, -1);
      if (c < g - 1) put(i + g * g, -1);
    }
    const xv = doubles(rows, 9);
    const x = await rnsToDevice(xv, set424), y = await rnsToDevice(new Float64Array(rows), set424);
    const A = await rnsEllToDevice({ rows, cols: rows, width, stride: rows, colIndex }, vals, x);
    await rnsGpuEllSpmv({ A, x, y });
    const sample = Array.from({ length: Math.min(rows, 1024) }, (_, i) => Math.floor((i * rows) / Math.min(rows, 1024)));
    const got = await y.toExact(sample);
    let ok = true;
    sample.forEach((i, at) => {
      let s: Dy = { v: 0n, e: 0 };
      for (let k = 0; k < width; k++) { const c = colIndex[i + k * rows]!; if (c >= 0) s = add(s, mul(dy(exactOfDouble(vals[i + k * rows]!)), dy(exactOfDouble(xv[c]!)))); }
      if (!same(dy(got[at]!), roundP(s, p424))) ok = false;
    });
    const ellCall = (): Promise<void> => rnsGpuEllSpmv({ A, x, y });
    const ms = await minTime(ellCall, quick ? 3 : 10);
    const profiled = await callProfile(ellCall, ms);
    const sliceRows = Math.min(rows, 1 << 15), reach = Math.min(rows, sliceRows + g * g);
    const mx = Array.from({ length: reach }, (_, k) => mpVar(p424, xv[k]!));
    const acc = mpVar(p424, 0), t = mpVar(p424, 0), out = Array.from({ length: sliceRows }, () => mpVar(p424, 0));
    let mpfr = Infinity;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      for (let i = 0; i < sliceRows; i++) {
        b.mpfr_set_d(acc, 0, 0);
        for (let k = 0; k < width; k++) { const c = colIndex[i + k * rows]!; if (c >= 0) { b.mpfr_mul_d(t, mx[c]!, vals[i + k * rows]!, 0); b.mpfr_add(acc, acc, t, 0); } }
        b.mpfr_set(out[i]!, acc, 0);
      }
      mpfr = Math.min(mpfr, performance.now() - t0);
    }
    free([...mx, ...out, acc, t]);
    const mpfrMs = (mpfr * rows) / sliceRows;
    const nnz = colIndex.reduce((a, c) => a + (c >= 0 ? 1 : 0), 0);
    results.push({ kernel: 'ELL SpMV (fp64 A)', precision: p424, size: `Laplacian ${g}³`, moduli: set424.size, gpuMs: ms, goal: '≥ 100× MPFR', met: quick ? null : mpfrMs / ms >= 100, mpfrMs, speedup: mpfrMs / ms, gflops: (2 * nnz) / ms / 1e6, bytes: 2 * (set424.size + 6) * 4 * rows + 12 * rows * width, check: '1024 sampled rows correctly rounded', ok, ...profiled });
    [x, y].forEach((a) => a.destroy());
    console.log(JSON.stringify(results.at(-1)));
  }
  saveSection('ell');
  return { adapter, copyGBs: copy?.gbs ?? null, results };
}

function render(data: { adapter: string; date: string; host: string; copyGBs?: number | null; results: Result[]; partial?: string }): void {
  const fmt = (v: number | undefined): string => (v === undefined ? '—' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(3));
  const profiled = data.results.flatMap((r) => {
    const entries = Object.entries(r.passes ?? {});
    const total = entries.reduce((a, [, ms]) => a + ms, 0);
    return entries.map(([label, ms]) => [r.kernel, r.precision, label, fmt(ms), `${((100 * ms) / total).toFixed(0)} %`]);
  });
  const outside = data.results.filter((r) => r.outsideMs !== undefined).map((r) => {
    const sum = Object.values(r.passes ?? {}).reduce((a, t) => a + t, 0);
    // Each pass timed alone carries one submit-and-wait, the whole call one in all: k − 1 of them come back.
    const corrected = r.roundTripMs === undefined ? undefined : r.outsideMs! + (Object.keys(r.passes ?? {}).length - 1) * r.roundTripMs;
    return [r.kernel, r.precision, fmt(r.gpuMs), fmt(sum), fmt(r.outsideMs), fmt(r.roundTripMs), fmt(corrected), fmt(r.hostMs)];
  });
  const rows = data.results.map((r) => [r.kernel, r.precision, r.size, r.moduli, fmt(r.gpuMs), fmt(r.hostMs), r.goal, r.met === null ? '—' : r.met ? 'yes' : 'no', fmt(r.mpfrMs), r.speedup === undefined ? '—' : `${fmt(r.speedup)}×`, fmt(r.gflops), fmt(r.bytes / r.gpuMs / 1e6), data.copyGBs ? `${((100 * r.bytes) / r.gpuMs / 1e6 / data.copyGBs).toFixed(1)} %` : '—', r.ok ? `yes: ${r.check}` : `NO: ${r.check}`]);
  writePerformanceSection('rns-gpu', `### RNS multiple precision on the GPU (issue 17)

${data.adapter}, ${data.date}${data.partial ? ` (${data.partial})` : ''}; MPFR (gmp-wasm) on the host of the same run: ${data.host}. \`bench/gpu/rns-gpu.ts\`; device
numbers resident, time of a whole call (submit, every pass, wait), median of 3 batches after a warm-up. MPFR timed on a slice
(DOT 2^18 elements, SpMV 2^15 rows) and scaled to the full size. "GB/s" is the size of the operands' mp_arrays
((n + 6) words per number) over the time, and its fraction of a gpu.js copy's bandwidth measured in the same run
(${data.copyGBs ? `${data.copyGBs.toFixed(0)} GB/s` : 'not measured'}). GPU ms: the rounding bounded by each value's size
(docs/rns.md); host ms: the host's share of a call, from the call until its work goes to \`queue.submit\` (median of 7 calls).

${markdownTable(['kernel', 'bits', 'size', 'moduli', 'GPU ms', 'host ms', 'goal', 'met', 'MPFR ms', 'GPU vs MPFR', 'GFLOP/s', 'GB/s', 'of copy', 'checked in the same run'], rows)}${profiled.length === 0 ? '' : `

Where the time goes (\`--profile\`): each pass submitted and waited for on its own, minimum of 3 calls — a wait per pass
adds its latency, so these are upper bounds whose proportions show the bounding pass.

${markdownTable(['kernel', 'bits', 'pass', 'ms', 'share of the passes'], profiled)}

Outside the passes: the whole call minus the sum of its passes timed one by one — host work, allocation, submits and
waits the passes do not account for (each pass's own wait is inside its time, so this is a lower bound, and may come
out below zero); "round trip": an empty pass submitted and waited for (median of 21), which every pass timed alone
carries and the whole call carries once, so "outside, corrected" = outside + (passes − 1)·round trip; "host ms": the
host's time from the call until its work goes to the submit (median of 7 calls).

${markdownTable(['kernel', 'bits', 'whole call ms', 'Σ passes ms', 'outside the passes ms', 'round trip ms', 'outside, corrected ms', 'host ms'], outside)}`}`);
}

if (record) {
  const data = JSON.parse(readFileSync(record, 'utf8'));
  if (only) {
    // A partial run: its rows replace those of the same kernel and precision in the stored results.
    const stored = (JSON.parse(readFileSync(join('bench', 'results', 'rns-gpu.json'), 'utf8')) as { data: { results: Result[] } }).data;
    const key = (r: Result): string => `${r.kernel}|${r.precision}`;
    const fresh = new Map(data.results.map((r: Result) => [key(r), r]));
    data.results = [...stored.results.filter((r) => !fresh.has(key(r))), ...data.results];
    data.partial = `this run: ${only.join(', ')}; other rows from the earlier run`;
  }
  render(data);
  writeResults('rns-gpu', data);
} else {
  const { adapter, copyGBs, results } = await run();
  const data = { adapter, date: today(), host: machineDescription(), copyGBs, results };
  if (outDir) writeFileSync(join(outDir, 'rns-gpu.json'), JSON.stringify(data, null, 2));
  if (!outDir) { render(data); writeResults('rns-gpu', data); }
  console.log(results.every((r) => r.ok) ? 'all checks passed' : 'SOME CHECKS FAILED');
  await releaseGpu();
}
