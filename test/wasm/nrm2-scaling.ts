/**
 * The scaling the NRM2 kernels apply against overflow and underflow, as the WebAssembly tests' oracles recompute it:
 * with max|xᵢ| in [2^e, 2^(e+1)), every element is multiplied by 2^h1 and then 2^h2 (h1 + h2 = −e), the root of the
 * sum of squares taken, and the result multiplied back by 2^(e − ⌊e/2⌋)·2^⌊e/2⌋.
 */

/** The binade exponent e of `max` (> 0, finite) and the two scaling steps h1, h2 towards 1. */
export function nrm2Scaling(max: number): { e: number; h1: number; h2: number } {
  let e = Math.floor(Math.log2(max));
  if (max * 2 ** -e >= 2) e++;
  if (max * 2 ** -e < 1) e--;
  const h1 = Math.trunc(-e / 2);
  return { e, h1, h2: -e - h1 };
}

/** The root `r` of the scaled sum of squares scaled back by 2^e, in the kernels' two steps. */
export function unscaled(r: number, e: number): number {
  return r * 2 ** (e - Math.trunc(e / 2)) * 2 ** Math.trunc(e / 2);
}
