import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { rnsToDevice, type RnsDeviceArray, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsGpuDot } from '../../kernels/dot/dot-rns-webgpu.js';
import { rnsGpuGemv } from '../../kernels/gemv/gemv-rns-webgpu.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { abs, add, dyadic, mul, roundP, same, sum, withinScaled, type Dyadic } from './rns-gpu-oracle.js';

const value = (p: number, spread: number): fc.Arbitrary<RnsExactValue> => fc.record({
  X: fc.oneof(fc.bigInt({ min: 0n, max: 1n << BigInt(p) }), fc.bigInt({ min: 0n, max: 1n << 53n }), fc.constantFrom(0n, 1n, 1n << BigInt(p))),
  exp: fc.integer({ min: -spread, max: spread }),
  sign: fc.constantFrom(0 as const, 1 as const),
});

// The checks below use multiples of 2^-p; the CPU's γ_k (u = 4/√M of the CPU set, > 1.41·2^-p) is larger:
// 3·2^-p ≤ γ_2 and 4·2^-p ≤ γ_3, so every check implies the CPU's a-priori bound.
describe('DOT and GEMV on device RNS arrays', () => {
  it('the CPU unit roundoff exceeds 1.41·2^-p (so the 2^-p checks imply the γ bounds)', () => {
    for (const p of [106, 212, 424]) expect(rnsModuliSet(p).unitRoundoffLog2).toBeGreaterThan(-p + 0.49);
  });

  for (const [p, spread] of [[106, 40], [212, 2000]] as const) {
    it(`DOT at ${p} bits: correctly rounded when no term is dropped, within 3·2^-p·Σ|x·y| always`, async () => {
      await requireRuntime();
      const set = rnsDeviceSet(p);
      await fc.assert(fc.asyncProperty(fc.array(fc.tuple(value(p, spread), value(p, spread)), { minLength: 0, maxLength: 40 }), async (pairs) => {
        const x = await rnsToDevice(pairs.map((q) => q[0]), set), y = await rnsToDevice(pairs.map((q) => q[1]), set);
        const s = await rnsGpuDot(x, y);
        const [got] = await s.toExact();
        const terms = pairs.map(([a, b]) => mul(dyadic(a), dyadic(b)));
        const exact = sum(terms);
        const g = dyadic(got!);
        expect(got!.X <= 1n << BigInt(p)).toBe(true);
        expect(withinScaled(add(g, { v: -exact.v, e: exact.e }), sum(terms.map(abs)), 3n, p)).toBe(true);
        if (spread < p / 2) expect(same(g, roundP(exact, p))).toBe(true);
        [x, y, s].forEach((a) => a.destroy());
      }), { numRuns: 10 });
    });
  }

  for (const trans of ['N', 'T'] as const) {
    it(`GEMV ${trans}: each y_i within 4·2^-p·(Σ|α·a·x| + |β·y|) of the exact value, exact rounding for α = 1`, async () => {
      await requireRuntime();
      const p = 106;
      const set = rnsDeviceSet(p);
      await fc.assert(fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 2 }), fc.array(value(p, 30), { minLength: 120, maxLength: 120 }),
        value(p, 30), fc.oneof(value(p, 30), fc.constant({ sign: 0 as const, X: 0n, exp: 0 })), fc.boolean(),
        async (m, n, pad, pool, alpha0, beta, alphaOne) => {
          const alpha: RnsExactValue = alphaOne ? { sign: 0, X: 1n, exp: 0 } : alpha0;
          const lda = m + pad;
          const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
          const Avals = pool.slice(0, lda * n);
          while (Avals.length < lda * n) Avals.push({ sign: 0, X: 0n, exp: 0 });
          const xv = pool.slice(60, 60 + cols), yv = pool.slice(100, 100 + rows);
          while (xv.length < cols) xv.push({ sign: 1, X: 3n, exp: -2 });
          while (yv.length < rows) yv.push({ sign: 0, X: 5n, exp: 1 });
          const A = await rnsToDevice(Avals.length ? Avals : [0], set);
          const x = await rnsToDevice(xv, set), y = await rnsToDevice(yv, set);
          await rnsGpuGemv({ A, m, n, lda, trans, x, y, alpha, beta });
          const got = await y.toExact();
          for (let i = 0; i < rows; i++) {
            const terms: Dyadic[] = [];
            for (let j = 0; j < cols; j++) {
              const a = trans === 'N' ? Avals[i + j * lda]! : Avals[j + i * lda]!;
              terms.push(mul(mul(dyadic(alpha), dyadic(a)), dyadic(xv[j]!)));
            }
            if (beta.X !== 0n) terms.push(mul(dyadic(beta), dyadic(yv[i]!)));
            const exact = sum(terms);
            const g = dyadic(got[i]!);
            expect(withinScaled(add(g, { v: -exact.v, e: exact.e }), sum(terms.map(abs)), 4n, p)).toBe(true);
            if (alphaOne) expect(same(g, roundP(exact, p))).toBe(true);
          }
          [A, x, y].forEach((a) => a.destroy());
        }), { numRuns: 10 });
    });
  }

  it('GEMV calls issued without waiting for each other give the words of the same calls run one at a time', async () => {
    await requireRuntime();
    const p = 106, set = rnsDeviceSet(p);
    // Shapes differ from call to call, so a later call may grow the shared scratch buffers (α·x, scalars, row sums)
    // while an earlier one has not yet submitted.
    const call = fc.record({ m: fc.integer({ min: 1, max: 6 }), n: fc.integer({ min: 1, max: 6 }), alpha: value(p, 30), beta: value(p, 30), pool: fc.array(value(p, 30), { minLength: 48, maxLength: 48 }) });
    await fc.assert(fc.asyncProperty(fc.array(call, { minLength: 2, maxLength: 3 }), async (calls) => {
      const operands = (c: (typeof calls)[number]): Promise<RnsDeviceArray[]> => Promise.all([rnsToDevice(c.pool.slice(0, c.m * c.n), set), rnsToDevice(c.pool.slice(36, 36 + c.n), set), rnsToDevice(c.pool.slice(42, 42 + c.m), set)]);
      const run = (c: (typeof calls)[number], [A, x, y]: RnsDeviceArray[]): Promise<void> => rnsGpuGemv({ A: A!, m: c.m, n: c.n, x: x!, y: y!, alpha: c.alpha, beta: c.beta });
      const alone: Uint32Array[] = [];
      for (const c of calls) {
        const arrays = await operands(c);
        await run(c, arrays);
        alone.push(await arrays[2]!.toWords());
        arrays.forEach((a) => a.destroy());
      }
      const together = await Promise.all(calls.map(operands));
      await Promise.all(calls.map((c, j) => run(c, together[j]!)));
      for (const [j, arrays] of together.entries()) expect(await arrays[2]!.toWords()).toEqual(alone[j]);
      together.flat().forEach((a) => a.destroy());
    }), { numRuns: 5 });
  });

  it('refuses bad shapes and coefficients before writing y', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const A = await rnsToDevice([1, 2, 3, 4], set), x = await rnsToDevice([1, 1], set), y = await rnsToDevice([7, 8], set);
    await expect(rnsGpuGemv({ A, m: 2, n: 2, x, y, alpha: NaN })).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'alpha' });
    await expect(rnsGpuGemv({ A, m: 2, n: 2, x, y, beta: -Infinity })).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'beta' });
    await expect(rnsGpuGemv({ A, m: 2, n: 3, x, y })).rejects.toMatchObject({ code: 'INVALID_STORAGE', parameter: 'A' });
    await expect(rnsGpuGemv({ A, m: 1, n: 2, x, y })).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', parameter: 'y' });
    await expect(rnsGpuGemv({ A, m: 2, n: 2, lda: 1, x, y })).rejects.toMatchObject({ code: 'INVALID_STRIDE', parameter: 'lda' });
    await expect(rnsGpuGemv({ A, m: 2, n: 2, x, y, trans: 'C' as 'N' })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'trans' });
    await expect(rnsGpuDot(x, await rnsToDevice([1], set))).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', parameter: 'y' });
    expect((await y.toExact()).map((v) => Number(v.X) * 2 ** v.exp)).toEqual([7, 8]);
  });
});

