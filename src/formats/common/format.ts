/**
 * The two format interfaces of modprec: a {@link StorageFormat} says how numbers sit in memory,
 * an {@link ArithmeticFormat} says how they are computed on. They are chosen independently.
 *
 * JavaScript has no operator overloading and no templates, so each format contributes two things:
 * scalar functions (the slow, convenient path used by `range.get`/`range.set` and tests) and small
 * source-code templates that the kernel generator splices into specialised loops (the fast path,
 * the counterpart of Ginkgo's reference proxies inlined by a C++ compiler).
 *
 * @module
 */

/**
 * What a value is made of in generated code and what a storage read yields exactly:
 * `number` — one JS double; `dd` — a double-double pair (hi, lo); `mp` — a multiple-precision object.
 * @group Formats
 */
export type ValueKind = 'number' | 'dd' | 'mp';

/**
 * A value held in generated source: the JS variable names that make it up.
 * `number` → `[x]`; `dd` → `[x_hi, x_lo]`; `mp` → `[x]` naming a preallocated scratch object.
 * @group Formats
 */
export interface Register {
  /** Kind of value held. */
  readonly kind: ValueKind;
  /** Variable names, in the order the kind defines. */
  readonly names: readonly string[];
}

/**
 * Helper values (functions, tables) that templates refer to by bare name in generated code.
 * @group Formats
 */
export type TemplateHelpers = Readonly<Record<string, unknown>>;

/**
 * How elements sit in memory: a buffer type, exact decoding to a {@link ValueKind}, correctly rounded
 * encoding, and the same two operations as source templates for generated kernels.
 *
 * @typeParam Data - the buffer type (e.g. `Float32Array`)
 * @typeParam Value - the exact value a read yields (`number` for kind `number`)
 * @group Formats
 */
export interface StorageFormat<Data = unknown, Value = unknown> {
  /** Short stable name: `f64`, `f32`, `f16`, `bf16`, `i8`, `i16`, `i32`, `dd`, `rns212`, … */
  readonly name: string;
  /** What a read yields exactly. */
  readonly kind: ValueKind;
  /** Significand precision p in bits (53 for fp64; for integers, the magnitude bits, e.g. 15 for int16). */
  readonly significandBits: number;
  /**
   * Unit roundoff of a write, relative: 2^-p for floating-point formats. For integer formats the error of
   * a write is absolute (half a quantum of the scale), so this is `NaN` and bounds use the scale instead.
   */
  readonly unitRoundoff: number;
  /** Whether values are integers (only usable through a scaled accessor for fractional data). */
  readonly isInteger: boolean;
  /** Largest finite magnitude the format holds. */
  readonly maxValue: number;
  /**
   * Largest absolute error of a write whose value lies below the format's normal range (Higham's η in
   * fl(x) = x(1 + δ) + η). Absent: IEEE gradual underflow is assumed — half the smallest subnormal of the binary format
   * with `significandBits` bits and the exponent range maxValue implies (emin = 1 − emax). Declare it for a format that
   * underflows otherwise (no subnormals, a smallest magnitude that tiny values round to): the bounds use it.
   */
  readonly underflowError?: number;
  /**
   * For a buffer that is a typed array: how many of its words one element takes (default 1; 2 for interleaved
   * double-double). Kernels use it to tell exactly whether two views overlap in memory.
   */
  readonly wordsPerElement?: number;
  /** Allocates storage for `length` elements, all zero. */
  allocate(length: number): Data;
  /** Whether `data` is a buffer of this format (the type check behind `INVALID_STORAGE`). */
  accepts(data: unknown): data is Data;
  /** How many elements `data` holds. */
  capacity(data: Data): number;
  /** Exact value of element `index`. */
  decode(data: Data, index: number): Value;
  /**
   * Stores `value` into element `index`, rounded to the format (round to nearest, ties to even).
   * Formats of kind `mp` must also accept a plain double here (range.set passes numbers straight through).
   */
  encode(data: Data, index: number, value: Value): void;
  /** Source of statements that load element `index` (an expression) of buffer `data` into `dst` (of this kind). */
  emitRead(data: string, index: string, dst: Register): string;
  /** Source of statements that store `src` (of this kind) into element `index` of `data`, rounding. */
  emitWrite(data: string, index: string, src: Register): string;
  /** Values the templates refer to by name (names must be unique across formats: prefix them). */
  readonly helpers: TemplateHelpers;
  /** Declares a register of this format's kind (required for kind `mp`: allocates its scratch object once). */
  emitDeclare?(r: Register): string;
  /**
   * Whether a read of this storage already is a register of `ar`, exactly, and a register of `ar` can be
   * written as is (e.g. an mp_array and the RNS arithmetic of the same moduli set): kernels then read and write
   * without the conversion through a storage register. Absent: false (plain doubles have their own rule).
   */
  sharesRegistersWith?(ar: ArithmeticFormat): boolean;
  /**
   * The format's GPU part, if it has one: its device words and the gpu.js read template (src/formats/common/gpu-part.ts).
   * With it, the format runs through `backend: 'gpu'` and the resident API; without, the GPU refuses it. The built-in
   * formats' parts load with the GPU backend (`modprec/gpu` or the first `backend: 'gpu'` call): until then this
   * reads `undefined` on them (src/formats/common/gpu-facts.ts).
   */
  readonly gpu?: GpuStoragePart;
}

