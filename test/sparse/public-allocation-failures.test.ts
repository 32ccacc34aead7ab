/**
 * csrTranspose, ellToCsr, csrToCoo and csrLowerTriangle allocated their results with bare `new Int32Array(…)`, so an
 * allocation the engine refuses (csrTranspose of a CSR matrix with 2^31 − 1 columns needs an 8 GB row pointer) came
 * out as the engine's RangeError, where cooToCsr and csrToEll gave INVALID_SIZE. The engine's refusal is simulated
 * here by typed-array constructors that refuse any length from a limit up, so the test needs no memory.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csrLowerTriangle, csrMatrix, csrToCoo, csrToEll, csrTranspose, ellToCsr, ModprecError } from '../../src/index.js';
import { refuseAllocationsFrom } from './sparse-arbitraries.js';

function codeOf(f: () => unknown): string {
  try { f(); } catch (e) { if (e instanceof ModprecError) return e.code; throw e; }
  return 'none';
}

afterEach(() => { vi.unstubAllGlobals(); });

describe('sparse conversions: an allocation the engine refuses', () => {
  it('is INVALID_SIZE from each conversion, below the limit they still convert', () => {
    const wide = csrMatrix({ rows: 1, cols: 5000, rowPtr: Int32Array.of(0, 2), colIndex: Int32Array.of(4999, 7), values: Float64Array.of(1, -0) });
    const tall = csrMatrix({ rows: 5000, cols: 1, rowPtr: Int32Array.from({ length: 5001 }, (_, i) => (i === 0 ? 0 : 1)), colIndex: Int32Array.of(0), values: Float64Array.of(2) });
    const square = csrMatrix({ rows: 3000, cols: 3000, rowPtr: Int32Array.from({ length: 3001 }, (_, i) => (i === 0 ? 0 : 1)), colIndex: Int32Array.of(0), values: Float64Array.of(3) });
    const ell = csrToEll(tall);
    const many = csrMatrix({ rows: 1, cols: 1, rowPtr: Int32Array.of(0, 3000), colIndex: new Int32Array(3000), values: new Float64Array(3000) });
    refuseAllocationsFrom(2000, ['Int32Array', 'Float64Array']);
    expect(codeOf(() => csrTranspose(wide))).toBe('INVALID_SIZE');      // the transpose's 5001 row pointers
    expect(codeOf(() => ellToCsr(ell))).toBe('INVALID_SIZE');          // 5001 row pointers
    expect(codeOf(() => csrToCoo(many))).toBe('INVALID_SIZE');         // 3000 row indices
    expect(codeOf(() => csrLowerTriangle(square))).toBe('INVALID_SIZE');
    vi.unstubAllGlobals();
    refuseAllocationsFrom(6000, ['Int32Array', 'Float64Array']);
    expect(csrTranspose(wide).rowPtr[5000]).toBe(2);
    expect(Array.from(ellToCsr(ell).rowPtr.subarray(0, 3))).toEqual([0, 1, 1]);
    expect(csrToCoo(many).rowIndex.length).toBe(3000);
    expect(csrLowerTriangle(square).values).toEqual(Float64Array.of(3));
  });
});
