/** fast-check generators of doubles and normalised double-doubles for the DD tests. */
import fc from 'fast-check';

/** A double sign·m·2^(e−52) with a full 53-bit significand m and e in [minExp, maxExp]. */
export function fullDouble(minExp = -300, maxExp = 300): fc.Arbitrary<number> {
  return fc
    .tuple(fc.boolean(), fc.bigInt({ min: 1n << 52n, max: (1n << 53n) - 1n }), fc.integer({ min: minExp, max: maxExp }))
    .map(([neg, m, e]) => (neg ? -1 : 1) * Number(m) * 2 ** (e - 52));
}

/**
 * A normalised double-double (hi = RN(hi + lo)): a full hi plus a lo 53 to 110 binades below it
 * (sometimes exactly zero), renormalised with TwoSum (value unchanged).
 */
export function normalizedDd(minExp = -300, maxExp = 300): fc.Arbitrary<[number, number]> {
  return fc
    .tuple(fullDouble(minExp, maxExp), fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: 53, max: 110 }), fc.nat(9))
    .map(([hi, f, gap, zero]) => {
      const lo = zero === 0 ? 0 : f * Math.abs(hi) * 2 ** -gap;
      const s = hi + lo;
      const z = s - hi;
      return [s, (hi - (s - z)) + (lo - z)] as [number, number];
    });
}
