/** The general strided accessor: one explicit stride per dimension, negative strides included (transposes, reversals). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { strided } from '../../accessors/strided.js';
import { bufferLengthFor, expectLayout, markedBuffer } from './support/layout-mapping.js';
import { shapeOf } from './support/shape-arbitraries.js';
import { runs } from './support/runs.js';

const nonZeroStride = fc.integer({ min: -12, max: 12 }).filter((s) => s !== 0);

describe('strided', () => {
  it.each([1, 2, 3])('%i-D: index is element offset + Σ i_d·s_d, the default offset making negative strides start at the far end', (dims) => {
    fc.assert(fc.property(
      shapeOf(dims).chain((size) => fc.tuple(fc.constant(size), fc.array(nonZeroStride, { minLength: dims, maxLength: dims }),
        fc.tuple(...size.map((s) => fc.integer({ min: 0, max: s - 1 }))))),
      ([size, strides, written]) => {
        // The lowest element reached must be element 0: each negative stride adds |s|·(size − 1) to the offset.
        const offset = strides.reduce((o, s, d) => o + (s < 0 ? -s * (size[d]! - 1) : 0), 0);
        const at = (ix: readonly number[]) => offset + ix.reduce((k, i, d) => k + i * strides[d]!, 0);
        const far = size.map((s, d) => (strides[d]! > 0 ? s - 1 : 0));
        const data = markedBuffer(bufferLengthFor([at(far)]));
        expectLayout(strided({ size: size as never, strides: strides as never, data }), data, at, written);
      }), { numRuns: runs(100) });
  });

  it('views a row-major matrix as its transpose (strides [1, ld])', () => {
    fc.assert(fc.property(shapeOf(2), fc.integer({ min: 0, max: 3 }), ([m, n], pad) => {
      const ld = n! + pad;
      const data = markedBuffer(bufferLengthFor([(m! - 1) * ld + n! - 1]));
      // Aᵀ(j, i) = A(i, j) = data[i·ld + j]
      expectLayout(strided({ size: [n!, m!], strides: [1, ld], data }), data, (ix) => ix[1]! * ld + ix[0]!, [n! - 1, 0]);
    }), { numRuns: runs(50) });
  });
});

describe('default storage of negative strides', () => {
  // Known bug (accessors/layout-options.ts, makeAccessor): the allocation adds the reach of every stride to an
  // offset that already includes the reach of the negative ones, so a reversed vector gets about twice the memory
  // it needs. Fix: allocate offset + 1 + Σ_{s_d > 0} s_d·(size_d − 1) elements (the highest element reached, plus one).
  it('allocates exactly the elements the view reaches', () => {
    fc.assert(fc.property(shapeOf(2), fc.array(nonZeroStride, { minLength: 2, maxLength: 2 }), (size, strides) => {
      const reach = size.reduce((r, s, d) => r + Math.abs(strides[d]!) * (s - 1), 0);
      const A = strided({ size: size as [number, number], strides: strides as [number, number] });
      expect((A.data as Float64Array).length).toBe(reach + 1);
    }), { numRuns: runs(50), seed: 3 });
  });
});
