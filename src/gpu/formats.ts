/**
 * GPU storage formats. Everything on the device lives in 32-bit words (gpu.js binds every array as
 * `array<f32>`; kernels reinterpret the words with `mpBits`): `f32` one value per word; `f16` and `bf16`
 * two per word (element 2k in the low half); `i16`/`i8` two/four signed integers per word, times a binary32
 * scale per block of `scaleBlock` elements; `f64` the two words of an IEEE double (low word first),
 * decoded on the device into a float-float pair and written from one (the nearest double); `ff` a float-float
 * pair (hi word, lo word).
 *
 * Each format has an exact host codec (encode rounds to nearest even, decode is exact) and templates that
 * generate gpu.js kernel source reading an element into a register and packing results into a word.
 *
 * @module
 */
import { fail } from '../errors.js';
import { findFormat } from '../formats/registry.js';
import type { GpuArithmetic, GpuRegister, HelperFunction } from './arithmetic.js';
import { bf16BitsFromNumber, numberFromBf16Bits } from '../formats/convert/bf16.js';
import { f16BitsFromNumber, numberFromF16Bits } from '../formats/convert/f16.js';
import { nearestIntegerOfQuotient } from '../formats/convert/scaled-integer.js';

/**
 * Names of the GPU storage formats (the core's format names where they coincide).
 * @group GPU
 */
export type GpuFormatName = 'f32' | 'f16' | 'bf16' | 'f64' | 'ff' | 'i8' | 'i16';

/** Words and scales of an encoded array. */
export interface EncodedArray {
  readonly words: Uint32Array;
  /** Per-block scales of integer formats. */
  readonly scales?: Float32Array;
}

/**
 * A GPU storage format.
 * @group GPU
 */
export interface GpuStorageFormat {
  readonly name: GpuFormatName;
  /** Elements per 32-bit word (2 for 16-bit formats, 4 for i8, 1 otherwise). */
  readonly elementsPerWord: number;
  /** Words per element (2 for f64 and ff, 1 otherwise). */
  readonly wordsPerElement: number;
  /** Significand bits (for integer formats: magnitude bits of the integer). */
  readonly significandBits: number;
  /** Relative rounding error of storing a value (2^-p; for scaled integers relative to the block maximum). */
  readonly unitRoundoff: number;
  /** Whether values are integers times a per-block scale. */
  readonly scaled: boolean;
  /** Whether kernels can write this format on the device (scaled integers: only `gpuConvert`, which computes the scales first). */
  readonly writable: boolean;
  /** Words needed for `length` elements. */
  words(length: number): number;
  /**
   * Encodes host values (exact doubles) into words, rounding to nearest even.
   * @throws {@link modprec!ModprecError} `INVALID_VALUE` for values the format cannot hold on the GPU
   */
  encode(values: ArrayLike<number>, parameter: string, scaleBlock: number): EncodedArray;
  /** Decodes `length` elements exactly. */
  decode(encoded: EncodedArray, length: number, scaleBlock: number): Float64Array;
  /**
   * Kernel source that reads element `index` (an integer expression) of array argument `array` into a
   * new register named `dst`.
   */
  emitRead(array: string, index: string, dst: string, arithmetic: GpuArithmetic): { code: string; register: GpuRegister };
  /** Extra kernel arguments a read needs (scales and block size of integer formats). */
  readArgs(array: string): readonly (readonly [string, 'Array' | 'Integer'])[];
  /**
   * Vector loads of four adjacent elements, where the format has them: the suffix of the vector argument
   * (bound to the same buffer as the scalar one, see gpujs-extensions.ts) and a template reading elements
   * k … k+3 (k a multiple of 4) into registers `${prefix}0` … `${prefix}3`.
   */
  readonly vectorRead?: VectorRead;
  /**
   * Kernel source that returns the output word(s) of a thread whose elements are the registers `values`
   * (`elementsPerWord` of them; the rest of the word is zero-filled by passing `undefined`).
   */
  emitReturn(values: readonly (GpuRegister | undefined)[]): string;
}

