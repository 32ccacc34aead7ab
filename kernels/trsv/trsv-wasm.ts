/**
 * TRSV in WebAssembly SIMD, f64 arithmetic (f64x2 lanes) or f32 (f32x4 lanes, every read and operation one binary32
 * rounding, as the JavaScript f32 arithmetic's Math.fround), recursive accumulation, x unscaled f64 or f32, in the
 * loop order that reads op(A) contiguously:
 * - contiguous columns (column-major A with trans 'N', row-major with 'T'): the generated JavaScript's column loop
 *   (kernels/trsv/trsv-cpu.ts) with its update in SIMD lanes — tᵢ := 0 + bᵢ, then for each column j in the row
 *   order xⱼ := tⱼ / tⱼⱼ (stored, read back) and tᵢ := (−aᵢⱼ)·xⱼ + tᵢ for the rows not yet solved. Every tᵢ sees the
 *   same operations in the same order as in JavaScript: the same bits, the same trsvBound.
 * - contiguous rows (row-major A with 'N', column-major with 'T'): row-oriented substitution, each row's
 *   Σⱼ tᵢⱼ·xⱼ over the solved x's a WebAssembly DOT (eight interleaved partial sums, kernels/dot/dot-wasm.ts), then
 *   xᵢ := (bᵢ − that sum) / tᵢᵢ (stored, read back). The sum bᵢ − Σ tᵢⱼxⱼ is the JavaScript's, its terms added in
 *   another order: the recursive accumulation's γ_n bound, and so trsvBound, holds for any order.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, wasmStorageNamed, wasmStorageOf, type WasmStorage, laneSum, laneSumF32 } from '../../src/backends/wasm/wasm-storage.js';
import { diagonalAt, sweepColumns } from './trsv-wasm-sweeps.js';
import { rowPieces } from '../gemv/gemv-in-place.js';
import type { Refusal } from '../../src/backends/backend.js';
import { dotChunk } from '../dot/dot-wasm.js';
import type { StoredX } from './trsv-stored-x-wasm.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accumulation } from '../shared/accumulation.js';
import { wasmNumericsOf } from '../shared/cpu-backend.js';

/**
 * Why WebAssembly cannot run this TRSV call: none in double-double numerics (the solve gathers each column itself,
 * any strides), else {@link wasmTrsvRefusal}'s layout limits.
 * @param T - op(A)
 * @param ar - the call's arithmetic
 * @param acc - the call's accumulation
 * @returns the refusal, or undefined
 */
export function wasmTrsvCallRefusal(T: Accessor<2, any>, ar: ArithmeticFormat, acc: Accumulation): Refusal | undefined {
  return wasmNumericsOf(ar, acc) === 'dd' ? undefined : wasmTrsvRefusal(T);
}

/** Why op(A) has no WebAssembly TRSV (its columns are not contiguous), or undefined. */
export function wasmTrsvRefusal(T: Accessor<2, any>): Refusal | undefined {
  if (T.strides[0] === 1 || T.strides[1] === 1) return undefined;
  return { code: 'INVALID_OPTION', parameter: 'A', reason: 'WebAssembly reads a matrix whose rows or columns are contiguous (a unit stride) only' };
}

type UpdateChunk = (pt: number, pa: number, scale: number, n: number, xj: number) => void;

/** t[0 … n) := (−(a·scale))·xⱼ + t over a staged column segment (n a multiple of 8), in the lanes' arithmetic. */
function updateChunk(sa: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32'): UpdateChunk {
  return wasmExports(`trsv-column${lanes === 'f32' ? '-f32' : ''} ${sa.name}${scaled ? '*s' : ''}`, 'the TRSV kernel', () => {
    const v = LANES[lanes], ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const pt = l.param(I32);
    const pa = operandParams(l, sa);
    const n = l.param(I32), xj = l.param(F64);
    const i = l.local(I32), xv = l.local(V128);
    const a = operandLocals(l, pa, scaled, lanes);
    const step = ks.flatMap((k) => [
      ...op.get(pt),
      ...v.load(a, k), ...op.simd(v.neg), ...op.get(xv), ...op.simd(v.mul),
      ...op.get(pt), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.simd(v.add),
      ...op.simdMem(SIMD.store, 0, 16 * k),
    ]);
    const body = [
      ...operandSetup(a, lanes),
      // fp32: xⱼ arrives as a binary32 value in an f64 parameter (the demotion of the splat is exact).
      ...op.get(xj), ...v.splat, ...op.set(xv),
      ...stepLoop(i, n, [a, { pointer: pt, storage: wasmStorageNamed(lanes)! }], step),
    ];
    return encodeModule([l.function('update', [], body)], 1);
  }).update as UpdateChunk;
}

