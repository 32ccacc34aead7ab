/**
 * GEMV with the compensated `kahan` accumulation (Neumaier) in WebAssembly SIMD, fp64 or fp32 arithmetic (f32x4 lanes,
 * x read and α, β combined as kernels/gemv/gemv-wasm-values.ts does), in the loop order
 * that reads op(A) contiguously (as kernels/gemv/gemv-wasm.ts):
 * - columns contiguous (column-major A, trans 'N'): each row's compensated sum (sᵢ, cᵢ) in SIMD lanes takes its
 *   products in column order by the JavaScript template's TwoSum (src/backends/wasm/wasm-neumaier-step.ts) — the
 *   JavaScript row loop's operations in its order: the same bits;
 * - rows contiguous (row-major A, trans 'N'): each row the compensated WebAssembly DOT (kernels/dot/dot-kahan-wasm.ts)
 *   against x decoded once, within the same bound (joinNeumaierLanes says why).
 * Each row's sᵢ + cᵢ is combined with α and β as the recursive WebAssembly GEMV does (`combineSums`). A non-finite
 * row sum leaves y untouched and sends the call to the JavaScript kernel, so special values are its.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, V128, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandSetup, stepLoop } from '../../src/backends/wasm/wasm-function.js';
import { joinNeumaierLanes, neumaierScratch, neumaierStep } from '../../src/backends/wasm/wasm-neumaier-step.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, scaleOf, wasmStorageNamed, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { columnSegmentAt, rowPieces } from './gemv-in-place.js';
import { kahanDotChunk } from '../dot/dot-kahan-wasm.js';
import { COLUMNS, ROWS } from './gemv-wasm.js';
import { combineSums, combineSumsF32, xValues, xValuesF32 } from './gemv-wasm-values.js';

export type KahanColumnsChunk = (ps: number, pc: number, rows: number, pa0: number, pa1: number, pa2: number, pa3: number, scale: number, x0: number, x1: number, x2: number, x3: number, columns: number) => void;

/** (s, c)[0 … rows) := the compensated sums with aᵢⱼ·xⱼ added for `columns` (1 to 4) staged column segments, in order. */
export function kahanColumnsChunk(sa: WasmStorage, scaled: boolean, lanes: 'f64' | 'f32'): KahanColumnsChunk {
  return wasmExports(`gemv-kahan-columns-${lanes} ${sa.name}${scaled ? '*s' : ''}`, 'the compensated GEMV kernel', () => {
    const v = LANES[lanes], ks = Array.from({ length: v.vectors }, (_, k) => k);
    const l = new WasmLocals();
    const ps = l.param(I32), pc = l.param(I32), rows = l.param(I32);
    const pa = [l.param(I32), l.param(I32), l.param(I32), l.param(I32)];
    const scale = l.param(F64);
    const xs = [l.param(F64), l.param(F64), l.param(F64), l.param(F64)];
    const columns = l.param(I32);
    const i = l.local(I32), s = l.local(V128), c = l.local(V128), t = l.local(V128);
    const xv = l.locals_(V128, COLUMNS);
    const scratch = neumaierScratch(l);
    const operands = pa.map((p) => operandLocals(l, { storage: sa, pointer: p, scaleParam: scale }, scaled, lanes));
    const sums = wasmStorageNamed(lanes)!;
    const loopFor = (cols: number): number[] => stepLoop(i, rows, [...operands.slice(0, cols), { pointer: ps, storage: sums }, { pointer: pc, storage: sums }],
      ks.flatMap((k) => [
        ...op.get(ps), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(s),
        ...op.get(pc), ...op.simdMem(SIMD.load, 0, 16 * k), ...op.set(c),
        ...Array.from({ length: cols }, (_, col) => [
          ...v.load(operands[col]!, k), ...op.get(xv + col), ...op.simd(v.mul), ...neumaierStep(scratch, t, s, c, lanes),
        ]).flat(),
        ...op.get(ps), ...op.get(s), ...op.simdMem(SIMD.store, 0, 16 * k),
        ...op.get(pc), ...op.get(c), ...op.simdMem(SIMD.store, 0, 16 * k),
      ]));
    const body = [
      ...op.block(),
      ...operands.flatMap((o) => operandSetup(o, lanes)),
      // fp32: xⱼ arrive as binary32 values in f64 parameters (the demotion of the splat is exact).
      ...xs.flatMap((x, k) => [...op.get(x), ...v.splat, ...op.set(xv + k)]),
      ...[1, 2, 3].flatMap((cols) => [...op.get(columns), ...op.i32(cols), 0x46 /* i32.eq */, ...op.if(), ...loopFor(cols), ...op.br(1), ...op.end()]),
      ...loopFor(4),
      ...op.end(),
    ];
    return encodeModule([l.function('columns', [], body)], 1);
  }).columns as KahanColumnsChunk;
}

