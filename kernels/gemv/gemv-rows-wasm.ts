/**
 * Row-major GEMV over many rows in one WebAssembly call, for a matrix read in place (a wasmArena) whose rows are
 * whole steps of 8 elements. The per-row path (kernels/gemv/gemv-wasm.ts, `rowSums`) calls the DOT chunk once per
 * row from JavaScript and adds the lane sums there; at n = 4096 that call costs about as much as reading the row
 * from DRAM. Here each row takes the DOT chunk's order exactly — element 8t + j into partial sum j, in order, from
 * zero, then ((p₀ + p₁) + (p₂ + p₃)) + ((p₄ + p₅) + (p₆ + p₇)) in the same arithmetic — so the sums are the same
 * bits, and the same γ_n bound holds. Two rows share each load of x.
 * @module
 */
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, countLoop, operandLocals, operandSetup } from '../../src/backends/wasm/wasm-function.js';
import { wasmExports } from '../../src/backends/wasm/wasm-runtime.js';
import { wasmStorageNamed, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';

/**
 * sums[r] := Σⱼ A[r, j]·x[j] for r < rows (at `pout`, f64 or binary32 by the lanes), A's row r at pa + r·rowBytes
 * (n elements, n a multiple of 8), x staged at px in the lanes' format.
 */
export type RowsChunk = (pa: number, rowBytes: number, scale: number, px: number, n: number, rows: number, pout: number) => void;

const F32X4_EXTRACT_LANE = 0x1f, F32_ADD = 0x92, F32_STORE = 0x38;

/** The compiled many-rows function for this storage and scaling, in f64 (default) or f32 lanes. */
export function rowsChunk(sa: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32'): RowsChunk {
  return wasmExports(`gemv-rows${lanes === 'f32' ? '-f32' : ''} ${sa.name}${scaled ? '*s' : ''}`, 'the GEMV kernel', () => {
    const v = LANES[lanes], ks = Array.from({ length: v.vectors }, (_, k) => k);
    const sx = wasmStorageNamed(lanes)!;
    const l = new WasmLocals();
    const pa = l.param(I32), rowBytes = l.param(I32), scale = l.param(F64), px = l.param(I32), n = l.param(I32), rows = l.param(I32), pout = l.param(I32);
    const r = l.local(I32), i = l.local(I32), pa1 = l.local(I32), pxi = l.local(I32), xk = l.local(V128);
    const acc = l.locals_(V128, 2 * v.vectors);
    const a0 = operandLocals(l, { storage: sa, pointer: pa, scaleParam: scale }, scaled, lanes);
    const a1 = operandLocals(l, { storage: sa, pointer: pa1, scaleParam: scale }, scaled, lanes);
    const x = operandLocals(l, { storage: sx, pointer: pxi, scaleParam: -1 }, false, lanes);
    const zero = [...op.f64(0), ...op.simd(SIMD.f64x2Splat)];
    // Both rows' vector k: x's vector k loaded once.
    const step = ks.flatMap((k) => [
      ...v.load(x, k), ...op.set(xk),
      ...[a0, a1].flatMap((a, row) => [
        ...op.get(acc + row * v.vectors + k), ...v.load(a, k), ...op.get(xk), ...op.simd(v.mul), ...op.simd(v.add), ...op.set(acc + row * v.vectors + k),
      ]),
    ]);
    const advance = (p: number, bytes: number): number[] => [...op.get(p), ...op.i32(bytes), ...op.i32Add(), ...op.set(p)];
    const rowLoop = (both: boolean): number[] => [
      ...op.get(px), ...op.set(pxi), ...(both ? [...op.get(pa), ...op.get(rowBytes), ...op.i32Add(), ...op.set(pa1)] : []),
      ...Array.from({ length: 2 * v.vectors }, (_, k) => [...zero, ...op.set(acc + k)]).flat(),
      ...countLoop(i, n, 8, both ? [...step, ...advance(pa, 8 * sa.bytes), ...advance(pa1, 8 * sa.bytes), ...advance(pxi, 8 * sx.bytes)]
        : [...ks.flatMap((k) => [...op.get(acc + k), ...v.load(a0, k), ...v.load(x, k), ...op.simd(v.mul), ...op.simd(v.add), ...op.set(acc + k)]),
          ...advance(pa, 8 * sa.bytes), ...advance(pxi, 8 * sx.bytes)]),
      ...[0, ...(both ? [1] : [])].flatMap((row) => [...op.get(pout), ...laneTree(acc + row * v.vectors, lanes), ...store(lanes, row)]),
      // pa ran over its row: back to the row's start, then on by the rows done.
      ...op.get(pa), ...op.get(n), ...op.i32(sa.bytes), ...op.i32Mul(), ...op.i32Sub(),
      ...op.get(rowBytes), ...op.i32(both ? 2 : 1), ...op.i32Mul(), ...op.i32Add(), ...op.set(pa),
      ...advance(pout, (both ? 2 : 1) * (lanes === 'f64' ? 8 : 4)),
    ];
    const body = [
      ...operandSetup(a0, lanes), ...operandSetup(a1, lanes), ...operandSetup(x, lanes),
      ...op.i32(0), ...op.set(r), ...op.block(), ...op.loop(),
      ...op.get(r), ...op.i32(1), ...op.i32Add(), ...op.get(rows), ...op.i32GeS(), ...op.brIf(1),
      ...rowLoop(true),
      ...op.get(r), ...op.i32(2), ...op.i32Add(), ...op.set(r),
      ...op.br(0), ...op.end(), ...op.end(),
      // An odd last row alone.
      ...op.get(r), ...op.get(rows), ...op.i32LtS(), ...op.if(), ...rowLoop(false), ...op.end(),
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

/** Stores the sum on the stack (after the address) as row `row` of the pair. */
function store(lanes: 'f64' | 'f32', row: number): number[] {
  return lanes === 'f64' ? op.f64Store(8 * row) : [F32_STORE, 2, 4 * row];
}