/** How a format reads four adjacent elements with vector loads. */
export interface VectorRead {
  /** Name suffix of the vector argument: `Quad` (vec4 words) or `Pair` (vec2 words). */
  readonly suffix: 'Quad' | 'Pair';
  /**
   * Source reading elements k … k+3 of the vector argument `vector` (k = `index`, a multiple of 4).
   * @param vector - the vector argument's name (ends in `suffix`)
   * @param index - integer expression of k
   * @param prefix - register name prefix
   * @param arithmetic - the arithmetic the registers feed
   */
  emit(vector: string, index: string, prefix: string, arithmetic: GpuArithmetic): { code: string; registers: GpuRegister[] };
}

/** Element j of four read as `prefix` + j from vector registers (helper of the vector reads). */
function fourRegisters(prefix: string, kind: GpuRegister['kind']): GpuRegister[] {
  return [0, 1, 2, 3].map((j) => ({ kind, name: `${prefix}${j}` }));
}

/**
 * The vector read of four elements of two words each (f64, ff) into float-float registers: eight words, two
 * 16-byte loads. `element(q, o)` is the expression of one element from words o and o + 1 of the vec4 `q`.
 */
function twoWordQuadRead(element: (q: string, o: number) => string, headOnlyInF32 = false): VectorRead {
  return {
    suffix: 'Quad',
    emit(vector, index, prefix, arithmetic) {
      const v = `${prefix}v`;
      const head = headOnlyInF32 && arithmetic.name === 'f32';
      const lines = [`const ${v}q = (${index}) >> 1; const ${v}0 = mpQuad(${vector}[${v}q]); const ${v}1 = mpQuad(${vector}[${v}q + 1]);`];
      for (let j = 0; j < 4; j++) {
        const e = element(`${v}${j >> 1}`, 2 * (j & 1));
        lines.push(head ? `const ${prefix}${j}p = ${e}; const ${prefix}${j} = ${prefix}${j}p[0];` : `const ${prefix}${j} = ${e};`);
      }
      return { code: lines.join(' '), registers: fourRegisters(prefix, head ? 'f32' : 'ff') };
    },
  };
}

/** Helper functions the read and write templates call. */
export const FORMAT_HELPERS: readonly HelperFunction[] = [
  {
    // IEEE double (high word, low word) → float-float as the CPU's formats.ff reads a double: hi = the double
    // rounded to nearest binary32 (ties to even; so an f32 arithmetic reading hi is correctly rounded, as
    // Math.fround on the CPU), lo = the rest (|lo| ≤ ulp(hi)/2, rounded to binary32 by the int→float conversion).
    // Beyond binary32's range: ±∞ above it (after rounding), ±0 below 2^-126 (binary32 subnormals, which WGSL
    // lets a GPU flush, are not produced).
    source: `function mpF64(hw, lw) {
  const e = (hw >> 20) & 2047;
  const s = hw & -2147483648;
  if (e === 2047) {
    if (((hw & 1048575) | lw) !== 0) { return [mpFloat(s | 2143289344), 0.0]; }
    return [mpFloat(s | 2139095040), 0.0];
  }
  if (e < 897) { return [mpFloat(s), 0.0]; }
  if (e > 1150) { return [mpFloat(s | 2139095040), 0.0]; }
  let t = 8388608 | ((hw & 1048575) << 3) | (lw >>> 29);
  const r = lw & 536870911;
  let rest = r;
  if (r > 268435456) { t = t + 1; rest = r - 536870912; }
  if (r === 268435456) { if ((t & 1) === 1) { t = t + 1; rest = r - 536870912; } }
  const scale = mpFloat((e - 896) << 23);
  const hi = (t * 1.1920928955078125e-7) * scale;
  const lo = (rest * 2.220446049250313e-16) * scale;
  if (s !== 0) { return [-hi, -lo]; }
  return [hi, lo];
}`,
    argumentTypes: { hw: 'Integer', lw: 'Integer' },
    returnType: 'Array(2)',
  },
  {
    // Bits of hi + lo rounded to odd in binary32: a later rounding to ≤ 11 bits is then correct.
    source: `function mpRoundOdd(hi, lo) {
  if (lo === 0.0) { return mpBits(hi); }
  const v = mpKeep(hi + lo); const r = mpKeep(mpKeep(hi - v) + lo);
  const b = mpBits(v);
  if (r > 0.0) { if (v < 0.0) { return (b - 1) | 1; } return b | 1; }
  if (r < 0.0) { if (v > 0.0) { return (b - 1) | 1; } return b | 1; }
  return b;
}`,
    argumentTypes: { hi: 'Number', lo: 'Number' },
    returnType: 'Integer',
  },
  {
    source: `function mpBf16(b) {
  if ((b & 2147483647) > 2139095040) { return ((b >> 16) & 65535) | 64; }
  return ((b + 32767 + ((b >> 16) & 1)) >> 16) & 65535;
}`,
    argumentTypes: { b: 'Integer' },
    returnType: 'Integer',
  },
  {
    source: `function mpF16(b) {
  const s = (b >> 16) & 32768;
  const a = b & 2147483647;
  if (a > 2139095040) { return s | 32256; }
  if (a >= 1199566848) { return s | 31744; }
  if (a >= 947912704) {
    const h = (((a >> 23) - 112) << 10) | ((a >> 13) & 1023);
    const rem = a & 8191;
    if (rem > 4096) { return s | (h + 1); }
    if (rem === 4096) { return s | (h + (h & 1)); }
    return s | h;
  }
  if (a <= 855638016) { return s; }
  const m = (a & 8388607) | 8388608;
  const sh = 126 - (a >> 23);
  const hs = m >> sh;
  const rs = m & ((1 << sh) - 1);
  const half = 1 << (sh - 1);
  if (rs > half) { return s | (hs + 1); }
  if (rs === half) { return s | (hs + (hs & 1)); }
  return s | hs;
}`,
    argumentTypes: { b: 'Integer' },
    returnType: 'Integer',
  },
];