/**
 * y := α·op(A)·x + β·y for α ≠ 0 with the kahan accumulation in fp64 or fp32 arithmetic (the caller checked storages and
 * layout); false, with y untouched, where a row sum is not finite (the JavaScript kernel then answers).
 */
export function wasmKahanGemv(alpha: number, opA: Accessor<2, any>, x: Accessor<1, any>, beta: number, y: Accessor<1, any>, m: number, n: number, lanes: 'f64' | 'f32' = 'f64'): boolean {
  const xv = lanes === 'f64' ? xValues(x, n) : Float64Array.from(xValuesF32(x, n));
  const sums = opA.strides[0] === 1 ? columnSums(opA, xv, m, n, lanes) : rowSums(opA, xv, m, n, lanes);
  for (let i = 0; i < m; i++) if (!Number.isFinite(sums[i]!)) return false;
  if (lanes === 'f64') combineSums(alpha, sums, beta, y, m);
  else combineSumsF32(alpha, sums, beta, y, m);
  return true;
}

/** Column-oriented compensated sums over row blocks: sᵢ + cᵢ per row. */
function columnSums(opA: Accessor<2, any>, xv: Float64Array, m: number, n: number, lanes: 'f64' | 'f32'): Float64Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const f = kahanColumnsChunk(sa, !!opA.scale, lanes);
  const out = new Float64Array(m);
  const S_AT = 64, C_AT = S_AT + ROWS * 8 + 64, A_AT = C_AT + ROWS * 8 + 64;
  const segment = ROWS * sa.bytes + 64;
  reserveBytes(A_AT + COLUMNS * segment);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  const Sums = lanes === 'f64' ? Float64Array : Float32Array;
  const s = new Sums(buffer, S_AT, ROWS), c = new Sums(buffer, C_AT, ROWS);
  const ld = opA.strides[1] as number;
  for (let r0 = 0; r0 < m; r0 += ROWS) {
    const rows = Math.min(ROWS, m - r0), padded = (rows + 7) & ~7;
    s.fill(0, 0, padded);
    c.fill(0, 0, padded);
    for (let j = 0; j < n; j += COLUMNS) {
      const cols = Math.min(COLUMNS, n - j);
      // In place where A lives in a wasmArena (whole row blocks of 8), else staged: the same values in the same lanes.
      const pa = [0, 1, 2, 3].map((k) => (k < cols ? columnSegmentAt(opA, sa, opA.offset + r0 + (j + k) * ld, rows, padded, A_AT + k * segment, buffer) : A_AT));
      f(S_AT, C_AT, padded, pa[0]!, pa[1]!, pa[2]!, pa[3]!, scaleOf(opA), xv[j]!, xv[j + 1] ?? 0, xv[j + 2] ?? 0, xv[j + 3] ?? 0, cols);
    }
    // The JavaScript template's result: s + c (fp32: one binary32 rounding).
    for (let r = 0; r < rows; r++) out[r0 + r] = lanes === 'f64' ? s[r]! + c[r]! : Math.fround(s[r]! + c[r]!);
  }
  return out;
}

/** One compensated WebAssembly DOT per row (op(A) has unit stride along its rows), x decoded to doubles once. */
function rowSums(opA: Accessor<2, any>, xv: Float64Array, m: number, n: number, lanes: 'f64' | 'f32'): Float64Array {
  const sa = wasmStorageOf(opA) as WasmStorage;
  const f = kahanDotChunk(sa, !!opA.scale, wasmStorageNamed(lanes)!, false, lanes);
  const out = new Float64Array(m);
  const X = lanes === 'f64' ? Float64Array : Float32Array, bytes = X.BYTES_PER_ELEMENT;
  // The lanes' (s, c) at bytes 0–127 (kahanDotChunk's layout), then x (in the lanes' format), then a staged chunk of the row.
  const X_AT = 128, A_AT = (X_AT + n * bytes + 64 + 15) & ~15;
  reserveBytes(A_AT + CHUNK * sa.bytes + 64);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  new X(buffer, X_AT, n).set(xv);
  // The last chunk of a row is padded with zeros; the values after x must be zeros too (0·NaN would be NaN).
  new X(buffer, X_AT + n * bytes, 8).fill(0);
  const sums = lanes === 'f64' ? new Float64Array(buffer, 0, 16) : new Float32Array(buffer, 0, 32);
  const row = opA.strides[0] as number;
  for (let i = 0; i < m; i++) {
    sums.fill(0);
    // In place where A lives in a wasmArena (whole steps of 8: every element keeps its lane), the rest staged.
    rowPieces(opA, sa, opA.offset + i * row, n, A_AT, buffer, (pa, from, padded) => f(pa, scaleOf(opA), X_AT + from * bytes, 1, padded));
    out[i] = sums instanceof Float64Array ? joinNeumaierLanes(sums) : joinNeumaierLanes(sums, 'f32', 16);
  }
  return out;
}
