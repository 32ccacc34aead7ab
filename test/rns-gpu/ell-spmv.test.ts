import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ELL_PADDING, ellMatrix } from '../../src/sparse/ell-matrix.js';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { exactOfDouble, rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsEllToDevice, rnsGpuEllSpmv } from '../../kernels/ell-spmv/ell-spmv-rns-webgpu.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { abs, add, dyadic, mul, roundP, same, sum, withinScaled, type Dyadic } from './rns-gpu-oracle.js';

const double = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 5e-324, -2.5e-310, 1, 0.1), fc.double({ min: -8, max: 8, noNaN: true }));
const value = (p: number): fc.Arbitrary<RnsExactValue> => fc.record({
  X: fc.oneof(fc.bigInt({ min: 0n, max: 1n << BigInt(p) }), fc.constantFrom(0n, 1n)),
  exp: fc.integer({ min: -200, max: 200 }),
  sign: fc.constantFrom(0 as const, 1 as const),
});

describe('ELL SpMV on device RNS vectors', () => {
  for (const kind of ['f64', 'rns'] as const) {
    it(`${kind} matrix: y_i within 4·2^-p(Σ|α·a·x| + |β·y|) of the exact value, correctly rounded for α = 1`, async () => {
      await requireRuntime();
      const p = 212;
      const set = rnsDeviceSet(p);
      await fc.assert(fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1 }),
        fc.array(fc.tuple(double, fc.integer({ min: -1, max: 4 })), { minLength: 40, maxLength: 40 }), fc.array(value(p), { minLength: 10, maxLength: 10 }),
        fc.oneof(fc.constant(1), double), fc.oneof(fc.constant(0), double),
        async (rows, cols, width, pad, slots, vec, alpha, beta) => {
          const stride = rows + pad;
          const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
          const vals = new Float64Array(stride * width);
          for (let i = 0; i < rows; i++) {
            let k = 0;
            for (let s = 0; s < width; s++) {
              const [v, c] = slots[(i * 7 + s) % 40]!;
              if (c < 0 || c >= cols) continue; // padding, last in the row
              colIndex[i + k * stride] = c;
              vals[i + k * stride] = v;
              k++;
            }
          }
          const xv = vec.slice(0, cols), yv = vec.slice(5, 5 + rows);
          const x = await rnsToDevice(xv, set), y = await rnsToDevice(yv, set);
          const valuesOnDevice = kind === 'f64' ? vals : await rnsToDevice(vals, set);
          const A = await rnsEllToDevice({ rows, cols, width, stride, colIndex }, valuesOnDevice, x);
          await rnsGpuEllSpmv({ A, x, y, alpha, beta });
          const got = await y.toExact();
          for (let i = 0; i < rows; i++) {
            const terms: Dyadic[] = [];
            for (let k = 0; k < width; k++) {
              const c = colIndex[i + k * stride]!;
              if (c < 0) continue;
              terms.push(mul(mul(dyadic(exactOfDouble(alpha)), dyadic(exactOfDouble(vals[i + k * stride]!))), dyadic(xv[c]!)));
            }
            if (beta !== 0) terms.push(mul(dyadic(exactOfDouble(beta)), dyadic(yv[i]!)));
            const exact = sum(terms);
            const g = dyadic(got[i]!);
            expect(withinScaled(add(g, { v: -exact.v, e: exact.e }), sum(terms.map(abs)), 4n, p)).toBe(true);
            if (alpha === 1) expect(same(g, roundP(exact, p))).toBe(true);
          }
        }), { numRuns: 10 });
    });
  }

  it('refuses a non-finite matrix value before uploading, and bad vector lengths', async () => {
    await requireRuntime();
    const set = rnsDeviceSet(106);
    const x = await rnsToDevice([1, 2], set), y = await rnsToDevice([0, 0], set);
    const structure = { rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(0, 1) };
    await expect(rnsEllToDevice(structure, Float64Array.of(1, NaN), x)).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'values[1]' });
    // Regression: a values length other than stride·width was INVALID_SIZE; ellMatrix says DIMENSION_MISMATCH naming
    // values.length for the same structure and values, and so does the upload now (fp64 values and a device array).
    for (const values of [Float64Array.of(1, 2, 3), Float64Array.of(1), await rnsToDevice([1, 2, 3], set)]) {
      await expect(rnsEllToDevice(structure, values, x)).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', parameter: 'values.length' });
      expect(() => ellMatrix({ ...structure, values: Float64Array.from({ length: values.length }, () => 1) })).toThrow(expect.objectContaining({ code: 'DIMENSION_MISMATCH', parameter: 'values.length' }));
    }
    const A = await rnsEllToDevice(structure, Float64Array.of(1, 2), x);
    await expect(rnsGpuEllSpmv({ A, x: y, y: await rnsToDevice([0], set) })).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', parameter: 'y' });
    await rnsGpuEllSpmv({ A, x, y });
    expect((await y.toExact()).map((v) => Number(v.X) * 2 ** v.exp)).toEqual([1, 4]);
  });
});
