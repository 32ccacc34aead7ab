/**
 * DOT in WebAssembly SIMD (f64 or f32 arithmetic, recursive accumulation, built-in storage): operands are staged
 * in chunks (src/backends/wasm/wasm-storage.ts) or, in a wasmArena, read in place (the same chunks), and each step of 8 elements adds the products of elements
 * 8t + 2k, 8t + 2k + 1 into lane pair k of four f64x2 accumulators (fp32: elements 8t + 4k … 8t + 4k + 3 into two
 * f32x4, each product and sum one binary32 rounding, as the JavaScript f32 arithmetic's Math.fround). Summation
 * order, both: eight interleaved recursive sums (element i into partial sum i mod 8, in order), then
 * ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) in the same arithmetic.
 * Every product passes through at most n − 1 additions in any order of a sum of n terms, so the recursive
 * accumulation's bound γ_n·Σ|xᵢyᵢ| (dotBound, u of the arithmetic) holds as it is (kernels/shared/bound-terms.ts).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD, uleb } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHECK_BLOCK, NARROW_16_LANES, checkedNarrowDotChunk, int8PairForm, narrowDotChunk, narrowPadding } from './dot-narrow-wasm.js';
import { wasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { CHUNK, scaleOf, streamPairs, type WasmStorage, wasmStorageOf, laneSum, laneSumF32 } from '../../src/backends/wasm/wasm-storage.js';

/** Byte address of the four f64x2 accumulators. */
const ACC = 0;
/** Byte addresses of the staged chunks of x and y. */
const X_AT = 64, Y_AT = X_AT + CHUNK * 8;
/** Byte address of 96 bytes of constants for the narrow-pair chunks (kernels/dot/dot-narrow-wasm.ts). */
const CONSTANTS_AT = Y_AT + CHUNK * 8;

/**
 * A compiled DOT chunk: adds Σ x·y over `n` staged elements (a multiple of 8) into the accumulators at byte
 * address 0 (four f64x2, element 8t + 2k + l into lane l of accumulator k; fp32: two f32x4, element 8t + 4k + l).
 */
export type DotChunk = (px: number, sx: number, py: number, sy: number, n: number) => void;

/**
 * The compiled chunk function for these storages and scalings, in f64 (default) or f32 lanes. `lookahead` (bytes,
 * 0: none; wasmKernelForms().dotLookahead): while the step's reads plus that many bytes stay within the call's
 * operands, each step also reads one byte of each operand that far ahead (or-ed into an i32 stored at byte `sinkAt`
 * at the end, so the loads stay) — a load that only starts the line's transfer from memory early; same results.
 */
