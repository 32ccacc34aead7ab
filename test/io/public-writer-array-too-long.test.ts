/**
 * writeMatrixMarket of a sparse matrix as an array file built the dense copy before learning that its text could not
 * be a string: a 17000 × 17000 CSR matrix without entries took 18 s and 2.3 GB before INVALID_SIZE, and at 10^5 × 10^5
 * the copy itself failed, as INVALID_SIZE naming 'dense matrix', which is no parameter of the writer. The shortest text
 * (one '0' and a newline per value) is now measured first: INVALID_SIZE naming matrix, before any conversion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeMatrixMarket } from '../../src/io/matrix-market.js';
import { readMatrixMarket } from '../../src/io/matrix-market.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const empty = (rows: number, cols: number) => ({ rows, cols, rowPtr: new Int32Array(rows + 1), colIndex: new Int32Array(0), values: new Float64Array(0) });
const coo = (rows: number, cols: number) => ({ rows, cols, rowIndex: new Int32Array(0), colIndex: new Int32Array(0), values: new Float64Array(0) });

describe('writeMatrixMarket: an array text too long for a string', () => {
  it('sizes whose values alone (2 characters each) pass 2^30 characters: INVALID_SIZE naming matrix, for CSR and COO', () => {
    // about 2^29 values or more: at least 2^30 characters, past V8's longest string (2^29 − 24). CSR rows stay below
    // 2^17 (its row pointers are allocated); a COO matrix has no per-row array, so its rows go to 2^31 − 1.
    const large = fc.integer({ min: 2 ** 15, max: 2 ** 31 - 1 }), rowsCsr = fc.integer({ min: 2 ** 15, max: 2 ** 17 });
    const symmetryArb = fc.constantFrom('general' as const, 'symmetric' as const, 'skew-symmetric' as const);
    fc.assert(fc.property(fc.boolean(), rowsCsr, large, large, symmetryArb, (asCoo, rCsr, rCoo, c, symmetry) => {
      const n = asCoo ? rCoo : rCsr;
      const cols = symmetry === 'general' ? c : n; // a (skew-)symmetric matrix is square
      expectModprec(() => writeMatrixMarket(asCoo ? coo(n, cols) : empty(n, cols), { format: 'array', symmetry }), 'INVALID_SIZE', 'matrix');
    }), { numRuns: 30 });
  });

  it('a non-square matrix with a symmetry stays DIMENSION_MISMATCH, however large', () => {
    expectModprec(() => writeMatrixMarket(coo(2 ** 31 - 1, 2 ** 31 - 2), { format: 'array', symmetry: 'symmetric' }), 'DIMENSION_MISMATCH', 'matrix');
  });

  it('a size just under the check still writes every value and reads back', () => {
    const text = writeMatrixMarket(empty(300, 200), { format: 'array' });
    const back = readMatrixMarket(text);
    expect(back.rows * back.cols).toBe(60000);
    expect(back.format === 'array' && back.matrix.data.every((v) => Object.is(v, 0))).toBe(true);
  });
});
