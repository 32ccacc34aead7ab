/**
 * A-priori forward error bound of DOT (Higham, Accuracy and Stability, eq. 3.5):
 * |fl(xᵀy) − xᵀy| ≤ γ_k Σ|xᵢyᵢ|, with k = n plus the roundings the reads add (storage wider than the
 * arithmetic, scales). Relative to the values as stored; see {@link DotBoundOptions.original}.
 * @module
 */
import type { Range } from '../../src/range.js';
import { chooseArithmetic } from '../codegen/kernel-options.js';
import { gamma, resolveAccumulation } from '../codegen/accumulation.js';
import { absProductSum, readRoundings } from '../codegen/bound-terms.js';
import type { DotOptions } from './dot.js';

/** Options of {@link dotBound}: the kernel's options plus what the bound is relative to. */
export interface DotBoundOptions extends DotOptions {
  /**
   * When true, also count the storage rounding of the inputs, so the bound holds against the exact dot
   * product of the ORIGINAL values that were written into x and y (not only of what the storage kept).
   */
  original?: boolean;
}

/**
 * Upper bound on |dot(x, y, options) − exact| for the same operands and options.
 * @returns a non-negative number (∞ when n·u ≥ 1)
 */
export function dotBound(x: Range<1, any>, y: Range<1, any>, options: DotBoundOptions = {}): number {
  const n = x.length();
  if (n === 0) return 0;
  const ar = chooseArithmetic(options.arithmetic, [x, y]);
  const acc = resolveAccumulation(options.accumulation);
  const u = ar.unitRoundoff;
  const extra = readRoundings(x, ar) + readRoundings(y, ar);
  const xs = (i: number) => x.accessor.arithmetic.toNumber(x.get(i));
  const ys = (i: number) => y.accessor.arithmetic.toNumber(y.get(i));
  const absSum = absProductSum(n, xs, ys);
  const b = acc.bound(n, u);
  // Read roundings perturb each term by (1+δ)^extra before the sum: fold them in as extra γ terms.
  let bound = (b.ofAbsSum + gamma(extra, u) * (1 + b.ofAbsSum)) * absSum;
  if (b.ofResult > 0) bound += b.ofResult * absSum;
  if (options.original) {
    const us = Math.max(x.accessor.storage.unitRoundoff || 0, y.accessor.storage.unitRoundoff || 0);
    bound += ((1 + us) ** 2 - 1) * absSum * (1 + bound / Math.max(absSum, Number.MIN_VALUE));
  }
  return bound;
}
