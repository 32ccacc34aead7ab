/**
 * A bad value is the same typed error on every backend — 'js', 'wasm', 'gpu' and the automatic choice — also where a
 * backend could not run the call anyway: each checks the options, then the values and coefficients the call reads
 * (an RNS arithmetic holds no NaN or ±∞, and no zero pivot), and only then refuses what it cannot run; nothing is
 * written. Regressions (rns106 arithmetic; s8 = a vector stored in i8 with one scale, which RNS on the GPU cannot read):
 * `gemv({ alpha: NaN, A, x: s8, beta: 0, y }, { arithmetic: formats.rns106, backend })` was INVALID_VALUE naming alpha
 * with 'js', INVALID_OPTION naming options.arithmetic with 'wasm' (GEMV and ELL SpMV asked WebAssembly first, DOT and
 * the updates did not) and INVALID_FORMAT naming x with 'gpu' (every kernel's GPU path refused before checking
 * values); and `dot(x, y, { arithmetic: formats.rns106, accumulation: 'bogus' })` with a NaN in x was INVALID_VALUE
 * naming x[1] on the CPU (DOT, ASUM, NRM2 and TRSV read the values before the accumulation) but INVALID_OPTION naming
 * options.accumulation with 'gpu'. The GPU's value checks of an RNS call were rejected promises; they now throw
 * synchronously, as every other refusal does.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  asum, axpy, csrToEll, dot, ellFromMatrix, ellSpmv, formats, gemv, laplacianCsr, matrix, nrm2, range, scal,
  scaledReducedRowMajor, trsv, vector, waxpby,
} from '../../src/index.js';
import { outcome, rangeBits } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** A vector stored in i8 with one scale: fine on the CPU, refused by RNS arithmetic on the GPU and by WebAssembly. */
function s8(values: number[]) {
  const r = range(scaledReducedRowMajor<1>({ size: [values.length], storage: 'i8', scaleMask: [false], scale: new Float64Array([0.5]) }));
  values.forEach((v, i) => r.set(i, v));
  return r;
}

/** A call with one bad value (`bad` in [0, 1): which one, where) and the ranges it may write. */
type Case = (bad: number) => { ranges: Parameters<typeof rangeBits>[0]; run: (options: object) => unknown; expected: string };

const nan = (bad: number, n: number): number[] => Array.from({ length: n }, (_, i) => (i === Math.floor(bad * n) ? (bad < 0.5 ? NaN : -Infinity) : i + 1));

const CASES: Record<string, Case> = {
  'dot (x in i8)': (bad) => { const y = vector(nan(bad, 3)); return { ranges: [y], run: (o) => dot(s8([1, 2, 3]), y, o), expected: `INVALID_VALUE y[${Math.floor(bad * 3)}]` }; },
  asum: (bad) => { const x = vector(nan(bad, 2)); return { ranges: [x], run: (o) => asum(x, o), expected: `INVALID_VALUE x[${Math.floor(bad * 2)}]` }; },
  nrm2: (bad) => { const x = vector(nan(bad, 2)); return { ranges: [x], run: (o) => nrm2(x, o), expected: `INVALID_VALUE x[${Math.floor(bad * 2)}]` }; },
  'axpy (x in i8)': (bad) => { const y = vector([1, 2]); return { ranges: [y], run: (o) => axpy(bad < 0.5 ? NaN : Infinity, s8([1, 2]), y, o), expected: 'INVALID_VALUE alpha' }; },
  'waxpby (x in i8)': (bad) => { const w = vector([7, 7]); return { ranges: [w], run: (o) => waxpby(1, s8([1, 2]), bad < 0.5 ? NaN : -Infinity, vector([1, 2]), w, o), expected: 'INVALID_VALUE beta' }; },
  'scal (x in i8)': (bad) => { const x = s8([1, 2]); return { ranges: [x], run: (o) => scal(bad < 0.5 ? NaN : Infinity, x, o), expected: 'INVALID_VALUE alpha' }; },
  'gemv (x in i8)': (bad) => {
    const y = vector(nan(bad, 2));
    return { ranges: [y], run: (o) => gemv({ alpha: 1, A: matrix(2, 2, (i, j) => i + j + 1), x: s8([1, 2]), beta: 1, y }, o), expected: `INVALID_VALUE y[${Math.floor(bad * 2)}]` };
  },
  'gemv α (x in i8)': (bad) => { const y = vector([1, 2]); return { ranges: [y], run: (o) => gemv({ alpha: bad < 0.5 ? NaN : Infinity, A: matrix(2, 2, () => 1), x: s8([1, 2]), beta: 0, y }, o), expected: 'INVALID_VALUE alpha' }; },
  'ellSpmv (x in i8)': (bad) => {
    const y = vector(nan(bad, 2));
    return { ranges: [y], run: (o) => ellSpmv({ alpha: 1, A: ellFromMatrix(csrToEll(laplacianCsr([2]))), x: s8([1, 2]), beta: 1, y }, o), expected: `INVALID_VALUE y[${Math.floor(bad * 2)}]` };
  },
  'trsv (x in i8)': (bad) => {
    const x = s8([1, 2]), k = Math.floor(bad * 2);
    return { ranges: [x], run: (o) => trsv({ A: matrix(2, 2, (i, j) => (i === j && i === k ? 0 : 1)), x }, o), expected: `INVALID_VALUE A[${k}, ${k}]` };
  },
};