describe('at 1696 bits', () => {
  it('DOT of full-precision values is the exact sum rounded once; GEMV T within its bound', async () => {
    await requireRuntime();
    const p = 1696;
    const set = rnsDeviceSet(p);
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(value(p, 200), value(p, 200)), { minLength: 1, maxLength: 12 }), async (pairs) => {
      const x = await rnsToDevice(pairs.map((q) => q[0]), set), y = await rnsToDevice(pairs.map((q) => q[1]), set);
      const s = await rnsGpuDot(x, y);
      const [got] = await s.toExact();
      const exact = sum(pairs.map(([a, b]) => mul(dyadic(a), dyadic(b))));
      expect(same(dyadic(got!), roundP(exact, p))).toBe(true);
      // GEMV T with A = x as a column (n × 1), so y_0 = α·Σ x_j·y_j + β·0.
      const out = await rnsToDevice([0], set);
      await rnsGpuGemv({ A: x, m: pairs.length, n: 1, trans: 'T', x: y, y: out, alpha: 0.75 });
      const [g2] = await out.toExact();
      const terms = pairs.map(([a, b]) => mul(mul(dyadic({ sign: 0, X: 3n, exp: -2 }), dyadic(a)), dyadic(b)));
      const e2 = sum(terms);
      expect(withinScaled(add(dyadic(g2!), { v: -e2.v, e: e2.e }), sum(terms.map(abs)), 4n, p)).toBe(true);
      [x, y, s, out].forEach((a) => a.destroy());
    }), { numRuns: 4 });
  });
});
