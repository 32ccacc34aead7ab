/**
 * The CPU fallback of the GPU kernels: the same operations on the decoded values, in binary32 (each
 * operation rounded with Math.fround) for `f32` arithmetic and in binary64 for `ff` (at least as precise
 * as float-float), so a fallback result satisfies the same error bounds as the GPU result.
 *
 * @module
 */
import type { GpuArithmetic } from './arithmetic.js';

/** Rounding of one operation in `arithmetic`. */
function rounder(arithmetic: GpuArithmetic): (x: number) => number {
  return arithmetic.name === 'f32' ? Math.fround : (x: number) => x;
}

/**
 * Σ x_k·y_k.
 * @param x - values
 * @param y - values
 * @param arithmetic - arithmetic to emulate
 * @returns the sum
 */
export function cpuDot(x: Float64Array, y: Float64Array, arithmetic: GpuArithmetic): number {
  const r = rounder(arithmetic);
  let s = 0;
  for (let k = 0; k < x.length; k++) s = r(s + r(r(x[k]!) * r(y[k]!)));
  return s;
}

/**
 * y ← α·op(A)·x + β·y for a column-major m×n A with leading dimension lda.
 * @returns the new y values
 */
export function cpuGemv(trans: boolean, m: number, n: number, alpha: number, A: Float64Array, lda: number, x: Float64Array, beta: number, y: Float64Array, arithmetic: GpuArithmetic): Float64Array {
  const r = rounder(arithmetic);
  const rows = trans ? n : m;
  const inner = trans ? m : n;
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < inner; j++) s = r(s + r(r(trans ? A[j + i * lda]! : A[i + j * lda]!) * r(x[j]!)));
    out[i] = beta === 0 ? r(alpha * s) : r(r(alpha * s) + r(beta * y[i]!));
  }
  return out;
}

/**
 * y ← α·A·x + β·y for an ELL matrix (column-major, padding column −1).
 * @returns the new y values
 */
export function cpuEllSpmv(rows: number, width: number, stride: number, colIndex: Int32Array, values: Float64Array, alpha: number, x: Float64Array, beta: number, y: Float64Array, arithmetic: GpuArithmetic): Float64Array {
  const r = rounder(arithmetic);
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let k = 0; k < width; k++) {
      const c = colIndex[i + k * stride]!;
      if (c >= 0) s = r(s + r(values[i + k * stride]! * x[c]!));
    }
    out[i] = beta === 0 ? r(alpha * s) : r(r(alpha * s) + r(beta * y[i]!));
  }
  return out;
}

/**
 * Solves op(A)·x = b for triangular column-major A (n×n, leading dimension lda).
 * @returns x
 */
export function cpuTrsv(upper: boolean, trans: boolean, unitDiagonal: boolean, n: number, A: Float64Array, lda: number, b: Float64Array, arithmetic: GpuArithmetic): Float64Array {
  const r = rounder(arithmetic);
  const x = Float64Array.from(b, r);
  // op(A) is lower triangular when (lower, N) or (upper, T).
  const lowerOp = upper === trans;
  const at = (i: number, j: number): number => (trans ? A[j + i * lda]! : A[i + j * lda]!);
  for (let step = 0; step < n; step++) {
    const i = lowerOp ? step : n - 1 - step;
    let s = x[i]!;
    for (let t = 0; t < step; t++) {
      const j = lowerOp ? t : n - 1 - t;
      s = r(s - r(at(i, j) * x[j]!));
    }
    x[i] = unitDiagonal ? s : r(s / at(i, i));
  }
  return x;
}
