import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { reciprocalSplit } from '../../src/formats/rns/gpu/host-exact.js';
import { rnsGpuTrsv } from '../../kernels/trsv/trsv-rns-webgpu.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { abs, add, dyadic, mul, sum, type Dyadic } from './rns-gpu-oracle.js';

const value = (p: number, spread: number): fc.Arbitrary<RnsExactValue> => fc.record({
  X: fc.oneof(fc.bigInt({ min: 1n, max: 1n << BigInt(p) }), fc.bigInt({ min: 1n, max: 1n << 53n }), fc.constantFrom(0n, 1n, 1n << BigInt(p))),
  exp: fc.integer({ min: -spread, max: spread }),
  sign: fc.constantFrom(0 as const, 1 as const),
});

/** |a| ≤ (num/den)·2^-p·|b|, exactly. */
function within(a: Dyadic, b: Dyadic, num: bigint, den: bigint, p: number): boolean {
  const lhs = abs({ v: a.v * den, e: a.e + p });
  const rhs = abs({ v: b.v * num, e: b.e });
  return add(rhs, { v: -lhs.v, e: lhs.e }).v >= 0n;
}

describe('TRSV on device RNS arrays', () => {
  it('reciprocalSplit: h + l within 5·2^-2p of ±1/v', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 1n << 212n }), fc.integer({ min: -300, max: 300 }), fc.boolean(), fc.constantFrom(53, 106, 212), (X, exp, neg, p) => {
      const [h, l] = reciprocalSplit({ sign: 0, X, exp }, neg, p);
      expect(h.X <= 1n << BigInt(p) && l.X <= 1n << BigInt(p)).toBe(true);
      expect(h.sign).toBe(neg ? 1 : 0);
      // (h + l)·v − (±1): relative error of the reciprocal.
      const err = add(mul(add(dyadic(h), dyadic(l)), { v: X, e: exp }), { v: neg ? 1n : -1n, e: 0 });
      expect(within(err, { v: 1n, e: 0 }, 5n, 1n, 2 * p)).toBe(true);
    }), { numRuns: 300 });
  });

  for (const [p, spread] of [[106, 20], [212, 400]] as const) {
    it(`at ${p} bits, every uplo/trans/diag: |b − T·x̂|_i ≤ 1.41·(n + 1)·2^-p·(|T||x̂|)_i (⇒ γ_{n+1}); nothing outside the triangle read`, async () => {
      await requireRuntime();
      const set = rnsDeviceSet(p);
      await fc.assert(fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 2 }), fc.constantFrom('U', 'L'), fc.constantFrom('N', 'T'), fc.constantFrom('N', 'U'),
        fc.array(value(p, spread), { minLength: 64, maxLength: 64 }), fc.array(value(p, spread), { minLength: 6, maxLength: 6 }),
        async (n, pad, uplo, trans, diag, pool, bs) => {
          const lda = n + pad;
          const Avals = pool.slice(0, lda * n);
          while (Avals.length < lda * n) Avals.push({ sign: 0, X: 3n, exp: 0 });
          for (let i = 0; i < n; i++) if (Avals[i + i * lda]!.X === 0n) Avals[i + i * lda] = { sign: 1, X: 7n, exp: -3 };
          const b = bs.slice(0, n);
          const A = await rnsToDevice(Avals, set), x = await rnsToDevice(b, set);
          await rnsGpuTrsv({ A, n, lda, x, uplo, trans, diag });
          const xs = (await x.toExact()).map(dyadic);
          const upperT = (uplo === 'U') === (trans === 'N');
          const t = (i: number, j: number): Dyadic => {
            if (i === j && diag === 'U') return { v: 1n, e: 0 };
            if (upperT ? j < i : j > i) return { v: 0n, e: 0 };
            return dyadic(trans === 'N' ? Avals[i + j * lda]! : Avals[j + i * lda]!);
          };
          for (let i = 0; i < n; i++) {
            const terms = Array.from({ length: n }, (_, j) => mul(t(i, j), xs[j]!));
            const r = add(dyadic(b[i]!), { v: -sum(terms).v, e: sum(terms).e });
            expect(within(r, sum(terms.map(abs)), 141n * BigInt(n + 1), 100n, p)).toBe(true);
          }
          [A, x].forEach((a) => a.destroy());
        }), { numRuns: 12 });
    });
  }

  it('solves a 2×2 upper system exactly, and a larger lower one', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const U = await rnsToDevice([2, 0, 1, 4], set), x = await rnsToDevice([4, 8], set);
    await rnsGpuTrsv({ A: U, n: 2, x });
    expect((await x.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp)).toEqual([1, 2]);
    // L = 1 on and below the diagonal: x = (1, 0, 0, …) for b = (1, 1, …).
    const n = 20;
    const L = await rnsToDevice(Array.from({ length: n * n }, (_, k) => (k % n >= Math.floor(k / n) ? 1 : 99)), set);
    const y = await rnsToDevice(new Array(n).fill(1), set);
    await rnsGpuTrsv({ A: L, n, x: y, uplo: 'L' });
    expect((await y.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp)).toEqual([1, ...new Array(n - 1).fill(0)]);
  });

  it('signed zeros as on the CPU (row sums from +0, then IEEE division): +0/−2 = −0, (+0 + −0)/2 = +0, (1 − 1)/−1 = −0', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const D = await rnsToDevice([-2, 0, 0, 2], set), x = await rnsToDevice([0, -0], set);
    await rnsGpuTrsv({ A: D, n: 2, x });
    expect((await x.toExact()).map((v) => v.sign)).toEqual([1, 0]);
    const L = await rnsToDevice([1, 1, 0, -1], set), y = await rnsToDevice([1, 1], set);
    await rnsGpuTrsv({ A: L, n: 2, x: y, uplo: 'L' });
    expect((await y.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp)).toEqual([1, -0]);
  });

  it('refuses a zero pivot (naming A[i, i]) and bad arguments before writing x', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const A = await rnsToDevice([2, 0, 1, 0], set), x = await rnsToDevice([4, 8], set);
    await expect(rnsGpuTrsv({ A, n: 2, x })).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'A[1, 1]' });
    await expect(rnsGpuTrsv({ A, n: 2, x, uplo: 'X' as 'U' })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'uplo' });
    await expect(rnsGpuTrsv({ A, n: 2, x, trans: 'C' as 'N' })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'trans' });
    await expect(rnsGpuTrsv({ A, n: 2, x, diag: 'Z' as 'N' })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'diag' });
    await expect(rnsGpuTrsv({ A, n: 3, x })).rejects.toMatchObject({ code: 'INVALID_STORAGE', parameter: 'A' });
    await expect(rnsGpuTrsv({ A, n: 1, x })).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', parameter: 'x' });
    await expect(rnsGpuTrsv({ A, n: 2, lda: 1, x })).rejects.toMatchObject({ code: 'INVALID_STRIDE', parameter: 'lda' });
    expect((await x.toExact()).map((v) => Number(v.X) * 2 ** v.exp)).toEqual([4, 8]);
    await rnsGpuTrsv({ A, n: 2, x, diag: 'U' }); // unit diagonal: the zero is not read
    expect((await x.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp)).toEqual([-4, 8]);
  });
});
