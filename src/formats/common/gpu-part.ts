/**
 * The optional GPU parts of a format. A storage format's GPU part ({@link GpuStoragePart}) says how its values sit in
 * 32-bit device words and gives the gpu.js source that reads one into a register; an arithmetic's GPU part
 * ({@link GpuArithmeticPart}) gives the gpu.js source of its operations. The built-in formats carry theirs
 * (src/formats/<name>/*-gpu-*.ts) and show them exactly as a user's format does (`StorageFormat.gpu`, `ArithmeticFormat.gpu`); the GPU backend
 * runs what has a part and refuses what has none with a typed error naming the operand or `options.arithmetic`.
 *
 * The parts are plain source templates: nothing here loads gpu.js. The built-in ones load with the GPU backend
 * (src/formats/gpu-parts.ts), so a CPU-only bundle does not carry them (src/formats/common/gpu-facts.ts).
 * @module
 */

/**
 * The kind of a value held in generated GPU kernel source. The built-in kinds: `f32` (a binary32 variable), `ff` (a
 * float-float pair, gpu.js `Array(2)`, WGSL `vec2<f32>`), `f64` (the two raw words of a binary64, low word first,
 * `Array(2)`), `dd` (the four raw words of a double-double pair, `Array(4)`) and `xf` (the GPU dd arithmetic's
 * 112-bit register, four raw words, `Array(4)`). An arithmetic part says which kinds it computes from
 * ({@link GpuArithmeticPart.readKinds}); a new arithmetic may add its own kind.
 * @group Formats
 */
export type GpuRegisterKind = 'f32' | 'ff' | 'f64' | 'dd' | 'xf' | (string & {});

/**
 * A value held in generated GPU kernel source: its kind and variable name.
 * @group Formats
 */
export interface GpuPartRegister {
  readonly kind: GpuRegisterKind;
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
  emit(vector: string, index: string, prefix: string, arithmetic: GpuReadTarget): { code: string; registers: GpuPartRegister[] };
}

/**
 * How a format reads two adjacent elements k, k + 1 (k even) with one load.
 * @group Formats
 */
export interface GpuPairRead {
  /**
   * Name suffix of the array argument the read uses: `Pair` (vec2 words, bound to the same buffer as the scalar
   * argument) or `''` (the scalar argument itself: both elements sit in one word).
   */
  readonly suffix: 'Pair' | '';
  /**
   * Source reading elements k and k + 1 (k = `index`, an even integer expression) of `array` (the scalar argument's
   * name plus `suffix`) into registers `${prefix}0`, `${prefix}1`.
   */
  emit(array: string, index: string, prefix: string, arithmetic: GpuReadTarget): { code: string; registers: GpuPartRegister[] };
}

