/**
 * Double-double accumulation as an accumulation strategy of the core: a fp64/fp32 kernel sums in DD.
 * @module
 */
import type { Accumulation } from '../../kernels/codegen/accumulation.js';
import { gamma, recursiveAccumulation } from '../../kernels/codegen/accumulation.js';
import { twoProdErrorScaled } from './eft.js';
import { twoProdSource, checkCompensable } from './eft-templates.js';
import { ddAddSource, ddAddNumberSource } from './dd-templates.js';
import { DD_ADD_BOUND } from './bounds.js';

/**
 * `dd`: in a number arithmetic, each product a·b is formed exactly (TwoProd) and added to a double-double
 * accumulator (JMP Algorithm 6; a plain term with Algorithm 4); the sum is rounded once to the arithmetic at
 * the end (through round-to-odd for fp32: one rounding). Bound: |res − Σ| ≤ u_ar·|Σ| +
 * γₙ₋₁(3u² + 13u³)·(1 + u_ar)·Σ|aᵢbᵢ|, u = 2^-53 — i.e. correctly rounded up to a tiny term unless
 * cancellation exceeds ~2^104. Cost ≈ 37 flops per term (TwoProd 17 + DD add 20).
 * In double-double arithmetic the registers already are DD, so it is the recursive loop.
 */
export const ddAccumulation: Accumulation = {
  name: 'dd',
  description: 'double-double accumulator (exact products, DD sum, one final rounding); cost ≈ 15× in fp64; |err| ≤ u|Σ| + γₙ(2^-104)Σ|t|',
  emitDeclare: (base, ar) => {
    if (ar.kind === 'dd') return recursiveAccumulation.emitDeclare(base, ar);
    checkCompensable(ar, 'dd');
    return `let ${base}_hi = 0, ${base}_lo = 0, ${base}_p = 0, ${base}_e = 0;`;
  },
  emitReset: (base, ar) => (ar.kind === 'dd' ? recursiveAccumulation.emitReset(base, ar) : `${base}_hi = 0; ${base}_lo = 0;`),
  emitAddProduct: (base, a, b, ar) => {
    if (ar.kind === 'dd') return recursiveAccumulation.emitAddProduct(base, a, b, ar);
    checkCompensable(ar, 'dd');
    const s = [`${base}_hi`, `${base}_lo`] as const;
    // ≤ 26-bit arithmetic: a·b is exact in binary64, add it as one double (Algorithm 4).
    if (ar.significandBits <= 26) return ddAddNumberSource(s, s, `(${a.names[0]} * ${b.names[0]})`);
    return `${twoProdSource(ar, `${base}_p`, `${base}_e`, a.names[0]!, b.names[0]!)} ${ddAddSource(s, s, [`${base}_p`, `${base}_e`])}`;
  },
  emitAdd: (base, a, ar) => {
    if (ar.kind === 'dd') return recursiveAccumulation.emitAdd(base, a, ar);
    checkCompensable(ar, 'dd');
    const s = [`${base}_hi`, `${base}_lo`] as const;
    return ddAddNumberSource(s, s, a.names[0]!);
  },
  emitResult: (dst, base, ar) =>
    ar.kind === 'dd'
      ? recursiveAccumulation.emitResult(dst, base, ar)
      : ar.emitConvert(dst, { kind: 'dd', names: [`${base}_hi`, `${base}_lo`] }, 106),
  bound: (n, u) => {
    // An extended arithmetic (u far below 2^-53) means DD registers: the recursive bound applies.
    if (u < 2 ** -60) return recursiveAccumulation.bound(n, u);
    return { ofAbsSum: gamma(Math.max(n - 1, 0), DD_ADD_BOUND) * (1 + u), ofResult: u };
  },
  helpers: { ddTwoProdErrorScaled: twoProdErrorScaled },
};
