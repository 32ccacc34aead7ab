/**
 * Dot2 (Ogita, Rump, Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005, Algorithm 5.3)
 * as an accumulation strategy of the core.
 * @module
 */
import type { Accumulation } from '../../../kernels/shared/accumulation.js';
import { gamma } from '../../../kernels/shared/accumulation.js';
import { checkCompensable, twoProdSource, twoSumSource } from './eft-templates.js';
import { twoProdErrorScaled } from './eft.js';

/**
 * `dot2`: every product is split exactly (TwoProd: h + r = a·b), h is added to the running sum p with TwoSum
 * (p + q = p_old + h), and the errors q + r are summed in working precision; result p + s. The result is as
 * accurate as if computed in twice the working precision and then rounded.
 * Bound (ORO 2005, §5, the Dot2 error estimate): |res − xᵀy| ≤ u·|xᵀy| + γₙ²·Σ|xᵢyᵢ| (no underflow, n·u < 1).
 * Cost ≈ 25 flops per term in fp64 (TwoProd 17 without FMA, TwoSum 6, 2 adds) vs 2 for the plain loop.
 * Number arithmetics only (fp64, fp32); for a sum (ASUM, emitAdd) it is Sum2.
 * @group Double-double
 */
export const dot2Accumulation: Accumulation = {
  name: 'dot2',
  description: 'Ogita–Rump–Oishi Dot2 (TwoProd + TwoSum, errors summed); cost ≈ 10× in fp64 without FMA; |err| ≤ u|xᵀy| + γₙ²Σ|xᵢyᵢ|',
  emitDeclare: (base, ar) => { checkCompensable(ar, 'dot2'); return `let ${base}_p = 0, ${base}_s = 0, ${base}_h = 0, ${base}_r = 0, ${base}_q = 0;`; },
  emitReset: (base) => `${base}_p = 0; ${base}_s = 0;`,
  emitAddProduct: (base, a, b, ar) => {
    checkCompensable(ar, 'dot2');
    const s = { kind: 'number' as const, names: [`${base}_s`] };
    const q = { kind: 'number' as const, names: [`${base}_q`] };
    const r = { kind: 'number' as const, names: [`${base}_r`] };
    return `${twoProdSource(ar, `${base}_h`, `${base}_r`, a.names[0]!, b.names[0]!)}
{ let d2$p = 0; ${twoSumSource(ar, 'd2$p', `${base}_q`, `${base}_p`, `${base}_h`)} ${base}_p = d2$p; }
${ar.emitAdd(q, q, r)} ${ar.emitAdd(s, s, q)}`;
  },
  emitAdd: (base, a, ar) => {
    checkCompensable(ar, 'dot2');
    const s = { kind: 'number' as const, names: [`${base}_s`] };
    const q = { kind: 'number' as const, names: [`${base}_q`] };
    return `{ let d2$p = 0; ${twoSumSource(ar, 'd2$p', `${base}_q`, `${base}_p`, a.names[0]!)} ${base}_p = d2$p; } ${ar.emitAdd(s, s, q)}`;
  },
  emitResult: (dst, base, ar) => ar.emitAdd(dst, { kind: 'number', names: [`${base}_p`] }, { kind: 'number', names: [`${base}_s`] }),
  bound: (n, u) => { const g = gamma(n, u); return { ofAbsSum: g * g, ofResult: u }; },
  checkArithmetic: (ar) => checkCompensable(ar, 'dot2'),
  helpers: { ddTwoProdErrorScaled: twoProdErrorScaled },
  propagatesNonFinite: true,
};
