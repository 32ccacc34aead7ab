/**
 * The element-wise updates in WebAssembly SIMD (f64 or f32 arithmetic; built-in storage read, f64 or f32 storage
 * written): out := α·x + y (AXPY), α·x + β·y, α·x, β·y + 0 or 0 (WAXPBY by which coefficients are zero), α·x or 0
 * (SCAL). Each element sees the same roundings, in the same order, as in the generated JavaScript (products,
 * then one addition; the f32 write rounds to nearest even, as Math.fround; in f32 arithmetic f32x4 lanes, every
 * read, coefficient and operation rounded to binary32 as the JavaScript f32 arithmetic's Math.fround), so the
 * results are bit-identical and the bounds are those of the kernels. Operands are staged in chunks; the output
 * chunk is copied back. Operands in a wasmArena (unit stride) are read and written in place instead, whole steps of
 * eight elements; a chunk's last count mod 8 elements go through staging.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { LANES, WasmLocals, operandLocals, operandParams, operandSetup, stepLoop, type WasmOperand } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, chunkElements, inPlaceAddress, scaleOf, stageVector, unstageVector, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';

/** What each output element is. */
export type UpdateForm = 'ax+y' | 'ax+by' | 'ax' | 'by+0' | '0';

const X_AT = 64, Y_AT = X_AT + CHUNK * 8, OUT_AT = Y_AT + CHUNK * 8;

/** A compiled update: (px, scale x, py, scale y, padded count, α, β, pout). */
export type UpdateChunk = (px: number, sx: number, py: number, sy: number, n: number, alpha: number, beta: number, out: number) => void;

/** The compiled update over staged (or in-place) operands of these storages, in the lanes' arithmetic (one module per signature). */
export function updateChunk(form: UpdateForm, x: [WasmStorage, boolean] | null, y: [WasmStorage, boolean] | null, out: WasmStorage, lanes: 'f64' | 'f32'): UpdateChunk {
  const key = `update${lanes === 'f32' ? '-f32' : ''} ${form} ${x ? x[0].name + (x[1] ? '*s' : '') : '-'} ${y ? y[0].name + (y[1] ? '*s' : '') : '-'} ${out.name}`;
  return wasmExports(key, 'an element-wise update kernel', () => {
    const v = LANES[lanes];
    const l = new WasmLocals();
    // Unused operands still take their parameters (one calling convention); their storage is any reader.
    const px = operandParams(l, x?.[0] ?? out), py = operandParams(l, y?.[0] ?? out);
    const n = l.param(I32), alpha = l.param(F64), beta = l.param(F64), pout = l.param(I32);
    const i = l.local(I32), a = l.local(0x7b), b = l.local(0x7b);
    const ox: WasmOperand | null = x ? operandLocals(l, px, x[1], lanes) : null;
    const oy: WasmOperand | null = y ? operandLocals(l, py, y[1], lanes) : null;
    const ax = (k: number): number[] => [...op.get(a), ...v.load(ox!, k), ...op.simd(v.mul)];
    const by = (k: number): number[] => [...op.get(b), ...v.load(oy!, k), ...op.simd(v.mul)];
    const zero = [...op.f64(0), ...v.splat];
    const value = (k: number): number[] => {
      switch (form) {
        case 'ax+y': return [...ax(k), ...v.load(oy!, k), ...op.simd(v.add)];
        case 'ax+by': return [...ax(k), ...by(k), ...op.simd(v.add)];
        case 'ax': return ax(k);
        case 'by+0': return [...by(k), ...zero, ...op.simd(v.add)];
        case '0': return zero;
      }
    };
    const step = lanes === 'f64'
      ? [0, 1, 2, 3].flatMap((k) => [...op.get(pout), ...value(k), ...out.store2!(2 * k * out.bytes)])
      : [0, 1].flatMap((k) => storeF32x4(out, pout, l, value(k), 4 * k * out.bytes));
    const outPointer = { pointer: pout, storage: out };
    const body = [
      ...op.get(alpha), ...v.splat, ...op.set(a),
      ...op.get(beta), ...v.splat, ...op.set(b),
      ...(ox ? operandSetup(ox, lanes) : []), ...(oy ? operandSetup(oy, lanes) : []),
      ...stepLoop(i, n, [...(ox ? [ox] : []), ...(oy ? [oy] : []), outPointer], step),
    ];
    return encodeModule([l.function('update', [], body)], 1);
  }).update as UpdateChunk;
}