/**
 * Solves T·x = b in place in fp64 arithmetic, or fp32 with `lanes` 'f32' (the caller checked storages and layout;
 * n ≥ 1); `stored`, where x is the twin of a stored x, stores each solved xᵢ (./trsv-stored-x-wasm.ts).
 */
export function wasmTrsv(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32' = 'f64', stored?: StoredX): void {
  if (T.strides[0] === 1) solveByColumns(T, x, n, lower, unit, lanes, stored);
  else solveByRows(T, x, n, lower, unit, lanes, stored);
}

/** Row-oriented substitution (op(A) has unit stride along its rows). */
function solveByRows(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32', stored?: StoredX): void {
  const sa = wasmStorageOf(T) as WasmStorage;
  const f = dotChunk(sa, !!T.scale, wasmStorageNamed(lanes)!, false, lanes);
  const scale = scaleOf(T), round = lanes === 'f64' ? Number : Math.fround;
  const Values = lanes === 'f64' ? Float64Array : Float32Array, bytes = Values.BYTES_PER_ELEMENT;
  // The solved x's at X_AT (zeros elsewhere: staged rows are padded with zeros, and 0·0 must stay 0); row chunks at A_AT.
  const X_AT = 128, A_AT = (X_AT + n * bytes + 128 + 15) & ~15;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const solved = new Values(buffer, X_AT, n + 16).fill(0);
  const acc = new Values(buffer, 0, 8);
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number, ld = T.strides[0] as number;
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    const [from, count] = lower ? [0, i] : [i + 1, n - 1 - i];
    acc.fill(0);
    rowPieces(T, sa, T.offset + i * ld + from, count, A_AT, buffer, (at, offset, padded) => f(at, scale, X_AT + (from + offset) * bytes, 1, padded));
    const sum = acc instanceof Float64Array ? laneSum(acc) : laneSumF32(acc);
    const xp = x.offset + i * xs;
    // 0 + bᵢ first, as the JavaScript's accumulator starts (−0 becomes +0); fp32 reads bᵢ rounded.
    let q = round(round(0 + round(xd[xp]!)) - sum);
    if (!unit) q = round(q / diagonalAt(T, T.offset + i * ld + i, scale, lanes));
    xd[xp] = stored ? stored(i, q) : q;
    solved[i] = round(xd[xp]!);
  }
}

/** Column-oriented substitution (op(A) has unit stride along its columns). */
function solveByColumns(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32', stored?: StoredX): void {
  const sa = wasmStorageOf(T) as WasmStorage;
  const f = updateChunk(sa, !!T.scale, lanes);
  const scale = scaleOf(T), round = lanes === 'f64' ? Number : Math.fround;
  const Values = lanes === 'f64' ? Float64Array : Float32Array;
  const T_AT = 64, A_AT = T_AT + n * 8 + 128;
  reserveBytes(A_AT + n * sa.bytes + 128);
  const t = new Values(wasmMemory().buffer as ArrayBuffer, T_AT, n + 16);
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number;
  // 0 + bᵢ, as the JavaScript's partial sums start (−0 becomes +0); fp32 reads bᵢ rounded.
  for (let i = 0, p = x.offset; i < n; i++, p += xs) t[i] = 0 + round(xd[p]!);
  sweepColumns(T, x, n, lower, unit, lanes, A_AT, (j) => t[j]!, (from, at, padded, xj) => f(T_AT + from * Values.BYTES_PER_ELEMENT, at, scale, padded, xj), stored);
}
