/**
 * ELL SpMV summed in double-double in WebAssembly SIMD (double-double arithmetic, or fp64 arithmetic with the
 * `dd` accumulation) on built-in storage — values unscaled, with one scale or one per row, x unscaled or with one
 * scale, y unscaled: rows in SIMD lanes, four per step, slots staged — or read in
 * place from a wasmArena — as in the fp64 kernel (kernels/ell-spmv/ell-spmv-wasm.ts). Slot k adds vᵢₖ·x[colᵢₖ] into row i's double-double sum by the
 * steps of the DD DOT (src/backends/wasm/wasm-dd-steps.ts: ddTwoProdAccumulate, or ddMulAccumulate for a
 * double-double factor), and a padding slot (column −1, always after the row's entries) leaves the sum as it is
 * (a lane select: a padding value never reaches a result). With the `dd` accumulation slot k goes into chain
 * k mod 2 and the two chains are joined by ddAdd as the accumulation's result joins them. Each row therefore
 * takes the operations of the JavaScript loop in its order: the same bits, the same ellSpmvBound. The row's pair
 * then goes through the JavaScript kernels' combination with α, β and store (kernels/gemv/combine-dd-sums-cpu.ts).
 * Scaled values and x are read as the JavaScript reads them (src/backends/wasm/wasm-dd-read.ts): fp64 arithmetic's
 * double fl(v·s), double-double arithmetic's pair (v, 0)·(s, 0) — the values in the kernel with their row's scale,
 * x once by ddMul (kernels/gemv/gemv-dd-wasm.ts, xPairs) —, a double-double factor from there on.
 * A non-finite sum leaves y untouched and sends the call to the guarded JavaScript kernel.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import type { EllStructure } from '../../src/sparse/ell-matrix.js';
import { I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, countLoop, load2, operandLocals, operandSetup } from '../../src/backends/wasm/wasm-function.js';
import { ddAccumulateStep, ddPairHalf, ddScaledRead, ddScaledReadScratch, ddScaledReadSetup, ddStepScratch, ddStepSetup, type DdScaledReadScratch } from '../../src/backends/wasm/wasm-dd-steps.js';
import { ddReadOf, type DdRead } from '../../src/backends/wasm/wasm-dd-read.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { stageVector, wasmStorageOfFormat, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { wasmAddressOf } from '../../src/backends/wasm/wasm-arena.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { addPairs } from '../../src/formats/dd/add.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { coefficientCase } from '../gemv/coefficients.js';
import { combineDdSumsProgram } from '../gemv/combine-dd-sums-cpu.js';
import { xPairs, xReadsPairs } from '../gemv/gemv-dd-wasm.js';
import { xValues } from '../gemv/gemv-wasm-values.js';
import { gather } from './ell-spmv-wasm.js';

/** Elements (rows × slots) staged per block. */
const BLOCK_ELEMENTS = 32768;

type DdEllBlock = (pv: number, pc: number, pxh: number, pxl: number, pt: number, rows: number, width: number, vSlot: number, cSlot: number, ps: number) => void;

/**
 * Over the block (slot k's values at pv + k·vSlot, column indices at pc + k·cSlot, in bytes — staged: rows·bytes
 * and 4·rows, in place: the operand's slot strides; rows a multiple of 8, width a multiple of `chains`): chain c's sums of row i at pt + 8i (high parts), + 8·rows (low parts), then
 * chain 1 after them (pt + 16·rows + 8i, + 24·rows + 8i). x's high parts at pxh, low parts at pxl (pairs only).
 * Scaled values (`readV` 'scaled-pairs', or `scaledV` in fp64 arithmetic): row i's scale at ps + 8i, each value read
 * as the JavaScript reads it (src/backends/wasm/wasm-dd-read.ts: fl(v·sᵢ), or the pair (v, 0)·(sᵢ, 0)).
 */
