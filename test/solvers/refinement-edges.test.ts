/**
 * Iterative refinement's degenerate inputs: the result's residual history is relative (‖r‖₂/‖b‖₂) from its first
 * entry. Regression: a singular factor recorded the absolute number 1 as the residual, so
 * `iterativeRefinement(zero 2×2, [1, 1])` reported residualNorm 1/√2 next to trueResidualNorm 1 (x = 0: r = b).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { iterativeRefinement, denseMatrix, formats } from '../../src/index.js';

describe('iterative refinement, degenerate systems', () => {
  it('a singular factor: breakdown with x = 0, and the recorded residual is the true one, ‖b‖/‖b‖ = 1', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(
        fc.constant(n), fc.integer({ min: 0, max: n - 1 }),
        fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: n * n, maxLength: n * n }),
        fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: n, maxLength: n }).filter((b) => b.some((v) => v !== 0)),
      )),
      fc.constantFrom('f32', 'f64' as const),
      ([n, zeroColumn, values, b], factorization) => {
        const data = Float64Array.from(values);
        for (let i = 0; i < n; i++) data[i + zeroColumn * n] = 0;   // a zero column: every LU has a zero pivot
        const r = iterativeRefinement(denseMatrix({ rows: n, cols: n, ld: n, data }), b, { factorization });
        expect([r.status, r.breakdown]).toEqual(['breakdown', 'singular-factor']);
        expect(Array.from({ length: n }, (_, i) => r.x.get(i))).toEqual(new Array(n).fill(0));
        expect(r.history).toEqual([1]);
        expect(r.residualNorm).toBe(r.trueResidualNorm);
      },
    ), { numRuns: 30, seed: 26 });
  });

  it('b = 0 and n = 0 converge at once with x = 0', () => {
    for (const n of [0, 1, 3]) {
      const r = iterativeRefinement(denseMatrix({ rows: n, cols: n, ld: Math.max(1, n), data: new Float64Array(n * n).fill(1) }), new Array(n).fill(0));
      expect([r.status, r.iterations, r.residualNorm, r.trueResidualNorm]).toEqual(['converged', 0, 0, 0]);
    }
  });
});

describe('iterative refinement, the iteration limit', () => {
  // Regression: maxIterations 0 reported 'iteration-limit' for a first solve whose residual is exactly zero, where cg,
  // bicgstab and gmres report 'converged' for an x₀ that meets the tolerance, whatever their limit.
  it('maxIterations 0: converged exactly when the first solve\'s backward error meets the tolerance', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(
        fc.constant(n),
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }).filter((d) => d.every((v) => v !== 0)),
        fc.array(fc.integer({ min: -64, max: 64 }), { minLength: n, maxLength: n }).filter((b) => b.some((v) => v !== 0)),
      )),
      fc.constantFrom('f32', 'f64' as const),
      ([n, diagonal, b], factorization) => {
        // A diagonal of powers of two: the LU solve is exact, so the residual is exactly zero.
        const data = new Float64Array(n * n);
        for (let i = 0; i < n; i++) data[i + i * n] = Math.sign(diagonal[i]!) * 2 ** diagonal[i]!;
        const A = denseMatrix({ rows: n, cols: n, ld: n, data });
        // The smallest tolerance an fp64 residual certifies (below it, 0 included, nothing converges: see
        // public-unresolvable-tolerance).
        for (const tolerance of [2 ** -53, 1e-10]) {
          const r = iterativeRefinement(A, b, { factorization, maxIterations: 0, tolerance });
          expect([r.status, r.breakdown, r.iterations, r.trueResidualNorm]).toEqual(['converged', undefined, 0, 0]);
          for (let i = 0; i < n; i++) expect(r.x.get(i)).toBe(b[i]! / data[i + i * n]!);
        }
        const unresolvable = iterativeRefinement(A, b, { factorization, maxIterations: 0, tolerance: 0 });
        expect([unresolvable.status, unresolvable.trueResidualNorm]).toEqual(['iteration-limit', 0]);
      },
    ), { numRuns: 30, seed: 27 });
  });

  it('maxIterations 0 with a first solve that misses the tolerance is the iteration limit', () => {
    // Hilbert-like 8×8: an fp32 LU leaves a backward error far above 1e-30.
    const n = 8;
    const data = Float64Array.from({ length: n * n }, (_, k) => 1 / ((k % n) + Math.floor(k / n) + 1));
    const r = iterativeRefinement(denseMatrix({ rows: n, cols: n, ld: n, data }), new Array(n).fill(1), { maxIterations: 0, tolerance: 1e-30 });
    expect([r.status, r.iterations]).toEqual(['iteration-limit', 0]);
    expect(r.trueResidualNorm).toBeGreaterThan(0);
  });
});

describe('iterative refinement, x in a narrow storage', () => {
  // Regression: x stored in fp16 overflowed for a solution beyond 65504 (iterativeRefinement(I, [1e5, 2], { storage:
  // f16 }) broke down 'non-finite' with x = 0) and lost digits below 2^-14 (b = [1e-7, 3e-8]: stagnation). x is now a
  // view of fp16 words with one power-of-two scale, as the Krylov solvers return theirs.
  it('A = 2^a·I, b = 2^e·(11-bit integers): converged with x = 2^-a·b exactly, for e far outside fp16', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }).chain((n) => fc.array(fc.integer({ min: -2047, max: 2047 }), { minLength: n, maxLength: n }).filter((c) => c.some((v) => v !== 0))),
      fc.integer({ min: -60, max: 60 }), fc.integer({ min: -6, max: 6 }), fc.constantFrom('f32', 'f64' as const),
      (c, e, a, factorization) => {
        const n = c.length;
        const data = new Float64Array(n * n);
        for (let i = 0; i < n; i++) data[i + i * n] = 2 ** a;
        const b = c.map((v) => v * 2 ** e);
        const r = iterativeRefinement(denseMatrix({ rows: n, cols: n, ld: n, data }), b, { storage: formats.f16, factorization });
        expect([r.status, r.breakdown, r.trueResidualNorm]).toEqual(['converged', undefined, 0]);
        expect(Array.from({ length: n }, (_, i) => r.x.get(i))).toEqual(b.map((v) => v * 2 ** -a));
        expect(r.x.accessor.storage.name).toBe('f16');
      },
    ), { numRuns: 60, seed: 32 });
  });

  // Regression: fp32 and bf16 x were kept unscaled (only storages narrower than 2^±64 got the scaled view), so
  // iterativeRefinement(I, [1e39, 2e38], { storage: f32 }) broke down 'non-finite' with x = 0 and b = [3e-42, 1e-43]
  // lost its digits among fp32's subnormals (stagnation, relative residual 1.8e-4); bf16 likewise. Now fp32 and bf16
  // x are scaled as the Krylov solvers scale theirs: a view with one power of two where max|xᵢ| lies beyond 2^±32.
  it('fp32, bf16 and fp16 x: A = 2^a·I, b = 2^e·(integers of the storage\'s precision): converged with x = 2^-a·b exactly, for e far outside fp32', () => {
    const bits = { f32: 24, bf16: 8, f16: 11 } as const;
    fc.assert(fc.property(
      fc.constantFrom('f32', 'bf16', 'f16' as const).chain((st) => fc.tuple(fc.constant(st), fc.integer({ min: 1, max: 4 }).chain((n) =>
        fc.array(fc.integer({ min: 1 - 2 ** bits[st], max: 2 ** bits[st] - 1 }), { minLength: n, maxLength: n }).filter((c) => c.some((v) => v !== 0))))),
      fc.integer({ min: -300, max: 300 }), fc.integer({ min: -6, max: 6 }), fc.constantFrom('f32', 'f64' as const),
      ([st, c], e, a, factorization) => {
        const n = c.length;
        const data = new Float64Array(n * n);
        for (let i = 0; i < n; i++) data[i + i * n] = 2 ** a;
        const b = c.map((v) => v * 2 ** e);
        const r = iterativeRefinement(denseMatrix({ rows: n, cols: n, ld: n, data }), b, { storage: formats[st], factorization });
        expect([r.status, r.breakdown, r.trueResidualNorm]).toEqual(['converged', undefined, 0]);
        expect(Array.from({ length: n }, (_, i) => r.x.get(i))).toEqual(b.map((v) => v * 2 ** -a));
        expect(r.x.accessor.storage.name).toBe(st);
      },
    ), { numRuns: 60, seed: 2611, examples: [[['f32', [5, 1]], 128, 0, 'f32'], [['f32', [3, 1]], -147, 0, 'f32'], [['bf16', [3, 1]], -140, 0, 'f32']] });
  });
});

describe('iterative refinement, a solution beyond the storage', () => {
  // Regression: x beyond its storage (A = 2^-a·I, b = 1e10 in fp32, x = 1e10·2^a ≥ 2^128) went back to 0 with breakdown
  // 'non-finite', but trueResidualNorm (and residualNorm) said +∞, the residual of the discarded x, not ‖b − A·0‖/‖b‖ = 1.
  // fp32 x is now held scaled there; a solution beyond the double range (b = 1e300) is still 'non-finite'.
  it("breakdown 'non-finite': x = 0 and its true residual 1, the last history entry", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 100, max: 200 }), fc.constantFrom(formats.f32, formats.f64), (n, a, storage) => {
      const data = new Float64Array(n * n);
      for (let i = 0; i < n; i++) data[i + i * n] = 2 ** -a;
      const r = iterativeRefinement(denseMatrix({ rows: n, cols: n, ld: n, data }), new Array(n).fill(1e300), { storage });
      expect([r.status, r.breakdown, r.trueResidualNorm, r.residualNorm]).toEqual(['breakdown', 'non-finite', 1, 1]);
      expect(Array.from({ length: n }, (_, i) => r.x.get(i))).toEqual(new Array(n).fill(0));
    }), { numRuns: 20, seed: 33 });
  });
});
