/**
 * The exported allocation-free double-double functions check their arguments: an `out` that is not a Float64Array of
 * length ≥ 2 (undefined, null, a Float32Array, a plain array, a Float64Array(1)) threw a TypeError, rounded a part to
 * float, or silently dropped the low part; an operand that is a Symbol or a BigInt threw a TypeError, and a string
 * turned `+` into concatenation. Now INVALID_STORAGE naming `out`, or INVALID_VALUE naming the operand, before
 * anything is written; valid calls give the same pair into any Float64Array of length ≥ 2 (a longer one, a view).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, ddAbs, ddAdd, ddAddNumber, ddAddSloppy, ddCompare, ddDiv, ddFromDecimal, ddFromNumber, ddFromRational,
  ddMul, ddMulAccumulate, ddMulAccumulateErrorBound, ddMulAdd, ddMulAddErrorBound, ddMulNumber, ddNeg, ddNormalize,
  ddSqrt, ddSub, ddToDecimal, ddToNumber, ddTwoProdAccumulate, fastTwoSum, split, twoProd,
  twoProdError, twoSum,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

type Call = (...args: unknown[]) => unknown;
/** [function, its operand names in order, whether its first argument is `out`]. */
const FUNCTIONS: [string, Call, string[], boolean][] = [
  ['twoSum', twoSum as Call, ['a', 'b'], true],
  ['fastTwoSum', fastTwoSum as Call, ['a', 'b'], true],
  ['split', split as Call, ['a'], true],
  ['twoProd', twoProd as Call, ['a', 'b'], true],
  ['twoProdError', twoProdError as Call, ['a', 'b', 'p'], false],
  ['ddAdd', ddAdd as Call, ['ah', 'al', 'bh', 'bl'], true],
  ['ddSub', ddSub as Call, ['ah', 'al', 'bh', 'bl'], true],
  ['ddAddSloppy', ddAddSloppy as Call, ['ah', 'al', 'bh', 'bl'], true],
  ['ddAddNumber', ddAddNumber as Call, ['ah', 'al', 'b'], true],
  ['ddMul', ddMul as Call, ['ah', 'al', 'bh', 'bl'], true],
  ['ddMulNumber', ddMulNumber as Call, ['ah', 'al', 'b'], true],
  ['ddMulAdd', ddMulAdd as Call, ['ah', 'al', 'bh', 'bl', 'ch', 'cl'], true],
  ['ddMulAccumulate', ddMulAccumulate as Call, ['ah', 'al', 'bh', 'bl', 'ch', 'cl'], true],
  ['ddTwoProdAccumulate', ddTwoProdAccumulate as Call, ['a', 'b', 'ch', 'cl'], true],
  ['ddDiv', ddDiv as Call, ['ah', 'al', 'bh', 'bl'], true],
  ['ddSqrt', ddSqrt as Call, ['ah', 'al'], true],
  ['ddCompare', ddCompare as Call, ['ah', 'al', 'bh', 'bl'], false],
  ['ddAbs', ddAbs as Call, ['ah', 'al'], true],
  ['ddNeg', ddNeg as Call, ['ah', 'al'], true],
  ['ddToNumber', ddToNumber as Call, ['hi', 'lo'], false],
  ['ddToDecimal', ddToDecimal as Call, ['hi', 'lo'], false],
  ['ddMulAccumulateErrorBound', ddMulAccumulateErrorBound as Call, ['absProduct', 'absAddend'], false],
  ['ddMulAddErrorBound', ddMulAddErrorBound as Call, ['absProduct', 'absResult'], false],
];

const badOperand = fc.constantFrom<unknown>(undefined, null, Symbol('s'), 1n, '1', {}, [1], () => 1);
const badOut = fc.constantFrom<() => unknown>(
  () => undefined, () => null, () => new Float64Array(0), () => new Float64Array(1), () => new Float32Array(2),
  () => [0, 0], () => 2, () => ({ 0: 0, 1: 0, length: 2 }), () => new Float64Array(4).subarray(3),
);
// Normalised pairs of moderate doubles (a positive high part, so ddSqrt and ddDiv see their usual input).
const pair = fc.tuple(fc.double({ min: 0.5, max: 2 ** 20, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .map(([hi, t]) => [hi, t * hi * 2 ** -54] as const);
const operands = fc.array(pair, { minLength: 3, maxLength: 3 }).map((ps) => ps.flat());

describe('exported double-double functions: argument checks', () => {
  it('an operand that is not a number is INVALID_VALUE naming it; out is left as it was', () => {
    fc.assert(fc.property(fc.constantFrom(...FUNCTIONS), fc.nat(), badOperand, operands, ([, f, names, hasOut], at, bad, ops) => {
      const i = at % names.length;
      const args: unknown[] = ops.slice(0, names.length);
      args[i] = bad;
      const out = Float64Array.of(7, 7);
      expect(errorOf(() => f(...(hasOut ? [out, ...args] : args)))).toEqual(['INVALID_VALUE', names[i]]);
      expect([...out]).toEqual([7, 7]);
    }));
  });

  it('an out that is not a Float64Array of length ≥ 2 is INVALID_STORAGE naming out; nothing is written to it', () => {
    const withOut = FUNCTIONS.filter(([, , , hasOut]) => hasOut);
    fc.assert(fc.property(fc.constantFrom(...withOut), badOut, operands, ([, f, names], makeOut, ops) => {
      const out = makeOut();
      const before = JSON.stringify(out, (_, v: unknown) => (ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v));
      expect(errorOf(() => f(out, ...ops.slice(0, names.length)))).toEqual(['INVALID_STORAGE', 'out']);
      expect(JSON.stringify(out, (_, v: unknown) => (ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v))).toBe(before);
    }));
  });

  it('the converters that take out check it too (ddFromNumber, ddNormalize, ddFromDecimal, ddFromRational)', () => {
    fc.assert(fc.property(badOut, (makeOut) => {
      const out = makeOut() as Float64Array;
      expect(errorOf(() => ddFromNumber(out, 1.5))).toEqual(['INVALID_STORAGE', 'out']);
      expect(errorOf(() => ddNormalize(out, 1, 2 ** -60))).toEqual(['INVALID_STORAGE', 'out']);
      expect(errorOf(() => ddFromDecimal(out, '0.1'))).toEqual(['INVALID_STORAGE', 'out']);
      expect(errorOf(() => ddFromRational(out, 1n, 3n))).toEqual(['INVALID_STORAGE', 'out']);
    }));
  });

  it('valid calls write the same pair into any Float64Array of length ≥ 2 and touch nothing past out[1]', () => {
    const withOut = FUNCTIONS.filter(([, , , hasOut]) => hasOut);
    fc.assert(fc.property(fc.constantFrom(...withOut), operands, fc.nat({ max: 3 }), ([, f, names], ops, offset) => {
      const args = ops.slice(0, names.length);
      const exact = new Float64Array(2);
      f(exact, ...args);
      const backing = new Float64Array(offset + 4).fill(7);
      const view = backing.subarray(offset);
      f(view, ...args);
      expect([view[0], view[1]]).toEqual([exact[0], exact[1]]);
      expect([...backing.subarray(0, offset), view[2], view[3]]).toEqual(Array(offset + 2).fill(7));
    }));
  });
});
