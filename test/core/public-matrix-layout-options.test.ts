/**
 * matrix() passes the layout options of colMajor / rowMajor through, as vector() does: a leading dimension, an offset
 * and a caller's buffer make a view whose elements sit where the layout puts them (they were dropped: the fill went
 * into a new packed buffer and the caller's stayed untouched).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, matrix, ModprecError, vector } from '../../src/index.js';

const errorOf = (f: () => unknown): [string, string] | undefined => {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return undefined;
};

describe('matrix() with layout options', () => {
  it('fills a caller\'s buffer at offset + i·ld + j (row-major) or offset + i + j·ld (column-major), nothing else', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 4 }), fc.boolean(), (m, n, pad, offset, rowMajor) => {
      const ld = Math.max(1, rowMajor ? n : m) + pad; // as BLAS: ld ≥ max(1, extent)
      const outer = rowMajor ? m : n;
      const length = offset + Math.max(1, ld * outer);
      const data = new Float64Array(length).fill(-7);
      const fill = (i: number, j: number): number => 10 * i + j + 0.5;
      const A = matrix(m, n, fill, { layout: rowMajor ? 'row-major' : 'col-major', stride: ld, offset, data } as never);
      expect(A.accessor.data).toBe(data);
      const want = new Float64Array(length).fill(-7);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) want[offset + (rowMajor ? i * ld + j : i + j * ld)] = fill(i, j);
      expect([...data]).toEqual([...want]);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) expect(A.get(i, j)).toBe(fill(i, j));
    }), { numRuns: 100 });
  });

  it('refuses a leading dimension below the extent it steps over, naming stride, as colMajor does', () => {
    expect(errorOf(() => matrix(3, 2, undefined, { stride: 2 } as never))).toEqual(['INVALID_STRIDE', 'stride']);
    expect(errorOf(() => matrix(3, 2, undefined, { layout: 'row-major', stride: 1 } as never))).toEqual(['INVALID_STRIDE', 'stride']);
    // A size key cannot resize it (as in vector()).
    expect(matrix(2, 3, undefined, { size: [9, 9] } as never).accessor.size).toEqual([2, 3]);
    expect(vector([1, 2], { size: [9] } as never).length()).toBe(2);
  });

  it('a buffer of the wrong type for the storage is refused before anything is written', () => {
    const data = new Float64Array(4).fill(3);
    expect(errorOf(() => matrix(2, 2, () => 1, { storage: formats.f32, data } as never))?.[1]).toBe('data');
    expect([...data]).toEqual([3, 3, 3, 3]);
  });
});
