/**
 * Laws every correctly rounded conversion into a binary floating-point storage format obeys,
 * as fast-check properties, checked against the exact BigInt oracle.
 *
 * Each law is a function of a {@link BinaryFormatDescriptor} returning a fast-check property;
 * {@link checkStorageConversionLaws} runs all that apply. They work on custom formats too.
 *
 * @module
 */
import fc from 'fast-check';
import { type BinaryFormatParameters, binaryFormatLimits } from '../formats/convert/binary-parameters.js';
import {
  type BinaryFormatLike,
  type BinaryFormatDescriptor,
  checkBinaryFormatDescriptor,
  resolveBinaryFormat,
} from './format-descriptors.js';
import {
  doubleRoundingCasesOf,
  interestingDoublesFor,
  midpointCasesOf,
  nearOverflowOf,
  nearUnderflowOf,
  representableIn,
} from './arbitraries.js';
import { exactOf, oracleRoundToFormat } from './exact.js';
import { type Rational, addRational, divRational, mulRational, subRational } from './rational.js';
import { roundRationalToFormat } from './round-rational.js';
import { type Law, type LawRunOptions, checkLaws, lawOf, show } from './law-runner.js';

/** Throws a message naming format, law, input, result and expectation unless got is expected (Object.is). */
function expectSame(f: BinaryFormatDescriptor, law: string, x: number, got: number, expected: number): void {
  if (!Object.is(got, expected)) {
    throw new Error(`${f.name}.round(${show(x)}) = ${show(got)}, expected ${show(expected)} (${law})`);
  }
}

/**
 * Correct rounding: round(x) equals the exact oracle's nearest-even rounding, bit for bit
 * (signed zeros distinguished), on every kind of hard input.
 *
 * @param format - the conversion under test
 * @param inputs - inputs to try (default: {@link interestingDoublesFor} the format)
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { F16_DESCRIPTOR, lawCorrectRounding } from 'modprec/testing';
 *
 * fc.assert(lawCorrectRounding(F16_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawCorrectRounding(format: BinaryFormatDescriptor, inputs?: fc.Arbitrary<number>): fc.IPropertyWithHooks<[number]> {
  const f = checkBinaryFormatDescriptor(format);
  return fc.property(inputs ?? interestingDoublesFor(f), (x) => {
    expectSame(f, 'correct rounding', x, f.round(x), oracleRoundToFormat(x, f));
  });
}

/**
 * Round trip: a value already in the format is unchanged by round, and (with a codec)
 * decode(encode(x)) is x.
 *
 * @param format - the conversion under test
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { BF16_DESCRIPTOR, lawRoundTrip } from 'modprec/testing';
 *
 * fc.assert(lawRoundTrip(BF16_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawRoundTrip(format: BinaryFormatDescriptor): fc.IPropertyWithHooks<[number]> {
  const f = checkBinaryFormatDescriptor(format);
  return fc.property(representableIn(f), (x) => {
    expectSame(f, 'representable values are fixed points', x, f.round(x), x);
    if (f.encode && f.decode) expectSame(f, 'decode(encode(x)) = x', x, f.decode(f.encode(x)), x);
  });
}

/**
 * Codec consistency: decode(encode(x)) = round(x) for every double (f64 → storage → f64 is the
 * correctly rounded value), and every non-NaN bit pattern survives decode then encode.
 * Without encode/decode the law holds trivially.
 *
 * @param format - the conversion under test
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { F16_DESCRIPTOR, lawCodec } from 'modprec/testing';
 *
 * fc.assert(lawCodec(F16_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawCodec(format: BinaryFormatDescriptor): fc.IPropertyWithHooks<[number, number]> {
  const f = checkBinaryFormatDescriptor(format);
  const maxBits = f.bitWidth === undefined ? 0 : 2 ** f.bitWidth - 1;
  return fc.property(interestingDoublesFor(f), fc.integer({ min: 0, max: maxBits }), (x, bits) => {
    if (!f.encode || !f.decode) return;
    expectSame(f, 'decode(encode(x)) = round(x)', x, f.decode(f.encode(x)), f.round(x));
    const v = f.decode(bits);
    if (v !== v) {
      if (!Number.isNaN(f.decode(f.encode(v)))) throw new Error(`${f.name}: NaN pattern ${bits.toString(16)} re-encodes to a non-NaN`);
    } else if (f.encode(v) !== bits) {
      throw new Error(`${f.name}: pattern 0x${bits.toString(16)} decodes to ${show(v)} but encodes to 0x${f.encode(v).toString(16)}`);
    }
  });
}

/**
 * Monotonicity: x ≤ y implies round(x) ≤ round(y).
 *
 * @param format - the conversion under test
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { F32_DESCRIPTOR, lawMonotonic } from 'modprec/testing';
 *
 * fc.assert(lawMonotonic(F32_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawMonotonic(format: BinaryFormatDescriptor): fc.IPropertyWithHooks<[number, number]> {
  const f = checkBinaryFormatDescriptor(format);
  const inputs = interestingDoublesFor(f).filter((x) => x === x);
  return fc.property(inputs, inputs, (a, b) => {
    const [x, y] = a <= b ? [a, b] : [b, a];
    const rx = f.round(x);
    const ry = f.round(y);
    if (!(rx <= ry)) throw new Error(`${f.name}: ${show(x)} ≤ ${show(y)} but round gives ${show(rx)} > ${show(ry)} (monotonicity)`);
  });
}

/**
 * Ties to even: an exact midpoint of two adjacent values rounds to the one with an even
 * significand (computed from the integers that built the tie, not by the oracle).
 *
 * @param format - the conversion under test
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { BF16_DESCRIPTOR, lawTiesToEven } from 'modprec/testing';
 *
 * fc.assert(lawTiesToEven(BF16_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawTiesToEven(format: BinaryFormatDescriptor): fc.IPropertyWithHooks<[{ midpoint: number; even: number }]> {
  const f = checkBinaryFormatDescriptor(format);
  return fc.property(midpointCasesOf(f), (c) => expectSame(f, 'ties to even', c.midpoint, f.round(c.midpoint), c.even));
}

/** The default intermediate for {@link lawNoDoubleRounding}: binary32 if wider, else p + 11 bits. */
function defaultVia(f: BinaryFormatParameters): BinaryFormatParameters | null {
  if (f.significandBits + 1 <= 24 && f.minExponent >= -126) return resolveBinaryFormat('f32');
  const p = f.significandBits + 11;
  return p <= 43 ? { significandBits: Math.min(p, 43), minExponent: f.minExponent, maxExponent: f.maxExponent } : null;
}

