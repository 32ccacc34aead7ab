/**
 * Source templates of the double-double operations, for generated kernels: the same algorithms as the
 * allocation-free functions (add.ts, mul.ts, div.ts, sqrt.ts), written out as straight-line statements so the
 * engine inlines them into the kernel loop with no call and no allocation.
 *
 * Each template is a block `{ … }` whose temporaries are block-scoped `const`s prefixed `dd$`, and which
 * reads all its inputs before writing `dst`, so `dst` may alias an input (s := a·b + s).
 * Operands are given as [hi, lo] expression pairs (variable names).
 * @module
 */
import { guard } from '../../backends/cpu/guards.js';

/** A double-double in generated source: the names (or simple expressions) of its high and low parts. */
export type DdPair = readonly [hi: string, lo: string];

/** Statements: (dh, dl) := FastTwoSum-normalised (h + l) with h the larger part. */
function fastTwoSumInto(d: DdPair, h: string, l: string): string {
  return `const dd$z = ${h} + ${l}; ${d[1]} = ${l} - (dd$z - ${h}); ${d[0]} = dd$z;`;
}

/** JMP 2017 Algorithm 6 (AccurateDWPlusDW): d := a + b, relative error ≤ 3u² + 13u³. */
export function ddAddSource(d: DdPair, a: DdPair, b: DdPair): string {
  return `{ const dd$sh = ${a[0]} + ${b[0]}; const dd$s1 = dd$sh - ${a[0]}; const dd$sl = (${a[0]} - (dd$sh - dd$s1)) + (${b[0]} - dd$s1);
const dd$th = ${a[1]} + ${b[1]}; const dd$t1 = dd$th - ${a[1]}; const dd$tl = (${a[1]} - (dd$th - dd$t1)) + (${b[1]} - dd$t1);
const dd$c = dd$sl + dd$th; const dd$vh = dd$sh + dd$c; const dd$w = dd$tl + (dd$c - (dd$vh - dd$sh));
${fastTwoSumInto(d, 'dd$vh', 'dd$w')} }`;
}

/** d := a − b (Algorithm 6 on −b). */
export function ddSubSource(d: DdPair, a: DdPair, b: DdPair): string {
  return ddAddSource(d, a, [`(-${b[0]})`, `(-${b[1]})`]);
}

/** JMP 2017 Algorithm 4 (DWPlusFP): d := a + x for a double x, relative error ≤ 2u². */
export function ddAddNumberSource(d: DdPair, a: DdPair, x: string): string {
  return `{ const dd$sh = ${a[0]} + ${x}; const dd$s1 = dd$sh - ${a[0]}; const dd$sl = (${a[0]} - (dd$sh - dd$s1)) + (${x} - dd$s1);
const dd$v = ${a[1]} + dd$sl; ${fastTwoSumInto(d, 'dd$sh', 'dd$v')} }`;
}

/**
 * Statements declaring `let <e>` = the exact error of `p = a·b` (Dekker's product, Veltkamp splitting).
 * Dekker's product runs first: an overflow anywhere in it (operands near the top of the range, or non-finite
 * operands) leaves e infinite or NaN, and only then the helper `ddTwoProdErrorScaled` recomputes it with
 * scaled operands. One test of the result (e − e ≠ 0) replaces two magnitude checks of the operands per
 * product (about 5% of a DD DOT, bench/dd-dot.ts). The test is a {@link guard}: it changes e only when e is
 * non-finite, so the DOT runs its loop without it first (`unguardedFirst` in src/backends/cpu/guards.ts; the
 * test and the call it keeps in the loop cost about 20% of a DD DOT).
 */
export function twoProdErrorSource(e: string, a: string, b: string, p: string): string {
  return `const dd$ta = 134217729 * ${a}; const dd$a1 = dd$ta - (dd$ta - ${a}); const dd$a2 = ${a} - dd$a1;
const dd$tb = 134217729 * ${b}; const dd$b1 = dd$tb - (dd$tb - ${b}); const dd$b2 = ${b} - dd$b1;
let ${e} = (((dd$a1 * dd$b1 - ${p}) + dd$a1 * dd$b2) + dd$a2 * dd$b1) + dd$a2 * dd$b2;
${guard(`if (${e} - ${e} !== 0) ${e} = ddTwoProdErrorScaled(${a}, ${b}, ${p});`)}`;
}