export function dotChunk(sx: WasmStorage, scaledX: boolean, sy: WasmStorage, scaledY: boolean, lanes: 'f64' | 'f32' = 'f64', lookahead = 0, sinkAt = 0): DotChunk {
  const ahead = Math.min(2 ** 24, Math.max(0, Math.floor(lookahead)));
  const pointerLoop = ahead === 0 && wasmKernelForms().dotPointerLoop;
  const key = `dot${lanes === 'f32' ? '-f32' : ''} ${sx.name}${scaledX ? '*s' : ''} ${sy.name}${scaledY ? '*s' : ''}${ahead ? ` +${ahead} @${sinkAt}` : ''}${pointerLoop ? ' ptr' : ''}`;
  return wasmExports(key, 'the DOT kernel', () => {
    const v = LANES[lanes];
    const ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const px = operandParams(l, sx), py = operandParams(l, sy);
    const n = l.param(I32);
    const i = l.local(I32);
    const acc = l.locals_(V128, v.vectors);
    const x = operandLocals(l, px, scaledX, lanes), y = operandLocals(l, py, scaledY, lanes);
    // The step's vectors read `shift` vectors further on (the pointer loop's second step of a pair: 8 elements on).
    const stepAt = (shift: number): number[] => ks.flatMap((k) => [
      ...op.get(acc + k), ...v.load(x, k + shift), ...v.load(y, k + shift), ...op.simd(v.mul), ...op.simd(v.add), ...op.set(acc + k),
    ]);
    const step = stepAt(0);
    const sink = l.local(I32);
    const touch = [x, y].flatMap((o) => [...op.get(sink), ...op.get(o.pointer), I32_LOAD8_U, 0, ...uleb(ahead), I32_OR, ...op.set(sink)]);
    // Steps with lookahead while n − i ≥ 8 + (the lookahead in elements of the narrower operand), then stepLoop's
    // loop goes on from there (it starts at i = 0 only when there was no lookahead loop).
    const aheadElements = 8 + Math.ceil(ahead / Math.min(sx.bytes, sy.bytes));
    const advance = [x, y].flatMap((o) => [...op.get(o.pointer), ...op.i32(8 * o.storage.bytes), ...op.i32Add(), ...op.set(o.pointer)]);
    const lookaheadLoop = ahead > 0 ? [
      ...op.i32(0), ...op.set(i), ...op.block(), ...op.loop(),
      ...op.get(n), ...op.get(i), ...op.i32Sub(), ...op.i32(aheadElements), ...op.i32LtS(), ...op.brIf(1),
      ...step, ...touch, ...advance, ...op.get(i), ...op.i32(8), ...op.i32Add(), ...op.set(i),
      ...op.br(0), ...op.end(), ...op.end(),
      // the rest: n − i elements, counted from 0 again
      ...op.get(n), ...op.get(i), ...op.i32Sub(), ...op.set(n),
    ] : [];
    const body = [
      ...operandSetup(x, lanes), ...operandSetup(y, lanes),
      ...ks.flatMap((k) => [...op.i32(0), ...op.simdMem(SIMD.load, 0, ACC + 16 * k), ...op.set(acc + k)]),
      ...lookaheadLoop,
      ...(ahead === 0 && pointerLoop ? pointerStepLoop(n, x, [x, y], step, stepAt(v.vectors), l.local(I32)) : stepLoop(i, n, [x, y], step)),
      ...ks.flatMap((k) => [...op.i32(0), ...op.get(acc + k), ...op.simdMem(SIMD.store, 0, ACC + 16 * k)]),
      ...(ahead > 0 ? [...op.i32(sinkAt), ...op.get(sink), I32_STORE, 2, ...uleb(0)] : []),
    ];
    return encodeModule([l.function('dot', [], body)], 1);
  }).dot as DotChunk;
}

const [I32_OR, I32_LOAD8_U, I32_STORE, I32_LT_U, I32_GE_U, I32_LE_S, I32_AND] = [0x72, 0x2d, 0x36, 0x49, 0x4f, 0x4c, 0x71];

/**
 * `step` for each step of 8 elements (n of them, a multiple of 8) as a loop on x's pointer alone, tested at its end,
 * two steps an iteration (`next`: the step 8 elements on, at larger offsets) and the pointers advanced once per
 * iteration; an odd step count runs the first step alone. `end`: an i32 local. No step counter and fewer pointer
 * updates than {@link stepLoop} (wasmKernelForms().dotPointerLoop); the same steps in the same order.
 */
function pointerStepLoop(n: number, x: { pointer: number; storage: WasmStorage }, pointers: readonly { pointer: number; storage: WasmStorage }[], step: readonly number[], next: readonly number[], end: number): number[] {
  const advance = (elements: number): number[] => pointers.flatMap((p) => [...op.get(p.pointer), ...op.i32(elements * p.storage.bytes), ...op.i32Add(), ...op.set(p.pointer)]);
  return [
    ...op.block(), ...op.get(n), ...op.i32(0), I32_LE_S, ...op.brIf(0),
    ...op.get(x.pointer), ...op.get(n), ...op.i32(x.storage.bytes), ...op.i32Mul(), ...op.i32Add(), ...op.set(end),
    ...op.get(n), ...op.i32(8), I32_AND, ...op.if(), ...step, ...advance(8), ...op.end(),
    ...op.get(x.pointer), ...op.get(end), I32_GE_U, ...op.brIf(0),
    ...op.loop(), ...step, ...next, ...advance(16), ...op.get(x.pointer), ...op.get(end), I32_LT_U, ...op.brIf(0), ...op.end(),
    ...op.end(),
  ];
}

