import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { sqrtRounded } from '../../src/formats/rns/gpu/host-exact.js';
import { rnsGpuAsum } from '../../kernels/asum/asum-rns-webgpu.js';
import { rnsGpuNrm2 } from '../../kernels/nrm2/nrm2-rns-webgpu.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { abs, add, dyadic, mul, roundP, same, sum, withinScaled, type Dyadic } from './rns-gpu-oracle.js';

const value = (p: number, spread: number): fc.Arbitrary<RnsExactValue> => fc.record({
  X: fc.oneof(fc.bigInt({ min: 0n, max: 1n << BigInt(p) }), fc.bigInt({ min: 0n, max: 1n << 53n }), fc.constantFrom(0n, 1n, 1n << BigInt(p))),
  exp: fc.integer({ min: -spread, max: spread }),
  sign: fc.constantFrom(0 as const, 1 as const),
});

/** a·2^k compared with b exactly: sign of a − b as −1, 0, 1. */
function compare(a: Dyadic, b: Dyadic): number {
  const d = add(a, { v: -b.v, e: b.e }).v;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

describe('ASUM on device RNS arrays', () => {
  for (const [p, spread] of [[106, 40], [424, 3000]] as const) {
    it(`at ${p} bits: within 3·2^-p·Σ|x| (≤ γ_{n−1}), the exact sum correctly rounded when no term is dropped`, async () => {
      await requireRuntime();
      const set = rnsDeviceSet(p);
      await fc.assert(fc.asyncProperty(fc.array(value(p, spread), { minLength: 0, maxLength: 40 }), async (xs) => {
        const x = await rnsToDevice(xs, set);
        const s = await rnsGpuAsum(x);
        const [got] = await s.toExact();
        const exact = sum(xs.map((v) => abs(dyadic(v))));
        const g = dyadic(got!);
        expect(got!.sign).toBe(0);
        expect(got!.X <= 1n << BigInt(p)).toBe(true);
        expect(withinScaled(add(g, { v: -exact.v, e: exact.e }), exact, 3n, p)).toBe(true);
        if (spread < p / 2) expect(same(g, roundP(exact, p))).toBe(true);
        if (xs.length <= 1) expect(same(g, exact)).toBe(true); // one term: no rounding (γ_0 = 0)
        [x, s].forEach((a) => a.destroy());
      }), { numRuns: 10 });
    });
  }

  it('empty, all zeros (of either sign) and one element', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const cases: [number[], number][] = [[[], 0], [[-0, 0, -0], 0], [[-3.5], 3.5], [[1e300, -1e300, 1e-300], 2e300 + 1e-300]];
    for (const [xs, want] of cases) {
      const s = await rnsGpuAsum(await rnsToDevice(xs, set));
      const [v] = await s.toExact();
      expect(v!.sign).toBe(0);
      if (want !== 2e300 + 1e-300) expect(Number(v!.X) * 2 ** v!.exp).toBe(want);
    }
  });
});

describe('NRM2 on device RNS arrays', () => {
  it('sqrtRounded is the correctly rounded root (checked by squaring its neighbours)', () => {
    fc.assert(fc.property(fc.bigInt({ min: 1n, max: 1n << 300n }), fc.integer({ min: -500, max: 500 }), fc.constantFrom(53, 106, 212), (X, exp, p) => {
      const r = sqrtRounded({ sign: 0, X, exp }, p);
      expect(r.X <= 1n << BigInt(p)).toBe(true);
      // The root r and its neighbours r ± half an ulp: (r − h)² ≤ v ≤ (r + h)².
      const ulpExp = r.exp - 1;
      const lo: Dyadic = { v: 2n * r.X - 1n, e: ulpExp }, hi: Dyadic = { v: 2n * r.X + 1n, e: ulpExp };
      const v: Dyadic = { v: X, e: exp };
      expect(compare(mul(lo, lo), v) <= 0).toBe(true);
      expect(compare(mul(hi, hi), v) >= 0).toBe(true);
    }), { numRuns: 300 });
  });

  for (const [p, spread] of [[106, 40], [424, 3000]] as const) {
    it(`at ${p} bits: ‖x‖ within 3·2^-p·‖x‖ (inside the CPU's (n/2 + 1)·u), never negative`, async () => {
      await requireRuntime();
      const set = rnsDeviceSet(p);
      await fc.assert(fc.asyncProperty(fc.array(value(p, spread), { minLength: 0, maxLength: 30 }), async (xs) => {
        const x = await rnsToDevice(xs, set);
        const r = await rnsGpuNrm2(x);
        const [got] = await r.toExact();
        const S = sum(xs.map((v) => mul(dyadic(v), dyadic(v))));
        const g = dyadic(got!);
        expect(got!.sign).toBe(0);
        // |ĝ − ‖x‖| ≤ c·2^-p‖x‖ ⇔ ĝ ∈ [(1 − c2^-p)‖x‖, (1 + c2^-p)‖x‖] ⇔ squares compared with S exactly.
        const c = 3n, P = 1n << BigInt(p);
        const gs = mul(g, g);
        const scaled = (k: bigint): Dyadic => mul(S, { v: k * k, e: -2 * p }); // S·(k/2^p)²
        expect(compare(gs, scaled(P + c)) <= 0).toBe(true);
        expect(compare(gs, scaled(P - c)) >= 0).toBe(true);
        if (spread < p / 2) {
          const Sp = roundP(S, p); // the exact sum rounded once, then its root rounded once
          expect(same(g, dyadic(sqrtRounded({ sign: 0, X: Sp.v, exp: Sp.e }, p)))).toBe(true);
        }
        [x, r].forEach((a) => a.destroy());
      }), { numRuns: 8 });
    });
  }

  it('3-4-5 at any scale, and the empty vector', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    for (const k of [0, -1000, 1000, -1070]) {
      const [v] = await (await rnsGpuNrm2(await rnsToDevice([3 * 2 ** k, -4 * 2 ** k], set))).toExact();
      expect(same(dyadic(v!), { v: 5n, e: k })).toBe(true);
    }
    const [z] = await (await rnsGpuNrm2(await rnsToDevice([], set))).toExact();
    expect(z!.X).toBe(0n);
  });
});
