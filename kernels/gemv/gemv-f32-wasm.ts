/**
 * GEMV in WebAssembly SIMD in fp32 arithmetic (recursive accumulation, built-in storage with at most one scale for
 * A and for x, y unscaled f64 or f32), in the loop order that reads op(A) contiguously, with the roundings of the
 * JavaScript f32 arithmetic (every operation one binary32 rounding, Math.fround; reads as kernels/dot/dot-wasm.ts's
 * fp32 lanes read them):
 * - columns contiguous (column-major A, trans 'N'): for each column j, tᵢ := tᵢ + aᵢⱼ·xⱼ over eight rows per step in
 *   two f32x4 — each tᵢ sees its products in column order, as the JavaScript loops: the same bits;
 * - rows contiguous (row-major A, trans 'N'): each row the fp32 WebAssembly DOT (eight lanes, the fixed tree) against
 *   x read once into binary32, within the same γ_n bound (the recursive bound holds for any order).
 * α and β are combined as the JavaScript f32 template does (kernels/gemv/coefficients.ts emitCombine).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, load4, operandLocals, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, laneSumF32, scaleOf, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { dotChunk } from '../dot/dot-wasm.js';
import { columnSegmentAt, rowPieces } from './gemv-in-place.js';
import { COLUMNS, ROWS } from './gemv-wasm.js';
import { roundToOddDd } from '../../src/formats/convert/round-to-odd.js';

const f = Math.fround;

type ColumnsChunk = (pt: number, rows: number, pa0: number, pa1: number, pa2: number, pa3: number, scale: number, x0: number, x1: number, x2: number, x3: number, columns: number) => void;

/** t[0 … rows) (binary32) := ((t + a₀·x₀) + a₁·x₁) + … for `columns` (1 to 4) staged column segments, in binary32. */
function columnsChunkF32(sa: WasmStorage, scaled: boolean): ColumnsChunk {
  return wasmExports(`gemv-columns-f32 ${sa.name}${scaled ? '*s' : ''}`, 'the fp32 GEMV kernel', () => {
    const l = new WasmLocals();
    const pt = l.param(I32), rows = l.param(I32);
    const pa = [l.param(I32), l.param(I32), l.param(I32), l.param(I32)];
    const scale = l.param(F64);
    const xs = [l.param(F64), l.param(F64), l.param(F64), l.param(F64)];
    const columns = l.param(I32);
    const i = l.local(I32), t = l.local(V128);
    const xv = l.locals_(V128, COLUMNS);
    const operands = pa.map((p) => operandLocals(l, { storage: sa, pointer: p, scaleParam: scale }, scaled, 'f32'));
    const loopFor = (c: number): number[] => stepLoop(i, rows, [...operands.slice(0, c), { pointer: pt, storage: wasmStorageNamed('f32')! }],
      [0, 1].flatMap((k) => [
        ...op.get(pt), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(t),
        ...Array.from({ length: c }, (_, col) => [
          ...op.get(t), ...load4(operands[col]!, k), ...op.get(xv + col), ...op.simd(SIMD.f32x4Mul), ...op.simd(SIMD.f32x4Add), ...op.set(t),
        ]).flat(),
        ...op.get(pt), ...op.get(t), ...op.simdMem(SIMD.store, 0, 16 * k),
      ]));
    const body = [
      ...op.block(),
      ...operands.flatMap((o) => operandSetup(o, 'f32')),
      // xⱼ arrive as binary32 values in f64 parameters: the demotion is exact.
      ...xs.flatMap((x, k) => [...op.get(x), ...LANES.f32.splat, ...op.set(xv + k)]),
      ...[1, 2, 3].flatMap((c) => [...op.get(columns), ...op.i32(c), 0x46 /* i32.eq */, ...op.if(), ...loopFor(c), ...op.br(1), ...op.end()]),
      ...loopFor(4),
      ...op.end(),
    ];
    return encodeModule([l.function('columns', [], body)], 1);
  }).columns as ColumnsChunk;
}

/**
 * The values of x as the JavaScript f32 arithmetic reads them: each element rounded to binary32 once (a
 * double-double through round-to-odd, as f32-arithmetic.ts), times the binary32 scale, rounded.
 */
