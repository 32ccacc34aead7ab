/** Column-major accessors (first dimension contiguous): index → storage element, with leading dimensions and offsets. */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { colMajor } from '../../accessors/col-major.js';
import { bufferLengthFor, expectLayout, markedBuffer } from './support/layout-mapping.js';
import { layoutDraw } from './support/shape-arbitraries.js';
import { runs } from './support/runs.js';

describe('colMajor', () => {
  it('2-D: (i, j) is element offset + i + j·ld for any leading dimension ld ≥ m (BLAS/LAPACK)', () => {
    fc.assert(fc.property(layoutDraw(2), ({ size: [m, n], padding: [pad], offset, written }) => {
      const ld = m! + pad!;
      const at = (ix: readonly number[]) => offset + ix[0]! + ix[1]! * ld;
      const data = markedBuffer(bufferLengthFor([at([m! - 1, n! - 1])]));
      expectLayout(colMajor({ size: [m!, n!], stride: ld, offset, data }), data, at, written);
    }), { numRuns: runs(100) });
  });

  it('3-D: (i, j, k) is element offset + i + j·s0 + k·s1 with s0 ≥ size[0] and s1 ≥ s0·(size[1] − 1) + size[0]', () => {
    fc.assert(fc.property(layoutDraw(3), ({ size: [a, b, c], padding: [p0, p1], offset, written }) => {
      const s0 = a! + p0!;
      const s1 = s0 * (b! - 1) + a! + p1!;
      const at = (ix: readonly number[]) => offset + ix[0]! + ix[1]! * s0 + ix[2]! * s1;
      const data = markedBuffer(bufferLengthFor([at([a! - 1, b! - 1, c! - 1])]));
      expectLayout(colMajor({ size: [a!, b!, c!], stride: [s0, s1], offset, data }), data, at, written);
    }), { numRuns: runs(100) });
  });

  it('packed by default: the first index moves fastest', () => {
    fc.assert(fc.property(layoutDraw(2), ({ size: [m, n], written }) => {
      const data = markedBuffer(m! * n!);
      expectLayout(colMajor({ size: [m!, n!], data }), data, (ix) => ix[0]! + ix[1]! * m!, written);
    }), { numRuns: runs(50) });
  });
});
