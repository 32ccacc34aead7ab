/**
 * The solvers with `backend: 'gpu'`: the same iterations on resident device arrays (llvmpipe here, the H100 in the
 * benchmark), converging to the CPU's solution; what the GPU cannot run is the kernels' typed error, thrown
 * synchronously before any work.
 */
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, jacobiCg, toArray, formats, laplacianEll, matrix, functionOperator, luFactor, luSolve, ellWithStorage } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { relativeError } from './solver-fixtures.js';

const A = laplacianEll([8, 8]);
const n = 64;
const b = Float64Array.from({ length: n }, (_, i) => 1 + Math.sin(i));
const reference = toArray(cg(A, b, { tolerance: 1e-14 }).x);
const ff = { backend: 'gpu' as const, arithmetic: formats.ff, strict: true };

describe("solvers with backend: 'gpu'", () => {
  it('CG, Jacobi CG, BiCGStab and GMRES converge on the device in float-float, to the fp64 solution', async () => {
    await requireRuntime();
    for (const r of [
      await cg(A, b, { ...ff, tolerance: 1e-10 }),
      await jacobiCg(A, b, { ...ff, tolerance: 1e-10 }),
      await bicgstab(A, b, { ...ff, tolerance: 1e-10 }),
      await gmres(A, b, { ...ff, tolerance: 1e-10, restart: 20 }),
    ]) {
      expect(r.status).toBe('converged');
      expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-10);
      expect(r.residualNorm).toBe(r.history[r.history.length - 1]);
      expect(r.x.accessor.storage.name).toBe('f64');
      expect(relativeError(toArray(r.x), reference)).toBeLessThan(1e-8);
    }
  });

  it('GMRES with an fp16 and an fp32 basis on the device: other iterates, the same true residual', async () => {
    await requireRuntime();
    const full = await gmres(A, b, { ...ff, tolerance: 1e-9, restart: 16 });
    const f32 = await gmres(A, b, { ...ff, tolerance: 1e-9, restart: 16, basisStorage: formats.f32 });
    const f16 = await gmres(A, b, { ...ff, tolerance: 1e-9, restart: 16, basisStorage: formats.f16 });
    for (const r of [full, f32, f16]) {
      expect(r.status).toBe('converged');
      expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-9);
    }
    expect(f16.history).not.toEqual(full.history);
    const cgs2 = await gmres(A, b, { ...ff, tolerance: 1e-9, restart: 16, basisStorage: formats.f16, orthogonalization: 'cgs2' });
    expect(cgs2.status).toBe('converged');
    expect(cgs2.trueResidualNorm).toBeLessThanOrEqual(1e-9);
  });

  it('a dense operator (GEMV) and fp32 vectors in fp32 arithmetic', async () => {
    await requireRuntime();
    const D = matrix(12, 12, (i, j) => (i === j ? 4 : Math.abs(i - j) === 1 ? -1 : 0));
    const rhs = Float64Array.from({ length: 12 }, (_, i) => i + 1);
    const r = await cg(D, rhs, { backend: 'gpu', storage: formats.f32, tolerance: 1e-5, strict: true });
    expect(r.status).toBe('converged');
    expect(r.x.accessor.data).toBeInstanceOf(Float32Array);
    const dense = { rows: 12, cols: 12, ld: 12, data: Float64Array.from({ length: 144 }, (_, k) => D.get(k % 12, Math.floor(k / 12))) };
    expect(relativeError(toArray(r.x), luSolve(luFactor(dense), rhs))).toBeLessThan(1e-4);
  });

  it('breakdowns are results on the device too', async () => {
    await requireRuntime();
    const r = await cg(matrix(2, 2, (i, j) => (i === j ? (i === 0 ? 1 : -1) : 0)), [1, 1], { ...ff });
    expect(r.status).toBe('breakdown');
    expect(r.breakdown).toBe('indefinite');
  });

  it('what the GPU cannot run is a typed error, thrown before any work (not a rejected promise)', () => {
    expectModprec(() => cg(A, b, { backend: 'gpu' }), 'INVALID_OPTION', 'options.arithmetic');          // fp64 vectors → f64 arithmetic
    // RNS: the vectors stay in the arithmetic's moduli set on the device; a storage narrower than it is refused.
    expectModprec(() => cg(A, b, { backend: 'gpu', arithmetic: formats.rns424 }), 'INVALID_FORMAT', 'options.storage');
    expectModprec(() => cg(A, b, { backend: 'gpu', arithmetic: formats.rns424, storage: formats.rns106 }), 'INVALID_FORMAT', 'options.storage');
    expectModprec(() => gmres(A, b, { backend: 'gpu', arithmetic: formats.rns106, storage: formats.rns106, basisStorage: formats.f32 }), 'INVALID_FORMAT', 'options.basisStorage');
    expectModprec(() => cg(functionOperator({ size: 2, apply: () => {} }), [1, 1], { backend: 'gpu', arithmetic: formats.rns106, storage: formats.rns106 }), 'INVALID_OPTION', 'A');
    // dd storage reads only into dd arithmetic on the GPU (another would drop the low half).
    expectModprec(() => cg(A, b, { backend: 'gpu', storage: formats.dd, arithmetic: formats.ff }), 'INVALID_OPTION', 'options.arithmetic');
    expectModprec(() => gmres(A, b, { ...ff, basisStorage: formats.dd }), 'INVALID_OPTION', 'options.arithmetic');
    expectModprec(() => cg(functionOperator({ size: 2, apply: () => {} }), [1, 1], ff), 'INVALID_OPTION', 'A');
    expectModprec(() => cg(ellWithStorage(A, { storage: formats.dd }), b, ff), 'INVALID_OPTION', 'options.arithmetic');
    expectModprec(() => cg(A, b, { ...ff, strict: 1 as never }), 'INVALID_OPTION', 'options.strict');
    expectModprec(() => cg(A, b, { backend: 'tpu' as never }), 'INVALID_OPTION', 'options.backend');
    expectModprec(() => cg(A, b, { backend: 'wasm' as never }), 'INVALID_OPTION', 'options.backend');
    expectModprec(() => cg(A, [1], ff), 'DIMENSION_MISMATCH', 'b');
  });
});

