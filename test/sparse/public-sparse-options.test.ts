/**
 * The options of the sparse conversions and generators are checked as the kernels check theirs: a non-object options
 * argument is INVALID_OPTION naming `options`, a boolean option given anything but a boolean is INVALID_OPTION naming
 * the field — never read as "no options" or as a truthy/falsy value. Regression: csrToEll(A, 5) and
 * csrLowerTriangle(A, { includeDiagonal: 1 }) were accepted, csrToEll(A, null) threw a TypeError.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ModprecError, cooToEll, csrLowerTriangle, csrToCoo, csrToDense, csrToEll, laplacianCsr, laplacianEll, randomBandedCsr,
  resolveEllStride, resolveEllWidth,
} from '../../src/index.js';

function outcome(f: () => unknown): string {
  try { f(); return 'ok'; } catch (e) { if (e instanceof ModprecError) return `${e.code} ${e.parameter}`; throw e; }
}

const A = laplacianCsr([4]);
const banded = { rows: 6, lowerBandwidth: 1, upperBandwidth: 2, seed: 3 };
/** Every exported sparse function with an options argument, called with `options`. */
const withOptions: [string, (options: unknown) => unknown][] = [
  ['csrToEll', (o) => csrToEll(A, o as never)],
  ['cooToEll', (o) => cooToEll(csrToCoo(A), o as never)],
  ['laplacianEll', (o) => laplacianEll([4], o as never)],
  ['resolveEllStride', (o) => resolveEllStride(4, o as never)],
  ['resolveEllWidth', (o) => resolveEllWidth(3, o as never)],
  ['csrToDense', (o) => csrToDense(A, o as never)],
  ['csrLowerTriangle', (o) => csrLowerTriangle(A, o as never)],
  ['randomBandedCsr', (o) => randomBandedCsr(o as never)],
];
const notObject = fc.oneof(fc.constant(null), fc.double(), fc.integer(), fc.string(), fc.boolean(), fc.bigInt());
const notBoolean = fc.oneof(fc.constant(null), fc.double(), fc.integer(), fc.string(), fc.constantFrom({}, [], [true]));

describe('options of the sparse conversions', () => {
  it('a non-object options argument is INVALID_OPTION naming options', () => {
    fc.assert(fc.property(notObject, fc.constantFrom(...withOptions), (options, [name, call]) => {
      expect(outcome(() => call(options)), `${name}(${String(options)})`).toBe('INVALID_OPTION options');
    }), { numRuns: 300 });
  });

  it('omitted or {} options are the defaults', () => {
    for (const [name, call] of withOptions.filter(([n]) => n !== 'randomBandedCsr')) {
      expect(JSON.stringify(call(undefined)), name).toBe(JSON.stringify(call({})));
    }
    expect(outcome(() => randomBandedCsr(undefined as never))).toBe('INVALID_OPTION options');
  });

  it('a boolean option given anything but a boolean is INVALID_OPTION naming it', () => {
    fc.assert(fc.property(notBoolean, (value) => {
      expect(outcome(() => csrLowerTriangle(A, { includeDiagonal: value as never }))).toBe('INVALID_OPTION options.includeDiagonal');
      expect(outcome(() => randomBandedCsr({ ...banded, diagonallyDominant: value as never }))).toBe('INVALID_OPTION options.diagonallyDominant');
    }), { numRuns: 200 });
  });

  it('the boolean options mean what they say', () => {
    const diagonalCount = (includeDiagonal?: boolean): number => csrLowerTriangle(A, { includeDiagonal }).values.length;
    expect([diagonalCount(), diagonalCount(true), diagonalCount(false)]).toEqual([7, 7, 3]); // tridiag(−1, 2, −1) of order 4
    const D = randomBandedCsr({ ...banded, diagonallyDominant: true });
    for (let i = 0; i < D.rows; i++) {
      let diagonal = 0, off = 0;
      for (let t = D.rowPtr[i]!; t < D.rowPtr[i + 1]!; t++) D.colIndex[t] === i ? (diagonal = D.values[t]!) : (off += Math.abs(D.values[t]!));
      expect(diagonal).toBeGreaterThan(off);
    }
  });
});
