/**
 * Very long number tokens. The reader's real-number syntax had the decimal point optional between two digit runs
 * (`\d+\.?\d*`), so a long run of digits that failed at its end was tried split at every place: a 16,000-digit token
 * took 0.2 s to reject and the time grew with the square of the length (a 4,000,000-digit one: hours — a malformed
 * file hung the reader instead of raising PARSE_ERROR). Both sides of the point are now one path; the accepted
 * language is unchanged, so valid long tokens read as Number() reads them and malformed ones are PARSE_ERRORs.
 */
import { describe, expect, it } from 'vitest';
import { readMatrixMarket } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const DIGITS = 4_000_000;
const run = '7'.repeat(DIGITS);

function valueOf(token: string, allowNonFinite = false): number {
  const data = readMatrixMarket(`%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 ${token}\n`, { allowNonFinite });
  if (data.format !== 'coordinate') throw new Error('expected a coordinate file');
  return data.matrix.values[0]!;
}

describe('a number token of millions of digits', () => {
  it('is refused with PARSE_ERROR when it goes wrong at its end (digits, point, Fortran exponent)', () => {
    for (const token of [`${run}x`, `${run}.${run}x`, `-.${run}e`, `${run}e+x`, `${run}d${run}x`, `${run}.${run}D5x`]) {
      const e = expectModprec(() => valueOf(token), 'PARSE_ERROR', 'line 3');
      expect(e.message).toMatch(/^line 3: value /);
    }
    // a well-formed Fortran exponent still gets its hint
    expect(expectModprec(() => valueOf(`1${'0'.repeat(1000)}.5D-3`), 'PARSE_ERROR', 'line 3').message).toContain("write '1");
  });

  it('reads as Number() reads it when it is well formed', () => {
    const tokens = [`${run}e-${DIGITS - 1}`, `0.${'0'.repeat(DIGITS)}3e${DIGITS}`, `-.${run}`, `+${run}.${run}E-${DIGITS}`];
    for (const token of tokens) {
      const v = valueOf(token);
      expect(Number.isFinite(v)).toBe(true);
      expect(Object.is(v, Number(token))).toBe(true);
    }
    // beyond the double range: refused without allowNonFinite, infinity with it
    expectModprec(() => valueOf(run), 'PARSE_ERROR', 'line 3');
    expect(valueOf(`-${run}`, true)).toBe(-Infinity);
  });
});
