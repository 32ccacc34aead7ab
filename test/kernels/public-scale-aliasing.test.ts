/**
 * A scaled operand reads its scales as it reads its elements, so an output must not overlap an input's scales, nor
 * its own (docs/guide.md, "Aliasing"): `INVALID_STORAGE` naming the output (and `<input>.scale`), before anything is
 * written, on every CPU backend; scales that share a buffer with an output but no element still run.
 * Regression: the overlap test compared the operands' elements only, so GEMV's y over A's row scales, AXPY's y over
 * x's element scales and DOT's `into` over x's scale ran — the JavaScript and the WebAssembly then wrote over scales
 * they had still to read, and disagreed (AXPY: 7, 3, 3 against 3, 3, 3).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { range, rowMajor, scaledReducedRowMajor, span, vector, gemv, axpy, waxpby, dot, ModprecError } from '../../src/index.js';

const BACKENDS = ['js', 'wasm', 'cpu'] as const;

/** Runs `call`; the typed error's "code parameter" (checking nothing in `buffer` changed) or 'ran'. */
function outcome(buffer: ArrayBufferLike, call: () => unknown): string {
  const before = [...new Float64Array(buffer)].map(String);
  try { call(); } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    expect([...new Float64Array(buffer)].map(String), `${e.code} after writing`).toEqual(before);
    return `${e.code} ${e.parameter}`;
  }
  return 'ran';
}

/** Buffer positions (in doubles) of n elements from `at` with increment inc. */
function positions(at: number, n: number, inc: number): number[] {
  const span = (n - 1) * Math.abs(inc);
  return Array.from({ length: n }, (_, i) => at + (inc < 0 ? span + i * inc : i * inc));
}

describe('outputs over scales', () => {
  it('AXPY: y over a buffer holding x\'s element scales is refused exactly when it meets one of them', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 16 }), fc.integer({ min: 0, max: 16 }), fc.constantFrom(1, 2, -1), fc.constantFrom(1, -2),
      fc.constantFrom(...BACKENDS), (n, sAt, yAt, sInc, yInc, backend) => {
        const buffer = new ArrayBuffer(8 * 40);
        new Float64Array(buffer).fill(0.5);
        // x: i8 with increment sInc and one scale per element, its scales a view of `buffer` from sAt.
        const x = range(scaledReducedRowMajor<1>({ size: [n], stride: sInc, storage: 'i8', scaleMask: [true], scale: new Float64Array(buffer, 8 * sAt, n) }));
        const y = range(rowMajor<1>({ size: [n], stride: yInc, data: new Float64Array(buffer, 8 * yAt, (n - 1) * Math.abs(yInc) + 1) }));
        // The scale positions x reads: element i reads scale entry offset + i·stride.
        const sc = x.accessor.scale!;
        const scalePositions = Array.from({ length: n }, (_, i) => sAt + sc.offset + i * sc.strides[0]!);
        const meets = positions(yAt, n, yInc).some((p) => scalePositions.includes(p));
        expect(outcome(buffer, () => axpy(2, x, y, { backend }))).toBe(meets ? 'INVALID_STORAGE y' : 'ran');
      }), { numRuns: 300 });
  });

  it('GEMV y over A\'s row scales, WAXPBY w over y\'s scale, DOT into over x\'s scale, an output over its own scales', () => {
    for (const backend of BACKENDS) {
      const rows = Float64Array.of(1, 1, 1, 1);
      const A = range(scaledReducedRowMajor<2>({ size: [3, 3], storage: 'i8', scaleMask: [true, false], scale: rows.subarray(0, 3) }));
      const y = range(rowMajor<1>({ size: [2], data: rows.subarray(2, 4) }));
      expect(outcome(rows.buffer, () => gemv({ alpha: 1, A: A.sub(span(1, 3), span(0, 3)), x: vector([1, 1, 1]), beta: 0, y }, { backend }))).toBe('INVALID_STORAGE y');
      // A's rows 0–1 read scales 0–1 only: y over scales 2–3 meets none of them.
      expect(outcome(rows.buffer, () => gemv({ alpha: 1, A: A.sub(span(0, 2), span(0, 3)), x: vector([1, 1, 1]), beta: 0, y }, { backend }))).toBe('ran');

      const one = Float64Array.of(0.25, 7);
      const ys = range(scaledReducedRowMajor<1>({ size: [3], storage: 'i16', scaleMask: [false], scale: one.subarray(0, 1) }));
      const w = range(rowMajor<1>({ size: [1], data: one.subarray(0, 1) }));
      expect(outcome(one.buffer, () => waxpby(1, vector([1]), 1, ys.sub(span(0, 1)), w, { backend }))).toBe('INVALID_STORAGE w');
      const into = range(rowMajor<1>({ size: [1], data: one.subarray(0, 1) }));
      expect(outcome(one.buffer, () => dot(ys, ys, { backend, into }))).toBe('INVALID_STORAGE options.into');

      const own = new Float64Array(6);
      const self = range(scaledReducedRowMajor<1>({ size: [3], storage: 'f64', scaleMask: [true], data: own.subarray(0, 3), scale: own.subarray(2, 5).fill(1) }));
      expect(outcome(own.buffer, () => axpy(1, vector([1, 2, 3]), self, { backend }))).toBe('INVALID_STORAGE y');
      const apart = range(scaledReducedRowMajor<1>({ size: [3], storage: 'f64', scaleMask: [true], data: own.subarray(0, 3), scale: own.subarray(3, 6).fill(2) }));
      expect(outcome(own.buffer, () => axpy(1, vector([1, 2, 3]), apart, { backend }))).toBe('ran');
    }
  });
});
