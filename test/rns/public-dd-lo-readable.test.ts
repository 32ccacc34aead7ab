/**
 * RNS arithmetic over double-double storage whose raw pair has a finite hi and a non-finite lo (a `data` array the
 * user filled; the dd writes refuse such a pair). RNS has no NaN or infinity, so the kernels refuse every value they
 * would read that is not finite: `INVALID_VALUE` naming the operand and index, before anything is written
 * (kernels/shared/kernel-options.ts, checkReadableIn). It checked only hi, so such a pair failed in the
 * conversion part-way through the kernel, naming its own `lo`, after earlier elements of the output were written.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, asum, dot, formats, gemv, ModprecError, nrm2, range, rowMajor, scal, vector, waxpby, type Range } from '../../src/index.js';

/** A dd-storage vector over raw pairs: element `bad` is (hi, lo) with a non-finite lo, the others finite. */
function ddVector(his: readonly number[], bad: number, lo: number): Range<1> {
  const data = new Float64Array(2 * his.length);
  his.forEach((h, k) => { data[2 * k] = h; data[2 * k + 1] = k === bad ? lo : 0; });
  return range(rowMajor<1>({ size: [his.length], storage: formats.dd, arithmetic: formats.f64, data }));
}

const raw = (r: Range<any>): number[] => Array.from(r.accessor.data as Float64Array);

function expectRefused(call: () => unknown, parameter: string, outputs: Range<any>[]): void {
  const before = outputs.map(raw);
  let error: unknown;
  try { call(); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(ModprecError);
  expect(`${(error as ModprecError).code} ${(error as ModprecError).parameter}`).toBe(`INVALID_VALUE ${parameter}`);
  outputs.forEach((o, k) => expect(raw(o), `output ${k} written before the error`).toEqual(before[k]));
}

const case_ = fc.integer({ min: 2, max: 12 }).chain((n) => fc.record({
  his: fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }),
  bad: fc.integer({ min: 1, max: n - 1 }), // never the first: earlier elements would have been written
  lo: fc.constantFrom(NaN, Infinity, -Infinity),
  backend: fc.constantFrom('cpu', 'js'),
}));

describe('RNS arithmetic refuses a dd pair with a non-finite lo before writing', () => {
  it('every kernel that reads it, naming the operand and index', () => {
    fc.assert(fc.property(case_, ({ his, bad, lo, backend }) => {
      const n = his.length;
      const options = { arithmetic: formats.rns106, backend } as const;
      const at = `x[${bad}]`;
      const x = () => ddVector(his, bad, lo);
      const ones = () => vector(new Array(n).fill(1));
      for (const [name, call] of [
        ['dot', () => dot(x(), ones(), options)],
        ['asum', () => asum(x(), options)],
        ['nrm2', () => nrm2(x(), options)],
      ] as const) expectRefused(call, at, []);
      const y = ones();
      expectRefused(() => axpy(2, x(), y, options), at, [y]);
      const w = vector(n);
      expectRefused(() => waxpby(1, ones(), 1, x(), w, options), `y[${bad}]`, [w]);
      const inPlace = x();
      expectRefused(() => scal(3, inPlace, options), at, [inPlace]);
      // GEMV: x read in full, y written row by row.
      const A = range(rowMajor({ size: [n, n], arithmetic: formats.f64 }));
      for (let i = 0; i < n; i++) A.set(i, i, 1);
      const out = ones();
      expectRefused(() => gemv({ alpha: 1, A, x: x(), beta: 1, y: out }, options), at, [out]);
    }), { numRuns: 40 });
  });
});
