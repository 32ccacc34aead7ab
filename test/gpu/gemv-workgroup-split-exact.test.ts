/**
 * GEMV N's workgroup split (`gemvWorkgroupSplit` 256) running float-float's exact 16-bit products (`ffExactProducts`:
 * A and x both unscaled bf16/f16) in its one dispatch, with `gemvWorkgroupSplitExact` on: every row must be the two
 * passes' bit for bit (the same row pass, the partials added in chunk order) and within gemvBound of the exact result
 * of the stored values (BigInt: every value here is an integer times 2^-31) — over A packed (lda ≥ m) or a strided
 * sub-range, x packed or strided with an offset, y packed or a sub-range in each format the split writes, α = 0, β = 0
 * over a y of NaN, S from 1 past a workgroup's 256 invocations. With the switch off those calls keep the two passes;
 * an fp32 x takes the split either way.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { formats, gemvBound, matrix, vector } from '../../src/index.js';
import { gemvSplit, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gemvWorkgroupSplitCalls } from '../../kernels/gemv/gemv-workgroup-split.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { FORMAT, makeY, operands, rowsOutsideBound, same, type Operands, type StoredFormat } from './gemv-split-fixtures.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

/** Exact products on in both forms (their default); the two passes, the split without and with the exact pass. */
const TWO_PASS: Partial<GpuKernelSwitches> = { ffExactProducts: true, gemvWorkgroupSplit: 0, gemvFfFourRows: true, gemvWorkgroupSplitExact: false };
const SPLIT: Partial<GpuKernelSwitches> = { ...TWO_PASS, gemvWorkgroupSplit: 256 };
const SPLIT_EXACT: Partial<GpuKernelSwitches> = { ...SPLIT, gemvWorkgroupSplitExact: true };

type Sixteen = 'bf16' | 'f16';
type YFormat = StoredFormat;

/** One call under `switches`: y after it, y's stored entry values, and how many split calls ran. */
async function runGemv(switches: Partial<GpuKernelSwitches>, ops: Operands, c: { y0: Float64Array; yFormat: YFormat; yView: boolean; alpha: number; beta: number; targetThreads: number; chains?: number }): Promise<{ y: Float64Array; entry: Float64Array; ran: number }> {
  setGpuKernelSwitches(switches);
  const { y, destroy } = await makeY(c.y0, c.yFormat, c.yView);
  const entry = Float64Array.from(await y.toHost());
  const before = gemvWorkgroupSplitCalls();
  await gpuGemv({ A: ops.A, x: ops.x, y, alpha: c.alpha, beta: c.beta }, { arithmetic: 'ff', targetThreads: c.targetThreads, ...(c.chains ? { chains: c.chains } : {}) });
  const out = Float64Array.from(await y.toHost());
  destroy();
  return { y: out, entry, ran: gemvWorkgroupSplitCalls() - before };
}

/** Rows where `one` and `two` differ in a bit (at most 8, for the message). */
function differing(one: Float64Array, two: Float64Array): string[] {
  return [...one.keys()].filter((i) => !same(one[i]!, two[i]!)).slice(0, 8).map((i) => `row ${i}: ${one[i]} vs ${two[i]}`);
}

