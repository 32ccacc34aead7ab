/**
 * A bad command line: the CLI prints the message and exits with code 2 before any work starts.
 * @module
 */

/** Exit code of a usage error. */
export const USAGE_EXIT_CODE = 2;

/** A command-line mistake, with a message that says what was wrong and what is accepted. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
