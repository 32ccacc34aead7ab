/**
 * GEMV N's default form since session 20 — the reduction inside 256-invocation workgroups (`gemvWorkgroupSplit`) with
 * four float-float rows a thread (`gemvFfFourRows`) — over shapes where several workgroups run: m from one row group to
 * about 2400 rows (a multiple of the rows a thread or not, below and above a workgroup's rows), n from one column
 * to several hundred, the chunk count S from 1 to past a workgroup's invocations (then the two passes must run), lda
 * above m, A as a strided sub-range of a larger span, x strided with an offset, y packed or a sub-range, y in every
 * format the split writes (f32, f16, bf16, ff, f64), α = 0, β = 0 over a y of NaN. Every row must be the old
 * two-pass default's bit for bit (a row left unstored or added twice differs), and within gemvBound of the exact
 * result of the stored values (BigInt: every value here is an integer times 2^-31). Also: S = 256 (one row group a
 * workgroup) and 257 (the two passes), more workgroups than one dispatch dimension holds, the split with wider partial
 * workgroups set, the env variables that turn the forms off; the transposed product never takes the split.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formats, gemvBound, matrix, vector } from '../../src/index.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gemvSplit, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gemvWorkgroupSplitCalls } from '../../kernels/gemv/gemv-workgroup-split.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { FORMAT, makeY, operands, rowsOutsideBound, same, type StoredFormat } from './gemv-split-fixtures.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

/** The two-pass default before session 19's change (every other switch as the module's default). */
const TWO_PASS: Partial<GpuKernelSwitches> = { gemvWorkgroupSplit: 0, gemvFfFourRows: false };
/** The default since session 20 (checked against the module's own defaults below). */
const SPLIT: Partial<GpuKernelSwitches> = { gemvWorkgroupSplit: 256, gemvFfFourRows: true };

