/**
 * DOT chunks for pairs of narrow storages in fp64 arithmetic, where the general chunk (kernels/dot/dot-wasm.ts)
 * is bound by its decoders' shuffles and conversions rather than by memory:
 * - two unscaled i8 operands: products and their sums are small integers, summed exactly in i32 lanes
 *   (i32x4.dot_i16x8_s) within a chunk and added to the partial sums at its end. Every partial sum stays an integer
 *   below 2^53 (n·2^14 for n < 2^39), so it is exact in any order: the same bits as the documented lane order.
 *   Two i8 operands with one scale each take it too where their scales are powers of two (or short enough for n),
 *   and an i16-product chunk where both have at most 46 significant bits ({@link int8PairForm}).
 * - two 16-bit floats (fp16, bf16, scaled or not): a shift or a mask turns the even and the odd elements of a load
 *   into binary32 (no widening shuffles), and the eight partial sums are kept as
 *   (p₀, p₂), (p₄, p₆), (p₁, p₃), (p₅, p₇) — element i still goes into partial sum i mod 8, in order, with the same
 *   roundings. Two unscaled fp16 operands multiply in
 *   binary32: 11-bit significands make a 22-bit product, within binary32's normal range (2^-48 … 2^32), so the
 *   product is exact — the double product the JavaScript computes.
 * @module
 */
import { F64, I32, V128, encodeModule, op, SIMD, uleb } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, countLoop } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import type { WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import type { DotChunk } from './dot-wasm.js';

const [I8X16_SHUFFLE, I16X8_EXTEND_HIGH_I8X16_S, I32X4_SHR_U, I32X4_ADD, I32X4_DOT_I16X8_S, F32X4_GE] = [0x0d, 0x88, 0xad, 0xae, 0xba, 0x46];
/** Instructions as nested arrays of bytes (flattened by {@link bytes}), which keeps the generators short. */
type Code = number | readonly Code[];
const bytes = (code: Code): number[] => ([code] as unknown[]).flat(99) as number[];
const s = (code: number): Code => op.simd(code);
const HIGH64 = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];
const shuffle = (pattern: readonly number[]): Code => op.simd(I8X16_SHUFFLE, ...pattern);
const splat = (k: number): Code => [op.i32(k | 0), s(SIMD.i32x4Splat)];

/**
 * The narrow-pair chunk for these storages, or null where the general chunk runs (padding: {@link narrowPadding});
 * `scratch`: the byte address of 96 bytes it may use for its constants.
 */
export function narrowDotChunk(sx: WasmStorage, scaledX: boolean, sy: WasmStorage, scaledY: boolean, scratch: number): DotChunk | null {
  if (sx.name === 'i8' && sy.name === 'i8' && !scaledX && !scaledY) return wasmExports('dot i8·i8', 'the DOT kernel', int8Chunk).dot as DotChunk;
  const half = (t: WasmStorage): boolean => t.name === 'f16' || t.name === 'bf16';
  if (!half(sx) || !half(sy)) return null;
  const key = `dot-16 ${sx.name}${scaledX ? '*s' : ''} ${sy.name}${scaledY ? '*s' : ''} @${scratch}`;
  return wasmExports(key, 'the DOT kernel', () => halfChunk(sx.name, scaledX, sy.name, scaledY, scratch)).dot as DotChunk;
}

/**
 * Where the fp16/bf16 chunks keep partial sum k in the eight doubles of the accumulator memory (its index there):
 * (p₀, p₂), (p₄, p₆), (p₁, p₃), (p₅, p₇). The i8 chunk keeps exact integers, whose order does not matter.
 */
export const NARROW_16_LANES = [0, 4, 1, 5, 2, 6, 3, 7];

/** Elements a narrow-pair chunk takes per step (the staged count is padded to a multiple of it). */
export function narrowPadding(sx: WasmStorage): number {
  return sx.name === 'i8' ? 16 : 8;
}

