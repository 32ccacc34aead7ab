/**
 * Descriptions of storage conversions under test, and the built-in ones of modprec.
 *
 * A user with a custom storage format describes its rounding here and runs the same laws
 * modprec runs on its own formats (see {@link checkStorageConversionLaws}).
 *
 * @module
 */
import { fail } from '../core/errors.js';
import { type BinaryFormatParameters, checkBinaryFormatParameters } from '../formats/convert/binary-parameters.js';
import { bf16BitsFromNumber, numberFromBf16Bits, roundToBf16 } from '../formats/convert/bf16.js';
import { f16BitsFromNumber, numberFromF16Bits, roundToF16 } from '../formats/convert/f16.js';
import { f32FromBits, f32ToBits, roundToF32 } from '../formats/convert/f32.js';
import { roundToInt16, roundToInt32, roundToInt8 } from '../formats/convert/integer.js';

/**
 * An IEEE-style binary floating-point storage format (round to nearest-even, gradual underflow,
 * ±Infinity, signed zeros, NaN) and the conversion that claims to round into it.
 * @group Testing
 */
export interface BinaryFormatDescriptor extends BinaryFormatParameters {
  /** Short name for failure messages, e.g. `'f16'`. */
  readonly name: string;
  /** The conversion under test: a double → the double value of its rounding to this format. */
  readonly round: (x: number) => number;
  /** Optional encoder: a double → the bit pattern of its rounding (needs {@link decode} and {@link bitWidth}). */
  readonly encode?: (x: number) => number;
  /** Optional decoder: a bit pattern → its value. */
  readonly decode?: (bits: number) => number;
  /** Width of the bit patterns (16 for binary16); required with encode/decode. */
  readonly bitWidth?: number;
}

/**
 * A saturating signed-integer storage format and its conversion.
 * @group Testing
 */
export interface IntegerFormatDescriptor {
  /** Short name for failure messages, e.g. `'i8'`. */
  readonly name: string;
  /** Smallest storable integer (e.g. −128). */
  readonly min: number;
  /** Largest storable integer (e.g. 127). */
  readonly max: number;
  /** The conversion under test: nearest integer, ties to even, saturated to [min, max]. */
  readonly round: (x: number) => number;
  /** What NaN converts to (modprec's built-ins: 0). */
  readonly nanValue: number;
}

/**
 * binary64 itself (rounding is the identity): for arbitraries such as `representableIn(F64_DESCRIPTOR)`; the laws need p ≤ 52 and reject it.
 * @group Testing
 */
export const F64_DESCRIPTOR: BinaryFormatDescriptor = Object.freeze({
  name: 'f64', significandBits: 53, minExponent: -1022, maxExponent: 1023, round: (x: number) => x,
});
/**
 * modprec's binary32 conversion.
 * @group Testing
 */
export const F32_DESCRIPTOR: BinaryFormatDescriptor = Object.freeze({
  name: 'f32', significandBits: 24, minExponent: -126, maxExponent: 127,
  round: roundToF32, encode: f32ToBits, decode: f32FromBits, bitWidth: 32,
});
/**
 * modprec's binary16 conversion.
 * @group Testing
 */
export const F16_DESCRIPTOR: BinaryFormatDescriptor = Object.freeze({
  name: 'f16', significandBits: 11, minExponent: -14, maxExponent: 15,
  round: roundToF16, encode: f16BitsFromNumber, decode: numberFromF16Bits, bitWidth: 16,
});
/**
 * modprec's bfloat16 conversion.
 * @group Testing
 */
export const BF16_DESCRIPTOR: BinaryFormatDescriptor = Object.freeze({
  name: 'bf16', significandBits: 8, minExponent: -126, maxExponent: 127,
  round: roundToBf16, encode: bf16BitsFromNumber, decode: numberFromBf16Bits, bitWidth: 16,
});
/**
 * modprec's int8 conversion.
 * @group Testing
 */
export const I8_DESCRIPTOR: IntegerFormatDescriptor = Object.freeze({ name: 'i8', min: -128, max: 127, round: roundToInt8, nanValue: 0 });
/**
 * modprec's int16 conversion.
 * @group Testing
 */
export const I16_DESCRIPTOR: IntegerFormatDescriptor = Object.freeze({ name: 'i16', min: -32768, max: 32767, round: roundToInt16, nanValue: 0 });
/**
 * modprec's int32 conversion.
 * @group Testing
 */
