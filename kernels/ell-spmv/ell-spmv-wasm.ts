/**
 * ELL SpMV in WebAssembly SIMD (f64 or f32 arithmetic, recursive or kahan accumulation): rows in SIMD lanes, eight per
 * step (four with kahan; src/backends/wasm/wasm-kernel-forms.ts keeps the earlier four-row loop for the benchmark).
 * For a block of rows the slots' column indices and values are staged slot by slot (Ginkgo's layout is
 * column-major over slots, so each slot of a block is one contiguous run), x is decoded to doubles once; then
 * for each step of rows, slot k adds vᵢₖ·x[colᵢₖ] into row i's sum, and a padding slot (column −1) leaves
 * the sum as it is (a lane select, so a padding value is never part of a result, even NaN; a step whose rows have
 * no padding in the slot skips the selects: a stencil matrix has padding in few rows). Each row therefore
 * sums its products in slot order, one rounding each, as the JavaScript loop does: the same bits, the same
 * ellSpmvBound. Integer values scaled per row multiply by the row's scale first, as the accessor reads them.
 * With the kahan accumulation each row keeps a compensated sum (s, c) in its lane, the products added by the
 * JavaScript template's TwoSum in slot order (src/backends/wasm/wasm-neumaier-step.ts): again the same bits.
 * Values (unit row stride) and column indices in a wasmArena are read in place, block by block, where the block
 * has whole steps of 8 rows (the last block otherwise: its padding rows must read column −1); so is x when it is
 * unscaled fp64 of unit stride under fp64 arithmetic (a padding slot's gather of x[−1] reads the 8 bytes before it,
 * inside the memory — the arena lies above the staging area — and is masked out). The kahan accumulation reads
 * them in place as well: only the sums differ, not where the operands are.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import type { EllStructure } from '../../src/sparse/ell-matrix.js';
import type { Refusal } from '../../src/backends/backend.js';
import { I32, V128, encodeModule, op, SIMD, uleb } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, countLoop, load2, operandLocals, operandSetup } from '../../src/backends/wasm/wasm-function.js';
import { neumaierScratch, neumaierStep } from '../../src/backends/wasm/wasm-neumaier-step.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { stageVector, wasmStorageOf, wasmStorageOfFormat, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { wasmAddressOf } from '../../src/backends/wasm/wasm-arena.js';
import { wasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { combineSums, combineSumsF32, xValues, xValuesF32 } from '../gemv/gemv-wasm-values.js';
import { plainOutput } from '../gemv/combine-sums-cpu.js';

/** The widest matrix whose slots the unrolled form (wasmKernelForms().ellSlotsUnrolled) writes out one by one. */
const MAX_UNROLLED_SLOTS = 8;

/** Elements (rows × slots) staged per block. */
const BLOCK_ELEMENTS = 32768;

/**
 * The values' reader: a built-in storage, unscaled, scaled once, or scaled per row (finite scales); values scaled per
 * slot are read from an unscaled twin of the JavaScript's reads (kernels/shared/scale-twin.ts), any scales.
 */
export function wasmEllRefusal(values: Accessor<2, any>, rows: number): Refusal | undefined {
  const s = wasmStorageOfFormat(values.storage);
  if (typeof s === 'string') return { code: 'INVALID_FORMAT', parameter: 'A.values', reason: s };
  const sc = values.scale;
  if (!sc) return undefined;
  if (sc.mask[1]) return undefined;
  for (let i = 0; i < (sc.mask[0] ? rows : 1); i++) {
    if (!Number.isFinite(sc.data[sc.offset + i * sc.strides[0]!])) return { code: 'INVALID_FORMAT', parameter: 'A.values', reason: 'a non-finite scale is left to the JavaScript kernels' };
  }
  return undefined;
}

type EllBlock = (pv: number, pc: number, ps: number, px: number, pt: number, rows: number, width: number, pcomp: number, vSlot: number, cSlot: number) => void;

/** Gathers x at lane `lane` of the column indices (a padding index −1 reads the double before x: masked out later). */
export function gather(cols: number, px: number, lane: number): number[] {
  return [...op.get(cols), ...op.simd(0x1b /* i32x4.extract_lane */, lane), ...op.i32(3), ...op.i32Shl(), ...op.get(px), ...op.i32Add(), ...op.f64Load()];
}