function int8Chunk(): Uint8Array {
  const l = new WasmLocals();
  const [px, , py, , n] = [l.param(I32), l.param(F64), l.param(I32), l.param(F64), l.param(I32)];
  const [i, sum] = [l.local(I32), l.local(V128)];
  const product = (half: number): Code => [
    op.get(px), op.simdMem(SIMD.load, 0), s(half), op.get(py), op.simdMem(SIMD.load, 0), s(half), s(I32X4_DOT_I16X8_S),
  ];
  const step = [op.get(sum), product(SIMD.i16x8ExtendLowI8x16s), s(I32X4_ADD), product(I16X8_EXTEND_HIGH_I8X16_S), s(I32X4_ADD), op.set(sum)];
  // The four i32 lanes (each below 2^28: 2^14 per product) added exactly to partial sums 0–3.
  const addLanes = (at: number, lanes: Code): Code => [
    op.i32(0), op.i32(0), op.simdMem(SIMD.load, 0, at), lanes, s(SIMD.f64x2ConvertLowI32x4s), s(SIMD.f64x2Add), op.simdMem(SIMD.store, 0, at),
  ];
  const body = [
    splat(0), op.set(sum),
    loopOf(i, n, 16, [px, py], 16, step),
    addLanes(0, op.get(sum)), addLanes(16, [op.get(sum), op.get(sum), shuffle(HIGH64)]),
  ];
  return encodeModule([l.function('dot', [], bytes(body))], 1);
}

/**
 * How a pair of i8 operands with one scale each (1 where unscaled) runs its DOT in a narrow chunk, or null where the
 * general chunk (value × scale per element, kernels/dot/dot-wasm.ts) runs. Every form gives the general chunk's
 * bits: each product is the exact real product of the two read values sx·qx, sy·qy (the same real number, so the same
 * rounding), added in the same order.
 * - `sums` (powers of two — 1 among them —, or scales short enough for n): every read value, product and partial
 *   sum is an integer K times S = sx·sy, exact while S's odd integer part and K fit 53 bits together
 *   (|K| ≤ 2^14·⌈n/8⌉), so the i8 chunk's exact integer sums times S are the partial sums of the documented order.
 *   The caller multiplies each of the eight sums by S (exact) and adds +0 (a zero sum is +0 there, as in that order).
 *   Needs |S|·2^14·n below 2^1000 (no partial sum near overflow).
 * - `products` (scales of at most 46 significant bits each: sx·q is exact for every i8 q): each product formed as
 *   S·(qx·qy) — an exact i16 product converted to f64, times the exact S in one rounding — and added in the lane
 *   order (element 8t + 2k + l into lane l of accumulator k, as the general chunk).
 * Both need |sx|, |sy| ≤ 2^1016 (no read value overflows) and S = sx·sy exact in binary64.
 * `chunk(px, s, py, _, n)` takes S as `s`; `scratch`: as for {@link narrowDotChunk}.
 */
export interface Int8PairForm {
  readonly form: 'sums' | 'products';
  /** S = scaleX · scaleY (exact). */
  readonly scale: number;
  readonly chunk: DotChunk;
}

/** The narrow form for an i8 pair with these scales (1 where unscaled) and `n` elements, or null (see {@link Int8PairForm}). */
export function int8PairForm(scaleX: number, scaleY: number, n: number, scratch: number): Int8PairForm | null {
  const a = bitsOf(scaleX), b = bitsOf(scaleY);
  if (!a || !b || Math.abs(scaleX) > 2 ** 1016 || Math.abs(scaleY) > 2 ** 1016) return null;
  // S exact: its odd integer part has at most a.bits + b.bits ≤ 53 bits and its lowest bit is at 2^-1074 or above.
  const scale = scaleX * scaleY;
  if (a.bits + b.bits > 53 || a.low + b.low < -1074 || !Number.isFinite(scale)) return null;
  // K's bits: at most 15 + ⌈log2 ⌈n/8⌉⌉ (each lane sums ⌈n/8⌉ products of magnitude at most 2^14).
  const kBits = 15 + Math.ceil(Math.log2(Math.max(1, Math.ceil(n / 8))));
  if (a.bits + b.bits + kBits <= 53 && Math.abs(scale) * 2 ** 14 * n < 2 ** 1000) {
    return { form: 'sums', scale, chunk: wasmExports('dot i8·i8', 'the DOT kernel', int8Chunk).dot as DotChunk };
  }
  if (a.bits > 46 || b.bits > 46) return null;
  return { form: 'products', scale, chunk: wasmExports(`dot i8·i8 products @${scratch}`, 'the DOT kernel', () => int8ProductsChunk(scratch)).dot as DotChunk };
}

