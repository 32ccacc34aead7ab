/**
 * A-priori forward error bound of WAXPBY (w := α·x + β·y), per component (the pieces it shares with the other
 * BLAS-1 bounds are in kernels/shared/bound-terms.ts).
 *
 * Model (Higham, Accuracy and Stability of Numerical Algorithms, §2.2 with underflow, eq. 2.8):
 * every operation of the arithmetic gives fl(z) = z(1 + δ) + ξ with |δ| ≤ u and |ξ| ≤ η, where η is half the
 * arithmetic's smallest subnormal (ξ = 0 for additions). A product of k factors (1 + δ) is 1 + θ_k with
 * |θ_k| ≤ γ_k = ku/(1 − ku) (Lemma 3.1). All bounds are relative to the values AS STORED (stored × scale
 * for scaled accessors), so they must be computed before the kernel overwrites its output.
 *
 * The kernel computes t = fl(fl(α̃·x̃) + fl(β̃·ỹ)), where x̃, ỹ are the reads (rₓ, r_y roundings: the
 * storage→arithmetic conversion, the scale's conversion and the scale product) and α̃, β̃ the coefficients
 * converted to the arithmetic (one rounding unless exact). So
 *   |t − (αx̂ + βŷ)| ≤ γ_{kα+rₓ+2}|αx̂| + γ_{kβ+r_y+2}|βŷ| + (underflow terms),
 * with one rounding less per path when the other coefficient is zero (the kernel then skips the addition).
 * Then t is stored: divided by w's scale (scaled accessors) and rounded to w's storage — a relative error
 * u_s (floating-point storage) or an absolute one of half the scale (integer storage).
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { storeBound, termBound, scaledWriteFails } from '../shared/bound-terms.js';
import { checkWaxpbyArguments, checkWaxpbyValues } from './waxpby-arguments.js';
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';


/**
 * Upper bound on |w_i − (αx̂_i + βŷ_i)| for each i after `waxpby(alpha, x, beta, y, w, options)`, where x̂, ŷ
 * are the values stored in x and y BEFORE the call (call this first: w may be x or y).
 * A zero coefficient drops its term (the kernel does not read that vector); ∞ where a value involved is not
 * finite or the result could overflow or saturate w's storage.
 * @param alpha - coefficient of x
 * @param x - first input
 * @param beta - coefficient of y
 * @param y - second input
 * @param w - the output (its storage and scales decide the final rounding)
 * @param options - the kernel's options (the arithmetic decides u; `backend`, `strict` and `threads` are checked as waxpby checks them)
 * @returns one bound per component (empty for empty vectors)
 * @throws {@link ModprecError} `INVALID_FORMAT` for an unknown arithmetic
 *   — and, before computing anything, every error waxpby raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, waxpby, waxpbyBound } from 'modprec';
 *
 * const x = vector([0.1, 0.2]), y = vector([0.3, 0.4]), w = vector(2);
 * const bound = waxpbyBound(2, x, -1, y, w, { arithmetic: 'f32' });
 * waxpby(2, x, -1, y, w, { arithmetic: 'f32' }); // |w_i − (2x_i − y_i)| ≤ bound[i]
 * bound.length; // → 2
 * ```
 * @group Kernels
 */
export function waxpbyBound(
  alpha: number, x: Range<1, any>, beta: number, y: Range<1, any>, w: Range<1, any>, options: BoundBackendOptions = {},
): Float64Array {
  checkWaxpbyArguments(alpha, x, beta, y, w);
  const n = x.length();
  const out = new Float64Array(n);
  // Options are checked as waxpby checks them, also where every bound is 0.
  const { arithmetic: ar } = checkBoundOptions({
    kernel: 'waxpby', operands: [['x', x], ['y', y], ['w', w]], cpuOperands: [...(alpha !== 0 ? [['x', x, 'read'] as const] : []), ...(beta !== 0 ? [['y', y, 'read'] as const] : []), ['w', w, 'write']], elementwise: true,
    split: () => ({ alpha, x, beta, y, w }), values: (arithmetic) => checkWaxpbyValues(arithmetic, alpha, x, beta, y),
  }, options);
  if (n === 0) return out;
  const useX = alpha !== 0;
  const useY = beta !== 0;
  // With both terms, each path ends in the addition; with one, the addition is skipped or adds an exact 0.
  const operations = useX && useY ? 2 : 1;
  for (let i = 0; i < n; i++) {
    let magnitude = 0;
    let error = 0;
    if (useX) { const b = termBound(alpha, x, i, ar, operations); magnitude += b.magnitude; error += b.error; }
    if (useY) { const b = termBound(beta, y, i, ar, operations); magnitude += b.magnitude; error += b.error; }
    out[i] = useX || useY ? storeBound(w, i, ar, magnitude, error) : scaledWriteFails(w, i, ar) ? Infinity : 0;
  }
  return out;
}
