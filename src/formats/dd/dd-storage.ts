/**
 * Double-double as a storage format of the core (`StorageFormat`, kind `dd`): each element is a pair
 * (hi, lo) held exactly. Two layouts are provided; {@link ddStorage} (interleaved) is the registered default,
 * chosen by measurement (bench/dd-layout.ts, figures in docs/double-double.md).
 *
 * - interleaved: one `Float64Array` of length 2n, element k at [2k] (hi) and [2k+1] (lo) — one stream,
 *   both parts in the same cache line;
 * - split: a {@link DdSplitArray} with separate `hi` and `lo` `Float64Array`s — the hi array alone is a valid
 *   fp64 vector (the value rounded, up to ties) and SIMD-friendly, but reads touch two streams.
 *
 * Writes normalise (TwoSum, value unchanged): a user pair { hi, lo } need not be normalised; one whose finite parts sum
 * beyond the doubles rounds to ±∞, stored (±∞, 0), as every write that overflows. A zero is stored as
 * (z, z) with hi's sign, so a written −0 reads back as −0 (hi + lo of (−0, +0) would be +0). A user pair with a
 * finite hi and a non-finite lo is rejected (`INVALID_VALUE`); a non-finite hi is stored as (hi + lo, 0), like
 * an IEEE special value. Raw words in the arrays are not checked: every kernel reads a pair as hi + lo, so a raw
 * (1, NaN) is NaN, as if (hi + lo, 0) were stored (docs/double-double.md, "Special values").
 * @module
 */
import type { StorageFormat, Register } from '../common/format.js';
import { fail } from '../../core/errors.js';
import type { DdValue } from './dd-arithmetic.js';
import { builtinGpuStorage, BUILTIN_STORAGE_GPU_FACTS } from '../common/gpu-facts.js';

/**
 * Split layout: high parts and low parts in two arrays of equal length. They may be views of any memory; an array whose
 * hi and lo overlap can be read, but a write through a range over it (`set`) is `INVALID_STORAGE` naming `data`, before
 * anything is written, as the kernels refuse such an output.
 * @group Double-double
 */
export class DdSplitArray {
  /** High parts. */
  declare readonly hi: Float64Array;
  /** Low parts. */
  declare readonly lo: Float64Array;
  /**
   * @param length - number of elements (all zero), or existing arrays `{ hi, lo }` of equal length
   * @throws {@link ModprecError} `INVALID_SIZE` / `INVALID_STORAGE`
   */
  constructor(length: number | { hi: Float64Array; lo: Float64Array }) {
    if (typeof length === 'number') {
      if (!Number.isSafeInteger(length) || length < 0) fail('INVALID_SIZE', 'length', 'must be a non-negative integer', length);
      this.hi = new Float64Array(length);
      this.lo = new Float64Array(length);
    } else {
      if (typeof length !== 'object' || length === null) {
        fail('INVALID_SIZE', 'length', 'must be a non-negative integer or { hi, lo } Float64Arrays of equal length', length);
      }
      if (!(length.hi instanceof Float64Array) || !(length.lo instanceof Float64Array) || length.hi.length !== length.lo.length) {
        fail('INVALID_STORAGE', 'data', 'must have Float64Array hi and lo of equal length', length);
      }
      this.hi = length.hi;
      this.lo = length.lo;
    }
  }
  /** Number of elements. */
  get length(): number { return this.hi.length; }
}

/**
 * Whether a split array's hi and lo share memory (views of one buffer whose byte ranges meet): it can be read, but a
 * write of one element's pair would store its low part over a high part (kernels refuse such an output too).
 */
function partsOverlap(data: DdSplitArray): boolean {
  const { hi, lo } = data;
  return hi.buffer === lo.buffer && hi.length > 0 && lo.length > 0
    && hi.byteOffset < lo.byteOffset + lo.byteLength && lo.byteOffset < hi.byteOffset + hi.byteLength;
}

/** Normalises a written value into (hi, lo); shared by both layouts. */
function normalised(v: DdValue | number): [number, number] {
  const hi = typeof v === 'number' ? v : v.hi;
  const lo = typeof v === 'number' ? 0 : v.lo;
  if (!Number.isFinite(hi)) return [hi + lo, 0];
  if (!Number.isFinite(lo)) fail('INVALID_VALUE', 'value.lo', 'must be a finite number', lo);
  const s = hi + lo;
  // Finite parts whose sum is beyond the doubles, (MAX, 2^970): the value rounds to ±∞, stored (±∞, 0) as a kernel
  // stores an overflow (TwoSum below would leave (∞, NaN), which reads as NaN).
  if (s - s !== 0) return [s, 0];
  // A zero is stored as (z, z) with the sign of hi (a number x arrives as (x, 0)): with lo = +0, hi + lo of a −0
  // would read back as +0.
  if (s === 0) { const z = hi === 0 ? hi : s; return [z, z]; }
  const z = s - hi;
  return [s, (hi - (s - z)) + (lo - z)];
}

