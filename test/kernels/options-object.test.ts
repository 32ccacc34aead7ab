/**
 * A kernel's or a bound's `options` that is not an object (null, a number, a string, a boolean) is a typed error
 * naming `options`, raised before anything is written, on every CPU backend — not a TypeError (null) and not a
 * silent run with no options (a number or a string). Regression: `dot(x, y, null)` threw "Cannot read properties
 * of null (reading 'into')", `gemv(args, 5)` ran as if no options were given.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  dotBound, gemvBound, trsvBound, ellSpmvBound, axpyBound, waxpbyBound, scalBound, asumBound, nrm2Bound,
} from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { KERNEL_CALLS, kernelOperands as operands, rangeBits, type KernelOperands as Operands } from './kernel-calls.js';

const calls: [string, (o: Operands, options: any) => unknown][] = [
  ...KERNEL_CALLS,
  ['dotBound', (o, p) => dotBound(o.x, o.y, p)], ['asumBound', (o, p) => asumBound(o.x, p)], ['nrm2Bound', (o, p) => nrm2Bound(o.x, p)],
  ['scalBound', (o, p) => scalBound(2, o.x, p)], ['axpyBound', (o, p) => axpyBound(2, o.x, o.y, p)],
  ['waxpbyBound', (o, p) => waxpbyBound(2, o.x, 3, o.y, o.w, p)], ['gemvBound', (o, p) => gemvBound({ alpha: 1, A: o.A, x: o.x, beta: 1, y: o.y }, p)],
  ['trsvBound', (o, p) => trsvBound({ A: o.A, x: o.x }, p)], ['ellSpmvBound', (o, p) => ellSpmvBound({ alpha: 1, A: o.E, x: o.x, beta: 1, y: o.y }, p)],
];

const bits = (o: Operands): string => rangeBits([o.x, o.y, o.w, o.A]);

describe('options that are not an object', () => {
  it.each(calls)('%s: INVALID_OPTION naming options, nothing written', (_, call) => {
    fc.assert(fc.property(fc.constantFrom<unknown>(null, 5, 'gpu', true, 0n), (bad) => {
      const o = operands();
      const before = bits(o);
      expectModprec(() => call(o, bad), 'INVALID_OPTION', 'options');
      expect(bits(o)).toBe(before);
    }), { numRuns: 5 });
    // …while an omitted or empty options object still runs.
    expect(() => call(operands(), undefined)).not.toThrow();
    expect(() => call(operands(), {})).not.toThrow();
  });
});
