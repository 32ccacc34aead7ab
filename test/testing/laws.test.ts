/**
 * The laws must be able to fail: each deliberately wrong conversion below is caught by the law
 * aimed at its mistake, while the correct conversion passes the same law.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BFLOAT16, BINARY32, createBinaryRounder, f16BitsFromNumber, numberFromF16Bits, roundToF16, roundToOddDd, roundToBf16, roundToF32 } from '../../src/formats/convert/index.js';
import {
  type BinaryFormatDescriptor, F16_DESCRIPTOR, I8_DESCRIPTOR, checkIntegerConversionLaws, checkStorageConversionLaws,
  lawCodec, lawCorrectRounding, lawDoubleDoubleExport, lawGradualUnderflow, lawMonotonic, lawNoDoubleRounding,
  lawInnocuousDoubleRounding, lawOverflow, lawRoundTrip, lawSpecialsAndSymmetry, lawTiesToEven, storageConversionLaws,
} from '../../src/testing/index.js';
import { ModprecError } from '../../src/core/errors.js';

const F16_PARAMS = { significandBits: 11, minExponent: -14, maxExponent: 15 };
const mutant = (name: string, round: (x: number) => number, extra: Partial<BinaryFormatDescriptor> = {}): BinaryFormatDescriptor => ({
  name, ...F16_PARAMS, round, ...extra,
});
const runs = { numRuns: 2000 };
// binary64's parameters for the wide arithmetic (53 bits, exponents of binary64)
const BINARY64_LIKE = { significandBits: 53, minExponent: -1022, maxExponent: 1023 };
const fails = (property: fc.IProperty<never> | fc.IProperty<any>) => expect(() => fc.assert(property, runs)).toThrow();
const holds = (property: fc.IProperty<any>) => expect(() => fc.assert(property, runs)).not.toThrow();

describe('laws catch wrong binary16 conversions', () => {
  it('no double rounding: catches binary16 via Math.fround first', () => {
    const viaF32 = mutant('f16-via-f32', (x) => roundToF16(Math.fround(x)));
    fails(lawNoDoubleRounding(viaF32));
    holds(lawNoDoubleRounding(F16_DESCRIPTOR));
    // and the full suite names the law
    expect(() => checkStorageConversionLaws(viaF32, runs)).toThrow(/law "(no double rounding|correct rounding)"/);
  });

  it('ties to even: catches ties away from zero', () => {
    const tiesAway = mutant('f16-ties-away', (x) => {
      const r = roundToF16(x);
      const other = roundToF16(x + (x - r)); // on a tie, x − r is half a quantum: this is the other neighbour
      return Math.abs(x - r) === Math.abs(other - x) && Math.abs(other) > Math.abs(r) ? other : r;
    });
    fails(lawTiesToEven(tiesAway));
    holds(lawTiesToEven(F16_DESCRIPTOR));
  });

  it('correct rounding: catches truncation towards zero', () => {
    const truncating = mutant('f16-truncate', (x) => {
      const r = roundToF16(x);
      return Math.abs(r) > Math.abs(x) && Number.isFinite(x) ? numberFromF16Bits(f16BitsFromNumber(r) - 1) : r;
    });
    fails(lawCorrectRounding(truncating));
    holds(lawCorrectRounding(F16_DESCRIPTOR));
  });

  it('overflow: catches saturation to the largest finite value', () => {
    const saturating = mutant('f16-saturate', (x) => {
      const r = roundToF16(x);
      return Number.isFinite(x) && !Number.isFinite(r) ? Math.sign(x) * 65504 : r;
    });
    fails(lawOverflow(saturating));
    holds(lawOverflow(F16_DESCRIPTOR));
  });

  it('gradual underflow: catches flush-to-zero of subnormals', () => {
    const flushing = mutant('f16-ftz', (x) => (Math.abs(x) < 2 ** -14 ? x * 0 : roundToF16(x)));
    fails(lawGradualUnderflow(flushing));
    holds(lawGradualUnderflow(F16_DESCRIPTOR));
  });

  it('specials and symmetry: catches a conversion that loses the sign of zero', () => {
    const unsignedZero = mutant('f16-no-negative-zero', (x) => roundToF16(x) || (x !== x ? NaN : 0));
    fails(lawSpecialsAndSymmetry(unsignedZero));
    holds(lawSpecialsAndSymmetry(F16_DESCRIPTOR));
  });

  it('monotonicity: catches a conversion that wraps around at overflow', () => {
    const wrapping = mutant('f16-wrap', (x) => (Math.abs(x) >= 65520 && Number.isFinite(x) ? 0 : roundToF16(x)));
    fails(lawMonotonic(wrapping));
    holds(lawMonotonic(F16_DESCRIPTOR));
  });

  it('round trip and codec: catch an encoder that drops the lowest significand bit', () => {
    const lossyEncode = (x: number) => f16BitsFromNumber(x) & ~1;
    const lossy = mutant('f16-lossy-codec', roundToF16, { encode: lossyEncode, decode: numberFromF16Bits, bitWidth: 16 });
    fails(lawRoundTrip(lossy));
    fails(lawCodec(lossy));
    holds(lawCodec(F16_DESCRIPTOR));
  });
});

describe('laws work on users\' custom formats', () => {
  it('an IEEE-style 8-bit float (p = 4, emin = −6, emax = 7) built with createBinaryRounder passes every law', () => {
    const e4m3 = { name: 'e4m3-ieee', significandBits: 4, minExponent: -6, maxExponent: 7,
      round: createBinaryRounder({ significandBits: 4, minExponent: -6, maxExponent: 7 }) };
    checkStorageConversionLaws(e4m3, { numRuns: 1000 });
  });

  it('a 51-bit format with binary64\'s exponent range (scaling path of createBinaryRounder) passes every law', () => {
    const params = { significandBits: 51, minExponent: -1022, maxExponent: 1023 };
    checkStorageConversionLaws({ name: 'p51', ...params, round: createBinaryRounder(params) }, { numRuns: 1000 });
  });

  it('every law is listed and named', () => {
    expect(storageConversionLaws(F16_DESCRIPTOR).map((l) => l.name)).toEqual([
      'correct rounding', 'round trip', 'codec', 'monotonicity', 'ties to even', 'overflow', 'gradual underflow',
      'specials and symmetry', 'no double rounding',
    ]);
    expect(storageConversionLaws(F16_DESCRIPTOR, { via: null }).map((l) => l.name)).not.toContain('no double rounding');
  });

  it('malformed descriptors are rejected with typed errors', () => {
    expect(() => storageConversionLaws({ ...F16_DESCRIPTOR, significandBits: 60 })).toThrowError(ModprecError);
    expect(() => storageConversionLaws({ ...F16_DESCRIPTOR, round: undefined as never })).toThrowError(ModprecError);
    expect(() => storageConversionLaws({ name: 'x', ...F16_PARAMS, round: roundToF16, encode: f16BitsFromNumber })).toThrowError(ModprecError);
  });
});

describe('integer laws catch wrong conversions', () => {
  it('catch Math.round (ties up instead of to even) and wrapping instead of saturation', () => {
    expect(() => checkIntegerConversionLaws({ ...I8_DESCRIPTOR, name: 'i8-math-round', round: (x) => Math.max(-128, Math.min(127, Math.round(x))) || 0 }, runs)).toThrow(/law/);
    expect(() => checkIntegerConversionLaws({ ...I8_DESCRIPTOR, name: 'i8-wrap', round: (x) => ((I8_DESCRIPTOR.round(x % 256) + 128) % 256) - 128 }, runs)).toThrow(/law/);
    expect(() => checkIntegerConversionLaws(I8_DESCRIPTOR, runs)).not.toThrow();
  });
});

describe('innocuous double rounding (Figueroa: p_wide ≥ 2p + 1)', () => {
  it('holds for f16 via f32, bf16 via f32 and f32 via f64 arithmetic', () => {
    holds(lawInnocuousDoubleRounding(F16_DESCRIPTOR, 'f32'));
    holds(lawInnocuousDoubleRounding({ ...F16_DESCRIPTOR, name: 'bf16', ...BFLOAT16, round: roundToBf16 }, 'f32'));
    holds(lawInnocuousDoubleRounding({ ...F16_DESCRIPTOR, name: 'f32', ...BINARY32, round: roundToF32 }, BINARY64_LIKE));
  });

  it('holds for randomly drawn formats with p_wide = 2p + 1 (createBinaryRounder as the conversion)', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 26 }), fc.integer({ min: -300, max: 0 }), fc.integer({ min: 1, max: 300 }), (p, emin, emax) => {
      const params = { significandBits: p, minExponent: emin, maxExponent: emax };
      const format = { name: `p${p}`, ...params, round: createBinaryRounder(params) };
      fc.assert(lawInnocuousDoubleRounding(format, { significandBits: 2 * p + 1, minExponent: emin - 10, maxExponent: emax + 10 }), { numRuns: 200 });
    }), { numRuns: 30 });
  });

  it('fails when the wide format has too few bits (p_wide = p + 2), so the law can fail', () => {
    fails(lawInnocuousDoubleRounding(F16_DESCRIPTOR, { significandBits: 13, minExponent: -126, maxExponent: 127 }, ['+', '-']));
  });
});

describe('double-double export law', () => {
  it('catches rounding hi alone, and passes round-to-odd then the format\'s rounding', () => {
    for (const [name, round] of [['f16', roundToF16], ['bf16', roundToBf16], ['f32', roundToF32]] as const) {
      fails(lawDoubleDoubleExport(name, (hi) => round(hi)));
      holds(lawDoubleDoubleExport(name, (hi, lo) => round(roundToOddDd(hi, lo))));
    }
  });
});
