/**
 * The optional GPU part of a storage format: how its values sit in 32-bit device words and the gpu.js source that
 * reads one into a register. A format that has one (the built-in f64, f32, f16, bf16 through src/gpu/formats.ts, or
 * a user's format through `StorageFormat.gpu`) runs through the GPU kernels; one without is refused by the GPU
 * backend with a typed error naming the operand. src/gpu/formats.ts (`GpuStorageFormat`) is the full contract.
 * @module
 */

/**
 * A value held in generated GPU kernel source: a binary32 variable (`f32`) or a float-float pair (`ff`).
 * @group Formats
 */
export interface GpuPartRegister {
  readonly kind: 'f32' | 'ff';
  readonly name: string;
}

/**
 * The GPU part of a storage format (unscaled).
 * @group Formats
 */
export interface GpuStoragePart {
  /** The format's name (the storage's). */
  readonly name: string;
  /** Elements per 32-bit word (4 for an 8-bit format, 2 for 16-bit, 1 otherwise). */
  readonly elementsPerWord: number;
  /** Words per element (2 for 64-bit formats, 1 otherwise). */
  readonly wordsPerElement: number;
  /** Significand bits. */
  readonly significandBits: number;
  /** Relative rounding error of storing a value. */
  readonly unitRoundoff: number;
  /** Always false here (scaled integers are built into src/gpu). */
  readonly scaled: false;
  /** Whether GPU kernels can write it (then {@link GpuStoragePart.emitReturn} must work). */
  readonly writable: boolean;
  /** Words needed for `length` elements. */
  words(length: number): number;
  /** Encodes host values (the stored values, exactly representable) into words. */
  encode(values: ArrayLike<number>, parameter: string, scaleBlock: number): { readonly words: Uint32Array };
  /** Decodes `length` elements exactly. */
  decode(encoded: { readonly words: Uint32Array }, length: number, scaleBlock: number): Float64Array;
  /**
   * gpu.js source (its JavaScript subset plus modprec's intrinsics: `mpBits`, `mpFloat`, `mpHalfPair`, …) that reads
   * element `index` of array argument `array` into a new register named `dst`, for arithmetic `arithmetic.name`.
   */
  emitRead(array: string, index: string, dst: string, arithmetic: { readonly name: 'f32' | 'ff' }): { code: string; register: GpuPartRegister };
  /** Extra kernel arguments a read needs (none for an unscaled format). */
  readArgs(array: string): readonly (readonly [string, 'Array' | 'Integer'])[];
  /** Source returning the output word(s) of a thread whose elements are `values` (writable formats only). */
  emitReturn(values: readonly (GpuPartRegister | undefined)[]): string;
}
