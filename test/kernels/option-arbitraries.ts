/**
 * Option objects for property tests of option checks: each key absent (often), one of its valid values, or one of its
 * invalid values (seldom, so that most objects hold at most one bad option).
 */
import fc from 'fast-check';
import { accumulationNames, formats, ModprecError } from '../../src/index.js';

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

/** A pool's shape as the kernels check it (its checks accept every call); its answer stands for the split call's. */
export const fakePool = { threads: 2, runSplit: (): number => 0, checkOptions: (): void => undefined, checkSplit: (): void => undefined };

/** The options every bound function checks as its kernel does: values the kernels take, and values they refuse. */
export const BOUND_OPTION_VALUES = {
  backend: [['cpu', 'js', 'wasm', 'gpu'], ['GPU', 3]],
  strict: [[true, false], ['x', 1]],
  threads: [[fakePool], ['pool', {}, 2]],
  arithmetic: [[formats.f64, formats.f32, formats.ff, formats.dd, formats.rns106, 'f32'], ['f16', 'nope', 7]],
  accumulation: [accumulationNames(), ['nope', 7]],
} as const;

/**
 * The outcome of a call: `ok` with what it returned, or the typed error's code and parameter (another exception is
 * rethrown), so that a bound function's outcome can be compared with its kernel's.
 * @param call - the call
 * @returns the outcome
 */
export function outcome(call: () => unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: call() };
  } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    return { ok: false, error: `${e.code} ${e.parameter}` };
  }
}
