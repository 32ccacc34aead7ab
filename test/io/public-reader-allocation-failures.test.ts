/**
 * readMatrixMarket allocated its arrays with bare `new Int32Array(…)` / `new Float64Array(…)`: within maxBytes (or
 * with maxBytes: Infinity) an allocation the engine refuses came out as its RangeError, where a size over maxBytes is
 * INVALID_SIZE. It is INVALID_SIZE now, naming entries (coordinate) or the larger size (array), as the maxBytes check
 * names them; csrToDense's bookkeeping array likewise. The refusal is simulated by typed-array constructors that refuse
 * any length from a limit up, so the test needs no memory.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModprecError, csrMatrix, csrToDense, readMatrixMarket, readMatrixMarketCsr } from '../../src/index.js';
import { refuseAllocationsFrom } from '../sparse/sparse-arbitraries.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

afterEach(() => { vi.unstubAllGlobals(); });

const coordinate = (n: number, symmetry: string): string =>
  `%%MatrixMarket matrix coordinate real ${symmetry}\n${n} ${n} ${n}\n${Array.from({ length: n }, (_, i) => `${i + 1} 1 ${i / 4}`).join('\n')}\n`;
const array = (rows: number, cols: number): string =>
  `%%MatrixMarket matrix array real general\n${rows} ${cols}\n${Array.from({ length: rows * cols }, (_, k) => k % 3).join('\n')}\n`;

describe('readMatrixMarket: an allocation the engine refuses', () => {
  it('coordinate: INVALID_SIZE naming entries (general and expanded symmetric), for both readers', () => {
    refuseAllocationsFrom(3000, ['Int32Array', 'Float64Array']);
    for (const options of [{}, { maxBytes: Infinity }]) {
      expect(errorOf(() => readMatrixMarket(coordinate(3000, 'general'), options))).toEqual(['INVALID_SIZE', 'entries']);
      expect(errorOf(() => readMatrixMarket(coordinate(1600, 'symmetric'), options))).toEqual(['INVALID_SIZE', 'entries']);
      expect(errorOf(() => readMatrixMarketCsr(coordinate(3000, 'general'), options))).toEqual(['INVALID_SIZE', 'entries']);
    }
    expect(readMatrixMarket(coordinate(1000, 'symmetric')).matrix.rows).toBe(1000); // 1999 entries: below the limit
  });

  it('array: INVALID_SIZE naming the larger size; below the limit it reads', () => {
    refuseAllocationsFrom(3000, ['Float64Array']);
    expect(errorOf(() => readMatrixMarket(array(100, 30)))).toEqual(['INVALID_SIZE', 'rows']);
    expect(errorOf(() => readMatrixMarket(array(30, 100)))).toEqual(['INVALID_SIZE', 'cols']);
    const small = readMatrixMarket(array(40, 50));
    expect(small.format === 'array' && Array.from(small.matrix.data.subarray(0, 4))).toEqual([0, 1, 2, 0]);
  });

  it('csrToDense: its per-element bookkeeping refused is INVALID_SIZE too', () => {
    const A = csrMatrix({ rows: 50, cols: 50, rowPtr: new Int32Array(51), colIndex: new Int32Array(0), values: new Float64Array(0) });
    refuseAllocationsFrom(2500, ['Uint8Array']);
    expect(errorOf(() => csrToDense(A))).toEqual(['INVALID_SIZE', 'dense matrix']);
    vi.unstubAllGlobals();
    expect(csrToDense(A).data.length).toBe(2500);
  });
});
