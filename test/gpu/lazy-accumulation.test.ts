/**
 * Lazy float-float accumulation (issue 19: the streaming loops add products without renormalising, settling every
 * accumulator after at most 8 of them): on sums built to cancel across magnitudes up to 2^±40 (2^±6 in fp16) — where a dropped low word
 * would show at once — DOT and GEMV N stay within the a-priori bound γ_{2n+3}(8·2^-48)·Σ|a·b| with and without it
 * (the `lazy` switch off selects the renormalising additions), and the lazy results are no worse than
 * the eager ones by more than that bound.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { lazyAccumulation } from '../../src/backends/webgpu/kernel-common.js';
import { compiledPrograms } from '../../src/backends/webgpu/program.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { accurateSum, gamma, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';

/** n binary32 values of magnitudes 2^-e … 2^e whose products with `partner` nearly cancel in pairs. */
function cancelling(n: number, seed: number, partner: Float64Array, e = 40): Float64Array {
  const r = randomValues(2 * n, seed);
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const magnitude = 2 ** Math.round(e * r[n + k]!);
    // Odd k undoes (almost) the product of k − 1: x_k·p_k ≈ −x_{k−1}·p_{k−1}.
    const v = k % 2 === 1 && partner[k] !== 0 ? (-out[k - 1]! * partner[k - 1]!) / partner[k]! * (1 + r[k]! * 2 ** -20) : r[k]! * magnitude;
    out[k] = Math.fround(v);
  }
  return out;
}

function withLazy<T>(on: boolean, f: () => Promise<T>): Promise<T> {
  setGpuKernelSwitches({ lazy: on });
  return f();
}

const initialExactProducts = gpuKernelSwitches().ffExactProducts;
afterEach(() => {
  setGpuKernelSwitches({ lazy: true, ffExactProducts: initialExactProducts });
});

describe('lazy float-float accumulation', () => {
  it('is on by default (MODPREC_GPU_LAZY=0 at start-up turns it off), and the programs then call the lazy addition', async () => {
    await requireRuntime();
    expect(lazyAccumulation()).toBe(true);
    // TwoProd's terms (bf16·bf16 products take ffExactProducts' lazy multiply-add by default since session 19, and
    // ffFoldedProducts' folded term since session 22).
    setGpuKernelSwitches({ ffExactProducts: false, ffFoldedProducts: false });
    const x = await toDevice(randomValues(300, 4), { format: 'bf16' });
    await gpuDot(x, x, { arithmetic: 'ff', groupWidth: 2, groups: 3 });
    expect((await compiledPrograms()).some((p) => p.source.includes('ffLazyAdd') && p.source.includes('k1g') && p.wgsl.includes('ffSettle'))).toBe(true);
    setGpuKernelSwitches({ lazy: false });
    expect(lazyAccumulation()).toBe(false);
    await gpuDot(x, x, { arithmetic: 'ff', groupWidth: 2, groups: 3 });
    expect((await compiledPrograms()).some((p) => p.source.includes('k1g') && p.source.includes('ffMulAddF') && !p.source.includes('ffLazyAdd'))).toBe(true);
    x.destroy();
  });

  for (const storage of ['f32', 'bf16', 'f16'] as const) {
    it(`DOT, ${storage} storage: lazy and eager both within the bound on cancelling sums`, async () => {
      await requireRuntime();
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 2500 }), fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom(1, 2, 4), async (n, seed, chains) => {
          const hyIn = randomValues(n, seed + 1).map((v) => Math.fround(1 + v / 2));
          const y = await toDevice(hyIn, { format: storage });
          const hy = await y.toHost();
          const x = await toDevice(cancelling(n, seed, hy, storage === 'f16' ? 6 : 40), { format: storage });
          const hx = await x.toHost();
          const terms = hx.map((v, k) => v * hy[k]!);
          const exact = accurateSum(terms);
          const bound = gamma(2 * n + 3, opError('ff')) * accurateSum(terms.map(Math.abs));
          for (const on of [true, false]) {
            const r = await withLazy(on, () => gpuDot(x, y, { arithmetic: 'ff', chains }));
            expect(Math.abs(r.value - exact)).toBeLessThanOrEqual(bound);
          }
          x.destroy();
          y.destroy();
        }),
        { numRuns: 4 },
      );
    });
  }

  it('GEMV N and T, float-float: lazy and eager both within the bound on cancelling rows', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom('N', 'T'), async (m, n, seed, trans) => {
        const hx = randomValues(n, seed).map((v) => Math.fround(1 + v / 2));
        const x = await toDevice(hx, { format: 'f32' });
        // Row i of op(A) cancels against x; stored column-major (A for N: m × n; for T: n × m).
        const rows = Array.from({ length: m }, (_, i) => cancelling(n, seed + 7 * i, hx));
        const a = new Float64Array(m * n);
        for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) a[trans === 'N' ? i + j * m : j + i * n] = rows[i]![j]!;
        const A = trans === 'N' ? deviceMatrix(await toDevice(a), m, n) : deviceMatrix(await toDevice(a), n, m);
        for (const on of [true, false]) {
          const y = await toDevice(new Float64Array(m), { format: 'f64' });
          await withLazy(on, () => gpuGemv({ A, x, y, trans }, { arithmetic: 'ff' }));
          const got = await y.toHost();
          for (let i = 0; i < m; i++) {
            const terms = rows[i]!.map((v, j) => v * hx[j]!);
            expect(Math.abs(got[i]! - accurateSum(terms))).toBeLessThanOrEqual(gamma(2 * n + 3, opError('ff')) * accurateSum(terms.map(Math.abs)));
          }
          y.destroy();
        }
        A.data.destroy();
        x.destroy();
      }),
      { numRuns: 4 },
    );
  });
});