/**
 * Instructions storing the f32x4 `value` (four binary32 results) at (local `pointer`) + `offset` of an f32 output
 * (as is) or an f64 output (each widened exactly, as the JavaScript f32 arithmetic's number is stored).
 */
function storeF32x4(out: WasmStorage, pointer: number, l: WasmLocals, value: readonly number[], offset: number): number[] {
  if (out.name === 'f32') return [...op.get(pointer), ...value, ...op.simdMem(SIMD.store, 0, offset)];
  const t = l.local(0x7b);
  const high = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
  return [
    ...value, ...op.set(t),
    ...op.get(pointer), ...op.get(t), ...op.simd(SIMD.f64x2PromoteLowF32x4), ...op.simdMem(SIMD.store, 0, offset),
    ...op.get(pointer), ...op.get(t), ...op.get(t), ...op.simd(0x0d /* i8x16.shuffle */, ...high), ...op.simd(SIMD.f64x2PromoteLowF32x4),
    ...op.simdMem(SIMD.store, 0, offset + 16),
  ];
}

/**
 * out := the `form` of x and y, element-wise, for i < n, in f64 arithmetic or, with `lanes` 'f32', in f32 (the
 * caller checked the storages: {@link wasmStorageOf} for the inputs — for f32 with a binary32 read, `load4` —,
 * f64/f32 unscaled for out). x and y are absent where the form does not read them.
 */
export function wasmUpdate(
  form: UpdateForm, alpha: number, x: Accessor<1, any> | null, beta: number, y: Accessor<1, any> | null, out: Accessor<1, any>, n: number, lanes: 'f64' | 'f32' = 'f64',
): void {
  const sx = x ? wasmStorageOf(x) as WasmStorage : null, sy = y ? wasmStorageOf(y) as WasmStorage : null;
  const so = wasmStorageOf(out) as WasmStorage;
  const f = updateChunk(form, sx ? [sx, !!x!.scale] : null, sy ? [sy, !!y!.scale] : null, so, lanes);
  const scaleX = x ? scaleOf(x) : 1, scaleY = y ? scaleOf(y) : 1;
  reserveBytes(OUT_AT + CHUNK * 8);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  // The output's staging area holds CHUNK doubles: chunks never take more elements than that for a wide output.
  const chunk = Math.min(chunkElements(sx, sy), chunkElements(so));
  // One call over [from, from + count): operands in the WebAssembly memory (a wasmArena, unit stride) in place,
  // the others staged; whole steps of 8 only when something is in place (padding lanes must not touch its neighbours).
  const run = (from: number, count: number, inPlace: boolean): void => {
    const padded = (count + 7) & ~7;
    const ax = inPlace && x ? inPlaceAddress(x, sx!, from) : -1, ay = inPlace && y ? inPlaceAddress(y, sy!, from) : -1;
    const ao = inPlace ? inPlaceAddress(out, so, from) : -1;
    if (x && ax < 0) stageVector(x, from, count, X_AT, padded, buffer);
    if (y && ay < 0) stageVector(y, from, count, Y_AT, padded, buffer);
    f(ax < 0 ? X_AT : ax, scaleX, ay < 0 ? Y_AT : ay, scaleY, padded, alpha, beta, ao < 0 ? OUT_AT : ao);
    if (ao < 0) unstageVector(out, from, count, OUT_AT, buffer);
  };
  const anyInPlace = [x, y, out].some((a, k) => a && inPlaceAddress(a, [sx, sy, so][k]!, 0) >= 0);
  for (let from = 0; from < n; from += chunk) {
    const count = Math.min(chunk, n - from);
    const body = anyInPlace ? count & ~7 : 0;
    if (body > 0) run(from, body, true);
    if (body < count) run(from + body, count - body, false);
  }
}
