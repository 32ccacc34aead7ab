/**
 * The solvers converge on SPD and nonsymmetric systems to the LU solution, report a history consistent with their
 * result, and recompute a true residual that agrees with an independent one.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  bicgstab, cg, gmres, jacobiCg, toArray, formats, laplacianEll, functionOperator, linearOperator, ellWithStorage, csrToEll, readMatrixMarketCsr,
  type SolverResult,
} from '../../src/index.js';
import { nonsymmetricSystem, relativeError, relativeResidual, spdSystem, type DenseSystem } from './solver-fixtures.js';

const TOL = 1e-12;

/** What every converged result satisfies against its system. */
function checkConverged(s: DenseSystem, r: SolverResult): void {
  expect(r.status).toBe('converged');
  expect(r.breakdown).toBeUndefined();
  const x = toArray(r.x);
  // Converged means the TRUE residual met the tolerance; an independent fp64 residual agrees with it.
  expect(r.trueResidualNorm).toBeLessThanOrEqual(TOL);
  expect(relativeResidual(s, x)).toBeLessThanOrEqual(2 * TOL + 1e-15);
  // The well-conditioned fixtures (κ ≤ ~2 for SPD, diagonally dominant otherwise) bound the forward error.
  expect(relativeError(x, s.reference)).toBeLessThanOrEqual(1e-10);
  // History: entry 0 is the initial residual (x₀ = 0: exactly 1), the last is the reported residual.
  expect(r.history[0]).toBe(1);
  expect(r.residualNorm).toBe(r.history[r.history.length - 1]);
  expect(r.history.length).toBe(r.iterations + 1);
  expect(r.history.every((h) => h >= 0 && !Number.isNaN(h))).toBe(true);
}

describe('convergence against the LU solution', () => {
  it('CG and Jacobi CG on random SPD systems (dense operator, GEMV)', () => {
    fc.assert(fc.property(spdSystem, (s) => {
      checkConverged(s, cg(s.A, s.b, { tolerance: TOL }));
      checkConverged(s, jacobiCg(s.A, s.b, { tolerance: TOL }));
    }), { numRuns: 60 });
  });

  it('BiCGStab and GMRES on random nonsymmetric systems', () => {
    fc.assert(fc.property(nonsymmetricSystem, fc.integer({ min: 1, max: 12 }), (s, restart) => {
      checkConverged(s, bicgstab(s.A, s.b, { tolerance: TOL }));
      checkConverged(s, gmres(s.A, s.b, { tolerance: TOL, restart }));
    }), { numRuns: 60 });
  });

  it('the same solve through a plain DenseMatrix, a function operator and the fp64 range agree', () => {
    fc.assert(fc.property(spdSystem, (s) => {
      const viaRange = toArray(cg(s.A, s.b, { tolerance: TOL }).x);
      const viaDense = toArray(cg(s.dense, s.b, { tolerance: TOL }).x);
      const op = functionOperator({ size: s.n, apply: (x, y) => {
        for (let i = 0; i < s.n; i++) { let t = 0; for (let j = 0; j < s.n; j++) t += s.dense.data[i + j * s.n]! * x.get(j); y.set(i, t); }
      } });
      const viaFunction = toArray(cg(op, s.b, { tolerance: TOL }).x);
      expect(viaDense).toEqual(viaRange);
      expect(relativeError(viaFunction, viaRange)).toBeLessThanOrEqual(1e-10);
    }), { numRuns: 30 });
  });

  it('ELL operators: CG on the 2-D Laplacian, with x₀ given; the history starts from x₀', () => {
    const A = laplacianEll([12, 12]);
    const b = Float64Array.from({ length: 144 }, (_, i) => Math.sin(i));
    const x0 = Float64Array.from({ length: 144 }, (_, i) => Math.cos(i));
    const r = cg(A, b, { tolerance: 1e-11, x0 });
    expect(r.status).toBe('converged');
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-11);
    // ‖b − A·x₀‖/‖b‖ computed here
    const y = new Float64Array(144);
    linearOperator(A).apply(1, toRange(x0), 0, toRange(y), formats.f64.arithmetic!);
    let rr = 0, bb = 0;
    for (let i = 0; i < 144; i++) { rr += (b[i]! - y[i]!) ** 2; bb += b[i]! ** 2; }
    expect(r.history[0]).toBeCloseTo(Math.sqrt(rr / bb), 14);
  });

  it('b = 0 gives x = 0 at once, converged, whatever x₀', () => {
    const r = cg(laplacianEll([4]), [0, 0, 0, 0], { x0: [1, 2, 3, 4] });
    expect(r.status).toBe('converged');
    expect(r.iterations).toBe(0);
    expect([...toArray(r.x)]).toEqual([0, 0, 0, 0]);
    expect(r.trueResidualNorm).toBe(0);
  });

  it('b far from 1 (2^±600): b and x₀ are solved scaled by a power of two, so x is exactly 2^±600 times the x for b', () => {
    // Regression: CG and BiCGStab formed squares of residual-sized numbers; for ‖b‖₂ beyond about 2^±510 they
    // overflowed or underflowed (cg(laplacianEll([20]), 1e-170·b) was the breakdown 'indefinite' on an SPD matrix).
    const A = laplacianEll([20]);
    const b = Array.from({ length: 20 }, (_, i) => Math.sin(i + 1));
    const x0 = Array.from({ length: 20 }, (_, i) => i / 7);
    for (const k of [-600, 600]) {
      const f = 2 ** k;
      for (const [name, solve] of [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]] as const) {
        for (const withX0 of [false, true]) {
          const plain = solve(A, b, withX0 ? { x0 } : {});
          const scaled = solve(A, b.map((v) => v * f), withX0 ? { x0: x0.map((v) => v * f) } : {});
          expect(plain.status, name).toBe('converged');
          expect([scaled.status, scaled.iterations, scaled.history], `${name} 2^${k}`).toEqual([plain.status, plain.iterations, plain.history]);
          expect([...toArray(scaled.x)], `${name} 2^${k}`).toEqual([...toArray(plain.x)].map((v) => v * f));
        }
      }
    }
  });

  it('the iteration limit is a status, with exactly that many iterations', () => {
    const r = cg(laplacianEll([100]), new Float64Array(100).fill(1), { maxIterations: 7, tolerance: 1e-14 });
    expect(r.status).toBe('iteration-limit');
    expect(r.iterations).toBe(7);
    expect(r.history.length).toBe(8);
    const g = gmres(laplacianEll([100]), new Float64Array(100).fill(1), { maxIterations: 7, restart: 3 });
    expect(g.status).toBe('iteration-limit');
    expect(g.iterations).toBe(7);
  });
});