function ddEllBlock(sv: WasmStorage, readV: DdRead, scaledV: boolean, pairX: boolean, chains: 1 | 2): DdEllBlock {
  const pairV = readV !== 'number', general = pairV || pairX;
  return wasmExports(`ell-dd ${sv.name}${pairV ? ` ${readV}` : ''}${scaledV ? ' *s' : ''}${pairX ? ' x-pairs' : ''} ${chains}`, 'the double-double ELL SpMV kernel', () => {
    const l = new WasmLocals();
    const pv = l.param(I32), pc = l.param(I32), pxh = l.param(I32), pxl = l.param(I32), pt = l.param(I32), rows = l.param(I32), width = l.param(I32);
    const vSlot = l.param(I32), cSlot = l.param(I32), ps = l.param(I32);
    const i = l.local(I32), k = l.local(I32), pvk = l.local(I32), pck = l.local(I32), rowBytes = l.local(I32);
    // sums: chain c, half h → sumHi + 2c + h, sumLo + 2c + h
    const sumHi = l.locals_(V128, 4), sumLo = l.locals_(V128, 4);
    const cols = l.local(V128), negative = l.local(V128), a = l.local(V128), al = l.local(V128), b = l.local(V128), bl = l.local(V128);
    const nh = l.local(V128), nl = l.local(V128);
    const scratch = ddStepScratch(l);
    const v = operandLocals(l, { storage: sv, pointer: pvk, scaleParam: -1 }, false);
    // The four rows' scales (two f64x2 halves), loaded per row group; for pairs with their Veltkamp halves.
    const scales = scaledV ? [0, 1].map(() => l.local(V128)) : [];
    const reads = scaledV && readV === 'scaled-pairs' ? scales.map((sc) => ddScaledReadScratch(l, sc)) : [];
    const shared = reads[0];
    const readAt = (h: 0 | 1): DdScaledReadScratch => ({ ...shared!, scale: reads[h]!.scale, s1: reads[h]!.s1, s2: reads[h]!.s2 });
    const readValue = (h: 0 | 1): number[] => {
      if (readV === 'pairs') return [...ddPairHalf(pvk, 32 * h, false), ...op.set(a), ...ddPairHalf(pvk, 32 * h, true), ...op.set(al)];
      if (readV === 'number') return [...load2(v, h), ...(scaledV ? [...op.get(scales[h]!), ...op.simd(SIMD.f64x2Mul)] : []), ...op.set(a)];
      return sv.words === 2
        ? [...ddPairHalf(pvk, 32 * h, false), ...op.set(a), ...ddPairHalf(pvk, 32 * h, true), ...op.set(al), ...ddScaledRead(readAt(h), a, al, a, al)]
        : [...load2(v, h), ...op.set(a), ...ddScaledRead(readAt(h), a, undefined, a, al)];
    };
    const loadScales = scales.flatMap((sc, h) => [
      ...op.get(ps), ...op.get(i), ...op.i32(3), ...op.i32Shl(), ...op.i32Add(), ...op.simdMem(SIMD.load, 0, 16 * h), ...op.set(sc),
      ...(reads.length > 0 ? ddScaledReadSetup(reads[h]!) : []),
    ]);
    const gathered = (base: number, h: 0 | 1): number[] => [
      ...gather(cols, base, 2 * h), ...op.simd(SIMD.f64x2Splat), ...gather(cols, base, 2 * h + 1), ...op.simd(0x22 /* f64x2.replace_lane */, 1),
    ];
    const half = (c: number, h: 0 | 1): number[] => {
      const hi = sumHi + 2 * c + h, lo = sumLo + 2 * c + h;
      const mask = [...op.get(negative), ...op.simd(h === 0 ? 0xc7 : 0xc8 /* i64x2.extend_{low,high}_i32x4_s */)];
      return [
        ...readValue(h),
        ...gathered(pxh, h), ...op.set(b),
        ...(pairX ? [...gathered(pxl, h), ...op.set(bl)] : []),
        ...ddAccumulateStep(scratch, { a, b, low: general ? { a: al, b: bl } : undefined, hi, lo, into: { hi: nh, lo: nl } }),
        // keep the old sum in padding lanes
        ...op.get(hi), ...op.get(nh), ...mask, ...op.simd(SIMD.bitselect), ...op.set(hi),
        ...op.get(lo), ...op.get(nl), ...mask, ...op.simd(SIMD.bitselect), ...op.set(lo),
      ];
    };
    const slot = (c: number): number[] => [
      ...op.get(pck), ...op.simdMem(SIMD.load, 0), ...op.tee(cols), ...op.i32(31), ...op.simd(0xac /* i32x4.shr_s */), ...op.set(negative),
      ...half(c, 0), ...half(c, 1),
      ...op.get(pvk), ...op.get(vSlot), ...op.i32Add(), ...op.set(pvk),
      ...op.get(pck), ...op.get(cSlot), ...op.i32Add(), ...op.set(pck),
    ];
    const zero = [...op.f64(0), ...op.simd(SIMD.f64x2Splat)];
    const sumAt = (c: number, lo: boolean, h: number): number[] => [...op.get(pt), ...op.get(rowBytes), ...op.i32(2 * c + (lo ? 1 : 0)), ...op.i32Mul(), ...op.i32Add(), ...op.get(i), ...op.i32(3), ...op.i32Shl(), ...op.i32Add(), ...(h ? [...op.i32(16), ...op.i32Add()] : [])];
    const body = countLoop(i, rows, 4, [
      ...[0, 1, 2, 3].flatMap((q) => [...zero, ...op.set(sumHi + q), ...zero, ...op.set(sumLo + q)]),
      ...loadScales,
      ...op.get(pv), ...op.get(i), ...op.i32(sv.bytes), ...op.i32Mul(), ...op.i32Add(), ...op.set(pvk),
      ...op.get(pc), ...op.get(i), ...op.i32(2), ...op.i32Shl(), ...op.i32Add(), ...op.set(pck),
      ...countLoop(k, width, chains, Array.from({ length: chains }, (_, c) => slot(c)).flat()),
      ...Array.from({ length: chains }, (_, c) => [0, 1].flatMap((h) => [
        ...sumAt(c, false, h), ...op.get(sumHi + 2 * c + h), ...op.simdMem(SIMD.store, 0),
        ...sumAt(c, true, h), ...op.get(sumLo + 2 * c + h), ...op.simdMem(SIMD.store, 0),
      ])).flat(),
    ]);
    const setup = [
      ...operandSetup(v), ...ddStepSetup(scratch),
      ...op.get(rows), ...op.i32(3), ...op.i32Shl(), ...op.set(rowBytes),
      // An exact double's low part is 0 (the JavaScript templates read it as the pair (v, 0)).
      ...(general && !pairV ? [...zero, ...op.set(al)] : []),
      ...(general && !pairX ? [...zero, ...op.set(bl)] : []),
    ];
    return encodeModule([l.function('ell', [], [...setup, ...body])], 1);
  }).ell as DdEllBlock;
}

