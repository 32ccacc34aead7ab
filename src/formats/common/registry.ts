/**
 * The format registry: `formats.f32` names a number format that can serve as storage, as arithmetic, or both.
 * Users pass these to accessors (`storage: formats.f32, arithmetic: formats.f64`); plugins (double-double,
 * RNS) register theirs with {@link registerFormat}.
 * @module
 */
import type { ArithmeticFormat, StorageFormat } from './format.js';
import { fail } from '../../core/errors.js';
import { isArithmeticFormat as isArithmetic, isStorageFormat as isStorage } from './format-shape.js';
import { admitArithmetic, admitStorage } from './format-admission.js';
import { f64Storage } from '../f64/f64.js';
import { f32Storage } from '../f32/f32.js';
import { f64Arithmetic } from '../f64/f64-arithmetic.js';
import { f32Arithmetic } from '../f32/f32-arithmetic.js';

/**
 * A named number format: its storage codec, its CPU arithmetic, or both.
 * @group Formats
 */
export interface Format<T = unknown> {
  /** Stable name, equal to the names of its storage and arithmetic. */
  readonly name: string;
  /** How the format sits in memory, if it can be stored. */
  readonly storage?: StorageFormat;
  /** How the format is computed on, on the CPU, if it can be. */
  readonly arithmetic?: ArithmeticFormat<T>;
}

/**
 * Anything that names a format: a registry entry, a storage codec, an arithmetic, or a format name.
 * @group Formats
 */
export type FormatLike<T = unknown> = Format<T> | StorageFormat | ArithmeticFormat<T> | string;

const registry = new Map<string, Format>();
/** Names of the formats modprec registers itself: closed to users' registrations (see registerFormat). */
const builtinNames = new Set<string>();

/**
 * Adds a format to the registry (or extends an entry with a storage or arithmetic it lacked).
 * @throws {@link ModprecError} `INVALID_FORMAT` when a different codec is already registered under the name or the
 *   name is a built-in format's (f16 has no arithmetic, but one cannot be added to it: every fp16 range would compute
 *   in it), or naming
 *   `format` / `format.name` for a format that is not an object or a name that is not a non-empty string,
 *   `format.storage` / `format.arithmetic` for one that lacks a method of a storage / arithmetic format or whose own
 *   name another codec already holds (kernels are cached by format name), and their field (`format.storage.unitRoundoff`,
 *   `format.arithmetic.emitAdd`, …) for a declared number outside its range (a unit roundoff outside [0, 1); NaN
 *   only for integer storage) or a missing method
 * @example
 * ```ts
 * import { vector, registerFormat, asStorage, asArithmetic } from 'modprec';
 *
 * // fp32 storage under a second name, with fp64 arithmetic
 * const f32Copy = registerFormat({ name: 'my-f32', storage: asStorage('f32'), arithmetic: asArithmetic('f64') });
 * const x = vector([0.1], { storage: 'my-f32' });
 * x.get(0); // → 0.10000000149011612
 * ```
 * @group Formats
 */
export function registerFormat<T>(format: Format<T>): Format<T> {
  // registerFormat(undefined) threw a TypeError reading its name; a format without a name was registered as undefined.
  if (typeof format !== 'object' || format === null) fail('INVALID_FORMAT', 'format', 'must be { name, storage?, arithmetic? }', format);
  if (typeof format.name !== 'string' || format.name === '') fail('INVALID_FORMAT', 'format.name', 'must be a non-empty string', format.name);
  // A storage or arithmetic that is not one was registered, and the first range over it threw a TypeError.
  if (format.storage !== undefined && !isStorage(format.storage)) fail('INVALID_FORMAT', 'format.storage', 'must be a storage format (see typedArrayStorage)', format.storage);
  if (format.arithmetic !== undefined && !isArithmetic(format.arithmetic)) fail('INVALID_FORMAT', 'format.arithmetic', 'must be an arithmetic format', format.arithmetic);
  const old = registry.get(format.name);
  if (old && ((old.storage && format.storage && old.storage !== format.storage) ||
    (old.arithmetic && format.arithmetic && old.arithmetic !== format.arithmetic))) {
    fail('INVALID_FORMAT', 'format.name', 'must not redefine a registered format', format.name);
  }
  // A built-in entry extended by a user's part changed the library for everyone: an arithmetic registered as 'f16'
  // became the default of every fp16 range (and of the solvers' fp16 vectors).
  if (old && builtinNames.has(format.name) && ((format.storage && !old.storage) || (format.arithmetic && !old.arithmetic))) {
    fail('INVALID_FORMAT', 'format.name', 'must not extend a built-in format: register yours under a name of its own', format.name);
  }
  if (format.storage !== undefined) admitStorage(format.storage, 'format.storage');
  if (format.arithmetic !== undefined) admitArithmetic(format.arithmetic, 'format.arithmetic');
  const merged: Format<T> = {
    name: format.name,
    storage: format.storage ?? old?.storage,
    arithmetic: (format.arithmetic ?? old?.arithmetic) as ArithmeticFormat<T> | undefined,
  };
  registry.set(format.name, merged as Format);
  return merged;
}

/**
 * Registers one of modprec's own formats (at import, or an RNS precision on first use): as registerFormat, and its
 * name is then closed to extension by users' registrations.
 * @internal
 */
