/**
 * The JavaScript side of the WebAssembly GEMV and ELL SpMV kernels, in fp64 and in fp32 arithmetic: x read once into
 * the arithmetic's values (decoded, scaled and rounded as the generated JavaScript reads it), and the row sums
 * combined with α and β with the roundings of kernels/gemv/coefficients.ts (emitCombine).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { numberAt, scaleOf } from '../../src/backends/wasm/wasm-storage.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { roundPairToOdd } from '../../src/formats/convert/round-to-odd.js';
import { combineSumsInto, plainOutput } from './combine-sums-cpu.js';

const f = Math.fround;

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

/**
 * The value of element p of `a` as the JavaScript f32 arithmetic reads it: rounded to binary32 once (a
 * double-double through round-to-odd, as f32-arithmetic.ts), times the binary32 scale, rounded.
 */
export function f32ValueAt(a: Accessor<any, any>, p: number, scale: number): number {
  const raw = a.storage.decode(a.data as never, p) as number | { hi: number; lo: number };
  const v = typeof raw === 'number' ? f(raw) : f(roundPairToOdd(raw.hi, raw.lo));
  return a.scale ? f(v * f(scale)) : v;
}

/** The values of x as the JavaScript f32 arithmetic reads them ({@link f32ValueAt}). */
export function xValuesF32(x: Accessor<1, any>, n: number): Float32Array {
  const s = scaleOf(x), stride = x.strides[0] as number;
  const out = new Float32Array(n);
  for (let j = 0, p = x.offset; j < n; j++, p += stride) out[j] = f32ValueAt(x, p, s);
  return out;
}

/**
 * yᵢ := α·tᵢ + β·yᵢ with the roundings of emitCombine (kernels/gemv/coefficients.ts), y f64 or f32 unscaled (a
 * double-double y through the generated combination, combine-sums-cpu.ts).
 */
export function combineSums(alpha: number, t: Float64Array, beta: number, y: Accessor<1, any>, m: number): void {
  if (!plainOutput(y)) { combineSumsInto(alpha, t, beta, y, m, 'f64'); return; }
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

/**
 * yᵢ := α·tᵢ + β·yᵢ as the JavaScript f32 template (emitCombine): α and β rounded to binary32, y read rounded,
 * α·t, β·y and the sum one binary32 rounding each (none for a coefficient 1, no sum for β = 0); y f64 or f32 (a
 * double-double y through the generated combination, combine-sums-cpu.ts).
 */
export function combineSumsF32(alpha: number, t: Float32Array | Float64Array, beta: number, y: Accessor<1, any>, m: number): void {
  if (!plainOutput(y)) { combineSumsInto(alpha, t, beta, y, m, 'f32'); return; }
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
