/**
 * DOT case: xᵀy for random x, y (seed 004, Figure 9).
 * @module
 */
import { dot } from '../../../kernels/dot/dot.js';
import { dotBound } from '../../../kernels/dot/dot-bound.js';
import { dotDd } from '../dd-reference.js';
import { makeCase, type KernelCase } from '../kernel-case.js';
import { vectorOf } from '../operands.js';
import { randomValues, studyRandom } from '../random-data.js';
import type { Distribution } from '../types.js';

/**
 * A DOT problem of length `n` with values of `distribution` drawn from `seed`.
 * @returns the case: 2n flops, 2n values read per call
 */
export function dotCase(n: number, distribution: Distribution, seed: number): KernelCase {
  const x = randomValues(n, distribution, studyRandom(seed, 1));
  const y = randomValues(n, distribution, studyRandom(seed, 2));
  const c = makeCase({
    kernel: 'dot', problem: distribution, size: n, seed, flops: 2 * n, values: 2 * n, inputs: [x, y],
    referenceOf: ([a, b]) => dotDd(a!, b!),
    bind: (config) => {
      const xr = vectorOf(config, x);
      const yr = vectorOf(config, y);
      const options = { arithmetic: config.arithmeticFormat };
      let last = NaN;
      return {
        run: () => { last = dot(xr, yr, options); },
        result: () => Float64Array.of(last),
        bound: () => dotBound(xr, yr, { ...options, original: true }) / Math.abs(c.reference().hi[0]!),
      };
    },
  });
  return c;
}