/**
 * Instructions leaving the f64x2 (x[col₀], x[col₁]) of the column indices at byte offsets `at`, `at + 4` from local
 * `pck`: each index loaded as a scalar (a load is cheaper than a lane extract), scaled to bytes and added to `px`,
 * the two doubles loaded into the lanes directly (`v128.load64_zero`, `v128.load64_lane`). A padding index −1 reads
 * the double before x, masked out later, as {@link gather}'s.
 */
function gatherPair(pck: number, px: number, at: number): number[] {
  const address = (o: number): number[] => [...op.get(pck), 0x28, 2, ...uleb(o) /* i32.load */, ...op.i32(3), ...op.i32Shl(), ...op.get(px), ...op.i32Add()];
  return [...address(at + 4), ...address(at), ...op.simdMem(SIMD.load64Zero, 0), ...op.simdMem(0x57 /* v128.load64_lane */, 0), 1];
}

/**
 * t[0 … rows) := Σₖ vᵢₖ·x[colᵢₖ] over the block: slot k's values at pv + k·vSlot, its column indices at
 * pc + k·cSlot (bytes; staged: rows·bytes and 4·rows, in place: the operand's slot strides), the rows' scales at
 * ps (scaled values only); rows a multiple of 8. With kahan, the rows' compensations are stored at pcomp.
 * Rows per step: 8 (four f64x2 sums: more independent chains and half the loop overhead per row), 4 with kahan.
 */
