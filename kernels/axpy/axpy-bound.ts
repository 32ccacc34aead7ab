/**
 * A-priori forward error bound of AXPY (y := α·x + y), per component.
 *
 * The kernel computes t = fl(fl(α̃·x̃) + ỹ) (two roundings: JavaScript has no fused multiply-add), so with
 * the read roundings rₓ, r_y and kα = 1 when α is not exact in the arithmetic (Higham, Accuracy and
 * Stability, §3.1 and Lemma 3.1):
 *   |t − (αx̂ + ŷ)| ≤ γ_{kα+rₓ+2}|αx̂| + γ_{r_y+1}|ŷ|,
 * then the store into y's storage adds its rounding (see {@link storeBound}). Relative to the values as
 * stored before the call.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { storeBound, termBound } from '../shared/bound-terms.js';
import { checkAxpyArguments, checkAxpyValues } from './axpy-arguments.js';
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';

/**
 * Upper bound on |y_i(after) − (αx̂_i + ŷ_i)| for each i after `axpy(alpha, x, y, options)`, where x̂, ŷ are
 * the values stored BEFORE the call — so call this first. α = 0 leaves y untouched: every bound is 0.
 * ∞ where a value involved is not finite or the result could overflow or saturate y's storage.
 * @param alpha - the coefficient α
 * @param x - the vector added
 * @param y - the vector updated (its storage and scales decide the final rounding)
 * @param options - the kernel's options (the arithmetic decides u; `backend`, `strict` and `threads` are checked as axpy checks them)
 * @returns one bound per component (empty for empty vectors)
 * @throws {@link ModprecError} `INVALID_FORMAT` for an unknown arithmetic
 *   — and, before computing anything, every error axpy raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, axpy, axpyBound } from 'modprec';
 *
 * const x = vector([0.1, 0.2]), y = vector([0.3, 0.4]);
 * const bound = axpyBound(0.5, x, y, { arithmetic: 'f32' });   // before the call: it reads y
 * axpy(0.5, x, y, { arithmetic: 'f32' }); // |y_i − (0.5x̂_i + ŷ_i)| ≤ bound[i]
 * bound.every((b) => b > 0 && b < 1e-7); // → true
 * ```
 * @group Kernels
 */
export function axpyBound(alpha: number, x: Range<1, any>, y: Range<1, any>, options: BoundBackendOptions = {}): Float64Array {
  checkAxpyArguments(alpha, x, y);
  const n = x.length();
  const out = new Float64Array(n);
  // Options are checked as axpy checks them, also where every bound is 0.
  const { arithmetic: ar } = checkBoundOptions({
    kernel: 'axpy', operands: [['x', x], ['y', y]], cpuOperands: [['x', x, 'read'], ['y', y, 'write']], elementwise: true, split: () => ({ alpha, x, y }),
    values: (arithmetic) => checkAxpyValues(arithmetic, alpha, x, y),
  }, options);
  if (n === 0 || alpha === 0) return out;
  for (let i = 0; i < n; i++) {
    const product = termBound(alpha, x, i, ar, 2); // multiplication and addition
    const addend = termBound(1, y, i, ar, 1); // addition only
    out[i] = storeBound(y, i, ar, product.magnitude + addend.magnitude, product.error + addend.error);
  }
  return out;
}
