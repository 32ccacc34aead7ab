/**
 * A result the output's storage does not take. RNS storage (kind `mp`) has no NaN or ±∞, so an IEEE arithmetic's
 * (fp64, fp32, ff, dd) non-finite result cannot be stored there: the generated store checks the value first. A
 * user's storage format may refuse a value in its own write (its encode throws): the generated store catches that.
 * Either way it throws a {@link StoreFailure} carrying the element's storage position; the kernel's entry
 * (kernels/shared/output-restore.ts) puts the output back as it was and names the element in the public range's
 * indices. The built-in formats other than RNS never refuse a value (floating storage rounds to ±∞, integer
 * storage saturates, NaN → 0), so their stores carry no check.
 * @module
 */
import { ModprecError, describeValue } from '../../core/errors.js';
import type { ArithmeticFormat, Register, StorageFormat } from '../../formats/common/format.js';
import { f64Storage } from '../../formats/f64/f64.js';
import { f32Storage } from '../../formats/f32/f32.js';
import { f16Storage } from '../../formats/f16/f16.js';
import { bf16Storage } from '../../formats/bf16/bf16.js';
import { i8Storage, i16Storage, i32Storage } from '../../formats/scaled-integer/scaled-integer.js';
import { ddSplitStorage, ddStorage } from '../../formats/dd/dd-storage.js';
import { isRnsStorageFormat } from '../../formats/rns/rns-formats.js';

/** A store refused: `position` is the element's index in the storage buffer (the accessor's linear index). */
export class StoreFailure extends ModprecError {
  /** The storage position of the element that was not written. */
  readonly position: number;
  /** Why: the non-finite value refused, or the error the storage's write threw. */
  readonly reason: { readonly value: number } | { readonly thrown: unknown };

  /**
   * @param position - the element's storage position
   * @param reason - the value refused, or what the write threw
   * @param parameter - the element as a parameter name (`y[1]`), once known
   * @param storage - the storage's name, for the message
   */
  constructor(position: number, reason: StoreFailure['reason'], parameter: string, storage: string) {
    super('INVALID_VALUE', 'value' in reason
      ? `invalid argument: ${parameter} must be a finite result: ${storage} storage holds finite values only (the output is left as it was), got ${describeValue(reason.value)}`
      : `invalid argument: ${parameter} must be a result ${storage} storage takes: its write threw ${reason.thrown instanceof Error ? `"${reason.thrown.message}"` : describeValue(reason.thrown)} (the output is left as it was)`,
    parameter);
    this.name = 'ModprecError';
    this.position = position;
    this.reason = reason;
    if ('thrown' in reason) (this as { cause?: unknown }).cause = reason.thrown;
  }
}

let builtIn: Set<StorageFormat> | undefined;

/** Whether `st` is one of modprec's own storage formats (a user's format may throw in its write). */
function isBuiltInStorage(st: StorageFormat): boolean {
  builtIn ??= new Set<StorageFormat>([f64Storage, f32Storage, f16Storage, bf16Storage, i8Storage, i16Storage, i32Storage, ddStorage, ddSplitStorage] as StorageFormat[]);
  return builtIn.has(st) || isRnsStorageFormat(st);
}

/** Whether a store of `ar`'s registers into `st` checks that the value is finite (RNS storage from an IEEE arithmetic). */
export function storeChecksFinite(st: StorageFormat, ar: ArithmeticFormat): boolean {
  return st.kind === 'mp' && ar.kind !== 'mp';
}

/** Whether a store into `st` catches what the storage's write throws (a user's storage format). */
export function storeCatches(st: StorageFormat): boolean {
  return !isBuiltInStorage(st);
}

/** Whether a kernel writing `st` in `ar` may refuse an element after writing others (it then restores the output). */
export function storeMayRefuse(st: StorageFormat, ar: ArithmeticFormat): boolean {
  return storeChecksFinite(st, ar) || storeCatches(st);
}

/** The generated store's refusal of a non-finite value (a helper of the programs that check). */
export function storeNotFinite(position: number, value: number, storage: string): never {
  throw new StoreFailure(position, { value }, `element at position ${position}`, storage);
}

/** The generated store's report of what a user's storage write threw (a helper of the programs that catch). */
export function storeThrew(position: number, thrown: unknown, storage: string): never {
  if (thrown instanceof StoreFailure) throw thrown;
  throw new StoreFailure(position, { thrown }, `element at position ${position}`, storage);
}

/** Source: throws through `storeNotFinite` when `src` (a number or double-double register: either part) is not finite. */
export function emitFiniteCheck(src: Register, pos: string, storage: string): string {
  // v - v is 0 for every finite v, NaN for ±∞ and NaN: one comparison, no call on the common path.
  const [h, l] = src.names as [string, string | undefined];
  const test = l === undefined ? `${h} - ${h}` : `${h} - ${h} + (${l} - ${l})`;
  const value = l === undefined ? h : `${h} + ${l}`;
  return `if (!(${test} === 0)) storeNotFinite(${pos}, ${value}, ${JSON.stringify(storage)});`;
}

/** Source: `write` (a user storage's statements) with what it throws reported through `storeThrew`. */
export function emitCaughtWrite(write: string, pos: string, storage: string): string {
  return `try { ${write} } catch (storeError) { storeThrew(${pos}, storeError, ${JSON.stringify(storage)}); }`;
}
