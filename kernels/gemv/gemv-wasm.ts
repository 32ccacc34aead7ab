/**
 * GEMV in WebAssembly SIMD (f64 arithmetic, recursive accumulation, built-in storage with at most one scale for
 * A and for x, y unscaled f64 or f32), in the loop order that reads op(A) contiguously:
 * - columns contiguous (column-major A, trans 'N'): column-oriented, as the JavaScript `axpy` loop — for each
 *   column j, tᵢ := aᵢⱼ·xⱼ + tᵢ over a block of rows in SIMD lanes, four columns per pass over t. Each tᵢ sees
 *   its products in column order, one rounding each, as in the JavaScript kernels: the same bits.
 * - rows contiguous (row-major A, trans 'N'): each row a WebAssembly DOT against x decoded once to doubles —
 *   eight interleaved partial sums per row (kernels/dot/dot-wasm.ts), covered by the same γ_n bound.
 * α and β are combined with each row's sum on the JavaScript side, with the roundings of
 * kernels/gemv/coefficients.ts.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, numberAt, scaleOf, wasmStorageNamed, wasmStorageOf, type WasmStorage, laneSum } from '../../src/backends/wasm/wasm-storage.js';
import { dotChunk } from '../dot/dot-wasm.js';
import { columnSegmentAt, rowPieces } from './gemv-in-place.js';
import type { Refusal } from '../../src/backends/backend.js';
import { findFormat } from '../../src/formats/common/registry.js';

/** Columns added per pass over the partial sums. */
export const COLUMNS = 4;
/** Rows per block of the column-oriented loop (its partial sums stay in the L1/L2 cache). */
export const ROWS = CHUNK;

/** Why this op(A) has no WebAssembly loop (neither stride is 1), or undefined. */
export function wasmGemvRefusal(opA: Accessor<2, any>): Refusal | undefined {
  if (opA.strides[0] === 1 || opA.strides[1] === 1) return undefined;
  return { code: 'INVALID_OPTION', parameter: 'A', reason: 'WebAssembly reads a matrix whose rows or columns are contiguous (a unit stride) only' };
}

type ColumnsChunk = (pt: number, rows: number, pa0: number, pa1: number, pa2: number, pa3: number, scale: number, x0: number, x1: number, x2: number, x3: number, columns: number) => void;

/** t[0 … rows) := ((t + a₀·x₀) + a₁·x₁) + … for `columns` (1 to 4) staged column segments. */
function columnsChunk(sa: WasmStorage, scaled: boolean): ColumnsChunk {
  return wasmExports(`gemv-columns ${sa.name}${scaled ? '*s' : ''}`, 'the GEMV kernel', () => {
    const l = new WasmLocals();
    const pt = l.param(I32), rows = l.param(I32);
    const pa = [l.param(I32), l.param(I32), l.param(I32), l.param(I32)];
    const scale = l.param(F64);
    const xs = [l.param(F64), l.param(F64), l.param(F64), l.param(F64)];
    const columns = l.param(I32);
    const i = l.local(I32), t = l.local(V128);
    const xv = l.locals_(V128, COLUMNS);
    const operands = pa.map((p) => operandLocals(l, { storage: sa, pointer: p, scaleParam: scale }, scaled));
    // One loop per column count (1 … 4), chosen once per call.
    const loopFor = (c: number): number[] => stepLoop(i, rows, [...operands.slice(0, c), { pointer: pt, storage: wasmStorageNamed('f64')! }],
      [0, 1, 2, 3].flatMap((k) => [
        ...op.get(pt), ...op.get(pt), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(t),
        ...Array.from({ length: c }, (_, col) => [
          ...load2(operands[col]!, k), ...op.get(xv + col), ...op.simd(SIMD.f64x2Mul), ...op.get(t), ...op.simd(SIMD.f64x2Add), ...op.set(t),
        ]).flat(),
        ...op.get(t), ...op.simdMem(SIMD.store, 0, 16 * k),
      ]));
    const body = [
      ...operands.flatMap((o) => operandSetup(o)),
      ...xs.flatMap((x, k) => [...op.get(x), ...op.simd(SIMD.f64x2Splat), ...op.set(xv + k)]),
      ...[1, 2, 3].flatMap((c) => [...op.get(columns), ...op.i32(c), 0x46 /* i32.eq */, ...op.if(), ...loopFor(c), ...op.br(1), ...op.end()]),
      ...loopFor(4),
    ];
    return encodeModule([l.function('columns', [], wrapInBlock(body))], 1);
  }).columns as ColumnsChunk;
}

/** The body inside one block, so that `br 1` from an `if` leaves the function's work. */
function wrapInBlock(body: number[]): number[] {
  return [...op.block(), ...body, ...op.end()];
}

/** y := α·op(A)·x + β·y for α ≠ 0 (the caller checked storages, layout and the quick returns). */
export function wasmGemv(alpha: number, opA: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, m: number, n: number): void {
  const sums = opA.strides[0] === 1 ? columnSums(opA, x, m, n) : rowSums(opA, x, m, n);
  combineSums(alpha, sums, beta, y, m);
}

