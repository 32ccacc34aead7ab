/** Coefficients (α, β) for the element-wise kernels: zero, one, exact and inexact in fp32, tiny and large. */
import fc from 'fast-check';
import { uniformUnit } from '../../../src/testing/data-arbitraries.js';

/** α or β: 0 and 1 often (the kernels' special cases), 0.1 and 1/3 (not fp32 numbers), 2^-140 and 2^100 (to meet underflow and amplify it), random magnitudes. */
export function coefficient(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(0, 1, -1, 0.1, 1 / 3, 2 ** -140, -3, 2 ** 100),
    fc.tuple(uniformUnit(), fc.integer({ min: -3, max: 2 })).map(([v, k]) => v * 2 ** k),
  );
}
