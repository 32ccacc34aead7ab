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
import { twoProdErrorScaled } from './eft.js';
import { ddDivOutsideWindow } from './div.js';
import { DIV_WINDOW_HIGH, DIV_WINDOW_LOW, divScales } from './div-window.js';

/** A double-double in generated source: the names (or simple expressions) of its high and low parts. */
export type DdPair = readonly [hi: string, lo: string];

/** Statements: (rh, rl) := FastTwoSum-normalised (h + l) with h the larger part, into the block's `let dd$rh, dd$rl`. */
function fastTwoSumResult(h: string, l: string): string {
  return `let dd$rh = ${h} + ${l}; let dd$rl = ${l} - (dd$rh - ${h});`;
}

/**
 * The fp64 value a pair stands for in the special-value rule: hi, or hi + lo where lo is ±∞ or NaN (a raw pair such
 * as (1, NaN) is NaN, as fp64 arithmetic reads it and the GPU's register holds it; a storage write rejects it).
 * Evaluated only on the rule's rare branches, so the kernels' loops do not pay for it.
 */
const valueOf = (p: DdPair): string => `(${p[1]} - ${p[1]} === 0 ? ${p[0]} : ${p[0]} + ${p[1]})`;

/**
 * How a template is emitted: `fast` for the kernels (special values repaired by a guard that calls the slow form),
 * `slow` for that repair itself (compiled once, see {@link ddSlowHelpers}).
 */
type Form = 'fast' | 'slow';

/**
 * The end of every operation's block: (dd$rh, dd$rl) to `d`, with the special values and zeros of fp64 arithmetic
 * (docs/double-double.md, "Special values").
 *
 * Why: once a high part is ±∞ or NaN, the error terms of a double-double (h − h, ∞ − ∞) are NaN and turn the high
 * part NaN, where fp64 keeps ∞ (asum([−∞, 1]) gave NaN, fp64 gives −∞); and adding zero error terms turns a −0 high
 * part into +0 (−1·(+0) gave +0, fp64 gives −0). The rule, with `fp64` the fp64 operation on the high parts (on
 * hi + lo for an operand whose low part is ±∞ or NaN, {@link valueOf}):
 * - the result's high part not finite (after the product error is recomputed with scaled operands): the result is
 *   `fp64`, with low part 0 — ±∞ or NaN as fp64 gives them; and where only the double-double algorithm's own
 *   intermediates overflow (a quotient near the top of the range: b·q rounds to ∞), fp64's finite value.
 * - the result zero and `fp64` zero: it is `fp64`'s zero (a zero from cancelling non-zero parts stays +0, as IEEE's
 *   exact zero sum); `signedZero` false leaves this out (a sum from +0 never needs it).
 *
 * `fast`: one {@link guard} on the result (it changes nothing for a finite result, and nothing in a sum from +0,
 * which no addition makes −0 — so the DOT runs without it first); a non-finite result calls the slow form `helper`
 * on the original operands. `slow`: both rules on the operation recomputed with the scaled product error.
 */
function finish(form: Form, d: DdPair, helper: string, args: readonly string[], fp64: string, signedZero = true): string {
  return `${repairSource(form, helper, args, fp64, signedZero)} ${d[1]} = dd$rl; ${d[0]} = dd$rh;`;
}

/** {@link finish}'s repair of (dd$rh, dd$rl), without the store into `d`. */
function repairSource(form: Form, helper: string, args: readonly string[], fp64: string, signedZero = true): string {
  const zero = signedZero ? `else if (dd$rh === 0 && ${fp64} === 0) dd$rh = ${fp64};` : '';
  return form === 'fast'
    ? guard(`if (dd$rh - dd$rh !== 0) { ${helper}(ddScratch, ${args.join(', ')}); dd$rh = ddScratch[0]; dd$rl = ddScratch[1]; } ${zero}`)
    : `if (dd$rh - dd$rh !== 0) { dd$rh = ${fp64}; dd$rl = 0; } ${zero}`;
}

/** JMP 2017 Algorithm 6 (AccurateDWPlusDW): d := a + b, relative error ≤ 3u² + 13u³. */
export function ddAddSource(d: DdPair, a: DdPair, b: DdPair, form: Form = 'fast'): string {
  return `{ const dd$sh = ${a[0]} + ${b[0]}; const dd$s1 = dd$sh - ${a[0]}; const dd$sl = (${a[0]} - (dd$sh - dd$s1)) + (${b[0]} - dd$s1);
const dd$th = ${a[1]} + ${b[1]}; const dd$t1 = dd$th - ${a[1]}; const dd$tl = (${a[1]} - (dd$th - dd$t1)) + (${b[1]} - dd$t1);
const dd$c = dd$sl + dd$th; const dd$vh = dd$sh + dd$c; const dd$w = dd$tl + (dd$c - (dd$vh - dd$sh));
${fastTwoSumResult('dd$vh', 'dd$w')}
${finish(form, d, 'ddSlowAdd', [a[0], a[1], b[0], b[1]], `${valueOf(a)} + ${valueOf(b)}`)} }`;
}

