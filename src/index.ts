/**
 * modprec: precision-decoupled linear algebra. Numbers are stored in one format and computed on in another.
 *
 * The main entry point: ranges and accessors, formats, the kernels (CPU, and `{ backend: 'gpu' }`),
 * double-double, RNS multiple precision, sparse matrices and Matrix Market I/O. The GPU API for data that
 * stays on the device is `modprec/gpu`; the property-test kit is `modprec/testing`.
 *
 * @example
 * ```ts
 * import { vector, formats, dot, dotBound } from 'modprec';
 *
 * // 2 bytes per entry in memory, sums in fp64
 * const x = vector([0.1, 0.2, 0.3], { storage: formats.f16, arithmetic: formats.f64 });
 * x.get(0); // → 0.0999755859375
 * dot(x, x); // → 0.14000488817691803
 * dotBound(x, x) < 1e-16; // → true
 * ```
 *
 * @module modprec
 */
import { formats as builtinFormats } from './formats/index.js';
import { dd, ddSplit } from './formats/dd/index.js';
import { rns106, rns212, rns424, rns848, rns1696 } from './formats/rns/index.js';

export { ModprecError, type ModprecErrorCode } from './core/errors.js';
export * from './formats/index.js';
export * from './formats/convert/index.js';
export { span, type Span, type SpanLike } from './core/span.js';
export { Range, range } from './core/range.js';
export { vector, matrix, toArray, type FormatOptions } from './core/vectors.js';
export * from '../accessors/index.js';
export * from '../kernels/index.js';
export * from './sparse/index.js';
export * from './io/matrix-market.js';
export { luFactor, luSolve, applyPivots, type LuFactors } from './linalg/lu.js';
export { luFactorF32, luSolveF32, type LuFactorsF32 } from './linalg/lu-f32.js';
export type { LuOptions } from './linalg/lu-wasm.js';
export * from './solvers/index.js';
export * from './formats/dd/index.js';
export * from './formats/rns/index.js';
// The GPU API (gpu.js, WebGPU) is the separate entry `modprec/gpu`, so CPU-only code never bundles gpu.js;
// `backend: 'gpu'` on the kernels loads it lazily.

/**
 * Every format modprec ships, by name: `formats.f64`, `f32`, `f16`, `bf16`, `i8`, `i16`, `i32` and the
 * double-double formats `dd` (interleaved hi/lo) and `ddSplit` (separate hi and lo arrays), and the RNS
 * multiple-precision formats `rns106` … `rns1696` (any other precision: `rnsFormat(bits)`).
 * Pass them as `storage` or `arithmetic` of an accessor.
 * @group Formats
 */
export const formats = Object.freeze({ ...builtinFormats, dd, ddSplit, rns106, rns212, rns424, rns848, rns1696 });
