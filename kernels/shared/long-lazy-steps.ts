/**
 * Long lazy runs for the float-float streaming loops (issue 19, the `ffLongLazy` switch of
 * src/backends/webgpu/kernel-switches.ts): an accumulator takes up to {@link LONG_LAZY_TERMS} = 16 lazy terms between
 * two settles, counted across loop steps, where `mulAddGroup` settles at the end of every step (4 terms per
 * accumulator in GEMV N's and DOT's default shapes). A settle (TwoSum and ffFinish's special-value tests) costs about
 * as much as a lazy term, so three settles in four go.
 *
 * Why 16 terms keep the ff bounds (the argument of `lazyTerms` in src/formats/ff/ff-gpu-arithmetic.ts, for K terms):
 * u = 2^-24. A run starts from a settled pair (h₀, l₀), |l₀| ≤ u|h₀| (TwoSum; or (0, 0)). Let A be Σ of the magnitudes
 * added to the accumulator so far, this run's included, so |h₀| ≤ A and every head |h_j| ≤ A(1 + O(Ku)). Term j is a
 * pair (p_j, e_j) with p_j + e_j = a_j·b_j (TwoProd: exactly; ffMulF/ffMul for pair operands within the error the
 * other ff operations count alike) and |e_j| ≤ u|p_j|. TwoSum gives h_j + t_j = h_{j−1} + p_j exactly with
 * |t_j| ≤ u|h_j| ≤ uA; the tail becomes l_j = fl(l_{j−1} + fl(t_j + e_j)). The inner rounding errs by at most
 * u(|t_j| + |e_j|) ≤ u²(A + |p_j|); the outer by at most u|l_j|, and |l_j| ≤ |l₀| + Σ_{i≤j}(|t_i| + |e_i|)(1 + u)
 * ≤ uA + j·uA + uA = uA(j + 2) to first order. Over a run of k terms the error is at most
 *   u²A·(k + 1) + u²A·Σ_{j≤k}(j + 2) = u²A·(3k + 1 + k(k + 1)/2),
 * i.e. c_k = 3 + 1/k + (k + 1)/2 times u²A per term, which grows with k (5 at k = 1 and 2) to 11.5625 at k = 16 —
 * below 16u² = FF_UNIT_ROUNDOFF, the per-term unit of every float-float bound (each addition of the recursive sum
 * may err by 16u² of the partial magnitude: γ_n(16u²)). The settle is error-free (TwoSum) and restores |l| ≤ u|h|,
 * so the next run starts as this one did, and the sum keeps the form — and the bound — of a recursive sum with unit
 * roundoff 11.6u². (With 8 terms the constant is 7.6u²; 24 would give 15.5u², too close to spend.)
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import { lazyAccumulation, mulAddGroup } from '../../src/backends/webgpu/kernel-common.js';
import { gpuKernelSwitches, LONG_LAZY_TERMS } from '../../src/backends/webgpu/kernel-switches.js';

/** A step's multiply-adds in long lazy runs: declarations before the loop, the step's lines, the settles after it. */
export interface LongLazySteps {
  /** Before the loop: the step counter. */
  readonly declare: string[];
  /** One step's lazy multiply-adds, then (every `steps` steps) the settles. */
  readonly sums: string[];
  /** After the loop: every accumulator settled (the tail's multiply-adds and the combine need settled pairs). */
  readonly flush: string[];
  /** Steps between two settles. */
  readonly steps: number;
}

/**
 * A step's multiply-adds `acc += a·b` (in the order given) as long lazy runs, or `undefined` where they do not apply:
 * the `ffLongLazy` switch off, lazy accumulation off, or an arithmetic without lazy multiply-adds (f32). With T the
 * most terms one accumulator takes in a step, the accumulators settle every ⌊16/T⌋ steps (a counter, `lazyN`), or —
 * where T > 8, one step already a long run — after every 16 terms and at the step's end.
 * @param arithmetic - the arithmetic
 * @param terms - accumulator and operand registers of each term of one step
 * @returns the lines, or undefined
 */
export function longLazySteps(arithmetic: GpuArithmetic, terms: readonly { acc: string; a: GpuRegister; b: GpuRegister }[]): LongLazySteps | undefined {
  const { lazyMulAdd, settle, lazyTerms } = arithmetic;
  if (!gpuKernelSwitches().ffLongLazy || !lazyMulAdd || !settle || !lazyTerms || !lazyAccumulation()) return undefined;
  const perAcc = new Map<string, number>();
  for (const t of terms) perAcc.set(t.acc, (perAcc.get(t.acc) ?? 0) + 1);
  const most = Math.max(0, ...perAcc.values());
  const steps = Math.floor(LONG_LAZY_TERMS / Math.max(1, most));
  const accs = [...perAcc.keys()];
  if (steps <= 1) {
    // One step is a long run already: settle after 16 terms within it and at its end.
    return { declare: [], sums: mulAddGroup({ ...arithmetic, lazyTerms: LONG_LAZY_TERMS }, terms), flush: [], steps: 1 };
  }
  return {
    declare: ['let lazyN = mpI32(0);'],
    sums: [...terms.map((t) => lazyMulAdd(t.acc, t.a, t.b)), 'lazyN = lazyN + 1;', `if (lazyN === ${steps}) {`, ...accs.map((a) => settle(a)), 'lazyN = 0;', '}'],
    flush: accs.map((a) => settle(a)),
    steps,
  };
}