/** d := a − b (Algorithm 6 on −b). */
export function ddSubSource(d: DdPair, a: DdPair, b: DdPair): string {
  return ddAddSource(d, a, [`(-${b[0]})`, `(-${b[1]})`]);
}

/** JMP 2017 Algorithm 4 (DWPlusFP): d := a + x for a double x, relative error ≤ 2u². */
export function ddAddNumberSource(d: DdPair, a: DdPair, x: string, form: Form = 'fast'): string {
  return `{ const dd$sh = ${a[0]} + ${x}; const dd$s1 = dd$sh - ${a[0]}; const dd$sl = (${a[0]} - (dd$sh - dd$s1)) + (${x} - dd$s1);
const dd$v = ${a[1]} + dd$sl; ${fastTwoSumResult('dd$sh', 'dd$v')}
${finish(form, d, 'ddSlowAddNumber', [a[0], a[1], x], `${valueOf(a)} + ${x}`)} }`;
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
  return `${dekkerErrorSource(e, a, b, p)}
${guard(scaledErrorRepair(e, a, b, p))}`;
}

/** Statements declaring `let <e>` = Dekker's error of p = a·b, unguarded (non-finite beyond the splitting range). */
function dekkerErrorSource(e: string, a: string, b: string, p: string): string {
  return `const dd$ta = 134217729 * ${a}; const dd$a1 = dd$ta - (dd$ta - ${a}); const dd$a2 = ${a} - dd$a1;
const dd$tb = 134217729 * ${b}; const dd$b1 = dd$tb - (dd$tb - ${b}); const dd$b2 = ${b} - dd$b1;
let ${e} = (((dd$a1 * dd$b1 - ${p}) + dd$a1 * dd$b2) + dd$a2 * dd$b1) + dd$a2 * dd$b2;`;
}

/** The statement recomputing a non-finite Dekker error with scaled operands. */
const scaledErrorRepair = (e: string, a: string, b: string, p: string): string => `if (${e} - ${e} !== 0) ${e} = ddTwoProdErrorScaled(${a}, ${b}, ${p});`;

/**
 * The product error inside the operation templates: Dekker's alone in the fast form (a non-finite error makes the
 * result non-finite, and the result's guard then runs the slow form), Dekker's then the scaled repair in the slow one.
 */
function productErrorSource(form: Form, e: string, a: string, b: string, p: string): string {
  return form === 'fast' ? dekkerErrorSource(e, a, b, p) : `${dekkerErrorSource(e, a, b, p)} ${scaledErrorRepair(e, a, b, p)}`;
}

/** JMP 2017 Algorithm 10 (DWTimesDW1): d := a·b, relative error ≤ 7u². */
export function ddMulSource(d: DdPair, a: DdPair, b: DdPair, form: Form = 'fast'): string {
  return `{ const dd$p = ${a[0]} * ${b[0]}; ${productErrorSource(form, 'dd$e', a[0], b[0], 'dd$p')}
const dd$c = dd$e + (${a[0]} * ${b[1]} + ${a[1]} * ${b[0]}); ${fastTwoSumResult('dd$p', 'dd$c')}
${finish(form, d, 'ddSlowMul', [a[0], a[1], b[0], b[1]], `${valueOf(a)} * ${valueOf(b)}`)} }`;
}

/**
 * Statements shared by the multiply-accumulate templates: `dd$p` = RN(a·b) with its exact error `dd$e`
 * (Dekker), then (`dd$h`, `dd$t`) = TwoSum(ch, dd$p).
 */
function productIntoSource(form: Form, a: string, b: string, ch: string): string {
  return `const dd$p = ${a} * ${b}; ${productErrorSource(form, 'dd$e', a, b, 'dd$p')}
const dd$h = ${ch} + dd$p; const dd$z = dd$h - ${ch}; const dd$t = (${ch} - (dd$h - dd$z)) + (dd$p - dd$z);`;
}

/**
 * d := a·b + c fused for accumulation, as `ddMulAccumulate` (mul.ts, where the bound 15u²|ab| + 4u²|c| is
 * proved): the unnormalised product meets c in one TwoSum of the high parts, a final TwoSum normalises.
 */
