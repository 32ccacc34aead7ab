/**
 * GMRES's restart m above the order n of A: a Krylov space of A has at most n dimensions, so m is taken as n. A basis
 * of m + 1 vectors (and m² Gram–Schmidt coefficients) for any m the option accepted exhausted memory: restart 10⁶ on a
 * 2×2 system killed the process. Checked: the solve with any m ≥ n is the solve with m = n, bit for bit, and it meets
 * its tolerance against the residual recomputed exactly (BigInt rationals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gmres, formats, toArray } from '../../src/index.js';
import { exactRelativeResidual } from './dense-residual.js';
import { nonsymmetricSystem } from './solver-fixtures.js';

describe('GMRES restart above the order of A', () => {
  it('restart 10⁹ on a 2×2 system runs (and converges)', () => {
    const r = gmres({ rows: 2, cols: 2, ld: 2, data: Float64Array.of(2, 1, 0, 3) }, [1, 1], { restart: 1e9, tolerance: 1e-12 });
    expect(r.status).toBe('converged');
    expect(r.iterations).toBeLessThanOrEqual(2);
  });

  it('any restart ≥ n is restart n, bit for bit (fp64, fp32 and fp16 bases)', () => {
    fc.assert(fc.property(nonsymmetricSystem, fc.integer({ min: 0, max: 2 ** 40 }), fc.constantFrom(formats.f64, formats.f32, formats.f16), (s, extra, basisStorage) => {
      const options = { tolerance: 1e-10, basisStorage, maxIterations: 4 * s.n + 8 };
      const big = gmres(s.A, s.b, { ...options, restart: s.n + extra });
      const exact = gmres(s.A, s.b, { ...options, restart: s.n });
      expect([big.status, big.breakdown, big.iterations, big.history, big.trueResidualNorm])
        .toEqual([exact.status, exact.breakdown, exact.iterations, exact.history, exact.trueResidualNorm]);
      expect(toArray(big.x)).toEqual(toArray(exact.x));
      if (big.status === 'converged') expect(exactRelativeResidual(s, big.x)).toBeLessThanOrEqual(1e-10 * (1 + 1e-6) + 64 * s.n * 2 ** -53);
    }), { numRuns: 60 });
  });
});