/**
 * y := α·A·x + β·y for α ≠ 0, summed in double-double (the caller checked the values with wasmEllRefusal, x and y). Returns false, with y untouched, when a row's sum is not finite.
 * @param ar - double-double arithmetic, or fp64 with the `dd` accumulation (`twoChains`)
 * @param twoChains - the `dd` accumulation (two interleaved chains)
 */
export function wasmDdEllSpmv(alpha: number, structure: EllStructure, values: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, ar: ArithmeticFormat, twoChains: boolean): boolean {
  const { rows, cols, width, stride, colIndex } = structure;
  const ddArithmetic = ar.kind === 'dd';
  const sv = wasmStorageOfFormat(values.storage) as WasmStorage;
  const readV = ddReadOf(values, ddArithmetic), pairX = xReadsPairs(x, ddArithmetic);
  const chains = twoChains ? 2 : 1;
  // An odd width gets one more (padding) slot with two chains, so that the loop takes slots in pairs.
  const slots = width + (width % chains);
  const sc = values.scale;
  const f = ddEllBlock(sv, readV, !!sc, pairX, chains);
  const blockRows = Math.max(8, Math.min(4096, Math.floor(BLOCK_ELEMENTS / slots) & ~7));
  // x's high parts (and low parts) with a double before each: a padding index −1 reads it (masked out).
  const xBytes = (cols * 8 + 15) & ~15;
  const XH_AT = 64, XL_AT = XH_AT + xBytes + 64;
  const T_AT = XL_AT + xBytes;
  const C_AT = T_AT + 4 * blockRows * 8;
  const V_AT = C_AT + blockRows * slots * 4;
  const S_AT = (V_AT + blockRows * slots * sv.bytes + 64 + 15) & ~15;
  reserveBytes(S_AT + blockRows * 8 + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  if (pairX) { const [h, l] = xPairs(x, cols); new Float64Array(buffer, XH_AT, cols).set(h); new Float64Array(buffer, XL_AT, cols).set(l); }
  else xValues(x, cols, new Float64Array(buffer, XH_AT, cols));
  const sums = new Float64Array(2 * rows), joined = new Float64Array(2);
  const [s0, s1] = values.strides as [number, number];
  for (let r0 = 0; r0 < rows; r0 += blockRows) {
    const count = Math.min(blockRows, rows - r0), padded = (count + 7) & ~7;
    // Values and column indices in the WebAssembly memory (a wasmArena) are read in place for blocks of whole steps
    // without an added padding slot, as the fp64 kernel reads them (kernels/ell-spmv/ell-spmv-wasm.ts).
    const whole = count === padded && slots === width;
    // The rows' scales (one for all, or one per row; padding rows 1, their sums unused).
    if (sc) { const s = new Float64Array(buffer, S_AT, padded); for (let i = 0; i < padded; i++) s[i] = i < count ? sc.data[sc.offset + (sc.mask[0] ? (r0 + i) * sc.strides[0]! : 0)]! : 1; }
    const pv = whole && s0 === 1 ? wasmAddressOf(values.data, values.offset + r0, sv.bytes) : -1;
    const pc = whole ? wasmAddressOf(colIndex, r0, 4) : -1;
    for (let k = 0; k < slots; k++) {
      const c = pc < 0 ? new Int32Array(buffer, C_AT + k * padded * 4, padded) : undefined;
      if (k < width) {
        c?.set(colIndex.subarray(k * stride + r0, k * stride + r0 + count));
        c?.fill(-1, count);
        if (pv >= 0) continue;
        const slot = { data: values.data, storage: values.storage, offset: values.offset + r0 * s0 + k * s1, strides: [s0] } as unknown as Accessor<1, any>;
        stageVector(slot, 0, count, V_AT + k * padded * sv.bytes, padded, buffer);
      } else {
        c!.fill(-1);
        new Uint8Array(buffer, V_AT + k * padded * sv.bytes, padded * sv.bytes).fill(0);
      }
    }
    f(pv < 0 ? V_AT : pv, pc < 0 ? C_AT : pc, XH_AT, XL_AT, T_AT, padded, slots, pv < 0 ? padded * sv.bytes : s1 * sv.bytes, pc < 0 ? padded * 4 : stride * 4, S_AT);
    const part = (q: number): Float64Array => new Float64Array(buffer, T_AT + q * padded * 8, padded);
    const [h0, l0] = [part(0), part(1)];
    if (chains === 1) for (let i = 0; i < count; i++) { sums[2 * (r0 + i)] = h0[i]!; sums[2 * (r0 + i) + 1] = l0[i]!; }
    else {
      const [h1, l1] = [part(2), part(3)];
      for (let i = 0; i < count; i++) {
        // The dd accumulation's result: ddAdd(A, B), A the chain that takes the next term (chain 0 after an even count).
        let terms = 0;
        while (terms < width && colIndex[(r0 + i) + terms * stride]! >= 0) terms++;
        if (terms % 2 === 0) addPairs(joined, h0[i]!, l0[i]!, h1[i]!, l1[i]!);
        else addPairs(joined, h1[i]!, l1[i]!, h0[i]!, l0[i]!);
        sums[2 * (r0 + i)] = joined[0]!; sums[2 * (r0 + i) + 1] = joined[1]!;
      }
    }
  }
  for (let k = 0; k < 2 * rows; k++) if (!Number.isFinite(sums[k]!)) return false;
  combineDdSumsProgram(y, ar, coefficientCase(alpha) as 'one' | 'general', coefficientCase(beta))(rows, sums, ...Operand.args(y), alpha, beta);
  return true;
}