export const I32_DESCRIPTOR: IntegerFormatDescriptor = Object.freeze({ name: 'i32', min: -2147483648, max: 2147483647, round: roundToInt32, nanValue: 0 });

/**
 * Names of the built-in binary formats accepted wherever a format is expected.
 * @group Testing
 */
export type BinaryFormatName = 'f64' | 'f32' | 'f16' | 'bf16';

/**
 * A built-in format's name, or parameters (a descriptor is also accepted: it has them).
 * @group Testing
 */
export type BinaryFormatLike = BinaryFormatName | BinaryFormatParameters;

const BY_NAME: Record<BinaryFormatName, BinaryFormatDescriptor> = {
  f64: F64_DESCRIPTOR, f32: F32_DESCRIPTOR, f16: F16_DESCRIPTOR, bf16: BF16_DESCRIPTOR,
};

/**
 * Resolves a format name to its built-in descriptor; passes parameters through.
 *
 * @param format - `'f64' | 'f32' | 'f16' | 'bf16'` or format parameters
 * @param parameter - the name errors give to `format` (default `'format'`)
 * @returns the parameters (a full descriptor for a name)
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `parameter` for an unknown name or a format that is not an object
 * @example
 * ```ts
 * import { resolveBinaryFormat } from 'modprec/testing';
 *
 * resolveBinaryFormat('bf16').significandBits; // → 8
 * resolveBinaryFormat({ significandBits: 4, minExponent: -6, maxExponent: 7 }).maxExponent; // → 7
 * ```
 * @group Testing
 */
export function resolveBinaryFormat(format: BinaryFormatLike, parameter = 'format'): BinaryFormatParameters {
  if (typeof format === 'string') {
    const found = BY_NAME[format];
    if (found === undefined) fail('INVALID_FORMAT', parameter, `must be one of ${Object.keys(BY_NAME).join(', ')}`, format);
    return found;
  }
  // An undefined or null format threw a TypeError destructuring its fields in every arbitrary taking one.
  if (typeof format !== 'object' || format === null) {
    fail('INVALID_FORMAT', parameter, `must be one of ${Object.keys(BY_NAME).join(', ')} or { significandBits, minExponent, maxExponent }`, format);
  }
  return format;
}

/**
 * Checks a descriptor before laws run on it, so a malformed one fails with a clear message.
 *
 * @param descriptor - the format under test
 * @returns the descriptor
 * @throws {@link ModprecError} `INVALID_FORMAT` when parameters are out of range or encode/decode/bitWidth are inconsistent
 * @example
 * ```ts
 * import { createBinaryRounder } from 'modprec';
 * import { checkBinaryFormatDescriptor } from 'modprec/testing';
 *
 * const e4m3 = checkBinaryFormatDescriptor({ name: 'e4m3', significandBits: 4, minExponent: -6, maxExponent: 7,
 *   round: createBinaryRounder({ significandBits: 4, minExponent: -6, maxExponent: 7 }) });
 * e4m3.name; // → 'e4m3'
 * ```
 * @group Testing
 */
export function checkBinaryFormatDescriptor(descriptor: BinaryFormatDescriptor): BinaryFormatDescriptor {
  if (typeof descriptor?.round !== 'function') fail('INVALID_FORMAT', 'format.round', 'must be a function', descriptor?.round);
  if (typeof descriptor.name !== 'string') fail('INVALID_FORMAT', 'format.name', 'must be a string', descriptor.name);
  checkBinaryFormatParameters('format', descriptor); // p ≤ 52: midpoints must be doubles
  const hasCodec = descriptor.encode !== undefined || descriptor.decode !== undefined;
  if (hasCodec && (typeof descriptor.encode !== 'function' || typeof descriptor.decode !== 'function')) {
    fail('INVALID_FORMAT', 'format.encode', 'and format.decode must be given together');
  }
  if (hasCodec && (!Number.isInteger(descriptor.bitWidth) || descriptor.bitWidth! < 2 || descriptor.bitWidth! > 32)) {
    fail('INVALID_FORMAT', 'format.bitWidth', 'must be an integer in [2, 32] when encode/decode are given', descriptor.bitWidth);
  }
  return descriptor;
}
