/**
 * Whether the engine's relaxed-SIMD `f64x2.relaxed_madd` is a fused multiply-add, found by running it once.
 *
 * Relaxed SIMD lets an engine compute a·b + c with one rounding (an FMA) or with two; which it does depends on
 * the engine and the CPU (V8 on x86-64 with FMA3 fuses; Node 20 needs `--experimental-wasm-relaxed-simd`, Node ≥ 22
 * and Chrome ≥ 114 have it by default). An exact product p + e = a·b needs the fused form (e = fma(a, b, −p)), so
 * the double-double kernels use it only after this probe has seen one rounding in both lanes; otherwise they keep
 * Dekker's product with Veltkamp's splitting. Both give the same (p, e) wherever the product is error-free.
 * @module
 */
import { op, SIMD } from './wasm-encoder.js';

/** `f64x2.relaxed_madd` after the 0xfd prefix (relaxed-SIMD proposal, phase 5). */
export const RELAXED_MADD_F64X2 = 0x107;

// (func (param f64 f64 f64) (result f64) (local v128)): the two lanes of relaxed_madd(splat a, splat b, splat c), added.
const PROBE_BODY = [
  0x01, 0x01, 0x7b, // one v128 local (index 3)
  ...op.get(0), ...op.simd(SIMD.f64x2Splat), ...op.get(1), ...op.simd(SIMD.f64x2Splat), ...op.get(2), ...op.simd(SIMD.f64x2Splat),
  ...op.simd(RELAXED_MADD_F64X2), ...op.tee(3),
  ...op.simd(SIMD.f64x2ExtractLane, 0), ...op.get(3), ...op.simd(SIMD.f64x2ExtractLane, 1), ...op.f64Add(), 0x0b,
];
const PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x08, 0x01, 0x60, 0x03, 0x7c, 0x7c, 0x7c, 0x01, 0x7c, // type: (f64 f64 f64) → f64
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export "f"
  0x0a, PROBE_BODY.length + 2, 0x01, PROBE_BODY.length, ...PROBE_BODY,
]);

let detected: boolean | undefined;
let forced: boolean | undefined;

function probe(): boolean {
  try {
    if (typeof WebAssembly !== 'object' || !WebAssembly.validate(PROBE as BufferSource)) return false;
    const f = new WebAssembly.Instance(new WebAssembly.Module(PROBE as BufferSource)).exports.f as (a: number, b: number, c: number) => number;
    // a·b = 1 − 2^-60 (resp. 1 − 2^-58): one rounding leaves −2^-60 per lane, two leave 0.
    return f(1 + 2 ** -30, 1 - 2 ** -30, -1) === -(2 ** -59) && f(1 + 2 ** -29, 1 - 2 ** -29, -1) === -(2 ** -57);
  } catch {
    // A Content-Security-Policy that forbids compiling, or an engine without relaxed SIMD: no FMA.
    return false;
  }
}

/**
 * Whether the WebAssembly double-double kernels (DOT, GEMV, ELL SpMV) form exact products with a fused
 * multiply-add (relaxed SIMD, probed once at first use: see the module comment) rather than with Dekker's
 * splitting. The results are the same wherever a product's rounding error is representable (|a·b| ≥ 2^-969 and
 * no overflow); below that, both stay within the kernels' bounds.
 * @example
 * ```ts
 * import { wasmFusedFmaAvailable } from 'modprec';
 *
 * typeof wasmFusedFmaAvailable(); // → 'boolean'
 * ```
 * @group Kernels
 */
export function wasmFusedFmaAvailable(): boolean {
  if (forced !== undefined) return forced;
  detected ??= probe();
  return detected;
}

/**
 * For benchmarks and tests: `false` makes the kernels compiled after the call use Dekker's product even where a
 * fused multiply-add exists; `undefined` returns to the probe's verdict. Callers must drop compiled modules
 * themselves (`forgetWasmModules`), since a module's code depends on the choice.
 */
export function forceWasmFusedFma(value: false | undefined): void {
  forced = value === false ? false : undefined;
}
