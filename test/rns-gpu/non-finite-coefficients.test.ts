/**
 * RNS has no NaN or infinity: a non-finite α or β that a call multiplies by is INVALID_VALUE naming that coefficient,
 * the same on the CPU ('js', 'cpu') and with `backend: 'gpu'`, before anything is written; a quick return (empty
 * vectors, α = 0 with β = 1, SCAL by 1, …) reads no coefficient on either. Regression: the CPU named the
 * conversion's `value` (`scal(NaN, x, { arithmetic: rnsFormat(106) })`), the GPU `alpha` for a β it scaled y by
 * (`gemv({ alpha: 0, …, beta: NaN }, { backend: 'gpu', arithmetic: rnsFormat(106) })`).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { gemv, ellSpmv, axpy, waxpby, scal, vector, matrix, toArray, ellMatrix, ellFromMatrix, rnsFormat } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { outcome } from '../kernels/kernel-calls.js';

const rns = rnsFormat(106);

function operands(n: number) {
  const v = (k: number) => vector(Array.from({ length: n }, (_, i) => i + k));
  return {
    x: v(1), y: v(-2), w: v(5), A: matrix(n, n, (i, j) => i - j + 1),
    E: ellFromMatrix(ellMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values: Float64Array.from({ length: n }, (_, i) => i + 1) })),
  };
}
type Operands = ReturnType<typeof operands>;

const kernels: [string, (o: Operands, a: number, b: number, options: any) => unknown][] = [
  ['scal', (o, a, _b, p) => scal(a, o.x, p)],
  ['axpy', (o, a, _b, p) => axpy(a, o.x, o.y, p)],
  ['waxpby', (o, a, b, p) => waxpby(a, o.x, b, o.y, o.w, p)],
  ['gemv', (o, a, b, p) => gemv({ alpha: a, A: o.A, x: o.x, beta: b, y: o.y }, p)],
  ['ellSpmv', (o, a, b, p) => ellSpmv({ alpha: a, A: o.E, x: o.x, beta: b, y: o.y }, p)],
];

const coefficient = fc.constantFrom(NaN, Infinity, -Infinity, 0, 1, 2);
const bits = (o: Operands): string => [o.x, o.y, o.w].map((r) => [...toArray(r)].join()).join('/');


describe('non-finite coefficients with an RNS arithmetic', () => {
  it.each(kernels)('%s: one typed error naming α or β on every backend, nothing written', async (_, kernel) => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 2 }), coefficient, coefficient, async (n, a, b) => {
      const results = new Set<string>();
      for (const backend of ['js', 'cpu', 'gpu']) {
        const o = operands(n);
        const before = bits(o);
        const r = await outcome(() => kernel(o, a, b, { backend, arithmetic: rns }));
        if (r !== 'ran') expect(bits(o)).toBe(before);
        results.add(r);
      }
      expect([...results]).toHaveLength(1);
      const [r] = [...results];
      expect(['ran', 'INVALID_VALUE alpha', 'INVALID_VALUE beta']).toContain(r);
    }), { numRuns: 12, seed: 2611 });
  });

  it('the regression cases', async () => {
    await requireRuntime();
    const o = operands(2);
    expect(await outcome(() => scal(NaN, o.x, { arithmetic: rns }))).toBe('INVALID_VALUE alpha');
    expect(await outcome(() => gemv({ alpha: 0, A: o.A, x: o.x, beta: NaN, y: o.y }, { backend: 'gpu', arithmetic: rns }))).toBe('INVALID_VALUE beta');
  });
});
