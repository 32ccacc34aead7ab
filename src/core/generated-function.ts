/**
 * The one way modprec turns generated source into a function (`new Function`), so that a page whose
 * Content-Security-Policy forbids it (no `'unsafe-eval'` in `script-src`) gets a {@link ModprecError} that says
 * why and what to do, instead of a bare EvalError from deep inside a kernel call.
 * @module
 */
import { ModprecError } from './errors.js';

/** What a page must allow, in the words of the error (tests match on it). */
export const CSP_ADVICE =
  "add 'unsafe-eval' to the script-src directive of the Content-Security-Policy of the page (or worker) that runs modprec";

/**
 * `new Function(...parameters, body)`, with the browser's refusal under a strict CSP turned into a typed error.
 * @param what - what is being compiled, for the message (e.g. `the DOT kernel`)
 * @param parameters - parameter names
 * @param body - the function body
 * @returns the compiled function
 * @throws {@link ModprecError} `CODE_GENERATION_BLOCKED` when the environment forbids generating code
 * @example
 * ```ts
 * const add = generatedFunction('an adder', ['a', 'b'], 'return a + b;') as (a: number, b: number) => number;
 * add(1, 2); // 3
 * ```
 */
export function generatedFunction(what: string, parameters: readonly string[], body: string): (...args: never[]) => unknown {
  try {
    return new Function(...parameters, body) as (...args: never[]) => unknown;
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new ModprecError(
      'CODE_GENERATION_BLOCKED',
      `modprec compiles ${what} at run time from generated source (new Function), which this page's Content-Security-Policy ` +
        `forbids: ${CSP_ADVICE}. (${e.message})`,
      'Content-Security-Policy',
    );
  }
}
