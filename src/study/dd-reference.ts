/**
 * Reference results in double-double arithmetic (src/dd, about 106 bits): every product is formed
 * exactly (TwoProd) and every sum is a double-double addition, so the reference is accurate to about
 * n·2^−104 relative to Σ|terms| — far below the fp64 rounding (2^−53) the study has to resolve.
 * Results stay double-double (hi + lo): rounding them to fp64 would add an error as large as that of an
 * fp64 kernel. The exact BigInt oracle of src/testing checks these functions in the tests.
 * @module
 */
import { twoProd, ddAdd, ddMulNumber, ddDiv, type DdBuffer } from '../dd/index.js';
import { ELL_PADDING, type EllMatrix } from '../sparse/ell-matrix.js';

/** A vector of double-double values: element i is hi[i] + lo[i]. */
export interface DdVector {
  readonly hi: Float64Array;
  readonly lo: Float64Array;
}

/** Σ x[i]·y[i] in double-double, as a 1-element vector. */
export function dotDd(x: Float64Array, y: Float64Array): DdVector {
  const p: DdBuffer = new Float64Array(2);
  const s: DdBuffer = new Float64Array(2);
  for (let i = 0; i < x.length; i++) {
    twoProd(p, x[i]!, y[i]!);
    ddAdd(s, s[0]!, s[1]!, p[0]!, p[1]!);
  }
  return { hi: Float64Array.of(s[0]!), lo: Float64Array.of(s[1]!) };
}

/** A·x for a column-major m×n matrix `a` (element (i, j) at i + j·m), in double-double. */
export function gemvDd(m: number, n: number, a: Float64Array, x: Float64Array): DdVector {
  const hi = new Float64Array(m);
  const lo = new Float64Array(m);
  const p: DdBuffer = new Float64Array(2);
  const s: DdBuffer = new Float64Array(2);
  for (let j = 0; j < n; j++) {
    const xj = x[j]!;
    for (let i = 0; i < m; i++) {
      twoProd(p, a[i + j * m]!, xj);
      ddAdd(s, hi[i]!, lo[i]!, p[0]!, p[1]!);
      hi[i] = s[0]!;
      lo[i] = s[1]!;
    }
  }
  return { hi, lo };
}

/**
 * Solves T·x = b for a triangular column-major n×n matrix `t`, in double-double (x kept double-double
 * throughout, so the substitution adds no fp64 rounding).
 * @param uplo - which triangle of `t` holds the matrix
 * @param unitDiagonal - the diagonal is 1 and not read
 */
export function trsvDd(n: number, t: Float64Array, b: Float64Array, uplo: 'upper' | 'lower', unitDiagonal: boolean): DdVector {
  const hi = new Float64Array(n);
  const lo = new Float64Array(n);
  const p: DdBuffer = new Float64Array(2);
  const s: DdBuffer = new Float64Array(2);
  const order = uplo === 'upper' ? (k: number) => n - 1 - k : (k: number) => k;
  for (let k = 0; k < n; k++) {
    const i = order(k);
    s[0] = b[i]!;
    s[1] = 0;
    const [from, to] = uplo === 'upper' ? [i + 1, n] : [0, i];
    for (let j = from; j < to; j++) {
      ddMulNumber(p, hi[j]!, lo[j]!, -t[i + j * n]!);
      ddAdd(s, s[0]!, s[1]!, p[0]!, p[1]!);
    }
    if (!unitDiagonal) ddDiv(s, s[0]!, s[1]!, t[i + i * n]!, 0);
    hi[i] = s[0]!;
    lo[i] = s[1]!;
  }
  return { hi, lo };
}

/** A·x for an ELL matrix with fp64 values `values` (same layout as `A.values`), in double-double. */
export function ellSpmvDd(A: EllMatrix, values: Float64Array, x: Float64Array): DdVector {
  const hi = new Float64Array(A.rows);
  const lo = new Float64Array(A.rows);
  const p: DdBuffer = new Float64Array(2);
  const s: DdBuffer = new Float64Array(2);
  for (let i = 0; i < A.rows; i++) {
    s[0] = 0;
    s[1] = 0;
    for (let k = 0; k < A.width; k++) {
      const col = A.colIndex[i + k * A.stride]!;
      if (col === ELL_PADDING) break;
      twoProd(p, values[i + k * A.stride]!, x[col]!);
      ddAdd(s, s[0]!, s[1]!, p[0]!, p[1]!);
    }
    hi[i] = s[0]!;
    lo[i] = s[1]!;
  }
  return { hi, lo };
}

/** α·x + β·y in double-double. */
export function waxpbyDd(alpha: number, x: Float64Array, beta: number, y: Float64Array): DdVector {
  const n = x.length;
  const hi = new Float64Array(n);
  const lo = new Float64Array(n);
  const p: DdBuffer = new Float64Array(2);
  const q: DdBuffer = new Float64Array(2);
  for (let i = 0; i < n; i++) {
    twoProd(p, alpha, x[i]!);
    twoProd(q, beta, y[i]!);
    ddAdd(p, p[0]!, p[1]!, q[0]!, q[1]!);
    hi[i] = p[0]!;
    lo[i] = p[1]!;
  }
  return { hi, lo };
}

/**
 * Norm-wise relative error ‖ŷ − y‖₂ / ‖y‖₂ of `computed` (doubles, or double-double pairs) against the
 * double-double reference `y`. Each difference is formed as (ŷᵢ − hiᵢ) + (ŷloᵢ − loᵢ): the first
 * subtraction is exact when ŷᵢ is close to hiᵢ
 * (Sterbenz), so errors far below fp64's unit roundoff are resolved. A zero reference gives the absolute
 * error norm; a non-finite computed value gives Infinity (or NaN for NaN).
 */
export function relativeErrorDd(computed: ArrayLike<number> | DdVector, reference: DdVector): number {
  const c = 'hi' in computed ? computed : { hi: computed, lo: undefined };
  let errorSquares = 0;
  let normSquares = 0;
  let scale = 0;
  const n = c.hi.length;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(reference.hi[i]!));
  // Scaling by the largest reference entry keeps the squares away from overflow and underflow.
  const s = !(scale > 0) || !Number.isFinite(scale) ? 1 : scale < 2 ** -900 ? 2 ** 900 : scale > 2 ** 900 ? 2 ** -900 : 1 / scale;
  for (let i = 0; i < n; i++) {
    const d = ((c.hi[i]! - reference.hi[i]!) + ((c.lo?.[i] ?? 0) - reference.lo[i]!)) * s;
    errorSquares += d * d;
    const r = (reference.hi[i]! + reference.lo[i]!) * s;
    normSquares += r * r;
  }
  if (Number.isNaN(errorSquares)) return NaN;
  return normSquares > 0 ? Math.sqrt(errorSquares / normSquares) : Math.sqrt(errorSquares) / s;
}
