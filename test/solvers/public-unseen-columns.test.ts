/**
 * A·x never reads x's entries in a column of A without entries (ELL SpMV and function operators skip them), so on such
 * a singular A the solvers' iterates could grow there to ±∞ or NaN while the true residual stayed finite: BiCGStab on
 * a 3×3 ELL matrix with an empty row and column returned x = (−12.6, NaN, −4.6), status 'iteration-limit', a finite
 * trueResidualNorm (the dense operator of the same matrix, where 0·NaN shows, broke down 'non-finite'); GMRES with fp16
 * vectors returned an x holding −∞. The true residual of a non-finite x is now +∞: such an x is never converged, and a
 * solve that stops short returns its best finite iterate.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bicgstab, cg, csrMatrix, csrToDense, csrToEll, formats, gmres, toArray, type CsrMatrix, type OperatorLike, type SolverResult,
} from '../../src/index.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['bicgstab', bicgstab], ['gmres', gmres]];

/** v·2^1074 as an exact BigInt (every double is an integer multiple of 2^-1074). */
function exact(v: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & (2n ** 52n - 1n);
  const magnitude = exponent === 0 ? fraction : (fraction | 2n ** 52n) << BigInt(exponent - 1);
  return bits >> 63n ? -magnitude : magnitude;
}

/** n·2^-shift rounded to a double (to within one ulp: the top 64 bits, then two exact power-of-two steps). */
function toDouble(n: bigint, shift: number): number {
  const negative = n < 0n;
  const m = negative ? -n : n;
  const drop = Math.max(0, m.toString(2).length - 64);
  const e = drop - shift, h = Math.trunc(e / 2);
  const v = Number(m >> BigInt(drop)) * 2 ** h * 2 ** (e - h);
  return negative ? -v : v;
}

/** ‖b − A·x‖₂/‖b‖₂ from the exact residual (BigInt: A and x, b scaled by 2^1074 each), rounded once per entry. */
function exactRelativeResidual(A: CsrMatrix, x: ArrayLike<number>, b: ArrayLike<number>): number {
  const r: number[] = [];
  for (let i = 0; i < A.rows; i++) {
    let acc = exact(b[i]!) * 2n ** 1074n;
    for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) acc -= exact(A.values[t]!) * exact(x[A.colIndex[t]!]!);
    r.push(toDouble(acc, 2148));
  }
  return Math.hypot(...r) / Math.hypot(...Array.from(b));
}

describe('x in columns A never reads', () => {
  it('the reported case: BiCGStab on the ELL matrix returns a finite x, as on the dense one', () => {
    const A = csrMatrix({ rows: 3, cols: 3, rowPtr: Int32Array.of(0, 0, 1, 2), colIndex: Int32Array.of(0, 2), values: Float64Array.of(-0.06958794360980392, 0.07778860768303275) });
    for (const op of [csrToEll(A), csrToDense(A)]) {
      const r = bicgstab(op, [-1, 2, -1], { tolerance: 1e-14, maxIterations: 200 });
      expect(r.status).not.toBe('converged');
      const x = toArray(r.x);
      expect(Array.from(x).every(Number.isFinite)).toBe(true);
      expect(r.trueResidualNorm).toBeCloseTo(exactRelativeResidual(A, x, [-1, 2, -1]), 12);
    }
  });

  it.each(solvers)('%s: random matrices with an empty column: x finite, its residual the one reported, never NaN', (_, solve) => {
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 7 }), fc.nat(), fc.array(fc.double({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), { minLength: 49, maxLength: 49 }),
      fc.array(fc.integer({ min: -8, max: 8 }).map((k) => k / 8), { minLength: 7, maxLength: 7 }), fc.constantFrom(formats.f64, formats.f16),
      (n, c, entries, bs, storage) => {
        const empty = c % n;
        const rowPtr = new Int32Array(n + 1), cols: number[] = [], values: number[] = [];
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const v = entries[i * 7 + j]!;
            if (j !== empty && Math.abs(v) > 0.4) { cols.push(j); values.push(v); }
          }
          rowPtr[i + 1] = cols.length;
        }
        const A = csrMatrix({ rows: n, cols: n, rowPtr, colIndex: Int32Array.from(cols), values: Float64Array.from(values) });
        const b = bs.slice(0, n);
        fc.pre(b.some((v) => v !== 0));
        const r = solve(csrToEll(A), b, { storage, tolerance: 1e-12, maxIterations: 300 });
        const x = toArray(r.x);
        expect(Array.from(x).every(Number.isFinite)).toBe(true);
        expect([r.residualNorm, r.trueResidualNorm, ...r.history].some(Number.isNaN)).toBe(false);
        const exact = exactRelativeResidual(A, x, b);
        // fp64 residual of a finite x: within a few n·u·(‖b‖ + ‖A‖·‖x‖)/‖b‖ of the exact one
        const xMax = Math.max(...Array.from(x, Math.abs)), bNorm = Math.hypot(...b);
        expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(8 * (n + 2) * 2 ** -53 * (1 + n * xMax / bNorm) + 1e-15);
        expect(bNorm).toBeGreaterThan(0);
      },
    ), { numRuns: 150, seed: 13 });
  });
});
