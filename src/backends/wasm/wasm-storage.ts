/**
 * The built-in storage formats as WebAssembly reads and writes them: SIMD code that turns two stored elements
 * into an f64x2 of their values (exactly the values the JavaScript kernels decode), the element sizes, and the
 * staging of an operand's elements into the WebAssembly memory.
 *
 * Why staging: modprec's operands live in ordinary JavaScript ArrayBuffers by default (a range's typed array, or the
 * user's), which WebAssembly cannot address. So the kernels copy operands in chunks of {@link CHUNK} elements into
 * a staging area that stays in the L2 cache and compute on the copy: DRAM is read once, as by the JavaScript
 * kernels; the copy itself (a memcpy for unit strides) runs from cache to cache. Ranges allocated in a
 * {@link wasmArena} (src/backends/wasm/wasm-arena.ts) live in the kernels' memory: the kernels that take
 * {@link inPlaceAddress} read them there, without the copy, in the same chunks and lane order.
 * @module
 */
import type { Accessor } from '../../../accessors/accessor.js';
import { findFormat } from '../../formats/common/registry.js';
import { SIMD, op } from './wasm-encoder.js';
import { reserveBytes, wasmMemory } from './wasm-runtime.js';
import { wasmAddressOf } from './wasm-arena.js';
import { DdSplitArray } from '../../formats/dd/dd-storage.js';

/** Elements per staged chunk of fp64 (a multiple of 8: the kernels' SIMD loops take 8 elements per step). */
export const CHUNK = 4096;

/**
 * Elements per chunk for operands of these storages: as many as fit CHUNK·8 bytes for the widest, so narrow
 * formats move as many bytes per call as fp64 does (fewer calls and views per byte).
 */
export function chunkElements(...storages: readonly (WasmStorage | null)[]): number {
  const widest = Math.max(...storages.map((s) => s?.bytes ?? 1));
  return (CHUNK * 8) / widest;
}

/** A built-in storage the WebAssembly kernels read. */
export interface WasmStorage {
  /** The storage's name (f64, f32, f16, bf16, i8, i16, i32). */
  readonly name: string;
  /** Bytes per element. */
  readonly bytes: number;
  /** Entries of the storage's typed array per element (2 for double-double's interleaved hi, lo; else 1). */
  readonly words?: number;
  /** Whether an f64x2 of values can also be written back by {@link WasmStorage.store2} (f64, f32). */
  readonly writable: boolean;
  /**
   * Instructions leaving an f64x2 of the values of the two elements at byte address (local `pointer`) + `offset`
   * on the stack; `constants` are locals holding the decoder's vector constants (see {@link WasmStorage.constants}).
   */
  load2(pointer: number, offset: number, constants: readonly number[]): number[];
  /** Vector constants the decoder needs (as i32x4 splats), set up once per call. */
  readonly constants: readonly number[];
  /** v128 scratch locals the decoder needs after its constants (passed to load2 after them). */
  readonly scratch?: number;
  /** Instructions storing the f64x2 on the stack (after the address) at `offset`, rounded to the storage. */
  store2?(offset: number): number[];
  /**
   * For fp32 arithmetic: instructions leaving an f32x4 of the four elements at (local `pointer`) + `offset` on the
   * stack, each rounded to binary32 to nearest even — the `Math.fround` of the JavaScript f32 arithmetic's read
   * (exact for the formats of at most 24 significand bits; double-double: hi + lo in one rounding, through
   * round-to-odd); `constants` as for load2, followed by {@link WasmStorage.scratch4} scratch locals.
   */
  load4?(pointer: number, offset: number, constants: readonly number[]): number[];
  /** v128 scratch locals load4 needs after the decoder's own locals (allocated for fp32 arithmetic only). */
  readonly scratch4?: number;
}

const splat32 = (k: number): number[] => [...op.i32(k | 0), ...op.simd(SIMD.i32x4Splat)];

