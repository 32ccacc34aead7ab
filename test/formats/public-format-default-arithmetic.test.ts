/**
 * A range over a registered format computes in that format's arithmetic by default. registerFormat's own example
 * registers 'my-f32' as fp32 storage with fp64 arithmetic, but the layout factories, vector, matrix and the solvers took
 * the default arithmetic by the storage's name ('f32'): vector([0.1, 0.2, 0.3], { storage: 'my-f32' }) computed in fp32
 * (dot 0.14000000059604645 — fp32's sum — not fp64's 0.14000000566244125 of the same stored values), and a user format
 * whose storage is named otherwise than the format fell back to fp64 instead of its own arithmetic.
 */
import { describe, expect, it } from 'vitest';
import {
  asArithmetic, asStorage, cg, dot, laplacianEll, matrix, range, registerFormat, rowMajor, toArray, typedArrayStorage, vector,
} from '../../src/index.js';
import { exactDot, roundRationalToDouble } from '../../src/testing/index.js';
import { r16, r16Round } from './user-formats.js';

describe("a format's own arithmetic is the default", () => {
  it("fp32 storage registered with fp64 arithmetic computes in fp64, by name and by object", () => {
    const mine = registerFormat({ name: 'user-f32-in-f64', storage: asStorage('f32'), arithmetic: asArithmetic('f64') });
    for (const storage of ['user-f32-in-f64', mine]) {
      const x = vector([0.1, 0.2, 0.3], { storage });
      expect(x.accessor.storage.name).toBe('f32');
      expect(x.accessor.arithmetic.name).toBe('f64');
      const xs = [...toArray(x)];
      // Three exact fp32 squares summed in fp64: the correctly rounded exact sum here, which fp32 sums miss.
      expect(dot(x, x)).toBe(roundRationalToDouble(exactDot(xs, xs)));
      expect(matrix(2, 2, () => 1, { storage }).accessor.arithmetic.name).toBe('f64');
      expect(range(rowMajor<1>({ size: [2], storage })).accessor.arithmetic.name).toBe('f64');
    }
    // The built-in's own default is unchanged.
    expect(vector([1], { storage: 'f32' }).accessor.arithmetic.name).toBe('f32');
  });

  it('a user format whose storage has a name of its own computes in its registered arithmetic, in ranges and solvers', () => {
    const storage = typedArrayStorage<Float64Array>({
      name: 'user-plain-f64-codec', array: Float64Array, significandBits: 53, unitRoundoff: 2 ** -53, isInteger: false, maxValue: Number.MAX_VALUE,
    });
    const mine = registerFormat({ name: 'user-f64-in-r16', storage, arithmetic: r16.arithmetic! });
    const x = vector([1 + 2 ** -20, 3], { storage: mine });
    expect(x.accessor.arithmetic.name).toBe('user-r16');
    // In the 16-bit arithmetic each read rounds: 1 + 2^-20 → 1, so x·x = 1 + 9 exactly.
    expect(dot(x, x)).toBe(r16Round(r16Round((1 + 2 ** -20) ** 2) + 9));
    // CG on doubles to 1e-9: fp64 arithmetic reaches it, the 16-bit arithmetic (u = 2^-16) cannot — the default is the latter.
    const A = laplacianEll([8]), b = Float64Array.from({ length: 8 }, (_, i) => i + 1);
    expect(cg(A, b, { storage: 'user-f64-in-r16', arithmetic: 'f64', tolerance: 1e-9 }).status).toBe('converged');
    const r = cg(A, b, { storage: 'user-f64-in-r16', tolerance: 1e-9 });
    expect(r.status).not.toBe('converged');
    expect(r.trueResidualNorm).toBeGreaterThan(1e-9);
  });
});