/**
 * How values are computed on: scalar operations for the convenient path and source templates for kernels.
 * Every template rounds as the format defines (fp32: each operation rounded to binary32).
 *
 * @typeParam T - the scalar value type (`number` for fp64/fp32)
 * @group Formats
 */
export interface ArithmeticFormat<T = unknown> {
  /** Short stable name: `f64`, `f32`, `dd`, `rns212`, … */
  readonly name: string;
  /** Kind of the registers this arithmetic computes in. */
  readonly kind: ValueKind;
  /** Significand precision in bits; kernels pick the largest among their operands. */
  readonly significandBits: number;
  /** Unit roundoff u of one operation (2^-53 for fp64). */
  readonly unitRoundoff: number;

  /** Converts a double to this arithmetic (rounding if needed). */
  fromNumber(x: number): T;
  /** Rounds a value of this arithmetic to the nearest double. */
  toNumber(v: T): number;
  /**
   * Converts an exact value of `kind` (as a storage format decodes it) to this arithmetic, rounding. `sourceBits`, when
   * given, is the significand bits of the storage it was decoded from (as `emitConvert`'s `bits`): a read of `range.get`
   * then converts as the kernels' generated reads do.
   */
  fromKind(kind: ValueKind, v: unknown, sourceBits?: number): T;
  /** Converts to a value of `kind` suitable for a storage of `targetBits` bits (no double rounding). */
  toKind(kind: ValueKind, v: T, targetBits: number): unknown;
  /** a · b, rounded as this arithmetic does (the slow path of scaled accessors). */
  mul(a: T, b: T): T;
  /** a / b, rounded as this arithmetic does (the slow path of scaled accessors). */
  div(a: T, b: T): T;

  /** A register for a variable named after `base`. */
  register(base: string): Register;
  /** Declares (and zeroes) the register's variables. */
  emitDeclare(r: Register): string;
  /** `dst` (this arithmetic) := `src` (any kind, exact value of `srcBits` bits), rounding to this arithmetic. */
  emitConvert(dst: Register, src: Register, srcBits: number): string;
  /** `dst` (of kind `dst.kind`) := `src` (this arithmetic), rounded so a later rounding to `targetBits` is correct. */
  emitExport(dst: Register, src: Register, targetBits: number): string;
  /** dst := a */
  emitSet(dst: Register, a: Register): string;
  /** dst := a + b */
  emitAdd(dst: Register, a: Register, b: Register): string;
  /** dst := a − b */
  emitSub(dst: Register, a: Register, b: Register): string;
  /** dst := a · b */
  emitMul(dst: Register, a: Register, b: Register): string;
  /** dst := a · b + c (as the format rounds it; not necessarily fused) */
  emitFma(dst: Register, a: Register, b: Register, c: Register): string;
  /**
   * dst := a·x + b·y, optional: a format that forms both products in one pass (RNS) provides it; kernels fall
   * back to `emitMul` then `emitFma`. No more rounding error than that pair; dst may alias any operand.
   */
  emitMulAdd2?(dst: Register, a: Register, x: Register, b: Register, y: Register): string;
  /** dst := a / b */
  emitDiv(dst: Register, a: Register, b: Register): string;
  /** dst := √a */
  emitSqrt(dst: Register, a: Register): string;
  /** dst := |a| */
  emitAbs(dst: Register, a: Register): string;
  /** dst := −a */
  emitNeg(dst: Register, a: Register): string;
  /** dst := the JS number expression `expr`, converted to this arithmetic */
  emitFromNumber(dst: Register, expr: string): string;
  /** An expression: `src` rounded to the nearest double. */
  emitToNumber(src: Register): string;
  /** Values the templates refer to by name (prefix names with the format name). */
  readonly helpers: TemplateHelpers;
  /**
   * Whether the templates also take SOURCE registers of kind `number` holding an exact double (destinations stay
   * of this arithmetic's kind). Kernels then load exact reads (number storage, no scale) straight into number
   * registers (`Operand.valueRegister` in src/backends/cpu/operand.ts), and the templates use the known-zero low parts: the dd
   * arithmetic's multiply-add of two doubles skips the cross terms and its final TwoSum (28 flops, not 35).
   */
  readonly takesNumberOperands?: boolean;
  /**
   * The arithmetic's GPU part, if it has one: its operations as gpu.js source (src/formats/common/gpu-part.ts). With it,
   * the arithmetic runs through `backend: 'gpu'`; without (f64, RNS), the GPU refuses it with a typed error
   * naming `options.arithmetic`. The built-in parts (f32, ff, dd) load with the GPU backend: until then this reads
   * `undefined` on them (src/formats/common/gpu-facts.ts).
   */
  readonly gpu?: GpuArithmeticPart;
}

