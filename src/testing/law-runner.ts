/**
 * Running a named set of fast-check properties with one set of parameters, naming the law that fails.
 *
 * @module
 */
import fc from 'fast-check';
import { fail } from '../core/errors.js';

/**
 * fast-check parameters the law runners pass through.
 * @group Testing
 */
export interface LawRunOptions {
  /** Runs per law (fast-check's default is 100). */
  readonly numRuns?: number;
  /** Seed, to replay a failure that fast-check reported. */
  readonly seed?: number;
}

/**
 * One law, ready to run.
 * @group Testing
 */
export interface Law {
  /** Its name, as given in failure messages (e.g. `'correct rounding'`). */
  readonly name: string;
  /** Checks the law; throws an Error naming the law and the counterexample when it fails. */
  readonly check: (options?: LawRunOptions) => void;
}

/**
 * Wraps a fast-check property as a {@link Law}.
 *
 * @param subject - what the law is about (the format's name), for messages
 * @param name - the law's name
 * @param property - a synchronous fast-check property
 * @returns the law
 * @example
 * ```ts
 * import fc from 'fast-check';
 * import { lawOf } from 'modprec/testing';
 *
 * const law = lawOf('Math.fround', 'idempotent', fc.property(fc.double(), (x) => Object.is(Math.fround(Math.fround(x)), Math.fround(x))));
 * law.check({ numRuns: 200 });   // throws, naming the law and a counterexample, if it fails
 * law.name; // → 'idempotent'
 * ```
 * @group Testing
 */
export function lawOf<Ts>(subject: string, name: string, property: fc.IProperty<Ts>): Law {
  return {
    name,
    check: (options: LawRunOptions = {}) => {
      try {
        fc.assert(property, { ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        // fast-check keeps the predicate's own error (which says what went wrong) as the cause.
        const cause = error instanceof Error && error.cause instanceof Error ? `\n${error.cause.message}` : '';
        throw new Error(`${subject}: law "${name}" failed${cause}\n${detail}`, { cause: error });
      }
    },
  };
}

/**
 * Checks every law of a list, stopping at the first that fails.
 *
 * @param laws - the laws
 * @param options - runs per law and seed
 * @throws Error naming the failing law and its counterexample
 * @example
 * ```ts
 * import { F16_DESCRIPTOR, checkLaws, storageConversionLaws } from 'modprec/testing';
 *
 * checkLaws(storageConversionLaws(F16_DESCRIPTOR), { numRuns: 100 });
 * ```
 * @group Testing
 */
export function checkLaws(laws: readonly Law[], options?: LawRunOptions): void {
  // Checked before any law runs: a law that is not one would otherwise fail midway, after the others ran.
  if (!Array.isArray(laws)) fail('INVALID_OPTION', 'laws', 'must be an array of laws (lawOf, storageConversionLaws …)', laws);
  laws.forEach((law: unknown, i) => {
    if (typeof (law as Partial<Law> | null)?.check !== 'function') fail('INVALID_OPTION', `laws[${i}]`, 'must be a law { name, check }', law);
  });
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    fail('INVALID_OPTION', 'options', 'must be an object of run options', options);
  }
  for (const law of laws) law.check(options);
}

/**
 * Writes a number for failure messages, with −0 visible.
 * @param x - any number
 * @returns `'-0'` for −0, else `String(x)`
 */
export function show(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}