/**
 * No double rounding: on inputs that a rounding through a wider format `via` would first move
 * onto a tie (see {@link doubleRoundingCasesOf}), round(x) still goes to x's side of the tie.
 * A conversion written as "round to binary32, then to the format" fails this law.
 *
 * @param format - the conversion under test
 * @param via - the intermediate format to guard against (default: binary32 when it is wider by ≥ 1 bit, else p + 11 bits)
 * @returns a fast-check property
 * @throws {@link ModprecError} `INVALID_FORMAT` when no suitable intermediate exists (p > 42)
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16 } from 'modprec';
 * import { F16_DESCRIPTOR, lawNoDoubleRounding } from 'modprec/testing';
 *
 * fc.assert(lawNoDoubleRounding(F16_DESCRIPTOR), { numRuns: 200 });
 * // a conversion through fp32 fails it:
 * const viaF32 = { ...F16_DESCRIPTOR, name: 'f16 via f32', encode: undefined, decode: undefined,
 *                  round: (x: number) => roundToF16(Math.fround(x)) };
 * fc.check(lawNoDoubleRounding(viaF32), { numRuns: 200 }).failed; // → true
 * ```
 * @group Testing
 */
export function lawNoDoubleRounding(format: BinaryFormatDescriptor, via?: BinaryFormatLike): fc.IPropertyWithHooks<[{ value: number; expected: number }]> {
  const f = checkBinaryFormatDescriptor(format);
  const v = via ?? defaultVia(f) ?? 'f32';
  return fc.property(doubleRoundingCasesOf(f, v), (c) => expectSame(f, 'no double rounding', c.value, f.round(c.value), c.expected));
}

