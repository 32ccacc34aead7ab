/**
 * Storage in shared memory (a SharedArrayBuffer), which worker threads can read and write in place: what the
 * `shared` option of the range factories allocates, and what a call split over threads requires of its operands.
 * @module
 */
import { fail } from './errors.js';

/** Whether `data` is a typed array over a SharedArrayBuffer. */
export function inSharedMemory(data: unknown): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && ArrayBuffer.isView(data) && data.buffer instanceof SharedArrayBuffer;
}

/**
 * A typed array of the same type and length as `data` (zero-filled) over a new SharedArrayBuffer.
 * @param parameter - the option named in errors
 * @throws {@link ModprecError} `INVALID_OPTION` naming `parameter` where SharedArrayBuffer is missing (a browser page
 *   that is not cross-origin isolated); `INVALID_FORMAT` naming `storage` for storage that is not one typed array
 */
export function sharedLike<T>(data: T, parameter: string): T {
  if (typeof SharedArrayBuffer === 'undefined') fail('INVALID_OPTION', parameter, 'needs SharedArrayBuffer (cross-origin isolation)');
  if (!ArrayBuffer.isView(data)) fail('INVALID_FORMAT', 'storage', 'must be one typed array to be shared');
  const C = data.constructor as new (b: SharedArrayBuffer) => T;
  return new C(new SharedArrayBuffer(data.byteLength));
}
