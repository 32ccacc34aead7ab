/**
 * The helpers of modprec/testing name bad arguments: the rational operations given an undefined or number operand
 * threw TypeErrors ("Cannot read properties of undefined (reading 'num')", "Cannot mix BigInt and other types"),
 * powerOfTwo(1.5) a RangeError, the arbitraries given an undefined format a TypeError destructuring it, exactSum /
 * exactDot / exactTriangularSolve an undefined array a TypeError, checkLaws(undefined) "laws is not iterable",
 * accessorLaws({}) "subject.make is not a function", oracleRoundToInteger(undefined, 1) a TypeError. Now a
 * ModprecError with a code and the parameter's name, before anything runs; valid arguments give the exact results.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/index.js';
import {
  absRational, absoluteError, accessorLaws, acrossBinadesOf, addRational, checkAccessorLaws, checkLaws, compareRational,
  divRational, doubleDoubles, doubleRoundingCasesOf, exactDot, exactOf, exactSum, exactTriangularSolve, I8_DESCRIPTOR,
  interestingDoublesFor, lawDoubleDoubleExport, midpointCasesOf, midpointsOf, mulRational, nearMidpointsOf, nearOverflowOf,
  nearUnderflowOf, negRational, oracleRoundToFormat, oracleRoundToInteger, powerOfTwo, rational, rationalToString,
  relativeError, representableIn, resolveBinaryFormat, roundRationalExact, roundRationalToDouble, roundRationalToFormat,
  roundRationalToInteger, signRational, specialValuesOf, subRational, vectorIn, type Rational,
} from '../../src/testing/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

const notARational = fc.constantFrom<unknown>(undefined, null, 3, 3n, '1/3', {}, { num: 1, den: 3 }, { num: 1n, den: 0n }, { num: 1n, den: -3n }, Symbol('q'));
const aRational = fc.tuple(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.bigInt({ min: 1n, max: 2n ** 40n })).map(([n, d]) => rational(n, d));

describe('modprec/testing: bad arguments', () => {
  it('rational operations name an operand that is not a rational { num, den > 0 } (INVALID_VALUE)', () => {
    fc.assert(fc.property(notARational, aRational, (bad, q) => {
      const r = bad as Rational;
      for (const [f, name] of [
        [() => addRational(r, q), 'a'], [() => addRational(q, r), 'b'], [() => subRational(r, q), 'a'], [() => subRational(q, r), 'b'],
        [() => mulRational(r, q), 'a'], [() => mulRational(q, r), 'b'], [() => divRational(r, q), 'a'], [() => divRational(q, r), 'b'],
        [() => compareRational(r, q), 'a'], [() => compareRational(q, r), 'b'], [() => negRational(r), 'a'], [() => absRational(r), 'a'],
        [() => signRational(r), 'a'], [() => rationalToString(r), 'a'], [() => roundRationalToDouble(r), 'q'],
        [() => roundRationalToInteger(r), 'q'], [() => roundRationalExact(r, { significandBits: 11 }), 'q'],
        [() => roundRationalToFormat(r, { significandBits: 11, minExponent: -14, maxExponent: 15 }), 'q'],
        [() => absoluteError(1, r), 'exact'], [() => relativeError(1, r), 'exact'],
      ] as const) expect(errorOf(f)).toEqual(['INVALID_VALUE', name]);
      // valid operands: exact arithmetic
      const s = addRational(q, rational(1n, 3n));
      expect(compareRational(subRational(s, q), rational(1n, 3n))).toBe(0);
      expect(mulRational(q, rational(3n)).num * q.den).toBe(3n * q.num * mulRational(q, rational(3n)).den);
    }), { numRuns: 60 });
  });

  it('rational(num, den) and powerOfTwo(k) name what they refuse', () => {
    for (const bad of [1, 1.5, '1', undefined, Symbol('n')]) {
      expect(errorOf(() => rational(bad as bigint))).toEqual(['INVALID_VALUE', 'num']);
      expect(errorOf(() => rational(1n, bad as bigint))).toEqual(bad === undefined ? ['none', undefined] : ['INVALID_VALUE', 'den']);
    }
    for (const k of [1.5, NaN, Infinity, 2 ** 60, -(2 ** 31), Symbol('k'), 3n, '3', undefined, null]) {
      expect(errorOf(() => powerOfTwo(k as number))).toEqual(['INVALID_VALUE', 'k']);
    }
    fc.assert(fc.property(fc.integer({ min: -2000, max: 2000 }), (k) => {
      expect(powerOfTwo(k)).toEqual(k >= 0 ? { num: 2n ** BigInt(k), den: 1n } : { num: 1n, den: 2n ** BigInt(-k) });
    }));
  });

  it('format arguments: undefined or null is INVALID_FORMAT naming format (via for doubleRoundingCasesOf)', () => {
    for (const bad of [undefined, null, 5, true]) {
      const f = bad as never;
      for (const call of [
        () => resolveBinaryFormat(f), () => representableIn(f), () => midpointCasesOf(f), () => midpointsOf(f), () => nearMidpointsOf(f),
        () => nearOverflowOf(f), () => nearUnderflowOf(f), () => acrossBinadesOf(f), () => specialValuesOf(f), () => interestingDoublesFor(f),
        () => vectorIn(f, 3), () => doubleRoundingCasesOf(f, 'f32'), () => lawDoubleDoubleExport(f, (h, l) => h + l),
        () => roundRationalToFormat(rational(1n), f), () => oracleRoundToFormat(1.5, f),
      ]) expect(errorOf(call)[0]).toBe('INVALID_FORMAT');
      expect(errorOf(() => resolveBinaryFormat(f))).toEqual(['INVALID_FORMAT', 'format']);
      expect(errorOf(() => roundRationalExact(rational(1n), f))).toEqual(['INVALID_FORMAT', 'precision']);
      expect(errorOf(() => oracleRoundToInteger(f, 1.5))).toEqual(['INVALID_FORMAT', 'format']);
    }
    expect(errorOf(() => doubleRoundingCasesOf('f16', null as never))).toEqual(['INVALID_FORMAT', 'via']);
    expect(errorOf(() => lawDoubleDoubleExport('f16', undefined as never))).toEqual(['INVALID_OPTION', 'exportDd']);
    expect(errorOf(() => doubleDoubles(null as never))).toEqual(['INVALID_OPTION', 'options']);
    expect(errorOf(() => oracleRoundToInteger(I8_DESCRIPTOR, Symbol('x') as never))).toEqual(['INVALID_VALUE', 'x']);
    expect(oracleRoundToInteger(I8_DESCRIPTOR, 2.5)).toBe(2);
  });

  it('exact oracles name an array that is not one and a triangle entry that is not a rational', () => {
    fc.assert(fc.property(fc.constantFrom<unknown>(undefined, null, 3, {}, Symbol('a'), { length: -1 }), fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 5 }), (bad, xs) => {
      expect(errorOf(() => exactSum(bad as number[]))).toEqual(['INVALID_VALUE', 'xs']);
      expect(errorOf(() => exactDot(bad as number[], xs))).toEqual(['INVALID_VALUE', 'x']);
      expect(errorOf(() => exactDot(xs, bad as number[]))).toEqual(['INVALID_VALUE', 'y']);
      expect(errorOf(() => exactTriangularSolve([], bad as Rational[], true, false))).toEqual(['INVALID_VALUE', 'b']);
      // valid: the sum of a list and its negation is exactly 0
      expect(exactSum([...xs, ...xs.map((v) => -v)]).num).toBe(0n);
      expect(compareRational(exactDot(xs, xs.map(() => 1)), exactSum(xs))).toBe(0);
    }));
    const T = [[rational(2n), rational(0n)], [rational(1n), rational(4n)]];
    const b = [rational(2n), rational(9n)];
    expect(exactTriangularSolve(T, b, true, false).map(rationalToString)).toEqual(['1', '2']);
    expect(errorOf(() => exactTriangularSolve(T, b, 'yes' as never, false))).toEqual(['INVALID_OPTION', 'lower']);
    expect(errorOf(() => exactTriangularSolve(T, b, true, 1 as never))).toEqual(['INVALID_OPTION', 'unit']);
    expect(errorOf(() => exactTriangularSolve([T[0]!], b, true, false))).toEqual(['DIMENSION_MISMATCH', 'T']);
    expect(errorOf(() => exactTriangularSolve([T[0]!, [rational(1n), 4 as never]], b, true, false))).toEqual(['INVALID_VALUE', 'T[1][1]']);
    expect(errorOf(() => exactTriangularSolve(T, [b[0]!, undefined as never], true, false))).toEqual(['INVALID_VALUE', 'b[1]']);
    expect(errorOf(() => absoluteError(Symbol('c') as never, exactOf(1)))).toEqual(['INVALID_VALUE', 'computed']);
  });

  it('checkLaws and accessorLaws name a law list or subject that is not one, before any law runs', () => {
    let ran = 0;
    const law = { name: 'counts', check: () => { ran++; } };
    for (const bad of [undefined, null, 3, {}, 'laws']) expect(errorOf(() => checkLaws(bad as never))).toEqual(['INVALID_OPTION', 'laws']);
    expect(errorOf(() => checkLaws([law, {} as never]))).toEqual(['INVALID_OPTION', 'laws[1]']);
    expect(errorOf(() => checkLaws([law], 3 as never))).toEqual(['INVALID_OPTION', 'options']);
    expect(ran).toBe(0);
    checkLaws([law, law]);
    expect(ran).toBe(2);
    for (const [bad, name] of [[undefined, 'subject'], [null, 'subject'], [{}, 'subject.name'], [{ name: 'x' }, 'subject.make'],
      [{ name: 'x', make: () => null }, 'subject.round']] as const) {
      expect(errorOf(() => accessorLaws(bad as never))).toEqual(['INVALID_OPTION', name]);
      expect(errorOf(() => checkAccessorLaws(bad as never))).toEqual(['INVALID_OPTION', name]);
    }
  });
});
