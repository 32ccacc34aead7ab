/**
 * The error measure of the study: the norm-wise relative error of a computed result against a
 * double-double reference, resolved far below fp64's unit roundoff.
 * @module
 */

/** A vector of double-double values: element i is hi[i] + lo[i]. */
export interface DdVector {
  readonly hi: Float64Array;
  readonly lo: Float64Array;
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
