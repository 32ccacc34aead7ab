/**
 * Ranges on the device (issue 14, item 3, first part): a strided or negative-stride 1-D range goes to the device as
 * the bytes of the storage span it covers (no per-element work on the host) and is read there through its offset
 * and stride (uniforms; packed arrays keep their specialised source). Sentinels (NaN) fill the storage around every
 * view: nothing outside the view may be read, and a kernel's output range may change only inside itself.
 */
import { describe, expect, it } from 'vitest';
import { laplacianEll, range, colMajor, rowMajor, span, formats, dot, asum, axpy, waxpby, toArray, gemv, vector, ModprecError } from '../../src/index.js';
import { gpuConvert, gpuEllSpmv, toDeviceEll, toDevice, toDeviceMatrix, gpuDot, gpuAsum, gpuUpdate, gpuGemv, gpuTrsv, deviceMatrix, deviceMatrixView, deviceZeros } from '../../src/backends/webgpu/index.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

/** A 1-D range of `n` elements with increment `inc` inside a buffer of NaN sentinels (offset `pad`). */
function sentinelled(storage: typeof formats.f16, n: number, inc: number, pad: number, seed: number): ReturnType<typeof vector> {
  const size = pad * 2 + (n - 1) * Math.abs(inc) + 1;
  const all = range(rowMajor<1>({ size: [size], storage, arithmetic: formats.f32 }));
  for (let i = 0; i < size; i++) all.set(i, NaN);
  const a = all.accessor;
  const r = range(colMajor<1>({ size: [n], stride: inc, storage, arithmetic: formats.f32, data: a.data as never, offset: inc > 0 ? pad : pad + (n - 1) * -inc }));
  const v = randomValues(n, seed);
  for (let i = 0; i < n; i++) r.set(i, v[i]!);
  return r as never;
}

