/**
 * Storage formats backed by one typed-array element per value (fp64, fp32, and the integer formats
 * through their rounding function). Shared so each format file only states what differs.
 * @module
 */
import type { StorageFormat, Register } from './format.js';
import type { GpuStoragePart } from './gpu-part.js';
import { fail } from '../../core/errors.js';
import { isBindableIdentifier } from '../../core/identifier.js';

/** A typed array constructor modprec stores numbers in. */
export type NumericArrayConstructor =
  | Float64ArrayConstructor | Float32ArrayConstructor | Uint16ArrayConstructor
  | Uint8ArrayConstructor | Int8ArrayConstructor | Int16ArrayConstructor | Int32ArrayConstructor;

/** Describes a one-element-per-slot storage format of kind `number`. */
export interface TypedArrayStorageSpec<A extends ArrayLike<number>> {
  name: string;
  array: NumericArrayConstructor;
  significandBits: number;
  unitRoundoff: number;
  isInteger: boolean;
  maxValue: number;
  /** Largest absolute error of a write below the normal range, where it is not IEEE's (see StorageFormat.underflowError). */
  underflowError?: number;
  /**
   * Name of a helper that rounds a double into the stored representation (for formats whose typed array
   * does not round correctly by itself, e.g. integers: the typed array would truncate).
   * Absent when the typed array's own conversion is the correctly rounded one (Float64Array, Float32Array).
   */
  encodeHelper?: { name: string; fn: (x: number) => number };
  /**
   * Name and table/function of a decoder, when the raw element is not the value (fp16/bf16 bit patterns). A `table`
   * (what kernels read: `table[code]`) needs unsigned codes (Uint8Array or Uint16Array storage), an entry per code, and
   * `fn(code)` in each (checked on every code of a byte, every 7th of 16 bits).
   */
  decodeHelper?: { name: string; fn: (bits: number) => number; table?: Float64Array };
  /** The format's GPU part, if it has one (src/formats/common/gpu-part.ts). */
  gpu?: GpuStoragePart;
  _phantom?: A;
}

/**
 * Builds a {@link StorageFormat} of kind `number` over a typed array.
 * @throws {@link ModprecError} `INVALID_FORMAT` naming the part of `spec` that is missing or of the wrong type (`spec.name`,
 *   `spec.array`, `spec.significandBits`, `spec.unitRoundoff`, `spec.isInteger`, `spec.maxValue`, `spec.underflowError`, a helper's `name`
 *   (a JavaScript identifier) or `fn`, `spec.decodeHelper.table` (not a Float64Array, over signed or float storage,
 *   short, or disagreeing with `fn`))
 * @example
 * ```ts
 * import { range, registerFormat, typedArrayStorage, rowMajor } from 'modprec';
 *
 * // 8-bit unsigned integers, rounded to nearest and saturated (a typed array alone would wrap)
 * const u8 = typedArrayStorage<Uint8Array>({
 *   name: 'u8', array: Uint8Array, significandBits: 8, unitRoundoff: 0.5, isInteger: true, maxValue: 255,
 *   encodeHelper: { name: 'u8Encode', fn: (x: number) => Math.min(255, Math.max(0, Math.round(x))) },
 * });
 * const x = range(rowMajor<1>({ size: [2], storage: registerFormat({ name: 'u8', storage: u8 }), arithmetic: 'f64' }));
 * x.set(0, 300);
 * x.get(0); // → 255
 * ```
 * @group Formats
 */
