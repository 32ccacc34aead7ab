/**
 * A b of finite entries whose ‖b‖₂ lies beyond the double range: (1.7e308, −1.7e308) has ‖b‖₂ = 2.4e308. The solvers
 * scale b by a power of two where ‖b‖₂ lies outside [2^-32, 2^32], but they measured ‖b‖₂ as +∞ and took that as "no
 * scale": every Krylov solver broke down 'non-finite' at 0 iterations on 2·I with x = 0 and a true residual of +∞,
 * where the solution (8.5e307, −8.5e307) is a double (iterative refinement solved it). The scale now comes from the
 * exponent of ‖b‖₂, measured without overflow: as docs/solvers.md says, cg(A, 2ʲ·b).x is exactly 2ʲ·cg(A, b).x.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, formats, gmres, jacobiCg, matrix, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];

const diagonal = (d: readonly number[]) => matrix(d.length, d.length, (i, j) => (i === j ? d[i]! : 0));

describe('a b whose 2-norm overflows', () => {
  it.each(solvers)('the reported case, %s: 2·I and b = (1.7e308, −1.7e308) converge to x = b/2', (_, solve) => {
    const r = solve(diagonal([2, 2]), [1.7e308, -1.7e308], {});
    expect([r.status, r.breakdown, r.trueResidualNorm]).toEqual(['converged', undefined, 0]);
    expect(Array.from(toArray(r.x))).toEqual([8.5e307, -8.5e307]);
  });

  // b's entries in [2^1019, 1.99·2^1023] (rounded to fp16's 11 bits, 2^1023·(2 − 2^-52) is 2^1024: 'non-finite'),
  // A = diag(1 … 16): ‖b‖₂ overflows for n ≥ 2 and large entries.
  const top = fc.tuple(fc.integer({ min: 1019, max: 1023 }), fc.double({ min: 1, max: 1.99, noNaN: true }), fc.boolean())
    .map(([e, m, negative]) => (negative ? -1 : 1) * m * 2 ** e);
  const system = fc.array(top, { minLength: 1, maxLength: 4 })
    .chain((b) => fc.tuple(fc.constant(b), fc.array(fc.integer({ min: 1, max: 16 }), { minLength: b.length, maxLength: b.length })));
  const o = { tolerance: 1e-6, maxIterations: 40 };

  it('near the top of the double range, x is exactly 2^1000 times the x of b·2^-1000 (fp64, fp32, bf16, dd vectors)', () => {
    fc.assert(fc.property(system, fc.constantFrom(...solvers), fc.constantFrom(formats.f64, formats.f32, formats.bf16, formats.dd), ([b, d], [, solve], storage) => {
      const big = solve(diagonal(d), b, { ...o, storage });
      const small = solve(diagonal(d), b.map((v) => v * 2 ** -1000), { ...o, storage });
      expect(big.status).toBe(small.status);
      expect(big.history).toEqual(small.history);
      expect(Array.from(toArray(big.x))).toEqual(Array.from(toArray(small.x), (v) => v * 2 ** 1000));
    }), { numRuns: 30, seed: 2811 });
  });

  it('fp16 vectors: a finite x, never the breakdown non-finite (where ‖b‖₂ ≥ 2^1024 the solve runs at ‖b‖₂ in [2, 4√n), not [1, 2))', () => {
    fc.assert(fc.property(system, fc.constantFrom(...solvers), ([b, d], [, solve]) => {
      const r = solve(diagonal(d), b, { ...o, storage: formats.f16 });
      expect(r.breakdown).not.toBe('non-finite');
      expect(toArray(r.x).every(Number.isFinite)).toBe(true);
    }), { numRuns: 20, seed: 2812 });
  });
});
