/** Block-column-major accessors (Ginkgo's block_col_major: a stack of column-major matrices, middle dimension contiguous). */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { blockColMajor } from '../../accessors/block-col-major.js';
import { bufferLengthFor, expectLayout, markedBuffer } from './support/layout-mapping.js';
import { layoutDraw } from './support/shape-arbitraries.js';
import { runs } from './support/runs.js';

describe('blockColMajor', () => {
  it('(b, i, j) is element offset + b·blockStride + i + j·ld with ld ≥ rows and blockStride ≥ ld·(cols − 1) + rows', () => {
    fc.assert(fc.property(layoutDraw(3), ({ size: [blocks, m, n], padding: [pBlock, pLd], offset, written }) => {
      const ld = m! + pLd!;
      const blockStride = ld * (n! - 1) + m! + pBlock!;
      const at = (ix: readonly number[]) => offset + ix[0]! * blockStride + ix[1]! + ix[2]! * ld;
      const data = markedBuffer(bufferLengthFor([at([blocks! - 1, m! - 1, n! - 1])]));
      expectLayout(blockColMajor({ size: [blocks!, m!, n!], stride: [blockStride, ld], offset, data }), data, at, written);
    }), { numRuns: runs(100) });
  });

  it('packed by default: rows fastest, then columns, then blocks', () => {
    fc.assert(fc.property(layoutDraw(3), ({ size: [blocks, m, n], written }) => {
      const data = markedBuffer(blocks! * m! * n!);
      expectLayout(blockColMajor({ size: [blocks!, m!, n!], data }), data, (ix) => ix[0]! * m! * n! + ix[1]! + ix[2]! * m!, written);
    }), { numRuns: runs(50) });
  });

  it('in 2-D is the column-major layout', () => {
    fc.assert(fc.property(layoutDraw(2), ({ size: [m, n], written }) => {
      const data = markedBuffer(m! * n!);
      expectLayout(blockColMajor<2>({ size: [m!, n!], data }), data, (ix) => ix[0]! + ix[1]! * m!, written);
    }), { numRuns: runs(30) });
  });
});