const f64: WasmStorage = {
  name: 'f64', bytes: 8, writable: true, constants: [],
  load2: (p, o) => [...op.get(p), ...op.simdMem(SIMD.load, 0, o)],
  // Each pair demoted (round to nearest even, as Math.fround), the two low halves joined.
  load4: (p, o) => [
    ...op.get(p), ...op.simdMem(SIMD.load, 0, o), ...op.simd(SIMD.f32x4DemoteF64x2Zero),
    ...op.get(p), ...op.simdMem(SIMD.load, 0, o + 16), ...op.simd(SIMD.f32x4DemoteF64x2Zero),
    ...op.simd(0x0d /* i8x16.shuffle */, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23),
  ],
  store2: (o) => op.simdMem(SIMD.store, 0, o),
};

const f32: WasmStorage = {
  name: 'f32', bytes: 4, writable: true, constants: [],
  load2: (p, o) => [...op.get(p), ...op.simdMem(SIMD.load64Zero, 0, o), ...op.simd(SIMD.f64x2PromoteLowF32x4)],
  load4: (p, o) => [...op.get(p), ...op.simdMem(SIMD.load, 0, o)],
  // Demotion rounds to nearest even, as Math.fround (the JavaScript kernels' write of an f32 element) does.
  store2: (o) => [...op.simd(SIMD.f32x4DemoteF64x2Zero), ...op.simdMem(0x5b /* v128.store64_lane */, 0, o), 0],
};

/**
 * Narrow formats decode four elements at once into an f32x4 (or i32x4), kept in a scratch local: the pair 2k, 2k+1
 * with k even is its low half, k odd its high half (moved down by a shuffle). load2 is called in order of k for
 * each operand, so the odd call finds the even call's four values.
 */
function fourWide(offset: number, bytes: number, wide: number, decode4: () => number[], low: number[]): number[] {
  if ((offset / bytes) % 4 === 0) return [...decode4(), ...op.tee(wide), ...low];
  const high = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
  return [...op.get(wide), ...op.get(wide), ...op.simd(0x0d /* i8x16.shuffle */, ...high), ...low];
}

// The 16 bits are the high half of a binary32.
const bf16Decode4 = (p: number, o: number): number[] => [...op.get(p), ...op.simdMem(SIMD.load64Zero, 0, o), ...op.simd(SIMD.i32x4ExtendLowI16x8u),
  ...op.i32(16), ...op.simd(SIMD.i32x4Shl)];
const bf16: WasmStorage = {
  name: 'bf16', bytes: 2, writable: false, constants: [], scratch: 1,
  load2: (p, o, [wide]) => fourWide(o, 2, wide!, () => bf16Decode4(p, o), op.simd(SIMD.f64x2PromoteLowF32x4)),
  load4: bf16Decode4,
};

// fp16 → binary32 without a table: the exponent and significand bits shifted into place are the binary32 of
// the value times 2⁻¹¹², so one exact multiplication by 2¹¹² rebiases normal and subnormal values alike; Inf
// and NaN (exponent 31) get exponent 255 instead, keeping their significand; the sign is or-ed in last.
const f16: WasmStorage = {
  name: 'f16', bytes: 2, writable: false,
  constants: [0x7fff, 0x8000, 0x77800000, 0x7c00, 0x7f800000], scratch: 4,
  load2: (p, o, constants) => fourWide(o, 2, constants[8]!, () => f16Decode4(p, o, constants), op.simd(SIMD.f64x2PromoteLowF32x4)),
  load4: (p, o, constants) => f16Decode4(p, o, constants),
};

/** The f32x4 of four fp16 elements (see {@link f16}). */
function f16Decode4(p: number, o: number, [magnitudeMask, signMask, scale, infinityBits, f32Exponent, h, m, b]: readonly number[]): number[] {
  return [
    // h = the four 16-bit patterns, m = h & 0x7fff, b = m << 13
    ...op.get(p), ...op.simdMem(SIMD.load64Zero, 0, o), ...op.simd(SIMD.i32x4ExtendLowI16x8u), ...op.set(h!),
    ...op.get(h!), ...op.get(magnitudeMask!), ...op.simd(SIMD.and), ...op.set(m!),
    ...op.get(m!), ...op.i32(13), ...op.simd(SIMD.i32x4Shl), ...op.set(b!),
    // v128.bitselect(Inf/NaN part, finite part, m ≥ 0x7c00)
    ...op.get(b!), ...op.get(f32Exponent!), ...op.simd(SIMD.or),
    ...op.get(b!), ...op.get(scale!), ...op.simd(SIMD.f32x4Mul),
    ...op.get(m!), ...op.get(infinityBits!), ...op.simd(SIMD.i32x4GeU),
    ...op.simd(SIMD.bitselect),
    ...op.get(h!), ...op.get(signMask!), ...op.simd(SIMD.and), ...op.i32(16), ...op.simd(SIMD.i32x4Shl), ...op.simd(SIMD.or),
  ];
}

