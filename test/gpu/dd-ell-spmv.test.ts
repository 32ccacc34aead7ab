/**
 * ELL SpMV in double-double on the llvmpipe adapter through `backend: 'gpu'`: y := α·A·x + β·y with the matrix in
 * dd, f64 or f32 storage, x in dd (or f32), y in dd. The GPU's result and the CPU dd kernel's are both within
 * ellSpmvBound of the exact value, so they may differ by at most twice the bound — checked per row in exact rational
 * arithmetic (a 2^-60 error in one product, far inside float-float's reach, already breaks it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ellSpmv, ellSpmvBound, ellWithStorage, formats, laplacianEll, vector } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { requireRuntime } from './gpu-test-helpers.js';

const pairValue = (v: { hi: number; lo: number }): Rational => addRational(exactOf(v.hi), exactOf(v.lo));

describe('ELL SpMV in double-double on the GPU', () => {
  it('agrees with the CPU dd kernel within twice ellSpmvBound on every row (dd, f64, f32 matrix storage)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(formats.dd, formats.f64, formats.f32),
      fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 })),
      fc.integer({ min: 1, max: 2 ** 30 }),
      fc.constantFrom(1, -1.5, 2 ** 40),
      fc.constantFrom(0, 0.5, -3),
      async (storage, grid, seed, alpha, beta) => {
        const E = laplacianEll(grid);
        const n = E.rows;
        let s = seed;
        const next = (): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32 - 0.5; };
        // Values spanning many binades, with a low part, so dd's second word matters.
        const xs = Array.from({ length: n }, () => next() * 2 ** Math.round(40 * next()));
        const ys = Array.from({ length: n }, () => next());
        const xStorage = storage === formats.f32 ? formats.f32 : formats.dd;
        const make = () => ({ x: vector(xs, { storage: xStorage, arithmetic: formats.dd }), y: vector(ys, { storage: formats.dd, arithmetic: formats.dd }) });
        const A = ellWithStorage(E, { storage });
        const cpu = make(), gpu = make();
        const bound = ellSpmvBound({ alpha, A, x: cpu.x, beta, y: cpu.y }, { arithmetic: formats.dd });
        ellSpmv({ alpha, A, x: cpu.x, beta, y: cpu.y }, { arithmetic: formats.dd });
        const report = await ellSpmv({ alpha, A, x: gpu.x, beta, y: gpu.y }, { backend: 'gpu', arithmetic: formats.dd, strict: true });
        expect(report.backend).toBe('gpu');
        for (let i = 0; i < n; i++) {
          const d = absRational(subRational(pairValue(gpu.y.get(i)), pairValue(cpu.y.get(i))));
          expect(compareRational(d, mulRational(exactOf(2), exactOf(bound[i]!))) <= 0, `row ${i}`).toBe(true);
        }
      },
    ), { numRuns: 12 });
  });
});
