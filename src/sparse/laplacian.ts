/**
 * Finite-difference Laplacians on regular grids: the 1-D 3-point, 2-D 5-point and 3-D 7-point stencils
 * with Dirichlet boundaries (scaled by h², so the diagonal is `2d` and the neighbours are `−1`).
 *
 * The grid point `(x, y, z)` of an `nx × ny × nz` grid is row `x + nx·(y + ny·z)`. The matrix is symmetric
 * positive definite. {@link laplacianEll} writes ELL directly, one pass, without a CSR intermediate, so a
 * 256³ grid (16.8 M rows, 117 M slots) needs only its two ELL arrays (about 1.4 GB).
 *
 * @module
 */
import { fail } from '../core/errors.js';
import type { CsrMatrix } from './csr-matrix.js';
import type { EllMatrix } from './ell-matrix.js';
import { ELL_PADDING } from './ell-matrix.js';
import type { EllLayoutOptions } from './ell-layout.js';
import { resolveEllStride, resolveEllWidth } from './ell-layout.js';
import { ellToCsr } from './ell-to-csr.js';
import { allocateFloat64, allocateInt32, checkDimension, MAX_SPARSE_INDEX } from './sparse-checks.js';

function checkGrid(grid: readonly number[]): number[] {
  if (!Array.isArray(grid) || grid.length < 1 || grid.length > 3) {
    fail('INVALID_SIZE', 'grid', 'must be an array of 1, 2 or 3 grid sizes', grid);
  }
  // Array.from visits holes (map skipped them: new Array(2) built a 1 × 1 matrix, [3, , 4] a wrong one).
  const sizes = Array.from(grid, (n, d) => checkDimension(`grid[${d}]`, n));
  const rows = sizes.reduce((a, b) => a * b, 1);
  if (rows > MAX_SPARSE_INDEX) fail('INVALID_SIZE', 'grid', `has ${rows} points, more than 2^31 - 1`, grid);
  return sizes;
}

/**
 * Builds the Laplacian of a 1-D, 2-D or 3-D grid directly in ELL format. Each row lists its entries in
 * increasing column order (`−z, −y, −x` neighbours, the diagonal, `+x, +y, +z`); boundary rows have fewer
 * entries and end in padding.
 *
 * @param grid - grid sizes `[nx]`, `[nx, ny]` or `[nx, ny, nz]`; e.g. `[256, 256, 256]`
 * @param options - ELL layout (`stride` / `strideMultiple`, `width`); the default width is the longest row
 * @returns an `N × N` ELL matrix, `N = nx·ny·nz`
 * @throws {@link ModprecError} `INVALID_SIZE` for a bad grid or more than 2^31 − 1 points or a matrix too
 *   large to allocate; layout errors as {@link resolveEllStride}
 * @example
 * ```ts
 * import { laplacianEll } from 'modprec';
 *
 * const A = laplacianEll([64, 64, 64], { strideMultiple: 32 }); // 262144 rows, width 7
 * ```
 * @group Sparse & IO
 */
export function laplacianEll(grid: readonly number[], options: EllLayoutOptions = {}): EllMatrix {
  const sizes = checkGrid(grid);
  const dims = sizes.length;
  const rows = sizes.reduce((a, b) => a * b, 1);
  // An axis of length n gives each point min(2, n − 1) neighbours at most.
  const longest = rows === 0 ? 0 : 1 + sizes.reduce((sum, n) => sum + Math.min(2, n - 1), 0);
  const width = resolveEllWidth(longest, options);
  const stride = resolveEllStride(rows, options);
  const colIndex = allocateInt32('stride * width', stride * width).fill(ELL_PADDING);
  const values = allocateFloat64('stride * width', stride * width);
  const [nx = 1, ny = 1, nz = 1] = sizes;
  const step = [1, nx, nx * ny]; // row distance to the next point along x, y, z
  const diagonal = 2 * dims;
  const coord = [0, 0, 0];
  const size = [nx, ny, nz];
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const i = x + nx * (y + ny * z);
        coord[0] = x; coord[1] = y; coord[2] = z;
        let at = i;
        for (let d = dims - 1; d >= 0; d--) {
          if (coord[d]! > 0) { colIndex[at] = i - step[d]!; values[at] = -1; at += stride; }
        }
        colIndex[at] = i; values[at] = diagonal; at += stride;
        for (let d = 0; d < dims; d++) {
          if (coord[d]! < size[d]! - 1) { colIndex[at] = i + step[d]!; values[at] = -1; at += stride; }
        }
      }
    }
  }
  return { rows, cols: rows, width, stride, colIndex, values };
}

/**
 * Builds the Laplacian of a 1-D, 2-D or 3-D grid in canonical CSR (same matrix as {@link laplacianEll}).
 *
 * @param grid - grid sizes `[nx]`, `[nx, ny]` or `[nx, ny, nz]`
 * @returns an `N × N` CSR matrix with columns increasing in each row
 * @throws {@link ModprecError} as {@link laplacianEll}
 * @example
 * ```ts
 * import { laplacianCsr } from 'modprec';
 *
 * const A = laplacianCsr([3, 3]); // 9 × 9, diagonal 4, 33 entries
 * ```
 * @group Sparse & IO
 */
export function laplacianCsr(grid: readonly number[]): CsrMatrix {
  return ellToCsr(laplacianEll(grid));
}