/** The values of x as the kernels read them (decoded, times the scale when there is one). */
export function xValues(x: Accessor<1, any>, n: number, into: Float64Array = new Float64Array(n)): Float64Array {
  const s = scaleOf(x), stride = x.strides[0] as number, data = x.data as Float64Array | Float32Array;
  const name = x.scale ? '' : x.storage.name;
  // fp64 and fp32 elements are their values: read the typed array without the decoder (the common case).
  if ((name === 'f64' || name === 'f32') && findFormat(name)?.storage === x.storage) {
    if (stride === 1 && name === 'f64') into.set((data as Float64Array).subarray(x.offset, x.offset + n));
    else for (let j = 0, p = x.offset; j < n; j++, p += stride) into[j] = data[p]!;
  } else for (let j = 0, p = x.offset; j < n; j++, p += stride) into[j] = x.scale ? numberAt(x, p) * s : numberAt(x, p);
  return into;
}

/** Column-oriented sums over row blocks (op(A) has unit stride along its columns). */
function columnSums(opA: Accessor<2, any>, x: Accessor<1, any>, m: number, n: number): Float64Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const f = columnsChunk(sa, !!opA.scale);
  const xv = xValues(x, n);
  const out = new Float64Array(m);
  const T_AT = 64, A_AT = T_AT + ROWS * 8 + 64;
  const segment = ROWS * sa.bytes + 64;
  reserveBytes(A_AT + COLUMNS * segment);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const t = new Float64Array(buffer, T_AT, ROWS);
  const ld = opA.strides[1] as number;
  for (let r0 = 0; r0 < m; r0 += ROWS) {
    const rows = Math.min(ROWS, m - r0), padded = (rows + 7) & ~7;
    t.fill(0, 0, padded);
    for (let j = 0; j < n; j += COLUMNS) {
      const c = Math.min(COLUMNS, n - j);
      const pa = [0, 1, 2, 3].map((k) => (k < c ? columnSegmentAt(opA, sa, opA.offset + r0 + (j + k) * ld, rows, padded, A_AT + k * segment, buffer) : A_AT));
      f(T_AT, padded, pa[0]!, pa[1]!, pa[2]!, pa[3]!, scaleOf(opA), xv[j]!, xv[j + 1] ?? 0, xv[j + 2] ?? 0, xv[j + 3] ?? 0, c);
    }
    out.set(t.subarray(0, rows), r0);
  }
  return out;
}

/** One WebAssembly DOT per row (op(A) has unit stride along its rows), x decoded to doubles once. */
function rowSums(opA: Accessor<2, any>, x: Accessor<1, any>, m: number, n: number): Float64Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const f = dotChunk(sa, !!opA.scale, wasmStorageNamed('f64')!, false);
  const xv = xValues(x, n);
  const out = new Float64Array(m);
  const X_AT = 64 + 64, A_AT = X_AT + n * 8 + 64;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  new Float64Array(buffer, X_AT, n).set(xv);
  // The last chunk of a row is padded with zeros; the doubles after x must be zeros too (0·NaN would be NaN).
  new Float64Array(buffer, X_AT + n * 8, 8).fill(0);
  const acc = new Float64Array(buffer, 0, 8);
  const row = opA.strides[0] as number;
  for (let i = 0; i < m; i++) {
    acc.fill(0);
    rowPieces(opA, sa, opA.offset + i * row, n, A_AT, buffer, (pa, from, padded) => f(pa, scaleOf(opA), X_AT + from * 8, 1, padded));
    out[i] = laneSum(acc);
  }
  return out;
}

/** Row i of op(A) as a 1-D accessor (for staging). */
export function rowAccessor(opA: Accessor<2, any>, i: number, rowStride: number, offset = opA.offset + i * rowStride): Accessor<1, any> {
  return { data: opA.data, storage: opA.storage, offset, strides: [1] } as unknown as Accessor<1, any>;
}

/** yᵢ := α·tᵢ + β·yᵢ with the roundings of emitCombine (kernels/gemv/coefficients.ts), y f64 or f32 unscaled. */
export function combineSums(alpha: number, t: Float64Array, beta: number, y: Accessor<1, any>, m: number): void {
  const data = y.data as Float64Array | Float32Array;
  const stride = y.strides[0] as number;
  // y := t (α = 1, β = 0) into unit-stride fp64 or fp32: one copy (an fp32 view rounds to nearest even, as a store does).
  if (alpha === 1 && beta === 0 && stride === 1) { data.set(t.subarray(0, m), y.offset); return; }
  for (let i = 0, p = y.offset; i < m; i++, p += stride) {
    const ti = t[i]!;
    let r: number;
    if (beta === 0) r = alpha === 1 ? ti : alpha * ti;
    else {
      const by = beta === 1 ? data[p]! : beta * data[p]!;
      r = alpha === 1 ? ti + by : alpha * ti + by;
    }
    data[p] = r;
  }
}
