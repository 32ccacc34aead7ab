/**
 * luSolve, luSolveF32 and applyPivots check the factors and pivots they are given: a pivot outside 0 … n − 1, a short
 * packed array, a wrong n or a wrong array type was read past its end — NaN from JavaScript, other memory from
 * WebAssembly (a 1-entry lu gave [4, 2] on wasm and [NaN, NaN] on js for the same call) — and applyPivots wrote NaN into
 * b. Now each is a typed error naming the part, the same on both backends, raised before b is touched. Valid pivots
 * are applied as the oracle's interchanges in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModprecError, applyPivots, luFactor, luFactorF32, luSolve, luSolveF32 } from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

const square = fc.integer({ min: 1, max: 6 }).chain((n) => fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: n * n, maxLength: n * n })
  .map((v) => { const data = Float64Array.from(v); for (let i = 0; i < n; i++) data[i + i * n] += 20; return { rows: n, cols: n, ld: n, data }; }));

describe('LU factors given back to the solves', () => {
  it('mutated factors are the same typed error on js and wasm, b untouched; valid ones solve bit-identically', () => {
    fc.assert(fc.property(square, fc.integer({ min: 0, max: 7 }), fc.integer({ min: -3, max: 9 }), (A, which, value) => {
      const n = A.rows;
      const f = luFactor(A), g = luFactorF32(A);
      const b = Float64Array.from({ length: n }, (_, i) => i - 1.5);
      const bad64 = [
        { ...f, pivots: Int32Array.from(f.pivots, (p, k) => (k === n - 1 ? n + Math.abs(value) : p)) },
        { ...f, pivots: Int32Array.from(f.pivots, (p, k) => (k === 0 ? -1 - Math.abs(value) : p)) },
        { ...f, pivots: f.pivots.subarray(1) },
        { ...f, pivots: Array.from(f.pivots) },
        { ...f, lu: { ...f.lu, data: f.lu.data.subarray(1) } },
        { ...f, lu: { ...f.lu, ld: n + 1 } },
        { ...f, n: n + 1 },
        { ...f, n: n - 0.5 },
      ][which]!;
      const bad32 = [
        { ...g, pivots: Int32Array.from(g.pivots, (p, k) => (k === n - 1 ? n + Math.abs(value) : p)) },
        { ...g, lu: g.lu.subarray(1) },
        { ...g, lu: Float64Array.from(g.lu) },
        { ...g, n: n + 1 },
      ][which % 4]!;
      for (const [solve, bad] of [[luSolve, bad64], [luSolveF32, bad32]] as const) {
        const copy = Float64Array.from(b);
        const js = errorOf(() => (solve as any)(bad, copy, { backend: 'js' }));
        const wasm = errorOf(() => (solve as any)(bad, copy, { backend: 'wasm' }));
        expect(js[0]).not.toBe('none');
        expect(wasm).toEqual(js);
        expect(copy).toEqual(b);
      }
      expect(luSolve(f, b, { backend: 'js' })).toEqual(luSolve(f, b, { backend: 'wasm' }));
      expect(luSolveF32(g, b, { backend: 'js' })).toEqual(luSolveF32(g, b, { backend: 'wasm' }));
    }), { numRuns: 150 });
  });

  it('applyPivots: the interchanges in order for pivots in range; any other pivot is refused before b changes', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 8 }).chain((n) => fc.tuple(fc.constant(n), fc.array(fc.integer({ min: -2, max: n + 1 }), { minLength: n, maxLength: n }))), ([n, p]) => {
      const b = Float64Array.from({ length: n }, (_, i) => 10 * i + 1);
      const oracle = Array.from(b);
      const inRange = p.every((q) => q >= 0 && q < n);
      for (let k = 0; k < n && inRange; k++) [oracle[k], oracle[p[k]!]] = [oracle[p[k]!]!, oracle[k]!];
      const pivots = Int32Array.from(p);
      if (inRange) {
        applyPivots(pivots, b);
        expect(Array.from(b)).toEqual(oracle);
      } else {
        const k = p.findIndex((q) => q < 0 || q >= n);
        expect(errorOf(() => applyPivots(pivots, b))).toEqual(['INDEX_OUT_OF_RANGE', `pivots[${k}]`]);
        expect(Array.from(b)).toEqual(oracle);
      }
    }), { numRuns: 200 });
    expect(errorOf(() => applyPivots([0] as never, Float64Array.of(1)))).toEqual(['INVALID_STORAGE', 'pivots']);
    expect(errorOf(() => applyPivots(Int32Array.of(0), null as never))).toEqual(['INVALID_STORAGE', 'b']);
    // Regression: an object with a length, or a frozen array, passed the length check and the swap threw a TypeError.
    expect(errorOf(() => applyPivots(Int32Array.of(1, 1), { length: 2 } as never))).toEqual(['INVALID_STORAGE', 'b']);
    expect(errorOf(() => applyPivots(Int32Array.of(1, 1), Object.freeze([1, 2]) as never))).toEqual(['INVALID_STORAGE', 'b']);
    expect(errorOf(() => applyPivots(Int32Array.of(1, 1), Float64Array.of(1)))).toEqual(['DIMENSION_MISMATCH', 'b']);
  });
});