/** A finite non-zero double as (odd integer of `bits` bits) × 2^low; null for 0 and non-finite values. */
function bitsOf(v: number): { bits: number; low: number } | null {
  if (!Number.isFinite(v) || v === 0) return null;
  const words = new Uint32Array(new Float64Array([Math.abs(v)]).buffer);
  const exponent = words[1]! >>> 20;
  // The 53-bit (normal: implicit bit set) or 52-bit (subnormal) integer significand m, v = m · 2^(e − 1075).
  let hi = words[1]! & 0xfffff, lo = words[0]!;
  if (exponent > 0) hi |= 0x100000;
  let low = (exponent > 0 ? exponent : 1) - 1075;
  // Drop the trailing zeros (at most 52 of them: m ≠ 0).
  while ((lo & 1) === 0) {
    lo = (lo >>> 1) | ((hi & 1) << 31);
    hi >>>= 1;
    low++;
  }
  const bits = hi > 0 ? 32 + (32 - Math.clz32(hi)) : 32 - Math.clz32(lo);
  return { bits, low };
}

const [I16X8_MUL, I32X4_EXTEND_HIGH_I16X8_S] = [0x95, 0xa8];

/**
 * The `products` form of {@link Int8PairForm}: 16 elements a step; each product qx·qy exact in an i16 lane
 * (|qx·qy| ≤ 2^14), widened to i32 and converted to f64 (exact), times S (the one rounding, as fl(x·y) of the read
 * values), added into accumulator k lane l for element 8t + 2k + l.
 */
function int8ProductsChunk(scratch: number): Uint8Array {
  const l = new WasmLocals();
  const [px, sp, py, , n] = [l.param(I32), l.param(F64), l.param(I32), l.param(F64), l.param(I32)];
  const i = l.local(I32);
  const acc = l.locals_(V128, 4);
  const [scale, rx, ry, k, w] = [l.local(V128), l.local(V128), l.local(V128), l.local(V128), l.local(V128)];
  // Eight products (elements 8h … 8h + 7 of the step) as i16 lanes.
  const products = (extend: number): Code => [op.get(rx), s(extend), op.get(ry), s(extend), s(I16X8_MUL), op.set(k)];
  // Lanes 0, 1 of i32x4 local `w` as f64x2, times S, added to accumulator a.
  const add = (a: number, pair: Code): Code => [op.get(acc + a), pair, s(SIMD.f64x2ConvertLowI32x4s), op.get(scale), s(SIMD.f64x2Mul), s(SIMD.f64x2Add), op.set(acc + a)];
  // Products 4q … 4q + 3 of k (elements 8h + 4q …): the first two into accumulator 2q, the last two into 2q + 1.
  const quarter = (q: number): Code => [
    op.get(k), s(q === 0 ? SIMD.i32x4ExtendLowI16x8s : I32X4_EXTEND_HIGH_I16X8_S), op.set(w),
    add(2 * q, op.get(w)), add(2 * q + 1, [op.get(w), op.get(w), shuffle(HIGH64)]),
  ];
  const step = [
    op.get(px), op.simdMem(SIMD.load, 0), op.set(rx), op.get(py), op.simdMem(SIMD.load, 0), op.set(ry),
    [SIMD.i16x8ExtendLowI8x16s, I16X8_EXTEND_HIGH_I8X16_S].map((extend) => [products(extend), quarter(0), quarter(1)]),
  ];
  const body = [
    // S splat through memory (a splat of a local is rebuilt by the engine at every step; a load stays before the loop).
    op.i32(scratch), op.get(sp), s(SIMD.f64x2Splat), op.simdMem(SIMD.store, 0), op.i32(scratch), op.simdMem(SIMD.load, 0), op.set(scale),
    [0, 1, 2, 3].map((a) => [op.i32(0), op.simdMem(SIMD.load, 0, 16 * a), op.set(acc + a)]),
    loopOf(i, n, 16, [px, py], 16, step),
    [0, 1, 2, 3].map((a) => [op.i32(0), op.get(acc + a), op.simdMem(SIMD.store, 0, 16 * a)]),
  ];
  return encodeModule([l.function('dot', [], bytes(body))], 1);
}

/** `for (i = 0; i < n; i += step) { body; every pointer += size }`. */
function loopOf(i: number, n: number, step: number, pointers: readonly number[], size: number, body: Code): Code {
  return countLoop(i, n, step, bytes([body, pointers.map((p) => [op.get(p), op.i32(size), op.i32Add(), op.set(p)])]));
}

