/**
 * Row-major GEMV over many rows in one WebAssembly call, for a matrix read in place (a wasmArena) whose rows are
 * whole steps of 8 elements. The per-row path (kernels/gemv/gemv-wasm.ts, `rowSums`) calls the DOT chunk once per
 * row from JavaScript and adds the lane sums there; at n = 4096 that call costs about as much as reading the row
 * from DRAM. Here each row takes the DOT chunk's order exactly — element 8t + j into partial sum j, in order, from
 * zero, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) in the same arithmetic — so the sums are the same
 * bits, and the same γ_n bound holds. Four rows (two with `gemvRowGroup` 2) share each load of x.
 * @module
 */
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, countLoop, operandLocals, operandSetup } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import { wasmStorageNamed, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { wasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';

/**
 * sums[r] := Σⱼ A[r, j]·x[j] for r < rows (at `pout`, f64 or binary32 by the lanes), A's row r at pa + r·rowBytes
 * (n elements, n a multiple of 8), x staged at px in the lanes' format.
 */
export type RowsChunk = (pa: number, rowBytes: number, scale: number, px: number, n: number, rows: number, pout: number) => void;

const F32X4_EXTRACT_LANE = 0x1f, F32_ADD = 0x92, F32_STORE = 0x38;

/**
 * The compiled many-rows function for this storage and scaling, in f64 (default) or f32 lanes, `group` rows sharing
 * each load of x (the last rows of a call, fewer than a group, one at a time).
 */
export function rowsChunk(sa: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32', group: 2 | 4 = wasmKernelForms().gemvRowGroup): RowsChunk {
  return wasmExports(`gemv-rows${lanes === 'f32' ? '-f32' : ''}${group === 2 ? '' : ` g${group}`} ${sa.name}${scaled ? '*s' : ''}`, 'the GEMV kernel', () => {
    const v = LANES[lanes], ks = Array.from({ length: v.vectors }, (_, k) => k);
    const sx = wasmStorageNamed(lanes)!;
    const l = new WasmLocals();
    const pa = l.param(I32), rowBytes = l.param(I32), scale = l.param(F64), px = l.param(I32), n = l.param(I32), rows = l.param(I32), pout = l.param(I32);
    const r = l.local(I32), i = l.local(I32), pxi = l.local(I32), xk = l.local(V128);
    // Row g of a group reads from pointer pg[g]: pa itself for the first row.
    const pg = [pa, ...Array.from({ length: group - 1 }, () => l.local(I32))];
    const acc = l.locals_(V128, group * v.vectors);
    const a = pg.map((p) => operandLocals(l, { storage: sa, pointer: p, scaleParam: scale }, scaled, lanes));
    const x = operandLocals(l, { storage: sx, pointer: pxi, scaleParam: -1 }, false, lanes);
    const zero = [...op.f64(0), ...op.simd(SIMD.f64x2Splat)];
    const advance = (p: number, bytes: number): number[] => [...op.get(p), ...op.i32(bytes), ...op.i32Add(), ...op.set(p)];
    // A step of `count` rows: x's vector k loaded once for all of them, each row's partial sums as the DOT chunk's.
    const step = (count: number): number[] => [
      ...ks.flatMap((k) => [
        ...v.load(x, k), ...op.set(xk),
        ...a.slice(0, count).flatMap((ag, g) => [
          ...op.get(acc + g * v.vectors + k), ...v.load(ag, k), ...op.get(xk), ...op.simd(v.mul), ...op.simd(v.add), ...op.set(acc + g * v.vectors + k),
        ]),
      ]),
      ...pg.slice(0, count).flatMap((p) => advance(p, 8 * sa.bytes)), ...advance(pxi, 8 * sx.bytes),
    ];
    const rowLoop = (count: number): number[] => [
      ...op.get(px), ...op.set(pxi),
      ...pg.slice(1, count).flatMap((p, g) => [...op.get(pa), ...op.get(rowBytes), ...op.i32(g + 1), ...op.i32Mul(), ...op.i32Add(), ...op.set(p)]),
      ...Array.from({ length: count * v.vectors }, (_, k) => [...zero, ...op.set(acc + k)]).flat(),
      ...countLoop(i, n, 8, step(count)),
      ...Array.from({ length: count }, (_, g) => [...op.get(pout), ...laneTree(acc + g * v.vectors, lanes), ...store(lanes, g)]).flat(),
      // pa ran over its row: back to the row's start, then on by the rows done.
      ...op.get(pa), ...op.get(n), ...op.i32(sa.bytes), ...op.i32Mul(), ...op.i32Sub(),
      ...op.get(rowBytes), ...op.i32(count), ...op.i32Mul(), ...op.i32Add(), ...op.set(pa),
      ...advance(pout, count * (lanes === 'f64' ? 8 : 4)),
    ];
    const body = [
      ...a.flatMap((ag) => operandSetup(ag, lanes)), ...operandSetup(x, lanes),
      ...op.i32(0), ...op.set(r), ...op.block(), ...op.loop(),
      ...op.get(r), ...op.i32(group - 1), ...op.i32Add(), ...op.get(rows), ...op.i32GeS(), ...op.brIf(1),
      ...rowLoop(group),
      ...op.get(r), ...op.i32(group), ...op.i32Add(), ...op.set(r),
      ...op.br(0), ...op.end(), ...op.end(),
      // The last rows, fewer than a group, one at a time.
      ...op.block(), ...op.loop(),
      ...op.get(r), ...op.get(rows), ...op.i32GeS(), ...op.brIf(1),
      ...rowLoop(1),
      ...op.get(r), ...op.i32(1), ...op.i32Add(), ...op.set(r),
      ...op.br(0), ...op.end(), ...op.end(),
    ];
    return encodeModule([l.function('rows', [], body)], 1);
  }).rows as RowsChunk;
}

/** Instructions leaving the lane tree of the accumulators from local `first` (f64 or binary32) on the stack. */
function laneTree(first: number, lanes: 'f64' | 'f32'): number[] {
  const p = (j: number): number[] => lanes === 'f64'
    ? [...op.get(first + (j >> 1)), ...op.simd(SIMD.f64x2ExtractLane, j & 1)]
    : [...op.get(first + (j >> 2)), ...op.simd(F32X4_EXTRACT_LANE, j & 3)];
  const add = lanes === 'f64' ? op.f64Add() : [F32_ADD];
  const pair = (j: number): number[] => [...p(j), ...p(j + 1), ...add];
  return [...pair(0), ...pair(2), ...add, ...pair(4), ...pair(6), ...add, ...add];
}

/** Stores the sum on the stack (after the address) as row `row` of the group. */
function store(lanes: 'f64' | 'f32', row: number): number[] {
  return lanes === 'f64' ? op.f64Store(8 * row) : [F32_STORE, 2, 4 * row];
}
