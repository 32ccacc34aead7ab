/**
 * Index spans: the half-open interval [begin, end) of indices along one dimension (Ginkgo's index_span).
 * @module
 */
import { fail } from './errors.js';

/**
 * The half-open index interval [begin, end).
 * @group Ranges & accessors
 */
export interface Span {
  /** First index of the span. */
  readonly begin: number;
  /** One past the last index (a span with begin = end is empty). */
  readonly end: number;
}

/**
 * The span [begin, end).
 * @example
 * ```ts
 * import { span, matrix } from 'modprec';
 *
 * const A = matrix(3, 4, (i, j) => 10 * i + j);
 * const B = A.sub(span(0, 2), span(1, 3));   // rows 0..1, columns 1..2, over the same memory
 * B.get(1, 0); // → 11
 * ```
 * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` if begin > end or either is not a non-negative integer
 * @group Ranges & accessors
 */
export function span(begin: number, end: number): Span {
  if (!Number.isSafeInteger(begin) || begin < 0) fail('INDEX_OUT_OF_RANGE', 'span.begin', 'must be a non-negative integer', begin);
  if (!Number.isSafeInteger(end) || end < begin) fail('INDEX_OUT_OF_RANGE', 'span.end', `must be an integer ≥ begin (${begin})`, end);
  return { begin, end };
}

/**
 * A span, or an integer i meaning the point span [i, i+1).
 * @group Ranges & accessors
 */
export type SpanLike = Span | number;

/**
 * Normalises a {@link SpanLike} to a new {@link Span} (the caller's object is read once, not kept).
 * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` naming `parameter` for anything but an index or a span 0 ≤ begin ≤ end
 */
export function toSpan(s: SpanLike, parameter: string): Span {
  if (typeof s === 'number') {
    if (!Number.isSafeInteger(s) || s < 0) fail('INDEX_OUT_OF_RANGE', parameter, 'must be a non-negative integer index', s);
    return { begin: s, end: s + 1 };
  }
  if (typeof s !== 'object' || s === null) fail('INDEX_OUT_OF_RANGE', parameter, 'must be an index or a span with 0 ≤ begin ≤ end', s);
  // Each bound is read once and a copy returned: the caller's object (a getter, a Proxy) was read again after it was
  // checked, so sub({ get begin() … }) could view other elements than the ones validated.
  const { begin, end } = s;
  if (!Number.isSafeInteger(begin) || !Number.isSafeInteger(end) || begin < 0 || end < begin) {
    fail('INDEX_OUT_OF_RANGE', parameter, 'must be an index or a span with 0 ≤ begin ≤ end', s);
  }
  return { begin, end };
}
