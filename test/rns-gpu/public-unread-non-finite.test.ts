/**
 * RNS has no NaN or infinity, so a non-finite value a call would read is INVALID_VALUE naming the element — but
 * only one it would read: a quick return or a zero coefficient reads nothing of its operand (BLAS semantics: AXPY
 * with α = 0 returns at once, GEMV and ELL SpMV with α = 0 and β = 1 too, α = 0 reads neither A nor x, β = 0 not y,
 * SCAL with α = 0 writes zeros and with α = 1 returns at once). The same outcome on 'js', 'cpu' and 'gpu' (strict), and 'wasm' refuses the
 * arithmetic it has no part for; nothing written when it throws. Regression: the CPU refused `axpy(0, x, y)` with a
 * NaN in y, and `gemv({ alpha: 0, beta: 1, … })` with a NaN in y, which backend 'gpu' and ELL SpMV return from at once, and `scal(1, x)` with a NaN in x (backend 'gpu': a quick return).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { gemv, ellSpmv, axpy, waxpby, scal, vector, matrix, toArray, ellMatrix, ellFromMatrix, rnsFormat } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { outcome } from '../kernels/kernel-calls.js';

const rns = rnsFormat(106);
type Holder = 'none' | 'x' | 'y' | 'A';

/** Operands of length n with `special` at the last element of the holder (A: at (0, 0), also ELL's first value). */
function operands(n: number, holder: Holder, special: number) {
  const v = (k: number, name: Holder) => vector(Array.from({ length: n }, (_, i) => (name === holder && i === n - 1 ? special : i + k)));
  const values = Float64Array.from({ length: n }, (_, i) => (holder === 'A' && i === 0 ? special : i + 1));
  return {
    x: v(1, 'x'), y: v(-2, 'y'), w: vector(n),
    A: matrix(n, n, (i, j) => (holder === 'A' && i === 0 && j === 0 ? special : i - j + 1)),
    E: ellFromMatrix(ellMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values })),
  };
}
type Operands = ReturnType<typeof operands>;

/** Each kernel, and the operands it reads for α and β (the holder names as the error does). */
const kernels: [string, (o: Operands, a: number, b: number, options: any) => unknown, (a: number, b: number) => Holder[]][] = [
  ['scal', (o, a, _b, p) => scal(a, o.x, p), (a) => (a === 0 || a === 1 ? [] : ['x'])],
  ['axpy', (o, a, _b, p) => axpy(a, o.x, o.y, p), (a) => (a === 0 ? [] : ['x', 'y'])],
  ['waxpby', (o, a, b, p) => waxpby(a, o.x, b, o.y, o.w, p), (a, b) => [...(a === 0 ? [] : ['x' as const]), ...(b === 0 ? [] : ['y' as const])]],
  ['gemv N', (o, a, b, p) => gemv({ alpha: a, A: o.A, x: o.x, beta: b, y: o.y }, p), (a, b) => (a === 0 && b === 1 ? [] : [...(a === 0 ? [] : ['A' as const, 'x' as const]), ...(b === 0 ? [] : ['y' as const])])],
  ['gemv T', (o, a, b, p) => gemv({ alpha: a, A: o.A, x: o.x, beta: b, y: o.y, trans: 'T' }, p), (a, b) => (a === 0 && b === 1 ? [] : [...(a === 0 ? [] : ['A' as const, 'x' as const]), ...(b === 0 ? [] : ['y' as const])])],
  ['ellSpmv', (o, a, b, p) => ellSpmv({ alpha: a, A: o.E, x: o.x, beta: b, y: o.y }, p), (a, b) => (a === 0 && b === 1 ? [] : [...(a === 0 ? [] : ['A' as const, 'x' as const]), ...(b === 0 ? [] : ['y' as const])])],
];

const bits = (o: Operands): string => [o.x, o.y, o.w].map((r) => Array.from(toArray(r), (v) => (Object.is(v, -0) ? '-0' : String(v))).join()).join('/');

describe('RNS: only the values a call reads must be finite, on every backend', () => {
  it.each(kernels)('%s', async (kernel, run, reads) => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 2 }), fc.constantFrom(0, 1, 2), fc.constantFrom(0, 1, 0.5), fc.constantFrom<Holder>('none', 'x', 'y', 'A'), fc.constantFrom(NaN, Infinity, -Infinity),
      async (n, a, b, holder, special) => {
        fc.pre(holder !== 'A' || kernel.startsWith('gemv') || kernel === 'ellSpmv');
        const name = holder === 'A' ? (kernel === 'ellSpmv' ? 'A.values[0, 0]' : 'A[0, 0]') : `${holder}[${n - 1}]`;
        const expected = holder !== 'none' && reads(a, b).includes(holder) ? `INVALID_VALUE ${name}` : 'ran';
        const results = new Map<string, string>();
        for (const backend of ['js', 'cpu', 'gpu', 'wasm']) {
          const o = operands(n, holder, special);
          const before = bits(o);
          const r = await outcome(() => run(o, a, b, { backend, strict: true, arithmetic: rns }));
          if (r !== 'ran') expect(bits(o), `${backend}: written before ${r}`).toBe(before);
          else results.set(backend, bits(o));
          if (backend === 'wasm') expect(['INVALID_OPTION options.arithmetic', expected]).toContain(r);
          else expect(r, `${kernel} α ${a} β ${b} ${holder} ${special} n ${n} [${backend}]`).toBe(expected);
        }
        // What ran wrote the same values everywhere.
        expect(new Set(results.values()).size).toBeLessThanOrEqual(1);
      },
    ), { numRuns: 20 });
  });
});
