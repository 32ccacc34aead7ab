/**
 * One rule on both backends (issue 14 "silently wrong", issue 15 item 6): the arithmetic a call computes in, the
 * options it takes, how stored values are read, α = NaN, the default uplo and overflow on write mean the same with
 * `backend: 'gpu'` (llvmpipe in CI) as on the CPU — or are a typed error naming the parameter, never ignored.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  dot, gemv, trsv, ellSpmv, axpy, waxpby, scal, nrm2, asum, vector, matrix, toArray, formats, ModprecError, range,
  ellFromMatrix, csrToEll, laplacianCsr, colMajor, rowMajor,
} from '../../src/index.js';
import { toDevice, gpuDot, gpuGemv, deviceMatrix } from '../../src/backends/webgpu/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** The typed error a call throws (synchronously, or as a rejected promise). */
async function errorOf(run: () => unknown): Promise<ModprecError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ModprecError) return e;
    throw e;
  }
  throw new Error('expected a ModprecError');
}

describe('the arithmetic and the options of backend gpu are the CPU\'s', () => {
  it('default arithmetic is the CPU rule; one the GPU cannot run is a typed error naming options.arithmetic', async () => {
    await requireRuntime();
    // f16 storage defaults to f64 arithmetic on the CPU: the GPU refuses it rather than computing in f32.
    // (RNS arithmetics have no GPU part either, but run there: test/rns-gpu/routing.test.ts.)
    const h = vector([1, 2], { storage: formats.f16 });
    for (const run of [() => dot(h, h, { backend: 'gpu' }), () => dot(vector([1]), vector([1]), { backend: 'gpu', arithmetic: formats.f64 })]) {
      const e = await errorOf(run);
      expect(e.code).toBe('INVALID_OPTION');
      expect(e.parameter).toBe('options.arithmetic');
      expect(e.message).toContain('formats.ff');
    }
    // An f32 range defaults to f32 arithmetic on both backends.
    const x = vector([1, 2, 3], { storage: formats.f32 });
    expect((await dot(x, x, { backend: 'gpu' })).arithmetic).toBe('f32');
    // The names work as on the CPU.
    expect((await dot(x, x, { backend: 'gpu', arithmetic: 'ff' })).arithmetic).toBe('ff');
    // Double-double has a GPU part: it runs there, with the CPU's result where both are exact.
    const d = vector([1, 2 ** -60, 3], { storage: formats.dd, arithmetic: formats.dd });
    const r = await dot(d, d, { backend: 'gpu' });
    expect([r.backend, r.arithmetic, r.value]).toEqual(['gpu', 'dd', dot(d, d)]);
  });

  it('accumulation is validated as on the CPU, then refused (not ignored); so is a loop order', async () => {
    await requireRuntime();
    const x = vector([1, 2], { storage: formats.f32 });
    const bogus = await errorOf(() => dot(x, x, { backend: 'gpu', accumulation: 'bogus' }));
    const cpuBogus = await errorOf(() => dot(x, x, { accumulation: 'bogus' }));
    expect([bogus.code, bogus.parameter]).toEqual([cpuBogus.code, cpuBogus.parameter]);
    expect((await errorOf(() => dot(x, x, { backend: 'gpu', accumulation: 'kahan' }))).parameter).toBe('options.accumulation');
    const A = matrix(2, 2, () => 1, { storage: formats.f32 });
    expect((await errorOf(() => gemv({ alpha: 1, A, x, beta: 0, y: vector(2, { storage: formats.f32 }) }, { backend: 'gpu', loop: 'axpy' } as never))).parameter).toBe('options.loop');
  });

  it('every kernel takes backend gpu: NRM2 and ASUM too, with the CPU rules for NaN, ∞ and overflow', async () => {
    await requireRuntime();
    const x = vector([3, -4], { storage: formats.f32 });
    const a = await asum(x, { backend: 'gpu' });
    expect([a.value, a.backend]).toEqual([7, 'gpu']);
    for (const arithmetic of [formats.f32, formats.ff]) {
      for (const values of [[3, -4], [3e30, -4e30], [3e-30, 4e-30], [1, NaN, Infinity], [1, -Infinity], [0, 0], []]) {
        const v = vector(values, { storage: formats.f32 });
        const g = await nrm2(v, { backend: 'gpu', arithmetic });
        expect([g.backend, g.value], `${arithmetic.name} ${values}`).toEqual(['gpu', nrm2(v, { arithmetic })]);
      }
    }
    const e = await errorOf(() => axpy(1, x, vector([1, 2], { storage: formats.i8 as never }), { backend: 'gpu', arithmetic: formats.f32 }));
    expect(e.code).toBe('INVALID_FORMAT');
  });
});

