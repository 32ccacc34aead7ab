import { describe, expect, it } from 'vitest';
import { csrToDense } from '../../src/sparse/csr-dense.js';
import { csrToEll } from '../../src/sparse/csr-to-ell.js';
import { ellMatrix, ELL_PADDING } from '../../src/sparse/ell-matrix.js';
import { laplacianCsr, laplacianEll } from '../../src/sparse/laplacian.js';
import { isSymmetricCsr } from '../../src/sparse/symmetric.js';
import { expectModprec } from './sparse-arbitraries.js';

/** Grid coordinates of point p on a grid of the given sizes (x fastest). */
function coordinates(p: number, grid: readonly number[]): number[] {
  return grid.map((n) => { const c = p % n; p = Math.floor(p / n); return c; });
}

/** Oracle from the definition: 2d on the diagonal, −1 between grid points at Manhattan distance 1. */
function denseLaplacian(grid: readonly number[]): (p: number, q: number) => number {
  return (p, q) => {
    if (p === q) return 2 * grid.length;
    const a = coordinates(p, grid), b = coordinates(q, grid);
    return a.reduce((sum, c, d) => sum + Math.abs(c - b[d]!), 0) === 1 ? -1 : 0;
  };
}

const grids = [[1], [2], [7], [1, 1], [3, 1], [1, 4], [4, 3], [5, 5], [2, 2, 2], [3, 4, 2], [4, 1, 3], [1, 1, 5]];

describe('laplacianCsr / laplacianEll', () => {
  it.each(grids)('%j matches the stencil definition entry by entry, canonical and symmetric', (...grid) => {
    const A = laplacianCsr(grid);
    const N = grid.reduce((a, b) => a * b, 1);
    expect([A.rows, A.cols]).toEqual([N, N]);
    const D = csrToDense(A);
    const expected = denseLaplacian(grid);
    for (let p = 0; p < N; p++) for (let q = 0; q < N; q++) expect(D.data[p + q * D.ld]).toBe(expected(p, q));
    for (let i = 0; i < N; i++) for (let t = A.rowPtr[i]! + 1; t < A.rowPtr[i + 1]!; t++) expect(A.colIndex[t]).toBeGreaterThan(A.colIndex[t - 1]!);
    expect(isSymmetricCsr(A)).toBe(true);
  });

  it.each(grids)('%j: ELL built directly equals CSR → ELL, with the tight width', (...grid) => {
    for (const options of [{}, { strideMultiple: 32 }, { stride: 200, width: 9 }]) {
      const E = laplacianEll(grid, options);
      const F = csrToEll(laplacianCsr(grid), options);
      ellMatrix(E);
      expect([E.width, E.stride]).toEqual([F.width, F.stride]);
      expect(E.colIndex).toEqual(F.colIndex);
      expect(E.values).toEqual(F.values);
    }
  });

  it('a 40³ grid has the entry count of the stencil and 7 slots, padding only on the boundary', () => {
    const n = 40;
    const E = laplacianEll([n, n, n], { strideMultiple: 32 });
    let entries = 0;
    for (let at = 0; at < E.colIndex.length; at++) if (E.colIndex[at] !== ELL_PADDING) entries++;
    expect(entries).toBe(n ** 3 + 3 * 2 * (n - 1) * n * n); // diagonal + two entries per grid edge
    expect(E.width).toBe(7);
    const interior = 1 + n * (1 + n); // point (1, 1, 1)
    expect(Array.from({ length: 7 }, (_, k) => E.colIndex[interior + k * E.stride])).toEqual(
      [interior - n * n, interior - n, interior - 1, interior, interior + 1, interior + n, interior + n * n]);
    expect(Array.from({ length: 7 }, (_, k) => E.values[interior + k * E.stride])).toEqual([-1, -1, -1, 6, -1, -1, -1]);
  });

  it('handles empty grids and rejects bad ones', () => {
    const E = laplacianEll([0, 5]);
    expect([E.rows, E.width, E.colIndex.length]).toEqual([0, 0, 0]);
    expectModprec(() => laplacianEll([]), 'INVALID_SIZE', 'grid');
    expectModprec(() => laplacianEll([2, 2, 2, 2]), 'INVALID_SIZE', 'grid');
    expectModprec(() => laplacianEll([3, -1]), 'INVALID_SIZE', 'grid[1]');
    expectModprec(() => laplacianEll([2048, 2048, 1024]), 'INVALID_SIZE', 'grid');
    expectModprec(() => laplacianEll([4, 4], { width: 3 }), 'INVALID_SIZE', 'options.width');
  });
});