/** The stored low part: a zero hi's own sign (registers carry a number x as (x, 0), and −0 + 0 reads as +0). */
const zeroSigned = (src: Register): string => `(${src.names[0]} === 0 ? ${src.names[0]} : ${src.names[1]})`;

const common = {
  kind: 'dd' as const,
  significandBits: 106,
  // A real x is stored as RN(x) + RN(x − RN(x)): relative error ≤ u² = 2^-106. Values from DD or fp64
  // arithmetic are stored exactly.
  unitRoundoff: 2 ** -106,
  isInteger: false,
  maxValue: Number.MAX_VALUE,
  helpers: {},
};

/**
 * Double-double storage, interleaved layout (Float64Array of 2n: hi, lo, hi, lo, …). 16 bytes per value, at most
 * 2^30 elements per buffer.
 * @group Double-double
 */
export const ddStorage: StorageFormat<Float64Array, DdValue> = builtinGpuStorage({
  name: 'dd',
  ...common,
  wordsPerElement: 2,
  allocate: (n) => new Float64Array(2 * n),
  accepts: (data): data is Float64Array => data instanceof Float64Array && data.length <= 2 ** 31,
  capacity: (data) => Math.floor(data.length / 2),
  decode: (data, k) => ({ hi: data[2 * k]!, lo: data[2 * k + 1]! }),
  encode: (data, k, v) => { const [h, l] = normalised(v); data[2 * k] = h; data[2 * k + 1] = l; },
  // Int32 index arithmetic (<< 1, | 1) spares the engine overflow checks; it limits a buffer to 2^30 elements.
  emitRead: (data, index, dst: Register) =>
    `{ const dd$k = (${index}) << 1; ${dst.names[0]} = ${data}[dd$k]; ${dst.names[1]} = ${data}[dd$k | 1]; }`,
  emitWrite: (data, index, src: Register) =>
    `{ const dd$k = (${index}) << 1; ${data}[dd$k] = ${src.names[0]}; ${data}[dd$k | 1] = ${zeroSigned(src)}; }`,
  // On the device: the same bytes, four words per element (dd-gpu-words.ts; `gpu` once the GPU backend loads).
}, BUILTIN_STORAGE_GPU_FACTS.dd);

/**
 * Double-double storage, split layout ({@link DdSplitArray}: separate hi and lo arrays). 16 bytes per value. On the
 * GPU it goes up and comes back as the bytes of the two arrays, and runs every kernel dd storage runs.
 * @group Double-double
 */
export const ddSplitStorage: StorageFormat<DdSplitArray, DdValue> = builtinGpuStorage({
  name: 'dd-split',
  ...common,
  allocate: (n) => new DdSplitArray(n),
  accepts: (data): data is DdSplitArray => data instanceof DdSplitArray,
  capacity: (data) => data.length,
  decode: (data, k) => ({ hi: data.hi[k]!, lo: data.lo[k]! }),
  encode: (data, k, v) => {
    // A set through a range over such an array stored (2^-60, 2^-60) for (1, 2^-60), or wrote another element's hi.
    if (partsOverlap(data)) fail('INVALID_STORAGE', 'data', 'must have hi and lo arrays that share no memory to be written (a DdSplitArray over overlapping views can only be read)');
    const [h, l] = normalised(v);
    data.hi[k] = h;
    data.lo[k] = l;
  },
  emitRead: (data, index, dst: Register) =>
    `{ const dd$k = ${index}; ${dst.names[0]} = ${data}.hi[dd$k]; ${dst.names[1]} = ${data}.lo[dd$k]; }`,
  emitWrite: (data, index, src: Register) =>
    `{ const dd$k = ${index}; ${data}.hi[dd$k] = ${src.names[0]}; ${data}.lo[dd$k] = ${zeroSigned(src)}; }`,
  // On the device: the bytes of hi, then of lo, in one buffer (dd-split-gpu-words.ts; `gpu` once the GPU backend loads).
}, BUILTIN_STORAGE_GPU_FACTS['dd-split']);