export function ddMulAccumulateSource(d: DdPair, a: DdPair, b: DdPair, c: DdPair, form: Form = 'fast'): string {
  return `{ ${productIntoSource(form, a[0], b[0], c[0])}
const dd$r = dd$e + (${a[0]} * ${b[1]} + ${a[1]} * ${b[0]});
const dd$w = dd$t + (${c[1]} + dd$r);
let dd$rh = dd$h + dd$w; const dd$y = dd$rh - dd$h; let dd$rl = (dd$h - (dd$rh - dd$y)) + (dd$w - dd$y);
${finish(form, d, 'ddSlowMulAccumulate', [a[0], a[1], b[0], b[1], c[0], c[1]], `${valueOf(c)} + ${valueOf(a)} * ${valueOf(b)}`)} }`;
}

/**
 * d := a·b + c for two doubles a, b, as `ddTwoProdAccumulate` (two-prod-accumulate.ts, where the bound
 * (3 + 8u)u²(|ab| + |c|) and the exactness of the final FastTwoSum are proved): no cross terms, and
 * FastTwoSum instead of TwoSum — 28 flops instead of 35. V8 cannot drop the cross terms itself when the low
 * parts are the constant 0 (x·0 is not 0 for x = ±∞ or NaN, and −0 + 0 is +0).
 *
 * No repair of a zero's sign: the kernels take this form only for sums that start from +0 (DOT, GEMV and ELL rows,
 * the `dd` accumulation), which no addition makes −0, as in fp64 — and the GEMV row loop spares a test per element.
 */
export function ddTwoProdAccumulateSource(d: DdPair, a: string, b: string, c: DdPair, form: Form = 'fast'): string {
  return `{ ${productIntoSource(form, a, b, c[0])}
const dd$w = dd$t + (${c[1]} + dd$e);
let dd$rh = dd$h + dd$w; let dd$rl = dd$w - (dd$rh - dd$h);
${finish(form, d, 'ddSlowTwoProdAccumulate', [a, b, c[0], c[1]], `${valueOf(c)} + dd$p`, false)} }`;
}

/**
 * JMP 2017 Algorithm 17 (DWDivDW2): d := a / b, relative error ≤ 15u² + 56u³ wherever the quotient's parts are normal,
 * for any finite operands. High parts outside [2^-900, 2^900] (subnormal ones included) divide scaled by powers of two
 * (./div-window.ts, through the slow form: `ddDivOutsideWindow`), as `ddDiv` does — the bare algorithm lost the
 * product's error term there (`DD.from(3e-310).div(7e-311)` was (4.285714285714195, 0)). The fast form tests the window
 * on the operands (not a guard: a finite result does not prove it inside); a zero dividend over an in-window divisor
 * stays on the fast path.
 */
export function ddDivSource(d: DdPair, a: DdPair, b: DdPair, form: Form = 'fast'): string {
  const steps = `const dd$q = ${a[0]} / ${b[0]}; const dd$p = ${b[0]} * dd$q; ${productErrorSource(form, 'dd$e', b[0], 'dd$q', 'dd$p')}
const dd$c2 = ${b[1]} * dd$q; const dd$sh = dd$p + dd$c2; const dd$sl = (dd$c2 - (dd$sh - dd$p)) + dd$e;
const dd$qh = dd$sh + dd$sl; const dd$ql = dd$sl - (dd$qh - dd$sh);
const dd$tl = ((${a[0]} - dd$qh) + (${a[1]} - dd$ql)) / ${b[0]};`;
  const args = [a[0], a[1], b[0], b[1]];
  const fp64 = `${valueOf(a)} / ${valueOf(b)}`;
  if (form === 'fast') {
    const inside = `dd$x <= ${DIV_WINDOW_HIGH} && dd$y <= ${DIV_WINDOW_HIGH} && dd$y >= ${DIV_WINDOW_LOW} && (dd$x >= ${DIV_WINDOW_LOW} || ${a[0]} === 0)`;
    return `{ ${steps} ${fastTwoSumResult('dd$q', 'dd$tl')}
const dd$x = Math.abs(${a[0]}), dd$y = Math.abs(${b[0]});
if (!(${inside})) { ddSlowDiv(ddScratch, ${args.join(', ')}); dd$rh = ddScratch[0]; dd$rl = ddScratch[1]; }
else { ${repairSource(form, 'ddSlowDiv', args, fp64)} }
${d[1]} = dd$rl; ${d[0]} = dd$rh; }`;
  }
  return `{ let dd$rh = 0, dd$rl = 0;
if (ddDivScales(${a[0]}, ${b[0]})) { ddDivOutsideWindow(ddDivScratch, ${args.join(', ')}); dd$rh = ddDivScratch[0]; dd$rl = ddDivScratch[1]; }
else { ${steps} dd$rh = dd$q + dd$tl; dd$rl = dd$tl - (dd$rh - dd$q); }
${finish(form, d, 'ddSlowDiv', args, fp64)} }`;
}

