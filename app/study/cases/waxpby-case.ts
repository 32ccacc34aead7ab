/**
 * WAXPBY case: w = α·x + β·y, the multiple-precision papers' vector kernel (seed 001).
 * @module
 */
import { waxpby } from '../../modprec.js';
import { waxpbyReference } from '../reference.js';
import { makeCase, type KernelCase } from '../kernel-case.js';
import { outputOf, valuesOf, vectorOf } from '../operands.js';
import { randomValues, studyRandom } from '../random-data.js';
import type { Distribution } from '../types.js';

/** Coefficients: exact in every format, neither 0 nor ±1 so both products round. */
const ALPHA = 0.75;
const BETA = -1.3125;

/**
 * A WAXPBY problem of length `n`.
 * @returns the case: 3n flops (two products and a sum), 3n values moved per call
 */
export function waxpbyCase(n: number, distribution: Distribution, seed: number): KernelCase {
  const x = randomValues(n, distribution, studyRandom(seed, 1));
  const y = randomValues(n, distribution, studyRandom(seed, 2));
  return makeCase({
    kernel: 'waxpby', problem: distribution, size: n, seed, flops: 3 * n, values: 3 * n, inputs: [x, y], integerLayouts: ['vector', 'vector'],
    referenceOf: ([a, b], precision) => waxpbyReference(ALPHA, a!, BETA, b!, precision),
    resultStored: true,
    // Two products per element; both coefficients are exact in every format.
    outputTerms: (ref) => Array.from(x, (xi, i) => ({
      terms: 2, absProducts: Math.abs(ALPHA * xi) + Math.abs(BETA * y[i]!), absInputs: Math.abs(xi) + Math.abs(y[i]!),
      absExact: Math.abs(ref.hi[i]! + ref.lo[i]!),
    })),
    bind: (config) => {
      const xr = vectorOf(config, x);
      const yr = vectorOf(config, y);
      const wr = outputOf(config, new Float64Array(n));
      const options = { arithmetic: config.arithmeticFormat };
      return {
        run: () => waxpby(ALPHA, xr, BETA, yr, wr, options),
        result: () => valuesOf(wr),
      };
    },
  });
}
