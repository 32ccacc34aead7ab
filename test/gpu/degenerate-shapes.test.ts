/**
 * GEMV and TRSV on degenerate and odd shapes — sizes 0 and 1 in each dimension, m ≠ n, leading dimensions exactly the
 * extent and larger, negative and mixed-sign strides, views at the end of a larger span, row- and column-major — on
 * 'js', 'wasm' and 'gpu' (llvmpipe) against the exact result. Small integers make every product and sum exact in
 * fp32 and fp64, so each backend must give exactly the exact value (or, 'wasm', the documented refusal of an A
 * without a unit stride). β = 0 puts NaN in y (never read); an empty product leaves y untouched.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { gemv, trsv, vector, range, strided, toArray, formats, ModprecError, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

type Layout = 'col' | 'col+2' | 'row' | 'row+1' | '-col' | '-row' | 'mixed' | 'wide';
const layouts: Layout[] = ['col', 'col+2', 'row', 'row+1', '-col', '-row', 'mixed', 'wide'];

function stridesOf(layout: Layout, m: number, n: number): [number, number] {
  switch (layout) {
    case 'col': return [1, Math.max(1, m)];
    case 'col+2': return [1, m + 2];
    case 'row': return [Math.max(1, n), 1];
    case 'row+1': return [n + 1, 1];
    case '-col': return [-1, -Math.max(1, m)];
    case '-row': return [-Math.max(1, n), 1];
    case 'mixed': return [Math.max(1, n), -1];
    default: return [3, 3 * Math.max(1, m) + 1];
  }
}

/** An m×n view in `layout`, `extra` unused elements before it in its span, entries a(i, j). */
function view(layout: Layout, m: number, n: number, extra: number, fp32: boolean, a: (i: number, j: number) => number): Range<2, number> {
  const [rs, cs] = stridesOf(layout, m, n);
  const offset = extra + (rs < 0 ? -rs * Math.max(0, m - 1) : 0) + (cs < 0 ? -cs * Math.max(0, n - 1) : 0);
  const format = fp32 ? formats.f32 : formats.f64;
  const A = range(strided<2>({ size: [m, n], strides: [rs, cs], offset, storage: format, arithmetic: format }));
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, a(i, j));
  return A;
}

const backends = [['js', false], ['wasm', false], ['gpu', true]] as const;

/** Runs a call, returning false for WebAssembly's documented refusal of an A without a unit stride. */
async function ran(run: () => unknown, backend: string): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (e) {
    if (backend === 'wasm' && e instanceof ModprecError && e.code === 'INVALID_OPTION' && e.parameter === 'A') return false;
    throw e;
  }
}

const bits = (r: Range<1, number>): string[] => [...toArray(r)].map((v) => (Object.is(v, -0) ? '-0' : String(v)));

describe('degenerate and odd shapes on every backend, against the exact result', () => {
  it('GEMV', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom(...layouts), fc.constantFrom('N', 'T' as const),
      fc.constantFrom(0, 1, -2), fc.constantFrom(0, 1, 3), fc.integer({ min: 0, max: 3 }),
      async (m, n, layout, trans, alpha, beta, extra) => {
        const a = (i: number, j: number): number => ((i * 7 + j * 3) % 5) - 2;
        const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
        const xs = Array.from({ length: cols }, (_, k) => k - 1);
        const ys = Array.from({ length: rows }, (_, k) => (beta === 0 ? NaN : 2 * k + 1));
        // The kernels' documented form α·t + β·y with t = Σ a·x summed from +0 (kernels/gemv/coefficients.ts): the
        // sign of a zero follows it (α = −2 and t = +0 give −0, where Σ α·a·x from +0 would give +0).
        const exact = ys.map((yi, i) => {
          if (m === 0 || n === 0 || (alpha === 0 && beta === 1)) return yi;   // quick return: y untouched
          let t = 0;
          for (let k = 0; k < cols; k++) t += (trans === 'N' ? a(i, k) : a(k, i)) * xs[k]!;
          if (alpha === 0) return beta === 0 ? 0 : beta * yi;
          return beta === 0 ? alpha * t : alpha * t + beta * yi;
        });
        for (const [backend, fp32] of backends) {
          const f = fp32 ? formats.f32 : formats.f64;
          const A = view(layout, m, n, extra, fp32, a);
          const x = vector(xs, { storage: f, arithmetic: f }), y = vector(ys, { storage: f, arithmetic: f });
          if (!(await ran(() => gemv({ alpha, A, x, beta, y, trans }, { backend } as never), backend))) continue;
          expect([backend, ...bits(y)]).toEqual([backend, ...bits(vector(exact))]);
        }
      },
    ), { numRuns: 40, seed: 89 });
  });

  it('TRSV (non-unit and unit diagonals; the other triangle and a unit diagonal hold NaN, never read)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 4 }), fc.constantFrom(...layouts), fc.constantFrom('U', 'L' as const), fc.constantFrom('N', 'T' as const),
      fc.constantFrom('N', 'U' as const), fc.integer({ min: 0, max: 3 }),
      async (n, layout, uplo, trans, diag, extra) => {
        const inTriangle = (i: number, j: number): boolean => (uplo === 'U' ? j > i : j < i);
        const a = (i: number, j: number): number => (i === j ? (diag === 'U' ? NaN : 1) : inTriangle(i, j) ? ((i + 2 * j) % 3) - 1 : NaN);
        const op = (i: number, j: number): number => { const v = trans === 'N' ? a(i, j) : a(j, i); return i === j ? 1 : Number.isNaN(v) ? 0 : v; };
        const solution = Array.from({ length: n }, (_, k) => (k % 3) - 1);
        const b = solution.map((_, i) => solution.reduce((s, xj, j) => s + op(i, j) * xj, 0));
        for (const [backend, fp32] of backends) {
          const f = fp32 ? formats.f32 : formats.f64;
          const A = view(layout, n, n, extra, fp32, a);
          const x = vector(b, { storage: f, arithmetic: f });
          if (!(await ran(() => trsv({ A, x, uplo, trans, diag }, { backend } as never), backend))) continue;
          // Values, ±0 alike: where a substitution's terms cancel, the sign of a zero depends on their order.
          expect([backend, ...[...toArray(x)].map((v) => v + 0)]).toEqual([backend, ...solution]);
        }
      },
    ), { numRuns: 40, seed: 97 });
  });
});
