/**
 * Where the WebAssembly GEMV loops find op(A)'s data: in place when A lives in the WebAssembly memory (a wasmArena
 * range), else staged segment by segment. Whole steps of 8 elements only are read in place, so that the loops'
 * padding never reads a neighbour's elements into a result; the rest goes through staging as before — the same
 * chunks and lane order, so the same bits.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { CHUNK, stageVector, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { wasmAddressOf } from '../../src/backends/wasm/wasm-arena.js';

/** A run of `count` contiguous elements of A from storage position `offset`, as a 1-D accessor (for staging). */
function segment(opA: Accessor<2, any>, offset: number): Accessor<1, any> {
  return { data: opA.data, storage: opA.storage, offset, strides: [1] } as unknown as Accessor<1, any>;
}

/**
 * The address of the column segment of `rows` elements at storage position `offset` (op(A) columns contiguous):
 * in place where A is in the WebAssembly memory and `rows` is a multiple of 8, else staged at `at` (zero-padded to
 * `padded`).
 */
export function columnSegmentAt(opA: Accessor<2, any>, sa: WasmStorage, offset: number, rows: number, padded: number, at: number, buffer: ArrayBuffer): number {
  const address = rows === padded ? wasmAddressOf(opA.data, offset, sa.bytes) : -1;
  if (address >= 0) return address;
  stageVector(segment(opA, offset), 0, rows, at, padded, buffer);
  return at;
}

/**
 * Row i of op(A) (rows contiguous, starting at storage position `offset`), n elements, chunk by chunk of
 * {@link CHUNK}: `run(address, from, padded)` for each piece — in place where A is in the WebAssembly memory
 * (whole steps of 8), the rest staged at `at` and zero-padded to a multiple of 8.
 */
export function rowPieces(opA: Accessor<2, any>, sa: WasmStorage, offset: number, n: number, at: number, buffer: ArrayBuffer, run: (address: number, from: number, padded: number) => void): void {
  const row = segment(opA, offset);
  const inPlace = wasmAddressOf(opA.data, offset, sa.bytes) >= 0;
  for (let from = 0; from < n; from += CHUNK) {
    const count = Math.min(CHUNK, n - from);
    const body = inPlace ? count & ~7 : 0;
    if (body > 0) run(wasmAddressOf(opA.data, offset + from, sa.bytes), from, body);
    if (body === count) continue;
    const rest = count - body, padded = (rest + 7) & ~7;
    stageVector(row, from + body, rest, at, padded, buffer);
    run(at, from + body, padded);
  }
}