/**
 * A template as a plain function `(out, …params)` writing [hi, lo] of the pair `o$h, o$l` into `out`, generated like
 * every CPU kernel (one source of truth with the kernels) and compiled on its first call.
 * @param name - the function's name (stack traces)
 * @param params - its operand parameters after `out`
 * @param source - the template's statements, writing `o$h` and `o$l`
 * @param runtime - the runtime names the source refers to
 * @returns the function
 */
export function compileOnFirstUse(name: string, params: readonly string[], source: () => string, runtime: Readonly<Record<string, unknown>>): (out: Float64Array, ...parts: number[]) => void {
  type Compiled = (out: Float64Array, p0?: number, p1?: number, p2?: number, p3?: number, p4?: number, p5?: number) => void;
  let compiled: Compiled | undefined;
  const run: Compiled = (out, p0, p1, p2, p3, p4, p5) => {
    compiled ??= new Function(...Object.keys(runtime), `return function ${name}(out, ${params.join(', ')}) { let o$h = 0, o$l = 0; ${source()} out[0] = o$h; out[1] = o$l; };`)(...Object.values(runtime)) as Compiled;
    compiled(out, p0, p1, p2, p3, p4, p5);
  };
  return run as (out: Float64Array, ...parts: number[]) => void;
}

/**
 * The slow forms the fast templates' guards call, compiled from the same templates (so a repaired result is bit
 * for bit what the operation computes with the scaled product error, then the special-value rule): each
 * `(out, …operand parts)` writes [hi, lo] into `out`. Compiled on first use (most kernels never call them).
 */
export const ddSlowHelpers: Readonly<Record<string, (out: Float64Array, ...parts: number[]) => void>> = (() => {
  const d: DdPair = ['o$h', 'o$l'];
  const sources: Record<string, [string[], () => string]> = {
    ddSlowAdd: [['ah', 'al', 'bh', 'bl'], () => ddAddSource(d, ['ah', 'al'], ['bh', 'bl'], 'slow')],
    ddSlowAddNumber: [['ah', 'al', 'x'], () => ddAddNumberSource(d, ['ah', 'al'], 'x', 'slow')],
    ddSlowMul: [['ah', 'al', 'bh', 'bl'], () => ddMulSource(d, ['ah', 'al'], ['bh', 'bl'], 'slow')],
    ddSlowMulAccumulate: [['ah', 'al', 'bh', 'bl', 'ch', 'cl'], () => ddMulAccumulateSource(d, ['ah', 'al'], ['bh', 'bl'], ['ch', 'cl'], 'slow')],
    ddSlowTwoProdAccumulate: [['a', 'b', 'ch', 'cl'], () => ddTwoProdAccumulateSource(d, 'a', 'b', ['ch', 'cl'], 'slow')],
    ddSlowDiv: [['ah', 'al', 'bh', 'bl'], () => ddDivSource(d, ['ah', 'al'], ['bh', 'bl'], 'slow')],
  };
  const helpers: Record<string, (out: Float64Array, ...parts: number[]) => void> = {};
  const runtime = { ddTwoProdErrorScaled: twoProdErrorScaled, ddDivScales: divScales, ddDivOutsideWindow, ddDivScratch: new Float64Array(2) };
  for (const [name, [params, source]] of Object.entries(sources)) helpers[name] = compileOnFirstUse(name, params, source, runtime);
  return helpers;
})();

/** The runtime names the templates' source refers to, for a generated kernel's helpers. */
export const ddTemplateHelpers = { ddTwoProdErrorScaled: twoProdErrorScaled, ddScratch: new Float64Array(2), ...ddSlowHelpers };

/** Square root (SQRTDWtoDW, ≤ 25/8·u²) through the runtime function `ddSqrtInto` (rare in kernels). */
export function ddSqrtSource(d: DdPair, a: DdPair): string {
  return `{ ddSqrtInto(ddScratch, ${a[0]}, ${a[1]}); ${d[0]} = ddScratch[0]; ${d[1]} = ddScratch[1]; }`;
}
