import { describe, expect, it } from 'vitest';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { exactOfDouble, rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsGpuGemv } from '../../kernels/gemv/gemv-rns-webgpu.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';
import { dyadic, mul, roundP, same, sum } from './rns-gpu-oracle.js';

/**
 * A GEMV large enough that the row sums' range passes chunk the columns differently from the partial sums (at 106
 * bits, 360 rows of 1000 columns: 63 chunks of 16 columns against 59 of 17, row-sum-webgpu.ts): every row is still
 * the exact sum rounded once (α = 1, β = 0, exponents within the grid's room), both N and T.
 */
describe('GEMV whose range passes chunk the columns on their own', () => {
  for (const trans of ['N', 'T'] as const) {
    it(`360 × 1000 (op(A)) at 106 bits, trans ${trans}: every row correctly rounded`, async () => {
      await requireRuntime();
      const p = 106, rows = 360, cols = 1000, set = rnsDeviceSet(p);
      const r = seededRandom(17);
      const [m, n] = trans === 'N' ? [rows, cols] : [cols, rows];
      const A = Float64Array.from({ length: m * n }, () => (2 * r.nextDouble() - 1) * 2 ** Math.floor(-8 * r.nextDouble()));
      const xv: RnsExactValue[] = Array.from({ length: cols }, () => ({ sign: r.nextDouble() < 0.5 ? 1 : 0, X: BigInt(Math.floor(r.nextDouble() * 2 ** 52)) << 50n | BigInt(Math.floor(r.nextDouble() * 2 ** 50)), exp: -102 - Math.floor(4 * r.nextDouble()) }));
      const dA = await rnsToDevice(A, set), x = await rnsToDevice(xv, set), y = await rnsToDevice(new Float64Array(rows), set);
      await rnsGpuGemv({ A: dA, m, n, x, y, trans });
      const got = await y.toExact();
      for (let i = 0; i < rows; i++) {
        const terms = Array.from({ length: cols }, (_, j) => mul(dyadic(exactOfDouble(A[trans === 'N' ? i + j * m : j + i * m]!)), dyadic(xv[j]!)));
        expect(same(dyadic(got[i]!), roundP(sum(terms), p))).toBe(true);
      }
      [dA, x, y].forEach((a) => a.destroy());
    });
  }
});

/**
 * The row sums' residue threads (MODPREC_GPU_RNS_ROW_THREADS = k: column chunks for ~2^k threads) change only how
 * the exact sums are split: at 106 bits, 40 × 1000, k = 10 and 14 make 2 and 17 chunks against the default's 63, and
 * every word is the default's, each row correctly rounded.
 */
describe('GEMV with other numbers of row-sum threads', () => {
  it('40 × 1000 at 106 bits: 2, 17 and 63 column chunks give the same words, correctly rounded', async () => {
    await requireRuntime();
    const p = 106, m = 40, n = 1000, set = rnsDeviceSet(p);
    const r = seededRandom(23);
    const A = Float64Array.from({ length: m * n }, () => (2 * r.nextDouble() - 1) * 2 ** Math.floor(-8 * r.nextDouble()));
    const xv = Float64Array.from({ length: n }, () => 2 * r.nextDouble() - 1);
    const dA = await rnsToDevice(A, set), x = await rnsToDevice(xv, set), y = await rnsToDevice(new Float64Array(m), set);
    const words: Uint32Array[] = [];
    for (const k of [undefined, '10', '14']) {
      if (k === undefined) delete process.env.MODPREC_GPU_RNS_ROW_THREADS;
      else process.env.MODPREC_GPU_RNS_ROW_THREADS = k;
      rereadTuningKnobs();
      try {
        await rnsGpuGemv({ A: dA, m, n, x, y });
      } finally {
        delete process.env.MODPREC_GPU_RNS_ROW_THREADS;
        rereadTuningKnobs();
      }
      words.push(await y.toWords());
    }
    expect(words[1]).toEqual(words[0]);
    expect(words[2]).toEqual(words[0]);
    const got = await y.toExact();
    for (let i = 0; i < m; i++) {
      const terms = Array.from({ length: n }, (_, j) => mul(dyadic(exactOfDouble(A[i + j * m]!)), dyadic(exactOfDouble(xv[j]!))));
      expect(same(dyadic(got[i]!), roundP(sum(terms), p))).toBe(true);
    }
    [dA, x, y].forEach((a) => a.destroy());
  });
});
