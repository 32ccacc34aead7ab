/**
 * The settle of a streaming loop's lazy float-float accumulators without ffFinish's zero test (issue 19 item 4, the
 * `ffLeanSettle` switch of src/backends/webgpu/kernel-switches.ts). ffSettle(s) is TwoSum(s₀, s₁) = (h, l) followed by
 * ffFinish(h, l, s₀), which makes two tests: (1) a non-finite h gives (s₀, 0), keeping the binary32 sum of the heads
 * where lazy terms left a NaN tail; (2) h = ±0 with s₀ = ±0 gives (s₀, s₀), keeping a −0. The lean settle keeps (1)
 * and drops (2) — about 7 integer operations and two selects of a settle's ~18 operations, once every 8 lazy terms
 * (16 with `ffLongLazy`).
 *
 * Why (2) never changes a lazy accumulator of the streaming loops (so the bits are the default's): such an
 * accumulator starts as (+0, +0) (`declareZero`), and its head only ever becomes RN(s₀ + x) — the lazy term's
 * fma(1, s₀, p) or mpKeep(s₀ + p), the settle's s₀ + s₁ — or s₀ itself (test (1)). In round-to-nearest a sum is −0
 * only when both its addends are −0 (x + (−x) is +0), and 1·s₀ + x likewise, so by induction no head is −0. Then (2)
 * fires only with s₀ = +0 and h = +0, i.e. s₁ = ±0: TwoSum gives hb = +0 − +0 = +0, l = (+0 − (+0 − +0)) + (s₁ − +0)
 * = +0 + s₁ = +0 (for s₁ = −0 too), so (h, l) = (+0, +0) = (s₀, s₀) already. This needs subnormal results kept (as the
 * H100's binary32 arithmetic does): where an adapter flushes a negative subnormal sum to −0, a head can be −0 and a
 * zero's sign may then differ from the default's.
 * @module
 */
import type { GpuArithmeticPart, GpuHelperFunction } from '../common/gpu-part.js';
import { gpuKernelSwitches } from '../../backends/webgpu/kernel-switches.js';

/**
 * The float-float arithmetic of a streaming loop with the lean settle (the `ffLeanSettle` switch on, `arithmetic`
 * float-float with lazy multiply-adds); else `arithmetic` itself. Only for loops whose accumulators start at (+0, +0)
 * and take only lazy terms and settles until their last settle (GEMV's and DOT's streaming passes).
 * @param arithmetic - the loop's arithmetic
 * @returns the arithmetic to generate the loop with
 */
export function leanSettlePass<T extends GpuArithmeticPart>(arithmetic: T): T {
  if (!gpuKernelSwitches().ffLeanSettle || arithmetic.name !== 'ff' || arithmetic.components !== 2 || !arithmetic.lazyMulAdd || !arithmetic.settle) return arithmetic;
  // The pinned twin with ffFmaKeep, as the default's settle.
  const helper = gpuKernelSwitches().ffFmaKeep ? 'ffSettleLeanU' : 'ffSettleLean';
  return { ...arithmetic, settle: (acc) => `${acc} = ${helper}(${acc});` };
}

/**
 * The helper functions of {@link leanSettlePass}: `ffSettleLean(s)` pinned as `ffSettle` (mpKeep barriers) and
 * `ffSettleLeanU` as `ffSettleU` (sums as fma(1, x, y) with an opaque 1.0).
 * @param barrier - whether the compiler needs optimisation barriers
 * @returns the helpers
 */
export function leanSettleHelpers(barrier: boolean): GpuHelperFunction[] {
  const K = (x: string, op: '+' | '-', y: string): string => (barrier ? `mpKeep(${x} ${op} ${y})` : `(${x} ${op} ${y})`);
  const F = (x: string, op: '+' | '-', y: string): string => (barrier ? `mpFma(mpOne(), ${x}, ${op === '-' ? '-' : ''}${y})` : `(${x} ${op} ${y})`);
  // ffSettle's TwoSum, then ffFinish's first test only (a non-finite head: the heads' binary32 sum s₀, tail 0).
  const body = (sum: typeof K): string => `const h = ${sum('s[0]', '+', 's[1]')}; const hb = ${sum('h', '-', 's[0]')}; const l = (s[0] - (h - hb)) + (s[1] - hb);
  let rh = h; let rl = l;
  if ((mpBits(h) & 2147483647) >= 2139095040) { rh = s[0]; rl = 0.0; }
  return [rh, rl];`;
  const types = { argumentTypes: { s: 'Array(2)' }, returnType: 'Array(2)' };
  return [
    { source: `function ffSettleLean(s) {\n  ${body(K)}\n}`, ...types },
    { source: `function ffSettleLeanU(s) {\n  ${body(F)}\n}`, ...types },
  ];
}
