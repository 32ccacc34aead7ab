/**
 * Laws of a saturating, round-to-nearest-even conversion into signed integer storage.
 *
 * @module
 */
import fc from 'fast-check';
import { fail } from '../core/errors.js';
import type { IntegerFormatDescriptor } from './format-descriptors.js';
import { exactOf } from './exact.js';
import { roundRationalToInteger } from './round-rational.js';
import { type Law, type LawRunOptions, checkLaws, lawOf, show } from './law-runner.js';

function checkIntegerDescriptor(format: IntegerFormatDescriptor): IntegerFormatDescriptor {
  if (typeof format?.round !== 'function') fail('INVALID_FORMAT', 'format.round', 'must be a function', format?.round);
  // Checked here, not in the first law's oracle: a missing nanValue failed as a law, a Symbol min threw a TypeError
  // building this message.
  if (typeof format.name !== 'string') fail('INVALID_FORMAT', 'format.name', 'must be a string', format.name);
  if (!Number.isSafeInteger(format.min)) fail('INVALID_FORMAT', 'format.min', 'must be a safe integer', format.min);
  if (!Number.isSafeInteger(format.max) || format.min > format.max) {
    fail('INVALID_FORMAT', 'format.max', `must be a safe integer ≥ format.min (${format.min})`, format.max);
  }
  if (typeof format.nanValue !== 'number') fail('INVALID_FORMAT', 'format.nanValue', 'must be a number', format.nanValue);
  return format;
}

/**
 * The oracle: NaN → nanValue; otherwise the nearest integer (ties to even) by exact arithmetic,
 * clamped to [min, max]; ±Infinity saturate; zero is +0.
 *
 * @param format - the integer format
 * @param x - any number
 * @returns the expected stored integer
 * @example
 * ```ts
 * import { I8_DESCRIPTOR, oracleRoundToInteger } from 'modprec/testing';
 *
 * oracleRoundToInteger(I8_DESCRIPTOR, 2.5); // → 2
 * oracleRoundToInteger(I8_DESCRIPTOR, 1000); // → 127
 * oracleRoundToInteger(I8_DESCRIPTOR, NaN); // → 0
 * ```
 * @group Testing
 */
export function oracleRoundToInteger(format: IntegerFormatDescriptor, x: number): number {
  const f = format as Partial<IntegerFormatDescriptor> | null;
  if (typeof f !== 'object' || f === null || !Number.isSafeInteger(f.min) || !Number.isSafeInteger(f.max) || typeof f.nanValue !== 'number') {
    fail('INVALID_FORMAT', 'format', 'must be an integer format descriptor with integer min and max and a nanValue', format);
  }
  if (typeof x !== 'number') fail('INVALID_VALUE', 'x', 'must be a number', x);
  if (x !== x) return format.nanValue;
  if (x === Infinity) return format.max;
  if (x === -Infinity) return format.min;
  const n = roundRationalToInteger(exactOf(x));
  const clamped = n < BigInt(format.min) ? format.min : n > BigInt(format.max) ? format.max : Number(n);
  return clamped === 0 ? 0 : clamped;
}

/**
 * Hard inputs for an integer format: specials, integers just inside and outside the range,
 * halves (ties), integers ± tiny amounts, values across the range and beyond, any double.
 *
 * @param format - the integer format
 * @returns an arbitrary of doubles
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { I16_DESCRIPTOR, oracleRoundToInteger, interestingDoublesForInteger } from 'modprec/testing';
 *
 * fc.assert(fc.property(interestingDoublesForInteger(I16_DESCRIPTOR), (x) =>
 *   Object.is(I16_DESCRIPTOR.round(x), oracleRoundToInteger(I16_DESCRIPTOR, x))));
 * ```
 * @group Testing
 */
export function interestingDoublesForInteger(format: IntegerFormatDescriptor): fc.Arbitrary<number> {
  const f = checkIntegerDescriptor(format);
  const integer = fc.integer({ min: f.min - 2, max: f.max + 2 });
  return fc.oneof(
    fc.constantFrom(NaN, 0, -0, Infinity, -Infinity, f.min, f.max, f.min - 0.5, f.max + 0.5, -0.5, 0.5, -1.5, 1.5),
    integer,
    integer.map((k) => k + 0.5),
    fc.tuple(integer, fc.double({ min: -0.5, max: 0.5, noNaN: true })).map(([k, t]) => k + t),
    fc.double({ min: 2 * f.min - 10, max: 2 * f.max + 10, noNaN: true }),
    fc.double(),
  );
}

/**
 * All laws of an integer storage conversion: correct rounding against the exact oracle (ties to
 * even, saturation, NaN → nanValue, no −0), monotonicity, and integers in range kept.
 *
 * @param format - the conversion under test
 * @returns the laws
 * @throws {@link ModprecError} `INVALID_FORMAT` for a malformed descriptor
 * @example
 * ```ts
 * import { I8_DESCRIPTOR, integerConversionLaws } from 'modprec/testing';
 *
 * for (const law of integerConversionLaws(I8_DESCRIPTOR)) law.check({ numRuns: 100 });
 * ```
 * @group Testing
 */
export function integerConversionLaws(format: IntegerFormatDescriptor): Law[] {
  const f = checkIntegerDescriptor(format);
  const inputs = interestingDoublesForInteger(f);
  return [
    lawOf(f.name, 'correct rounding', fc.property(inputs, (x) => {
      const got = f.round(x);
      const expected = oracleRoundToInteger(f, x);
      if (!Object.is(got, expected)) throw new Error(`${f.name}.round(${show(x)}) = ${show(got)}, expected ${show(expected)}`);
    })),
    lawOf(f.name, 'monotonicity', fc.property(inputs.filter((x) => x === x), inputs.filter((x) => x === x), (a, b) => {
      const [x, y] = a <= b ? [a, b] : [b, a];
      if (!(f.round(x) <= f.round(y))) throw new Error(`${f.name}: ${show(x)} ≤ ${show(y)} but round gives ${show(f.round(x))} > ${show(f.round(y))}`);
    })),
    lawOf(f.name, 'round trip', fc.property(fc.integer({ min: f.min, max: f.max }), (k) => {
      if (!Object.is(f.round(k), k === 0 ? 0 : k)) throw new Error(`${f.name}.round(${k}) = ${show(f.round(k))}: an integer in range must be kept`);
    })),
  ];
}

/**
 * Checks every law of {@link integerConversionLaws}; throws on the first failure.
 *
 * @param format - the conversion under test
 * @param options - runs per law and seed
 * @throws Error naming the law and a counterexample
 * @example
 * ```ts
 * import { checkIntegerConversionLaws } from 'modprec/testing';
 *
 * // a 4-bit unsigned format: nearest integer, ties to even, saturated to [0, 15]
 * const roundToU4 = (x: number) => Number.isNaN(x) ? 0 : Math.min(15, Math.max(0, x - Math.floor(x) === 0.5
 *   ? 2 * Math.round(x / 2) : Math.round(x))) + 0;
 * checkIntegerConversionLaws({ name: 'u4', min: 0, max: 15, nanValue: 0, round: roundToU4 }, { numRuns: 200 });
 * ```
 * @group Testing
 */
export function checkIntegerConversionLaws(format: IntegerFormatDescriptor, options?: LawRunOptions): void {
  checkLaws(integerConversionLaws(format), options);
}
