/**
 * TRSV in an arithmetic without infinities (RNS) refuses a zero pivot, or a non-finite entry of the triangle it
 * reads, before writing anything, naming the entry of A; IEEE arithmetics keep IEEE results.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, matrix, trsv, vector, ModprecError } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';

/** A well-conditioned triangular matrix (both triangles filled; only `uplo`'s is read) with `special` at (r, c). */
function triangular(n: number, r: number, c: number, special: number, storage = formats.f64): Range<2, any> {
  return matrix(n, n, (i, j) => (i === r && j === c ? special : i === j ? 2 + i : 1 / (1 + i + j)), { storage });
}

const system = fc.record({
  n: fc.integer({ min: 1, max: 6 }),
  uplo: fc.constantFrom('U' as const, 'L' as const),
  trans: fc.constantFrom('N' as const, 'T' as const),
  storage: fc.constantFrom(formats.f64, formats.rns212),
}).chain((s) => fc.record({ s: fc.constant(s), k: fc.integer({ min: 0, max: s.n - 1 }), j: fc.integer({ min: 0, max: s.n - 1 }) }));

function thrown(f: () => void): ModprecError {
  try { f(); } catch (e) { return e as ModprecError; }
  throw new Error('expected a ModprecError');
}

describe('TRSV in RNS arithmetic', () => {
  it('a zero pivot anywhere: INVALID_VALUE naming A[k, k], x untouched', () => {
    fc.assert(fc.property(system, ({ s, k }) => {
      const A = triangular(s.n, k, k, 0, s.storage);
      const b = Array.from({ length: s.n }, (_, i) => i + 1);
      const x = vector(b);
      const e = thrown(() => trsv({ A, x, uplo: s.uplo, trans: s.trans }, { arithmetic: formats.rns212 }));
      expect(e).toBeInstanceOf(ModprecError);
      expect(e.code).toBe('INVALID_VALUE');
      expect(e.parameter).toBe(`A[${k}, ${k}]`);
      expect(Array.from({ length: s.n }, (_, i) => x.get(i))).toEqual(b);
    }), { numRuns: 60 });
  });

  it('a non-finite entry in the triangle read: INVALID_VALUE naming it, x untouched; outside it: solved', () => {
    fc.assert(fc.property(system, fc.constantFrom(NaN, Infinity), ({ s, k, j }, v) => {
      const A = triangular(s.n, k, j, v);
      const b = Array.from({ length: s.n }, (_, i) => i + 1);
      const x = vector(b);
      const read = s.uplo === 'U' ? j >= k : j <= k;
      const solve = (): void => trsv({ A, x, uplo: s.uplo, trans: s.trans }, { arithmetic: formats.rns212 });
      if (!read) { solve(); return; }
      const e = thrown(solve);
      expect(e.code).toBe('INVALID_VALUE');
      expect(e.parameter).toBe(`A[${k}, ${j}]`);
      expect(Array.from({ length: s.n }, (_, i) => x.get(i))).toEqual(b);
    }), { numRuns: 60 });
  });

  it('a unit diagonal is never read: a zero there is fine', () => {
    const A = triangular(3, 1, 1, 0);
    const x = vector([1, 2, 3]);
    trsv({ A, x, uplo: 'U', diag: 'U' }, { arithmetic: formats.rns212 });
    expect(x.get(2)).toBe(3);
  });
});

describe('TRSV in IEEE arithmetics with a zero pivot', () => {
  it.each([['f64', formats.f64], ['dd', formats.dd]] as const)('%s: non-finite results as IEEE division gives, no error', (_name, arithmetic) => {
    const A = triangular(2, 1, 1, 0);
    const x = vector([1, 1]);
    trsv({ A, x, uplo: 'U' }, { arithmetic });
    if (arithmetic === formats.f64) expect(x.get(1)).toBe(Infinity);
    expect(Number.isFinite(x.get(0)) || Number.isFinite(x.get(1))).toBe(false);
  });
});
