/**
 * GEMV in WebAssembly SIMD, recursive accumulation, in fp64 arithmetic (f64x2 lanes) or fp32 (f32x4 lanes, every
 * read and operation one binary32 rounding, as the JavaScript f32 arithmetic's Math.fround) — one generated module
 * per arithmetic, {@link LANES} saying which. Built-in storage with at most one scale for A and for x, y unscaled
 * f64 or f32, in the loop order that reads op(A) contiguously:
 * - columns contiguous (column-major A, trans 'N'): column-oriented, as the JavaScript `axpy` loop — for each
 *   column j, tᵢ := aᵢⱼ·xⱼ + tᵢ over a block of rows in SIMD lanes, four columns per pass over t. Each tᵢ sees
 *   its products in column order, one rounding each, as in the JavaScript kernels: the same bits.
 * - rows contiguous (row-major A, trans 'N'): each row a WebAssembly DOT against x read once into the arithmetic
 *   (kernels/gemv/gemv-wasm-values.ts) — eight interleaved partial sums per row (kernels/dot/dot-wasm.ts), covered
 *   by the same γ_n bound (the recursive bound holds for any order).
 * α and β are combined with each row's sum on the JavaScript side, with the roundings of
 * kernels/gemv/coefficients.ts.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, laneSum, laneSumF32, scaleOf, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { dotChunk } from '../dot/dot-wasm.js';
import { columnSegmentAt, rowPieces } from './gemv-in-place.js';
import type { Refusal } from '../../src/backends/backend.js';
import { combineSums, combineSumsF32, xValues, xValuesF32 } from './gemv-wasm-values.js';
import { rowsChunk } from './gemv-rows-wasm.js';
import { wasmAddressOf } from '../../src/backends/wasm/wasm-arena.js';

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

/** t[0 … rows) := ((t + a₀·x₀) + a₁·x₁) + … for `columns` (1 to 4) staged column segments, in the lanes' arithmetic. */
function columnsChunk(sa: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32'): ColumnsChunk {
  return wasmExports(`gemv-columns${lanes === 'f32' ? '-f32' : ''} ${sa.name}${scaled ? '*s' : ''}`, 'the GEMV kernel', () => {
    const v = LANES[lanes], ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const pt = l.param(I32), rows = l.param(I32);
    const pa = [l.param(I32), l.param(I32), l.param(I32), l.param(I32)];
    const scale = l.param(F64);
    const xs = [l.param(F64), l.param(F64), l.param(F64), l.param(F64)];
    const columns = l.param(I32);
    const i = l.local(I32), t = l.local(V128);
    const xv = l.locals_(V128, COLUMNS);
    const operands = pa.map((p) => operandLocals(l, { storage: sa, pointer: p, scaleParam: scale }, scaled, lanes));
    // One loop per column count (1 … 4), chosen once per call.
    const loopFor = (c: number): number[] => stepLoop(i, rows, [...operands.slice(0, c), { pointer: pt, storage: wasmStorageNamed(lanes)! }],
      ks.flatMap((k) => [
        ...op.get(pt), ...op.get(pt), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(t),
        ...Array.from({ length: c }, (_, col) => [
          ...v.load(operands[col]!, k), ...op.get(xv + col), ...op.simd(v.mul), ...op.get(t), ...op.simd(v.add), ...op.set(t),
        ]).flat(),
        ...op.get(t), ...op.simdMem(SIMD.store, 0, 16 * k),
      ]));
    const body = [
      ...op.block(),
      ...operands.flatMap((o) => operandSetup(o, lanes)),
      // fp32: xⱼ arrive as binary32 values in f64 parameters (the demotion of the splat is exact).
      ...xs.flatMap((x, k) => [...op.get(x), ...v.splat, ...op.set(xv + k)]),
      ...[1, 2, 3].flatMap((c) => [...op.get(columns), ...op.i32(c), 0x46 /* i32.eq */, ...op.if(), ...loopFor(c), ...op.br(1), ...op.end()]),
      ...loopFor(4),
      ...op.end(),
    ];
    return encodeModule([l.function('columns', [], body)], 1);
  }).columns as ColumnsChunk;
}

/**
 * y := α·op(A)·x + β·y for α ≠ 0 in fp64 arithmetic, or fp32 with `lanes` 'f32' (the caller checked storages —
 * for fp32 that they have a binary32 read —, layout and the quick returns).
 */