export function registerBuiltinFormat<T>(format: Format<T>): Format<T> {
  const registered = registerFormat(format);
  builtinNames.add(format.name);
  return registered;
}

/**
 * The registered format called `name`, or `undefined`.
 * @example
 * ```ts
 * import { findFormat } from 'modprec';
 *
 * findFormat('bf16')?.storage?.significandBits; // → 8
 * findFormat('no-such-format'); // → undefined
 * ```
 * @group Formats
 */
export function findFormat(name: string): Format | undefined {
  return registry.get(name);
}

/**
 * Names of all registered formats.
 * @example
 * ```ts
 * import { formatNames } from 'modprec';
 *
 * formatNames().includes('f16'); // → true
 * ```
 * @group Formats
 */
export function formatNames(): string[] {
  return [...registry.keys()];
}


/**
 * Resolves `format` to its storage codec.
 * @param parameter - the caller's parameter name, for the error message
 * @throws {@link ModprecError} `INVALID_FORMAT` if it names no format or one that cannot be stored, or naming
 *   `parameter` (or its field) for a storage object whose fields are invalid or whose name another codec holds
 * @example
 * ```ts
 * import { formats, asStorage } from 'modprec';
 *
 * asStorage('f16').unitRoundoff; // → 0.00048828125
 * asStorage(formats.f32).name; // → 'f32'
 * ```
 * @group Formats
 */
export function asStorage(format: FormatLike, parameter = 'storage'): StorageFormat {
  if (isStorage(format)) return admitStorage(format, parameter);
  const entry = typeof format === 'string' ? registry.get(format) : isArithmetic(format) ? registry.get(format.name) : format;
  // A format object's own `storage` is checked too: { name, storage: 'x' } came back as a storage, and the accessor
  // threw a TypeError allocating with it.
  if (entry && typeof entry === 'object' && 'name' in entry && isStorage((entry as Format).storage)) return admitStorage((entry as Format).storage!, parameter);
  return fail('INVALID_FORMAT', parameter, `must name a storage format (one of ${[...registry.values()].filter((f) => f.storage).map((f) => f.name).join(', ')})`, typeof format === 'string' ? format : (format as { name?: string })?.name ?? format);
}

/**
 * Resolves `format` to its CPU arithmetic.
 * @param parameter - the caller's parameter name, for the error message
 * @throws {@link ModprecError} `INVALID_FORMAT` if it names no format or one with no CPU arithmetic (e.g. fp16), or
 *   naming `parameter` (or its field) for an arithmetic object whose fields are invalid or whose name another holds
 * @example
 * ```ts
 * import { asArithmetic } from 'modprec';
 *
 * asArithmetic('f32').unitRoundoff; // → 5.960464477539063e-8
 * // asArithmetic('f16') throws INVALID_FORMAT: fp16 is a storage format only
 * ```
 * @group Formats
 */
export function asArithmetic<T = unknown>(format: FormatLike<T>, parameter = 'arithmetic'): ArithmeticFormat<T> {
  if (isArithmetic(format)) return admitArithmetic(format as ArithmeticFormat<T>, parameter);
  const entry = typeof format === 'string' ? registry.get(format) : isStorage(format) ? registry.get(format.name) : format;
  if (entry && typeof entry === 'object' && 'name' in entry && isArithmetic((entry as Format).arithmetic)) return admitArithmetic((entry as Format<T>).arithmetic!, parameter);
  return fail('INVALID_FORMAT', parameter, `must name an arithmetic format (one of ${[...registry.values()].filter((f) => f.arithmetic).map((f) => f.name).join(', ')})`, typeof format === 'string' ? format : (format as { name?: string })?.name ?? format);
}

/**
 * The arithmetic a range over `format`'s storage computes in when none is given: the arithmetic of the format named or
 * passed — a format registered as fp32 storage with fp64 arithmetic under 'my-f32' computes in fp64 — else the one
 * registered under the storage's own name, else fp64. (By the storage's name alone, 'my-f32' computed in fp32, and a
 * user format whose storage is named otherwise than the format lost its arithmetic to fp64.)
 * @param format - what the caller passed as the storage
 * @param storage - its storage, resolved
 * @param parameter - the caller's parameter name, for a format whose arithmetic is not one
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `parameter` for a format object whose arithmetic is not one
 */
export function defaultArithmeticOf(format: FormatLike, storage: StorageFormat, parameter = 'storage'): ArithmeticFormat {
  const entry = typeof format === 'string' ? registry.get(format)
    : typeof format === 'object' && format !== null && !isStorage(format) && !isArithmetic(format) ? format : undefined;
  if (entry?.arithmetic !== undefined) return asArithmetic(entry.arithmetic, `${parameter}.arithmetic`);
  return admitArithmetic(registry.get(storage.name)?.arithmetic ?? registry.get('f64')!.arithmetic!, 'arithmetic');
}

/**
 * fp64: IEEE binary64, as storage and as arithmetic.
 * @group Formats
 */
export const f64 = registerBuiltinFormat<number>({ name: 'f64', storage: f64Storage, arithmetic: f64Arithmetic });
/**
 * fp32: IEEE binary32, as storage and as arithmetic (emulated exactly with Math.fround on the CPU).
 * @group Formats
 */
export const f32 = registerBuiltinFormat<number>({ name: 'f32', storage: f32Storage, arithmetic: f32Arithmetic });