describe("solvers with backend: 'gpu' and an RNS arithmetic", () => {
  const L = laplacianEll([3, 3, 3]);
  const rhs = Float64Array.from({ length: L.rows }, (_, i) => 1 + (i % 3));
  const rns = { arithmetic: formats.rns106, storage: formats.rns106, tolerance: 1e-25, maxIterations: 200 };

  it('CG, Jacobi CG, BiCGStab and GMRES run resident in RNS: the CPU\'s iterations, far past fp64, the same solution', async () => {
    await requireRuntime();
    const solvers = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]] as const;
    for (const [name, solve] of solvers) {
      const options = name === 'gmres' ? { ...rns, restart: 20 } : rns;
      const g = await (solve as typeof cg)(L, rhs, { ...options, backend: 'gpu', strict: true });
      const c = (solve as typeof cg)(L, rhs, options);
      expect(g.status, name).toBe('converged');
      expect(g.trueResidualNorm, name).toBeLessThanOrEqual(1e-25);
      // Each device result is one rounding of an exact value where the CPU rounds per term: the same recurrence to
      // ~2^-100, so the same number of iterations and solutions that agree far beyond fp64.
      expect(Math.abs(g.iterations - c.iterations), name).toBeLessThanOrEqual(1);
      expect(g.x.accessor.storage.name).toBe('rns106');
      const [xg, xc] = [g.x, c.x].map((x) => Array.from({ length: L.rows }, (_, i) => formats.rns106.arithmetic.toNumber(x.get(i))));
      expect(relativeError(Float64Array.from(xg), Float64Array.from(xc)), name).toBeLessThan(1e-24);
    }
  });

  it('a dense operator, a wider RNS storage, and b = 0', async () => {
    await requireRuntime();
    const D = matrix(6, 6, (i, j) => (i === j ? 4 : Math.abs(i - j) === 1 ? -1 : 0));
    const g = await cg(D, [1, 2, 3, 4, 5, 6], { ...rns, storage: formats.rns212, backend: 'gpu', strict: true });
    expect(g.status).toBe('converged');
    expect(g.trueResidualNorm).toBeLessThanOrEqual(1e-25);
    expect(g.x.accessor.storage.name).toBe('rns212');
    const exact = luSolve(luFactor({ rows: 6, cols: 6, ld: 6, data: Float64Array.from({ length: 36 }, (_, k) => { const i = k % 6, j = Math.floor(k / 6); return i === j ? 4 : Math.abs(i - j) === 1 ? -1 : 0; }) }), Float64Array.of(1, 2, 3, 4, 5, 6));
    expect(relativeError(toArray(g.x), exact)).toBeLessThan(1e-14);
    const z = await bicgstab(D, new Float64Array(6), { ...rns, backend: 'gpu', strict: true });
    expect(z.status).toBe('converged');
    expect(Array.from(toArray(z.x))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
