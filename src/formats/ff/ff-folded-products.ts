/**
 * Float-float lazy terms with TwoProd's error folded into the TwoSum's tail (issue 19 item 4, the `ffFoldedProducts`
 * switch of src/backends/webgpu/kernel-switches.ts): 8 floating-point operations a term of two binary32 operands
 * instead of 10, for the streaming loops whose products are not exact (an fp32 x against a 16-bit or fp32 matrix, DOT
 * of fp32 vectors). The default term is ffLazyAdd(s, TwoProd(a, b)):
 *
 *   p = RN(a·b), e = RN(a·b − p)                       (2: TwoProd by fma; e exact)
 *   h = RN(s₀ + p), hb = RN(h − s₀)                    (2)
 *   δa = s₀ − (h − hb), δb = p − hb, t = δa + δb       (4: Knuth's TwoSum, each exact)
 *   l = s₁ + (t + e)                                   (2)
 *
 * This form computes δb + e in one fma: δb + e = (p − hb) + (a·b − p) = a·b − hb exactly, so
 * f = fma(a, b, −hb) = RN(δb + e), and the tail is l = s₁ + (δa + f) — the default's operations less δb, t + e's
 * addition and e itself, one more rounding (f) in the tail. The head h is the default's bit for bit; the tail has
 * other bits (another rounding within the same bounds).
 *
 * Bound (the argument of `lazyTerms` in ./ff-gpu-arithmetic.ts, u = 2^-24, A = Σ of the magnitudes added so far, a
 * run of k lazy terms from a settled pair, |l₀| ≤ u|h₀|): t = δa + δb is the exact error of h, |t| ≤ u|h| ≤ uA. In
 * Knuth's TwoSum, either |s₀| ≥ |p|, where hb = h − s₀ exactly, δa = 0 and δb = t; or |p| > |s₀|, where hb = RN(p − t)
 * lies within |t| of p − t, so |δb| = |p − hb| ≤ 2|t| and |δa| = |t − δb| ≤ 3|t|. Either way |δb + e| ≤ 2uA + u|p|,
 * so f errs by at most u²(2A + |p|); |δa + f| ≤ u(A + |p|) + O(u²), so its rounding errs by at most u²(A + |p|) —
 * together u²(3A + 2|p|) a term, where the default's one inner rounding errs by u²(A + |p|). The tail keeps the
 * default's size, |l_j| ≤ uA(j + 2) (δa + f is t + e within u²), so the outer roundings err as there. Over k terms:
 *   u²A·(3k + 2) + u²A·Σ_{j≤k}(j + 2) = u²A·(5k + 2 + k(k + 1)/2),
 * i.e. 9.75u² a term at k = 8 (the arithmetic's lazyTerms) and 13.6u² at k = 16 (`ffLongLazy`) — below the 16u² per
 * term of every float-float bound (FF_UNIT_ROUNDOFF). Underflow: f is one rounding of a real where the default rounds
 * e (fma(a, b, −p)), so a term still adds at most one η = 2^-150 (the n·η term of dotBound and gemvBound); the sums are
 * of binary32 numbers, exact where their result is subnormal.
 *
 * Special values: the head is the default's (the binary32 sum of the heads), and a non-finite p or head makes the tail
 * NaN as in the default (h − hb = ∞ − ∞ or a NaN operand), which the settle (ffFinish) replaces from the head. With
 * finite heads f is finite (|a·b − hb| ≤ |δb| + |e|).
 *
 * Without a fused fma (Dekker's TwoProd, exact for products in binary32's normal range) the fold is f = RN((p − hb) + e)
 * with e Dekker's error term: the same value as the fused fma's wherever Dekker's e is exact, since p − hb is exact.
 * @module
 */
import type { GpuArithmeticPart, GpuHelperFunction } from '../common/gpu-part.js';
import { gpuKernelSwitches } from '../../backends/webgpu/kernel-switches.js';

