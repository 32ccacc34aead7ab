/**
 * GEMV and ELL SpMV with every accumulation strategy, and in DD arithmetic, stay within the core's a-priori
 * bounds (gemvBound, ellSpmvBound, which use each strategy's own bound) against the exact oracle.
 */
import { describe, it, expect } from 'vitest';
import '../../src/formats/dd/register.js';
import { vector, matrix, range, rowMajor } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { gemvBound } from '../../kernels/gemv/gemv-bound.js';
import { ellSpmv } from '../../kernels/ell-spmv/ell-spmv.js';
import { ellSpmvBound } from '../../kernels/ell-spmv/ell-spmv-bound.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { exactDot, exactOf } from '../../src/testing/exact.js';
import { absRational, subRational, compareRational, addRational, mulRational, type Rational } from '../../src/testing/rational.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { prng } from './gen-dot.js';

const strategies = ['recursive', 'pairwise', 'kahan', 'dot2', 'dd'];
const valueOf = (v: unknown): Rational => typeof v === 'number' ? exactOf(v) : exactDot([(v as DdValue).hi, (v as DdValue).lo], [1, 1]);
const within = (got: unknown, exact: Rational, bound: number): boolean => compareRational(absRational(subRational(valueOf(got), exact)), exactOf(bound)) <= 0;

describe('GEMV and ELL SpMV within the core bounds for every accumulation and for DD arithmetic', () => {
  it('GEMV y := αAx + βy', () => {
    const rand = prng(21);
    const m = 9, n = 70, alpha = 0.3, beta = -1.25;
    const a = Float64Array.from({ length: m * n }, () => (rand() - 0.5) * 2 ** Math.floor(rand() * 20 - 10));
    const xs = Float64Array.from({ length: n }, () => rand() - 0.5);
    const y0 = Float64Array.from({ length: m }, () => rand() - 0.5);
    const configs: { acc: string; arithmetic?: string }[] = [...strategies.map((acc) => ({ acc })), { acc: 'recursive', arithmetic: 'dd' }, { acc: 'pairwise', arithmetic: 'dd' }, { acc: 'dd', arithmetic: 'dd' }];
    for (const { acc, arithmetic } of configs) {
      const A = matrix(m, n, (i, j) => a[i * n + j]!, { layout: 'row-major' });
      const x = vector(xs);
      let y: ReturnType<typeof vector> | ReturnType<typeof range<1, DdValue>> = vector(y0);
      if (arithmetic) {
        const yd = range(rowMajor<1, DdValue>({ size: m, storage: 'dd' }));
        y0.forEach((v, i) => yd.set(i, { hi: v, lo: 0 }));
        y = yd;
      }
      const options = { accumulation: acc, ...(arithmetic ? { arithmetic } : {}) };
      const bound = gemvBound({ alpha, A, x, beta, y, trans: 'N' }, options);
      gemv({ alpha, A, x, beta, y, trans: 'N' }, options);
      for (let i = 0; i < m; i++) {
        const exact = addRational(mulRational(exactOf(alpha), exactDot(a.subarray(i * n, (i + 1) * n), xs)), mulRational(exactOf(beta), exactOf(y0[i]!)));
        expect(within(y.get(i), exact, bound[i]!), `${acc}${arithmetic ? ' in ' + arithmetic : ''}, row ${i}`).toBe(true);
        // the bound is informative, not vacuous: O(n·u) of O(1) data in fp64, O(n·2^-102) in DD
        expect(bound[i]!).toBeLessThan(arithmetic ? 1e-26 : 1e-11);
      }
    }
  });

  it('ELL SpMV y := αAx (2-D Laplacian, thirds)', () => {
    const A = laplacianEll([7, 5]);
    const xs = Array.from({ length: A.cols }, (_, i) => 1 / (i + 3));
    for (const acc of strategies) {
      for (const arithmetic of ['f64', 'dd'] as const) {
        if (arithmetic === 'dd' && (acc === 'kahan' || acc === 'dot2')) continue; // refused by design
        const y = arithmetic === 'dd' ? range(rowMajor<1, DdValue>({ size: A.rows, storage: 'dd' })) : vector(A.rows);
        const args = { alpha: 1 / 3, A, x: vector(xs), beta: 0, y };
        const bound = ellSpmvBound(args, { accumulation: acc, arithmetic });
        ellSpmv(args, { accumulation: acc, arithmetic });
        for (let i = 0; i < A.rows; i++) {
          const cols: number[] = [], vals: number[] = [];
          for (let k = 0; k < A.width; k++) { const c = A.colIndex[i + k * A.stride]!; if (c >= 0) { cols.push(xs[c]!); vals.push(A.values[i + k * A.stride]!); } }
          const exact = mulRational(exactOf(1 / 3), exactDot(vals, cols));
          expect(within(y.get(i), exact, bound[i]!), `${acc} in ${arithmetic}, row ${i}`).toBe(true);
          expect(bound[i]!).toBeLessThan(arithmetic === 'dd' ? 1e-28 : 1e-13);
        }
      }
    }
  });
});
