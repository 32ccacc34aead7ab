/**
 * The one way the Matrix Market reader reports a malformed file.
 * @module
 */
import { ModprecError } from '../core/errors.js';

/**
 * Throws `ModprecError('PARSE_ERROR')` with parameter `"line <n>"` and message `"line <n>: <what>"`.
 *
 * @param line - 1-based line number in the file
 * @param what - what was expected and what was found
 * @throws {@link ModprecError} `PARSE_ERROR` always
 */
export function parseError(line: number, what: string): never {
  throw new ModprecError('PARSE_ERROR', `line ${line}: ${what}`, `line ${line}`);
}

/**
 * Quotes a token for an error message, shortened when long.
 * @param token - the text found in the file
 * @returns the token in single quotes
 */
export function quoteToken(token: string): string {
  return `'${token.length > 40 ? token.slice(0, 37) + '...' : token}'`;
}