/** JMP 2017 Algorithm 10 (DWTimesDW1): d := a·b, relative error ≤ 7u². */
export function ddMulSource(d: DdPair, a: DdPair, b: DdPair): string {
  return `{ const dd$p = ${a[0]} * ${b[0]}; ${twoProdErrorSource('dd$e', a[0], b[0], 'dd$p')}
const dd$c = dd$e + (${a[0]} * ${b[1]} + ${a[1]} * ${b[0]}); ${fastTwoSumInto(d, 'dd$p', 'dd$c')} }`;
}

/**
 * Statements shared by the multiply-accumulate templates: `dd$p` = RN(a·b) with its exact error `dd$e`
 * (Dekker), then (`dd$h`, `dd$t`) = TwoSum(ch, dd$p).
 */
function productIntoSource(a: string, b: string, ch: string): string {
  return `const dd$p = ${a} * ${b}; ${twoProdErrorSource('dd$e', a, b, 'dd$p')}
const dd$h = ${ch} + dd$p; const dd$z = dd$h - ${ch}; const dd$t = (${ch} - (dd$h - dd$z)) + (dd$p - dd$z);`;
}

/**
 * d := a·b + c fused for accumulation, as `ddMulAccumulate` (mul.ts, where the bound 15u²|ab| + 4u²|c| is
 * proved): the unnormalised product meets c in one TwoSum of the high parts, a final TwoSum normalises.
 */
export function ddMulAccumulateSource(d: DdPair, a: DdPair, b: DdPair, c: DdPair): string {
  return `{ ${productIntoSource(a[0], b[0], c[0])}
const dd$r = dd$e + (${a[0]} * ${b[1]} + ${a[1]} * ${b[0]});
const dd$w = dd$t + (${c[1]} + dd$r);
const dd$hi = dd$h + dd$w; const dd$y = dd$hi - dd$h; ${d[1]} = (dd$h - (dd$hi - dd$y)) + (dd$w - dd$y); ${d[0]} = dd$hi; }`;
}

/**
 * d := a·b + c for two doubles a, b, as `ddTwoProdAccumulate` (two-prod-accumulate.ts, where the bound
 * (3 + 8u)u²(|ab| + |c|) and the exactness of the final FastTwoSum are proved): no cross terms, and
 * FastTwoSum instead of TwoSum — 28 flops instead of 35. V8 cannot drop the cross terms itself when the low
 * parts are the constant 0 (x·0 is not 0 for x = ±∞ or NaN, and −0 + 0 is +0).
 */
export function ddTwoProdAccumulateSource(d: DdPair, a: string, b: string, c: DdPair): string {
  return `{ ${productIntoSource(a, b, c[0])}
const dd$w = dd$t + (${c[1]} + dd$e);
const dd$hi = dd$h + dd$w; ${d[1]} = dd$w - (dd$hi - dd$h); ${d[0]} = dd$hi; }`;
}

/** JMP 2017 Algorithm 17 (DWDivDW2): d := a / b, relative error ≤ 15u² + 56u³. */
export function ddDivSource(d: DdPair, a: DdPair, b: DdPair): string {
  return `{ const dd$q = ${a[0]} / ${b[0]}; const dd$p = ${b[0]} * dd$q; ${twoProdErrorSource('dd$e', b[0], 'dd$q', 'dd$p')}
const dd$c2 = ${b[1]} * dd$q; const dd$sh = dd$p + dd$c2; const dd$sl = (dd$c2 - (dd$sh - dd$p)) + dd$e;
const dd$rh = dd$sh + dd$sl; const dd$rl = dd$sl - (dd$rh - dd$sh);
const dd$tl = ((${a[0]} - dd$rh) + (${a[1]} - dd$rl)) / ${b[0]}; ${fastTwoSumInto(d, 'dd$q', 'dd$tl')} }`;
}

/** Square root (SQRTDWtoDW, ≤ 25/8·u²) through the runtime function `ddSqrtInto` (rare in kernels). */
export function ddSqrtSource(d: DdPair, a: DdPair): string {
  return `{ ddSqrtInto(ddScratch, ${a[0]}, ${a[1]}); ${d[0]} = ddScratch[0]; ${d[1]} = ddScratch[1]; }`;
}
