/**
 * GEMV N's default since session 20 — the reduction inside 256-invocation workgroups (`gemvWorkgroupSplit` 256) with
 * four float-float rows a thread (`gemvFfFourRows`) — against the two-pass default it replaced, in one interleaved
 * sweep (bench/gpu/h19-goals.ts `--gemv-default-sweep`, the rounds of ./h19-sweep.ts): fp32 storage in float-float and
 * in f32 arithmetic, and bf16 / f16 storage in float-float with an fp32 x (issue 19's goal rows, 2 chains and 1) and
 * with x stored in A's format. Each new-default row must have its two-pass partner's bits (a change of schedule
 * only) and its ratio is taken to that partner; each row's note names the form that ran (1 or 2 dispatches). With x in
 * A's format float-float takes exact 16-bit products (`ffExactProducts`), whose partial pass the split does not run:
 * there the new default is the two passes with four float-float rows a thread (`gemvFfFourRows` alone).
 *
 * @module
 */
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { deviceZeros, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv, type DeviceMatrix, type GpuGemvOptions } from '../../kernels/gemv/gemv-webgpu.js';
import { gemvWorkgroupSplitCalls } from '../../kernels/gemv/gemv-workgroup-split.js';
import type { GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import type { GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { checkGemvRows, GEMV_BENCH_U, gemvReference, rand32 } from './bench-data.js';
import { interleaved, sweepRows, type SweepRow, type SweepSettings, type SweepVariant, type WithSwitches } from './h19-sweep.js';

/** A variant of this sweep: which matrix (A's storage) and x (fp32, or `x16`: stored in A's format) it reads. */
export interface DefaultSweepVariant extends SweepVariant<GpuGemvOptions> {
  readonly storage: 'f32' | 'bf16' | 'f16';
  readonly x16: boolean;
}

/**
 * The library's defaults over the bench's all-off state (h19-goals.ts ITEM4_OFF): the two-pass one of session 19 and
 * the one since session 20 (the same plus the split and four rows). gemvFfFourRows changes nothing in f32 arithmetic
 * (four rows a thread there already); ffExactProducts nothing where x is fp32.
 */
const TWO_PASS: Partial<GpuKernelSwitches> = { lazy: true, tree: true, f32FmaKeep: true, ffFmaKeep: true, gemvPrefetch: true, gemvVectorX: true, ffExactProducts: true, gemvWorkgroupSplit: 0, gemvFfFourRows: false };
const SPLIT: Partial<GpuKernelSwitches> = { ...TWO_PASS, gemvWorkgroupSplit: 256, gemvFfFourRows: true };

/**
 * The variants, each two-pass row followed by its new-default partner.
 * @returns them
 */
export function gemvDefaultSweepVariants(): DefaultSweepVariant[] {
  const pair = (name: string, arithmetic: 'f32' | 'ff', storage: DefaultSweepVariant['storage'], x16: boolean, options: GpuGemvOptions): DefaultSweepVariant[] => {
    const old = `${name}: two passes (session-19 default)`;
    return [
      { label: old, arithmetic, storage, x16, switches: TWO_PASS, options },
      { label: `${name}: gemvWorkgroupSplit 256 + gemvFfFourRows (default)`, arithmetic, storage, x16, switches: SPLIT, options, sameBitsAs: old },
    ];
  };
  return [
    ...pair('fp32 + ff', 'ff', 'f32', false, {}),
    ...pair('fp32 + f32', 'f32', 'f32', false, {}),
    ...(['bf16', 'f16'] as const).flatMap((s) => [
      ...pair(`${s} + ff, x fp32`, 'ff', s, false, {}),
      ...pair(`${s} + ff, x fp32, 1 chain`, 'ff', s, false, { chains: 1 }),
      ...pair(`${s} + ff, x ${s}`, 'ff', s, true, {}),
      ...pair(`${s} + ff, x ${s}, 1 chain`, 'ff', s, true, { chains: 1 }),
    ]),
  ];
}

/**
 * The sweep: an n×n matrix (n = 8192, 1024 with `small`) in fp32, bf16 and f16, x in fp32 and in each 16-bit format;
 * every variant checked (γ_{2n+3}(u)·Σ|a·x| of a compensated reference of the stored values, and its partner's bits),
 * then all timed in interleaved rounds.
 * @returns the rows (storage set)
 */
export async function gemvDefaultSweep(rt: GpuRuntime, small: boolean, settings: SweepSettings, withSwitches: WithSwitches): Promise<(SweepRow & { storage: string })[]> {
  const n = small ? 1024 : 8192;
  const hostX = rand32(n, 11);
  const a32 = await toDevice(rand32(n * n, 7), { format: 'f32', strict: true });
  const x32 = await toDevice(hostX, { format: 'f32', strict: true });
  const y = await deviceZeros(n, { format: 'f32', strict: true });
  const yCheck = await deviceZeros(n, { format: 'f64', strict: true });
  const variants = gemvDefaultSweepVariants();
  const owned: DeviceArray[] = [a32, x32, y, yCheck];
  // Per storage: A, its stored values, and x in fp32 and in A's format with their references.
  const operands = new Map<string, { A: DeviceMatrix; x: DeviceArray; ref: Float64Array; mag: Float64Array }>();
  const operandsOf = async (v: DefaultSweepVariant): Promise<{ A: DeviceMatrix; x: DeviceArray; ref: Float64Array; mag: Float64Array }> => {
    const key = `${v.storage}|${v.x16}`;
    const known = operands.get(key);
    if (known) return known;
    const same = operands.get(`${v.storage}|${!v.x16}`);
    let A = same?.A;
    if (!A) {
      const data = v.storage === 'f32' ? a32 : (await gpuConvert(a32, v.storage)).array;
      if (data !== a32) owned.push(data);
      A = deviceMatrix(data, n, n);
    }
    let x = x32;
    if (v.x16) {
      x = (await gpuConvert(x32, v.storage)).array;
      owned.push(x);
    }
    const made = { A, x, ...gemvReference(await A.data.toHost(), await x.toHost(), n) };
    operands.set(key, made);
    return made;
  };
  const results = new Map<string, Float64Array>();
  const checks: { error: number; bound: number; correct: boolean; why: string }[] = [];
  const runs: { switches: Partial<GpuKernelSwitches>; run: () => Promise<unknown> }[] = [];
  for (const v of variants) {
    const { A, x, ref, mag } = await operandsOf(v);
    checks.push(await withSwitches(v.switches, async () => {
      const before = gemvWorkgroupSplitCalls();
      await gpuGemv({ A, x, y: yCheck }, { arithmetic: v.arithmetic, ...v.options });
      // Which form ran: the split (one dispatch) or the two passes (where it does not apply, as with exact products).
      const form = gemvWorkgroupSplitCalls() > before ? '1 dispatch' : '2 dispatches';
      const got = await yCheck.toHost();
      results.set(v.label, got);
      const earlier = v.sameBitsAs ? results.get(v.sameBitsAs) : undefined;
      const { error, bound, correct, sameBits } = checkGemvRows(got, ref, mag, GEMV_BENCH_U[v.arithmetic], earlier);
      return { error, bound, correct, why: `; ${form}${sameBits ? (earlier ? '; same bits' : '') : '; BITS DIFFER'}` };
    }));
    runs.push({ switches: v.switches, run: () => gpuGemv({ A, x, y }, { arithmetic: v.arithmetic, ...v.options }) });
  }
  const timed = await interleaved(rt, runs, settings, withSwitches);
  const bytes = (v: DefaultSweepVariant): number => n * n * (v.storage === 'f32' ? 4 : 2) + n * (v.x16 ? 2 : 4) + 4 * n;
  // A two-pass row is its partner's reference (sweepRows would take the arithmetic's first row).
  const rows = sweepRows(`GEMV N n=${n}`, variants, checks, timed, 0).map((r, i) => ({ ...r, bytes: bytes(variants[i]!), storage: variants[i]!.storage, note: variants[i]!.sameBitsAs ? r.note : `reference${checks[i]!.why}` }));
  for (const b of owned) b.destroy();
  return rows;
}
