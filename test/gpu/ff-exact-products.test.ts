/**
 * Float-float DOT and GEMV whose operands are both bf16/f16 (the `ffExactProducts` switch,
 * src/backends/webgpu/ff-exact-products.ts: each lazy term's product is one binary32 multiplication, exact, with no
 * TwoProd error term). The results must be the default's bit for bit wherever no product underflows (on every
 * adapter; with a fused fma also where one does), within dotBound / gemvBound of the exact rational oracle on sums
 * that cancel across magnitudes, the same NaN/±∞ as the default, and the programs must take the new form only where
 * both operands are 16-bit (an fp32 x keeps TwoProd).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dotBound, formats, gemvBound, matrix, vector } from '../../src/index.js';
import { toDevice, viewOf, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { compiledPrograms } from '../../src/backends/webgpu/program.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { absoluteError, exactDot, exactOf } from '../../src/testing/exact.js';
import { compareRational } from '../../src/testing/rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

type Sixteen = 'bf16' | 'f16';
const PAIRS: readonly (readonly [Sixteen, Sixteen])[] = [['bf16', 'bf16'], ['f16', 'f16'], ['bf16', 'f16']];
const FORMAT = { bf16: formats.bf16, f16: formats.f16 } as const;

/** n values of magnitudes 2^±e (e = 20 in bf16, 5 in f16: products stay normal) whose products with `partner` nearly cancel in pairs. */
function cancelling(n: number, seed: number, partner: ArrayLike<number>, format: Sixteen): Float64Array {
  const r = randomValues(2 * n, seed);
  const e = format === 'bf16' ? 20 : 5;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[k] = k % 2 === 1 ? (-out[k - 1]! * partner[k - 1]!) / partner[k]! * (1 + r[k]! / 64) : r[k]! * 2 ** Math.round(e * r[n + k]!);
  return out;
}

/** |got − exact| ≤ bound, exactly (the oracle is a rational; the bound a double). */
function within(got: number, exact: ReturnType<typeof exactDot>, bound: number): boolean {
  return Number.isFinite(got) && compareRational(absoluteError(got, exact), exactOf(bound)) <= 0;
}

const same = (a: number, b: number): boolean => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

/** DOT with the switch off, then on. */
async function bothDots(x: DeviceArray, y: DeviceArray, maxThreads?: number): Promise<[number, number]> {
  setGpuKernelSwitches({ ffExactProducts: false });
  const off = (await gpuDot(x, y, { arithmetic: 'ff', maxThreads })).value;
  setGpuKernelSwitches({ ffExactProducts: true });
  const on = (await gpuDot(x, y, { arithmetic: 'ff', maxThreads })).value;
  return [off, on];
}

