/**
 * Every …Bound takes its kernel's arguments and options and refuses what the kernel refuses, with the same code and
 * parameter. Regression: dotBound, axpyBound, scalBound, waxpbyBound, asumBound and nrm2Bound checked nothing —
 * `dotBound(vector([1, 2]), vector([1, 2, 3]))` returned 1.1e-15 (a plausible bound for a call dot refuses),
 * `axpyBound('1', x, y)` returned ∞, `nrm2Bound(3)` threw a TypeError — and on empty vectors returned 0 for an
 * unknown arithmetic the kernel refuses.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  dot, axpy, scal, waxpby, asum, nrm2, dotBound, axpyBound, scalBound, waxpbyBound, asumBound, nrm2Bound, vector, matrix,
  ModprecError, range, rowMajor,
} from '../../src/index.js';

/** The code and parameter a call throws, or 'ok'. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (e) {
    if (e instanceof ModprecError) return `${e.code} ${e.parameter}`;
    return `untyped ${(e as Error).name}`;
  }
}

/** Operands of length n, some of them bad: other lengths, 2-D ranges, read-only, not ranges, overlapping. */
function operand(kind: string, n: number, shared: Float64Array): unknown {
  switch (kind) {
    case 'ok': return vector(Array.from({ length: n }, (_, i) => i - 1));
    case 'short': return vector(Math.max(0, n - 1));
    case 'long': return vector(n + 1);
    case '2-D': return matrix(n, 1);
    case 'read-only': return vector(n).toConst();
    case 'array': return [1, 2, 3];
    case 'shifted': return range(rowMajor<1>({ size: [n], offset: 1, data: shared }));
    default: return range(rowMajor<1>({ size: [n], data: shared }));   // 'aliased': the same elements as 'base'
  }
}

const kinds = ['ok', 'short', 'long', '2-D', 'read-only', 'array', 'shifted', 'aliased'] as const;
const scalars = fc.constantFrom<unknown>(2, 0, 1, NaN, -Infinity, '1', undefined, null);
const options = fc.constantFrom<unknown>(undefined, {}, { arithmetic: 'bogus' }, { accumulation: 'bogus' }, { arithmetic: 'f32' });

describe('bounds refuse what their kernels refuse', () => {
  it('DOT, AXPY, SCAL, WAXPBY, ASUM, NRM2: same code and parameter, or both run', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 3 }), fc.array(fc.constantFrom(...kinds), { minLength: 3, maxLength: 3 }), scalars, scalars, options,
      (n, [kx, ky, kw], alpha, beta, opts) => {
        const shared = new Float64Array(n + 1);
        const make = () => {
          const base = range(rowMajor<1>({ size: [n], data: shared }));
          return { base, x: operand(kx!, n, shared) as any, y: operand(ky!, n, shared) as any, w: operand(kw!, n, shared) as any };
        };
        const o = opts as any;
        // The bound first (it only reads), then the kernel on fresh operands of the same kinds.
        const pairs: [() => unknown, () => unknown][] = [
          [() => { const v = make(); return dotBound(v.x, v.y, o); }, () => { const v = make(); return dot(v.x, v.y, o); }],
          [() => { const v = make(); return asumBound(v.x, o); }, () => { const v = make(); return asum(v.x, o); }],
          [() => { const v = make(); return nrm2Bound(v.x, o); }, () => { const v = make(); return nrm2(v.x, o); }],
          [() => { const v = make(); return scalBound(alpha as number, v.x, o); }, () => { const v = make(); return scal(alpha as number, v.x, o); }],
          [() => { const v = make(); return axpyBound(alpha as number, v.x, v.y, o); }, () => { const v = make(); return axpy(alpha as number, v.x, v.y, o); }],
          [() => { const v = make(); return waxpbyBound(alpha as number, v.x, beta as number, v.y, v.w, o); },
            () => { const v = make(); return waxpby(alpha as number, v.x, beta as number, v.y, v.w, o); }],
        ];
        for (const [bound, kernel] of pairs) {
          const b = outcome(bound);
          expect(b).not.toMatch(/^untyped/);
          expect(b).toBe(outcome(kernel));
        }
      },
    ), { numRuns: 150, seed: 20261126 });
  });

  it('the regression cases', () => {
    expect(outcome(() => dotBound(vector([1, 2]), vector([1, 2, 3])))).toBe('DIMENSION_MISMATCH y');
    expect(outcome(() => axpyBound('1' as never, vector([1]), vector([1])))).toBe('INVALID_VALUE alpha');
    expect(outcome(() => nrm2Bound(3 as never))).toBe('INVALID_OPTION x');
    expect(outcome(() => asumBound(vector(0), { arithmetic: 'bogus' }))).toBe('INVALID_FORMAT options.arithmetic');
  });
});
