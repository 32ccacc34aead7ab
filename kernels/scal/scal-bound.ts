/**
 * A-priori forward error bound of SCAL (x := α·x), per component.
 *
 * The kernel computes t = fl(α̃·x̃): one multiplication after the read roundings rₓ and, unless α is exact in
 * the arithmetic, α's conversion, so |t − αx̂| ≤ γ_{kα+rₓ+1}|αx̂| — u|αx̂| when the read and α are exact —
 * and the store back into x's storage adds its rounding (see {@link storeBound}). α = 0 stores zeros
 * (exact: BLAS's convention, NaN in x does not survive) and α = 1 leaves x untouched: both bound 0.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { storeBound, termBound, scaledWriteFails } from '../shared/bound-terms.js';
import { checkScalArguments, checkScalValues } from './scal-arguments.js';
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';

/**
 * Upper bound on |x_i(after) − αx̂_i| for each i after `scal(alpha, x, options)`, with x̂ the values stored
 * BEFORE the call — so call this first. ∞ where a value involved is not finite or αx̂_i could overflow or
 * saturate x's storage.
 * @param alpha - the coefficient α
 * @param x - the vector scaled in place
 * @param options - the kernel's options (the arithmetic decides u; `backend`, `strict` and `threads` are checked as scal checks them)
 * @returns one bound per component (empty for empty vectors)
 * @throws {@link ModprecError} `INVALID_FORMAT` for an unknown arithmetic
 *   — and, before computing anything, every error scal raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, formats, scal, scalBound } from 'modprec';
 *
 * const x = vector([1, 3], { storage: formats.f32, arithmetic: formats.f32 });
 * const bound = scalBound(0.1, x);   // before the call: it reads x
 * scal(0.1, x); // |x_i − 0.1·x̂_i| ≤ bound[i]
 * bound.every((b) => b > 0 && b < 1e-7); // → true
 * ```
 * @group Kernels
 */
export function scalBound(alpha: number, x: Range<1, any>, options: BoundBackendOptions = {}): Float64Array {
  checkScalArguments(alpha, x);
  const n = x.length();
  const out = new Float64Array(n);
  // Options are checked as scal checks them, also where every bound is 0.
  const { arithmetic: ar } = checkBoundOptions({
    kernel: 'scal', operands: [['x', x]], cpuOperands: [['x', x, 'write']], elementwise: true, split: () => ({ alpha, x }),
    values: (arithmetic) => checkScalValues(arithmetic, alpha, x),
  }, options);
  if (n === 0 || alpha === 1) return out;
  // α = 0 stores exact zeros — through the scale, which may convert to 0 or ±∞ in the arithmetic (0/0 = NaN).
  if (alpha === 0) { for (let i = 0; i < n; i++) out[i] = scaledWriteFails(x, i, ar) ? Infinity : 0; return out; }
  for (let i = 0; i < n; i++) {
    const product = termBound(alpha, x, i, ar, 1);
    out[i] = storeBound(x, i, ar, product.magnitude, product.error);
  }
  return out;
}
