/**
 * Float-float's folded lazy terms (the `ffFoldedProducts` switch, src/formats/ff/ff-folded-products.ts: TwoProd's error
 * and TwoSum's δb in one fma) and lean settles (`ffLeanSettle`, src/formats/ff/ff-lean-settle.ts: no zero test).
 * Folded terms take another rounding: every row of GEMV N (the workgroup split and the two passes, with and without
 * `ffLongLazy`) and T, and DOT, must lie within gemvBound / dotBound of the exact rational oracle (every value a
 * multiple of 2^-31 or cancelling across 2^±20) over packed and strided A and x, y packed or a view in several formats,
 * α = 0, β = 0 over a y of NaN, tails past the 8-column steps. The lean settle claims the default's bits: checked
 * against it (with and without the folded terms) on GEMV N and T and DOT, fp32 and 16-bit, with NaN, ±∞, overflow and
 * all-zero (−0 product) rows, and over the views and strides of the GEMV property. The folded terms are on by default
 * since session 22, the lean settles off.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dotBound, formats, gemvBound, matrix, vector } from '../../src/index.js';
import { toDevice, viewOf, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gemvSplit, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gemvWorkgroupSplitCalls } from '../../kernels/gemv/gemv-workgroup-split.js';
import { compiledPrograms, getProgram, submitPasses } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, readWords } from '../../src/backends/webgpu/runtime.js';
import { foldedProductHelpers } from '../../src/formats/ff/ff-folded-products.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { absoluteError, exactDot, exactOf } from '../../src/testing/exact.js';
import { compareRational } from '../../src/testing/rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { FORMAT, makeY, operands, rowsOutsideBound, same, type StoredFormat } from './gemv-split-fixtures.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

const FOLDED: Partial<GpuKernelSwitches> = { ffFoldedProducts: true, ffLeanSettle: false };

/** |got − exact| ≤ bound, exactly (the oracle is a rational; the bound a double). */
function within(got: number, exact: ReturnType<typeof exactDot>, bound: number): boolean {
  return Number.isFinite(got) && compareRational(absoluteError(got, exact), exactOf(bound)) <= 0;
}

/** n binary32 values of magnitudes 2^-20 … 2^20 whose products with `partner` nearly cancel in pairs. */
function cancelling(n: number, seed: number, partner: ArrayLike<number>): Float64Array {
  const r = randomValues(2 * n, seed);
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[k] = Math.fround(k % 2 === 1 ? (-out[k - 1]! * partner[k - 1]!) / partner[k]! * (1 + r[k]! * 2 ** -20) : r[k]! * 2 ** Math.round(20 * r[n + k]!));
  return out;
}