export function xValuesF32(x: Accessor<1, any>, n: number): Float32Array {
  const scaled = !!x.scale, s = f(scaleOf(x)), stride = x.strides[0] as number;
  const out = new Float32Array(n);
  for (let j = 0, p = x.offset; j < n; j++, p += stride) {
    const raw = x.storage.decode(x.data as never, p) as number | { hi: number; lo: number };
    const v = typeof raw === 'number' ? f(raw) : f(roundToOddDd(raw.hi, raw.lo));
    out[j] = scaled ? f(v * s) : v;
  }
  return out;
}

/** y := α·op(A)·x + β·y for α ≠ 0 in fp32 arithmetic (the caller checked storages, layout and the quick returns). */
export function wasmGemvF32(alpha: number, opA: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, m: number, n: number): void {
  const xv = xValuesF32(x, n);
  const sums = opA.strides[0] === 1 ? columnSums(opA, xv, m, n) : rowSums(opA, xv, m, n);
  combineSumsF32(alpha, sums, beta, y, m);
}

/** Column-oriented sums over row blocks (op(A) has unit stride along its columns). */
function columnSums(opA: Accessor<2, any>, xv: Float32Array, m: number, n: number): Float32Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const fn = columnsChunkF32(sa, !!opA.scale);
  const out = new Float32Array(m);
  const T_AT = 64, A_AT = T_AT + ROWS * 4 + 64;
  const segment = ROWS * sa.bytes + 64;
  reserveBytes(A_AT + COLUMNS * segment);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const t = new Float32Array(buffer, T_AT, ROWS);
  const ld = opA.strides[1] as number;
  for (let r0 = 0; r0 < m; r0 += ROWS) {
    const rows = Math.min(ROWS, m - r0), padded = (rows + 7) & ~7;
    t.fill(0, 0, padded);
    for (let j = 0; j < n; j += COLUMNS) {
      const c = Math.min(COLUMNS, n - j);
      const pa = [0, 1, 2, 3].map((k) => (k < c ? columnSegmentAt(opA, sa, opA.offset + r0 + (j + k) * ld, rows, padded, A_AT + k * segment, buffer) : A_AT));
      fn(T_AT, padded, pa[0]!, pa[1]!, pa[2]!, pa[3]!, scaleOf(opA), xv[j]!, xv[j + 1] ?? 0, xv[j + 2] ?? 0, xv[j + 3] ?? 0, c);
    }
    out.set(t.subarray(0, rows), r0);
  }
  return out;
}

/** One fp32 WebAssembly DOT per row (op(A) has unit stride along its rows), x staged once in binary32. */
function rowSums(opA: Accessor<2, any>, xv: Float32Array, m: number, n: number): Float32Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const fn = dotChunk(sa, !!opA.scale, wasmStorageNamed('f32')!, false, 'f32');
  const out = new Float32Array(m);
  const X_AT = 128, A_AT = (X_AT + n * 4 + 64 + 15) & ~15; // the staged row on a 16-byte boundary
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  new Float32Array(buffer, X_AT, n).set(xv);
  // The last chunk of a row is padded with zeros; the values after x must be zeros too (0·NaN would be NaN).
  new Float32Array(buffer, X_AT + n * 4, 8).fill(0);
  const acc = new Float32Array(buffer, 0, 8);
  const row = opA.strides[0] as number;
  for (let i = 0; i < m; i++) {
    acc.fill(0);
    rowPieces(opA, sa, opA.offset + i * row, n, A_AT, buffer, (pa, from, padded) => fn(pa, scaleOf(opA), X_AT + from * 4, 1, padded));
    out[i] = laneSumF32(acc);
  }
  return out;
}

/**
 * yᵢ := α·tᵢ + β·yᵢ as the JavaScript f32 template (emitCombine): α and β rounded to binary32, y read rounded,
 * α·t, β·y and the sum one binary32 rounding each (none for a coefficient 1, no sum for β = 0); y f64 or f32.
 */
export function combineSumsF32(alpha: number, t: Float32Array | Float64Array, beta: number, y: Accessor<1, any>, m: number): void {
  const data = y.data as Float64Array | Float32Array;
  const stride = y.strides[0] as number;
  const a = f(alpha), b = f(beta);
  for (let i = 0, p = y.offset; i < m; i++, p += stride) {
    const ti = t[i]!;
    let r: number;
    if (beta === 0) r = alpha === 1 ? ti : f(a * ti);
    else {
      const by = beta === 1 ? f(data[p]!) : f(b * f(data[p]!));
      r = alpha === 1 ? f(ti + by) : f(f(a * ti) + by);
    }
    data[p] = r;
  }
}
