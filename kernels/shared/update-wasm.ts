/**
 * The element-wise updates in WebAssembly SIMD (f64 arithmetic; built-in storage read, f64 or f32 storage
 * written): out := α·x + y (AXPY), α·x + β·y, α·x, β·y + 0 or 0 (WAXPBY by which coefficients are zero), α·x or 0
 * (SCAL). Each element sees the same roundings, in the same order, as in the generated JavaScript (products,
 * then one addition; the f32 write rounds to nearest even, as Math.fround), so the results are bit-identical and
 * the bounds are those of the kernels. Operands are staged in chunks; the output chunk is copied back.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { F64, I32, encodeModule, op, SIMD } from '../../src/backends/wasm/wasm-encoder.js';
import { WasmLocals, load2, operandLocals, operandParams, operandSetup, stepLoop, type WasmOperand } from '../../src/backends/wasm/wasm-function.js';
import { reserveBytes, wasmExports, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { CHUNK, chunkElements, scaleOf, stageVector, unstageVector, wasmStorageOf, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';

/** What each output element is. */
export type UpdateForm = 'ax+y' | 'ax+by' | 'ax' | 'by+0' | '0';

const X_AT = 64, Y_AT = X_AT + CHUNK * 8, OUT_AT = Y_AT + CHUNK * 8;

type UpdateChunk = (px: number, sx: number, py: number, sy: number, n: number, alpha: number, beta: number, out: number) => void;

function updateChunk(form: UpdateForm, x: [WasmStorage, boolean] | null, y: [WasmStorage, boolean] | null, out: WasmStorage): UpdateChunk {
  const key = `update ${form} ${x ? x[0].name + (x[1] ? '*s' : '') : '-'} ${y ? y[0].name + (y[1] ? '*s' : '') : '-'} ${out.name}`;
  return wasmExports(key, 'an element-wise update kernel', () => {
    const l = new WasmLocals();
    // Unused operands still take their parameters (one calling convention); their storage is any reader.
    const px = operandParams(l, x?.[0] ?? out), py = operandParams(l, y?.[0] ?? out);
    const n = l.param(I32), alpha = l.param(F64), beta = l.param(F64), pout = l.param(I32);
    const i = l.local(I32), a = l.local(0x7b), b = l.local(0x7b);
    const ox: WasmOperand | null = x ? operandLocals(l, px, x[1]) : null;
    const oy: WasmOperand | null = y ? operandLocals(l, py, y[1]) : null;
    const ax = (k: number): number[] => [...op.get(a), ...load2(ox!, k), ...op.simd(SIMD.f64x2Mul)];
    const by = (k: number): number[] => [...op.get(b), ...load2(oy!, k), ...op.simd(SIMD.f64x2Mul)];
    const zero = [...op.f64(0), ...op.simd(SIMD.f64x2Splat)];
    const value = (k: number): number[] => {
      switch (form) {
        case 'ax+y': return [...ax(k), ...load2(oy!, k), ...op.simd(SIMD.f64x2Add)];
        case 'ax+by': return [...ax(k), ...by(k), ...op.simd(SIMD.f64x2Add)];
        case 'ax': return ax(k);
        case 'by+0': return [...by(k), ...zero, ...op.simd(SIMD.f64x2Add)];
        case '0': return zero;
      }
    };
    const step = [0, 1, 2, 3].flatMap((k) => [...op.get(pout), ...value(k), ...out.store2!(2 * k * out.bytes)]);
    const outPointer = { pointer: pout, storage: out };
    const body = [
      ...op.get(alpha), ...op.simd(SIMD.f64x2Splat), ...op.set(a),
      ...op.get(beta), ...op.simd(SIMD.f64x2Splat), ...op.set(b),
      ...(ox ? operandSetup(ox) : []), ...(oy ? operandSetup(oy) : []),
      ...stepLoop(i, n, [...(ox ? [ox] : []), ...(oy ? [oy] : []), outPointer], step),
    ];
    return encodeModule([l.function('update', [], body)], 1);
  }).update as UpdateChunk;
}

/**
 * out := the `form` of x and y, element-wise, for i < n (the caller checked the storages: {@link wasmStorageOf}
 * for the inputs, f64/f32 unscaled for out). x and y are absent where the form does not read them.
 */
export function wasmUpdate(form: UpdateForm, alpha: number, x: Accessor<1, any> | null, beta: number, y: Accessor<1, any> | null, out: Accessor<1, any>, n: number): void {
  const sx = x ? wasmStorageOf(x) as WasmStorage : null, sy = y ? wasmStorageOf(y) as WasmStorage : null;
  const so = wasmStorageOf(out) as WasmStorage;
  const f = updateChunk(form, sx ? [sx, !!x!.scale] : null, sy ? [sy, !!y!.scale] : null, so);
  const scaleX = x ? scaleOf(x) : 1, scaleY = y ? scaleOf(y) : 1;
  reserveBytes(OUT_AT + CHUNK * 8);
  const buffer = wasmMemory().buffer as ArrayBuffer;
  // The output's staging area holds CHUNK doubles: chunks never take more elements than that for a wide output.
  const chunk = Math.min(chunkElements(sx, sy), chunkElements(so));
  for (let from = 0; from < n; from += chunk) {
    const count = Math.min(chunk, n - from);
    const padded = (count + 7) & ~7;
    if (x) stageVector(x, from, count, X_AT, padded, buffer);
    if (y) stageVector(y, from, count, Y_AT, padded, buffer);
    f(X_AT, scaleX, Y_AT, scaleY, padded, alpha, beta, OUT_AT);
    unstageVector(out, from, count, OUT_AT, buffer);
  }
}