function ellBlock(sv: WasmStorage, scaled: boolean, f32: boolean, kahan: boolean, width: number): EllBlock {
  const wide = wasmKernelForms().ellWide;
  // The slots unrolled for this width (wasmKernelForms().ellSlotsUnrolled; up to MAX_UNROLLED_SLOTS), else a loop.
  const unrolled = wasmKernelForms().ellSlotsUnrolled && width <= MAX_UNROLLED_SLOTS ? width : 0;
  return wasmExports(`ell${f32 ? '-f32' : ''}${kahan ? '-kahan' : ''}${wide ? '' : '-narrow'}${unrolled ? `-slots${unrolled}` : ''} ${sv.name}${scaled ? '*s' : ''}`, 'the ELL SpMV kernel', () => {
    // fp32 arithmetic: each read, product and sum rounded to binary32 in the f64x2 lanes (demote, promote) — the
    // JavaScript f32 arithmetic's fl64 then Math.fround, which is the binary32 operation (53 ≥ 2·24 + 2 bits).
    const round = f32 ? [...op.simd(SIMD.f32x4DemoteF64x2Zero), ...op.simd(SIMD.f64x2PromoteLowF32x4)] : [];
    const step = kahan || !wide ? 4 : 8, halves = step / 2;
    const hs = Array.from({ length: halves }, (_, h) => h);
    const l = new WasmLocals();
    const pv = l.param(I32), pc = l.param(I32), ps = l.param(I32), px = l.param(I32), pt = l.param(I32), rows = l.param(I32), width = l.param(I32);
    const pcomp = l.param(I32), vSlot = l.param(I32), cSlot = l.param(I32);
    const i = l.local(I32), k = l.local(I32), pvk = l.local(I32), pck = l.local(I32);
    const s = l.locals_(V128, halves), sc = l.locals_(V128, halves), negative = l.locals_(V128, step / 4), cols = l.local(V128);
    const v = operandLocals(l, { storage: sv, pointer: pvk, scaleParam: -1 }, false);
    // kahan: the compensations c, the term, the (s, c) before the step (kept in padding lanes), TwoSum's scratch.
    const c = kahan ? l.locals_(V128, 2) : -1, term = kahan ? l.local(V128) : -1, old = kahan ? l.locals_(V128, 2) : -1;
    const scratch = kahan ? neumaierScratch(l) : undefined;
    // Lanes of rows 2h, 2h + 1 whose slot is padding (column index < 0), as an i64x2 mask.
    const padding = (h: number): number[] => [...op.get(negative + (h >> 1)), ...op.simd(h % 2 === 0 ? 0xc7 : 0xc8 /* i64x2.extend_{low,high}_i32x4_s */)];
    const product = (h: number): number[] => [
      ...load2(v, h), ...round, ...(scaled ? [...op.get(sc + h), ...op.simd(SIMD.f64x2Mul), ...round] : []),
      ...(wide ? gatherPair(pck, px, 8 * h) : [...gather(cols, px, 2 * h), ...op.simd(SIMD.f64x2Splat), ...gather(cols, px, 2 * h + 1), ...op.simd(0x22 /* f64x2.replace_lane */, 1)]),
      ...op.simd(SIMD.f64x2Mul), ...round,
    ];
    // (s, c) := the compensated sum with the product added (the JavaScript template's TwoSum), except in padding lanes.
    const kahanHalf = (h: number): number[] => [
      ...op.get(s + h), ...op.set(old), ...op.get(c + h), ...op.set(old + 1),
      ...product(h), ...neumaierStep(scratch!, term, s + h, c + h, 'f64', round),
      ...op.get(old), ...op.get(s + h), ...padding(h), ...op.simd(SIMD.bitselect), ...op.set(s + h),
      ...op.get(old + 1), ...op.get(c + h), ...padding(h), ...op.simd(SIMD.bitselect), ...op.set(c + h),
    ];
    // s_h := bitselect(s_h, s_h + (v·scale)·x, padding lanes)
    const half = (h: number): number[] => kahan ? kahanHalf(h) : [
      ...op.get(s + h), ...op.get(s + h), ...product(h), ...op.simd(SIMD.f64x2Add), ...round,
      ...padding(h), ...op.simd(SIMD.bitselect), ...op.set(s + h),
    ];
    const plainHalf = (h: number): number[] => [...op.get(s + h), ...product(h), ...op.simd(SIMD.f64x2Add), ...round, ...op.set(s + h)];
    // Wide form: the selects only where a row of the step has a padding slot here (in a stencil matrix, few do).
    const halvesOfSlot = wide && !kahan
      ? [...op.get(negative), ...op.get(negative + 1), ...op.simd(SIMD.or), ...op.simd(0x53 /* v128.any_true */),
        ...op.if(), ...hs.flatMap(half), ...op.else(), ...hs.flatMap(plainHalf), ...op.end()]
      : hs.flatMap(half);
    const slot = [
      // The padding mask of each group of four rows (the earlier form keeps the indices for its lane extracts).
      ...Array.from({ length: step / 4 }, (_, q) => [...op.get(pck), ...op.simdMem(SIMD.load, 0, 16 * q), ...(wide ? [] : op.tee(cols)), ...op.i32(31), ...op.simd(0xac /* i32x4.shr_s */), ...op.set(negative + q)]).flat(),
      ...halvesOfSlot,
      ...op.get(pvk), ...op.get(vSlot), ...op.i32Add(), ...op.set(pvk),
      ...op.get(pck), ...op.get(cSlot), ...op.i32Add(), ...op.set(pck),
    ];
    const slots = unrolled ? Array.from({ length: unrolled }, () => slot).flat() : countLoop(k, width, 1, slot);
    const rowAddress = (base: number, shift: number): number[] => [...op.get(base), ...op.get(i), ...op.i32(shift), ...op.i32Shl(), ...op.i32Add()];
    const body = countLoop(i, rows, step, [
      ...hs.flatMap((h) => [...op.f64(0), ...op.simd(SIMD.f64x2Splat), ...op.set(s + h), ...(kahan ? [...op.f64(0), ...op.simd(SIMD.f64x2Splat), ...op.set(c + h)] : [])]),
      ...(scaled ? hs.flatMap((h) => [...rowAddress(ps, 3), ...op.simdMem(SIMD.load, 0, 16 * h), ...op.set(sc + h)]) : []),
      ...op.get(pv), ...op.get(i), ...op.i32(sv.bytes), ...op.i32Mul(), ...op.i32Add(), ...op.set(pvk),
      ...rowAddress(pc, 2), ...op.set(pck),
      ...slots,
      ...hs.flatMap((h) => [...rowAddress(pt, 3), ...op.get(s + h), ...op.simdMem(SIMD.store, 0, 16 * h)]),
      ...(kahan ? hs.flatMap((h) => [...rowAddress(pcomp, 3), ...op.get(c + h), ...op.simdMem(SIMD.store, 0, 16 * h)]) : []),
    ]);
    return encodeModule([l.function('ell', [], [...operandSetup(v), ...body])], 1);
  }).ell as EllBlock;
}

/**
 * y := α·A·x + β·y for α ≠ 0, a matrix with columns and slots (the caller checked {@link wasmEllRefusal}, x and y),
 * in fp64 arithmetic or, with `f32`, fp32 arithmetic (values not double-double: ell-spmv.ts reads those into a twin); with
 * `kahan`, each row's compensated sum (s, c) in slot order, its result s + c — the JavaScript kahan loop's bits.
 */