/** Bits (an integer expression) of register `r` rounded for a later ≤ 11-bit rounding. */
function bitsForNarrowing(r: GpuRegister): string {
  return r.kind === 'ff' ? `mpRoundOdd(${r.name}[0], ${r.name}[1])` : `mpBits(${r.name})`;
}

function single(r: GpuRegister): string {
  return r.kind === 'ff' ? `(${r.name}[0] + ${r.name}[1])` : r.name;
}

function checkFiniteAll(values: ArrayLike<number>, parameter: string): void {
  for (let k = 0; k < values.length; k++) {
    if (!Number.isFinite(values[k]!)) fail('INVALID_VALUE', `${parameter}[${k}]`, 'must be finite for a scaled integer format', values[k]);
  }
}

function sixteenBit(name: 'f16' | 'bf16'): GpuStorageFormat {
  // The core's exact host conversions (round to nearest even, NaN kept).
  const toBits = name === 'f16' ? f16BitsFromNumber : bf16BitsFromNumber;
  const fromBits = name === 'f16' ? numberFromF16Bits : numberFromBf16Bits;
  const p = name === 'f16' ? 11 : 8;
  return {
    name,
    elementsPerWord: 2,
    wordsPerElement: 1,
    significandBits: p,
    unitRoundoff: 2 ** -p,
    scaled: false,
    writable: true,
    words: (length) => Math.ceil(length / 2),
    encode(values) {
      const words = new Uint32Array(Math.max(1, Math.ceil(values.length / 2)));
      for (let k = 0; k < values.length; k++) words[k >> 1]! |= toBits(values[k]!) << ((k & 1) << 4);
      return { words };
    },
    decode(encoded, length) {
      const out = new Float64Array(length);
      for (let k = 0; k < length; k++) out[k] = fromBits((encoded.words[k >> 1]! >>> ((k & 1) << 4)) & 0xffff);
      return out;
    },
    emitRead(array, index, dst) {
      const head = `const ${dst}k = ${index}; const ${dst}w = mpBits(${array}[${dst}k >> 1]);`;
      if (name === 'f16') {
        // WGSL's unpack2x16float decodes both halves exactly (subnormals, ±Inf, NaN) in one instruction.
        return { code: `${head} const ${dst}p = mpHalfPair(${dst}w); const ${dst} = ${dst}p[${dst}k & 1];`, register: { kind: 'f32', name: dst } };
      }
      return {
        code: `${head} const ${dst}h = (${dst}w >>> ((${dst}k & 1) << 4)) & 65535; const ${dst} = mpFloat(${dst}h << 16);`,
        register: { kind: 'f32', name: dst },
      };
    },
    readArgs: () => [],
    vectorRead: {
      // Four elements are two words: one 8-byte load.
      suffix: 'Pair',
      emit(vector, index, prefix) {
        const v = `${prefix}v`;
        const lines = [`const ${v} = mpPair(${vector}[(${index}) >> 2]); const ${v}w0 = mpBits(${v}[0]); const ${v}w1 = mpBits(${v}[1]);`];
        if (name === 'f16') {
          lines.push(`const ${v}h0 = mpHalfPair(${v}w0); const ${v}h1 = mpHalfPair(${v}w1);`);
          lines.push(`const ${prefix}0 = ${v}h0[0]; const ${prefix}1 = ${v}h0[1]; const ${prefix}2 = ${v}h1[0]; const ${prefix}3 = ${v}h1[1];`);
        } else {
          lines.push(`const ${prefix}0 = mpFloat(${v}w0 << 16); const ${prefix}1 = mpFloat(${v}w0 & -65536); const ${prefix}2 = mpFloat(${v}w1 << 16); const ${prefix}3 = mpFloat(${v}w1 & -65536);`);
        }
        return { code: lines.join(' '), registers: fourRegisters(prefix, 'f32') };
      },
    },
    emitReturn(values) {
      const pack = (r: GpuRegister | undefined): string => (r ? `${name === 'f16' ? 'mpF16' : 'mpBf16'}(${bitsForNarrowing(r)})` : '0');
      return `return mpFloat(${pack(values[0])} | (${pack(values[1])} << 16));`;
    },
  };
}

