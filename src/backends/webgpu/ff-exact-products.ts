/**
 * Float-float streaming loops whose products are exact in binary32 (issue 19 item 4, the `ffExactProducts` switch of
 * ./kernel-switches.ts): a bf16 value has an 8-bit significand and an f16 one 11 bits, so the product of two such
 * values has at most 16, 19 or 22 significant bits and one binary32 multiplication rounds it exactly (unless it
 * falls below binary32's normal range or overflows, which only a bf16 factor allows — f16·f16 lies in 2^-48 … 2^32: see
 * below). Where both operands of a lazy float-float term are
 * read from unscaled bf16/f16 storage — DOT of two 16-bit vectors, GEMV N and T of a 16-bit matrix and vector — the
 * term is added as `ffLazyMulAddExact(s, a, b)`: p = a·b rounded once, then the lazy addition of the pair (p, 0)
 * without its zero tail. That saves TwoProd's error term (an fma with a fused fma, Dekker's split of ~17 operations
 * without one) and the tail's addition of it: 8 floating-point operations a term instead of 10.
 *
 * Why the bits equal the default's (ffLazyAdd(s, ffTwoProd(a, b))), on an adapter with a fused fma (the H100):
 * TwoProd's error term is e = fma(a, b, −p) = RN(a·b − p). Where a·b is a binary32 number (normal or subnormal), p =
 * a·b and e = +0. Where it is not (its low bits fall below 2^-149), |a·b − p| ≤ 2^-150 — half the smallest subnormal
 * — which rounds to ±0 (a tie goes to the even 0). Where p overflows, e = ∓∞ and where an operand is NaN, e is NaN.
 * The default's tail is fl(l + fl(t + e)), this form's fl(l + t), with t = (s₀ − (h − hb)) + (p − hb) the TwoSum error
 * of h = fl(s₀ + p). t is never −0: a round-to-nearest sum is −0 only when both its terms are −0, and s₀ − (h − hb) =
 * −0 needs s₀ = −0 and h − hb = +0 while p − hb = −0 needs p = −0 and hb = +0 — but s₀ = p = −0 make h = −0, hb = +0
 * and h − hb = −0. So fl(t ± 0) = t bit for bit, and with a finite head both tails are the same number. A non-finite
 * p makes the head ±∞ or NaN in both forms (the same binary32 sum of the same heads) and both tails NaN, which the
 * settle (ffFinish) replaces by 0 from the head alone. Same heads, same tails, same settles: the same bits. Without a
 * fused fma, Dekker's split is exact for a representable product too (e = ±0, the same argument), so the bits agree
 * there as well except where a product underflows: Dekker's e is then not RN(a·b − p).
 *
 * Bound: the term's product errs by |a·b − p| ≤ η = 2^-150 (a rounding into the subnormal range) and is exact
 * otherwise — the default's TwoProd with a fused fma errs by exactly as much (its e is 0 there) — and the lazy
 * addition's analysis (`lazyTerms` in src/formats/ff/ff-gpu-arithmetic.ts) holds with e = 0. So dotBound and gemvBound
 * (γ_k Σ|a·b| plus the n·η underflow term) hold unchanged.
 *
 * The x-split of an fp32 x against a 16-bit matrix (x = x₁ + x₂, x₁ its top 16 significand bits, so a·x₁ and a·x₂
 * are exact) is not done: with a fused fma TwoProd is already two operations, the split's two multiplications, and
 * its pair (a·x₁, a·x₂) is not normalised (|a·x₂| up to 2^-16|a·x|), so the lazy tail's rounding of it would err by
 * ~2^-40 of the term against the 2^-44 per term of the float-float bounds; normalising it (Fast2Sum) costs three
 * operations more than TwoProd. It only pays without a fused fma.
 * @module
 */
import type { GpuArithmeticPart, GpuHelperFunction } from '../../formats/common/gpu-part.js';
import type { DeviceArray } from './device-array.js';
import { gpuKernelSwitches, perSwitchSetting } from './kernel-switches.js';

/** Significand bits of the binary32 value a read of `array` yields exactly, for the formats this form trusts. */
function exactReadBits(array: DeviceArray): number | undefined {
  if (array.format.scaled || array.rangeScale) return undefined;
  return array.format.name === 'bf16' ? 8 : array.format.name === 'f16' ? 11 : undefined;
}

