/**
 * Where no WebGPU adapter exists (forced here with MODPREC_GPU_BACKEND=none), `backend: 'gpu'` runs the CPU
 * backend on the same ranges in the same arithmetic — bit for bit the CPU kernel's result — and says so in its
 * report; with `strict` it throws BACKEND_UNAVAILABLE before writing anything. The same holds for host-resident
 * arrays of the resident API (their fallback is the CPU kernels too, not a copy of them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dot, asum, nrm2, gemv, trsv, ellSpmv, axpy, waxpby, scal, vector, matrix, toArray, formats, ModprecError, ellFromMatrix, csrToEll, laplacianCsr,
} from '../../src/index.js';
import { toDevice, gpuDot, gpuGemv, gpuUpdate, deviceMatrix, toDeviceMatrix } from '../../src/backends/webgpu/index.js';
import { span } from '../../src/core/span.js';
import { randomValues } from './gpu-test-helpers.js';

const saved = process.env.MODPREC_GPU_BACKEND;
beforeAll(() => { process.env.MODPREC_GPU_BACKEND = 'none'; });
afterAll(() => { if (saved === undefined) delete process.env.MODPREC_GPU_BACKEND; else process.env.MODPREC_GPU_BACKEND = saved; });

describe('backend gpu without an adapter', () => {
  it('every GPU kernel runs the CPU kernel on the same ranges, bit for bit, and reports why', async () => {
    const n = 23;
    for (const arithmetic of [formats.f32, formats.ff]) {
      const o = { storage: formats.f16, arithmetic } as const;
      const x = vector(randomValues(n, 1), o), y = vector(randomValues(n, 2), o);
      const d = await dot(x, y, { backend: 'gpu' });
      expect([d.backend, d.fallbackReason, d.arithmetic]).toEqual(['cpu', 'MODPREC_GPU_BACKEND=none', arithmetic.name]);
      expect(d.value).toBe(dot(x, y));
      const s = await asum(y, { backend: 'gpu' });
      expect([s.backend, s.value]).toEqual(['cpu', asum(y)]);
      const r2 = await nrm2(y, { backend: 'gpu' });
      expect([r2.backend, r2.value]).toEqual(['cpu', nrm2(y)]);

      const A = matrix(n, n, (i, j) => (i === j ? 4 : Math.sin(i * n + j) / n), o);
      for (const [name, gpuRun, cpuRun] of [
        ['gemv', (t: ReturnType<typeof vector>) => gemv({ alpha: 1.5, A, x, beta: -1, y: t, trans: 'T' }, { backend: 'gpu' }), (t: ReturnType<typeof vector>) => gemv({ alpha: 1.5, A, x, beta: -1, y: t, trans: 'T' })],
        ['trsv', (t: ReturnType<typeof vector>) => trsv({ A, x: t, uplo: 'L' }, { backend: 'gpu' }), (t: ReturnType<typeof vector>) => trsv({ A, x: t, uplo: 'L' })],
        ['axpy', (t: ReturnType<typeof vector>) => axpy(0.25, x, t, { backend: 'gpu' }), (t: ReturnType<typeof vector>) => axpy(0.25, x, t)],
        ['waxpby', (t: ReturnType<typeof vector>) => waxpby(0.5, x, 2, y, t, { backend: 'gpu' }), (t: ReturnType<typeof vector>) => waxpby(0.5, x, 2, y, t)],
        ['scal', (t: ReturnType<typeof vector>) => scal(3, t, { backend: 'gpu' }), (t: ReturnType<typeof vector>) => scal(3, t)],
      ] as const) {
        const tg = vector(randomValues(n, 3), o), tc = vector(randomValues(n, 3), o);
        const report = await gpuRun(tg);
        cpuRun(tc);
        expect(report.backend, name).toBe('cpu');
        expect(toArray(tg), name).toEqual(toArray(tc));
      }
      const E = ellFromMatrix(csrToEll(laplacianCsr([5, 5])), arithmetic);
      const xe = vector(randomValues(25, 4), o), yg = vector(25, o), yc = vector(25, o);
      expect((await ellSpmv({ alpha: 1, A: E, x: xe, beta: 0, y: yg }, { backend: 'gpu' })).backend).toBe('cpu');
      ellSpmv({ alpha: 1, A: E, x: xe, beta: 0, y: yc });
      expect(toArray(yg)).toEqual(toArray(yc));
    }
  });

  it('strict throws BACKEND_UNAVAILABLE naming options.strict, and writes nothing', async () => {
    const y = vector([1, 2], { storage: formats.f32 });
    try {
      await axpy(1, vector([1, 1], { storage: formats.f32 }), y, { backend: 'gpu', strict: true });
      throw new Error('expected an error');
    } catch (e) {
      expect((e as ModprecError).code).toBe('BACKEND_UNAVAILABLE');
      expect((e as ModprecError).parameter).toBe('options.strict');
    }
    expect([...toArray(y)]).toEqual([1, 2]);
  });

  it('host-resident arrays of the resident API run the CPU kernels (DOT, GEMV, update)', async () => {
    const xs = randomValues(9, 5);
    const x = await toDevice(xs, { format: 'f32' });
    expect(x.onDevice).toBe(false);
    const r = await gpuDot(x, x, { arithmetic: 'ff' });
    const xv = vector(Float32Array.from(xs), { storage: formats.f32, arithmetic: formats.ff });
    expect([r.backend, r.value]).toEqual(['cpu', dot(xv, xv)]);
    const A = await toDevice(randomValues(9 * 9, 6), { format: 'bf16' });
    const yd = await toDevice(new Float64Array(9), { format: 'f16' });
    await gpuGemv({ A: deviceMatrix(A, 9, 9), x, y: yd }, { arithmetic: 'f32' });
    const yc = vector(9, { storage: formats.f16, arithmetic: formats.f32 });
    const Ah = await A.toHost();
    const Ac = matrix(9, 9, (i, j) => Ah[i + 9 * j]!, { storage: formats.f64, arithmetic: formats.f32 });
    gemv({ alpha: 1, A: Ac, x: vector(Float32Array.from(xs), { storage: formats.f32 }), beta: 0, y: yc });
    expect([...(await yd.toHost())]).toEqual([...toArray(yc)]);
    await gpuUpdate({ alpha: 2, x, beta: 0, out: x }, { arithmetic: 'f32' });
    expect([...(await x.toHost())]).toEqual(Array.from(xs, (v) => Math.fround(2 * Math.fround(v))));
  });

  it('matrix views (row-major, sub-ranges with an offset) run the CPU kernels on the view, not on the span', async () => {
    // The fallback once read a view's span as a packed column-major matrix, ignoring its offset and row stride.
    for (const layout of ['row-major', 'col-major'] as const) {
      const o = { storage: formats.f32, arithmetic: formats.f32, layout } as const;
      const big = matrix(7, 6, (i, j) => Math.sin(3 * i + 5 * j + 1), o);
      const A = big.sub(span(2, 6), span(1, 5));   // 4 × 4 with an offset, strides of the parent
      const x = vector(randomValues(4, 7), { storage: formats.f32, arithmetic: formats.f32 });
      for (const trans of ['N', 'T'] as const) {
        const dA = await toDeviceMatrix(A);
        const yd = await toDevice(new Float64Array(4), { format: 'f32' });
        await gpuGemv({ A: dA, x: await toDevice(x), y: yd, trans }, { arithmetic: 'f32' });
        const yc = vector(4, { storage: formats.f32, arithmetic: formats.f32 });
        gemv({ alpha: 1, A, x, beta: 0, y: yc, trans });
        expect([...(await yd.toHost())], `${layout} ${trans}`).toEqual([...toArray(yc)]);
      }
    }
  });
});
