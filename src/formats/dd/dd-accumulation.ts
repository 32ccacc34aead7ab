/**
 * Double-double accumulation as an accumulation strategy of the core: a fp64/fp32 kernel sums in DD.
 * @module
 */
import type { Accumulation } from '../../../kernels/shared/accumulation.js';
import { gamma } from '../../../kernels/shared/accumulation.js';
import type { Register } from '../common/format.js';
import { checkCompensable } from './eft-templates.js';
import { ddAddSource, ddAddNumberSource, ddTwoProdAccumulateSource, ddTemplateHelpers, type DdPair } from './dd-templates.js';
import { DD_ADD_BOUND } from './bounds.js';

/** The two double-double partial sums (A takes the next term, then A and B swap). */
const chains = (base: string): [DdPair, DdPair] => [[`${base}_ah`, `${base}_al`], [`${base}_bh`, `${base}_bl`]];
const ddRegister = (p: DdPair): Register => ({ kind: 'dd', names: [p[0], p[1]] });
/** Statements: swap partial sums A and B (register renaming for the engine, no data movement in the loop). */
const swap = (base: string): string => {
  const [[ah, al], [bh, bl]] = chains(base);
  return `{ const dc$h = ${ah}, dc$l = ${al}; ${ah} = ${bh}; ${al} = ${bl}; ${bh} = dc$h; ${bl} = dc$l; }`;
};

/**
 * `dd`: the sum is kept in double-double. In fp64 arithmetic each product a·b is formed exactly (TwoProd) and
 * added by `ddTwoProdAccumulate` (two-prod-accumulate.ts: error ≤ (3 + 8u)u²(|ab| + |s|), below the
 * 3u² + 13u³ of JMP Algorithm 6 per step, 11 flops after TwoProd instead of 20); for ≤ 26-bit arithmetics a·b is
 * exact in binary64 and is added with JMP Algorithm 4 (as is a plain term); the result is rounded once to the
 * arithmetic (through round-to-odd for fp32). In double-double arithmetic the terms go through the arithmetic's
 * multiply-add.
 *
 * Terms alternate between two independent partial sums, combined at the end, so each chain is half as long
 * (hence γ_{⌈n/2⌉}) and the processor may overlap them (in V8 the speed stays within noise of one chain:
 * the loop is throughput-bound, see bench/dd-dot.ts).
 * Bound, number arithmetic: |res − Σ| ≤ u_ar·|Σ| + γ_{⌈n/2⌉}(3u² + 13u³)·(1 + u_ar)·Σ|aᵢbᵢ| with u = 2^-53
 * (each step is s(1 + δ₁) + aᵢbᵢ(1 + δ₂) with |δᵢ| ≤ 3u² + 13u³, the first of a chain exact, plus Algorithm 6
 * joining the chains); DD arithmetic (and float-float, also a pair arithmetic, whose chains are float-float
 * registers): γ_{⌈n/2⌉+1}(u_ar)·Σ|aᵢbᵢ|. Cost in fp64: 28 flops per term.
 * @group Double-double
 */
export const ddAccumulation: Accumulation = {
  name: 'dd',
  description: 'double-double accumulator, two interleaved chains (exact products, DD sums, one final rounding); |err| ≤ u|Σ| + γ_{n/2}(2^-104)Σ|t|',
  emitDeclare: (base, ar) => {
    if (ar.kind !== 'dd') checkCompensable(ar, 'dd');
    return `let ${base}_ah = 0, ${base}_al = 0, ${base}_bh = 0, ${base}_bl = 0;`;
  },
  emitReset: (base) => `${base}_ah = 0; ${base}_al = 0; ${base}_bh = 0; ${base}_bl = 0;`,
  emitAddProduct: (base, a, b, ar) => {
    const [A] = chains(base);
    if (ar.kind === 'dd') return `${ar.emitFma(ddRegister(A), a, b, ddRegister(A))} ${swap(base)}`;
    checkCompensable(ar, 'dd');
    // ≤ 26-bit arithmetic: a·b is exact in binary64, add it as one double (Algorithm 4).
    if (ar.significandBits <= 26) return `${ddAddNumberSource(A, A, `(${a.names[0]} * ${b.names[0]})`)} ${swap(base)}`;
    return `${ddTwoProdAccumulateSource(A, a.names[0]!, b.names[0]!, A)} ${swap(base)}`;
  },
  emitAdd: (base, a, ar) => {
    const [A] = chains(base);
    if (ar.kind === 'dd') return `${ar.emitAdd(ddRegister(A), ddRegister(A), a)} ${swap(base)}`;
    checkCompensable(ar, 'dd');
    return `${ddAddNumberSource(A, A, a.names[0]!)} ${swap(base)}`;
  },
  emitResult: (dst, base, ar) => {
    const [A, B] = chains(base);
    // A pair arithmetic joins its chains with its own addition: float-float (kind dd too) keeps binary32 words,
    // which the double-double sum would not (its hi is a binary64 sum); for dd arithmetic it is the same sum.
    if (ar.kind === 'dd') return `${ar.emitAdd(ddRegister(A), ddRegister(A), ddRegister(B))} ${ar.emitSet(dst, ddRegister(A))}`;
    return `${ddAddSource(A, A, B)} ${ar.emitConvert(dst, ddRegister(A), 106)}`;
  },
  bound: (n, u) => {
    const half = Math.ceil(n / 2);
    // The number arithmetics this accumulation takes (checkCompensable) are fp64 (u = 2^-53) and those of ≤ 26 bits;
    // any other u is a pair arithmetic (dd, or float-float at 2^-44), whose own registers and multiply-add hold the
    // chains: each of ⌈n/2⌉ terms plus the join, rounded in the arithmetic.
    if (u !== 2 ** -53 && u < 2 ** -26) return { ofAbsSum: gamma(half + 1, u), ofResult: 0 };
    return { ofAbsSum: gamma(half, DD_ADD_BOUND) * (1 + u), ofResult: u };
  },
  // A pair arithmetic (dd, ff) holds the chains in its own registers; a number arithmetic needs exact products.
  checkArithmetic: (ar) => { if (ar.kind !== 'dd') checkCompensable(ar, 'dd'); },
  helpers: ddTemplateHelpers,
  propagatesNonFinite: true,
};