/** Scaled or plain integers: exact int32 lanes converted to doubles (the scale multiplies afterwards). */
const convertLow = op.simd(SIMD.f64x2ConvertLowI32x4s);
// For fp32 arithmetic: exact for i8 and i16; i32 rounds to nearest even, as Math.fround of the integer.
const convert4 = op.simd(SIMD.f32x4ConvertI32x4s);
const i8Decode4 = (p: number, o: number): number[] => [...op.get(p), ...op.simdMem(SIMD.load32Zero, 0, o),
  ...op.simd(SIMD.i16x8ExtendLowI8x16s), ...op.simd(SIMD.i32x4ExtendLowI16x8s)];
const i8: WasmStorage = {
  name: 'i8', bytes: 1, writable: false, constants: [], scratch: 1,
  load2: (p, o, [wide]) => fourWide(o, 1, wide!, () => i8Decode4(p, o), convertLow),
  load4: (p, o) => [...i8Decode4(p, o), ...convert4],
};
const i16Decode4 = (p: number, o: number): number[] => [...op.get(p), ...op.simdMem(SIMD.load64Zero, 0, o), ...op.simd(SIMD.i32x4ExtendLowI16x8s)];
const i16: WasmStorage = {
  name: 'i16', bytes: 2, writable: false, constants: [], scratch: 1,
  load2: (p, o, [wide]) => fourWide(o, 2, wide!, () => i16Decode4(p, o), convertLow),
  load4: (p, o) => [...i16Decode4(p, o), ...convert4],
};
const i32: WasmStorage = {
  name: 'i32', bytes: 4, writable: false, constants: [],
  load2: (p, o) => [...op.get(p), ...op.simdMem(SIMD.load64Zero, 0, o), ...convertLow],
  load4: (p, o) => [...op.get(p), ...op.simdMem(SIMD.load, 0, o), ...convert4],
};

// Double-double (interleaved hi, lo) read by fp64 arithmetic: the value hi + lo, as the JavaScript kernels read it
// (src/formats/f64/f64-arithmetic.ts). The two elements' pairs are regrouped into (hi₀, hi₁) and (lo₀, lo₁).
const dd: WasmStorage = {
  name: 'dd', bytes: 16, words: 2, writable: false, constants: [], scratch4: 3, load4: (p, o, scratch) => ddLoad4(p, o, scratch),
  load2: (p, o) => [
    ...op.get(p), ...op.simdMem(SIMD.load, 0, o), ...op.get(p), ...op.simdMem(SIMD.load, 0, o + 16),
    ...op.simd(0x0d /* i8x16.shuffle */, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23),
    ...op.get(p), ...op.simdMem(SIMD.load, 0, o), ...op.get(p), ...op.simdMem(SIMD.load, 0, o + 16),
    ...op.simd(0x0d, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31),
    ...op.simd(SIMD.f64x2Add),
  ],
};

// Double-double read by fp32 arithmetic: the JavaScript reads fround(roundToOddDd(hi, lo))
// (src/formats/convert/round-to-odd.ts) — hi + lo rounded to odd at 53 bits, then to binary32 in one rounding.
// The same case analysis, lane-wise: first (hi, lo) := TwoSum(hi, lo) where hi + lo is finite and not hi (a raw pair
// need not be normalised; a normalised one is unchanged); then lo = 0 → hi; hi = 0 or a part not finite → hi + lo; hi's last bit
// odd → hi; else hi's bit pattern ± 1 towards lo's side ((hi > 0) === (lo > 0): + 1). Then demoted to nearest even.
const V128_ZERO = op.simd(0x0c /* v128.const */, ...new Array<number>(16).fill(0));
const I64X2_ONE = op.simd(0x0c, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0);
const [F64X2_EQ, F64X2_NE, F64X2_GT, ANDNOT, XOR, I64X2_ADD, I64X2_EQ] = [0x47, 0x48, 0x4a, 0x4f, 0x51, 0xce, 0xd6];

