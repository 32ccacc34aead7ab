/**
 * The main kernels' `backend: 'gpu'` option: the same public functions, on the WebGPU adapter (llvmpipe in CI),
 * agree with the CPU kernels within the bounds of the formats used, write back through the output ranges,
 * report the backend and adapter, and validate before anything runs.
 */
import { describe, expect, it } from 'vitest';
import {
  dot, gemv, trsv, ellSpmv, vector, matrix, toArray, ellFromMatrix, csrToEll, laplacianCsr, ModprecError, formats,
} from '../../src/index.js';
import { accurateSum, gamma, randomValues, requireRuntime } from './gpu-test-helpers.js';

const U_FF = 2 ** -44; // float-float on the GPU: ~48-bit significand; a generous operation error

describe("backend: 'gpu' on the main kernels", () => {
  it('DOT of fp32 data in float-float agrees with the exact-ish CPU sum', async () => {
    await requireRuntime();
    const n = 5000;
    const xs = randomValues(n, 11), ys = randomValues(n, 12);
    const x = vector(xs, { storage: formats.f32 }), y = vector(ys, { storage: formats.f32 });
    const hx = toArray(x), hy = toArray(y);
    const terms = hx.map((v, i) => v * hy[i]!);
    const r = await dot(x, y, { backend: 'gpu', arithmetic: 'ff' });
    expect(r.backend).toBe('gpu');
    expect(r.adapter).not.toBe('');
    expect(Math.abs(r.value - accurateSum(terms))).toBeLessThanOrEqual(gamma(n + 8, U_FF) * accurateSum(terms.map(Math.abs)));
  });

  it('GEMV (N and T) writes y through its range; β = 0 ignores NaN in y', async () => {
    await requireRuntime();
    const m = 70, n = 50;
    const a = randomValues(m * n, 21);
    for (const trans of ['N', 'T'] as const) {
      const A = matrix(m, n, (i, j) => a[i + j * m]!, { storage: formats.f32 });
      const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
      const x = vector(randomValues(cols, 22), { storage: formats.f32 });
      const yGpu = vector(new Float64Array(rows).fill(NaN), { storage: formats.f32 });
      const yCpu = vector(rows, { storage: formats.f64 });
      const info = await gemv({ alpha: 2, A, x, beta: 0, y: yGpu, trans }, { backend: 'gpu', arithmetic: 'ff' });
      expect(info.backend).toBe('gpu');
      gemv({ alpha: 2, A, x, beta: 0, y: yCpu, trans });
      const g = toArray(yGpu), c = toArray(yCpu);
      for (let i = 0; i < rows; i++) {
        // Both are within float-float / fp64 of the exact value; the GPU result is then rounded to fp32 storage.
        expect(Math.abs(g[i]! - c[i]!)).toBeLessThanOrEqual(2 ** -23 * Math.abs(c[i]!) + 1e-12 * cols);
      }
    }
  });

  it('TRSV solves in place and ELL SpMV matches the CPU', async () => {
    await requireRuntime();
    const n = 40;
    const A = matrix(n, n, (i, j) => (i === j ? 4 + i / n : i > j ? Math.sin(i + 2 * j) / n : 0), { storage: formats.f32 });
    const b = randomValues(n, 31);
    const xGpu = vector(b, { storage: formats.f32 });
    const xCpu = vector(toArray(xGpu));
    const info = await trsv({ A, x: xGpu, uplo: 'L', trans: 'N', diag: 'N' }, { backend: 'gpu', arithmetic: 'ff' });
    expect(info.backend).toBe('gpu');
    trsv({ A, x: xCpu, uplo: 'L', trans: 'N', diag: 'N' });
    const g = toArray(xGpu), c = toArray(xCpu);
    for (let i = 0; i < n; i++) expect(Math.abs(g[i]! - c[i]!)).toBeLessThanOrEqual(2 ** -22 * Math.abs(c[i]!) + 1e-12);

    const E = ellFromMatrix(csrToEll(laplacianCsr([12, 12])));
    const x = vector(randomValues(144, 41), { storage: formats.f32 });
    const ys = vector(144, { storage: formats.f32 }), yc = vector(144);
    await ellSpmv({ alpha: 1, A: E, x, beta: 0, y: ys }, { backend: 'gpu', arithmetic: 'ff' });
    ellSpmv({ alpha: 1, A: E, x, beta: 0, y: yc });
    const gs = toArray(ys), cs = toArray(yc);
    for (let i = 0; i < 144; i++) expect(Math.abs(gs[i]! - cs[i]!)).toBeLessThanOrEqual(2 ** -23 * 8);
  });

  it('validates before running, synchronously as on the CPU: unknown backend, mismatched sizes, a scaled storage the device does not read', async () => {
    const x = vector([1, 2]);
    expect(() => dot(x, x, { backend: 'tpu' } as never)).toThrow(ModprecError);
    expect(() => dot(x, vector([1]), { backend: 'gpu', arithmetic: formats.ff })).toThrow(/DIMENSION|length/);
    // i8/i16 and the float storages run scaled on the device (scaled-ranges.test.ts); i32 does not.
    const s = (await import('../../src/index.js')).scaledReducedRowMajor<1>({ size: [2], storage: 'i32', scaleMask: [true] });
    const { range } = await import('../../src/index.js');
    expect(() => dot(range(s), range(s), { backend: 'gpu', arithmetic: formats.ff })).toThrow(/scaled/);
  });
});
