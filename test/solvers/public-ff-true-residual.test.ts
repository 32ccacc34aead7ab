/**
 * Float-float arithmetic (about 48 bits) on fp64 vectors measured the true residual in float-float: x was read rounded
 * to 48 bits, so b − A·x came out 0 where it was not — bicgstab and gmres on a 2×2 SPD system with κ = 10⁶ reported
 * 'converged' to 1e-13 with a true residual of 0 whose exact value was 2·10⁻¹¹. The docs measure the true residual
 * "in the arithmetic where it is at least as precise as fp64": with float-float arithmetic it is now fp64 on the CPU
 * and double-double on the GPU, as fp32 arithmetic's is fp64 and float-float.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, formats, gmres, jacobiCg, matrix, toArray, vector, type OperatorLike, type SolverResult } from '../../src/index.js';
import { exactRelativeResidual } from './dense-residual.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];

/** A = Q·diag(1 … 10^-κ)·Qᵀ, Q a Householder reflector of v; exactly symmetric. */
function spd(v: readonly number[], logK: number) {
  const n = v.length;
  const vv = v.reduce((s, a) => s + a * a, 0);
  const q = (i: number, j: number): number => (i === j ? 1 : 0) - 2 * v[i]! * v[j]! / vv;
  const data = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i <= j; i++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += q(i, k) * 10 ** (-logK * k / (n - 1)) * q(j, k);
      data[i + j * n] = s;
      data[j + i * n] = s;
    }
  }
  return { n, data, dense: { rows: n, cols: n, ld: n, data }, A: matrix(n, n, (i, j) => data[i + j * n]!) };
}

/**
 * What an fp64 residual can promise: the exact relative residual is within (n + 1)·2^-53·(‖b‖₂ + ‖A‖_F·‖x‖₂)/‖b‖₂ of
 * the computed one (each entry of b − A·x within γₙ₊₁·(|b| + |A|·|x|)), so converged means at most tolerance + that.
 */
function fp64Slack(s: ReturnType<typeof spd>, b: ArrayLike<number>, x: ArrayLike<number>): number {
  const norm = (v: ArrayLike<number>): number => Math.sqrt(Array.from(v).reduce((t, a) => t + a * a, 0));
  return (s.n + 1) * 2 ** -53 * (norm(b) + norm(s.data) * norm(x)) / norm(b);
}

const system = fc.integer({ min: 2, max: 6 }).chain((n) => fc.tuple(
  fc.array(fc.double({ min: 0.1, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
  fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: n, maxLength: n }).filter((b) => b.some((v) => Math.abs(v) > 0.01)),
  fc.integer({ min: 3, max: 6 }),
));

describe('float-float arithmetic: converged means the true residual, measured at least as precisely as fp64', () => {
  it.each(solvers)('%s on SPD systems with κ from 10³ to 10⁶, tolerances 10⁻¹² and 10⁻¹³', (_, solve) => {
    fc.assert(fc.property(system, fc.constantFrom(1e-12, 1e-13), ([v, b, logK], tolerance) => {
      const s = spd(v, logK);
      const r = solve(s.A, b, { arithmetic: formats.ff, tolerance, maxIterations: 200 });
      if (r.status !== 'converged') return;
      const x = Array.from(toArray(r.x));
      expect(exactRelativeResidual({ ...s, b: Float64Array.from(b) }, vector(x))).toBeLessThanOrEqual(tolerance + fp64Slack(s, b, x));
    }), { numRuns: 25, seed: 3011 });
  });

  it("backend: 'gpu' measures it in double-double: the reported true residual is the exact one", async () => {
    await requireRuntime();
    const s = spd([0.3, 0.9], 6);
    const b = [0.5, -0.25];
    const r = await gmres(s.A, b, { arithmetic: formats.ff, tolerance: 1e-13, backend: 'gpu', strict: true });
    const exact = exactRelativeResidual({ ...s, b: Float64Array.from(b) }, vector(Array.from(toArray(r.x))));
    expect(Math.abs(r.trueResidualNorm - exact)).toBeLessThanOrEqual(1e-3 * exact);
  });
});