describe('float-float folded lazy terms (ffFoldedProducts) and lean settles (ffLeanSettle)', () => {
  it('GEMV N with an fp32 x: every row within gemvBound of the exact result, the split where it applies', async () => {
    await requireRuntime();
    const before = new Set((await compiledPrograms()).map((p) => p.source));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          aFormat: fc.constantFrom<StoredFormat>('bf16', 'f16', 'f32'), yFormat: fc.constantFrom<StoredFormat>('f32', 'ff', 'f64'),
          // m: one row group to a couple of workgroups' rows (64 row groups of 4), ± a partial group; n past the steps.
          groups: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 60, max: 140 })), extra: fc.integer({ min: 0, max: 3 }),
          n: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 300 })), wanted: fc.constantFrom(1, 3, 32),
          pad: fc.constantFrom(0, 4), aView: fc.boolean(), xStride: fc.constantFrom(1, 3), yView: fc.constantFrom(false, false, true),
          alpha: fc.constantFrom(1.25, -1, 0), beta: fc.constantFrom(0, -0.5), chains: fc.constantFrom(undefined, 2),
          longLazy: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }),
        }),
        async (c) => {
          const m = 4 * c.groups + c.extra;
          const ops = await operands({ ...c, m, xFormat: 'f32' });
          const y0 = c.beta === 0 ? new Float64Array(m).fill(NaN) : randomValues(m, c.seed + 2);
          setGpuKernelSwitches({ ...FOLDED, ffLongLazy: c.longLazy });
          const { y, destroy } = await makeY(y0, c.yFormat, c.yView);
          const entry = Float64Array.from(await y.toHost());
          const ran = gemvWorkgroupSplitCalls();
          const targetThreads = m * c.wanted;
          await gpuGemv({ A: ops.A, x: ops.x, y, alpha: c.alpha, beta: c.beta }, { arithmetic: 'ff', targetThreads, ...(c.chains ? { chains: c.chains } : {}) });
          const got = Float64Array.from(await y.toHost());
          destroy();
          const label = JSON.stringify({ ...c, m });
          // The split takes the folded row pass as the arithmetic's own (packed y, S ≤ 256; a one-column view runs as T).
          const S = gemvSplit(m, c.n, targetThreads).splits;
          if (!c.yView) expect(gemvWorkgroupSplitCalls() - ran, label).toBe(c.alpha !== 0 && !(c.aView && m > 1 && c.n === 1) && S <= 256 ? 1 : 0);
          const bound = gemvBound({
            alpha: c.alpha, beta: c.beta, trans: 'N',
            A: matrix(m, c.n, (i, j) => ops.a(i, j), { storage: FORMAT[c.aFormat] }),
            x: vector(ops.hx, { storage: formats.f32 }),
            y: vector(entry, { storage: FORMAT[c.yFormat === 'ff' ? 'f64' : c.yFormat] }),
          }, { arithmetic: formats.ff });
          expect(rowsOutsideBound(ops, m, c.n, c.alpha, c.beta, got, entry, bound), label).toEqual([]);
          // The lean settle on top: the same bits over the same views and strides.
          setGpuKernelSwitches({ ...FOLDED, ffLongLazy: c.longLazy, ffLeanSettle: true });
          const lean = await makeY(y0, c.yFormat, c.yView);
          await gpuGemv({ A: ops.A, x: ops.x, y: lean.y, alpha: c.alpha, beta: c.beta }, { arithmetic: 'ff', targetThreads, ...(c.chains ? { chains: c.chains } : {}) });
          const leanGot = Float64Array.from(await lean.y.toHost());
          lean.destroy();
          expect([...got.keys()].filter((i) => !same(leanGot[i]!, got[i]!)), `${label} lean settle`).toEqual([]);
          ops.destroy();
        },
      ),
      { numRuns: 6 },
    );
    const added = (await compiledPrograms()).map((p) => p.source).filter((s) => !before.has(s));
    expect(added.some((s) => s.includes('ffLazyMulAddFold'))).toBe(true);
  });

  it('GEMV N and T and DOT over terms cancelling across 2^±20: within gemvBound / dotBound (long lazy runs too)', async () => {
    await requireRuntime();
    for (const [n, seed] of [[77, 3], [300, 5]] as const) {
      const hx = randomValues(n, seed).map((v) => Math.fround(1 + v / 2));
      const m = 6;
      const a = new Float64Array(m * n);
      for (let i = 0; i < m; i++) cancelling(n, seed + 7 * i, hx).forEach((v, j) => (a[i + j * m] = v));
      const x = await toDevice(hx, { format: 'f32' });
      const row0 = await toDevice(a.filter((_, k) => k % m === 0), { format: 'f32' });
      const A = deviceMatrix(await toDevice(a, { format: 'f32' }), m, n);
      for (const longLazy of [false, true]) {
        setGpuKernelSwitches({ ...FOLDED, ffLongLazy: longLazy });
        const y = await toDevice(new Float64Array(m), { format: 'f64' });
        await gpuGemv({ A, x, y }, { arithmetic: 'ff', targetThreads: 2 * m });
        const got = await y.toHost();
        const bound = gemvBound({ alpha: 1, A: matrix(m, n, (i, j) => a[i + j * m]!, { storage: formats.f32 }), x: vector(hx, { storage: formats.f32 }), beta: 0, y: vector(m, { storage: formats.f64 }), trans: 'N' }, { arithmetic: formats.ff });
        for (let i = 0; i < m; i++) {
          const row = Array.from({ length: n }, (_, j) => a[i + j * m]!);
          expect(within(got[i]!, exactDot(row, hx), bound[i]!), `N n=${n} long ${longLazy} row ${i}: ${got[i]} bound ${bound[i]}`).toBe(true);
        }
        // T: Aᵀ·z with z of length m (each output a column of A against z, 3 lanes a column).
        const z = await toDevice(Float64Array.from({ length: m }, (_, i) => Math.fround(1 + i / 8)), { format: 'f32' });
        const hz = await z.toHost();
        const yt = await toDevice(new Float64Array(n), { format: 'f64' });
        await gpuGemv({ A, x: z, y: yt, trans: 'T' }, { arithmetic: 'ff', targetThreads: 3 * n });
        const gotT = await yt.toHost();
        const boundT = gemvBound({ alpha: 1, A: matrix(m, n, (i, j) => a[i + j * m]!, { storage: formats.f32 }), x: vector(hz, { storage: formats.f32 }), beta: 0, y: vector(n, { storage: formats.f64 }), trans: 'T' }, { arithmetic: formats.ff });
        for (let j = 0; j < n; j += 7) {
          const col = Array.from({ length: m }, (_, i) => a[i + j * m]!);
          expect(within(gotT[j]!, exactDot(col, hz), boundT[j]!), `T n=${n} column ${j}: ${gotT[j]} bound ${boundT[j]}`).toBe(true);
        }
        // DOT of row 0 with x (1 and 4 first-pass threads: long runs and several partials).
        for (const maxThreads of [1, 4]) {
          const d = (await gpuDot(row0, x, { arithmetic: 'ff', maxThreads })).value;
          const r0 = Array.from({ length: n }, (_, j) => a[j * m]!);
          const db = dotBound(vector(r0, { storage: formats.f32, arithmetic: formats.ff }), vector(hx, { storage: formats.f32, arithmetic: formats.ff }), { arithmetic: formats.ff });
          expect(within(d, exactDot(r0, hx), db), `DOT n=${n} T≤${maxThreads} long ${longLazy}: ${d} bound ${db}`).toBe(true);
        }
        for (const b of [y, z, yt]) b.destroy();
      }
      for (const b of [A.data, x, row0]) b.destroy();
    }
  });

  it('the lean settle keeps the bits (GEMV N and T and DOT, fp32 and 16-bit, folded or not), with NaN, ±∞, overflow and −0 rows', async () => {
    await requireRuntime();
    const before = new Set((await compiledPrograms()).map((p) => p.source));
    const [m, n] = [12, 45];
    const a = randomValues(m * n, 61);
    const hx = randomValues(n, 62).map((v) => (v === 0 ? 0.5 : v));
    a[0 + 3 * m] = 2 ** 100; // row 0: 2^200 overflows (x_3 = 2^100)
    hx[3] = 2 ** 100;
    a[1 + 5 * m] = NaN;
    a[2 + 7 * m] = -Infinity;
    for (let j = 0; j < n; j++) a[3 + j * m] = -0; // row 3: every product ±0
    for (let j = 0; j < n; j++) a[4 + j * m] = 0; // row 4: products ±0 (x's signs)
    for (let j = 0; j < n; j += 2) { a[5 + j * m] = 0.5; if (j + 1 < n) a[5 + (j + 1) * m] = -0.5 * hx[j]! / hx[j + 1]!; } // row 5: pairs that cancel
    for (const [fa, fx] of [['f32', 'f32'], ['bf16', 'f32'], ['bf16', 'bf16']] as const) {
      const A = deviceMatrix(await toDevice(a, { format: fa }), m, n);
      const x = await toDevice(hx, { format: fx });
      const col = await toDevice(a.filter((_, k) => k % m === 5), { format: fa });
      const hb = randomValues(150 * 6, 63);
      hb.fill(-0, 3 * 150, 4 * 150);
      hb[5 * 150 + 17] = Infinity;
      const B = deviceMatrix(await toDevice(hb, { format: fa }), 150, 6);
      const z = await toDevice(randomValues(150, 64), { format: fx });
      // (Folded terms change nothing where both operands are 16-bit: the exact products come first.)
      for (const [folded, split] of fx === 'bf16' ? ([[false, 256], [false, 0]] as const) : ([[false, 256], [true, 256], [false, 0]] as const)) {
        const runs: Float64Array[] = [];
        const runsT: Float64Array[] = [];
        const dots: number[] = [];
        for (const ffLeanSettle of [false, true]) {
          setGpuKernelSwitches({ ffFoldedProducts: folded, ffLeanSettle, gemvWorkgroupSplit: split });
          const y = await toDevice(new Float64Array(m).fill(NaN), { format: 'f64' });
          await gpuGemv({ A, x, y }, { arithmetic: 'ff', targetThreads: 3 * m, chains: 2 });
          runs.push(Float64Array.from(await y.toHost()));
          // T: Bᵀ·z over B's 150-row columns (one lane a column: many settles), one column all ±0 products.
          const yt = await toDevice(new Float64Array(6), { format: 'f64' });
          await gpuGemv({ A: B, x: z, y: yt, trans: 'T' }, { arithmetic: 'ff', targetThreads: 6 });
          runsT.push(Float64Array.from(await yt.toHost()));
          for (const b of [y, yt]) b.destroy();
          for (const v of [x, col]) dots.push((await gpuDot(v, x, { arithmetic: 'ff', maxThreads: 3 })).value);
        }
        const label = `${fa}·${fx} folded ${folded} split ${split}`;
        const [off, on] = runs as [Float64Array, Float64Array];
        expect([...runsT[0]!.keys()].filter((j) => !same(runsT[1]![j]!, runsT[0]![j]!)), `${label} T`).toEqual([]);
        expect([Object.is(runsT[1]![3], 0), Math.abs(runsT[1]![5]!) === Infinity], `${label} T`).toEqual([true, true]);
        expect([...off.keys()].filter((i) => !same(on[i]!, off[i]!)).map((i) => `row ${i}: ${on[i]} vs ${off[i]}`), label).toEqual([]);
        expect(dots.slice(2).map((d, k) => same(d, dots[k]!)), `${label} DOT ${dots}`).toEqual([true, true]);
        // 2^200 overflows to +∞; NaN; −∞·x₇; rows of ±0 products sum to +0.
        expect([on[0] === Infinity, Number.isNaN(on[1]!), Math.abs(on[2]!) === Infinity, Object.is(on[3], 0), Object.is(on[4], 0)], label).toEqual([true, true, true, true, true]);
      }
      for (const b of [A.data, B.data, x, col, z]) b.destroy();
    }
    const added = (await compiledPrograms()).map((p) => p.source).filter((s) => !before.has(s));
    expect(added.some((s) => s.includes('ffSettleLean'))).toBe(true);
  });

  it('an x view through the folded two passes (split off) and a DOT of strided fp32 views: within their bounds', async () => {
    await requireRuntime();
    setGpuKernelSwitches({ ...FOLDED, gemvWorkgroupSplit: 0 });
    const ops = await operands({ m: 37, n: 91, aFormat: 'f16', pad: 3, aView: false, xStride: 3, seed: 71 });
    const y = await toDevice(new Float64Array(37).fill(NaN), { format: 'f32' });
    await gpuGemv({ A: ops.A, x: ops.x, y, alpha: -1, beta: 0 }, { arithmetic: 'ff', targetThreads: 37 * 5 });
    const got = Float64Array.from(await y.toHost());
    const bound = gemvBound({ alpha: -1, beta: 0, trans: 'N', A: matrix(37, 91, (i, j) => ops.a(i, j), { storage: formats.f16 }), x: vector(ops.hx, { storage: formats.f32 }), y: vector(37, { storage: formats.f32 }) }, { arithmetic: formats.ff });
    expect(rowsOutsideBound(ops, 37, 91, -1, 0, got, new Float64Array(37).fill(NaN), bound)).toEqual([]);
    ops.destroy();
    y.destroy();
    const n = 1000;
    const span = await toDevice(randomValues(2 * n + 1, 72), { format: 'f32' });
    const u: DeviceArray = viewOf(span, { offset: 1, length: n, stride: 2 });
    const v: DeviceArray = viewOf(span, { offset: 2 * n - 1, length: n, stride: -2 });
    const [hu, hv] = [await u.toHost(), await v.toHost()];
    const d = (await gpuDot(u, v, { arithmetic: 'ff', maxThreads: 8 })).value;
    const db = dotBound(vector(hu, { storage: formats.f32, arithmetic: formats.ff }), vector(hv, { storage: formats.f32, arithmetic: formats.ff }), { arithmetic: formats.ff });
    expect(within(d, exactDot(hu, hv), db), `${d} bound ${db}`).toBe(true);
    span.destroy();
  });

  it('the fused-fma twins of the helpers translate and run on every adapter (exact here where fma is fused)', async () => {
    const rt = await requireRuntime();
    // The adapter registered the twins for its own fma; the fused ones (the H100's) are added here under other names.
    for (const barrier of [true, false]) {
      for (const h of foldedProductHelpers(true, barrier)) {
        const name = /function (\w+)/.exec(h.source)![1]!;
        rt.context.gpujs.addFunction(h.source.replace(name, `${name}Fused${barrier ? 'K' : 'P'}`), { argumentTypes: h.argumentTypes, returnType: h.returnType });
      }
    }
    const program = await getProgram(rt.context, {
      source: `function (X, a, b) {
  let s = [0.75, 0.0];
  s = ffLazyMulAddFoldUFusedK(s, a, b); s = ffLazyMulAddFoldFusedK(s, a, b); s = ffLazyMulAddFoldUFusedP(s, a, b); s = ffLazyMulAddFoldFusedP(s, a, b);
  return s;
}`,
      args: [['X', 'Array'], ['a', 'Float'], ['b', 'Float']],
      components: 2,
    });
    const [input, output] = [createWordBuffer(rt.context, 4), createWordBuffer(rt.context, 4)];
    // a·b = 3 + 2^-20 + 3·2^-12 + 2^-32 (33 bits): 0.75 + 4ab fits a float-float pair exactly.
    const [a, b] = [1 + 2 ** -12, 3 + 2 ** -20];
    submitPasses(rt.context, [{ pass: { program, arrays: { X: { buffer: input } }, scalars: { a, b }, output: { buffer: output }, threads: 1 } }]);
    const w = await readWords(rt.context, output, 2);
    const [h, l] = new Float32Array(w.buffer, w.byteOffset, 2);
    input.destroy();
    output.destroy();
    expect(Number.isFinite(h! + l!)).toBe(true);
    // Without a fused fma f loses TwoProd's error (these twins are never registered there); with one, the exact sum.
    if (rt.fusedFma) expect(h! + l!).toBe(0.75 + 4 * (3 + 2 ** -20 + 3 * 2 ** -12 + 2 ** -32));
    else expect(Math.abs(h! + l! - 12.75) < 0.01).toBe(true);
  });

  it('the folded terms are on by default and the lean settles off (MODPREC_GPU_FF_FOLDED_PRODUCTS=0, MODPREC_GPU_FF_LEAN_SETTLE=1 turn them around)', () => {
    expect(initial.ffFoldedProducts).toBe(process.env.MODPREC_GPU_FF_FOLDED_PRODUCTS !== '0');
    expect(initial.ffLeanSettle).toBe(process.env.MODPREC_GPU_FF_LEAN_SETTLE === '1');
  });
});
