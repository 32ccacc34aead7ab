/**
 * Building blocks of the a-priori forward error bounds: how many roundings a kernel's data path adds on top
 * of the arithmetic's own (Higham's γ_n counting), and the output's storage rounding.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/format.js';
import type { Range } from '../../src/range.js';
import { numberOfKind } from '../../src/arithmetic/f64.js';

/**
 * Roundings a read of `r` adds in arithmetic `ar`: one when the stored value has more significand bits than
 * the arithmetic holds (it is rounded on the way in), one more for the scale multiplication of a scaled
 * accessor. Zero for exact reads (e.g. fp32 storage into fp64 arithmetic).
 */
export function readRoundings(r: Range<any, any>, ar: ArithmeticFormat): number {
  const st = r.accessor.storage;
  const exact = st.kind === ar.kind || st.kind === 'number' ? st.significandBits <= ar.significandBits : false;
  return (exact ? 0 : 1) + (r.accessor.scale ? 1 : 0);
}

/**
 * Relative rounding of a write to `r`'s storage (0 when the storage holds every arithmetic value exactly).
 * Integer storage has an absolute error instead (half the scale): see {@link writeAbsoluteError}.
 */
export function writeRelativeError(r: Range<any, any>, ar: ArithmeticFormat): number {
  const st = r.accessor.storage;
  if (st.isInteger) return 0;
  return st.significandBits >= ar.significandBits && (st.kind === ar.kind || ar.kind === 'number') ? 0 : st.unitRoundoff;
}

/** Absolute error of a write to element `index` of an integer-scaled range (half a quantum), else 0. */
export function writeAbsoluteError(r: Range<any, any>, index: readonly number[]): number {
  const a = r.accessor;
  if (!a.storage.isInteger) return 0;
  return 0.5 * Math.abs(a.readScale(...index));
}

/** Σ|fᵢ|·|gᵢ| over the values a range holds (rounded to doubles), rounded upward by a safe margin. */
export function absProductSum(n: number, f: (i: number) => number, g: (i: number) => number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.abs(f(i) * g(i));
  // The fp64 evaluation of this sum has relative error ≤ γ_n(2^-53); add it so the bound stays an upper bound.
  return s * (1 + 2 * (n + 2) * 2 ** -53);
}

/**
 * Element i of a 1-D range as stored (decoded exactly, times its scale), rounded only to a double — not to the
 * range's arithmetic, which may be narrower than the storage.
 */
export function storedValues(r: Range<1, any>): (i: number) => number {
  const a = r.accessor;
  return (i: number) => numberOfKind(a.storage.kind, a.storage.decode(a.data as never, a.linearIndex([i]))) * a.readScale(i);
}
