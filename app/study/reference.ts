/**
 * Reference results, computed by the library's own kernels: the fp64 inputs read in double-double
 * arithmetic (`formats.dd`, about 106 bits: products of doubles are exact, sums are double-double
 * additions) with the result kept in double-double storage — so the study checks every configuration
 * against the same kernels run far more precisely, not against a hand-written copy of them. The error of
 * such a reference is about n·2^-104 relative to Σ|terms|, far below the fp64 rounding (2^-53) the study
 * has to resolve. Configurations that compute in double-double themselves are checked against the `wide`
 * reference instead — the same kernels in 212-bit RNS arithmetic (`formats.rns212`), rounded to
 * double-double at the end — so a double-double result is never compared with itself.
 * test/study/reference.test.ts checks both against exact BigInt results.
 * @module
 */
import {
  colMajor, ddFromRational, dot, ellOperand, ellSpmv, formats, gemv, range, rnsToRational, rowMajor, trsv, waxpby,
  type EllMatrix, type Format, type Range, type RnsNumber,
} from '../modprec.js';
import { valuesOf } from './operands.js';
import type { DdVector } from './relative-error.js';

/** `dd`: double-double, for configurations computing in up to 53 bits; `wide`: 212-bit RNS, for those computing in more. */
export type ReferencePrecision = 'dd' | 'wide';

const FORMATS: Readonly<Record<ReferencePrecision, Format>> = { dd: formats.dd, wide: formats.rns212 };
const options = (precision: ReferencePrecision) => ({ arithmetic: FORMATS[precision] });

/** The reference precision a configuration computing in `arithmeticBits` bits is checked against. */
export function referencePrecision(arithmeticBits: number): ReferencePrecision {
  return arithmeticBits > 53 ? 'wide' : 'dd';
}

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

/** A vector of length n in the reference format, holding `values` (exactly: every double fits). */
function outVector(precision: ReferencePrecision, n: number, values?: Float64Array): Range<1, any> {
  const f = FORMATS[precision];
  const r = range(rowMajor<1, any>({ size: [n], storage: f, arithmetic: f }));
  if (values) for (let i = 0; i < n; i++) r.set(i, f.arithmetic!.fromNumber(values[i]!));
  return r;
}

/** The values of a reference vector as double-double pairs (an RNS value rounded once, from its exact rational). */
function result(r: Range<1, any>): DdVector {
  const a = r.accessor;
  if (a.storage.kind !== 'mp') return valuesOf(r);
  const n = a.size[0]!;
  const hi = new Float64Array(n);
  const lo = new Float64Array(n);
  const pair = new Float64Array(2);
  for (let i = 0; i < n; i++) {
    const q = rnsToRational(a.storage.decode(a.data, a.offset + i) as RnsNumber);
    ddFromRational(pair, q.num, q.den);
    hi[i] = pair[0]!;
    lo[i] = pair[1]!;
  }
  return { hi, lo };
}

/** Σ x[i]·y[i] by the library's DOT in the reference precision, as a 1-element vector. */
export function dotReference(x: Float64Array, y: Float64Array, precision: ReferencePrecision = 'dd'): DdVector {
  const into = outVector(precision, 1);
  dot(f64Vector(x), f64Vector(y), { ...options(precision), into });
  return result(into);
}

/** A·x for a column-major m×n matrix `a`, by the library's GEMV in the reference precision. */
export function gemvReference(m: number, n: number, a: Float64Array, x: Float64Array, precision: ReferencePrecision = 'dd'): DdVector {
  const y = outVector(precision, m);
  gemv({ alpha: 1, A: f64Matrix(m, n, a), x: f64Vector(x), beta: 0, y, trans: 'N' }, options(precision));
  return result(y);
}

/**
 * The solution of T·x = b for a triangular column-major n×n `t`, by the library's TRSV in the reference
 * precision (x kept in it throughout, so the substitution adds no fp64 rounding).
 */
export function trsvReference(n: number, t: Float64Array, b: Float64Array, uplo: 'upper' | 'lower', unitDiagonal: boolean, precision: ReferencePrecision = 'dd'): DdVector {
  const x = outVector(precision, n, b);
  trsv({ A: f64Matrix(n, n, t), x, uplo: uplo === 'upper' ? 'U' : 'L', trans: 'N', diag: unitDiagonal ? 'U' : 'N' }, options(precision));
  return result(x);
}

/** A·x for the structure of `A` with fp64 values `values` (A.values' layout), by the library's ELL SpMV in the reference precision. */
export function ellSpmvReference(A: EllMatrix, values: Float64Array, x: Float64Array, precision: ReferencePrecision = 'dd'): DdVector {
  const y = outVector(precision, A.rows);
  const operand = ellOperand(A, f64Matrix(A.stride, A.width, values));
  ellSpmv({ alpha: 1, A: operand, x: f64Vector(x), beta: 0, y }, options(precision));
  return result(y);
}

/** α·x + β·y by the library's WAXPBY in the reference precision. */
export function waxpbyReference(alpha: number, x: Float64Array, beta: number, y: Float64Array, precision: ReferencePrecision = 'dd'): DdVector {
  const w = outVector(precision, x.length);
  waxpby(alpha, f64Vector(x), beta, f64Vector(y), w, options(precision));
  return result(w);
}