/**
 * Overflow: round(x) is ±Infinity exactly when |x| ≥ the overflow threshold (2 − 2^−p)·2^emax,
 * and otherwise the exact oracle's rounding (at most the largest finite value in magnitude) on inputs drawn near it.
 *
 * @param format - the conversion under test
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { F16_DESCRIPTOR, lawOverflow } from 'modprec/testing';
 *
 * fc.assert(lawOverflow(F16_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawOverflow(format: BinaryFormatDescriptor): fc.IPropertyWithHooks<[number]> {
  const f = checkBinaryFormatDescriptor(format);
  const { maxFinite, overflowThreshold } = binaryFormatLimits(f);
  return fc.property(nearOverflowOf(f), (x) => {
    const r = f.round(x);
    if (Math.abs(x) >= overflowThreshold) expectSame(f, 'overflow to infinity', x, r, x > 0 ? Infinity : -Infinity);
    else if (!(Math.abs(r) <= maxFinite)) throw new Error(`${f.name}.round(${show(x)}) = ${show(r)}: below the threshold ${overflowThreshold} it must stay finite`);
    else expectSame(f, 'rounding below the overflow threshold', x, r, oracleRoundToFormat(x, f));
  });
}

/**
 * Gradual underflow: below the min normal, results are whole multiples of the smallest subnormal
 * within half of one of x (no flush to zero); |x| ≤ half the smallest subnormal gives a zero of
 * x's sign (half itself is a tie with the even 0); and every result near the subnormal range is the exact oracle's
 * rounding — the tie between the largest subnormal and the min normal included (it goes to the min normal, whose
 * significand is even), which the error bound alone lets either way.
 *
 * @param format - the conversion under test
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { F16_DESCRIPTOR, lawGradualUnderflow } from 'modprec/testing';
 *
 * fc.assert(lawGradualUnderflow(F16_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawGradualUnderflow(format: BinaryFormatDescriptor): fc.IPropertyWithHooks<[number]> {
  const f = checkBinaryFormatDescriptor(format);
  const { minNormal, minSubnormal } = binaryFormatLimits(f);
  return fc.property(nearUnderflowOf(f), (x) => {
    const r = f.round(x);
    if (Math.abs(x) <= minSubnormal / 2) expectSame(f, 'underflow to signed zero', x, r, x < 0 || Object.is(x, -0) ? -0 : 0);
    if (Math.abs(r) < minNormal && !Number.isInteger(r / minSubnormal)) {
      throw new Error(`${f.name}.round(${show(x)}) = ${show(r)} is not a multiple of the smallest subnormal ${minSubnormal}`);
    }
    // Gradual (not abrupt) underflow: below the min normal the absolute error is at most half a subnormal step.
    if (Math.abs(x) < minNormal && !(Math.abs(r - x) <= minSubnormal / 2)) {
      throw new Error(`${f.name}.round(${show(x)}) = ${show(r)}: error above half the smallest subnormal (flush to zero?)`);
    }
    expectSame(f, 'rounding near the subnormal range', x, r, oracleRoundToFormat(x, f));
  });
}

/**
 * Special values and symmetry: NaN → NaN, ±Infinity and ±0 kept (with a codec: encode(NaN)
 * decodes to NaN); round(−x) = −round(x); round(round(x)) = round(x).
 *
 * @param format - the conversion under test
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { BF16_DESCRIPTOR, lawSpecialsAndSymmetry } from 'modprec/testing';
 *
 * fc.assert(lawSpecialsAndSymmetry(BF16_DESCRIPTOR), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawSpecialsAndSymmetry(format: BinaryFormatDescriptor): fc.IPropertyWithHooks<[number]> {
  const f = checkBinaryFormatDescriptor(format);
  return fc.property(interestingDoublesFor(f), (x) => {
    for (const s of [NaN, Infinity, -Infinity, 0, -0]) expectSame(f, 'special values kept', s, f.round(s), s);
    if (f.encode && f.decode && !Number.isNaN(f.decode(f.encode(NaN)))) throw new Error(`${f.name}: encode(NaN) does not decode to NaN`);
    const r = f.round(x);
    expectSame(f, 'symmetry round(−x) = −round(x)', -x, f.round(-x), -r);
    expectSame(f, 'idempotence', r, f.round(r), r);
  });
}

/**
 * An arithmetic operation on exact rationals, for {@link lawInnocuousDoubleRounding}.
 * @group Testing
 */
export type ExactOperation = '+' | '-' | '*' | '/';

const EXACT_OPERATIONS: Record<ExactOperation, (a: Rational, b: Rational) => Rational> = {
  '+': addRational, '-': subRational, '*': mulRational, '/': divRational,
};

/**
 * Innocuous double rounding: for a, b in the format and ∘ ∈ {+, −, ×, ÷}, converting the result of
 * a correctly rounded operation in a wider arithmetic `wide` (e.g. binary32) gives the same value
 * as rounding the exact a ∘ b once — the claim behind "compute in fp32, store in fp16".
 * This holds when p_wide ≥ 2p + 1 for these four operations (2p + 2 would be needed for √) and
 * the wide exponent range covers the format's: Figueroa, "When is double rounding innocuous?"
 * (SIGNUM 1995); Roux (J. Formalized Reasoning 2014) proves it in Coq, underflow included.
 * With fewer wide bits the law fails (the tests show it for p_wide = p + 2).
 *
 * @param format - the storage conversion under test
 * @param wide - the wider arithmetic's parameters (its results are the exact ones rounded by the oracle)
 * @param operations - which operations to try (default all four)
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { F16_DESCRIPTOR, lawInnocuousDoubleRounding } from 'modprec/testing';
 *
 * // fp32 (24 bits) ≥ 2·11 + 1: computing fp16 data in fp32, then storing in fp16, rounds as if once
 * fc.assert(lawInnocuousDoubleRounding(F16_DESCRIPTOR, 'f32'), { numRuns: 200 });
 * ```
 * @group Testing
 */
