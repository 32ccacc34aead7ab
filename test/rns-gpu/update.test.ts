import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsGpuAxpy, rnsGpuScal, rnsGpuWaxpby } from '../../src/formats/rns/gpu/update-rns-webgpu.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { abs, add, dyadic, mul, roundP, same, withinScaled } from './rns-gpu-oracle.js';

const value = (p: number, spread: number): fc.Arbitrary<RnsExactValue> => fc.record({
  X: fc.oneof(fc.bigInt({ min: 0n, max: 1n << BigInt(p) }), fc.bigInt({ min: 0n, max: 1n << 53n }), fc.constantFrom(0n, 1n, 1n << BigInt(p))),
  exp: fc.integer({ min: -spread, max: spread }),
  sign: fc.constantFrom(0 as const, 1 as const),
});

describe('WAXPBY, AXPY, SCAL on device RNS arrays', () => {
  for (const [p, spread] of [[106, 60], [424, 3000]] as const) {
    it(`w = αx + βy is the exact value rounded once to ${p} bits (γ₂ bound when terms are dropped)`, async () => {
      await requireRuntime();
      const set = rnsDeviceSet(p);
      await fc.assert(fc.asyncProperty(value(p, spread), value(p, spread), fc.array(fc.tuple(value(p, spread), value(p, spread)), { minLength: 1, maxLength: 6 }), async (alpha, beta, pairs) => {
        const x = await rnsToDevice(pairs.map((q) => q[0]), set);
        const y = await rnsToDevice(pairs.map((q) => q[1]), set);
        const w = await rnsToDevice(pairs.map(() => 0), set);
        await rnsGpuWaxpby(alpha, x, beta, y, w);
        const got = await w.toExact();
        pairs.forEach(([xk, yk], k) => {
          const t1 = mul(dyadic(alpha), dyadic(xk)), t2 = mul(dyadic(beta), dyadic(yk));
          const exact = add(t1, t2);
          const g = dyadic(got[k]!);
          expect(got[k]!.X <= 1n << BigInt(p)).toBe(true);
          const err = add(g, { v: -exact.v, e: exact.e });
          expect(withinScaled(err, add(abs(t1), abs(t2)), 3n, p)).toBe(true);
          // Without dropped terms (spread below the grid's room) the result is the correctly rounded one.
          if (spread < p) expect(same(g, roundP(exact, p))).toBe(true);
          if (exact.v === 0n) {
            const negZero = t1.v === 0n && t2.v === 0n && alpha.sign !== xk.sign && beta.sign !== yk.sign;
            expect(got[k]!.sign).toBe(negZero ? 1 : 0);
          }
        });
        [x, y, w].forEach((a) => a.destroy());
      }), { numRuns: 12 });
    });
  }

  it('calls issued without waiting for each other each give their own result (scratch, scalars and uniforms are reused)', async () => {
    await requireRuntime();
    const p = 106, set = rnsDeviceSet(p);
    const call = fc.record({ alpha: value(p, 60), beta: value(p, 60), pairs: fc.array(fc.tuple(value(p, 60), value(p, 60)), { minLength: 1, maxLength: 6 }) });
    await fc.assert(fc.asyncProperty(fc.array(call, { minLength: 2, maxLength: 4 }), async (calls) => {
      const arrays = await Promise.all(calls.map(async (c) => [await rnsToDevice(c.pairs.map((q) => q[0]), set), await rnsToDevice(c.pairs.map((q) => q[1]), set), await rnsToDevice(c.pairs.map(() => 0), set)] as const));
      // Every call is issued before any is awaited: each writes its scalars and uniforms into the shared buffers.
      await Promise.all(calls.map((c, j) => rnsGpuWaxpby(c.alpha, arrays[j]![0], c.beta, arrays[j]![1], arrays[j]![2])));
      for (const [j, c] of calls.entries()) {
        const got = await arrays[j]![2].toExact();
        c.pairs.forEach(([xk, yk], k) => expect(same(dyadic(got[k]!), roundP(add(mul(dyadic(c.alpha), dyadic(xk)), mul(dyadic(c.beta), dyadic(yk))), p))).toBe(true));
      }
      arrays.flat().forEach((a) => a.destroy());
    }), { numRuns: 6 });
  });

  it('AXPY and SCAL overwrite in place, rounded once', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(212);
    const x = await rnsToDevice([1 / 3, -2, 0.1], set);
    const y = await rnsToDevice([1, 2, -0.1], set);
    await rnsGpuAxpy(3, x, y);
    const got = await y.toExact();
    const want = [[1 / 3, 1], [-2, 2], [0.1, -0.1]].map(([a, b]) => roundP(add(mul(dyadic(fromD(3)), dyadic(fromD(a!))), dyadic(fromD(b!))), 212));
    got.forEach((g, k) => expect(same(dyadic(g), want[k]!)).toBe(true));
    await rnsGpuScal(-0.5, x);
    const xs = await x.toExact();
    [1 / 3, -2, 0.1].forEach((a, k) => expect(same(dyadic(xs[k]!), mul(dyadic(fromD(-0.5)), dyadic(fromD(a))))).toBe(true));
  });

  it('refuses non-finite coefficients and mismatched operands before writing', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const x = await rnsToDevice([1, 2], set), y = await rnsToDevice([3], set), w = await rnsToDevice([5, 6], set);
    await expect(rnsGpuWaxpby(NaN, x, 1, w, w)).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'alpha' });
    await expect(rnsGpuWaxpby(1, x, Infinity, w, w)).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'beta' });
    await expect(rnsGpuWaxpby(1, x, 1, y, w)).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', parameter: 'y' });
    const other = await rnsToDevice([1, 2], rnsDeviceSet(212));
    await expect(rnsGpuWaxpby(1, x, 1, other, w)).rejects.toMatchObject({ code: 'INVALID_FORMAT', parameter: 'y' });
    expect((await w.toExact()).map((v) => Number(v.X) * 2 ** v.exp)).toEqual([5, 6]);
  });
});

function fromD(d: number): RnsExactValue {
  // through the upload path's own exact conversion
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, d);
  const hi = dv.getUint32(0), lo = dv.getUint32(4);
  const field = (hi >>> 20) & 0x7ff;
  let X = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (field !== 0) X |= 1n << 52n;
  return { sign: (hi >>> 31) as 0 | 1, X, exp: field === 0 ? -1074 : field - 1075 };
}
