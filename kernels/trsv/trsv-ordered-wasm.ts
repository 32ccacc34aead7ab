/**
 * TRSV with the `pairwise` and `dot2` accumulations in WebAssembly, fp64 or fp32 arithmetic: row i's sum takes bᵢ
 * first, then the products −tᵢⱼ·xⱼ in the JavaScript kernel's column order (ascending j forward, descending j
 * backward: trsv-cpu.ts) through the ordered DOT chunks of kernels/shared/ordered-sum-wasm.ts, then xᵢ := s / tᵢᵢ —
 * the JavaScript's operations in its order, so its bits. The row's elements are staged in that order; the solved
 * x's beside them, negated (fl(tᵢⱼ·(−xⱼ)) is fl((−tᵢⱼ)·xⱼ), and so are Dot2's product errors: rounding to nearest
 * is symmetric), each as the later rows read it back from x's storage. The solution is written to x at the end;
 * a non-finite row sum leaves x untouched and sends the call to the JavaScript kernel (Dot2's JavaScript TwoProd
 * rescales where Dekker's splitting overflows).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, encodeModule, op } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals } from '../../src/backends/wasm/wasm-function.js';
import { OrderedSum, orderedReset, orderedResult, type OrderedAccumulation } from '../../src/backends/wasm/wasm-ordered-sum.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, stageVector, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { X_AT, Y_AT, orderedChunk } from '../shared/ordered-sum-wasm.js';
import { diagonalAt } from './trsv-wasm-sweeps.js';
import type { StoredX } from './trsv-stored-x-wasm.js';

/** The compiled step adding one plain term (the accumulation's emitAdd) to the state in memory. */
function addTermFunction(accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32'): (term: number) => void {
  return wasmExports(`ordered-add-${accumulation}-${arithmetic}`, 'the TRSV kernel', () => {
    const l = new WasmLocals();
    const term = l.param(F64);
    const sum = new OrderedSum(l, accumulation, arithmetic);
    return encodeModule([l.function('add', [], [...sum.load(), ...sum.add(term), ...sum.store()])], 1);
  }).add as (term: number) => void;
}

/**
 * Solves T·x = b in place (the caller checked storages, layout and n ≥ 1; x f64 or f32 unscaled); false, with x
 * untouched, where a row sum is not finite. `stored`, where x is the twin of a stored x, stores each solved xᵢ
 * (./trsv-stored-x-wasm.ts).
 */
export function wasmOrderedTrsv(
  T: Accessor<2, any>, x: Accessor<1, any>, n: number, lower: boolean, unit: boolean, accumulation: OrderedAccumulation, arithmetic: 'f64' | 'f32', stored?: StoredX,
): boolean {
  const sa = wasmStorageOf(T) as WasmStorage;
  const f = orderedChunk('dot', accumulation, arithmetic, sa, !!T.scale, wasmStorageNamed('f64')!, false);
  const addTerm = addTermFunction(accumulation, arithmetic);
  const scale = scaleOf(T), round = arithmetic === 'f32' ? Math.fround : (v: number): number => v;
  reserveBytes(Y_AT + CHUNK * 8 + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const staged = new Float64Array(buffer, Y_AT, CHUNK);
  const xd = x.data as Float64Array | Float32Array, xs = x.strides[0] as number;
  const store = xd instanceof Float32Array ? Math.fround : (v: number): number => v;
  const [ld, cs] = T.strides as [number, number];
  // −xⱼ as later rows read it back: stored (rounded to x's storage), then read in the arithmetic.
  const negated = new Float64Array(n), solution = new Float64Array(n);
  // Row elements per chunk: the staging area before Y_AT holds CHUNK doubles.
  const piece = (CHUNK * 8) / Math.max(8, sa.bytes);
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    orderedReset(buffer);
    addTerm(round(xd[x.offset + i * xs]!));
    // The products in the JavaScript's column order: j = 0 … i−1 forward, j = n−1 … i+1 backward.
    for (let from = 0; from < step; from += piece) {
      const count = Math.min(piece, step - from), padded = (count + 7) & ~7;
      const first = lower ? from : n - 1 - from, by = lower ? 1 : -1;
      const row = { data: T.data, storage: T.storage, offset: T.offset + i * ld + first * cs, strides: [by * cs] } as unknown as Accessor<1, any>;
      stageVector(row, 0, count, X_AT, padded, buffer);
      for (let k = 0; k < count; k++) staged[k] = negated[first + by * k]!;
      staged.fill(0, count, padded);
      f(X_AT, scale, Y_AT, 1, padded, count);
    }
    const s = orderedResult(buffer, accumulation, arithmetic);
    if (!Number.isFinite(s)) return false;
    const q = unit ? s : round(s / diagonalAt(T, T.offset + i * ld + i * cs, scale, arithmetic));
    solution[i] = stored ? stored(i, q) : store(q);
    negated[i] = -round(solution[i]!);
  }
  for (let i = 0, p = x.offset; i < n; i++, p += xs) xd[p] = solution[i]!;
  return true;
}
