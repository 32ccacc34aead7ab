/** Row-major accessors (last dimension contiguous): index → storage element, with leading dimensions and offsets. */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { rowMajor } from '../../accessors/row-major.js';
import { bufferLengthFor, expectLayout, markedBuffer } from './support/layout-mapping.js';
import { layoutDraw } from './support/shape-arbitraries.js';
import { runs } from './support/runs.js';

describe('rowMajor', () => {
  it('2-D: (i, j) is element offset + i·ld + j for any leading dimension ld ≥ n', () => {
    fc.assert(fc.property(layoutDraw(2), ({ size: [m, n], padding: [pad], offset, written }) => {
      const ld = n! + pad!;
      const at = (ix: readonly number[]) => offset + ix[0]! * ld + ix[1]!;
      const data = markedBuffer(bufferLengthFor([at([m! - 1, n! - 1])]));
      expectLayout(rowMajor({ size: [m!, n!], stride: ld, offset, data }), data, at, written);
    }), { numRuns: runs(100) });
  });

  it('3-D: (i, j, k) is element offset + i·s0 + j·s1 + k with s1 ≥ size[2] and s0 ≥ s1·(size[1] − 1) + size[2]', () => {
    fc.assert(fc.property(layoutDraw(3), ({ size: [a, b, c], padding: [p0, p1], offset, written }) => {
      const s1 = c! + p1!;
      const s0 = s1 * (b! - 1) + c! + p0!;
      const at = (ix: readonly number[]) => offset + ix[0]! * s0 + ix[1]! * s1 + ix[2]!;
      const data = markedBuffer(bufferLengthFor([at([a! - 1, b! - 1, c! - 1])]));
      expectLayout(rowMajor({ size: [a!, b!, c!], stride: [s0, s1], offset, data }), data, at, written);
    }), { numRuns: runs(100) });
  });

  it('packed by default: the last index moves fastest', () => {
    fc.assert(fc.property(layoutDraw(3), ({ size: [a, b, c], written }) => {
      const at = (ix: readonly number[]) => (ix[0]! * b! + ix[1]!) * c! + ix[2]!;
      const data = markedBuffer(a! * b! * c!);
      expectLayout(rowMajor({ size: [a!, b!, c!], data }), data, at, written);
    }), { numRuns: runs(50) });
  });

  it('1-D with a BLAS increment: element i is offset + i·inc; a negative inc starts at the far end by default', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: -3, max: 3 }).filter((s) => s !== 0), fc.integer({ min: 0, max: 7 }),
      (n, inc, written) => {
        fc.pre(written < n);
        // BLAS: with incX < 0, x(1) is the LAST element stored, at (n − 1)·|incX|.
        const at = (ix: readonly number[]) => (inc < 0 ? (n - 1) * -inc : 0) + ix[0]! * inc;
        const data = markedBuffer(bufferLengthFor([(n - 1) * Math.abs(inc)]));
        expectLayout(rowMajor<1>({ size: [n], stride: inc, data }), data, at, [written]);
      }), { numRuns: runs(100) });
  });
});
