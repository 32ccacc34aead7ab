/**
 * laplacianEll / laplacianCsr checked the grid sizes with map, which skips the holes of a sparse array: new Array(2)
 * gave the 1 × 1 matrix [4] (two dimensions, no size), and [3, , 4] a 12-row matrix of the wrong stencil. A hole is
 * now what any other non-size is: INVALID_SIZE naming grid[d], the first hole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { laplacianCsr, laplacianEll } from '../../src/index.js';
import { expectModprec } from './sparse-arbitraries.js';

describe('laplacian generators: grids with holes', () => {
  it('the examples: new Array(2) and [3, , 4] are INVALID_SIZE naming the hole', () => {
    expectModprec(() => laplacianCsr(new Array(2)), 'INVALID_SIZE', 'grid[0]');
    expectModprec(() => laplacianEll([3, , 4] as number[]), 'INVALID_SIZE', 'grid[1]');
  });

  it('any grid of 1 to 3 sizes with holes: the first hole is named; without holes the matrix has the grid\'s points', () => {
    fc.assert(fc.property(fc.sparseArray(fc.integer({ min: 0, max: 4 }), { minNumElements: 0, maxLength: 3 }).filter((g) => g.length >= 1), (grid) => {
      const hole = Array.from({ length: grid.length }, (_, d) => d).find((d) => !(d in grid));
      if (hole !== undefined) {
        expectModprec(() => laplacianCsr(grid), 'INVALID_SIZE', `grid[${hole}]`);
        expectModprec(() => laplacianEll(grid), 'INVALID_SIZE', `grid[${hole}]`);
        return;
      }
      const points = grid.reduce((a, b) => a * b, 1);
      expect(laplacianCsr(grid).rows).toBe(points);
      expect(laplacianEll(grid).rows).toBe(points);
    }), { numRuns: 200 });
  });
});
