/**
 * With fp32 arithmetic (the default for fp32 vectors) the true residual b − A·x was computed in fp32: a computed 0
 * stood for a real ‖b − A·x‖/‖b‖ near 10⁻⁷, and CG and GMRES reported `converged` to 1e-9 with a true residual of 0.
 * The true residual is now measured in fp64 on the CPU and in float-float on the GPU. Checked against the exact
 * residual of the returned x (BigInt rationals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, jacobiCg, matrix, formats, toArray, vector, type OperatorLike, type SolverResult } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { exactRelativeResidual } from './dense-residual.js';
import { nonsymmetricSystem, spdSystem } from './solver-fixtures.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult | Promise<SolverResult>;

/**
 * A 4×4 SPD system in binary32 numbers, A = B·Bᵀ + 10⁻³·I (condition up to about 10⁴) from a linear congruential
 * generator: seeds 140 and 290 made fp32 CG, seed 255 fp32 GMRES, report `converged` to 1e-9 with a true residual of 0.
 */
function lcgSystem(seed: number): { n: number; b: Float64Array; dense: { rows: number; cols: number; ld: number; data: Float64Array } } {
  let s = seed;
  const next = (): number => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const n = 4;
  const B = Array.from({ length: n * n }, () => Math.fround(next() - 0.5));
  const data = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    let t = 0;
    for (let l = 0; l < n; l++) t += B[i + l * n]! * B[j + l * n]!;
    data[i + j * n] = Math.fround(t + (i === j ? 1e-3 : 0));
  }
  const b = Float64Array.from({ length: n }, () => Math.fround(next() - 0.5));
  return { n, b, dense: { rows: n, cols: n, ld: n, data } };
}

const solvers: [string, Solve][] = [['cg', cg as Solve], ['bicgstab', bicgstab as Solve], ['gmres', gmres as Solve]];

/** The reported true residual against the exact one; `slack`: the measuring arithmetic's rounding of b − A·x. */
function expectHonest(r: SolverResult, s: ReturnType<typeof lcgSystem>, tolerance: number, slack: number): void {
  const exact = exactRelativeResidual(s, r.x);
  expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-6 * exact + slack);
  if (r.status === 'converged') expect(exact).toBeLessThanOrEqual(tolerance + slack);
}

describe('fp32 arithmetic measures the true residual in a wider arithmetic', () => {
  it.each(solvers)('%s: the systems that reported `converged` to 1e-9 with a true residual of 0 now report their residual', (_, solve) => {
    for (const seed of [140, 255, 290]) {
      const s = lcgSystem(seed);
      const r = solve(matrix(s.n, s.n, (i, j) => s.dense.data[i + j * s.n]!), s.b, { storage: formats.f32, tolerance: 1e-9, maxIterations: 500 }) as SolverResult;
      const exact = exactRelativeResidual(s, r.x);
      // x is an fp32 vector: its residual is far above 1e-9 for this condition number
      expect(exact).toBeGreaterThan(1e-9);
      expect(r.status).not.toBe('converged');
      expectHonest(r, s, 1e-9, 64 * 2 ** -53 * 1e4);
    }
  });

  it.each([...solvers, ['jacobiCg', jacobiCg as Solve]] as [string, Solve][])('%s: b given as an fp64 range is not rounded to fp32 on its way in (A = 3, b = 0.1, tolerance 1e-13)', (_, solve) => {
    const s = { n: 1, b: Float64Array.of(0.1), dense: { rows: 1, cols: 1, ld: 1, data: Float64Array.of(3) } };
    const r = solve(matrix(1, 1, () => 3), vector([0.1]), { storage: formats.f32, tolerance: 1e-13 }) as SolverResult;
    const exact = exactRelativeResidual(s, r.x);
    expect(exact).toBeGreaterThan(1e-9);     // x = 0.1/3 rounded to fp32
    expect(r.status).not.toBe('converged');
    expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-6 * exact);
  });

  it.each([...solvers, ['jacobiCg', jacobiCg as Solve]] as [string, Solve][])('%s: random systems, fp32 / bf16 / fp16 vectors, fp32 arithmetic', (name, solve) => {
    const system = name === 'cg' || name === 'jacobiCg' ? spdSystem : nonsymmetricSystem;
    fc.assert(fc.property(system, fc.constantFrom(formats.f32, formats.bf16, formats.f16), fc.constantFrom(0, 1e-5, 1e-9), (s, storage, tolerance) => {
      const r = solve(s.A, s.b, { storage, arithmetic: formats.f32, tolerance, maxIterations: 60 }) as SolverResult;
      if (!toArray(r.x).every(Number.isFinite)) {
        expect([r.status, r.breakdown, r.trueResidualNorm]).toEqual(['breakdown', 'non-finite', Infinity]);
        return;
      }
      // fp64 measures b − A·x within a few units of |b| + |A|·|x| (the fixtures keep κ ≤ about 30)
      expectHonest(r, s, tolerance, 8 * s.n * 2 ** -53 * 30);
    }), { numRuns: 40 });
  });
});

describe("fp32 arithmetic with backend: 'gpu'", () => {
  it.each(solvers)('%s: the 1e-9 systems are not reported converged, their true residual measured in float-float', async (_, solve) => {
    await requireRuntime();
    for (const seed of [140, 290]) {
      const s = lcgSystem(seed);
      const r = await solve(matrix(s.n, s.n, (i, j) => s.dense.data[i + j * s.n]!), s.b, { backend: 'gpu', strict: true, storage: formats.f32, arithmetic: formats.f32, tolerance: 1e-9, maxIterations: 500 });
      expect(r.status).not.toBe('converged');
      // float-float: each operation within about 2^-44 of its operands
      expectHonest(r, s, 1e-9, 64 * 2 ** -44 * 1e4);
    }
  });
});