/**
 * Declares (and zeroes) a register that holds values of arithmetic `ar`, or an exact double (kind `number`)
 * that `ar` takes as an operand ({@link ArithmeticFormat.takesNumberOperands}).
 */
export function declareRegister(ar: ArithmeticFormat, r: Register): string {
  return r.kind === 'number' && ar.kind !== 'number' ? `let ${r.names[0]} = 0;` : ar.emitDeclare(r);
}

/**
 * The register of kind `number` named `name`.
 * @example
 * ```ts
 * import { numberRegister } from 'modprec';
 *
 * numberRegister('acc'); // → { kind: 'number', names: [ 'acc' ] }
 * ```
 * @throws {@link ModprecError} `INVALID_OPTION` naming `name` when it is not a JavaScript identifier
 * @group Formats
 */
export function numberRegister(name: string): Register {
  return { kind: 'number', names: [checkIdentifier('name', name)] };
}

/** A register's names go into generated source as variables: anything but an identifier would be code. */
function checkIdentifier(parameter: string, name: unknown): string {
  if (!isBindableIdentifier(name)) fail('INVALID_OPTION', parameter, 'must be a JavaScript identifier (not a reserved word, eval or arguments)', name);
  return name;
}

import type { GpuArithmeticPart, GpuStoragePart } from './gpu-part.js';
import { fail } from '../../core/errors.js';
import { isBindableIdentifier } from '../../core/identifier.js';

/**
 * What generated code may call on a value of kind `mp` (a multiple-precision scratch object).
 * Formats of kind `mp` (RNS) implement it, so fp64/fp32 arithmetic can read and write them.
 * @group Formats
 */
export interface MpValueLike {
  /** The value rounded to the nearest double. */
  toNumber(): number;
  /**
   * The value as a double-double, into `out`: hi = the value rounded to the nearest double, lo = the rest rounded to
   * the nearest double, so |value − (hi + lo)| ≤ 2^-106·|value| (barring underflow) and lo carries the rest's sign.
   * DD and fp32 arithmetic read mp storage through it (one rounding, not two through a double).
   */
  toDoubleDouble(out: { hi: number; lo: number }): void;
  /** The exact value as num/den (den > 0): scaled integer writes use it to round a near-tie once, exactly. */
  toRational(): { num: bigint; den: bigint };
  /** Sets the value to the double `x` exactly. */
  setNumber(x: number): void;
  /** Sets the value to the exact double-double sum hi + lo. */
  setDd(hi: number, lo: number): void;
}

/**
 * The register of `kind` for a variable named after `base`.
 * @example
 * ```ts
 * import { registerOfKind } from 'modprec';
 *
 * registerOfKind('dd', 'x').names; // → [ 'x_hi', 'x_lo' ]
 * registerOfKind('number', 'x').names; // → [ 'x' ]
 * ```
 * @throws {@link ModprecError} `INVALID_OPTION` naming `kind` (not 'number', 'dd' or 'mp') or `base` (not a
 *   JavaScript identifier)
 * @group Formats
 */
export function registerOfKind(kind: ValueKind, base: string): Register {
  // A Symbol base threw a TypeError building the names; an unknown kind made a register no format declares.
  if (kind !== 'number' && kind !== 'dd' && kind !== 'mp') fail('INVALID_OPTION', 'kind', "must be 'number', 'dd' or 'mp'", kind);
  checkIdentifier('base', base);
  return { kind, names: kind === 'dd' ? [`${base}_hi`, `${base}_lo`] : [base] };
}

/**
 * Declares a register that holds values read from `storage` (before conversion to the arithmetic).
 * Kinds `number` and `dd` are plain `let` variables; kind `mp` asks the storage for a scratch object.
 * @example
 * ```ts
 * import { asStorage, numberRegister, declareStorageRegister } from 'modprec';
 *
 * // the source a generated kernel uses to declare the variable an fp16 read lands in
 * declareStorageRegister(asStorage('f16'), numberRegister('t')); // → 'let t = 0;'
 * ```
 * @group Formats
 */
export function declareStorageRegister(storage: StorageFormat, r: Register): string {
  // Undefined arguments threw TypeErrors reading `kind`; a register's names go into generated source.
  if (typeof storage !== 'object' || storage === null) fail('INVALID_FORMAT', 'storage', 'must be a storage format', storage);
  if (typeof r !== 'object' || r === null || !Array.isArray(r.names) || !r.names.every((n) => typeof n === 'string')) {
    fail('INVALID_OPTION', 'r', 'must be a register { kind, names } (numberRegister, registerOfKind)', r);
  }
  if (r.kind === 'mp') {
    if (!storage.emitDeclare) throw new Error(`storage format ${storage.name} of kind mp has no emitDeclare`);
    return storage.emitDeclare(r);
  }
  return r.names.map((n) => `let ${n} = 0;`).join(' ');
}