describe('strided ranges as device views', () => {
  it('upload the storage span as it is, read through offset and stride, never the NaN sentinels around them', async () => {
    await requireRuntime();
    for (const storage of [formats.f64, formats.f32, formats.f16, formats.bf16]) {
      for (const inc of [1, 3, -2]) {
        const x = sentinelled(storage as never, 41, inc, 5, 1), y = sentinelled(storage as never, 41, -inc, 3, 2);
        const dx = await toDevice(x as never), dy = await toDevice(y as never);
        // Unit stride is a view only where the span had to start earlier (16-bit formats: on an even element).
        if (inc !== 1) expect(dx.isView, `${storage.name} ${inc}`).toBe(true);
        const a = x.accessor;
        expect([...(await dx.toHost())]).toEqual(Array.from({ length: 41 }, (_, i) => a.storage.decode(a.data as never, a.linearIndex([i]))));
        for (const arithmetic of ['f32', 'ff'] as const) {
          const cpu = dot(x, y, { arithmetic: formats[arithmetic] });
          const g = await gpuDot(dx, dy, { arithmetic });
          expect(Number.isFinite(g.value)).toBe(true);
          expect(Math.abs(g.value - cpu)).toBeLessThanOrEqual(41 * 2 ** -22 * toArray(x).reduce((s, v, i) => s + Math.abs(v * toArray(y)[i]!), 0));
          const s = await gpuAsum(dx, { arithmetic });
          expect(Math.abs(s.value - asum(x, { arithmetic: formats[arithmetic] }))).toBeLessThanOrEqual(41 * 2 ** -22 * s.value);
        }
        const out = await deviceZeros(41, { format: 'f32' });
        await gpuUpdate({ alpha: 2, x: dx, beta: -1, y: dy, out }, { arithmetic: 'f32' });
        const expected = toArray(x).map((v, i) => Math.fround(Math.fround(2 * v) - toArray(y)[i]!));
        expect([...(await out.toHost())]).toEqual([...expected]);
      }
    }
  });

  it('the span words are the storage bytes (no host conversion), and a kernel that reads a whole array refuses a view', async () => {
    await requireRuntime();
    const x = sentinelled(formats.f16 as never, 10, -3, 2, 5);
    const dx = await toDevice(x as never);
    const bits = x.accessor.data as Uint16Array;
    const words = (await dx.encoded()).words;
    const halves = new Uint16Array(words.buffer, words.byteOffset, dx.spanLength);
    const [lo] = x.accessor.extent();
    expect([...halves]).toEqual([...bits.subarray(lo - (lo & 1), lo - (lo & 1) + dx.spanLength)]);
    let error: unknown;
    // gpuConvert reads a view through its offset and stride (into its own format: the bits of its elements).
    const values = [...(await dx.toHost())];
    for (const format of ['f16', 'f32', 'ff'] as const) expect([...(await (await gpuConvert(dx, format)).array.toHost())], format).toEqual(values);
    // TRSV and the outputs take views (output-views.test.ts); ELL values are read whole.
    const E = await toDeviceEll(laplacianEll([10]), { format: 'f16' });
    try { await gpuEllSpmv({ A: { ...E, values: dx }, x: await toDevice(new Float64Array(10)), y: await deviceZeros(10) }); } catch (e) { error = e; }
    expect([(error as ModprecError).code, (error as ModprecError).parameter]).toEqual(['INVALID_STORAGE', 'A.values']);
  });

  it('GEMV reads a row-major sub-range and a strided x in place (NaN sentinels around both)', async () => {
    await requireRuntime();
    const m = 13, n = 9, ld = n + 4;
    for (const storage of [formats.f32, formats.bf16, formats.f64]) {
      const big = range(rowMajor<2>({ size: [m + 3, ld], storage, arithmetic: formats.f32 }));
      for (let i = 0; i < m + 3; i++) for (let j = 0; j < ld; j++) big.set(i, j, NaN);
      const A = big.sub(span(2, m + 2), span(3, n + 3));
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, Math.sin(i * n + j));
      for (const trans of ['N', 'T'] as const) {
        const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
        const x = sentinelled(storage as never, cols, -2, 3, 11);
        const dA = await toDeviceMatrix(A as never);
        expect(dA.data.isView).toBe(true);
        const y = await deviceZeros(rows, { format: 'ff' });
        await gpuGemv({ A: dA, x: await toDevice(x as never), y, trans }, { arithmetic: 'ff' });
        const yc = vector(rows, { storage: formats.f64 });
        gemv({ alpha: 1, A, x, beta: 0, y: yc, trans }, { arithmetic: formats.ff });
        const g = await y.toHost(), c = toArray(yc);
        for (let i = 0; i < rows; i++) expect(Math.abs(g[i]! - c[i]!), `${storage.name} ${trans} ${i}`).toBeLessThanOrEqual(2 ** -40 * cols);
      }
    }
  });

  it('matrix views whose column stride is below the rows (one column with stride 1, overlapping columns) equal the CPU', async () => {
    await requireRuntime();
    // A 2×1 row-major view of a packed span has rowStride = colStride = 1: one column, whose ld is never read.
    // A 3×3 view with colStride 1 and rowStride 1 has overlapping columns (A[i][j] = s[i + j]): a Hankel matrix.
    for (const [rows, cols, colStride] of [[2, 1, 1], [3, 3, 1], [4, 2, 2]] as const) {
      const s = randomValues(rows + (cols - 1) * colStride, rows * 7 + cols);
      const dA = deviceMatrixView(await toDevice(s, { format: 'f64' }), { rows, cols, offset: 0, rowStride: 1, colStride });
      const x = randomValues(cols, 3), y = await deviceZeros(rows, { format: 'f64' });
      await gpuGemv({ A: dA, x: await toDevice(x, { format: 'f64' }), y }, { arithmetic: 'ff' });
      const g = await y.toHost();
      for (let i = 0; i < rows; i++) {
        const exact = x.reduce((acc, xj, j) => acc + s[i + j * colStride]! * xj, 0);
        expect(Math.abs(g[i]! - exact), `${rows}×${cols} ld ${colStride} row ${i}`).toBeLessThanOrEqual(2 ** -40 * cols);
      }
    }
    // TRSV on the overlapping 3×3 view (lower, A[i][j] = s[i + j], diagonal made dominant): L·x = b holds.
    const s = [4, 0.5, 5, -0.25, 6];
    const L = deviceMatrixView(await toDevice(s, { format: 'f64' }), { rows: 3, cols: 3, offset: 0, rowStride: 1, colStride: 1 });
    const b = [1, 2, 3], x = await toDevice(b, { format: 'f64' });
    await gpuTrsv({ A: L, x, uplo: 'L' }, { arithmetic: 'ff' });
    const h = await x.toHost();
    for (let i = 0; i < 3; i++) {
      let lx = 0;
      for (let j = 0; j <= i; j++) lx += s[i + j]! * h[j]!;
      expect(Math.abs(lx - b[i]!), `TRSV row ${i}`).toBeLessThanOrEqual(2 ** -40);
    }
  });

  it("backend 'gpu' outputs change only their own elements of a shared buffer (sentinels around y stay)", async () => {
    await requireRuntime();
    for (const inc of [2, -3]) {
      const y = sentinelled(formats.f32 as never, 17, inc, 4, 7);
      const data = y.accessor.data as Float32Array;
      const before = Float32Array.from(data);
      const x = vector(randomValues(17, 8), { storage: formats.f32 });
      const A = vector(randomValues(17 * 17, 9), { storage: formats.f32 });
      const M = range(colMajor<2>({ size: [17, 17], storage: formats.f32, data: A.accessor.data as never }));
      await axpy(0.5, x, y, { backend: 'gpu' });
      await waxpby(1, x, 2, y, y, { backend: 'gpu' });
      await gemv({ alpha: 1, A: M, x, beta: 1, y }, { backend: 'gpu' });
      const inside = new Set(Array.from({ length: 17 }, (_, i) => y.accessor.linearIndex([i])));
      for (let k = 0; k < data.length; k++) {
        if (inside.has(k)) expect(Number.isFinite(data[k]!)).toBe(true);
        else expect(Object.is(data[k], before[k])).toBe(true);
      }
    }
  });
});
