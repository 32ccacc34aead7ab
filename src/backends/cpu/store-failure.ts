/**
 * A result the output's storage cannot hold: RNS storage (kind `mp`) has no NaN or ±∞, so an IEEE arithmetic's
 * (fp64, fp32, ff, dd) non-finite result cannot be stored there. The generated store checks the value first and
 * throws a {@link StoreFailure} carrying the element's storage position; the kernel's entry (kernels/shared/
 * output-restore.ts) puts the output back as it was and names the element in the public range's indices.
 * @module
 */
import { ModprecError, describeValue } from '../../core/errors.js';
import type { ArithmeticFormat, Register, StorageFormat } from '../../formats/common/format.js';

/** A store refused: `position` is the element's index in the storage buffer (the accessor's linear index). */
export class StoreFailure extends ModprecError {
  /** The storage position of the element that was not written. */
  readonly position: number;
  /** The value refused (a number, or a double-double pair's sum). */
  readonly value: number;

  /**
   * @param position - the element's storage position
   * @param value - the value refused
   * @param parameter - the element as a parameter name (`y[1]`), once known
   * @param storage - the storage's name, for the message
   */
  constructor(position: number, value: number, parameter: string, storage: string) {
    super('INVALID_VALUE', `invalid argument: ${parameter} must be a finite result: ${storage} storage holds finite values only (the output is left as it was), got ${describeValue(value)}`, parameter);
    this.name = 'ModprecError';
    this.position = position;
    this.value = value;
  }
}

/** Whether a store of `ar`'s registers into `st` must check that the value is finite (RNS storage from an IEEE arithmetic). */
export function storeChecksFinite(st: StorageFormat, ar: ArithmeticFormat): boolean {
  return st.kind === 'mp' && ar.kind !== 'mp';
}

/** The generated store's refusal (a helper of the programs that check). */
export function storeNotFinite(position: number, value: number, storage: string): never {
  throw new StoreFailure(position, value, `element at position ${position}`, storage);
}

/**
 * Source: throws through `storeNotFinite` when `src` (a number or double-double register: either part) is not finite.
 */
export function emitFiniteCheck(src: Register, pos: string, storage: string): string {
  // v - v is 0 for every finite v, NaN for ±∞ and NaN: one comparison, no call on the common path.
  const [h, l] = src.names as [string, string | undefined];
  const test = l === undefined ? `${h} - ${h}` : `${h} - ${h} + (${l} - ${l})`;
  const value = l === undefined ? h : `${h} + ${l}`;
  return `if (!(${test} === 0)) storeNotFinite(${pos}, ${value}, ${JSON.stringify(storage)});`;
}