/**
 * Whether every product of an element of `a` with one of `b` is a binary32 number whenever it lies in binary32's
 * range (both unscaled bf16/f16: at most 11 + 11 = 22 ≤ 24 significant bits).
 * @param a - one operand
 * @param b - the other
 * @returns whether the products are exact
 */
export function exactProducts(a: DeviceArray, b: DeviceArray): boolean {
  const bitsA = exactReadBits(a), bitsB = exactReadBits(b);
  return bitsA !== undefined && bitsB !== undefined && bitsA + bitsB <= 24;
}

/**
 * The float-float arithmetic of a streaming loop over `a`·`b` with its lazy terms as exact products (with the
 * `ffExactProducts` switch on, `arithmetic` float-float with lazy multiply-adds, and {@link exactProducts}); else
 * `arithmetic` itself. Terms with a pair operand keep the arithmetic's own form.
 * @param arithmetic - the loop's arithmetic
 * @param a - the operand read into one side of each term
 * @param b - the other
 * @returns the arithmetic to generate the loop with
 */
export function exactProductPass(arithmetic: GpuArithmeticPart, a: DeviceArray, b: DeviceArray): GpuArithmeticPart {
  if (!gpuKernelSwitches().ffExactProducts || arithmetic.name !== 'ff' || arithmetic.components !== 2 || !arithmetic.lazyMulAdd || !exactProducts(a, b)) return arithmetic;
  return exactPassOf(arithmetic);
}

/** The exact-products form of an arithmetic, made once per setting of the switches (a copy per call was garbage). */
const exactPassOf = perSwitchSetting((arithmetic: GpuArithmeticPart): GpuArithmeticPart => {
  const lazy = arithmetic.lazyMulAdd!;
  // The pinned twin with ffFmaKeep, as the default's lazy terms.
  const helper = gpuKernelSwitches().ffFmaKeep ? 'ffLazyMulAddExactU' : 'ffLazyMulAddExact';
  return {
    ...arithmetic,
    lazyMulAdd: (acc, x, y) => (x.kind === 'f32' && y.kind === 'f32' ? `${acc} = ${helper}(${acc}, ${x.name}, ${y.name});` : lazy.call(arithmetic, acc, x, y)),
  };
});

/**
 * The helper functions of {@link exactProductPass}: `ffLazyMulAddExact(s, a, b)` (s + a·b, lazily, for an exact a·b)
 * pinned as the default's lazy terms — `ffLazyAdd` with mpKeep barriers, and `ffLazyMulAddExactU` as `ffLazyAddU` and
 * `ffTwoProdU` (sums as fma(1, x, y) with an opaque 1.0; the product as fma(a, b, −0) where fma is fused).
 * @param fused - whether `fma` rounds once on this adapter
 * @param barrier - whether the compiler needs optimisation barriers
 * @returns the helpers
 */
export function exactProductHelpers(fused: boolean, barrier: boolean): GpuHelperFunction[] {
  const K = (e: string): string => (barrier ? `mpKeep(${e})` : `(${e})`);
  const F = (x: string, op: '+' | '-', y: string): string => (barrier ? `mpFma(mpOne(), ${x}, ${op === '-' ? '-' : ''}${y})` : `(${x} ${op} ${y})`);
  // The head's TwoSum and the tail as ffLazyAdd's (src/backends/webgpu/arithmetic.ts), with b = (p, 0) and no `+ 0`.
  const body = (p: string, sum: (x: string, op: '+' | '-', y: string) => string): string => `const p = ${p};
  const h = ${sum('s[0]', '+', 'p')}; const hb = ${sum('h', '-', 's[0]')}; const t = (s[0] - (h - hb)) + (p - hb);
  return [h, s[1] + t];`;
  const ff2 = 'Array(2)';
  const types = { argumentTypes: { s: ff2, a: 'Number', b: 'Number' }, returnType: ff2 };
  return [
    { source: `function ffLazyMulAddExact(s, a, b) {\n  ${body(K('a * b'), (x, op, y) => K(`${x} ${op} ${y}`))}\n}`, ...types },
    { source: `function ffLazyMulAddExactU(s, a, b) {\n  ${body(fused && barrier ? 'mpFma(a, b, mpNegZero())' : K('a * b'), F)}\n}`, ...types },
  ];
}