export function wasmEllSpmv(alpha: number, structure: EllStructure, values: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, f32 = false, kahan = false): void {
  const { rows, cols, width, stride, colIndex } = structure;
  const sv = wasmStorageOfFormat(values.storage) as WasmStorage;
  const sc = values.scale;
  const f = ellBlock(sv, !!sc, f32, kahan, width);
  const blockRows = Math.max(8, Math.min(4096, Math.floor(BLOCK_ELEMENTS / width) & ~7));
  // x as the kernel reads it (doubles): in place for unscaled fp64 of unit stride in a wasmArena under fp64
  // arithmetic (its values as they are), else decoded into the staging area.
  const sx = wasmStorageOf(x);
  const xAt = !f32 && !x.scale && typeof sx !== 'string' && sx.name === 'f64' && x.strides[0] === 1 ? wasmAddressOf(x.data, x.offset, 8) : -1;
  const X_AT = 64;
  const T_AT = X_AT + (xAt >= 0 ? 16 : (cols * 8 + 15) & ~15);
  const S_AT = T_AT + blockRows * 8;
  const C_AT = S_AT + blockRows * 8;
  const COMP_AT = C_AT + blockRows * width * 4, V_AT = COMP_AT + (kahan ? blockRows * 8 : 0);
  reserveBytes(V_AT + blockRows * width * sv.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  if (f32) new Float64Array(buffer, X_AT, cols).set(xValuesF32(x, cols));
  else if (xAt < 0) xValues(x, cols, new Float64Array(buffer, X_AT, cols));
  const t = new Float64Array(buffer, T_AT, blockRows), scales = new Float64Array(buffer, S_AT, blockRows);
  const comp = new Float64Array(buffer, COMP_AT, kahan ? blockRows : 0);
  // y's rows of a block, combined as soon as the block is summed (y overlaps neither A nor x: checked before).
  const yStride = y.strides[0] as number;
  const [s0, s1] = values.strides as [number, number];
  for (let r0 = 0; r0 < rows; r0 += blockRows) {
    const count = Math.min(blockRows, rows - r0), padded = (count + 7) & ~7;
    // Values and column indices in the WebAssembly memory (a wasmArena) are read in place for blocks of whole steps.
    const whole = count === padded;
    const pv = whole && s0 === 1 ? wasmAddressOf(values.data, values.offset + r0, sv.bytes) : -1;
    const pc = whole ? wasmAddressOf(colIndex, r0, 4) : -1;
    for (let k = 0; k < width; k++) {
      if (pc < 0) {
        const c = new Int32Array(buffer, C_AT + k * padded * 4, padded);
        c.set(colIndex.subarray(k * stride + r0, k * stride + r0 + count));
        c.fill(-1, count);
      }
      if (pv >= 0) continue;
      const slot = { data: values.data, storage: values.storage, offset: values.offset + r0 * s0 + k * s1, strides: [s0] } as unknown as Accessor<1, any>;
      stageVector(slot, 0, count, V_AT + k * padded * sv.bytes, padded, buffer);
    }
    // fp32 arithmetic multiplies by the scale rounded to binary32, as its reads do.
    if (sc) for (let i = 0; i < padded; i++) scales[i] = i < count ? (f32 ? Math.fround : Number)(sc.data[sc.offset + (sc.mask[0] ? (r0 + i) * sc.strides[0]! : 0)]!) : 0;
    // Slot strides in bytes: staged slots are `padded` rows apart, in-place ones the operand's slot strides.
    f(pv < 0 ? V_AT : pv, pc < 0 ? C_AT : pc, S_AT, xAt < 0 ? X_AT : xAt, T_AT, padded, width, COMP_AT, pv < 0 ? padded * sv.bytes : s1 * sv.bytes, pc < 0 ? padded * 4 : stride * 4);
    // The kahan template's result: s + c in the arithmetic.
    if (kahan) for (let i = 0; i < count; i++) t[i] = f32 ? Math.fround(t[i]! + comp[i]!) : t[i]! + comp[i]!;
    // A double-double y is combined by a generated program, which needs a whole accessor of the block.
    const yBlock = plainOutput(y) ? { data: y.data, storage: y.storage, offset: y.offset + r0 * yStride, strides: [yStride] } as unknown as Accessor<1, any> : y.sub({ begin: r0, end: r0 + count });
    if (f32) combineSumsF32(alpha, t, beta, yBlock, count);
    else combineSums(alpha, t, beta, yBlock, count);
  }
}
