/**
 * Pairwise (cascade) summation as an accumulation strategy of the core, streaming: a binary counter of
 * partial sums, so the terms are summed in a balanced tree without storing them.
 * @module
 */
import type { Accumulation } from '../../kernels/codegen/accumulation.js';
import { gamma } from '../../kernels/codegen/accumulation.js';
import type { ArithmeticFormat, Register } from '../formats/format.js';
import { fail } from '../errors.js';

/** Words per stack entry of arithmetic `ar` (1 for numbers, 2 for double-double). */
function words(ar: ArithmeticFormat): number {
  if (ar.kind === 'mp') fail('INVALID_OPTION', 'options.accumulation', "'pairwise' needs number or double-double arithmetic", ar.name);
  return ar.kind === 'dd' ? 2 : 1;
}

/** Statements: register `r` := stack entry at level expression `l`. */
function load(ar: ArithmeticFormat, r: Register, stack: string, l: string): string {
  return ar.kind === 'dd' ? `${r.names[0]} = ${stack}[2 * ${l}]; ${r.names[1]} = ${stack}[2 * ${l} + 1];` : `${r.names[0]} = ${stack}[${l}];`;
}

/** Statements: stack entry at level `l` := register `r`. */
function store(ar: ArithmeticFormat, r: Register, stack: string, l: string): string {
  return ar.kind === 'dd' ? `${stack}[2 * ${l}] = ${r.names[0]}; ${stack}[2 * ${l} + 1] = ${r.names[1]};` : `${stack}[${l}] = ${r.names[0]};`;
}

/**
 * `pairwise`: term k enters level 0; whenever two partial sums of the same level exist they are added and
 * moved one level up (the carries of a binary counter), so every term passes at most ⌊log₂n⌋ additions in the
 * tree and one more when the levels are folded at the end. Bound (Higham, Accuracy and Stability §4.2, with the
 * product rounding): |error| ≤ γ_{⌊log₂n⌋+2}·Σ|aᵢbᵢ|. Cost ≈ 1.5–2× the plain loop (a stack load/store per
 * carry). Works in any number or double-double arithmetic (the stack holds up to 2^32 terms' levels).
 */
export const pairwiseAccumulation: Accumulation = {
  name: 'pairwise',
  description: 'pairwise (binary-counter cascade); cost ≈ 1.5–2×; |err| ≤ γ_{⌊log₂n⌋+2} Σ|t|',
  emitDeclare: (base, ar) =>
    `const ${base}_stk = new Float64Array(${33 * words(ar)}); let ${base}_cnt = 0; ${ar.emitDeclare(ar.register(`${base}_t`))} ${ar.emitDeclare(ar.register(`${base}_u`))}`,
  emitReset: (base) => `${base}_cnt = 0;`,
  emitAddProduct: (base, a, b, ar) => {
    const t = ar.register(`${base}_t`);
    return `${ar.emitMul(t, a, b)} ${pushSource(base, t, ar)}`;
  },
  emitAdd: (base, a, ar) => {
    const t = ar.register(`${base}_t`);
    return `${ar.emitSet(t, a)} ${pushSource(base, t, ar)}`;
  },
  emitResult: (dst, base, ar) => {
    const u = ar.register(`${base}_u`);
    const stk = `${base}_stk`;
    // Fold the occupied levels, lowest (smallest partial sums) first.
    return `${ar.emitFromNumber(dst, '0')} for (let pw$c = ${base}_cnt, pw$l = 0; pw$c !== 0; pw$c >>>= 1, pw$l++) {
if ((pw$c & 1) !== 0) { ${load(ar, u, stk, 'pw$l')} ${ar.emitAdd(dst, u, dst)} } }`;
  },
  bound: (n, u) => ({ ofAbsSum: gamma(Math.floor(Math.log2(Math.max(n, 1))) + 2, u), ofResult: 0 }),
  helpers: {},
};

/** Statements: push register `t` (clobbered) as a level-0 partial sum, carrying up. */
function pushSource(base: string, t: Register, ar: ArithmeticFormat): string {
  const u = ar.register(`${base}_u`);
  const stk = `${base}_stk`;
  return `{ let pw$c = ${base}_cnt, pw$l = 0;
while ((pw$c & 1) !== 0) { ${load(ar, u, stk, 'pw$l')} ${ar.emitAdd(t, u, t)} pw$c >>>= 1; pw$l++; }
${store(ar, t, stk, 'pw$l')} ${base}_cnt++; }`;
}
