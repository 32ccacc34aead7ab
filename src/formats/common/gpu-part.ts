/**
 * The optional GPU parts of a format. A storage format's GPU part ({@link GpuStoragePart}) says how its values sit in
 * 32-bit device words and gives the gpu.js source that reads one into a register; an arithmetic's GPU part
 * ({@link GpuArithmeticPart}) gives the gpu.js source of its operations. The built-in formats carry theirs
 * (src/formats/<name>/*-gpu-*.ts) exactly as a user's format does (`StorageFormat.gpu`, `ArithmeticFormat.gpu`); the GPU backend
 * runs what has a part and refuses what has none with a typed error naming the operand or `options.arithmetic`.
 *
 * The parts are plain source templates: nothing here loads gpu.js, so a CPU-only bundle stays small.
 * @module
 */

/**
 * A value held in generated GPU kernel source: a binary32 variable (`f32`) or a float-float pair (`ff`, gpu.js
 * `Array(2)`, WGSL `vec2<f32>`).
 * @group Formats
 */
export interface GpuPartRegister {
  readonly kind: 'f32' | 'ff';
  readonly name: string;
}

/**
 * Words (and, for block-scaled integers, per-block scales) of an encoded array.
 * @group Formats
 */
export interface GpuEncodedArray {
  readonly words: Uint32Array;
  /** Per-block binary32 scales of a scaled integer format. */
  readonly scales?: Float32Array;
}

/**
 * How a format reads four adjacent elements with vector loads.
 * @group Formats
 */
export interface GpuVectorRead {
  /** Name suffix of the vector argument: `Quad` (vec4 words) or `Pair` (vec2 words). */
  readonly suffix: 'Quad' | 'Pair';
  /**
   * Source reading elements k … k+3 of the vector argument `vector` (k = `index`, a multiple of 4) into registers
   * `${prefix}0` … `${prefix}3`.
   * @param vector - the vector argument's name (ends in `suffix`)
   * @param index - integer expression of k
   * @param prefix - register name prefix
   * @param arithmetic - the GPU arithmetic the registers feed
   */
  emit(vector: string, index: string, prefix: string, arithmetic: { readonly name: GpuArithmeticName }): { code: string; registers: GpuPartRegister[] };
}

/**
 * The GPU part of a storage format.
 * @group Formats
 */
export interface GpuStoragePart {
  /** The format's name (the storage's). */
  readonly name: string;
  /** Elements per 32-bit word (4 for an 8-bit format, 2 for 16-bit, 1 otherwise). */
  readonly elementsPerWord: number;
  /** Words per element (2 for 64-bit formats, 1 otherwise). */
  readonly wordsPerElement: number;
  /** Significand bits (for integer formats: magnitude bits of the integer). */
  readonly significandBits: number;
  /** Relative rounding error of storing a value (for scaled integers relative to the block maximum). */
  readonly unitRoundoff: number;
  /**
   * Whether values are integers times a binary32 scale per block of `scaleBlock` elements (the built-in i8 and i16:
   * uploaded with `toDevice(…, { format })`, which computes the scales; a range's own scale model is not this one,
   * so `backend: 'gpu'` refuses ranges of a scaled part). A user's format sets false.
   */
  readonly scaled: boolean;
  /** Whether GPU kernels can write it (then {@link GpuStoragePart.emitReturn} must work). */
  readonly writable: boolean;
  /** Words needed for `length` elements. */
  words(length: number): number;
  /**
   * Encodes host values into words, rounding to nearest even (exactly for values the format holds).
   * @throws {@link modprec!ModprecError} `INVALID_VALUE` for values the format cannot hold on the GPU
   */
  encode(values: ArrayLike<number>, parameter: string, scaleBlock: number): GpuEncodedArray;
  /** Decodes `length` elements exactly. */
  decode(encoded: GpuEncodedArray, length: number, scaleBlock: number): Float64Array;
  /**
   * gpu.js source (its JavaScript subset plus modprec's intrinsics: `mpBits`, `mpFloat`, `mpHalfPair`, …) that reads
   * element `index` (an integer expression) of array argument `array` into a new register named `dst`, for the GPU
   * arithmetic `arithmetic.name` (`f32` or `ff`).
   */
  emitRead(array: string, index: string, dst: string, arithmetic: { readonly name: GpuArithmeticName }): { code: string; register: GpuPartRegister };
  /** Extra kernel arguments a read needs (the scales and block size of scaled formats; none otherwise). */
  readArgs(array: string): readonly (readonly [string, 'Array' | 'Integer'])[];
  /** Vector loads of four adjacent elements, where the format has them (bound to the same buffer as the scalar argument). */
  readonly vectorRead?: GpuVectorRead;
  /**
   * Source returning the output word(s) of a thread whose elements are `values` (`elementsPerWord` of them; the
   * rest of the word is zero-filled by passing `undefined`). Writable formats only.
   */
  emitReturn(values: readonly (GpuPartRegister | undefined)[]): string;
}

/**
 * Names of the arithmetics the GPU kernels compute in: their registers are binary32 words or float-float pairs.
 * @group Formats
 */
export type GpuArithmeticName = 'f32' | 'ff';

/**
 * The GPU part of an arithmetic format: the gpu.js source of its operations on {@link GpuPartRegister}s.
 * @group Formats
 */
export interface GpuArithmeticPart {
  readonly name: GpuArithmeticName;
  /** Unit roundoff u of one operation (2^-24 for f32; 2^-48 nominal for ff, whose operations err by a few u). */
  readonly unitRoundoff: number;
  /** Words a value occupies in a partial-result buffer. */
  readonly components: 1 | 2;
  /** How a value of this arithmetic sits in device words (partial results, intermediate vectors). */
  readonly words: GpuStoragePart;
  /** `let dst = 0`. */
  declareZero(dst: string): string;
  /** Declares `dst` (this arithmetic) from register `src`, rounding if needed. */
  declareFrom(dst: string, src: GpuPartRegister): string;
  /** `acc += a · b` (a, b registers of any kind). */
  mulAdd(acc: string, a: GpuPartRegister, b: GpuPartRegister): string;
  /** `acc += b`. */
  add(acc: string, b: GpuPartRegister): string;
  /** Declares `dst = a · b`. */
  declareMul(dst: string, a: GpuPartRegister, b: GpuPartRegister): string;
  /** Declares `dst = a / b`. */
  declareDiv(dst: string, a: GpuPartRegister, b: GpuPartRegister): string;
  /** Declares `dst = a − b`. */
  declareSub(dst: string, a: GpuPartRegister, b: GpuPartRegister): string;
  /** A register naming `name` of this arithmetic's kind. */
  register(name: string): GpuPartRegister;
  /** The expression a pass returns for register `acc` (a word or a pair). */
  returnValue(acc: string): string;
}

/**
 * One helper function added to gpu.js (source and types), called by the templates of the GPU parts.
 * @group Formats
 */
export interface GpuHelperFunction {
  readonly source: string;
  readonly argumentTypes: Readonly<Record<string, string>>;
  readonly returnType: string;
}