/** One 16-byte load of eight adjacent elements (GEMV N's eight rows per thread), where the format packs them in four words. */
export interface GpuOctetRead {
  /** Name suffix of the vector argument (vec4 words, bound to the same buffer as the scalar argument). */
  readonly suffix: 'Quad';
  /** Source reading elements k … k+7 (k = `index`, a multiple of 8) of `vector` into registers `${prefix}0` … `${prefix}7`. */
  emit(vector: string, index: string, prefix: string, arithmetic: GpuReadTarget): { code: string; registers: GpuPartRegister[] };
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
  /**
   * One element's value as a double-double pair (hi, lo), for formats holding more than a double (ff, the GPU dd
   * arithmetic's words): exactly where two doubles hold it. Absent: `decode` is exact.
   */
  decodePair?(words: Uint32Array): [number, number];
  /** Decodes `length` elements exactly. */
  decode(encoded: GpuEncodedArray, length: number, scaleBlock: number): Float64Array;
  /**
   * gpu.js source (its JavaScript subset plus modprec's intrinsics: `mpBits`, `mpFloat`, `mpHalfPair`, …) that reads
   * element `index` (an integer expression) of array argument `array` into a new register named `dst`, for the GPU
   * arithmetic `arithmetic`: the register is of the widest kind the arithmetic computes from
   * ({@link GpuArithmeticPart.readKinds}) that the read needs to hold the element exactly, or the element
   * rounded to the narrowest kind otherwise. For a block-scaled part ({@link GpuStoragePart.scaled}), `scaleOffset`
   * (an integer expression, default 0) is added to the index to find the element's scale, `${array}Scale[⌊(index +
   * scaleOffset) / ${array}Block⌋]`: a window of the words whose scales bind from a block boundary before it
   * (ELL SpMV over storage bindings). Other parts ignore it.
   */
  emitRead(array: string, index: string, dst: string, arithmetic: GpuReadTarget, scaleOffset?: string): { code: string; register: GpuPartRegister };
  /** Extra kernel arguments a read needs (the scales and block size of scaled formats; none otherwise). */
  readArgs(array: string): readonly (readonly [string, 'Array' | 'Integer'])[];
  /** Vector loads of four adjacent elements, where the format has them (bound to the same buffer as the scalar argument). */
  readonly vectorRead?: GpuVectorRead;
  /** One load of two adjacent elements (GEMV N's two rows per thread), where the format has it. */
  readonly pairRead?: GpuPairRead;
  /** One load of eight adjacent elements (GEMV N's eight rows per thread, the `gemvEightRows` switch), where the format has it. */
  readonly octetRead?: GpuOctetRead;
  /**
   * Source returning the output word(s) of a thread whose elements are `values` (`elementsPerWord` of them; the
   * rest of the word is zero-filled by passing `undefined`). Writable formats only.
   */
  emitReturn(values: readonly (GpuPartRegister | undefined)[]): string;
  /**
   * Whether the words of n elements are the bytes of the format's CPU storage of n elements: a typed array (each slot
   * 32 / `elementsPerWord` bits, or `wordsPerElement` words), element k in slot k, little-endian — as the guide's E5M2
   * (four bytes a word, element 4w + j in byte j of word w). A range then goes up as the bytes of the storage span an
   * input covers (no per-element work on the host) and is read through its offset and stride on the device; where the
   * part is also `writable`, an output goes up as its span too, is written into it on the device in place (a word a
   * thread where the view's words hold its elements only; else, for 8- and 16-bit elements, one lane a thread: the
   * element encoded by `emitReturn` in lane 0, the other lanes `undefined`, and moved into its lane with every other
   * lane of the word kept) and comes back as the span's bytes in one copy. Checked at the first such
   * upload: the part's `decode` of a sample of CPU-encoded bytes must give the values the CPU decodes, else
   * `INVALID_FORMAT` naming the operand. Absent: ranges go up as their stored values, encoded by `encode`, and outputs
   * come back decoded by `decode` and stored by the CPU codec.
   */
  readonly hostBytes?: boolean;
  /**
   * Whether the gather and scatter passes of strided device views may move its elements bit for bit (a packed
   * layout: one or two words per element, or two 16-bit or four 8-bit elements per word; not scaled), and kernels may
   * write a view of it in place (a sub-word view lane by lane, as for `hostBytes`). Absent: false (a part declaring
   * `hostBytes` has that layout all the same).
   */
  readonly bitCopy?: boolean;
}

/**
 * What a storage read needs to know of the arithmetic it feeds: the register kinds it computes from.
 * @group Formats
 */
export interface GpuReadTarget {
  /** See {@link GpuArithmeticPart.readKinds}. */
  readonly readKinds: readonly GpuRegisterKind[];
}

/**
 * Names of the arithmetics the GPU kernels compute in (`f32`, `ff` and `dd` built in; a user's part names its own).
 * @group Formats
 */
export type GpuArithmeticName = 'f32' | 'ff' | 'dd' | (string & {});

/**
 * How an arithmetic takes a host scalar (α, β of GEMV and the updates) as kernel uniforms.
 * @group Formats
 */
export interface GpuScalarPart {
  /** The uniform arguments of scalar `prefix` (e.g. `alphaHi`, `alphaLo`), in order. */
  args(prefix: string): readonly (readonly [string, 'Float' | 'Integer'])[];
  /** Their values for the host number `value` (exactly, or rounded as the arithmetic rounds an input). */
  values(prefix: string, value: number): Readonly<Record<string, number>>;
  /** Declares `dst`, a register of this arithmetic, from the uniforms of scalar `prefix`. */
  declare(dst: string, prefix: string): string;
}

/**
 * The storage formats of DOT's two operands as the call gives them (a {@link GpuStoragePart}'s name: `'f64'`, `'dd'`,
 * `'dd-split'`, `'f32'` …), which an arithmetic's DOT form may depend on ({@link GpuArithmeticPart.dotVariant},
 * `dotChains`, `dotGroups`).
 * @group Formats
 */
export interface GpuDotOperands {
  /** x's storage format name. */
  readonly x: string;
  /** y's storage format name. */
  readonly y: string;
}

/**
 * The GPU part of an arithmetic format: the gpu.js source of its operations on {@link GpuPartRegister}s. Every
 * decision a kernel makes about its arithmetic is a member here, so a new arithmetic plugs in as a new part.
 * @group Formats
 */