/** Instructions leaving f64x2 roundToOddDd(hi, lo) of the pair of locals (hi, lo), with scratch local t. */
function roundToOddLanes(hi: number, lo: number, t: number): number[] {
  const s = (code: number): number[] => op.simd(code);
  // Where t = hi + lo is finite and not hi (as the JavaScript's `s !== hi`: a pair (−0, +0) keeps its −0).
  const renormalise = [...op.get(t), ...op.get(t), ...s(SIMD.f64x2Sub), ...V128_ZERO, ...s(F64X2_EQ), ...op.get(t), ...op.get(hi), ...s(F64X2_NE), ...s(SIMD.and)];
  return [
    // t := hi + lo; where it is finite and ≠ hi, lo := (hi − (t − (t − hi))) + (lo − (t − hi)) and hi := t (TwoSum)
    ...op.get(hi), ...op.get(lo), ...s(SIMD.f64x2Add), ...op.set(t),
    ...op.get(hi), ...op.get(t), ...op.get(t), ...op.get(hi), ...s(SIMD.f64x2Sub), ...s(SIMD.f64x2Sub), ...s(SIMD.f64x2Sub),
    ...op.get(lo), ...op.get(t), ...op.get(hi), ...s(SIMD.f64x2Sub), ...s(SIMD.f64x2Sub), ...s(SIMD.f64x2Add),
    ...op.get(lo), ...renormalise, ...s(SIMD.bitselect), ...op.set(lo),
    ...op.get(t), ...op.get(hi), ...renormalise, ...s(SIMD.bitselect), ...op.set(hi),
    // t := hi ≠ 0 and both parts finite ((hi − hi) + (lo − lo) = 0)
    ...op.get(hi), ...op.get(hi), ...s(SIMD.f64x2Sub), ...op.get(lo), ...op.get(lo), ...s(SIMD.f64x2Sub), ...s(SIMD.f64x2Add), ...V128_ZERO, ...s(F64X2_EQ), ...op.get(hi), ...V128_ZERO, ...s(F64X2_NE), ...s(SIMD.and), ...op.set(t),
    // adjusted = hi's pattern + (−1 where (hi > 0) ≠ (lo > 0), else + 1)
    ...op.get(hi), ...op.get(hi), ...V128_ZERO, ...s(F64X2_GT), ...op.get(lo), ...V128_ZERO, ...s(F64X2_GT), ...s(XOR), ...I64X2_ONE, ...s(SIMD.or), ...s(I64X2_ADD),
    // otherwise: hi + lo where lo ≠ 0 and not t, else hi
    ...op.get(hi), ...op.get(lo), ...s(SIMD.f64x2Add), ...op.get(hi),
    ...op.get(lo), ...V128_ZERO, ...s(F64X2_NE), ...op.get(t), ...s(ANDNOT), ...s(SIMD.bitselect),
    // adjusted where lo ≠ 0, t and hi's last bit is even
    ...op.get(lo), ...V128_ZERO, ...s(F64X2_NE), ...op.get(t), ...s(SIMD.and),
    ...op.get(hi), ...I64X2_ONE, ...s(SIMD.and), ...V128_ZERO, ...s(I64X2_EQ), ...s(SIMD.and),
    ...s(SIMD.bitselect),
  ];
}

