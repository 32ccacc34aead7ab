/**
 * The one error class of modprec.
 *
 * Every validation failure at a public boundary throws a {@link ModprecError}
 * with a stable {@link ModprecErrorCode}, the name of the offending parameter,
 * and a message of the form `invalid argument: <param> <what was expected>, got <value>`.
 * Errors are raised before any output is written.
 *
 * @module
 */

/**
 * Stable machine-readable error codes. New codes may be added; existing ones never change meaning.
 * @group Errors
 */
export type ModprecErrorCode =
  /** A size, length or shape disagrees with another operand. */
  | 'DIMENSION_MISMATCH'
  /** A number that must be a non-negative / positive integer is not. */
  | 'INVALID_SIZE'
  /** A stride or leading dimension is zero, negative where not allowed, or too small for the shape. */
  | 'INVALID_STRIDE'
  /** An index or span lies outside the range. */
  | 'INDEX_OUT_OF_RANGE'
  /** A storage buffer has the wrong type or is too short for the accessor. */
  | 'INVALID_STORAGE'
  /** A format name or format pairing is not supported. */
  | 'INVALID_FORMAT'
  /** An option has a value outside its documented set. */
  | 'INVALID_OPTION'
  /** A value cannot be represented (non-finite where finite is required, out of exponent range). */
  | 'INVALID_VALUE'
  /** A text input (Matrix Market file, decimal string) is malformed. */
  | 'PARSE_ERROR'
  /** A backend (GPU adapter) is unavailable or a limit of it is exceeded. */
  | 'BACKEND_UNAVAILABLE'
  | 'BACKEND_LIMIT'
  /** An optional package an entry point needs is not installed (e.g. fast-check for `modprec/testing`). */
  | 'MISSING_DEPENDENCY'
  /** The page's Content-Security-Policy forbids generating the kernel's code (`new Function` needs `'unsafe-eval'`). */
  | 'CODE_GENERATION_BLOCKED';

/**
 * Error thrown by every modprec API on bad input.
 *
 * @example
 * ```ts
 * import { ModprecError, range, rowMajor } from 'modprec';
 *
 * try { range(rowMajor({ size: [2, -1] })); }
 * catch (e) { if (e instanceof ModprecError && e.code === 'INVALID_SIZE') console.log(e.parameter); }
 * ```
 * @group Errors
 */
export class ModprecError extends Error {
  /** Stable error code. */
  readonly code: ModprecErrorCode;
  /** Name of the offending parameter (e.g. `"x"`, `"A.size[1]"`, `"line 12"`), when there is one. */
  readonly parameter: string | undefined;

  /**
   * @param code - stable error code
   * @param message - human-readable message; should name the parameter and the offending value
   * @param parameter - the offending parameter's name
   * @throws {@link ModprecError} `INVALID_OPTION` naming `code`, `message` or `parameter` when it is not a string
   *   (`parameter` may be left out)
   */
  constructor(code: ModprecErrorCode, message: string, parameter?: string) {
    // Checked before Error's constructor, which threw a TypeError converting a Symbol message to a string.
    const wrong = typeof code !== 'string' ? ['code', code] : typeof message !== 'string' ? ['message', message]
      : parameter !== undefined && typeof parameter !== 'string' ? ['parameter', parameter] : undefined;
    if (wrong) throw new ModprecError('INVALID_OPTION', `invalid argument: ${wrong[0]} must be a string, got ${describeValue(wrong[1])}`, wrong[0] as string);
    super(message);
    this.name = 'ModprecError';
    this.code = code;
    this.parameter = parameter;
  }
}

/** Renders a value for an error message, short and unambiguous (`-0`, `NaN`, `"str"`, `[object Float32Array(4)]`). */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as { length: number }).length})`;
  if (Array.isArray(value)) return `Array(${value.length})`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  return typeof value === 'object' ? `[${value.constructor?.name ?? 'object'}]` : String(value);
}

/**
 * Throws `ModprecError(code)` with the standard message `invalid argument: <parameter> <expected>, got <value>`.
 * @throws {@link ModprecError} always
 */
export function fail(code: ModprecErrorCode, parameter: string, expected: string, value?: unknown): never {
  const got = arguments.length >= 4 ? `, got ${describeValue(value)}` : '';
  throw new ModprecError(code, `invalid argument: ${parameter} ${expected}${got}`, parameter);
}

/** Asserts `value` is an integer ≥ 0 (a size or length). @throws {@link ModprecError} `INVALID_SIZE` */
export function checkSize(parameter: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail('INVALID_SIZE', parameter, 'must be a non-negative integer', value);
  }
  return value;
}

/** Asserts `value` is a finite number. @throws {@link ModprecError} `INVALID_VALUE` */
export function checkFinite(parameter: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail('INVALID_VALUE', parameter, 'must be a finite number', value);
  return value;
}