describe("DOT's into on both backends", () => {
  it('receives the result in full arithmetic precision, rounded once to its storage', async () => {
    await requireRuntime();
    const x = vector([1, 2 ** -30, -(2 ** -40)], { storage: formats.f32 }), y = vector([1, 1, 1], { storage: formats.f32 });
    for (const [storage, expected] of [[formats.dd, [1 + 2 ** -30 - 2 ** -40, 0]], [formats.f64, [1 + 2 ** -30 - 2 ** -40, 0]], [formats.f16, [1, 0]]] as const) {
      for (const backend of ['cpu', 'gpu'] as const) {
        const into = vector(1, { storage, arithmetic: formats.ff });
        const r = await dot(x, y, { backend, arithmetic: formats.ff, into } as never) as unknown as number | { value: number };
        expect(typeof r === 'number' ? r : r.value).toBe(1 + 2 ** -30 - 2 ** -40);
        const a = into.accessor;
        const v = a.storage.decode(a.data as never, a.linearIndex([0])) as number | { hi: number; lo: number };
        expect(typeof v === 'number' ? [v, 0] : [v.hi, v.lo], `${storage.name} ${backend}`).toEqual(expected);
      }
    }
    // Beyond a double: 1 + 2^-60 is returned as 1 but kept whole in double-double storage, on both backends.
    for (const backend of ['cpu', 'gpu'] as const) {
      const into = vector(1, { storage: formats.dd, arithmetic: formats.ff });
      await dot(vector([1, 2 ** -60], { storage: formats.f32 }), vector([1, 1], { storage: formats.f32 }), { backend, arithmetic: formats.ff, into } as never);
      const v = into.accessor.storage.decode(into.accessor.data as never, into.accessor.linearIndex([0])) as { hi: number; lo: number };
      expect([v.hi, v.lo], backend).toEqual([1, 2 ** -60]);
    }
    // Multiple-precision storage has no GPU write (scaled ranges do: dot-into.test.ts).
    expect((await errorOf(() => dot(x, y, { backend: 'gpu', arithmetic: formats.ff, into: vector(1, { storage: formats.rns106 }) } as never))).parameter).toBe('options.into');
  });
});

