/**
 * ELL SpMV given a dense range as A (GEMV's operand) refuses it as `INVALID_OPTION` naming `A`, before anything is
 * written, on every CPU backend and in ellSpmvBound. Regression: the range went to the EllMatrix validation, which
 * named its first missing field: "rows must be a non-negative integer, got undefined" (INVALID_SIZE, `rows`).
 */
import { describe, it, expect } from 'vitest';
import { ellSpmv, ellSpmvBound, matrix, vector, toArray, ModprecError } from '../../src/index.js';

function refusal(f: () => unknown): string {
  try { f(); } catch (e) { if (e instanceof ModprecError) return `${e.code} ${e.parameter}`; throw e; }
  return 'ran';
}

describe('ELL SpMV with a dense A', () => {
  it('is INVALID_OPTION naming A, y untouched', () => {
    const A = matrix(3, 3, (i, j) => i + j), x = vector([1, 1, 1]);
    for (const backend of ['js', 'wasm', 'cpu'] as const) {
      const y = vector([7, 8, 9]);
      expect(refusal(() => ellSpmv({ alpha: 1, A: A as never, x, beta: 0, y }, { backend }))).toBe('INVALID_OPTION A');
      expect([...toArray(y)]).toEqual([7, 8, 9]);
    }
    expect(refusal(() => ellSpmvBound({ alpha: 1, A: A as never, x, beta: 0, y: vector(3) }))).toBe('INVALID_OPTION A');
  });
});
