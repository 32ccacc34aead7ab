/**
 * TRSV with the compensated `kahan` accumulation (Neumaier) in WebAssembly SIMD, fp64 or fp32 arithmetic, in the
 * loop order that reads op(A) contiguously:
 * - contiguous columns: each row's compensated sum (sᵢ, cᵢ) starts as the JavaScript's does (bᵢ added to an empty
 *   sum by TwoSum) and takes −tᵢⱼ·xⱼ column by column in the row order by the compensated GEMV's column step
 *   (kernels/gemv/gemv-kahan-wasm.ts, one column, the product as fl(tᵢⱼ·(−xⱼ)) = −fl(tᵢⱼ·xⱼ)); xⱼ := (sⱼ + cⱼ) / tⱼⱼ,
 *   stored and read back. The JavaScript row loop adds each row's terms in the same column order with the same
 *   operations: the same bits.
 * - contiguous rows: each row the compensated WebAssembly DOT (kernels/dot/dot-kahan-wasm.ts) against the solved x's
 *   staged negated, lane 0 starting from bᵢ as above: Sum2 over bᵢ and the n − 1 products in another tree, within
 *   the same bound (src/backends/wasm/wasm-neumaier-step.ts says why). A non-finite solution leaves x untouched and
 *   sends the call to the JavaScript kernel, whose answer it then is.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { diagonalAt, sweepColumns } from './trsv-wasm-sweeps.js';
import { rowPieces } from '../gemv/gemv-in-place.js';
import { joinNeumaierLanes } from '../../src/backends/wasm/wasm-neumaier-step.js';
import { kahanDotChunk } from '../dot/dot-kahan-wasm.js';
import { kahanColumnsChunk } from '../gemv/gemv-kahan-wasm.js';
import type { StoredX } from './trsv-stored-x-wasm.js';

/**
 * Solves T·x = b in place with the kahan accumulation in fp64 or fp32 arithmetic (the caller checked storages and
 * layout; n ≥ 1); false, with x untouched, where the row-oriented solve is not finite (the JavaScript kernel answers).
 * `stored`, where x is the twin of a stored x, stores each solved xᵢ (./trsv-stored-x-wasm.ts).
 */
export function wasmKahanTrsv(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32', stored?: StoredX): boolean {
  if (T.strides[0] === 1) { solveByColumns(T, x, n, lower, unit, lanes, stored); return true; }
  return solveByRows(T, x, n, lower, unit, lanes, stored);
}

/** (s, c) of an empty compensated sum after adding b: the JavaScript template's TwoSum(0, b), then c := 0 + e. */
function startFrom(b: number, round: (v: number) => number): [number, number] {
  const s = round(0 + b), z = round(s - 0);
  const e = round(round(0 - round(s - z)) + round(b - z));
  return [s, round(0 + e)];
}

/** Column-oriented substitution over the rows' (s, c) (op(A) has unit stride along its columns). */
function solveByColumns(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32', stored?: StoredX): void {
  const sa = wasmStorageOf(T) as WasmStorage;
  const f = kahanColumnsChunk(sa, !!T.scale, lanes);
  const scale = scaleOf(T), round = lanes === 'f64' ? Number : Math.fround;
  const Values = lanes === 'f64' ? Float64Array : Float32Array, bytes = Values.BYTES_PER_ELEMENT;
  // s and c with 16 values of slack (the last step's padding rows), then the staged column.
  const S_AT = 64, C_AT = S_AT + n * 8 + 128, A_AT = C_AT + n * 8 + 128;
  reserveBytes(A_AT + n * sa.bytes + 128);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const s = new Values(buffer, S_AT, n + 16), c = new Values(buffer, C_AT, n + 16);
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number;
  for (let i = 0, p = x.offset; i < n; i++, p += xs) [s[i], c[i]] = startFrom(round(xd[p]!), round);
  sweepColumns(T, x, n, lower, unit, lanes, A_AT, (j) => round(s[j]! + c[j]!),
    (from, at, padded, xj) => f(S_AT + from * bytes, C_AT + from * bytes, padded, at, at, at, at, scale, -xj, 0, 0, 0, 1), stored);
}

/** Row-oriented substitution (op(A) has unit stride along its rows); false where a solution is not finite. */
function solveByRows(T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, lanes: 'f64' | 'f32', stored?: StoredX): boolean {
  const sa = wasmStorageOf(T) as WasmStorage;
  const f = kahanDotChunk(sa, !!T.scale, wasmStorageNamed(lanes)!, false, lanes);
  const scale = scaleOf(T), round = lanes === 'f64' ? Number : Math.fround;
  const Values = lanes === 'f64' ? Float64Array : Float32Array, bytes = Values.BYTES_PER_ELEMENT;
  // The lanes' (s, c) at bytes 0–127 (kahanDotChunk's layout), the negated solved x's at X_AT (zeros elsewhere), row chunks at A_AT.
  const X_AT = 128, A_AT = (X_AT + n * bytes + 128 + 15) & ~15;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const negated = new Values(buffer, X_AT, n + 16).fill(0);
  const sums = new Values(buffer, 0, 128 / bytes), cAt = 64 / bytes;
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number, ld = T.strides[0] as number;
  // Solutions as stored (x's storage rounding), written to x only when all are finite.
  const solution = new Float64Array(n), store = xd instanceof Float32Array ? Math.fround : Number;
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    const [from, count] = lower ? [0, i] : [i + 1, n - 1 - i];
    sums.fill(0);
    [sums[0], sums[cAt]] = startFrom(round(xd[x.offset + i * xs]!), round);
    rowPieces(T, sa, T.offset + i * ld + from, count, A_AT, buffer, (at, offset, padded) => f(at, scale, X_AT + (from + offset) * bytes, 1, padded));
    let q = joinNeumaierLanes(sums, lanes, cAt);
    if (!unit) q = round(q / diagonalAt(T, T.offset + i * ld + i, scale, lanes));
    const kept = stored ? stored(i, q) : store(q);
    // q too: an integer storage keeps a finite value of a NaN.
    if (!Number.isFinite(q) || !Number.isFinite(kept)) return false;
    solution[i] = kept;
    negated[i] = -round(kept);
  }
  for (let i = 0, p = x.offset; i < n; i++, p += xs) xd[p] = solution[i]!;
  return true;
}