const bits32 = new Uint32Array(1);
const float32 = new Float32Array(bits32.buffer);
/** The binary32 after a positive finite binary32 `x`. */
function nextBinary32(x: number): number {
  float32[0] = x;
  bits32[0] = bits32[0]! + 1;
  return float32[0]!;
}

function scaledInteger(name: 'i8' | 'i16'): GpuStorageFormat {
  const bits = name === 'i8' ? 8 : 16;
  const perWord = 32 / bits;
  const qmax = 2 ** (bits - 1) - 1;
  return {
    name,
    elementsPerWord: perWord,
    wordsPerElement: 1,
    significandBits: bits - 1,
    unitRoundoff: 0.5 / qmax,
    scaled: true,
    writable: false,
    words: (length) => Math.ceil(length / perWord),
    encode(values, parameter, scaleBlock) {
      checkFiniteAll(values, parameter);
      const blocks = Math.max(1, Math.ceil(values.length / scaleBlock));
      const scales = new Float32Array(blocks);
      const words = new Uint32Array(Math.max(1, Math.ceil(values.length / perWord)));
      for (let b = 0; b < blocks; b++) {
        let max = 0;
        const end = Math.min(values.length, (b + 1) * scaleBlock);
        for (let k = b * scaleBlock; k < end; k++) max = Math.max(max, Math.abs(values[k]!));
        // The smallest binary32 s with s·qmax ≥ max (s·qmax is exact in a double), as the device computes it.
        let scale = Math.fround(max / qmax);
        if (scale * qmax < max) scale = nextBinary32(scale);
        if (scale === 0 || !Number.isFinite(scale)) scale = max === 0 ? 1 : fail('INVALID_VALUE', parameter, `must have block maxima whose scale fits binary32`, max);
        scales[b] = scale;
        for (let k = b * scaleBlock; k < end; k++) {
          // The CPU's write: values[k]/scale rounded once to the nearest integer (ties to even), as the device does.
          const q = Math.max(-qmax, Math.min(qmax, nearestIntegerOfQuotient(values[k]!, 0, scale)));
          words[Math.floor(k / perWord)]! |= (q & (2 ** bits - 1)) << ((k % perWord) * bits);
        }
      }
      return { words, scales };
    },
    decode(encoded, length, scaleBlock) {
      const out = new Float64Array(length);
      for (let k = 0; k < length; k++) {
        const w = encoded.words[Math.floor(k / perWord)]!;
        const q = (w << (32 - bits - (k % perWord) * bits)) >> (32 - bits);
        out[k] = q * encoded.scales![Math.floor(k / scaleBlock)]!;
      }
      return out;
    },
    emitRead(array, index, dst, arithmetic) {
      const lane = perWord === 4 ? `((${dst}k & 3) << 3)` : `((${dst}k & 1) << 4)`;
      const word = perWord === 4 ? `${dst}k >> 2` : `${dst}k >> 1`;
      const head = `const ${dst}k = ${index}; const ${dst}w = mpBits(${array}[${word}]); const ${dst}q = (${dst}w << (${32 - bits} - ${lane})) >> ${32 - bits}; const ${dst}s = ${array}Scale[mpIdiv(${dst}k, ${array}Block)];`;
      if (arithmetic.name === 'ff') return { code: `${head} const ${dst} = ffTwoProd(${dst}q * 1.0, ${dst}s);`, register: { kind: 'ff', name: dst } };
      return { code: `${head} const ${dst} = ${dst}q * ${dst}s;`, register: { kind: 'f32', name: dst } };
    },
    readArgs: (array) => [[`${array}Scale`, 'Array'], [`${array}Block`, 'Integer']],
    emitReturn() {
      throw new Error('internal: integer formats are not written on the device');
    },
  };
}