describe('GEMV N workgroup split with exact 16-bit products (gemvWorkgroupSplitExact)', () => {
  it('every row: the two passes\' bits, within gemvBound of the exact result; the split where S ≤ 256 and y is packed', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          aFormat: fc.constantFrom<Sixteen>('bf16', 'f16'), xFormat: fc.constantFrom<Sixteen>('bf16', 'f16'),
          yFormat: fc.constantFrom<YFormat>('f32', 'f16', 'bf16', 'ff', 'f64'),
          // m: one row group to a few workgroups' rows (64 row groups of 4 a workgroup), ± a partial group.
          groups: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 60, max: 300 })), extra: fc.integer({ min: 0, max: 3 }),
          n: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 200 })),
          wanted: fc.constantFrom(1, 3, 32, 255, 257),
          pad: fc.constantFrom(0, 1, 4), aView: fc.boolean(), xStride: fc.constantFrom(1, 1, 3),
          yView: fc.constantFrom(false, false, false, true),
          alpha: fc.constantFrom(1.25, -1, 0), beta: fc.constantFrom(0, 1, -0.5), chains: fc.constantFrom(undefined, 2),
          seed: fc.integer({ min: 1, max: 2 ** 30 }),
        }),
        async (c) => {
          const m = 4 * c.groups + c.extra;
          const { n } = c;
          const ops = await operands({ ...c, m });
          const y0 = c.beta === 0 ? new Float64Array(m).fill(NaN) : randomValues(m, c.seed + 2);
          const call = { ...c, y0, targetThreads: m * c.wanted };
          const two = await runGemv(TWO_PASS, ops, call);
          const one = await runGemv(SPLIT_EXACT, ops, call);
          const label = JSON.stringify({ ...c, m });
          expect(two.ran, label).toBe(0);
          const S = gemvSplit(m, n, call.targetThreads).splits;
          // A view of one column runs as GEMV T on its transpose (transposed-device-matrix.ts): never the split.
          const transposed = c.aView && m > 1 && n === 1;
          if (!c.yView) expect(one.ran, `${label} S=${S}`).toBe(c.alpha !== 0 && !transposed && S <= 256 ? 1 : 0);
          expect(differing(one.y, two.y), label).toEqual([]);
          const bound = gemvBound({
            alpha: c.alpha, beta: c.beta, trans: 'N',
            A: matrix(m, n, (i, j) => ops.a(i, j), { storage: FORMAT[c.aFormat] }),
            x: vector(ops.hx, { storage: FORMAT[c.xFormat] }),
            // ff is no host storage: y as f64, whose store rounding bounds ff's.
            y: vector(one.entry, { storage: FORMAT[c.yFormat === 'ff' ? 'f64' : c.yFormat] }),
          }, { arithmetic: formats.ff });
          // The exact α·A·x + β·y in units of 2^-65 (α·4 and β·2 are integers).
          const bad = rowsOutsideBound(ops, m, n, c.alpha, c.beta, one.y, one.entry, bound);
          expect(bad, label).toEqual([]);
          ops.destroy();
        },
      ),
      { numRuns: 10 },
    );
  });

  it('y in each format, an odd m, several workgroups: the split only with the switch, the two passes\' bits either way; an fp32 x splits without it', async () => {
    await requireRuntime();
    const [m, n] = [1031, 70];
    // Every y format over bf16, three over f16 (the property above draws the others); the switch off once a matrix.
    const cases = [['bf16', ['f16', 'f32', 'bf16', 'ff', 'f64']], ['f16', ['bf16', 'f16', 'ff']]] as const;
    for (const [format, yFormats] of cases) {
      const ops = await operands({ m, n, aFormat: format, xFormat: format, pad: 1, aView: false, xStride: 1, seed: 41 });
      for (const yFormat of yFormats) {
        const call = { y0: randomValues(m, 42), yFormat, yView: false, alpha: 0.5, beta: -2, targetThreads: 8 * m };
        const two = await runGemv(TWO_PASS, ops, call);
        const on = await runGemv(SPLIT_EXACT, ops, call);
        expect([two.ran, on.ran], `${format} → ${yFormat}`).toEqual([0, 1]);
        expect(differing(on.y, two.y), `${format} → ${yFormat}`).toEqual([]);
        if (yFormat !== yFormats[0]) continue;
        const off = await runGemv(SPLIT, ops, call);
        expect(off.ran, `${format} → ${yFormat}, switch off`).toBe(0);
        expect(differing(off.y, two.y), `${format} → ${yFormat}, switch off`).toEqual([]);
      }
      ops.destroy();
    }
    // x fp32 against a 16-bit matrix: no exact products, so the split runs with the switch off as on.
    const ops = await operands({ m, n, aFormat: 'bf16', xFormat: 'f32', pad: 0, aView: false, xStride: 1, seed: 43 });
    const call = { y0: new Float64Array(m).fill(NaN), yFormat: 'ff' as const, yView: false, alpha: 1, beta: 0, targetThreads: 8 * m };
    const runs = [await runGemv(TWO_PASS, ops, call), await runGemv(SPLIT, ops, call), await runGemv(SPLIT_EXACT, ops, call)];
    expect(runs.map((r) => r.ran)).toEqual([0, 1, 1]);
    expect(differing(runs[1]!.y, runs[0]!.y)).toEqual([]);
    expect(differing(runs[2]!.y, runs[0]!.y)).toEqual([]);
    ops.destroy();
  });

  it('with two rows a thread (gemvFfFourRows off) and eight (gemvEightRows: one 16-byte load of a column\'s rows) too', async () => {
    await requireRuntime();
    // m and lda multiples of 8: the octet read applies.
    const [m, n] = [1032, 90];
    const ops = await operands({ m, n, aFormat: 'f16', xFormat: 'bf16', pad: 0, aView: false, xStride: 1, seed: 51 });
    const call = { y0: new Float64Array(m).fill(NaN), yFormat: 'f32' as const, yView: false, alpha: -1.25, beta: 0, targetThreads: 16 * m };
    for (const rows of [{ gemvFfFourRows: false }, { gemvEightRows: true }]) {
      const two = await runGemv({ ...TWO_PASS, ...rows }, ops, call);
      const on = await runGemv({ ...SPLIT_EXACT, ...rows }, ops, call);
      const label = JSON.stringify(rows);
      expect([two.ran, on.ran], label).toEqual([0, 1]);
      expect(differing(on.y, two.y), label).toEqual([]);
      expect(on.y.every(Number.isFinite), label).toBe(true);
    }
    ops.destroy();
  });

  it('is on by default (MODPREC_GPU_GEMV_WORKGROUP_SPLIT_EXACT=0 turns it off)', () => {
    if (process.env.MODPREC_GPU_GEMV_WORKGROUP_SPLIT_EXACT === undefined) expect(initial.gemvWorkgroupSplitExact).toBe(true);
    else expect(initial.gemvWorkgroupSplitExact).toBe(process.env.MODPREC_GPU_GEMV_WORKGROUP_SPLIT_EXACT !== '0');
  });
});