export function lawInnocuousDoubleRounding(
  format: BinaryFormatDescriptor,
  wide: BinaryFormatLike,
  operations: readonly ExactOperation[] = ['+', '-', '*', '/'],
): fc.IPropertyWithHooks<[number, number, ExactOperation]> {
  const f = checkBinaryFormatDescriptor(format);
  const w = resolveBinaryFormat(wide);
  const values = representableIn(f);
  return fc.property(values, values, fc.constantFrom(...operations), (a, b, op) => {
    if (op === '/' && b === 0) return;
    const exact = EXACT_OPERATIONS[op](exactOf(a), exactOf(b));
    const direct = roundRationalToFormat(exact, f);
    const wideResult = roundRationalToFormat(exact, w);
    const got = f.round(wideResult);
    // A zero result's sign follows IEEE rules the rational does not carry: compare zeros by value.
    if (!(Object.is(got, direct) || (got === 0 && direct === 0))) {
      throw new Error(`${f.name}: ${show(a)} ${op} ${show(b)} rounded in the wide format (${show(wideResult)}) then stored gives ${show(got)}, but a single rounding gives ${show(direct)}`);
    }
  });
}

/**
 * Options of {@link storageConversionLaws}.
 * @group Testing
 */
export interface StorageConversionLawOptions {
  /** Intermediate format for the no-double-rounding law; `null` skips that law (for a format that does not claim it). */
  readonly via?: BinaryFormatLike | null;
}

/**
 * All laws of a correctly rounded (round-to-nearest-even, IEEE-style) storage conversion.
 *
 * @param format - the conversion under test: name, p, emin, emax, round, optional encode/decode/bitWidth
 * @param options - which intermediate to guard against double rounding through
 * @returns the laws, each runnable on its own (e.g. one `it` per law)
 * @throws {@link ModprecError} `INVALID_FORMAT` for a malformed descriptor
 * @example
 * ```ts
 * import { F16_DESCRIPTOR, storageConversionLaws } from 'modprec/testing';
 *
 * // in a test file: for (const law of storageConversionLaws(F16_DESCRIPTOR)) it(law.name, () => law.check());
 * for (const law of storageConversionLaws(F16_DESCRIPTOR)) law.check({ numRuns: 100 });
 * ```
 * @group Testing
 */
export function storageConversionLaws(format: BinaryFormatDescriptor, options: StorageConversionLawOptions = {}): Law[] {
  const f = checkBinaryFormatDescriptor(format);
  const laws = [
    lawOf(f.name, 'correct rounding', lawCorrectRounding(f)),
    lawOf(f.name, 'round trip', lawRoundTrip(f)),
    lawOf(f.name, 'codec', lawCodec(f)),
    lawOf(f.name, 'monotonicity', lawMonotonic(f)),
    lawOf(f.name, 'ties to even', lawTiesToEven(f)),
    lawOf(f.name, 'overflow', lawOverflow(f)),
    lawOf(f.name, 'gradual underflow', lawGradualUnderflow(f)),
    lawOf(f.name, 'specials and symmetry', lawSpecialsAndSymmetry(f)),
  ];
  const via = options.via === undefined ? defaultVia(f) : options.via;
  if (via !== null) laws.push(lawOf(f.name, 'no double rounding', lawNoDoubleRounding(f, via)));
  return laws;
}

/**
 * Checks every law of {@link storageConversionLaws} on a conversion; throws on the first failure.
 *
 * @param format - the conversion under test
 * @param options - runs per law, seed, and the double-rounding intermediate
 * @throws Error naming the format, the law and a counterexample; {@link ModprecError} `INVALID_FORMAT` for a malformed descriptor
 * @example
 * ```ts
 * import { createBinaryRounder } from 'modprec';
 * import { checkStorageConversionLaws } from 'modprec/testing';
 *
 * // A custom 8-bit float (4 significand bits, exponents −6…7): throws, naming the law and a counterexample, if one fails
 * const e4m3 = { name: 'e4m3', significandBits: 4, minExponent: -6, maxExponent: 7,
 *                round: createBinaryRounder({ significandBits: 4, minExponent: -6, maxExponent: 7 }) };
 * checkStorageConversionLaws(e4m3, { numRuns: 300 });
 * ```
 * @group Testing
 */
export function checkStorageConversionLaws(
  format: BinaryFormatDescriptor,
  options: StorageConversionLawOptions & LawRunOptions = {},
): void {
  checkLaws(storageConversionLaws(format, options), options);
}
