/**
 * Whether an object has the methods of a storage or an arithmetic format: what asStorage, registerFormat and the
 * Accessor constructor check before trusting one (an object without them failed later with a native TypeError).
 * @module
 */
import type { ArithmeticFormat, StorageFormat } from './format.js';

/** The methods every range and kernel calls on a storage. */
const STORAGE_METHODS = ['allocate', 'accepts', 'capacity', 'decode', 'encode', 'emitRead', 'emitWrite'] as const;
/** The methods every range and kernel calls on an arithmetic. */
const ARITHMETIC_METHODS = ['fromNumber', 'toNumber', 'register', 'emitDeclare', 'emitConvert', 'emitFma'] as const;

/** Whether `x` has every method of a {@link StorageFormat}. */
export function isStorageFormat(x: unknown): x is StorageFormat {
  return typeof x === 'object' && x !== null && STORAGE_METHODS.every((k) => typeof (x as StorageFormat)[k] === 'function');
}

/** Whether `x` has every method of an {@link ArithmeticFormat}. */
export function isArithmeticFormat(x: unknown): x is ArithmeticFormat {
  return typeof x === 'object' && x !== null && ARITHMETIC_METHODS.every((k) => typeof (x as ArithmeticFormat)[k] === 'function');
}