/**
 * The float-float arithmetic of a streaming loop with its lazy terms of two binary32 operands folded (with the
 * `ffFoldedProducts` switch on and `arithmetic` float-float with lazy multiply-adds); else `arithmetic` itself. Terms
 * with a pair operand keep the arithmetic's own form. Apply it before `exactProductPass`
 * (src/backends/webgpu/ff-exact-products.ts), whose exact 16-bit terms need no TwoProd at all.
 * @param arithmetic - the loop's arithmetic
 * @returns the arithmetic to generate the loop with
 */
export function foldedProductPass<T extends GpuArithmeticPart>(arithmetic: T): T {
  const lazy = arithmetic.lazyMulAdd;
  if (!gpuKernelSwitches().ffFoldedProducts || arithmetic.name !== 'ff' || arithmetic.components !== 2 || !lazy) return arithmetic;
  // The pinned twin with ffFmaKeep, as the default's lazy terms.
  const helper = gpuKernelSwitches().ffFmaKeep ? 'ffLazyMulAddFoldU' : 'ffLazyMulAddFold';
  return {
    ...arithmetic,
    lazyMulAdd: (acc, x, y) => (x.kind === 'f32' && y.kind === 'f32' ? `${acc} = ${helper}(${acc}, ${x.name}, ${y.name});` : lazy.call(arithmetic, acc, x, y)),
  };
}

/**
 * The helper functions of {@link foldedProductPass}: `ffLazyMulAddFold(s, a, b)` (s + a·b, lazily, TwoProd's error
 * folded into the tail) pinned as the default's lazy terms — by mpKeep barriers, and `ffLazyMulAddFoldU` as
 * `ffLazyAddU` and `ffTwoProdU` (sums as fma(1, x, y) with an opaque 1.0, the product as fma(a, b, −0) where fma is
 * fused). Without a fused fma both take Dekker's TwoProd (`ffTwoProd`, `ffTwoProdU`) and fold its error by one addition.
 * @param fused - whether `fma` rounds once on this adapter
 * @param barrier - whether the compiler needs optimisation barriers
 * @returns the helpers
 */
export function foldedProductHelpers(fused: boolean, barrier: boolean): GpuHelperFunction[] {
  const K = (e: string): string => (barrier ? `mpKeep(${e})` : `(${e})`);
  const F = (x: string, op: '+' | '-', y: string): string => (barrier ? `mpFma(mpOne(), ${x}, ${op === '-' ? '-' : ''}${y})` : `(${x} ${op} ${y})`);
  // The head's TwoSum as ffLazyAdd's (src/backends/webgpu/arithmetic.ts) without δb, then the folded f.
  const body = (product: string, sum: (x: string, op: '+' | '-', y: string) => string, twoProd: string): string => {
    const head = (p: string): string => `const h = ${sum('s[0]', '+', p)}; const hb = ${sum('h', '-', 's[0]')}; const da = s[0] - (h - hb);`;
    if (fused) return `const p = ${product};\n  ${head('p')}\n  const f = mpFma(a, b, -hb);\n  return [h, s[1] + (da + f)];`;
    // Dekker: p − hb is exact (TwoSum's δb), so RN(δb + e) is the fused fma's f wherever e is exact.
    return `const q = ${twoProd}(a, b); const p = q[0];\n  ${head('p')}\n  const f = ${K(`${K('p - hb')} + q[1]`)};\n  return [h, s[1] + (da + f)];`;
  };
  const ff2 = 'Array(2)';
  const types = { argumentTypes: { s: ff2, a: 'Number', b: 'Number' }, returnType: ff2 };
  return [
    { source: `function ffLazyMulAddFold(s, a, b) {\n  ${body(K('a * b'), (x, op, y) => K(`${x} ${op} ${y}`), 'ffTwoProd')}\n}`, ...types },
    { source: `function ffLazyMulAddFoldU(s, a, b) {\n  ${body(fused && barrier ? 'mpFma(a, b, mpNegZero())' : K('a * b'), F, 'ffTwoProdU')}\n}`, ...types },
  ];
}