/** The f32x4 of four double-double elements at p + o (interleaved hi, lo), read as fp32 arithmetic reads them. */
function ddLoad4(p: number, o: number, [hi, lo, t]: readonly number[]): number[] {
  const pair = (at: number): number[] => [
    ...op.get(p), ...op.simdMem(SIMD.load, 0, at), ...op.get(p), ...op.simdMem(SIMD.load, 0, at + 16),
    ...op.simd(0x0d /* i8x16.shuffle */, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23), ...op.set(hi!),
    ...op.get(p), ...op.simdMem(SIMD.load, 0, at), ...op.get(p), ...op.simdMem(SIMD.load, 0, at + 16),
    ...op.simd(0x0d, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31), ...op.set(lo!),
    ...roundToOddLanes(hi!, lo!, t!), ...op.simd(SIMD.f32x4DemoteF64x2Zero),
  ];
  return [...pair(o), ...pair(o + 32), ...op.simd(0x0d, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)];
}
// dd-split (separate hi and lo arrays) is staged interleaved (stageVector): the kernels then read it as dd.
const byName = new Map<string, WasmStorage>([...[f64, f32, f16, bf16, i8, i16, i32, dd].map((s) => [s.name, s] as const), ['dd-split', dd] as const]);

/**
 * v128 locals a decoder needs: its constants, then its scratch locals. The kernel allocates them consecutively
 * and passes their indices to load2 as `constants`.
 */
export function decoderLocals(s: WasmStorage): number {
  return s.constants.length + (s.scratch ?? 0);
}

/** Instructions setting the decoder's constant locals (starting at local `first`). */
export function setDecoderConstants(s: WasmStorage, first: number): number[] {
  return s.constants.flatMap((k, i) => [...splat32(k), ...op.set(first + i)]);
}

/**
 * The WebAssembly reader of an accessor's storage, or why there is none: a built-in storage (the registry's own
 * object, not a user's format of the same name), at most one scale for the whole vector, and a finite scale.
 */
export function wasmStorageOf(a: Accessor<any, any>): WasmStorage | string {
  const s = wasmStorageOfFormat(a.storage);
  if (typeof s === 'string') return s;
  if (a.scale) {
    if (a.scale.mask.some((m: boolean) => m)) return 'a scale per element or row has no WebAssembly reader (one scale per operand only)';
    if (!Number.isFinite(a.scale.data[a.scale.offset])) return 'a non-finite scale is left to the JavaScript kernels';
  }
  return s;
}

/** The WebAssembly reader of a storage format (the registry's own object, not a user's format of the same name), or why there is none. */
export function wasmStorageOfFormat(st: { readonly name: string }): WasmStorage | string {
  const s = byName.get(st.name);
  if (!s || findFormat(st.name)?.storage !== st) return `storage ${st.name} has no WebAssembly reader (built-in f64, f32, f16, bf16, i8, i16, i32, dd, dd-split only)`;
  return s;
}

/** The single scale of an operand (1 when unscaled). */
export function scaleOf(a: Accessor<any, any>): number {
  return a.scale ? a.scale.data[a.scale.offset]! : 1;
}

type RawArray = { [k: number]: number; length: number; subarray(a: number, b: number): RawArray; buffer: ArrayBufferLike; byteOffset: number };
type RawConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => RawArray;

/**
 * Copies elements [from, from + count) of a 1-D accessor (raw storage elements, no decoding) to byte address
 * `address` of the WebAssembly memory and zero-fills up to `padTo` elements. Unit stride: one memcpy.
 */
export function stageVector(a: Accessor<1, any>, from: number, count: number, address: number, padTo: number, memory: ArrayBuffer): void {
  if (a.data instanceof DdSplitArray) { stageSplit(a.data, a, from, count, new Float64Array(memory, address, 2 * padTo)); return; }
  const data = a.data as RawArray;
  const w = a.storage.kind === 'dd' ? 2 : 1;
  const view = new (data.constructor as RawConstructor)(memory, address, padTo * w);
  const stride = a.strides[0] as number;
  const start = a.offset + from * stride;
  if (stride === 1) (view as unknown as { set(s: RawArray): void }).set(data.subarray(start * w, (start + count) * w));
  else if (w === 1) for (let k = 0, p = start; k < count; k++, p += stride) view[k] = data[p]!;
  else for (let k = 0, p = start; k < count; k++, p += stride) { view[2 * k] = data[2 * p]!; view[2 * k + 1] = data[2 * p + 1]!; }
  for (let k = count * w; k < padTo * w; k++) view[k] = 0;
}