export interface GpuArithmeticPart {
  readonly name: GpuArithmeticName;
  /** Unit roundoff u of one operation (2^-24 for f32; 2^-48 nominal for ff, whose operations err by a few u). */
  readonly unitRoundoff: number;
  /** Words a value occupies in a partial-result buffer (a thread's output: 1, 2 or 4 words). */
  readonly components: 1 | 2 | 4;
  /**
   * Register kinds storage reads may hand this arithmetic, narrowest first: a read produces the narrowest of them
   * that holds its element exactly (the last one otherwise). f32: `['f32']`; ff: `['f32', 'ff']`.
   */
  readonly readKinds: readonly GpuRegisterKind[];
  /**
   * The default arithmetic for operands of up to this many significand bits (storage `significandBits`, plus 24
   * for scaled integers, whose values are products with a binary32 scale): where no arithmetic is chosen, the GPU
   * takes the registered part with the smallest such bound covering every operand. Absent: never a default.
   */
  readonly defaultUpToBits?: number;
  /** Relative error of one division `declareDiv` (f32: WGSL's 2.5 ulp; ff: the one-correction division's 4u). */
  readonly divisionError: number;
  /**
   * Significand bits any value of this arithmetic fits in (a storage of at least that many holds it exactly: 24 for
   * f32); absent where values may span more bits than any binary format holds (pairs whose halves lie far apart).
   */
  readonly valueBits?: number;
  /**
   * Whether squares of every binary64 and sums of them stay inside the exponent range of its register (the GPU dd
   * arithmetic's 15-bit exponent, in {@link GpuArithmeticPart.squaresVariant}'s operations): NRM2 then sums the
   * squares unscaled in one pass instead of scaling by the largest element.
   */
  readonly squaresInRange?: boolean;
  /**
   * The variant NRM2's unscaled squares and their sums run in, where this arithmetic keeps a narrower range than
   * its register holds (dd: binary64's range, as the CPU; the squares need the register's). Absent: this arithmetic.
   */
  squaresVariant?(): GpuArithmeticPart;
  /**
   * Tests on registers whose words are not binary32 values (dd's), for TRSV's substitution redo: gpu.js
   * expressions of register `name`. Absent: each word is a binary32 whose exponent bits tell a non-finite value.
   */
  readonly specialTests?: {
    /** Whether `name` is ±∞ or NaN. */
    nonFinite(name: string): string;
    /** ±∞ with the sign of `name` (a register of this arithmetic). */
    infinityOf(name: string): string;
    /** |name| as a binary32 rounded to odd: ≥ a binary32 bound b exactly where |name| ≥ b, for b with an even last bit. */
    magnitude(name: string): string;
  };
  /** GEMV's default number of independent accumulators per thread (`options.chains`). */
  readonly defaultChains: number;
  /** How host scalars reach kernels. */
  readonly scalar: GpuScalarPart;
  /** A constant of this arithmetic's kind (an expression). */
  literal(value: 0 | 1): string;
  /** Declares `dst` = |r| as a register of r's kind (or this arithmetic's) and returns it. */
  declareAbs(dst: string, r: GpuPartRegister): { code: string; register: GpuPartRegister };
  /**
   * A binary32 expression of register r's magnitude, good to a relative 2^-23 where binary32 holds it (NRM2's
   * scaling pass; kinds beyond binary32's exponent range need their own NRM2).
   */
  head(r: GpuPartRegister): string;
  /** √ of the value in `words` (one result of this arithmetic, as the device wrote it), rounded to a double. */
  sqrtOfWords(words: Uint32Array): number;
  /** How a value of this arithmetic sits in device words (partial results, intermediate vectors). */
  readonly words: GpuStoragePart;
  /**
   * WGSL functions its templates call (registered with every GPU runtime; see {@link GpuNativeLibrary}), or a loader
   * of them (a dynamic import: a CPU-only bundle then carries no WGSL text; the runtime loads it when it starts).
   */
  readonly native?: GpuNativeLibrary | (() => Promise<GpuNativeLibrary>);
  /** `let dst = 0`. */
  declareZero(dst: string): string;
  /** `dst = src` (dst: a declared variable of this arithmetic), rounding if needed. */
  assign(dst: string, src: GpuPartRegister): string;
  /** Declares `dst` (this arithmetic) from register `src`, rounding if needed. */
  declareFrom(dst: string, src: GpuPartRegister): string;
  /** `acc += a · b` (a, b registers of any kind). */
  mulAdd(acc: string, a: GpuPartRegister, b: GpuPartRegister): string;
  /** `acc += b`. */
  add(acc: string, b: GpuPartRegister): string;
  /**
   * The variant DOT's first pass runs where it is the faster one there; its results must stay within this
   * arithmetic's DOT bound (they need not be the same bits). Absent: this arithmetic. It may depend on the operands'
   * storage formats (`operands`). dd gives its lean windows of eight (`ddGpuArithmeticWindowLean8`, the `ddDotLean`
   * kernel switch) and, where an operand is stored as f64 and the other as f64 or dd, GEMV's long window
   * (`ddGpuArithmeticDotLong`, the `ddDotLong` switch, `'auto'` by default: faster there on the H100, 2026-11-28);
   * GEMV runs its own `gemvVariant`, TRSV the fused ones.
   */
  dotVariant?(operands: GpuDotOperands): GpuArithmeticPart;
  /**
   * DOT's accumulators a thread by default in this arithmetic for these operands (where a call gives neither `chains`
   * nor `groupWidth`); absent or undefined: DOT's own default (2). dd gives 1 with the lean windows of eight (its
   * step's eight products one window; 1.2–1.4× faster on the H100, 2026-11-27) and with the long window.
   */
  dotChains?(operands: GpuDotOperands): number | undefined;
  /**
   * DOT's runs a loop step by default in this arithmetic for these operands (where a call gives neither `groups` nor
   * `groupWidth`); absent or undefined: DOT's own default (2). dd gives 4 for f64·f64 in the long window under the
   * `ddDotLong` switch's `'auto'` (two long-window steps of eight terms a loop iteration: 0.95 → 0.76 ms on the H100,
   * 2026-11-28, DOT n = 2^26).
   */
  dotGroups?(operands: GpuDotOperands): number | undefined;
  /**
   * The variant GEMV's partial pass (its row or column sums, N and T) runs in, where it is the faster one there; its
   * results must stay within this arithmetic's GEMV bound (they need not be the same bits). The finishing pass (α,
   * β, the store) keeps this arithmetic, so the variant must share its register kind and words. Absent: this
   * arithmetic. dd gives windowed multiply-adds of up to eight products (`ddGpuArithmeticGemvWindow8`: its fused
   * multiply-adds for operands the window does not take), within the same gemvBound.
   */
  gemvVariant?(): GpuArithmeticPart;
  /**
   * GEMV N's x decoded once per call (the `ddGemvDecodedX` switch of src/backends/webgpu/kernel-switches.ts): where
   * x reads into registers of kind `from`, a pre-pass applies the native function `decode` (one register → four
   * words) to every element, and the partial pass reads those words as registers of kind `kind` — which this
   * arithmetic's `mulAdd` and `mulAddSteps` take, with the same results as from the plain read. Absent: x is read in
   * the partial pass.
   */
  readonly gemvDecodedX?: { readonly from: GpuRegisterKind; readonly decode: string; readonly kind: GpuRegisterKind };
  /**
   * `acc += a · b` without renormalising `acc` (a cheaper multiply-add for the unrolled steps of streaming loops):
   * at most {@link GpuArithmeticPart.lazyTerms} of them into one accumulator, then {@link GpuArithmeticPart.settle}
   * before any other operation reads it. The bounds of the kernels must still hold with it. Absent: kernels use
   * `mulAdd`.
   */
  lazyMulAdd?(acc: string, a: GpuPartRegister, b: GpuPartRegister): string;
  /**
   * One unrolled step's multiply-adds `acc += a·b` as a unit (DOT's first pass and every loop that sums a step with
   * `mulAddGroup`): the arithmetic may sum a step's products before it adds them to each accumulator. Every
   * accumulator is a settled value afterwards, and the kernels' bounds must still hold. Absent: `lazyMulAdd` or
   * `mulAdd`.
   */
  mulAddSteps?(terms: readonly { acc: string; a: GpuPartRegister; b: GpuPartRegister }[]): string[];
  /** Renormalises an accumulator after lazy multiply-adds (present with `lazyMulAdd`). */
  settle?(acc: string): string;
  /** Most lazy multiply-adds into one accumulator between two settles (present with `lazyMulAdd`). */
  readonly lazyTerms?: number;
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
 * A value type of gpu.js kernel source: binary32 (`Number`), i32 (`Integer`), or a vector of 2 or 4 binary32 lanes
 * (WGSL `vec2<f32>`, `vec4<f32>`; the lanes may carry raw bits).
 * @group Formats
 */
export type GpuValueType = 'Number' | 'Integer' | 'Array(2)' | 'Array(4)';

/**
 * Functions written directly in WGSL that kernel source calls like intrinsics (an arithmetic built on integer
 * operations gpu.js cannot express): `name(args…)` in kernel source is `name(args…)` in WGSL, and the library's
 * WGSL text is appended to each shader that calls one of them (no other shader changes).
 * @group Formats
 */
export interface GpuNativeLibrary {
  /** The callable functions: name → argument and return types. */
  readonly functions: Readonly<Record<string, { readonly args: readonly GpuValueType[]; readonly returns: GpuValueType }>>;
  /** WGSL defining every function of `functions` (and any helpers it needs, with names that start like them). */
  readonly wgsl: string;
  /**
   * Libraries built on this one that only some shaders call (their WGSL may call this library's functions): each is
   * appended, after this library, only to the shaders that call one of its own functions, so the others' WGSL stays
   * as short as without it. Absent: none.
   */
  readonly parts?: readonly GpuNativeLibrary[];
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