export function typedArrayStorage<A extends ArrayLike<number> & { [i: number]: number }>(
  spec: TypedArrayStorageSpec<A>,
): StorageFormat<A, number> {
  // typedArrayStorage(undefined) threw a TypeError reading `array`; a missing constructor failed at the first allocation.
  if (typeof spec !== 'object' || spec === null) fail('INVALID_FORMAT', 'spec', 'must be a typed-array storage description', spec);
  if (typeof spec.name !== 'string') fail('INVALID_FORMAT', 'spec.name', 'must be a string', spec.name);
  if (typeof spec.array !== 'function') fail('INVALID_FORMAT', 'spec.array', 'must be a typed array constructor', spec.array);
  // The numbers and helpers were taken on trust: a helper without fn threw a TypeError at the first write, and a
  // helper's name goes into generated source.
  if (!Number.isInteger(spec.significandBits) || spec.significandBits < 1) fail('INVALID_FORMAT', 'spec.significandBits', 'must be a positive integer', spec.significandBits);
  if (typeof spec.isInteger !== 'boolean') fail('INVALID_FORMAT', 'spec.isInteger', 'must be a boolean', spec.isInteger);
  // NaN is an integer storage's: no relative rounding error (its scale decides the absolute one). A floating storage
  // declared NaN was taken as exact by the bounds (an fp32 codec's AXPY bound was 1e-16, not 6e-8·|y|), and γ_n needs u < 1.
  const u = spec.unitRoundoff;
  if (typeof u !== 'number' || !((u >= 0 && u < 1) || (spec.isInteger && Number.isNaN(u)))) {
    fail('INVALID_FORMAT', 'spec.unitRoundoff', 'must be a number in [0, 1) (NaN: integer storage only)', u);
  }
  if (typeof spec.maxValue !== 'number' || !(spec.maxValue > 0)) fail('INVALID_FORMAT', 'spec.maxValue', 'must be a number > 0', spec.maxValue);
  if (spec.underflowError !== undefined && !(typeof spec.underflowError === 'number' && spec.underflowError >= 0 && spec.underflowError < Infinity)) {
    fail('INVALID_FORMAT', 'spec.underflowError', 'must be a finite number ≥ 0', spec.underflowError);
  }
  checkHelper('spec.encodeHelper', spec.encodeHelper);
  checkHelper('spec.decodeHelper', spec.decodeHelper);
  if (spec.decodeHelper?.table !== undefined) checkDecodeTable(spec.array, spec.decodeHelper.table, spec.decodeHelper.fn);
  const Ctor = spec.array;
  const enc = spec.encodeHelper;
  const dec = spec.decodeHelper;
  const helpers: Record<string, unknown> = {};
  if (enc) helpers[enc.name] = enc.fn;
  if (dec) helpers[dec.name] = dec.table ?? dec.fn;
  const readExpr = (data: string, index: string): string =>
    !dec ? `${data}[${index}]` : dec.table ? `${dec.name}[${data}[${index}]]` : `${dec.name}(${data}[${index}])`;
  return {
    name: spec.name,
    kind: 'number',
    significandBits: spec.significandBits,
    unitRoundoff: spec.unitRoundoff,
    isInteger: spec.isInteger,
    maxValue: spec.maxValue,
    ...(spec.underflowError === undefined ? {} : { underflowError: spec.underflowError }),
    allocate: (n) => new Ctor(n) as unknown as A,
    accepts: (data): data is A => data instanceof Ctor,
    capacity: (data) => data.length,
    decode: dec ? (data, k) => dec.fn(data[k]!) : (data, k) => data[k]!,
    encode: enc ? (data, k, v) => { data[k] = enc.fn(v); } : (data, k, v) => { data[k] = v; },
    emitRead: (data, index, dst: Register) => `${dst.names[0]} = ${readExpr(data, index)};`,
    emitWrite: (data, index, src: Register) =>
      enc ? `${data}[${index}] = ${enc.name}(${src.names[0]});` : `${data}[${index}] = ${src.names[0]};`,
    helpers,
    ...(spec.gpu ? { gpu: spec.gpu } : {}),
  };
}

/** An absent helper, or `{ name, fn }` with `name` a JavaScript identifier (generated code calls it by name). */
function checkHelper(parameter: string, helper: unknown): void {
  if (helper === undefined) return;
  if (typeof helper !== 'object' || helper === null) fail('INVALID_FORMAT', parameter, 'must be { name, fn }', helper);
  const { name, fn } = helper as { name?: unknown; fn?: unknown };
  if (!isBindableIdentifier(name)) fail('INVALID_FORMAT', `${parameter}.name`, 'must be a JavaScript identifier (not a reserved word, eval or arguments)', name);
  if (typeof fn !== 'function') fail('INVALID_FORMAT', `${parameter}.fn`, 'must be a function', fn);
}

/**
 * Kernels read a tabled element as `table[code]`, range.get as `fn(code)`: a table that is short, indexed by a signed
 * array (a negative code reads undefined) or holds other values made the kernels sum NaN or other numbers than the
 * ranges read (a 16-entry table of a Uint8Array storage: get gave [1, 2, 10], dot NaN).
 */
function checkDecodeTable(array: NumericArrayConstructor, table: unknown, fn: (bits: number) => number): void {
  const parameter = 'spec.decodeHelper.table';
  if (!(table instanceof Float64Array)) fail('INVALID_FORMAT', parameter, 'must be a Float64Array', table);
  if (array !== Uint8Array && array !== Uint16Array) fail('INVALID_FORMAT', parameter, 'needs Uint8Array or Uint16Array storage', array.name);
  const bits = array === Uint8Array ? 8 : 16;
  if (table.length < 2 ** bits) fail('INVALID_FORMAT', parameter, `must have an entry for each of the 2^${bits} codes`, `a table of ${table.length}`);
  // Every code of a byte; of 16 bits every 7th (a stride prime to 256: every low byte, spread over the high ones).
  for (let k = 0; k < 2 ** bits; k += bits === 8 ? 1 : 7) {
    const t = table[k]!, v = fn(k);
    if (!(Object.is(t, v) || (t !== t && v !== v))) fail('INVALID_FORMAT', parameter, `must be decodeHelper.fn at every code (${k}: ${t}, not ${v})`);
  }
}