describe('a bad value is one error on every backend, before any refusal of what a backend cannot run', () => {
  it.each(Object.keys(CASES))('%s', async (name) => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), async (bad) => {
      for (const backend of [undefined, 'js', 'wasm', 'gpu']) {
        const c = CASES[name]!(bad);
        const before = rangeBits(c.ranges);
        const options = backend === undefined ? { arithmetic: formats.rns106 } : { arithmetic: formats.rns106, backend };
        expect([backend, await outcome(() => c.run(options))]).toEqual([backend, c.expected]);
        expect(rangeBits(c.ranges)).toBe(before);
      }
    }), { numRuns: 3 });
  });

  it('the options come before the values: a bad accumulation is the error with a NaN in x, on every backend', async () => {
    await requireRuntime();
    const calls: [string, (x: ReturnType<typeof vector>, o: object) => unknown][] = [
      ['dot', (x, o) => dot(x, vector([1, 1]), o)], ['asum', (x, o) => asum(x, o)], ['nrm2', (x, o) => nrm2(x, o)],
      ['trsv', (x, o) => trsv({ A: matrix(2, 2, () => 1), x }, o)], ['axpy', (x, o) => axpy(2, x, vector([1, 1]), o)],
      ['gemv', (x, o) => gemv({ alpha: 1, A: matrix(2, 2, () => 1), x, beta: 0, y: vector(2) }, o)],
    ];
    for (const [name, call] of calls) {
      for (const backend of [undefined, 'js', 'wasm', 'gpu']) {
        const x = vector([1, NaN]);
        const o = { arithmetic: formats.rns106, accumulation: 'bogus', ...(backend === undefined ? {} : { backend }) };
        expect([name, backend, await outcome(() => call(x, o))]).toEqual([name, backend, 'INVALID_OPTION options.accumulation']);
      }
    }
    // Synchronously on the GPU too, before anything runs (docs/gpu.md: only the run itself is asynchronous).
    expect(() => dot(vector([1, NaN]), vector([1, 1]), { arithmetic: formats.rns106, backend: 'gpu' })).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'x[1]' }));
    // TRSV's blockSize, which neither the CPU nor RNS on the GPU takes, comes before a zero pivot too.
    for (const backend of [undefined, 'js', 'wasm', 'gpu']) {
      const x = vector([4, 8]);
      const o = { arithmetic: formats.rns106, blockSize: 64, ...(backend === undefined ? {} : { backend }) };
      expect([backend, await outcome(() => trsv({ A: matrix(2, 2, (i, j) => (i === j ? 0 : 1)), x }, o))]).toEqual([backend, 'INVALID_OPTION options.blockSize']);
      expect(rangeBits([x])).toBe('4,8');
    }
  });
});