/**
 * Σ xᵢyᵢ for i < n in f64 arithmetic, or in f32 arithmetic with `lanes` 'f32' (the caller checked
 * {@link wasmStorageOf} for both, and for f32 that both storages have a binary32 read, `load4`).
 */
export function wasmDot(x: Accessor<1, any>, y: Accessor<1, any>, n: number, lanes: 'f64' | 'f32' = 'f64'): number {
  const sx = wasmStorageOf(x) as WasmStorage, sy = wasmStorageOf(y) as WasmStorage;
  const scaleX = scaleOf(x), scaleY = scaleOf(y);
  // An i8 pair, scaled or not, where its scales allow a narrow form (the same bits; kernels/dot/dot-narrow-wasm.ts).
  const int8 = lanes === 'f64' && sx.name === 'i8' && sy.name === 'i8' && wasmKernelForms().int8PairForms ? int8PairForm(scaleX, scaleY, n, CONSTANTS_AT) : null;
  const narrow = int8 ? int8.chunk : lanes === 'f64' ? narrowDotChunk(sx, !!x.scale, sy, !!y.scale, CONSTANTS_AT) : null;
  const f = narrow ?? dotChunk(sx, !!x.scale, sy, !!y.scale, lanes, wasmKernelForms().dotLookahead, CONSTANTS_AT + 48);
  // The products form takes S = scaleX · scaleY as its x scale; the sums form ignores the scales.
  const [chunkScaleX, chunkScaleY] = int8 ? [int8.scale, 1] : [scaleX, scaleY];
  reserveBytes(CONSTANTS_AT + 96);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const acc = lanes === 'f64' ? new Float64Array(buffer, ACC, 8) : new Float32Array(buffer, ACC, 8);
  acc.fill(0);
  // The checked chunk runs until it stops early, at a block of CHECK_BLOCK elements with an element it does not
  // handle exactly. Resuming (wasmKernelForms().halfDotResume): the exact chunk takes that block and the checked one
  // goes on after it, while the blocks it computed in vain stay below an eighth of those it kept (plus one: data with
  // many zeros, say, give up after two blocks); else, or without resuming, the exact chunk takes the rest of the DOT.
  // Consecutive elements in the same lanes either way: the same bits.
  let checked = narrow && wasmKernelForms().halfDotChecked ? checkedNarrowDotChunk(sx, !!x.scale, sy, !!y.scale, CONSTANTS_AT, wasmKernelForms().halfDotLean, wasmKernelForms().dotLookahead, wasmKernelForms().halfDotPromote === 'memory', wasmKernelForms().halfDotScaledSums, wasmKernelForms().halfDotPairs) : null;
  const resume = wasmKernelForms().halfDotResume;
  let kept = 0, wasted = 0;
  streamPairs(x, y, n, X_AT, Y_AT, (padded, px, py) => {
    let at = 0;
    while (checked && at < padded) {
      const done = checked(px + at * sx.bytes, scaleX, py + at * sy.bytes, scaleY, padded - at);
      at += done;
      kept += done;
      if (at === padded) return;
      wasted += CHECK_BLOCK;
      if (!resume || wasted > kept / 8 + CHECK_BLOCK) { checked = null; break; }
      const block = Math.min(CHECK_BLOCK, padded - at);
      f(px + at * sx.bytes, chunkScaleX, py + at * sy.bytes, chunkScaleY, block);
      at += block;
    }
    if (at < padded) f(px + at * sx.bytes, chunkScaleX, py + at * sy.bytes, chunkScaleY, padded - at);
  }, narrow ? narrowPadding(sx) : 8, true);
  // Exact integer sums times the power of two S, exact; + 0 makes a zero sum +0 (S may be negative), as in the order.
  if (int8?.form === 'sums') return laneSum(Float64Array.from(acc, (a) => a * int8.scale + 0));
  if (narrow && sx.name !== 'i8') return laneSum(Float64Array.from(NARROW_16_LANES, (m) => acc[m]!));
  return acc instanceof Float64Array ? laneSum(acc) : laneSumF32(acc);
}
