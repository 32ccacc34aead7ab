/**
 * What a skew-symmetric file keeps of signed zeros (docs/matrix-market.md, "Writing"): the lower triangle bit for bit,
 * the upper as its exact negation (so a zero's sign there is its mirror's, flipped), and in an array file, which
 * stores no diagonal, a +0 diagonal; a coordinate file keeps an explicit diagonal zero's sign.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMatrixMarket, writeMatrixMarket } from '../../src/io/matrix-market.js';
import { denseMatrix } from '../../src/sparse/dense-matrix.js';
import { denseToCsr } from '../../src/sparse/csr-dense.js';

/** A dense skew-symmetric n × n matrix (column-major) whose zeros have random signs, diagonal included. */
const skewDense = fc.integer({ min: 1, max: 4 }).chain((n) =>
  fc.tuple(fc.constant(n), fc.array(fc.constantFrom(0, -0, 1, -2.5, 5e-324), { minLength: n * n, maxLength: n * n }), fc.array(fc.boolean(), { minLength: n * n, maxLength: n * n }))
    .map(([n, v, flip]) => {
      const data = new Float64Array(n * n);
      for (let j = 0; j < n; j++) {
        data[j + j * n] = flip[j + j * n] ? -0 : 0;
        for (let i = j + 1; i < n; i++) {
          data[i + j * n] = v[i + j * n]!;
          const mirror = -v[i + j * n]!;
          data[j + i * n] = mirror === 0 && flip[j + i * n] ? -mirror : mirror; // either zero is the negation of a zero
        }
      }
      return denseMatrix({ rows: n, cols: n, ld: n, data });
    }));

describe('skew-symmetric files and signed zeros', () => {
  it('array: lower triangle exact, upper its negation, diagonal +0', () => {
    fc.assert(fc.property(skewDense, (D) => {
      const back = readMatrixMarket(writeMatrixMarket(D, { symmetry: 'skew-symmetric' }));
      if (back.format !== 'array') throw new Error('expected an array file');
      const n = D.rows, B = back.matrix.data;
      for (let j = 0; j < n; j++) {
        expect(Object.is(B[j + j * n], 0)).toBe(true);
        for (let i = j + 1; i < n; i++) {
          expect(Object.is(B[i + j * n], D.data[i + j * n])).toBe(true);
          expect(Object.is(B[j + i * n], -D.data[i + j * n]!)).toBe(true);
        }
      }
    }));
  });

  it('coordinate: an explicit diagonal zero keeps its sign', () => {
    const D = denseMatrix({ rows: 1, cols: 1, ld: 1, data: Float64Array.of(-0) });
    const A = { ...denseToCsr(D), rowPtr: Int32Array.of(0, 1), colIndex: Int32Array.of(0), values: Float64Array.of(-0) };
    const back = readMatrixMarket(writeMatrixMarket(A, { symmetry: 'skew-symmetric' }));
    if (back.format !== 'coordinate') throw new Error('expected a coordinate file');
    expect(Object.is(back.matrix.values[0], -0)).toBe(true);
  });
});