function halfChunk(xName: string, scaledX: boolean, yName: string, scaledY: boolean, scratch: number): Uint8Array {
  const l = new WasmLocals();
  const [px, sxp, py, syp, n] = [l.param(I32), l.param(F64), l.param(I32), l.param(F64), l.param(I32)];
  const i = l.local(I32);
  const acc = l.locals_(V128, 4);
  const [raw, v, w, scaleX, scaleY] = [l.local(V128), l.local(V128), l.local(V128), l.local(V128), l.local(V128)];
  // Binary32 vectors of the step whose lanes 0, 1 are its terms: x at d + 2·odd + high, y at d + 4 + 2·odd + high
  // (high: elements 4–7). Two unscaled fp16: the products at d + 2·odd + high.
  const d = l.locals_(V128, 8);
  const k = l.locals_(V128, 6);
  const [mask, sign, rebias, infinite, exponent, highHalf] = [k, k + 1, k + 2, k + 3, k + 4, k + 5];
  const fused = xName === 'f16' && yName === 'f16' && !scaledX && !scaledY;
  // The binary32 of the fp16 in the top half of each i32 lane on the stack (the low half may hold another element):
  // sign | (exponent and significand at binary32's places) × 2^112, with an all-ones exponent or-ed in for Inf and
  // NaN (exponent 31, which the product puts at or above 2^16).
  const decode: Code = [
    op.tee(v), op.get(sign), s(SIMD.and),
    op.get(v), op.i32(3), s(I32X4_SHR_U), op.get(mask), s(SIMD.and), op.get(rebias), s(SIMD.f32x4Mul), op.tee(w),
    op.get(w), op.get(infinite), s(F32X4_GE), op.get(exponent), s(SIMD.and), s(SIMD.or), s(SIMD.or),
  ];
  // Lanes 2, 3 of local t moved to lanes 0, 1 of local t + 1.
  const high = (t: number): Code => [op.get(t), op.get(t), shuffle(HIGH64), op.set(t + 1)];
  // Even elements: the low 16 bits of each i32 lane moved up; odd ones: the lane as is. bf16 is the top half of a
  // binary32: two 8-byte loads (elements 0–3, 4–7) put the terms in lanes 0, 1 without a shuffle.
  const read = (p: number, name: string, at: number): Code => name === 'bf16'
    ? [0, 1].map((h) => [
      op.get(p), op.simdMem(SIMD.load64Zero, 0, 8 * h), op.tee(raw), op.i32(16), s(SIMD.i32x4Shl), op.set(at + h),
      op.get(raw), op.get(highHalf), s(SIMD.and), op.set(at + 2 + h),
    ])
    : [
      op.get(p), op.simdMem(SIMD.load, 0), op.tee(raw), op.i32(16), s(SIMD.i32x4Shl), decode, op.set(at),
      op.get(raw), decode, op.set(at + 2), fused ? [] : [high(at), high(at + 2)],
    ];
  // Lanes 0, 1 of f32x4 local `t` as f64x2, times the scale when there is one.
  const wide = (t: number, scale: number): Code => [
    op.get(t), s(SIMD.f64x2PromoteLowF32x4), scale >= 0 ? [op.get(scale), s(SIMD.f64x2Mul)] : [],
  ];
  const term = (o: number): Code => fused
    ? wide(d + o, -1)
    : [wide(d + o, scaledX ? scaleX : -1), wide(d + 4 + o, scaledY ? scaleY : -1), s(SIMD.f64x2Mul)];
  // acc: (p₀, p₂), (p₄, p₆), (p₁, p₃), (p₅, p₇), kept in memory as they are (NARROW_16_LANES).
  const step = [
    read(px, xName, d), read(py, yName, d + 4),
    fused ? [0, 2].map((o) => [op.get(d + o), op.get(d + 4 + o), s(SIMD.f32x4Mul), op.set(d + o), high(d + o)]) : [],
    [0, 1, 2, 3].map((o) => [op.get(acc + o), term(o), s(SIMD.f64x2Add), op.set(acc + o)]),
  ];
  // The constants go through memory (stored, then loaded once): splats of constants are rebuilt by the engine at
  // every step of the loop, where loads stay before it.
  const constants = [0x0fffe000, 0x80000000, 0x77800000 /* 2^112 */, 0x47800000 /* 2^16 */, 0x7f800000, 0xffff0000].map((c, t) => [
    op.i32(scratch), splat(c), op.simdMem(SIMD.store, 0, 16 * t), op.i32(scratch), op.simdMem(SIMD.load, 0, 16 * t), op.set(k + t),
  ]);
  const body = [
    [[sxp, scaleX], [syp, scaleY]].map(([param, local]) => [op.get(param!), s(SIMD.f64x2Splat), op.set(local!)]),
    constants, [0, 1, 2, 3].map((a) => [op.i32(0), op.simdMem(SIMD.load, 0, 16 * a), op.set(acc + a)]),
    loopOf(i, n, 8, [px, py], 16, step),
    [0, 1, 2, 3].map((a) => [op.i32(0), op.get(acc + a), op.simdMem(SIMD.store, 0, 16 * a)]),
  ];
  return encodeModule([l.function('dot', [], bytes(body))], 1);
}