describe('stored values are read into the arithmetic once, the same way on both backends', () => {
  it('f64 data in f32 arithmetic: the GPU rounds each stored double correctly (as Math.fround), not twice', async () => {
    await requireRuntime();
    // The example: 0.1·0.2 stored in f64, computed in f32.
    const a = vector([0.1], { arithmetic: formats.f32 }), b = vector([0.2], { arithmetic: formats.f32 });
    expect((await dot(a, b, { backend: 'gpu' })).value).toBe(dot(a, b));
    // Near-ties of binary32: x·1 in f32 arithmetic is fround(x) on both backends.
    const one = vector(1, { arithmetic: formats.f32 });
    one.set(0, 1);
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 23 - 1 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: -40, max: 40 }), async (m, d, e) => {
      // (m + ½)·2^-23 nudged by d·2^-50: a binary32 midpoint or one of its close neighbours.
      const x = (1 + (m + 0.5) * 2 ** -23 + d * 2 ** -50) * 2 ** e;
      const v = vector([x], { arithmetic: formats.f32 });
      expect((await dot(v, one, { backend: 'gpu' })).value).toBe(Math.fround(x));
    }), { numRuns: 60 });
  });

  it('DOT, GEMV, TRSV and ELL SpMV all read f64 storage the same way (ELL no longer differs)', async () => {
    await requireRuntime();
    const ar = { arithmetic: formats.f32 } as const;
    const v = 0.1;
    const expected = Math.fround(v);
    const x = vector([1], ar);
    const d = await dot(vector([v], ar), x, { backend: 'gpu' });
    const yg = vector(1, ar);
    await gemv({ alpha: 1, A: matrix(1, 1, () => v, ar), x, beta: 0, y: yg }, { backend: 'gpu' });
    const ye = vector(1, ar);
    await ellSpmv({ alpha: 1, A: ellFromMatrix(csrToEll(laplacianCsr([1])), formats.f32), x, beta: 0, y: ye }, { backend: 'gpu' });
    const xt = vector([v], ar);
    await trsv({ A: matrix(1, 1, () => 1, ar), x: xt }, { backend: 'gpu' });
    expect([d.value, toArray(yg)[0], toArray(xt)[0]]).toEqual([expected, expected, expected]);
    expect(toArray(ye)[0]).toBe(Math.fround(2)); // the 1-point Laplacian's entry 2, times 1
  });

  it('fp64 uploads never refuse a value; the device reads them as formats.ff does on the CPU (±0 below 2^-126, ±∞ beyond binary32)', async () => {
    await requireRuntime();
    const data = [1e-40, -1e-300, 1, 3.4e38, 1e39];
    const d = await toDevice(data, { format: 'f64' });
    expect([...(await d.toHost())]).toEqual(data);
    const ones = [1, 1, 1, 0, 0];
    for (const arithmetic of [formats.f32, formats.ff]) {
      const x = vector(data, { arithmetic }), y = vector(ones, { arithmetic });
      expect((await dot(x, y, { backend: 'gpu' })).value).toBe(dot(x, y));
    }
    const big = vector([1e39], { arithmetic: formats.f32 });
    expect((await dot(big, vector([1], { arithmetic: formats.f32 }), { backend: 'gpu' })).value).toBe(Infinity);
  });
});

describe('one behaviour per question on both backends (issue 15, item 6)', () => {
  it('α = NaN is accepted and propagates (GEMV, ELL SpMV, AXPY, resident gpuGemv); β = 0 still ignores NaN in y', async () => {
    await requireRuntime();
    const ar = { storage: formats.f32 } as const;
    const A = matrix(2, 2, (i, j) => i + j + 1, ar);
    const x = vector([1, 2], ar);
    for (const backend of ['cpu', 'gpu'] as const) {
      const y = vector([NaN, NaN], ar);
      await gemv({ alpha: NaN, A, x, beta: 0, y }, { backend } as never);
      expect(toArray(y).every(Number.isNaN)).toBe(true);
      const y2 = vector([NaN, 5], ar);
      await gemv({ alpha: 1, A, x, beta: 0, y: y2 }, { backend } as never);
      expect([...toArray(y2)]).toEqual([5, 8]);
      const z = vector([1, 1], ar);
      await axpy(NaN, x, z, { backend } as never);
      expect(toArray(z).every(Number.isNaN)).toBe(true);
    }
    const y = await toDevice([0, 0]);
    await gpuGemv({ A: deviceMatrix(await toDevice([1, 2, 3, 4]), 2, 2), x: await toDevice([1, 1]), y, alpha: NaN });
    expect([...(await y.toHost())].every(Number.isNaN)).toBe(true);
  });

  it("the default uplo is 'U' on both backends and for gpuTrsv (the other triangle is never read)", async () => {
    await requireRuntime();
    const ar = { storage: formats.f32 } as const;
    // Upper triangle [[2, 1], [·, 4]], NaN below the diagonal.
    const A = matrix(2, 2, (i, j) => (i > j ? NaN : i === j ? 2 * (i + 1) : 1), ar);
    const results: number[][] = [];
    for (const backend of ['cpu', 'gpu'] as const) {
      const x = vector([4, 8], ar);
      await trsv({ A, x }, { backend } as never);
      results.push([...toArray(x)]);
    }
    const xr = await toDevice([4, 8]);
    await gpuTrsv2(A, xr);
    results.push([...(await xr.toHost())]);
    for (const r of results) expect(r).toEqual([1, 2]);
  });

  it('overflow on write or upload gives ±∞ on both backends (f16: 70000 → +∞), never an error', async () => {
    await requireRuntime();
    for (const backend of ['cpu', 'gpu'] as const) {
      const y = vector([60000, -60000], { storage: formats.f16, arithmetic: formats.f32 });
      await axpy(1, vector([10000, -10000], { storage: formats.f32 }), y, { backend } as never);
      expect([...toArray(y)]).toEqual([Infinity, -Infinity]);
    }
    expect([...(await (await toDevice([70000, 1], { format: 'f16' })).toHost())]).toEqual([Infinity, 1]);
  });
});