/** {@link stageVector} of a dd-split operand: its (hi, lo) pairs interleaved, as dd storage holds them. */
function stageSplit(data: DdSplitArray, a: Accessor<1, any>, from: number, count: number, view: Float64Array): void {
  const stride = a.strides[0] as number;
  for (let k = 0, p = a.offset + from * stride; k < count; k++, p += stride) { view[2 * k] = data.hi[p]!; view[2 * k + 1] = data.lo[p]!; }
  view.fill(0, 2 * count);
}

/**
 * Chunks per call of {@link streamPairs} when both operands are read in place. At most 8: the i8 pair chunk sums
 * up to 2^18 products of at most 2^14 per call in i32 lanes (kernels/dot/dot-narrow-wasm.ts), below 2^31.
 */
export const IN_PLACE_CHUNKS = 8;

/**
 * Streams the first n elements of x and y through WebAssembly memory a chunk at a time (as many as the wider storage
 * fits in {@link CHUNK} doubles): each chunk staged at `xAt` and `yAt`, zero-padded to a multiple of `align` (8, or
 * 16: a power of two dividing the chunk), then `run` with that padded count (the caller checked
 * {@link wasmStorageOf} for both). For the two-operand reductions (DOT in fp64 and in double-double).
 *
 * With `inPlace`, an operand that lives in the WebAssembly memory (a {@link wasmArena} range of unit stride) is not
 * copied: `run` gets its address instead (`px`, `py`). Only whole steps of `align` elements are read in place; the
 * chunk's last count mod `align` elements of both operands are staged (zero-padded) and run as one more step. The
 * chunk boundaries and the element-to-lane assignment (position mod `align` from the start) are those of the
 * staging path, so a kernel that accumulates in memory across calls gives the same bits.
 */
export function streamPairs(
  x: Accessor<1, any>, y: Accessor<1, any>, n: number, xAt: number, yAt: number, run: (padded: number, px: number, py: number) => void, align = 8, inPlace = false,
): void {
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const sx = wasmStorageOf(x) as WasmStorage, sy = wasmStorageOf(y) as WasmStorage;
  // Both operands in place: nothing is staged but a last partial step, so calls take IN_PLACE_CHUNKS chunks at once
  // (fewer calls from JavaScript; the kernels accumulate in memory across calls, so the bits do not change).
  const both = inPlace && inPlaceAddress(x, sx, 0) >= 0 && inPlaceAddress(y, sy, 0) >= 0;
  const chunk = chunkElements(sx, sy) * (both ? IN_PLACE_CHUNKS : 1);
  for (let from = 0; from < n; from += chunk) {
    const count = Math.min(chunk, n - from);
    const ax = inPlace ? inPlaceAddress(x, sx, from) : -1, ay = inPlace ? inPlaceAddress(y, sy, from) : -1;
    const body = ax < 0 && ay < 0 ? 0 : count & -align;
    if (body > 0) {
      if (ax < 0) stageVector(x, from, body, xAt, body, buffer);
      if (ay < 0) stageVector(y, from, body, yAt, body, buffer);
      run(body, ax < 0 ? xAt : ax, ay < 0 ? yAt : ay);
    }
    if (body === count) continue;
    const rest = count - body, padded = (rest + align - 1) & -align;
    stageVector(x, from + body, rest, xAt, padded, buffer);
    stageVector(y, from + body, rest, yAt, padded, buffer);
    run(padded, xAt, yAt);
  }
}

/**
 * The byte address of element `from` of a 1-D operand that the kernels may read and write in place — a view of the
 * WebAssembly memory with unit stride (a {@link wasmArena} range) —, or -1: it is staged.
 */
export function inPlaceAddress(a: Accessor<1, any>, s: WasmStorage, from: number): number {
  return a.strides[0] === 1 ? wasmAddressOf(a.data, a.offset + from, s.bytes) : -1;
}

/** The value an element represents in fp64 arithmetic, unscaled (double-double: hi + lo, as the JavaScript kernels read it). */
export function numberAt(a: Accessor<any, any>, position: number): number {
  const v = a.storage.decode(a.data as never, position) as number | { hi: number; lo: number };
  return typeof v === 'number' ? v : v.hi + v.lo;
}