describe('storage and arithmetic are really used', () => {
  const A = laplacianEll([16, 16]);
  const b = Float64Array.from({ length: 256 }, (_, i) => 1 + (i % 7));

  it('GMRES with an fp16 basis takes other iterates than with an fp64 basis, and still converges', () => {
    const f64 = gmres(A, b, { restart: 25, tolerance: 1e-10 });
    const f16 = gmres(A, b, { restart: 25, tolerance: 1e-10, basisStorage: formats.f16 });
    const bf16 = gmres(A, b, { restart: 25, tolerance: 1e-10, basisStorage: formats.bf16 });
    for (const r of [f64, f16, bf16]) {
      expect(r.status).toBe('converged');
      expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-10);
    }
    expect(f16.history).not.toEqual(f64.history);
    expect(bf16.history).not.toEqual(f16.history);
    // The vectors stay fp64: only the basis was compressed.
    expect(f16.x.accessor.storage.name).toBe('f64');
  });

  it('GMRES keeps its basis orthonormal to working precision with either orthogonalisation (the basis seen through A)', () => {
    // A 2-D Laplacian with a long cycle: single-pass classical Gram–Schmidt loses orthogonality completely here.
    const n = 144;
    const L = laplacianEll([12, 12]);
    const op = linearOperator(L);
    for (const orthogonalization of ['dgks', 'cgs2'] as const) {
      const seen: Float64Array[] = [];
      const A = functionOperator({ size: n, apply: (x, y) => { seen.push(Float64Array.from(toArray(x))); op.apply(1, x, 0, y, formats.f64.arithmetic!); } });
      const r = gmres(A, Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1)), { restart: 60, maxIterations: 60, tolerance: 0, orthogonalization });
      expect(r.iterations).toBe(60);
      // A was applied to x₀ (the initial residual), to the basis columns v₀ … v₅₉, then twice to x (the restart's and
      // the result's true residual).
      expect(seen.length).toBe(63);
      seen.shift();
      let worst = 0;
      for (let p = 0; p < 60; p++) {
        for (let q = 0; q <= p; q++) {
          let d = 0;
          for (let i = 0; i < n; i++) d += seen[p]![i]! * seen[q]![i]!;
          worst = Math.max(worst, Math.abs(d - (p === q ? 1 : 0)));
        }
      }
      expect(worst, orthogonalization).toBeLessThan(1e-14);
    }
  });

  it('GMRES that stops short returns its best restart, never an x worse than x₀ (arc130, an fp16 basis too coarse for it)', () => {
    // arc130's entries span 15 orders of magnitude: with an fp16 basis the corrections raise the residual.
    const E = csrToEll(readMatrixMarketCsr(readFileSync(new URL('../fixtures/matrices/arc130.mtx', import.meta.url), 'utf8')));
    const rhs = Float64Array.from({ length: E.rows }, (_, i) => Math.cos(i));
    for (const basisStorage of [formats.f16, formats.bf16]) {
      const r = gmres(E, rhs, { restart: 30, tolerance: 1e-10, basisStorage, maxIterations: 300 });
      expect(r.status).not.toBe('converged');
      expect(r.trueResidualNorm, basisStorage.name).toBeLessThanOrEqual(1);
    }
  });

  it('CGS2 and DGKS reach the same true residual with an fp16 basis', () => {
    const dgks = gmres(A, b, { restart: 25, tolerance: 1e-10, basisStorage: formats.f16 });
    const cgs2 = gmres(A, b, { restart: 25, tolerance: 1e-10, basisStorage: formats.f16, orthogonalization: 'cgs2' });
    for (const r of [dgks, cgs2]) {
      expect(r.status).toBe('converged');
      expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-10);
    }
  });

  it('fp32 vector storage: the solution lives in a Float32Array and stagnates near fp32 accuracy, not at fp64', () => {
    const r = cg(A, b, { storage: formats.f32, arithmetic: formats.f32, tolerance: 1e-14 });
    expect(r.x.accessor.data).toBeInstanceOf(Float32Array);
    expect(r.status).toBe('breakdown');
    expect(r.breakdown).toBe('stagnation');
    expect(r.trueResidualNorm).toBeGreaterThan(1e-9);
    expect(r.trueResidualNorm).toBeLessThan(1e-4);
  });

  it('double-double vectors and arithmetic go far below fp64 CG on the same system', () => {
    const L = laplacianEll([40]);
    const rhs = Float64Array.from({ length: 40 }, (_, i) => Math.sin(i + 1));
    const f64 = cg(L, rhs, { tolerance: 1e-28 });
    const dd = cg(L, rhs, { storage: formats.dd, tolerance: 1e-28 });
    expect(f64.breakdown).toBe('stagnation');
    expect(f64.trueResidualNorm).toBeGreaterThan(1e-18);
    expect(dd.status).toBe('converged');
    expect(dd.trueResidualNorm).toBeLessThanOrEqual(1e-28);
  });

  it('an fp16 ELL matrix with fp64 vectors solves the fp16-rounded system', () => {
    const E = ellWithStorage(laplacianEll([10]), { storage: formats.f16 });
    const r = bicgstab(E, new Float64Array(10).fill(1), { tolerance: 1e-12 });
    expect(r.status).toBe('converged');
  });

  it('recordTrueResidual: one entry per history entry, and the last is the reported true residual', () => {
    for (const r of [
      cg(A, b, { recordTrueResidual: true }), jacobiCg(A, b, { recordTrueResidual: true }),
      bicgstab(A, b, { recordTrueResidual: true }), gmres(A, b, { restart: 10, recordTrueResidual: true }),
    ]) {
      expect(r.trueHistory!.length).toBe(r.history.length);
      expect(r.trueHistory![r.trueHistory!.length - 1]).toBe(r.trueResidualNorm);
    }
  });
});

function toRange(v: Float64Array) {
  return vectorOf(v);
}
import { range, rowMajor } from '../../src/index.js';
function vectorOf(v: Float64Array) {
  return range(rowMajor<1>({ size: [v.length], data: v }));
}
