/**
 * Passes with more threads than one dispatch dimension holds (maxComputeWorkgroupsPerDimension × 64: the dispatch
 * folds into a second dimension, program.ts), through the public API with `backend: 'gpu'` and default options (f32):
 * AXPY/SCAL one thread an element (a strided view, and a packed length not divisible by 4), GEMV T of a 1×n matrix
 * (one lane a column), GEMV N of a row-major m×1 matrix (its transpose's T pass) and ELL SpMV (a thread a row of y).
 * Element-wise results carry the CPU backend's bits (f32: each operation rounded as on the CPU); every element is
 * compared, so a fold that drops or repeats a row of threads shows.
 */
import { describe, expect, it } from 'vitest';
import { axpy, colMajor, ELL_PADDING, ellOperand, ellSpmv, ellStructure, formats, gemv, range, rowMajor, scal, vector } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { seededValues, storedVector } from './public-shapes-oracle.js';

const f32 = formats.f32;

/** Elements past one dimension of 64-thread workgroups, rounded to give a partial last workgroup. */
async function foldLength(): Promise<number> {
  const rt = await requireRuntime();
  return rt.context.adapter.limits.maxComputeWorkgroupsPerDimension * 64 + 4 * 37 + 3;
}

/** First index where two arrays differ bit for bit (NaN = NaN), or -1. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return a.length === b.length ? -1 : Math.min(a.length, b.length);
}

function f32Vector(values: ArrayLike<number>, stride = 1): Range<1, any> {
  if (stride === 1) return vector(values, { storage: f32 });
  const data = new Float32Array(values.length * stride);
  const r = range(colMajor<1>({ size: [values.length], stride, storage: f32, data } as never)) as Range<1, any>;
  for (let i = 0; i < values.length; i++) r.set(i, values[i]!);
  return r;
}

describe('passes folded into a second dispatch dimension (default f32)', () => {
  it('AXPY on a strided view and SCAL on a packed odd length: the CPU bits', async () => {
    const n = await foldLength();
    const xs = seededValues(n, 5);
    const ys = seededValues(n, 6);
    const [gx, gy, cx, cy] = [f32Vector(xs, 2), f32Vector(ys, 3), f32Vector(xs, 2), f32Vector(ys, 3)];
    expect((await axpy(-0.75, gx, gy, { backend: 'gpu', strict: true })).backend).toBe('gpu');
    axpy(-0.75, cx, cy);
    expect(firstDifference(storedVector(gy), storedVector(cy))).toBe(-1);
    const [gs, cs] = [f32Vector(ys), f32Vector(ys)];
    expect((await scal(3, gs, { backend: 'gpu', strict: true })).backend).toBe('gpu');
    scal(3, cs);
    expect(firstDifference(storedVector(gs), storedVector(cs))).toBe(-1);
  });

  it('GEMV T of a 1×n matrix and N of a row-major n×1 matrix: the CPU bits (one product and β·y a row)', async () => {
    const n = await foldLength();
    const a = seededValues(n, 7);
    for (const trans of ['T', 'N'] as const) {
      const make = () => {
        const A = trans === 'T'
          ? range(colMajor<2>({ size: [1, n], storage: f32 } as never)) as Range<2, any>
          : range(rowMajor<2>({ size: [n, 1], storage: f32 } as never)) as Range<2, any>;
        for (let k = 0; k < n; k++) if (trans === 'T') A.set(0, k, a[k]!); else A.set(k, 0, a[k]!);
        return { alpha: 1.5, A, x: vector([0.375], { storage: f32 }), beta: -0.5, y: f32Vector(seededValues(n, 8)), trans };
      };
      const [g, c] = [make(), make()];
      expect((await gemv(g, { backend: 'gpu', strict: true })).backend).toBe('gpu');
      gemv(c);
      expect(firstDifference(storedVector(g.y), storedVector(c.y)), `trans ${trans}`).toBe(-1);
    }
  });

  it('ELL SpMV with a row of y a thread: the CPU bits (one entry a row)', async () => {
    const rows = await foldLength();
    const cols = 1000;
    const colIndex = new Int32Array(rows);
    for (let i = 0; i < rows; i++) colIndex[i] = i % 5 === 4 ? ELL_PADDING : (i * 31) % cols;
    const S = ellStructure({ rows, cols, width: 1, stride: rows, colIndex });
    const v = seededValues(rows, 9);
    const make = () => {
      const values = range(colMajor<2>({ size: [rows, 1], storage: f32 } as never)) as Range<2, any>;
      for (let i = 0; i < rows; i++) values.set(i, 0, colIndex[i] === ELL_PADDING ? 0 : v[i]!);
      return { alpha: 2, A: ellOperand(S, values), x: f32Vector(seededValues(cols, 10)), beta: 0.25, y: f32Vector(seededValues(rows, 11)) };
    };
    const [g, c] = [make(), make()];
    expect((await ellSpmv(g, { backend: 'gpu', strict: true })).backend).toBe('gpu');
    ellSpmv(c);
    expect(firstDifference(storedVector(g.y), storedVector(c.y))).toBe(-1);
  });
});
