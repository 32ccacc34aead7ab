/**
 * Pairwise (cascade) summation as an accumulation strategy of the core, streaming: a binary counter of
 * partial sums, so the terms are summed in a balanced tree without storing them.
 * @module
 */
import type { Accumulation } from '../../../kernels/shared/accumulation.js';
import { gamma } from '../../../kernels/shared/accumulation.js';
import type { ArithmeticFormat, Register } from '../common/format.js';
import { fail } from '../../core/errors.js';

/** Refuses an arithmetic without a stack of fixed-size words (RNS: kind `mp`). */
function checkPairwise(ar: ArithmeticFormat): void {
  if (ar.kind === 'mp') fail('INVALID_OPTION', 'options.accumulation', "'pairwise' needs number or double-double arithmetic", ar.name);
}

/** Words per stack entry of arithmetic `ar` (1 for numbers, 2 for double-double). */
function words(ar: ArithmeticFormat): number {
  checkPairwise(ar);
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

/** Terms summed plainly inside one block before the block enters the pairwise tree. */
export const PAIRWISE_BLOCK = 16;

/**
 * `pairwise`: blocked pairwise (cascade) summation. Terms are summed plainly in blocks of
 * `PAIRWISE_BLOCK`; each finished block enters level 0 of a binary counter, and whenever two partial sums of
 * the same level exist they are added and moved one level up, so blocks are combined in a balanced tree without
 * storing the terms. Every term passes at most B − 1 additions in its block, ⌊log₂⌈n/B⌉⌋ in the tree and one when
 * the levels are folded at the end. Bound (Higham, Accuracy and Stability §4.2, with the product rounding):
 * |error| ≤ γ_{B + ⌊log₂⌈n/B⌉⌋ + 1}·Σ|aᵢbᵢ| — for n = 2^20, γ_33 instead of the recursive γ_{2^20}.
 * Cost ≈ the plain loop plus one predictable branch per term (a stack push per B terms).
 * Works in any number or double-double arithmetic (the stack holds up to 2^32 blocks' levels).
 * @group Double-double
 */
export const pairwiseAccumulation: Accumulation = {
  name: 'pairwise',
  description: `blocked pairwise (blocks of ${PAIRWISE_BLOCK}, binary-counter cascade); cost ≈ 1–1.5×; |err| ≤ γ_{B+⌊log₂(n/B)⌋+1} Σ|t|`,
  emitDeclare: (base, ar) =>
    `const ${base}_stk = new Float64Array(${33 * words(ar)}); let ${base}_cnt = 0, ${base}_k = 0; ${ar.emitDeclare(ar.register(`${base}_t`))} ${ar.emitDeclare(ar.register(`${base}_u`))} ${ar.emitDeclare(ar.register(`${base}_b`))}`,
  emitReset: (base, ar) => `${base}_cnt = 0; ${base}_k = 0; ${ar.emitFromNumber(ar.register(`${base}_b`), '0')}`,
  emitAddProduct: (base, a, b, ar) => {
    const blk = ar.register(`${base}_b`);
    return `${ar.emitFma(blk, a, b, blk)} ${endOfBlock(base, ar)}`;
  },
  emitAdd: (base, a, ar) => {
    const blk = ar.register(`${base}_b`);
    return `${ar.emitAdd(blk, blk, a)} ${endOfBlock(base, ar)}`;
  },
  emitResult: (dst, base, ar) => {
    const u = ar.register(`${base}_u`);
    const blk = ar.register(`${base}_b`);
    const stk = `${base}_stk`;
    // The open block first, then the occupied levels, lowest (smallest partial sums) first.
    return `${ar.emitSet(dst, blk)} for (let pw$c = ${base}_cnt, pw$l = 0; pw$c !== 0; pw$c >>>= 1, pw$l++) {
if ((pw$c & 1) !== 0) { ${load(ar, u, stk, 'pw$l')} ${ar.emitAdd(dst, u, dst)} } }`;
  },
  bound: (n, u) => {
    const blocks = Math.max(Math.ceil(n / PAIRWISE_BLOCK), 1);
    return { ofAbsSum: gamma(PAIRWISE_BLOCK + Math.floor(Math.log2(blocks)) + 1, u), ofResult: 0 };
  },
  helpers: {},
  checkArithmetic: checkPairwise,
  propagatesNonFinite: true,
};

/** Statements: when the block is full, push it as a level-0 partial sum (carrying up) and start a new one. */
function endOfBlock(base: string, ar: ArithmeticFormat): string {
  const t = ar.register(`${base}_t`);
  const u = ar.register(`${base}_u`);
  const blk = ar.register(`${base}_b`);
  const stk = `${base}_stk`;
  return `if (++${base}_k === ${PAIRWISE_BLOCK}) { ${base}_k = 0; ${ar.emitSet(t, blk)} ${ar.emitFromNumber(blk, '0')}
let pw$c = ${base}_cnt, pw$l = 0;
while ((pw$c & 1) !== 0) { ${load(ar, u, stk, 'pw$l')} ${ar.emitAdd(t, u, t)} pw$c >>>= 1; pw$l++; }
${store(ar, t, stk, 'pw$l')} ${base}_cnt++; }`;
}