describe('GEMV N default (gemvWorkgroupSplit 256 + gemvFfFourRows) over many workgroups', () => {
  it('is the module default; MODPREC_GPU_GEMV_WORKGROUP_SPLIT=0 and MODPREC_GPU_GEMV_FF_FOUR_ROWS=0 turn the forms off', async () => {
    const fresh = async (env: Record<string, string>): Promise<GpuKernelSwitches> => {
      for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
      vi.resetModules();
      try {
        // The switches are read from the environment when the module loads.
        return (await import('../../src/backends/webgpu/kernel-switches.js')).gpuKernelSwitches();
      } finally {
        vi.unstubAllEnvs();
        vi.resetModules();
      }
    };
    const pick = (s: GpuKernelSwitches) => ({ gemvWorkgroupSplit: s.gemvWorkgroupSplit, gemvFfFourRows: s.gemvFfFourRows });
    expect(pick(await fresh({}))).toEqual(SPLIT);
    expect(pick(await fresh({ MODPREC_GPU_GEMV_WORKGROUP_SPLIT: '0', MODPREC_GPU_GEMV_FF_FOUR_ROWS: '0' }))).toEqual(TWO_PASS);
    expect(pick(await fresh({ MODPREC_GPU_GEMV_WORKGROUP_SPLIT: '128' }))).toEqual({ ...SPLIT, gemvWorkgroupSplit: 128 });
    // The partial pass's workgroup keeps its own default (64) and its =0.
    expect((await fresh({ MODPREC_GPU_GEMV_PARTIAL_WORKGROUP: '0' })).gemvPartialWorkgroup).toBe(64);
    if (process.env.MODPREC_GPU_GEMV_WORKGROUP_SPLIT === undefined && process.env.MODPREC_GPU_GEMV_FF_FOUR_ROWS === undefined) expect(pick(initial)).toEqual(SPLIT);
  });

  it('every row: the two-pass bits, within gemvBound of the exact result; the split where S ≤ 256 and y is packed', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          arithmetic: fc.constantFrom('f32', 'ff'),
          storage: fc.constantFrom<StoredFormat>('f32', 'bf16', 'f16'),
          yFormat: fc.constantFrom<StoredFormat>('f32', 'f16', 'bf16', 'ff', 'f64'),
          // m: one row group up to about 2400 rows (a workgroup holds at most 64 row groups of 4 rows, 128 for a 16-bit y), ± a partial group.
          groups: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 60, max: 600 })), extra: fc.integer({ min: 0, max: 3 }),
          // n: a single column to several hundred (chunks of one column to whole).
          n: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 300 })),
          // Chunks wanted (targetThreads = m·wanted): S = 1, a few, just below / at / past a workgroup's 256 invocations.
          wanted: fc.constantFrom(1, 2, 3, 7, 32, 100, 255, 256, 257, 400),
          pad: fc.constantFrom(0, 0, 1, 4), aView: fc.boolean(), xStride: fc.constantFrom(1, 1, 3),
          yView: fc.constantFrom(false, false, false, true),
          alpha: fc.constantFrom(1.25, -1, 1.25, 0), beta: fc.constantFrom(0, 1, -0.5), chains: fc.constantFrom(undefined, 1),
          seed: fc.integer({ min: 1, max: 2 ** 30 }),
        }),
        async (c) => {
          const m = 4 * c.groups + c.extra;
          const { n } = c;
          const ops = await operands({ ...c, aFormat: c.storage, m });
          // β = 0: y holds NaN, which must not reach the result.
          const y0 = c.beta === 0 ? new Float64Array(m).fill(NaN) : randomValues(m, c.seed + 2);
          const targetThreads = m * c.wanted;
          const run = async (switches: Partial<GpuKernelSwitches>): Promise<{ y: Float64Array; ran: number; entry: Float64Array }> => {
            setGpuKernelSwitches(switches);
            const { y, destroy } = await makeY(y0, c.yFormat, c.yView);
            const entry = Float64Array.from(await y.toHost());
            const before = gemvWorkgroupSplitCalls();
            await gpuGemv({ A: ops.A, x: ops.x, y, alpha: c.alpha, beta: c.beta }, { arithmetic: c.arithmetic, targetThreads, ...(c.chains ? { chains: c.chains } : {}) });
            const out = Float64Array.from(await y.toHost());
            destroy();
            return { y: out, ran: gemvWorkgroupSplitCalls() - before, entry };
          };
          const two = await run(TWO_PASS);
          const one = await run(SPLIT);
          const label = JSON.stringify({ ...c, m });
          expect(two.ran, label).toBe(0);
          // The split runs for a packed y where a workgroup holds every chunk (α = 0 only scales y).
          const S = gemvSplit(m, n, targetThreads).splits;
          // A view of one column is read through its transpose (transposed-device-matrix.ts): GEMV T, never the split.
          const transposed = c.aView && m > 1 && n === 1;
          if (!c.yView) expect(one.ran, `${label} S=${S}`).toBe(c.alpha !== 0 && !transposed && S <= 256 ? 1 : 0);
          const differ = [...one.y.keys()].filter((i) => !same(one.y[i]!, two.y[i]!));
          expect(differ.slice(0, 8).map((i) => `row ${i}: ${one.y[i]} vs ${two.y[i]}`), label).toEqual([]);
          // The exact α·A·x + β·y of the stored values, in units of 2^-65 (α·4 and β·2 are integers).
          const bound = gemvBound({
            alpha: c.alpha, beta: c.beta, trans: 'N',
            A: matrix(m, n, (i, j) => ops.a(i, j), { storage: FORMAT[c.storage] }),
            x: vector(ops.hx, { storage: formats.f32 }), // ff is no host storage: y as f64, whose store rounding (2^-53) bounds ff's (none beyond the arithmetic's).
            y: vector(one.entry, { storage: FORMAT[c.yFormat === 'ff' ? 'f64' : c.yFormat] }),
          }, { arithmetic: FORMAT[c.arithmetic] });
          const bad = rowsOutsideBound(ops, m, n, c.alpha, c.beta, one.y, one.entry, bound);
          expect(bad, label).toEqual([]);
          ops.destroy();
        },
      ),
      { numRuns: 12 },
    );
  });

  it('y in each format the split writes, an odd m (a last word of a 16-bit y half past the end), several workgroups', async () => {
    await requireRuntime();
    const [m, n] = [1031, 70];
    const ops = await operands({ m, n, aFormat: 'f32', pad: 1, aView: false, xStride: 1, seed: 41 });
    for (const yFormat of ['f32', 'f16', 'bf16', 'ff', 'f64'] as const) {
      const outs: Float64Array[] = [];
      for (const switches of [TWO_PASS, SPLIT]) {
        setGpuKernelSwitches(switches);
        const y = await toDevice(randomValues(m, 42), { format: yFormat });
        const before = gemvWorkgroupSplitCalls();
        await gpuGemv({ A: ops.A, x: ops.x, y, alpha: 0.5, beta: -2 }, { arithmetic: 'ff', targetThreads: 8 * m });
        expect(gemvWorkgroupSplitCalls() - before, yFormat).toBe(switches === TWO_PASS ? 0 : 1);
        outs.push(Float64Array.from(await y.toHost()));
        y.destroy();
      }
      const differ = [...outs[1]!.keys()].filter((i) => !same(outs[1]![i]!, outs[0]![i]!));
      expect(differ.slice(0, 8).map((i) => `${yFormat} row ${i}: ${outs[1]![i]} vs ${outs[0]![i]}`)).toEqual([]);
    }
    ops.destroy();
  });

  it('the transposed product never takes the split, and keeps its bits', async () => {
    await requireRuntime();
    const [m, n] = [700, 300];
    const ops = await operands({ m, n, aFormat: 'f32', pad: 3, aView: false, xStride: 1, seed: 11 });
    const hx = randomValues(m, 12);
    const x = await toDevice(hx, { format: 'f32' });
    const outs: Float64Array[] = [];
    for (const switches of [TWO_PASS, SPLIT]) {
      setGpuKernelSwitches(switches);
      const y = await toDevice(new Float64Array(n).fill(NaN), { format: 'ff' });
      const before = gemvWorkgroupSplitCalls();
      await gpuGemv({ A: ops.A, x, y, trans: 'T' }, { arithmetic: 'ff' });
      expect(gemvWorkgroupSplitCalls() - before).toBe(0);
      outs.push(Float64Array.from(await y.toHost()));
      y.destroy();
    }
    expect(outs[1]!.every((v, j) => same(v, outs[0]![j]!) && Number.isFinite(v))).toBe(true);
    ops.destroy();
    x.destroy();
  });

  it('with the partial pass in wider workgroups set too (gemvPartialWorkgroup), the split keeps the two passes\' bits', async () => {
    await requireRuntime();
    const [m, n] = [1030, 200];
    const ops = await operands({ m, n, aFormat: 'f32', pad: 0, aView: false, xStride: 1, seed: 21 });
    for (const arithmetic of ['f32', 'ff'] as const) {
      const outs: Float64Array[] = [];
      for (const switches of [TWO_PASS, { ...SPLIT, gemvPartialWorkgroup: 256 as const }]) {
        setGpuKernelSwitches(switches);
        const y = await toDevice(randomValues(m, 22), { format: 'f32' });
        const before = gemvWorkgroupSplitCalls();
        await gpuGemv({ A: ops.A, x: ops.x, y, alpha: -1, beta: 1 }, { arithmetic, targetThreads: 16 * m });
        expect(gemvWorkgroupSplitCalls() - before).toBe(switches === TWO_PASS ? 0 : 1);
        outs.push(Float64Array.from(await y.toHost()));
        y.destroy();
      }
      expect(outs[1]!.every((v, i) => same(v, outs[0]![i]!)), arithmetic).toBe(true);
    }
    ops.destroy();
  });

  it('S = 256 chunks (one row group a workgroup) splits, S = 257 takes the two passes; the same bits either way', async () => {
    await requireRuntime();
    const m = 301;
    for (const n of [256, 257]) {
      const ops = await operands({ m, n, aFormat: 'bf16', pad: 0, aView: false, xStride: 1, seed: n });
      const outs: Float64Array[] = [];
      const ran: number[] = [];
      for (const switches of [TWO_PASS, SPLIT]) {
        setGpuKernelSwitches(switches);
        const y = await toDevice(randomValues(m, 5), { format: 'f64' });
        const before = gemvWorkgroupSplitCalls();
        // One column a chunk: S = n.
        await gpuGemv({ A: ops.A, x: ops.x, y, alpha: 1.25, beta: -0.5 }, { arithmetic: 'ff', targetThreads: m * n });
        ran.push(gemvWorkgroupSplitCalls() - before);
        outs.push(Float64Array.from(await y.toHost()));
        y.destroy();
      }
      expect(ran, `n = ${n}`).toEqual([0, n <= 256 ? 1 : 0]);
      expect(outs[1]!.every((v, i) => same(v, outs[0]![i]!)), `n = ${n}`).toBe(true);
      ops.destroy();
    }
  });

  it('more workgroups than one dispatch dimension holds (a second row of workgroups, the last one idle): every row stored', async () => {
    await requireRuntime();
    // Workgroups of 64 and S = 33 chunks: one row group of 4 rows a workgroup, ⌈m/4⌉ = 65537 workgroups > 65535,
    // dispatched as 2 × 32769 (the same code as with 256, which would take S ≥ 129 chunks: a two-pass partial buffer of
    // m·S words over llvmpipe's 128 MiB binding, so no reference, and four times the work).
    const [m, n] = [4 * 65536 + 3, 33];
    const ops = await operands({ m, n, aFormat: 'f32', pad: 0, aView: false, xStride: 1, seed: 31, hostA: false });
    const outs: Float64Array[] = [];
    for (const switches of [TWO_PASS, { ...SPLIT, gemvWorkgroupSplit: 64 as const }]) {
      setGpuKernelSwitches(switches);
      const y = await toDevice(new Float64Array(m).fill(NaN), { format: 'f32' });
      const before = gemvWorkgroupSplitCalls();
      await gpuGemv({ A: ops.A, x: ops.x, y }, { arithmetic: 'f32', targetThreads: m * n });
      expect(gemvWorkgroupSplitCalls() - before).toBe(switches === TWO_PASS ? 0 : 1);
      outs.push(Float64Array.from(await y.toHost()));
      y.destroy();
    }
    const differ = [...outs[1]!.keys()].filter((i) => !same(outs[1]![i]!, outs[0]![i]!) || !Number.isFinite(outs[1]![i]!));
    expect(differ.slice(0, 8).map((i) => `row ${i}: ${outs[1]![i]} vs ${outs[0]![i]}`)).toEqual([]);
    ops.destroy();
  });

  it('empty products leave y as the two passes do (m = 0, n = 0)', async () => {
    await requireRuntime();
    setGpuKernelSwitches(SPLIT);
    const empty = deviceMatrix(await toDevice(new Float64Array(0), { format: 'f32' }), 0, 5);
    const x5 = await toDevice(randomValues(5, 3), { format: 'f32' });
    const y0 = await toDevice(new Float64Array(0), { format: 'ff' });
    const before = gemvWorkgroupSplitCalls();
    await gpuGemv({ A: empty, x: x5, y: y0, beta: 2 }, { arithmetic: 'ff' });
    const flat = deviceMatrix(await toDevice(new Float64Array(0), { format: 'f32' }), 6, 0, 6);
    const x0 = await toDevice(new Float64Array(0), { format: 'f32' });
    const y6 = await toDevice([1, -2, 3, NaN, 0.5, -0], { format: 'ff' });
    // An empty op(A) leaves y untouched (the CPU kernel's rule), β included.
    await gpuGemv({ A: flat, x: x0, y: y6, beta: 2 }, { arithmetic: 'ff' });
    expect(gemvWorkgroupSplitCalls() - before).toBe(0);
    expect(Array.from(await y6.toHost())).toEqual([1, -2, 3, NaN, 0.5, -0]);
    for (const b of [empty.data, x5, y0, flat.data, x0, y6]) b.destroy();
  });
});
