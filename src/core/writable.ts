/**
 * Whether an output object's fields can be assigned: a frozen object, or one whose field is a getter without a
 * setter, threw a TypeError at the write (modules are strict), after part of the result was written.
 * @module
 */
import { fail } from './errors.js';

/** Whether `o[key] = v` succeeds: a writable data property or a setter on `o` or its prototypes, or a new property on an extensible `o`. */
function canAssign(o: object, key: string): boolean {
  for (let p: object | null = o; p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, key);
    if (d) return 'value' in d ? d.writable === true && (p === o || Object.isExtensible(o)) : d.set !== undefined;
  }
  return Object.isExtensible(o);
}

/**
 * Asserts `out` is an object whose `keys` can all be assigned.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `parameter` otherwise
 */
export function checkWritableFields(parameter: string, out: unknown, keys: readonly string[]): void {
  if (typeof out !== 'object' || out === null) fail('INVALID_VALUE', parameter, `must be an object { ${keys.join(', ')} }`, out);
  for (const k of keys) if (!canAssign(out, k)) fail('INVALID_VALUE', parameter, `must be an object whose ${k} can be assigned (not frozen, not a getter)`, out);
}
