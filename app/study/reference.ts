/**
 * Reference results, computed by the library's own kernels: the fp64 inputs read in double-double
 * arithmetic (`formats.dd`, about 106 bits: products of doubles are exact, sums are double-double
 * additions) with the result kept in double-double storage — so the study checks every configuration
 * against the same kernels run far more precisely, not against a hand-written copy of them. The error of
 * such a reference is about n·2^-104 relative to Σ|terms|, far below the fp64 rounding (2^-53) the study
 * has to resolve; test/study/reference.test.ts checks it against exact BigInt results.
 * @module
 */
import {
  colMajor, dot, ellOperand, ellSpmv, formats, gemv, range, rowMajor, trsv, waxpby, type EllMatrix, type Range,
} from '../modprec.js';
import { valuesOf } from './operands.js';
import type { DdVector } from './relative-error.js';

const DD_OPTIONS = { arithmetic: formats.dd };

/** A packed fp64 vector holding `values`. */
function f64Vector(values: Float64Array): Range<1, any> {
  const r = range(rowMajor<1, any>({ size: [values.length], storage: formats.f64, arithmetic: formats.f64 }));
  (r.accessor.data as Float64Array).set(values);
  return r;
}

/** A packed column-major m×n fp64 matrix holding `values` (element (i, j) at i + j·m). */
function f64Matrix(m: number, n: number, values: Float64Array): Range<2, any> {
  const r = range(colMajor<2, any>({ size: [m, n], storage: formats.f64, arithmetic: formats.f64 }));
  (r.accessor.data as Float64Array).set(values);
  return r;
}

/** A double-double vector of length n holding `values` (exactly: every double is a double-double). */
function ddVector(n: number, values?: Float64Array): Range<1, any> {
  const r = range(rowMajor<1, any>({ size: [n], storage: formats.dd, arithmetic: formats.dd }));
  if (values) for (let i = 0; i < n; i++) r.set(i, formats.dd.arithmetic!.fromNumber(values[i]!));
  return r;
}

/** Σ x[i]·y[i] by the library's DOT in double-double, as a 1-element vector. */
export function dotReference(x: Float64Array, y: Float64Array): DdVector {
  const into = ddVector(1);
  dot(f64Vector(x), f64Vector(y), { ...DD_OPTIONS, into });
  return valuesOf(into);
}

/** A·x for a column-major m×n matrix `a`, by the library's GEMV in double-double. */
export function gemvReference(m: number, n: number, a: Float64Array, x: Float64Array): DdVector {
  const y = ddVector(m);
  gemv({ alpha: 1, A: f64Matrix(m, n, a), x: f64Vector(x), beta: 0, y, trans: 'N' }, DD_OPTIONS);
  return valuesOf(y);
}

/**
 * The solution of T·x = b for a triangular column-major n×n `t`, by the library's TRSV in double-double
 * (x kept in double-double throughout, so the substitution adds no fp64 rounding).
 */
export function trsvReference(n: number, t: Float64Array, b: Float64Array, uplo: 'upper' | 'lower', unitDiagonal: boolean): DdVector {
  const x = ddVector(n, b);
  trsv({ A: f64Matrix(n, n, t), x, uplo: uplo === 'upper' ? 'U' : 'L', trans: 'N', diag: unitDiagonal ? 'U' : 'N' }, DD_OPTIONS);
  return valuesOf(x);
}

/** A·x for the structure of `A` with fp64 values `values` (A.values' layout), by the library's ELL SpMV in double-double. */
export function ellSpmvReference(A: EllMatrix, values: Float64Array, x: Float64Array): DdVector {
  const y = ddVector(A.rows);
  const operand = ellOperand(A, f64Matrix(A.stride, A.width, values));
  ellSpmv({ alpha: 1, A: operand, x: f64Vector(x), beta: 0, y }, DD_OPTIONS);
  return valuesOf(y);
}

/** α·x + β·y by the library's WAXPBY in double-double. */
export function waxpbyReference(alpha: number, x: Float64Array, beta: number, y: Float64Array): DdVector {
  const w = ddVector(x.length);
  waxpby(alpha, f64Vector(x), beta, f64Vector(y), w, DD_OPTIONS);
  return valuesOf(w);
}
