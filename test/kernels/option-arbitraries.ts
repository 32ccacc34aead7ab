/**
 * Option objects for property tests of option checks: each key absent (often), one of its valid values, or one of its
 * invalid values (seldom, so that most objects hold at most one bad option).
 */
import fc from 'fast-check';

/** A key's valid and invalid values. */
export type OptionValues = Readonly<Record<string, readonly [readonly unknown[], readonly unknown[]]>>;

/**
 * Records over `values`' keys, each absent (weight 6), valid (4) or invalid (1).
 * @param values - per key, its valid and its invalid values
 * @returns the arbitrary
 */
export function sometimesInvalidOptions(values: OptionValues): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    Object.fromEntries(Object.entries(values).map(([key, [valid, invalid]]) => [key, fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 4, arbitrary: fc.constantFrom<unknown>(...valid) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(...invalid) },
    )])),
    { requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, unknown>>;
}