const f32Format: GpuStorageFormat = {
  name: 'f32',
  elementsPerWord: 1,
  wordsPerElement: 1,
  significandBits: 24,
  unitRoundoff: 2 ** -24,
  scaled: false,
  writable: true,
  words: (length) => length,
  encode(values) {
    if (values instanceof Float32Array) {
      // Already binary32: the words are its bits.
      const words = new Uint32Array(Math.max(1, values.length));
      words.set(new Uint32Array(values.buffer, values.byteOffset, values.length));
      return { words };
    }
    const words = new Uint32Array(Math.max(1, values.length));
    const view = new Float32Array(words.buffer);
    for (let k = 0; k < values.length; k++) view[k] = values[k]!;
    return { words };
  },
  decode(encoded, length) {
    return Float64Array.from(new Float32Array(encoded.words.buffer, encoded.words.byteOffset, length));
  },
  emitRead: (array, index, dst) => ({ code: `const ${dst} = ${array}[${index}];`, register: { kind: 'f32', name: dst } }),
  readArgs: () => [],
  vectorRead: {
    suffix: 'Quad',
    emit(vector, index, prefix) {
      const v = `${prefix}v`;
      const regs = [0, 1, 2, 3].map((j) => `const ${prefix}${j} = ${v}[${j}];`).join(' ');
      return { code: `const ${v} = mpQuad(${vector}[(${index}) >> 2]); ${regs}`, registers: fourRegisters(prefix, 'f32') };
    },
  },
  emitReturn: (values) => `return ${values[0] ? single(values[0]) : '0.0'};`,
};

const f64Format: GpuStorageFormat = {
  name: 'f64',
  elementsPerWord: 1,
  wordsPerElement: 2,
  significandBits: 53,
  unitRoundoff: 2 ** -53,
  scaled: false,
  writable: true,
  words: (length) => 2 * length,
  encode(values, parameter) {
    const doubles = new Float64Array(Math.max(1, values.length));
    // Exact: the words of each double (how the device reads them into an arithmetic: see mpF64).
    for (let k = 0; k < values.length; k++) doubles[k] = values[k]!;
    return { words: new Uint32Array(doubles.buffer) };
  },
  decode(encoded, length) {
    return new Float64Array(encoded.words.buffer.slice(encoded.words.byteOffset, encoded.words.byteOffset + 8 * length));
  },
  // In f32 arithmetic only the head is read: it is the double correctly rounded to binary32 (adding the tail in
  // binary32 could round a second time when the tail is exactly half an ulp after its own rounding).
  emitRead(array, index, dst, arithmetic) {
    const pair = `mpF64(mpBits(${array}[${dst}k + 1]), mpBits(${array}[${dst}k]))`;
    if (arithmetic.name === 'f32') {
      return { code: `const ${dst}k = (${index}) * 2; const ${dst}p = ${pair}; const ${dst} = ${dst}p[0];`, register: { kind: 'f32', name: dst } };
    }
    return { code: `const ${dst}k = (${index}) * 2; const ${dst} = ${pair};`, register: { kind: 'ff', name: dst } };
  },
  readArgs: () => [],
  // The low word of a double comes first.
  vectorRead: twoWordQuadRead((q, o) => `mpF64(mpBits(${q}[${o + 1}]), mpBits(${q}[${o}]))`, true),
  // The double nearest the register's value (float-float values hold at most 48 significant bits, so the
  // words are exact for them; see format-writers.ts).
  emitReturn: (values) => {
    const r = values[0];
    if (!r) return 'return [0.0, 0.0];';
    return r.kind === 'ff' ? `return mpF64Words(${r.name}[0], ${r.name}[1]);` : `return mpF64Words(${r.name}, 0.0);`;
  },
};

