/**
 * Split double-double storage (`dd-split`) keeps an element's high and low parts in two Float64Arrays, which a user
 * may build over any memory (`new DdSplitArray({ hi, lo })`): an output's hi or lo that shares memory with an input,
 * or an output whose hi and lo overlap each other, is `INVALID_STORAGE` naming the output, before anything is
 * written — on every CPU backend — and views that share no element still run (docs/guide.md, "Aliasing").
 * Regression: the overlap test compared a dd-split operand as one object, so such calls ran and wrote over their
 * inputs (GEMV's x, TRSV's A, DOT's x) or stored each element's low part over its high part.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { range, rowMajor, matrix, vector, gemv, trsv, axpy, waxpby, scal, dot, DdSplitArray, ModprecError, type Range } from '../../src/index.js';

const BACKENDS = ['js', 'wasm', 'cpu'] as const;

/** A dd-split vector of n elements with increment `inc`, its hi and lo viewed at element offsets of `buffer`. */
function splitOver(buffer: ArrayBuffer, hiAt: number, loAt: number, n: number, inc: number): Range<1> {
  const span = (n - 1) * Math.abs(inc) + 1;
  const data = new DdSplitArray({ hi: new Float64Array(buffer, 8 * hiAt, span), lo: new Float64Array(buffer, 8 * loAt, span) });
  return range(rowMajor<1>({ size: [n], stride: inc, storage: 'dd-split', data }));
}

/** The buffer positions (in doubles) of a view's elements: x over `at` with increment inc. */
function positions(at: number, n: number, inc: number): Set<number> {
  const span = (n - 1) * Math.abs(inc);
  return new Set(Array.from({ length: n }, (_, i) => at + (inc < 0 ? span + i * inc : i * inc)));
}
const meets = (a: Set<number>, b: Set<number>): boolean => [...a].some((p) => b.has(p));

/** Runs `call`; returns the typed error (checking nothing in `buffer` changed) or undefined when it ran. */
function outcome(buffer: ArrayBuffer, call: () => unknown): ModprecError | undefined {
  const before = [...new Float64Array(buffer)].map(String);
  try { call(); } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    expect([...new Float64Array(buffer)].map(String), `${e.code} after writing`).toEqual(before);
    return e;
  }
  return undefined;
}

const layout = fc.record({
  n: fc.integer({ min: 1, max: 6 }), xAt: fc.integer({ min: 0, max: 20 }), hiAt: fc.integer({ min: 0, max: 20 }), loAt: fc.integer({ min: 0, max: 20 }),
  xInc: fc.constantFrom(1, 2, -1), yInc: fc.constantFrom(1, 3, -2), backend: fc.constantFrom(...BACKENDS),
});

describe('dd-split outputs over shared memory', () => {
  it('GEMV y (dd-split) and x in one buffer: refused exactly when y\'s hi or lo meets x or each other', () => {
    fc.assert(fc.property(layout, ({ n, xAt, hiAt, loAt, xInc, yInc, backend }) => {
      const buffer = new ArrayBuffer(8 * 64);
      new Float64Array(buffer).forEach((_, k, a) => { a[k] = k + 1; });
      const x = range(rowMajor<1>({ size: [n], stride: xInc, data: new Float64Array(buffer, 8 * xAt, (n - 1) * Math.abs(xInc) + 1) }));
      const y = splitOver(buffer, hiAt, loAt, n, yInc);
      const px = positions(xAt, n, xInc), ph = positions(hiAt, n, yInc), pl = positions(loAt, n, yInc);
      const A = matrix(n, n, (i, j) => i - j + 0.5);
      const e = outcome(buffer, () => gemv({ alpha: 1, A, x, beta: 0, y }, { backend }));
      expect(e === undefined ? 'ran' : `${e.code} ${e.parameter}`).toBe(meets(px, ph) || meets(px, pl) || meets(ph, pl) ? 'INVALID_STORAGE y' : 'ran');
    }), { numRuns: 300 });
  });

  it('DOT into (dd-split) over x: refused exactly when into\'s hi or lo is an element of x', () => {
    fc.assert(fc.property(layout, ({ n, xAt, hiAt, loAt, xInc, backend }) => {
      const buffer = new ArrayBuffer(8 * 64);
      new Float64Array(buffer).forEach((_, k, a) => { a[k] = k + 1; });
      const x = range(rowMajor<1>({ size: [n], stride: xInc, data: new Float64Array(buffer, 8 * xAt, (n - 1) * Math.abs(xInc) + 1) }));
      const into = splitOver(buffer, hiAt, loAt, 1, 1);
      const px = positions(xAt, n, xInc);
      const e = outcome(buffer, () => dot(x, x, { into, backend }));
      expect(e === undefined ? 'ran' : `${e.code} ${e.parameter}`).toBe(px.has(hiAt) || px.has(loAt) || hiAt === loAt ? 'INVALID_STORAGE options.into' : 'ran');
    }), { numRuns: 200 });
  });

  it('TRSV x (dd-split) whose lo is A\'s storage; AXPY, WAXPBY and SCAL outputs whose hi and lo overlap', () => {
    for (const backend of BACKENDS) {
      const T = matrix(3, 3, (i, j) => (i === j ? 2 : i > j ? 1 : 0));
      const Td = T.accessor.data as Float64Array;
      const x = range(rowMajor<1>({ size: [3], storage: 'dd-split', data: new DdSplitArray({ hi: Float64Array.of(1, 1, 1), lo: Td.subarray(6, 9) }) }));
      expect(outcome(Td.buffer as ArrayBuffer, () => trsv({ A: T, x, uplo: 'L' }, { backend }))?.parameter).toBe('x');
      const both = new Float64Array(4);
      const self = range(rowMajor<1>({ size: [3], storage: 'dd-split', data: new DdSplitArray({ hi: both.subarray(0, 3), lo: both.subarray(1, 4) }) }));
      const v = vector([0.1, 0.2, 0.3]);
      expect(outcome(both.buffer, () => axpy(1, v, self, { backend, arithmetic: 'dd' }))?.parameter).toBe('y');
      expect(outcome(both.buffer, () => waxpby(1, v, 1, v, self, { backend, arithmetic: 'dd' }))?.parameter).toBe('w');
      expect(outcome(both.buffer, () => scal(2, self, { backend, arithmetic: 'dd' }))?.parameter).toBe('x');
    }
  });

  it('still runs: hi and lo as two halves of one buffer, and an element-wise update in place', () => {
    for (const backend of BACKENDS) {
      const buffer = new ArrayBuffer(8 * 6);
      const y = splitOver(buffer, 0, 3, 3, 1);
      axpy(1, vector([1, 2, 3]), y, { backend, arithmetic: 'dd' });
      axpy(2, y, y, { backend, arithmetic: 'dd' });
      waxpby(1, y, 1, y, y, { backend, arithmetic: 'dd' });
      scal(0.5, y, { backend, arithmetic: 'dd' });
      expect([0, 1, 2].map((i) => (y.get(i) as { hi: number }).hi)).toEqual([3, 6, 9]);
    }
  });
});
