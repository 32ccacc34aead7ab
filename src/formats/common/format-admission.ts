/**
 * Admits a storage or arithmetic format object where it enters the library (registerFormat, asStorage,
 * asArithmetic, new Accessor): its fields and methods are checked once, and it claims its name.
 *
 * Why names are claimed: kernels are generated and cached by format *name* (an accessor's signature), so a second
 * codec under a name already used — a user storage called `f64` that stores 2x, or two unregistered storages both
 * called `mine` — silently ran the first one's cached kernel (a DOT returned 28 for 14). Now it is `INVALID_FORMAT`
 * naming the parameter where the second object enters; a copy of a format (frozen, spread) is the same codec.
 * @module
 */
import type { ArithmeticFormat, StorageFormat } from './format.js';
import { fail } from '../../core/errors.js';
import { isBindableIdentifier } from '../../core/identifier.js';

/** The methods of an arithmetic that kernels and the scalar path call. */
const ARITHMETIC_METHODS = [
  'fromNumber', 'toNumber', 'fromKind', 'toKind', 'mul', 'div', 'register', 'emitDeclare', 'emitConvert', 'emitExport',
  'emitSet', 'emitAdd', 'emitSub', 'emitMul', 'emitFma', 'emitDiv', 'emitSqrt', 'emitAbs', 'emitNeg', 'emitFromNumber',
  'emitToNumber',
] as const;
/** The methods of a storage that ranges and kernels call. */
const STORAGE_METHODS = ['allocate', 'accepts', 'capacity', 'decode', 'encode', 'emitRead', 'emitWrite'] as const;

/** Objects already checked and holding their names (a format is checked once, not at every call). */
const admitted = new WeakSet<object>();
const storageNames = new Map<string, object>();
const arithmeticNames = new Map<string, object>();

/**
 * Checks a storage format's fields and claims its name; returns it.
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `parameter`'s field (`.name`, `.kind`, `.significandBits`,
 *   `.unitRoundoff`, `.isInteger`, `.maxValue`, `.underflowError`, `.helpers`, a missing method), or `parameter` when another codec
 *   holds its name
 */
export function admitStorage<S extends StorageFormat<any, any>>(s: S, parameter: string): S {
  if (admitted.has(s)) return s;
  checkCommon(s, parameter);
  checkMethods(s, STORAGE_METHODS, parameter);
  if (typeof s.isInteger !== 'boolean') fail('INVALID_FORMAT', `${parameter}.isInteger`, 'must be a boolean', s.isInteger);
  // NaN says "no relative error": an integer storage's, whose scale sets the absolute one. On a floating storage the
  // bounds took NaN as an exact write (an fp32 codec's AXPY bound came out 1e-16 instead of 6e-8·|y|).
  checkUnitRoundoff(s.unitRoundoff, `${parameter}.unitRoundoff`, s.isInteger);
  if (typeof s.maxValue !== 'number' || !(s.maxValue > 0)) fail('INVALID_FORMAT', `${parameter}.maxValue`, 'must be a number > 0', s.maxValue);
  const eta = s.underflowError;
  if (eta !== undefined && !(typeof eta === 'number' && eta >= 0 && eta < Infinity)) fail('INVALID_FORMAT', `${parameter}.underflowError`, 'must be a finite number ≥ 0', eta);
  if (s.kind === 'mp') checkMethods(s, ['emitDeclare'], parameter);
  claimName(storageNames, s, parameter, 'storage');
  return s;
}

/**
 * Checks an arithmetic format's fields and claims its name; returns it.
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `parameter`'s field (`.name`, `.kind`, `.significandBits`,
 *   `.unitRoundoff`, `.helpers`, a missing method), or `parameter` when another arithmetic holds its name
 */
export function admitArithmetic<A extends ArithmeticFormat<any>>(a: A, parameter: string): A {
  if (admitted.has(a)) return a;
  checkCommon(a, parameter);
  // A missing template threw a TypeError from the kernel generator at the first call that needed it.
  checkMethods(a, ARITHMETIC_METHODS, parameter);
  // γ_n = nu/(1 − nu) needs 0 ≤ u < 1: NaN or a string made the bounds throw a RangeError naming an inner `u`.
  checkUnitRoundoff(a.unitRoundoff, `${parameter}.unitRoundoff`, false);
  claimName(arithmeticNames, a, parameter, 'arithmetic');
  return a;
}

function checkMethods(f: object, methods: readonly string[], parameter: string): void {
  for (const m of methods) if (typeof (f as Record<string, unknown>)[m] !== 'function') fail('INVALID_FORMAT', `${parameter}.${m}`, 'must be a function', (f as Record<string, unknown>)[m]);
}

function checkCommon(f: StorageFormat<any, any> | ArithmeticFormat<any>, parameter: string): void {
  if (typeof f.name !== 'string' || f.name === '') fail('INVALID_FORMAT', `${parameter}.name`, 'must be a non-empty string', f.name);
  if (f.kind !== 'number' && f.kind !== 'dd' && f.kind !== 'mp') fail('INVALID_FORMAT', `${parameter}.kind`, "must be 'number', 'dd' or 'mp'", f.kind);
  if (!Number.isInteger(f.significandBits) || f.significandBits < 1) fail('INVALID_FORMAT', `${parameter}.significandBits`, 'must be a positive integer', f.significandBits);
  // Generated kernels bind each helper as a parameter of their factory.
  if (typeof f.helpers !== 'object' || f.helpers === null || !Object.keys(f.helpers).every(isBindableIdentifier)) {
    fail('INVALID_FORMAT', `${parameter}.helpers`, 'must be an object whose keys are JavaScript identifiers (not reserved words)', f.helpers);
  }
}

function checkUnitRoundoff(u: unknown, parameter: string, integer: boolean): void {
  if (typeof u === 'number' && ((u >= 0 && u < 1) || (integer && Number.isNaN(u)))) return;
  fail('INVALID_FORMAT', parameter, 'must be a number in [0, 1) (NaN: integer storage only)', u);
}

/** Claims `f.name` for `f`, unless a different codec holds it (then nothing is claimed). */
function claimName(owners: Map<string, object>, f: { readonly name: string }, parameter: string, what: string): void {
  const owner = owners.get(f.name);
  if (owner === undefined) owners.set(f.name, f);
  else if (!sameCodec(owner, f)) {
    fail('INVALID_FORMAT', parameter, `must not reuse the name of another ${what} format (kernels are cached by name)`, f.name);
  }
  admitted.add(f);
}

/**
 * Whether two format objects generate the same code: every field, method and helper the same value — a frozen or
 * spread copy of a format is the same codec (plain data such as a scratch object compared by content). The GPU part
 * does not enter the CPU kernels' code.
 */
function sameCodec(a: object, b: object): boolean {
  const x = a as Record<string, unknown>, y = b as Record<string, unknown>;
  return a === b || [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => k === 'gpu' || sameValue(x[k], y[k], 0));
}

function sameValue(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 3 || !isPlainObject(a) || !isPlainObject(b)) return false;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => sameValue(a[k], b[k], depth + 1));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