/**
 * A DOT chunk that may stop early: it adds the products of its first `done` elements into the accumulators and
 * returns `done` (a multiple of 8): n, or where it met, in the block of {@link CHECK_BLOCK} elements after them,
 * an element it does not handle exactly (the caller runs the exact chunk on the rest).
 */
export type CheckedDotChunk = (px: number, sx: number, py: number, sy: number, n: number) => number;

const [I32X4_SUB, I32X4_MIN_U, I32X4_MAX_U, I32X4_LT_U, I32X4_ALL_TRUE, I32X4_SHR_S] = [0xb1, 0xb7, 0xb9, 0x3a, 0xa3, 0xac];
const [I16X8_SHL, I16X8_MAX_U, I16X8_LT_U, I16X8_ALL_TRUE, I16X8_ADD] = [0x8b, 0x99, 0x30, 0x83, 0x8e];

/** Elements between the checked chunk's checks: what it computes in vain at most, where it stops. */
export const CHECK_BLOCK = 512;

/**
 * For two unscaled operands of the same 16-bit float format, a chunk with fewer instructions per element than
 * {@link narrowDotChunk}'s, which checks as it goes that its shortcut was exact (else declines, see
 * {@link CheckedDotChunk}); null for other pairs. Same partial sums in the same order (NARROW_16_LANES):
 * - bf16·bf16: each product formed in binary32 (two 8-bit significands: 16 bits, exact unless it leaves the normal
 *   range) from whole 16-byte loads, then widened once. Declines where a product is not a finite normal binary32
 *   (overflow, underflow, zero, Inf, NaN — a zero product cannot tell an exact zero from an underflow).
 * - f16·f16: decoded with their signs by an arithmetic shift, without the Inf/NaN select.
 *   Declines where an element is Inf or NaN (exponent 31).
 * `lean` (wasmKernelForms().halfDotLean): the bf16 chunk checks a product for zero and underflow only (2 instructions
 * a vector instead of 3) and leaves Inf, NaN and overflow to the sums, which such a product makes non-finite by the
 * block's end (a bf16 product is below 2^256, so finite products cannot overflow the double sums); both formats
 * count their steps by the x pointer alone. The same elements are declined, the same sums committed.
 * `lookahead` (lean only; wasmKernelForms().dotLookahead, bytes, 0: none): each step also reads one byte of each
 * operand that far ahead, a load whose only purpose is to start that line's transfer from memory early (WebAssembly
 * has no prefetch); it changes no result.
 * `viaMemory` (wasmKernelForms().halfDotPromote 'memory'): the products widened from a copy in memory instead of
 * after shuffles (fewer shuffle-port operations; same values).
 * `scaledSums` (fp16 only; wasmKernelForms().halfDotScaledSums): x times 2^127, y's shifted bits as they are, so each
 * binary32 product is xy·2^-97 (exact for every pair), with the sums kept times 2^-97 inside the call (same bits);
 * its check doubles the patterns by an add instead of a shift (the same flag).
 * `pairs` (lean bf16 only; wasmKernelForms().halfDotPairs): two steps a loop iteration (same steps, same order; the
 * lookahead reads, if any, once an iteration).
 * `scratch`: as for {@link narrowDotChunk} (its bytes 48–51 take the lookahead loads' or, 64–95 the products).
 */
export function checkedNarrowDotChunk(sx: WasmStorage, scaledX: boolean, sy: WasmStorage, scaledY: boolean, scratch: number, lean = false, lookahead = 0, viaMemory = false, scaledSums = false, pairs = false): CheckedDotChunk | null {
  if (scaledX || scaledY || sx.name !== sy.name || (sx.name !== 'bf16' && sx.name !== 'f16')) return null;
  const name = sx.name;
  const ahead = lean ? Math.min(2 ** 24, Math.max(0, Math.floor(lookahead))) : 0;
  const scaled = scaledSums && name === 'f16';
  // Two steps an iteration for lean bf16 only: V8 (Node 20) spills registers in the fp16 loop of two steps.
  const twoSteps = pairs && lean && name === 'bf16';
  return wasmExports(`dot-16-checked${lean ? '-lean' : ''}${ahead ? ` +${ahead}` : ''}${viaMemory ? ' via-memory' : ''}${scaled ? ' scaled-sums' : ''}${twoSteps ? ' pairs' : ''} ${name} @${scratch}`, 'the DOT kernel', () => checkedHalfChunk(name, scratch, lean, ahead, viaMemory, scaled, twoSteps)).dot as CheckedDotChunk;
}

