/**
 * Kahan–Babuška/Neumaier compensated summation as an accumulation strategy of the core.
 * @module
 */
import type { Accumulation } from '../../../kernels/shared/accumulation.js';
import { gamma } from '../../../kernels/shared/accumulation.js';
import { checkCompensable, twoSumSource } from './eft-templates.js';

/**
 * `kahan`: each term t (for DOT a rounded product fl(a·b)) is added with TwoSum and the exact errors are summed
 * separately, the result is s + c. This is Neumaier's variant of Kahan–Babuška (the error term is exact whatever
 * the order of magnitudes) and equals Ogita–Rump–Oishi's Sum2; TwoSum replaces Neumaier's branch with the same
 * result. Cost ≈ 4× the plain loop (7 flops per term instead of 2).
 * Bound (Ogita, Rump, Oishi 2005, §4, the Sum2 error estimate, plus one rounding per product):
 * |res − Σaᵢbᵢ| ≤ u·|Σaᵢbᵢ| + (u(1 + u) + γ²ₙ₋₁(1 + u))·Σ|aᵢbᵢ|. For DOT the product roundings dominate: the
 * result is as accurate as the products, not twice the precision — use `dot2` for that.
 * Number arithmetics only (fp64, fp32).
 * @group Double-double
 */
export const neumaierAccumulation: Accumulation = {
  name: 'kahan',
  description: 'Kahan–Babuška/Neumaier (TwoSum per term, errors summed apart); cost ≈ 4×; |err| ≤ u|Σ| + (u + γ²ₙ)Σ|t|',
  emitDeclare: (base, ar) => { checkCompensable(ar, 'kahan'); return `let ${base}_s = 0, ${base}_c = 0, ${base}_t = 0, ${base}_e = 0;`; },
  emitReset: (base) => `${base}_s = 0; ${base}_c = 0;`,
  emitAddProduct: (base, a, b, ar) => {
    checkCompensable(ar, 'kahan');
    const t = { kind: 'number' as const, names: [`${base}_t`] };
    return `${ar.emitMul(t, a, b)} ${neumaierAccumulation.emitAdd(base, t, ar)}`;
  },
  emitAdd: (base, a, ar) => {
    checkCompensable(ar, 'kahan');
    const c = { kind: 'number' as const, names: [`${base}_c`] };
    const e = { kind: 'number' as const, names: [`${base}_e`] };
    return `{ let nm$s = 0; ${twoSumSource(ar, 'nm$s', `${base}_e`, `${base}_s`, a.names[0]!)} ${base}_s = nm$s; } ${ar.emitAdd(c, c, e)}`;
  },
  emitResult: (dst, base, ar) => ar.emitAdd(dst, { kind: 'number', names: [`${base}_s`] }, { kind: 'number', names: [`${base}_c`] }),
  bound: (n, u) => {
    const g = gamma(Math.max(n - 1, 0), u);
    return { ofAbsSum: u * (1 + u) + g * g * (1 + u), ofResult: u };
  },
  checkArithmetic: (ar) => checkCompensable(ar, 'kahan'),
  helpers: {},
};
