/**
 * A-priori forward error bound of ASUM (Σ|xᵢ|).
 *
 * Recursive summation of n terms makes n − 1 additions, the first of them exact (0 + |x₁|), so
 * |ŝ − Σ|x̃ᵢ|| ≤ γ_{n−1} Σ|x̃ᵢ| (Higham, Accuracy and Stability, eq. 4.4); other accumulations give their own
 * factor β. Each read x̃ᵢ = x̂ᵢ(1 + θ_r) + ξᵢ (r read roundings, |ξᵢ| ≤ 2rη for underflow), so against the
 * stored values x̂:
 *   |ŝ − Σ|x̂ᵢ|| ≤ (β + γ_r(1 + β)) Σ|x̂ᵢ| + (1 + β) Σ|ξᵢ|.
 * Taking |·| is exact, and additions do not underflow (a subnormal sum is exact), so nothing else adds error
 * before the result of a dd or RNS arithmetic is rounded to the double asum returns (u₆₄·|ŝ| more).
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { checkRange, checkReadableIn } from '../shared/kernel-options.js';
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';
import { gamma, recursiveAccumulation } from '../shared/accumulation.js';
import { arithmeticLimits, elementReadRoundings, flushableRead, returnedDoubleBound, scaledReadOverflows, scaleUnderflowError, storedMagnitude } from '../shared/bound-terms.js';

/**
 * Upper bound on |asum(x, options) − Σ|x̂ᵢ||, x̂ the values as stored.
 * @param x - the vector summed
 * @param options - the kernel's options (arithmetic decides u; accumulation the summation factor; `backend`, `strict` and `threads` are checked as asum checks them)
 * @returns a non-negative number: 0 for an empty vector, ∞ when an element is not finite, the sum could
 *   overflow the arithmetic, or n·u ≥ 1
 * @throws {@link ModprecError} `INVALID_FORMAT` for an unknown arithmetic, `INVALID_OPTION` for an unknown accumulation or one the
 *   kernel refuses in the arithmetic (e.g. 'kahan' in dd)
 *   — and, before computing anything, every error asum raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, asum, asumBound } from 'modprec';
 *
 * const x = vector([0.1, -0.2, 0.3]);
 * const s = asum(x, { arithmetic: 'f32' });
 * const b = asumBound(x, { arithmetic: 'f32' }); // |s − Σ|x̂ᵢ|| ≤ b
 * Math.abs(s - 0.6) <= b + 1e-16; // → true
 * ```
 * @group Kernels
 */
export function asumBound(x: Range<1, any>, options: BoundBackendOptions = {}): number {
  checkRange('x', x, 1);
  const n = x.length();
  // Options are checked as asum checks them, also where the bound is 0.
  const { arithmetic: ar, accumulation: acc } = checkBoundOptions({
    kernel: 'asum', operands: [['x', x]], cpuOperands: [['x', x, 'read']], split: () => ({ x }),
    values: (arithmetic) => checkReadableIn(arithmetic, [['x', x]]),
  }, options);
  if (n === 0) return 0;
  const u = ar.unitRoundoff;
  const { max, readEta } = arithmeticLimits(ar);
  let absSum = 0;
  let reads = 0;
  let underflow = 0;
  for (let i = 0; i < n; i++) {
    if (scaledReadOverflows(x.accessor, ar, [i])) return Infinity;
    const v = storedMagnitude(x, i);
    absSum += v;
    const r = Math.max(elementReadRoundings(x, ar, i), flushableRead(v, readEta));
    reads = Math.max(reads, r);
    underflow += 2 * r * readEta + scaleUnderflowError(x, ar, i);
  }
  // The fp64 sum above rounds n − 1 times: enlarge it so it stays an upper bound.
  absSum *= 1 + (n + 2) * 2 ** -52;
  if (!Number.isFinite(absSum) || absSum * (1 + gamma(n + reads, u)) >= max) return Infinity;
  // The plain loop's first addition is exact: γ_{n−1}. A plugged-in strategy states its own sum bound.
  const sumFactor = acc === recursiveAccumulation ? gamma(n - 1, u) : (() => {
    const b = acc.bound(n, u);
    return b.ofAbsSum + b.ofResult;
  })();
  if (!(sumFactor < 1)) return Infinity;
  const readFactor = gamma(reads, u);
  const error = ((sumFactor + readFactor * (1 + sumFactor)) * absSum + (1 + sumFactor) * underflow) * (1 + 2 ** -40);
  // What asum returns is a double: a dd or RNS sum is rounded once more.
  return returnedDoubleBound(ar, absSum, error);
}