const [I32X4_GE_U, F64X2_EQ, I64X2_ALL_TRUE, I32_LT_U, I32_LE_S, I32_OR, I32_LOAD8_U, I32_STORE, I32_GE_U_] = [0x40, 0x47, 0xc3, 0x49, 0x4c, 0x72, 0x2d, 0x36, 0x4f];

/** The power of two by which the f16 chunk with `scaledSums` keeps its sums: x·2^15 times y·2^-112 is xy·2^-97. */
const F16_SUMS_SCALE = 2 ** -97;

function checkedHalfChunk(name: 'bf16' | 'f16', scratch: number, lean: boolean, lookahead: number, viaMemory: boolean, scaledSums: boolean, pairs: boolean): Uint8Array {
  const l = new WasmLocals();
  const [px, , py, , n] = [l.param(I32), l.param(F64), l.param(I32), l.param(F64), l.param(I32)];
  const i = l.local(I32);
  const acc = l.locals_(V128, 4);
  const [rx, ry, even, odd, flag] = [l.local(V128), l.local(V128), l.local(V128), l.local(V128), l.local(V128)];
  const k = l.locals_(V128, 3);
  const bf16 = name === 'bf16';
  // bf16: the high-half mask, the flag's offset and its limit (lean: the smallest normal |p|'s bits << 1, 2^24);
  // f16: the sign-and-magnitude mask, 2^112 (the rebias of the shifted bits, as the exact decoder's) and the flag's
  // limit (16-bit lanes).
  // scaledSums: 2^127 instead, for x alone (see F16_SUMS_SCALE).
  const values = bf16 ? [0xffff0000, 0x01000000, lean ? 0x01000000 : 0xfe000000] : [0x8fffe000, scaledSums ? 0x7f000000 : 0x77800000, 0xf800f800];
  const [mask, third, limit] = [k, k + 1, k + 2];
  // The step's 16 bytes (lean f16: at offset 2, see evenLoad).
  const shifted = lean && !bf16;
  const load = (p: number, r: number, at: number): Code => [op.get(p), op.simdMem(SIMD.load, 0, (shifted ? 2 : 0) + at), op.set(r)];
  // bf16: (products of the even elements, of the odd ones) in binary32; the flag keeps the largest
  // (|p|'s bits << 1) − 2^24 (unsigned, wrapping): below 0xfe000000 exactly when every p is a finite normal number.
  // Lean: the smallest |p|'s bits << 1 (p + p as integers drops the sign): at least 2^24 exactly when no p is zero or
  // subnormal; Inf, NaN and overflow show in the sums.
  const bf16Flag = (p: number): Code => lean
    ? [op.get(flag), op.get(p), op.get(p), s(I32X4_ADD), s(I32X4_MIN_U), op.set(flag)]
    : [op.get(flag), op.get(p), op.i32(1), s(SIMD.i32x4Shl), op.get(third), s(I32X4_SUB), s(I32X4_MAX_U), op.set(flag)];
  const bf16Products: Code = [
    op.get(rx), op.i32(16), s(SIMD.i32x4Shl), op.get(ry), op.i32(16), s(SIMD.i32x4Shl), s(SIMD.f32x4Mul), op.set(even),
    op.get(rx), op.get(mask), s(SIMD.and), op.get(ry), op.get(mask), s(SIMD.and), s(SIMD.f32x4Mul), op.set(odd),
    [even, odd].map(bf16Flag),
  ];
  // f16: the element in the top half of each i32 lane shifted right by 3 with its sign copied, masked to the sign
  // (bit 31) and the exponent and significand at binary32's places (bits 13–27), times 2^112: exact for normal and
  // subnormal values, signed, without the Inf/NaN select. The flag keeps the largest 16-bit pattern << 1 (the sign
  // dropped): exponent 31 reaches 0xf800.
  // scaledSums: x times 2^127 (x·2^15, exact: normal and below 2^31), y as the shifted bits (y·2^-112, exact: a
  // binary32 subnormal for an fp16 subnormal); their product xy·2^-97 is exact as a binary32 for every pair — 22
  // significant bits, a multiple of 2^-145 below 2^-65 — even where it is subnormal, and the sums are kept times
  // 2^-97 (every partial sum a multiple of 2^-145, far above binary64's subnormals: the same roundings, scaled).
  const decode = (raw: Code, isX = true): Code => [raw, op.i32(3), s(I32X4_SHR_S), op.get(mask), s(SIMD.and), scaledSums && !isX ? [] : [op.get(third), s(SIMD.f32x4Mul)]];
  const evenRaw = (r: number): Code => [op.get(r), op.i32(16), s(SIMD.i32x4Shl)];
  // Lean: the pointers stand 2 bytes before the step, so a load at offset 0 has the even elements in the top halves
  // of its i32 lanes (no shift), one at offset 2 the odd ones; the bytes before an operand are still in the memory
  // (its address is at least the staging area's, 64).
  const evenLoad = (p: number, at: number): Code => [op.get(p), op.simdMem(SIMD.load, 0, at)];
  const f16Products = (at: number): Code => [
    // scaledSums: the pattern doubled by an add rather than a shift (the same value; an add also issues on Intel's
    // port 5, where the shifts and multiplications crowd ports 0 and 1).
    [rx, ry].map((r) => [op.get(flag), op.get(r), scaledSums ? [op.get(r), s(I16X8_ADD)] : [op.i32(1), s(I16X8_SHL)], s(I16X8_MAX_U), op.set(flag)]),
    lean ? [decode(evenLoad(px, at)), decode(evenLoad(py, at), false)] : [decode(evenRaw(rx)), decode(evenRaw(ry), false)], s(SIMD.f32x4Mul), op.set(even),
    decode(op.get(rx)), decode(op.get(ry), false), s(SIMD.f32x4Mul), op.set(odd),
  ];
  const high = (t: number): Code => [op.get(t), op.get(t), shuffle(HIGH64)];
  // acc: (p₀, p₂), (p₄, p₆), (p₁, p₃), (p₅, p₇) — NARROW_16_LANES. Promoted through memory: the two product
  // vectors stored at scratch + 64 and + 80, each pair widened straight from there (the engine folds an 8-byte load
  // into the conversion), without the shuffles; the same values.
  const PRODUCTS_AT = scratch + 64;
  const fromMemory = (at: number): Code => [op.i32(0), op.simdMem(SIMD.load64Zero, 0, at)];
  const terms: Code[] = viaMemory
    ? [0, 8, 16, 24].map((o) => fromMemory(PRODUCTS_AT + o))
    : [op.get(even), high(even), op.get(odd), high(odd)];
  const store = viaMemory ? [[even, 0], [odd, 16]].map(([t, o]) => [op.i32(0), op.get(t!), op.simdMem(SIMD.store, 0, PRODUCTS_AT + o!)]) : [];
  // The step at byte offset `at` from the pointers (16: the second step of a pair).
  const stepAt = (at: number): Code => [
    load(px, rx, at), load(py, ry, at), bf16 ? bf16Products : f16Products(at), store,
    terms.map((t, a) => [op.get(acc + a), t, s(SIMD.f64x2PromoteLowF32x4), s(SIMD.f64x2Add), op.set(acc + a)]),
  ];
  const step = stepAt(0);
  const constants = values.map((c, t) => [
    op.i32(scratch), splat(c), op.simdMem(SIMD.store, 0, 16 * t), op.i32(scratch), op.simdMem(SIMD.load, 0, 16 * t), op.set(k + t),
  ]);
  // Blocks of CHECK_BLOCK elements: after each, the flag is checked and the sums so far committed (to `kept`);
  // at the first block with an element the shortcut does not handle, the committed sums are stored and the count
  // of elements they hold returned: the exact chunk goes on from there, in the same order.
  const [end, done, xEnd] = [l.local(I32), l.local(I32), l.local(I32)];
  const kept = l.locals_(V128, 4);
  const quads = [0, 1, 2, 3];
  const advanceBy = (bytes: number): Code => [px, py].map((p) => [op.get(p), op.i32(bytes), op.i32Add(), op.set(p)]);
  const advance = advanceBy(16);
  // The block's steps: counted by i, or (lean) run until the x pointer reaches the block's end; `pairs`: two steps an
  // iteration, the second at offset 16, an odd step count's first step alone (the same steps in the same order).
  const leanLoop = (extra: Code): Code => pairs
    ? [
      op.get(xEnd), op.get(px), op.i32Sub(), op.i32(16), 0x71 /* i32.and */, op.if(), step, extra, advance, op.end(),
      op.block(), op.get(px), op.get(xEnd), I32_GE_U_, op.brIf(0),
      op.loop(), step, extra, stepAt(16), advanceBy(32), op.get(px), op.get(xEnd), I32_LT_U, op.brIf(0), op.end(), op.end(),
    ]
    : [op.loop(), step, extra, advance, op.get(px), op.get(xEnd), I32_LT_U, op.brIf(0), op.end()];
  // Lookahead: a byte of each operand `lookahead` bytes ahead read each step (or-ed into `sink`, stored at the end
  // so that the loads stay), in the blocks where that stays within the call's data (2·end + lookahead ≤ 2n).
  const sink = l.local(I32);
  const touch: Code = [px, py].map((p) => [op.get(sink), op.get(p), I32_LOAD8_U, 0, uleb(lookahead), I32_OR, op.set(sink)]);
  const blockLoop = lean
    ? [
      op.get(px), op.get(end), op.get(i), op.i32Sub(), op.i32(1), op.i32Shl(), op.i32Add(), op.set(xEnd),
      lookahead > 0
        ? [op.get(end), op.i32(1), op.i32Shl(), op.i32(lookahead), op.i32Add(), op.get(n), op.i32(1), op.i32Shl(), I32_LE_S,
          op.if(), leanLoop(touch), op.else(), leanLoop([]), op.end()]
        : leanLoop([]),
      op.get(end), op.set(i),
    ]
    : [op.loop(), step, advance, op.get(i), op.i32(8), op.i32Add(), op.tee(i), op.get(end), op.i32LtS(), op.brIf(0), op.end()];
  const flagOk: Code = bf16
    ? (lean ? [op.get(flag), op.get(limit), s(I32X4_GE_U), s(I32X4_ALL_TRUE)] : [op.get(flag), op.get(limit), s(I32X4_LT_U), s(I32X4_ALL_TRUE)])
    : [op.get(flag), op.get(limit), s(I16X8_LT_U), s(I16X8_ALL_TRUE)];
  // Lean bf16: every sum finite (a − a is 0, not NaN), with the flag.
  const sumsFinite: Code = [
    quads.map((a) => [op.get(acc + a), op.get(acc + a), s(SIMD.f64x2Sub), a > 0 ? s(SIMD.f64x2Add) : []]),
    op.tee(even), op.get(even), s(F64X2_EQ), s(I64X2_ALL_TRUE), 0x71 /* i32.and */,
  ];
  const body = [
    constants, splat(bf16 && lean ? -1 : 0), op.set(flag), op.i32(0), op.set(done),
    shifted ? [px, py].map((p) => [op.get(p), op.i32(2), op.i32Sub(), op.set(p)]) : [],
    quads.map((a) => [op.i32(0), op.simdMem(SIMD.load, 0, 16 * a), scaledSums ? [op.f64(F16_SUMS_SCALE), s(SIMD.f64x2Splat), s(SIMD.f64x2Mul)] : [], op.tee(acc + a), op.set(kept + a)]),
    op.i32(0), op.set(i),
    op.block(), op.loop(),
    op.get(i), op.get(n), op.i32GeS(), op.brIf(1),
    // end := min(i + CHECK_BLOCK, n)
    op.get(i), op.i32(CHECK_BLOCK), op.i32Add(), op.get(n), op.get(i), op.i32(CHECK_BLOCK), op.i32Add(), op.get(n), op.i32LtS(), 0x1b /* select */, op.set(end),
    blockLoop,
    flagOk, bf16 && lean ? sumsFinite : [], op.i32Eqz(), op.brIf(1),
    quads.map((a) => [op.get(acc + a), op.set(kept + a)]), op.get(i), op.set(done),
    op.br(0), op.end(), op.end(),
    quads.map((a) => [op.i32(0), op.get(kept + a), scaledSums ? [op.f64(1 / F16_SUMS_SCALE), s(SIMD.f64x2Splat), s(SIMD.f64x2Mul)] : [], op.simdMem(SIMD.store, 0, 16 * a)]),
    lookahead > 0 ? [op.i32(scratch), op.get(sink), I32_STORE, 2, 48] : [],
    op.get(done),
  ];
  return encodeModule([l.function('dot', [I32], bytes(body))], 1);
}