/** gpuTrsv without uplo, from the resident API. */
async function gpuTrsv2(A: ReturnType<typeof matrix>, x: Awaited<ReturnType<typeof toDevice>>): Promise<void> {
  const { gpuTrsv } = await import('../../src/backends/webgpu/index.js');
  const dA = await toDevice(A as never, { format: 'f32' });
  await gpuTrsv({ A: deviceMatrix(dA, 2, 2), x }, { arithmetic: 'f32' });
}

describe('AXPY, WAXPBY and SCAL on the GPU', () => {
  it('match the CPU kernel bit for bit in f32 and within 2 ulps of ff, through strided, negative-stride and row-major ranges', async () => {
    await requireRuntime();
    const n = 37;
    const xs = Array.from({ length: 2 * n }, (_, i) => Math.sin(i + 1));
    for (const arithmetic of [formats.f32, formats.ff]) {
      for (const storage of [formats.f64, formats.f32, formats.f16, formats.bf16]) {
        const mk = (): ReturnType<typeof vector> => range(colMajor<1>({ size: [n], stride: -2, data: undefined as never, storage, arithmetic })) as never;
        const fill = (r: ReturnType<typeof vector>, k: number): void => { for (let i = 0; i < n; i++) r.set(i, xs[(i + k) % xs.length]!); };
        const x = mk(); fill(x, 0);
        const yc = mk(), yg = mk(); fill(yc, 3); fill(yg, 3);
        await axpy(0.75, x, yg, { backend: 'gpu' });
        axpy(0.75, x, yc);
        const wc = range(rowMajor<1>({ size: [n], storage, arithmetic })), wg = range(rowMajor<1>({ size: [n], storage, arithmetic }));
        await waxpby(-1.5, x, 0.25, yc, wg, { backend: 'gpu' });
        waxpby(-1.5, x, 0.25, yc, wc);
        await scal(3, yg, { backend: 'gpu' });
        scal(3, yc);
        for (const [g, c] of [[yg, yc], [wg, wc]] as const) {
          const a = toArray(g), b = toArray(c);
          if (arithmetic === formats.f32) expect(a).toEqual(b);
          else for (let i = 0; i < n; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(2 ** -45 * Math.abs(b[i]!) + 2 ** -50);
        }
      }
    }
  });

  it('a zero coefficient does not read its vector; both zero write zeros', async () => {
    await requireRuntime();
    const ar = { storage: formats.f32 } as const;
    const nan = vector([NaN, NaN], ar);
    const w = vector([7, 7], ar);
    await waxpby(0, nan, 2, vector([1, 2], ar), w, { backend: 'gpu' });
    expect([...toArray(w)]).toEqual([2, 4]);
    await waxpby(0, nan, 0, nan, w, { backend: 'gpu' });
    expect([...toArray(w)]).toEqual([0, 0]);
    await scal(0, nan, { backend: 'gpu' });
    expect([...toArray(nan)]).toEqual([0, 0]);
    const y = vector([NaN, 1], ar);
    await axpy(0, vector([1, 1], ar), y, { backend: 'gpu' });
    expect(Number.isNaN(toArray(y)[0])).toBe(true);
  });
});

describe('the resident API accepts formats as on the CPU', () => {
  it("arithmetic: formats.ff and 'ff' are the same", async () => {
    await requireRuntime();
    const x = await toDevice([1, 2, 3]);
    expect((await gpuDot(x, x, { arithmetic: formats.ff })).value).toBe((await gpuDot(x, x, { arithmetic: 'ff' })).value);
  });
});
