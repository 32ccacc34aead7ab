/**
 * The sparse helpers' arguments are checked as the constructors check theirs: an options argument that is not an
 * object (null crashed csrToEll, cooToEll, csrToDense, csrLowerTriangle, laplacianEll, resolveEllStride and
 * resolveEllWidth with a TypeError), csrLowerTriangle's includeDiagonal that is not a boolean (a string was read as
 * true), and csrMaxRowLength / ellRowLength on a malformed matrix (a rows of 2^40 made csrMaxRowLength loop for hours
 * over undefined entries) are typed errors naming the parameter. Valid inputs give what the exact oracles count.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, ELL_PADDING, cooToCsr, cooToEll, csrLowerTriangle, csrMatrix, csrMaxRowLength, csrToCoo, csrToDense,
  csrToEll, ellRowLength, ellStructure, laplacianEll, resolveEllStride, resolveEllWidth,
} from '../../src/index.js';
import { cooArbitrary, expectModprec } from './sparse-arbitraries.js';

const notAnObject = fc.constantFrom<unknown>(null, 5, 'x', true, 0n, Symbol('s'));

describe('options that are not objects', () => {
  it('every sparse helper taking options refuses them with INVALID_OPTION naming options', () => {
    fc.assert(fc.property(cooArbitrary({ maxSize: 4, maxEntries: 6 }), notAnObject, (A, bad) => {
      const C = cooToCsr(A);
      const o = bad as never;
      for (const f of [() => csrToEll(C, o), () => cooToEll(A, o), () => csrToDense(C, o), () => csrLowerTriangle(C, o),
        () => laplacianEll([3], o), () => resolveEllStride(3, o), () => resolveEllWidth(3, o)]) {
        expectModprec(f, 'INVALID_OPTION', 'options');
      }
    }), { numRuns: 30 });
  });

  it('includeDiagonal must be a boolean; rows and longest must be sizes', () => {
    const C = cooToCsr(csrToCoo(csrMatrix({ rows: 1, cols: 1, rowPtr: Int32Array.of(0, 1), colIndex: Int32Array.of(0), values: Float64Array.of(2) })));
    for (const v of ['false', 0, 1]) expectModprec(() => csrLowerTriangle(C, { includeDiagonal: v as never }), 'INVALID_OPTION', 'options.includeDiagonal');
    expect(csrLowerTriangle(C, { includeDiagonal: false }).values.length).toBe(0);
    for (const v of [-1, 1.5, NaN, 2 ** 40, '3']) {
      expectModprec(() => resolveEllStride(v as never), 'INVALID_SIZE', 'rows');
      expectModprec(() => resolveEllWidth(v as never), 'INVALID_SIZE', 'longest');
    }
  });
});

describe('csrMaxRowLength and ellRowLength', () => {
  it('csrMaxRowLength: the longest row of a valid matrix; a malformed one is csrMatrix\'s error', () => {
    fc.assert(fc.property(cooArbitrary({ maxSize: 6, maxEntries: 12 }), (A) => {
      const C = cooToCsr(A);
      let longest = 0;
      for (let i = 0; i < C.rows; i++) longest = Math.max(longest, C.rowPtr[i + 1]! - C.rowPtr[i]!);
      expect(csrMaxRowLength(C)).toBe(longest);
      for (const bad of [{ ...C, rows: 2 ** 40 }, { ...C, rows: C.rows + 1 }, { ...C, rowPtr: Array.from(C.rowPtr) }, null]) {
        const expected = (() => { try { csrMatrix(bad as never); } catch (e) { return e; } })() as ModprecError;
        expect(expected).toBeInstanceOf(ModprecError);
        expectModprec(() => csrMaxRowLength(bad as never), expected.code, expected.parameter);
      }
    }), { numRuns: 100 });
  });

  it('ellRowLength: the entries of row i of a valid structure; i outside the rows or a bad shape is an error', () => {
    fc.assert(fc.property(cooArbitrary({ maxSize: 6, maxEntries: 12 }), fc.integer({ min: 0, max: 3 }), (A, extra) => {
      const E = cooToEll(A, { stride: A.rows + extra });
      const S = ellStructure(E);
      const C = cooToCsr(A);
      for (let i = 0; i < A.rows; i++) expect(ellRowLength(S, i)).toBe(C.rowPtr[i + 1]! - C.rowPtr[i]!);
      for (const i of [-1, A.rows, A.rows + extra, 0.5, NaN]) expectModprec(() => ellRowLength(S, i), 'INDEX_OUT_OF_RANGE', 'i');
      expectModprec(() => ellRowLength({ ...S, rows: 2 ** 40 }, 0), 'INVALID_SIZE', 'rows');
      expectModprec(() => ellRowLength({ ...S, colIndex: new Int32Array(S.colIndex.length + 1).fill(ELL_PADDING) }, 0), 'DIMENSION_MISMATCH');
      expectModprec(() => ellRowLength({ ...S, stride: S.rows - 1 }, 0), S.rows === 0 ? 'INVALID_SIZE' : 'INVALID_STRIDE', 'stride');
      expectModprec(() => ellRowLength(null as never, 0), 'INVALID_VALUE', 'A');
    }), { numRuns: 100 });
  });
});