/** Copies `count` staged elements at `address` back to elements [from, from + count) of a 1-D accessor. */
export function unstageVector(a: Accessor<1, any>, from: number, count: number, address: number, memory: ArrayBuffer): void {
  const data = a.data as RawArray;
  const view = new (data.constructor as RawConstructor)(memory, address, count);
  const stride = a.strides[0] as number;
  const start = a.offset + from * stride;
  if (stride === 1) (data as unknown as { set(s: RawArray, o: number): void }).set(view, start);
  else for (let k = 0, p = start; k < count; k++, p += stride) data[p] = view[k]!;
}

/** The WebAssembly storage of a name (tests). */
export function wasmStorageNamed(name: string): WasmStorage | undefined {
  return byName.get(name);
}

/** Where a one-vector lane reduction keeps its eight partial sums (bytes 0–63) and stages x (from byte 64). */
export const LANE_SUMS_AT = 0, LANE_X_AT = 64;

/**
 * Runs a one-vector lane reduction over x[0, n): x staged chunk by chunk at {@link LANE_X_AT} (padded to eight
 * elements with zeros; a wasmArena operand read in place, whole steps of 8, as {@link streamPairs} does), `chunk(at, scale, padded)` adding into the eight partial sums at {@link LANE_SUMS_AT}, which
 * are then combined in one fixed tree — the order the bound functions assume for ASUM and NRM2.
 * @param x - the vector (its storage checked by {@link wasmStorageOf})
 * @param n - elements to reduce
 * @param chunk - the compiled chunk function
 * @param lanes - the partial sums' format: eight doubles (fp64 arithmetic) or eight binary32 (fp32 arithmetic,
 *   combined with a binary32 rounding per addition, {@link laneSumF32})
 * @returns the combined sum
 */
export function laneReduce(x: Accessor<1, any>, n: number, chunk: (at: number, scale: number, padded: number) => void, lanes: 'f64' | 'f32' = 'f64'): number {
  const scale = scaleOf(x);
  reserveBytes(LANE_X_AT + CHUNK * 8);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const acc = lanes === 'f64' ? new Float64Array(buffer, LANE_SUMS_AT, 8) : new Float32Array(buffer, LANE_SUMS_AT, 8);
  acc.fill(0);
  streamVector(x, n, LANE_X_AT, (padded, at) => chunk(at, scale, padded));
  return acc instanceof Float64Array ? laneSum(acc) : laneSumF32(acc);
}

/**
 * Streams x[0, n) through WebAssembly memory a chunk at a time, as {@link streamPairs} does for two operands: each
 * chunk staged at `xAt` (zero-padded to a multiple of 8) or, for a {@link wasmArena} operand of unit stride, read
 * in place in whole steps of 8 with the rest staged; `run(padded, at)` per piece, in element order.
 */
export function streamVector(x: Accessor<1, any>, n: number, xAt: number, run: (padded: number, at: number) => void): void {
  const sx = wasmStorageOf(x) as WasmStorage;
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const step = chunkElements(sx);
  for (let from = 0; from < n; from += step) {
    const count = Math.min(step, n - from);
    // In place (a wasmArena operand of unit stride): whole steps of 8 where it lies, the rest staged.
    const at = inPlaceAddress(x, sx, from);
    const body = at < 0 ? 0 : count & ~7;
    if (body > 0) run(body, at);
    if (body === count) continue;
    const padded = (count - body + 7) & ~7;
    stageVector(x, from + body, count - body, xAt, padded, buffer);
    run(padded, xAt);
  }
}

/** The eight lane partial sums at acc[0 … 8) combined in the kernels' fixed tree ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)). */
export function laneSum(acc: Float64Array): number {
  return ((acc[0]! + acc[1]!) + (acc[2]! + acc[3]!)) + ((acc[4]! + acc[5]!) + (acc[6]! + acc[7]!));
}

/** {@link laneSum}'s tree in binary32 arithmetic (each addition rounded by Math.fround: the IEEE binary32 sum). */
export function laneSumF32(acc: Float32Array): number {
  const f = Math.fround;
  return f(f(f(acc[0]! + acc[1]!) + f(acc[2]! + acc[3]!)) + f(f(acc[4]! + acc[5]!) + f(acc[6]! + acc[7]!)));
}
