/**
 * The law for exporting a double-double (hi + lo) to a narrower storage format: one correct
 * rounding of the exact sum, with no double rounding through hi.
 *
 * @module
 */
import fc from 'fast-check';
import type { BinaryFormatParameters } from '../formats/convert/binary-parameters.js';
import { ulp } from '../formats/convert/double-neighbours.js';
import { midpointsOf, nearMidpointsOf, interestingDoublesFor } from './arbitraries.js';
import { exactOf } from './exact.js';
import { addRational } from './rational.js';
import { roundRationalToFormat } from './round-rational.js';
import { resolveBinaryFormat, type BinaryFormatLike } from './format-descriptors.js';
import { show } from './law-runner.js';
import { fail } from '../core/errors.js';

/**
 * A normalised double-double: hi = fl(hi + lo), so |lo| ≤ ulp(hi)/2.
 * @group Testing
 */
export interface DoubleDoubleSample {
  readonly hi: number;
  readonly lo: number;
}

/** Error-free 2Sum (Knuth): s + e = a + b exactly, s = fl(a + b). */
function twoSum(a: number, b: number): DoubleDoubleSample {
  const s = a + b;
  const bb = s - a;
  const e = a - (s - bb) + (b - bb);
  return { hi: s, lo: e };
}

/**
 * Normalised double-doubles (hi = fl(hi + lo)) over many binades: hi a double with |hi| in
 * [2^minExponent, 2^maxExponent), lo anything from 0 to half an ulp of hi (ties included) of either sign.
 *
 * @param options - binade range of hi (default 2^−60 … 2^60)
 * @returns an arbitrary of {@link DoubleDoubleSample}s
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { doubleDoubles } from 'modprec/testing';
 *
 * fc.assert(fc.property(doubleDoubles(), ({ hi, lo }) => hi + lo === hi));
 * ```
 * @group Testing
 */
export function doubleDoubles(options: { minExponent?: number; maxExponent?: number } = {}): fc.Arbitrary<DoubleDoubleSample> {
  if (typeof options !== 'object' || options === null) fail('INVALID_OPTION', 'options', 'must be an object', options);
  const low = options.minExponent ?? -60;
  const high = options.maxExponent ?? 60;
  if (!Number.isInteger(low) || !Number.isInteger(high) || low > high || low < -960 || high > 1020) {
    fail('INVALID_OPTION', 'options.maxExponent', 'must be an integer with −960 ≤ minExponent ≤ maxExponent ≤ 1020', high);
  }
  const hi = fc.tuple(fc.boolean(), fc.integer({ min: low, max: high - 1 }), fc.double({ min: 1, max: 2, maxExcluded: true, noNaN: true }))
    .map(([s, e, m]) => (s ? -m : m) * 2 ** e);
  const fraction = fc.oneof(fc.constantFrom(0, 0.5, 2 ** -30), fc.double({ min: 0, max: 0.5, noNaN: true }));
  return fc.tuple(hi, fraction, fc.boolean()).map(([h, t, negative]) => twoSum(h, (negative ? -t : t) * ulp(h)));
}

/**
 * Normalised double-doubles whose exact value sits on or next to the ties of a format: hi a tie
 * (or a double next to one) plus a small lo of either sign (zero, tiny, up to half an ulp of hi),
 * renormalised with 2Sum; plus hi anywhere in the format's range.
 *
 * @param format - the target format (p ≤ 52)
 * @returns an arbitrary of finite {@link DoubleDoubleSample}s
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { isNormalizedDd } from 'modprec';
 * import { doubleDoublesNearTiesOf } from 'modprec/testing';
 *
 * fc.assert(fc.property(doubleDoublesNearTiesOf('f32'), ({ hi, lo }) => isNormalizedDd(hi, lo)));
 * ```
 * @group Testing
 */
export function doubleDoublesNearTiesOf(format: BinaryFormatLike): fc.Arbitrary<DoubleDoubleSample> {
  const f = resolveBinaryFormat(format);
  const hi = fc.oneof(midpointsOf(f), nearMidpointsOf(f), interestingDoublesFor(f).filter(Number.isFinite));
  const fraction = fc.oneof(fc.constantFrom(0, 2 ** -60, 0.5, 0.25), fc.double({ min: 0, max: 0.5, noNaN: true }));
  return fc.tuple(hi, fraction, fc.boolean()).map(([h, t, negative]) => {
    const lo = (negative ? -t : t) * ulp(h);
    return Number.isFinite(h + lo) ? twoSum(h, lo) : { hi: h, lo: 0 };
  });
}

/**
 * Double-double export: `exportDd(hi, lo)` equals hi + lo rounded once, to nearest-even, in the
 * format (oracle: exact BigInt sum then rounding), on double-doubles near the format's ties.
 * A conversion that rounds hi alone fails it.
 *
 * @param format - the target format (p ≤ 52); a descriptor's name is used in messages
 * @param exportDd - the conversion under test, e.g. `(hi, lo) => roundToF16(roundToOddDd(hi, lo))`
 * @returns a fast-check property
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { roundToF16, roundToOddDd } from 'modprec';
 * import { lawDoubleDoubleExport } from 'modprec/testing';
 *
 * fc.assert(lawDoubleDoubleExport('f16', (hi, lo) => roundToF16(roundToOddDd(hi, lo))), { numRuns: 1000 });
 * ```
 * @group Testing
 */
export function lawDoubleDoubleExport(
  format: BinaryFormatLike,
  exportDd: (hi: number, lo: number) => number,
): fc.IPropertyWithHooks<[DoubleDoubleSample]> {
  const f: BinaryFormatParameters = resolveBinaryFormat(format);
  if (typeof exportDd !== 'function') fail('INVALID_OPTION', 'exportDd', 'must be a function (hi, lo) => number', exportDd);
  const name = typeof format === 'string' ? format : ((format as { name?: string }).name ?? 'format');
  return fc.property(doubleDoublesNearTiesOf(f), ({ hi, lo }) => {
    const got = exportDd(hi, lo);
    const expected = hi === 0 && lo === 0 ? hi : roundRationalToFormat(addRational(exactOf(hi), exactOf(lo)), f);
    if (!Object.is(got, expected)) {
      throw new Error(`${name}: export of ${show(hi)} + ${show(lo)} gave ${show(got)}, expected ${show(expected)} (single rounding)`);
    }
  });
}
