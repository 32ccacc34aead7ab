/**
 * Vectors with a scale per element as the WebAssembly kernels read them: a twin in unscaled storage holding each
 * element as the JavaScript kernel's load reads it (src/backends/cpu/operand.ts, emitLoad) — fp64 arithmetic the
 * double fl(v·s) (double-double storage: (hi + lo)·s), fp32 arithmetic the binary32 fround(fround(v)·fround(s)),
 * double-double arithmetic the guarded template's pair (v, 0)·(s, 0) (dd storage: its pair) —, which the kernels then
 * read as they read an unscaled f64, f32 or dd operand: exactly those values, so every operation after the read sees
 * what the JavaScript's does. Writes never go to the twin: outputs are stored through the JavaScript kernels' own
 * store (kernels/shared/store-numbers-cpu.ts, kernels/gemv/combine-sums-cpu.ts), whose cursor steps the scales.
 * @module
 */
import { Accessor } from '../../accessors/accessor.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { numberAt } from '../../src/backends/wasm/wasm-storage.js';
import { ddGuardedMul } from '../../src/formats/dd/guarded.js';
import { f32ValueAt } from '../gemv/gemv-wasm-values.js';
import { orderedNumerics, scaledPerElement, type wasmNumericsOf } from './cpu-backend.js';

/**
 * The vector as the WebAssembly kernel of `numerics` reads its first n elements: `a` itself unless it has a scale
 * per element ({@link scaledPerElement}), else its twin (see the module comment).
 * @param ddArithmetic - double-double arithmetic (numerics 'dd' with fp64 arithmetic reads doubles)
 */
export function readTwin(a: Accessor<1, any>, n: number, numerics: ReturnType<typeof wasmNumericsOf>, ddArithmetic: boolean): Accessor<1, any> {
  if (!scaledPerElement(a)) return a;
  const sc = a.scale!, stride = a.strides[0] as number;
  const scale = (i: number): number => sc.data[sc.offset + i * sc.strides[0]!]!;
  const f32 = numerics === 'f32' || numerics === 'kahan-f32' || orderedNumerics(numerics)?.arithmetic === 'f32';
  const pairs = numerics === 'dd' && ddArithmetic;
  const name = f32 ? 'f32' : pairs ? 'dd' : 'f64';
  const storage = findFormat(name)!.storage!;
  const data = storage.allocate(n) as Float64Array | Float32Array;
  const q = new Float64Array(2);
  for (let i = 0, p = a.offset; i < n; i++, p += stride) {
    if (f32) data[i] = f32ValueAt(a, p, scale(i));
    else if (!pairs) data[i] = numberAt(a, p) * scale(i);
    else {
      const v = a.storage.decode(a.data as never, p) as number | { hi: number; lo: number };
      if (typeof v === 'number') ddGuardedMul(q, v, 0, scale(i), 0); else ddGuardedMul(q, v.hi, v.lo, scale(i), 0);
      // The pair as the template left it (raw words: the register's own low part, its sign too).
      data[2 * i] = q[0]!; data[2 * i + 1] = q[1]!;
    }
  }
  return new Accessor<1, any>({ size: [n], strides: [1], offset: 0, storage, arithmetic: a.arithmetic, data, layout: 'strided' });
}