describe('float-float with exact 16-bit products (ffExactProducts)', () => {
  it('DOT of two 16-bit vectors: the default bits, within dotBound of the exact sum', async () => {
    await requireRuntime();
    await fc.assert(
      // 1 to 16 first-pass threads over up to 3000 elements (steps, settles and the tail loop); a strided x view.
      fc.asyncProperty(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 16 }), fc.constantFrom(...PAIRS), fc.constantFrom(1, -2), fc.integer({ min: 1, max: 2 ** 30 }), async (n, maxThreads, [fx, fy], stride, seed) => {
        const ys = await toDevice(randomValues(n, seed + 1).map((v) => 1 + v / 2), { format: fy });
        const hy = await ys.toHost();
        const hx = cancelling(n, seed, hy, fx);
        // x as a view of stride −2: element k at span position 2(n − 1 − k).
        const span = stride === 1 ? hx : Float64Array.from({ length: 2 * n - 1 }, (_, p) => (p % 2 === 0 ? hx[n - 1 - p / 2]! : 7));
        const xs = await toDevice(span, { format: fx });
        const x = stride === 1 ? xs : viewOf(xs, { length: n, offset: 2 * (n - 1), stride: -2 });
        const [off, on] = await bothDots(x, ys, maxThreads);
        expect(Object.is(on, off), `n=${n} T≤${maxThreads} ${fx}·${fy} stride ${stride}: ${on} vs ${off}`).toBe(true);
        const stored = Float64Array.from(await x.toHost());
        const bound = dotBound(vector(stored, { storage: FORMAT[fx], arithmetic: formats.ff }), vector(hy, { storage: FORMAT[fy], arithmetic: formats.ff }), { arithmetic: formats.ff });
        expect(within(on, exactDot(stored, hy), bound), `n=${n} ${fx}·${fy}: ${on} bound ${bound}`).toBe(true);
        xs.destroy();
        ys.destroy();
      }),
      { numRuns: 5 },
    );
    const sources = (await compiledPrograms()).map((p) => p.source);
    expect(sources.some((s) => s.includes('ffLazyMulAddExact'))).toBe(true);
  });

  it('GEMV N and T of a 16-bit matrix and vector: the default bits, every row within gemvBound', async () => {
    await requireRuntime();
    const before = new Set((await compiledPrograms()).map((p) => p.source));
    await fc.assert(
      // m even (pair reads of two rows) or odd; n across 8-column steps and a tail; 1 to 3 chunks (N) / lanes (T).
      fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom(...PAIRS), fc.integer({ min: 1, max: 2 ** 30 }), async (m, n, splits, [fa, fx], seed) => {
        for (const trans of ['N', 'T'] as const) {
          const [rows, inner] = trans === 'N' ? [m, n] : [n, m];
          const x = await toDevice(randomValues(inner, seed).map((v) => 1 + v / 2), { format: fx });
          const hx = await x.toHost();
          // Each output's terms cancel in pairs: row i of op(A) is cancelling(inner, …) against x.
          const a = new Float64Array(m * n);
          for (let r = 0; r < rows; r++) cancelling(inner, seed + 7 * r, hx, fa).forEach((v, k) => (a[trans === 'N' ? r + k * m : k + r * m] = v));
          const A = deviceMatrix(await toDevice(a, { format: fa }), m, n);
          const y = await toDevice(new Float64Array(rows), { format: 'f64' });
          const results: Float64Array[] = [];
          for (const ffExactProducts of [false, true]) {
            setGpuKernelSwitches({ ffExactProducts });
            await gpuGemv({ A, x, y, trans }, { arithmetic: 'ff', targetThreads: rows * splits });
            results.push(Float64Array.from(await y.toHost()));
          }
          const [off, on] = results as [Float64Array, Float64Array];
          const stored = await A.data.toHost();
          const bound = gemvBound({ alpha: 1, A: matrix(m, n, (i, j) => stored[i + j * m]!, { storage: FORMAT[fa], arithmetic: formats.ff }), x: vector(hx, { storage: FORMAT[fx] }), beta: 0, y: vector(rows, { storage: formats.f64 }), trans }, { arithmetic: formats.ff });
          for (let r = 0; r < rows; r++) {
            expect(Object.is(on[r], off[r]), `${trans} m=${m} n=${n} ${fa}·${fx} row ${r}: ${on[r]} vs ${off[r]}`).toBe(true);
            const row = Array.from({ length: inner }, (_, k) => stored[trans === 'N' ? r + k * m : k + r * m]!);
            expect(within(on[r]!, exactDot(row, hx), bound[r]!), `${trans} m=${m} n=${n} row ${r}: ${on[r]} bound ${bound[r]}`).toBe(true);
          }
          for (const b of [A.data, x, y]) b.destroy();
        }
      }),
      { numRuns: 5 },
    );
    // The GEMV programs (N's row pass, T's lane pass) took the new form.
    expect((await compiledPrograms()).filter((p) => p.source.includes('ffLazyMulAddExact') && !before.has(p.source)).length).toBeGreaterThanOrEqual(2);
  });

  it('DOT edge cases: n = 0 and 1, products that underflow or overflow binary32, NaN and ±∞ as the default', async () => {
    const rt = await requireRuntime();
    const cases: { name: string; x: number[]; y: number[] }[] = [
      { name: 'n = 0', x: [], y: [] },
      { name: 'n = 1', x: [3.5], y: [-0.15625] },
      // bf16 subnormals (below 2^-126) and tiny normals: products from 2^-260 to 2^-120, most of them below 2^-149.
      { name: 'underflow', x: Array.from({ length: 40 }, (_, k) => (k % 3 === 0 ? -1 : 1) * 2 ** (-60 - 2 * k) * (1 + k / 64)), y: Array.from({ length: 40 }, (_, k) => 2 ** (-62 - k) * (1.5 - k / 128)) },
      // 2^100 · 2^100 overflows binary32 (the head turns +∞, the tail NaN until the settle).
      { name: 'overflow', x: [1, 2 ** 100, 3, -2, 5, 1, 1, 1, 1], y: [1, 2 ** 100, 1, 1, 1, 1, 1, 1, 1] },
      { name: '−overflow and +overflow', x: [2 ** 100, 1, -(2 ** 100), 1], y: [2 ** 100, 1, 2 ** 100, 1] },
      { name: 'NaN', x: [1, 2, NaN, 4, 5, 6, 7, 8, 9], y: [1, 1, 1, 1, 1, 1, 1, 1, 1] },
      { name: '±∞', x: [1, Infinity, 2, 3], y: [1, 1, 1, 1] },
      { name: '±0', x: [-0, -0, 0, -0], y: [1, -0, -0, 2] },
    ];
    for (const c of cases) {
      const x = await toDevice(c.x, { format: 'bf16' });
      const y = await toDevice(c.y, { format: 'bf16' });
      const [off, on] = await bothDots(x, y, 4);
      const [hx, hy] = [Float64Array.from(await x.toHost()), Float64Array.from(await y.toHost())];
      if (c.name === 'underflow') {
        // Each product rounded into the subnormal range errs by ≤ 2^-150 (binary32's subnormal spacing is 2^-149): dotBound's
        // η for float-float is that (a regression: it was 2^-174, as if the tail had 48 bits below 2^-126, and the
        // default missed it here).
        const bound = dotBound(vector(hx, { storage: formats.bf16, arithmetic: formats.ff }), vector(hy, { storage: formats.bf16, arithmetic: formats.ff }), { arithmetic: formats.ff });
        expect(within(on, exactDot(hx, hy), bound), `${c.name}: ${on} bound ${bound}`).toBe(true);
        expect(within(off, exactDot(hx, hy), bound), `${c.name} (default): ${off} bound ${bound}`).toBe(true);
        // A fused fma's TwoProd error term is ±0 there: the same bits. Dekker's split (no fused fma) may differ, by the
        // underflow of each form's products.
        if (rt.fusedFma) expect(Object.is(on, off), `${c.name}: ${on} vs ${off}`).toBe(true);
        else expect(Math.abs(on - off) <= (8 * hx.length) * 2 ** -150, `${c.name}: ${on} vs ${off}`).toBe(true);
      } else {
        expect(same(on, off), `${c.name}: ${on} vs ${off}`).toBe(true);
        if (c.name.startsWith('n =')) expect(on === hx.reduce((s, v, k) => s + v * hy[k]!, 0), `${c.name}: ${on}`).toBe(true);
      }
      x.destroy();
      y.destroy();
    }
  });

  it('GEMV N edge cases: overflowing, NaN, ±∞ and underflowing rows as the default', async () => {
    const rt = await requireRuntime();
    const [m, n] = [4, 12];
    const a = new Float64Array(m * n).fill(1.25);
    const hx = Array.from({ length: n }, (_, j) => (j % 2 === 0 ? 1.5 : -0.75));
    a[0 + 3 * m] = 2 ** 100;
    hx[3] = 2 ** 100; // row 0: 2^200 overflows; rows 1 to 3 get 1.25·2^100 terms
    a[1 + 5 * m] = NaN;
    a[2 + 7 * m] = -Infinity;
    for (let j = 0; j < n; j++) a[3 + j * m] = (j % 2 === 0 ? 1 : -1) * 2 ** (-140 + j) * (j === 3 ? 2 ** -100 : 1); // products 2^-150 … 2^-129
    const A = deviceMatrix(await toDevice(a, { format: 'bf16' }), m, n);
    const x = await toDevice(hx, { format: 'bf16' });
    const y = await toDevice(new Float64Array(m), { format: 'f64' });
    const results: Float64Array[] = [];
    for (const ffExactProducts of [false, true]) {
      setGpuKernelSwitches({ ffExactProducts });
      await gpuGemv({ A, x, y }, { arithmetic: 'ff', targetThreads: 2 * m });
      results.push(Float64Array.from(await y.toHost()));
    }
    const [off, on] = results as [Float64Array, Float64Array];
    for (let i = 0; i < 3; i++) expect(same(on[i]!, off[i]!), `row ${i}: ${on[i]} vs ${off[i]}`).toBe(true);
    expect([on[0], Number.isNaN(on[1]!), on[2]]).toEqual([Infinity, true, Infinity]); // −∞ · −0.75 = +∞
    // Row 3's products underflow: the same bits with a fused fma, else within each form's underflow (see the DOT case).
    expect(rt.fusedFma ? Object.is(on[3], off[3]) : Math.abs(on[3]! - off[3]!) <= 8 * n * 2 ** -150, `row 3: ${on[3]} vs ${off[3]}`).toBe(true);
    for (const b of [A.data, x, y]) b.destroy();
  });

  it('GEMV N of a bf16 matrix with an fp32 x keeps TwoProd (its products are not exact)', async () => {
    await requireRuntime();
    const before = new Set((await compiledPrograms()).map((p) => p.source));
    // ffFoldedProducts (the default since session 22) folds TwoProd's error into the sum: this test means the unfolded term.
    setGpuKernelSwitches({ ffExactProducts: true, ffFoldedProducts: false });
    const A = deviceMatrix(await toDevice(randomValues(6 * 5, 3), { format: 'bf16' }), 6, 5);
    const x = await toDevice(randomValues(5, 4), { format: 'f32' });
    const y = await toDevice(new Float64Array(6), { format: 'f64' });
    await gpuGemv({ A, x, y }, { arithmetic: 'ff' });
    const added = (await compiledPrograms()).map((p) => p.source).filter((s) => !before.has(s));
    expect(added.some((s) => s.includes('ffLazyAdd'))).toBe(true);
    expect(added.some((s) => s.includes('ffLazyMulAddExact'))).toBe(false);
    for (const b of [A.data, x, y]) b.destroy();
  });
});
