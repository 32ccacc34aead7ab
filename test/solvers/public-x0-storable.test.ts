/**
 * x₀ is stored at b's scale (2^-k·x₀, the power of two that brings ‖b‖₂ into range), so in a narrow storage an x₀ far
 * larger than b overflowed there: x₀ = (−0.66, −0.07) with b near 2^-700 in fp32 vectors was stored as −∞, and cg on
 * the zero matrix (tolerance 1) reported `converged` with x = (−∞, −∞); other systems broke down 'non-finite' with
 * an infinite x. Such an x₀ is now refused before any work, as an unstorable b is: INVALID_VALUE naming options.x0.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bicgstab, cg, csrMatrix, csrToEll, formats, gmres, jacobiCg, laplacianEll, toArray, type OperatorLike, type SolverResult } from '../../src/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

type Solve = (A: OperatorLike, b: ArrayLike<number>, o: object) => SolverResult;
const solvers: [string, Solve][] = [['cg', cg], ['jacobiCg', jacobiCg], ['bicgstab', bicgstab], ['gmres', gmres]];
const narrow = [formats.f32, formats.bf16, formats.f16];

describe('an x0 that overflows the storage at b’s scale', () => {
  it('the reported case: cg on the zero matrix, fp32 vectors, b near 2^-700, x0 of size 1', () => {
    const zero = csrToEll(csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 0, 0), colIndex: new Int32Array(0), values: new Float64Array(0) }));
    const b = [-1.3555027528089892e-211, 1.3793972336743977e-211];
    const x0 = [-0.6634280327707529, -0.074111791793257];
    expectModprec(() => cg(zero, b, { tolerance: 1, maxIterations: 0, x0, storage: formats.f32 }), 'INVALID_VALUE', 'options.x0');
  });

  it.each(solvers)('%s: refused with INVALID_VALUE naming options.x0 exactly when 2^-k·max|x0ᵢ| overflows; else every x is finite', (_, solve) => {
    const A = laplacianEll([3]);
    fc.assert(fc.property(
      fc.constantFrom(...narrow), fc.integer({ min: -900, max: 60 }), fc.integer({ min: -30, max: 300 }),
      (storage, eb, ex) => {
        const b = [1, -2, 3].map((v) => v * 2 ** eb), x0 = [0.5, 0, -1].map((v) => v * 2 ** ex);
        const options = { storage, x0, tolerance: 1e-3, maxIterations: 20 };
        // b's scale: b itself for fp32/bf16 while ‖b‖₂ lies in [2^-32, 2^32], else ‖2^-k·b‖₂ in [1, 2)
        const e = Math.floor(Math.log2(Math.hypot(...b)));
        const k = storage === formats.f16 || Math.abs(e) > 32 ? e : 0;
        const overflows = 2 ** (ex - k) > storage.storage.maxValue;
        let bOk = true;
        try { solve(A, b, { storage, tolerance: 1e-3, maxIterations: 1 }); } catch { bOk = false; }
        fc.pre(bOk);   // a b the storage cannot hold is refused on its own (naming b)
        if (overflows) {
          expectModprec(() => solve(A, b, options), 'INVALID_VALUE', 'options.x0');
        } else {
          const r = solve(A, b, options);
          expect(Array.from(toArray(r.x)).every(Number.isFinite)).toBe(true);
        }
      },
    ), { numRuns: 80, seed: 5, examples: [[formats.f32, -700, 0], [formats.f16, 0, 17], [formats.f16, 0, 15], [formats.bf16, -20, 120]] });
  });

  it('b = 0 does not read x0: x = 0, converged, whatever x0', () => {
    const r = cg(laplacianEll([2]), [0, 0], { storage: formats.f16, x0: [1e30, -1e30] });
    expect([r.status, Array.from(toArray(r.x))]).toEqual(['converged', [0, 0]]);
  });
});