const ffFormat: GpuStorageFormat = {
  name: 'ff',
  elementsPerWord: 1,
  wordsPerElement: 2,
  significandBits: 48,
  unitRoundoff: 2 ** -48,
  scaled: false,
  writable: true,
  words: (length) => 2 * length,
  encode(values, parameter) {
    const pairs = new Float32Array(Math.max(2, 2 * values.length));
    for (let k = 0; k < values.length; k++) {
      const x = values[k]!;
      const hi = Math.fround(x);
      pairs[2 * k] = hi;
      pairs[2 * k + 1] = Number.isFinite(hi) ? Math.fround(x - hi) : 0;
    }
    return { words: new Uint32Array(pairs.buffer) };
  },
  decode(encoded, length) {
    const pairs = new Float32Array(encoded.words.buffer, encoded.words.byteOffset, 2 * length);
    const out = new Float64Array(length);
    for (let k = 0; k < length; k++) {
      const hi = pairs[2 * k]!;
      const lo = pairs[2 * k + 1]!;
      out[k] = lo === 0 ? hi : hi + lo; // keeps −0
    }
    return out;
  },
  emitRead(array, index, dst) {
    return { code: `const ${dst}k = (${index}) * 2; const ${dst} = [${array}[${dst}k], ${array}[${dst}k + 1]];`, register: { kind: 'ff', name: dst } };
  },
  readArgs: () => [],
  vectorRead: twoWordQuadRead((q, o) => `[${q}[${o}], ${q}[${o + 1}]]`),
  emitReturn: (values) => (values[0] ? (values[0].kind === 'ff' ? `return ${values[0].name};` : `return [${values[0].name}, 0.0];`) : 'return [0.0, 0.0];'),
};

/**
 * The GPU storage formats by name.
 * @group GPU
 */
export const GPU_FORMATS: Readonly<Record<GpuFormatName, GpuStorageFormat>> = {
  f32: f32Format,
  f16: sixteenBit('f16'),
  bf16: sixteenBit('bf16'),
  f64: f64Format,
  ff: ffFormat,
  i8: scaledInteger('i8'),
  i16: scaledInteger('i16'),
};

/**
 * The GPU storage format named `name`.
 * @param name - one of {@link GpuFormatName}
 * @param parameter - the parameter name for the error
 * @returns the format
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` for other names
 * @example
 * ```ts
 * import { gpuFormat } from 'modprec/gpu';
 *
 * gpuFormat('bf16').elementsPerWord; // → 2
 * gpuFormat('ff').significandBits; // → 48
 * ```
 * @group GPU
 */
export function gpuFormat(name: string, parameter = 'format'): GpuStorageFormat {
  // Built-in GPU formats first, then a registered storage format's GPU part (a user's format).
  const f = (GPU_FORMATS as Record<string, GpuStorageFormat>)[name] ?? (findFormat(name)?.storage?.gpu as GpuStorageFormat | undefined);
  if (!f) fail('INVALID_FORMAT', parameter, `must be a GPU storage format (${Object.keys(GPU_FORMATS).join(', ')}, or a registered format with a GPU part)`, name);
  return f;
}