export function wasmGemv(alpha: number, opA: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, m: number, n: number, lanes: 'f64' | 'f32' = 'f64'): void {
  const xv = lanes === 'f64' ? xValues(x, n) : xValuesF32(x, n);
  const sums = opA.strides[0] === 1 ? columnSums(opA, xv, m, n, lanes) : rowSums(opA, xv, m, n, lanes);
  if (lanes === 'f64') combineSums(alpha, sums as Float64Array, beta, y, m);
  else combineSumsF32(alpha, sums, beta, y, m);
}

/** Column-oriented sums over row blocks (op(A) has unit stride along its columns), in the lanes' format. */
function columnSums(opA: Accessor<2, any>, xv: Float64Array | Float32Array, m: number, n: number, lanes: 'f64' | 'f32'): Float64Array | Float32Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const f = columnsChunk(sa, !!opA.scale, lanes);
  const Sums = lanes === 'f64' ? Float64Array : Float32Array;
  const out = new Sums(m);
  const T_AT = 64, A_AT = T_AT + ROWS * 8 + 64;
  const segment = ROWS * sa.bytes + 64;
  reserveBytes(A_AT + COLUMNS * segment);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const t = new Sums(buffer, T_AT, ROWS);
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

/** One WebAssembly DOT per row (op(A) has unit stride along its rows), x staged once in the lanes' format. */
function rowSums(opA: Accessor<2, any>, xv: Float64Array | Float32Array, m: number, n: number, lanes: 'f64' | 'f32'): Float64Array | Float32Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const f = dotChunk(sa, !!opA.scale, wasmStorageNamed(lanes)!, false, lanes);
  const Sums = lanes === 'f64' ? Float64Array : Float32Array, bytes = Sums.BYTES_PER_ELEMENT;
  const out = new Sums(m);
  // The eight partial sums at bytes 0–63, x from X_AT, the staged row on a 16-byte boundary after it.
  const X_AT = 128, A_AT = (X_AT + n * bytes + 64 + 15) & ~15;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  new Sums(buffer, X_AT, n).set(xv);
  // The last chunk of a row is padded with zeros; the values after x must be zeros too (0·NaN would be NaN).
  new Sums(buffer, X_AT + n * bytes, 8).fill(0);
  const row = opA.strides[0] as number;
  // A in the WebAssembly memory with rows of whole steps: many rows per call (kernels/gemv/gemv-rows-wasm.ts), the
  // sums written after x — as many rows per call as the staged row's bytes would take.
  if (n % 8 === 0 && wasmAddressOf(opA.data, opA.offset, sa.bytes) >= 0) {
    const many = rowsChunk(sa, !!opA.scale, lanes);
    const perCall = Math.max(1, Math.floor((CHUNK * sa.bytes) / bytes));
    const sums = new Sums(buffer, A_AT, Math.min(perCall, m));
    for (let r0 = 0; r0 < m; r0 += perCall) {
      const rows = Math.min(perCall, m - r0);
      many(wasmAddressOf(opA.data, opA.offset + r0 * row, sa.bytes), row * sa.bytes, scaleOf(opA), X_AT, n, rows, A_AT);
      out.set(sums.subarray(0, rows), r0);
    }
    return out;
  }
  if (lanes === 'f64') {
    const acc = new Float64Array(buffer, 0, 8);
    for (let i = 0; i < m; i++) {
      acc.fill(0);
      rowDot(opA, sa, opA.offset + i * row, n, f, X_AT, A_AT, bytes, buffer);
      out[i] = laneSum(acc);
    }
  } else {
    const acc = new Float32Array(buffer, 0, 8);
    for (let i = 0; i < m; i++) {
      acc.fill(0);
      rowDot(opA, sa, opA.offset + i * row, n, f, X_AT, A_AT, bytes, buffer);
      out[i] = laneSumF32(acc);
    }
  }
  return out;
}

/**
 * Adds the row of op(A) at storage position `offset` times the staged x into the eight partial sums, chunk by chunk:
 * in place where A lives in the WebAssembly memory (whole steps of 8), the rest staged (kernels/gemv/gemv-in-place.ts).
 */
function rowDot(opA: Accessor<2, any>, sa: WasmStorage, offset: number, n: number, f: ReturnType<typeof dotChunk>, xAt: number, aAt: number, bytes: number, buffer: ArrayBuffer): void {
  const scale = scaleOf(opA);
  rowPieces(opA, sa, offset, n, aAt, buffer, (pa, from, padded) => f(pa, scale, xAt + from * bytes, 1, padded));
}

/** Row i of op(A) as a 1-D accessor (for staging). */
export function rowAccessor(opA: Accessor<2, any>, i: number, rowStride: number, offset = opA.offset + i * rowStride): Accessor<1, any> {
  return { data: opA.data, storage: opA.storage, offset, strides: [1] } as unknown as Accessor<1, any>;
}
