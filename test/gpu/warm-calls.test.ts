/**
 * A warm GPU call on resident arrays creates no buffer and no bind group (issue 19, item 5): programs, plans,
 * uniform buffers, bind groups and the read-back staging buffers of DOT and NRM2 are all reused — and the warm
 * call's result has the same bits as the cold one's. The device is instrumented: its createBuffer and
 * createBindGroup are counted while the warm calls run. Read-backs that overlap (two DOTs in flight at once) each
 * get their own staging buffer and their own value. Calls on ranges (`backend: 'gpu'`) upload their operands every
 * time, into the arrays of an earlier call of the same shape: no buffer, no bind group, and every call reads the
 * ranges' current values.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuNrm2 } from '../../kernels/nrm2/nrm2-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpuEllSpmv, toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { dot, ellMatrix, ellSpmv, formats, gemv, matrix, toArray, trsv, vector } from '../../src/index.js';
import type { GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { accurateSum, gamma, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';

/** Counts of the device's object creations while armed. */
interface Counts { buffers: number; bindGroups: number }

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

/** Wraps the device's createBuffer and createBindGroup with counters (undone after each test). */
function instrument(rt: GpuRuntime): Counts {
  const device = rt.context.device as unknown as Record<string, (...a: unknown[]) => unknown>;
  const counts: Counts = { buffers: 0, bindGroups: 0 };
  const own = { createBuffer: Object.hasOwn(device, 'createBuffer'), createBindGroup: Object.hasOwn(device, 'createBindGroup') };
  const createBuffer = device.createBuffer!;
  const createBindGroup = device.createBindGroup!;
  device.createBuffer = (...a) => { counts.buffers++; return createBuffer.apply(device, a); };
  device.createBindGroup = (...a) => { counts.bindGroups++;  return createBindGroup.apply(device, a); };
  restore = () => {
    if (own.createBuffer) device.createBuffer = createBuffer;
    else delete device.createBuffer;
    if (own.createBindGroup) device.createBindGroup = createBindGroup;
    else delete device.createBindGroup;
  };
  return counts;
}

/**
 * Runs `call` cold, twice more to settle, then three times warm while counting; returns the cold and the last warm
 * result. Settling: a kernel writing an array swaps its buffer with its plan's spare, so an array written by k kernels
 * in turn cycles through k + 1 buffers, each met once before the caches hold them all (AXPY then TRSV: 3).
 */
async function coldAndWarm<T>(counts: Counts, call: () => Promise<T>): Promise<{ cold: T; warm: T; created: Counts }> {
  const cold = await call();
  for (let r = 0; r < 2; r++) await call();
  const before = { ...counts };
  let warm = cold;
  for (let r = 0; r < 3; r++) warm = await call();
  return { cold, warm, created: { buffers: counts.buffers - before.buffers, bindGroups: counts.bindGroups - before.bindGroups } };
}

const bits = (v: ArrayLike<number>): string[] => Array.from(v, (x) => (Object.is(x, -0) ? '-0' : String(x)));

describe('warm GPU calls on resident arrays', () => {
  const n = 96;
  const xv = randomValues(n, 3);
  const yv = randomValues(n, 5);
  const av = randomValues(n * n, 7);

  it('DOT and NRM2 (value read back): no buffer, no bind group; same value', async () => {
    const rt = await requireRuntime();
    const counts = instrument(rt);
    const x = await toDevice(xv, { format: 'f32', strict: true });
    const y = await toDevice(yv, { format: 'f32', strict: true });
    const xs = await x.toHost();
    const ys = await y.toHost();
    const terms = Array.from(xs, (v, k) => v * ys[k]!);
    const abs = accurateSum(terms.map(Math.abs));
    for (const arithmetic of ['f32', 'ff'] as const) {
      const dot = await coldAndWarm(counts, async () => (await gpuDot(x, y, { arithmetic, strict: true })).value);
      expect(dot.created).toEqual({ buffers: 0, bindGroups: 0 });
      expect(dot.warm).toBe(dot.cold);
      expect(Math.abs(dot.warm - accurateSum(terms))).toBeLessThanOrEqual(gamma(n, opError(arithmetic)) * abs);
    }
    const norm = await coldAndWarm(counts, async () => (await gpuNrm2(x, { arithmetic: 'ff', strict: true })).value);
    expect(norm.created).toEqual({ buffers: 0, bindGroups: 0 });
    expect(norm.warm).toBe(norm.cold);
    for (const a of [x, y]) a.destroy();
  });

  it('two DOTs in flight at once each read their own value', async () => {
    const rt = await requireRuntime();
    instrument(rt);
    const x = await toDevice(xv, { format: 'f32', strict: true });
    const y = await toDevice(yv, { format: 'f32', strict: true });
    const z = await toDevice(av.subarray(0, n), { format: 'f32', strict: true });
    const alone = [(await gpuDot(x, y, { arithmetic: 'ff' })).value, (await gpuDot(x, z, { arithmetic: 'ff' })).value, (await gpuDot(y, z, { arithmetic: 'ff' })).value];
    const together = await Promise.all([gpuDot(x, y, { arithmetic: 'ff' }), gpuDot(x, z, { arithmetic: 'ff' }), gpuDot(y, z, { arithmetic: 'ff' })]);
    expect(together.map((r) => r.value)).toEqual(alone);
    for (const a of [x, y, z]) a.destroy();
  });

  it('GEMV N and T (f32 and bf16 storage), TRSV, ELL SpMV and AXPY: no buffer, no bind group; same bits', async () => {
    const rt = await requireRuntime();
    const counts = instrument(rt);
    const x = await toDevice(xv, { format: 'f32', strict: true });
    const out = await toDevice(new Float64Array(n), { format: 'f32', strict: true });
    const check = async (name: string, call: () => Promise<unknown>, result: DeviceArray): Promise<void> => {
      const r = await coldAndWarm(counts, async () => {
        await call();
        return result.toHost();
      });
      expect(r.created, name).toEqual({ buffers: 0, bindGroups: 0 });
      expect(bits(r.warm), name).toEqual(bits(r.cold));
    };
    for (const format of ['f32', 'bf16'] as const) {
      const A = deviceMatrix(await toDevice(av, { format, strict: true }), n, n);
      for (const trans of ['N', 'T'] as const) {
        await check(`GEMV ${trans} ${format}`, () => gpuGemv({ A, x, y: out, trans }, { arithmetic: 'ff', strict: true }), out);
      }
      A.data.destroy();
    }
    // TRSV L N: x solved in place would drift; each call solves a fresh copy of b written by AXPY (out ← 1·b).
    const lv = new Float64Array(n * n);
    for (let j = 0; j < n; j++) for (let i = j; i < n; i++) lv[j * n + i] = i === j ? 2 + Math.abs(av[j * n + i]!) : av[j * n + i]! / n;
    const L = deviceMatrix(await toDevice(lv, { format: 'f32', strict: true }), n, n);
    await check('TRSV L N', async () => {
      await gpuUpdate({ alpha: 1, x, beta: 0, out }, { arithmetic: 'ff', strict: true });
      await gpuTrsv({ A: L, x: out, uplo: 'L' }, { arithmetic: 'ff', strict: true });
    }, out);
    L.data.destroy();
    const E = laplacianEll([8, 12]);
    const ell = await toDeviceEll(E, { format: 'f32' });
    await check('ELL SpMV', () => gpuEllSpmv({ A: ell, x, y: out }, { arithmetic: 'ff', strict: true }), out);
    for (const a of [x, out]) a.destroy();
  });
});

describe('warm GPU calls on ranges', () => {
  it('DOT and GEMV N/T refill the uploads of the previous call: no buffer, no bind group; each call reads the new values', async () => {
    const rt = await requireRuntime();
    const n = 48;
    const st = { storage: formats.f32, arithmetic: formats.f32 };
    const x = vector(n, st), y = vector(n, st), out = vector(n, st);
    const A = matrix(n, n, undefined, { ...st, layout: 'col-major' });
    const options = { backend: 'gpu', arithmetic: formats.ff, strict: true } as const;
    // Fresh values each round (a call that read an earlier round's upload would miss its bound by far).
    const round = async (seed: number): Promise<void> => {
      const [xv, yv, av] = [randomValues(n, seed), randomValues(n, seed + 100), randomValues(n * n, seed + 200)];
      for (let i = 0; i < n; i++) {
        x.set(i, xv[i]!);
        y.set(i, yv[i]!);
        for (let j = 0; j < n; j++) A.set(i, j, av[i + j * n]!);
      }
      const xs = toArray(x), ys = toArray(y);
      const terms = Array.from(xs, (v, k) => v * ys[k]!);
      const { value } = await dot(x, y, options);
      expect(Math.abs(value - accurateSum(terms))).toBeLessThanOrEqual(gamma(n, opError('ff')) * accurateSum(terms.map(Math.abs)));
      for (const trans of ['N', 'T'] as const) {
        await gemv({ alpha: 1, A, x, beta: 0, y: out, trans }, options);
        const got = toArray(out);
        for (let i = 0; i < n; i++) {
          const row = Array.from({ length: n }, (_, j) => (trans === 'N' ? A.get(i, j) : A.get(j, i)) * xs[j]!);
          const exact = accurateSum(row);
          // ff sum within γ_n, then one rounding to the f32 output.
          expect(Math.abs(got[i]! - exact), `${trans} row ${i}`).toBeLessThanOrEqual(gamma(n, opError('ff')) * accurateSum(row.map(Math.abs)) + 2 ** -24 * Math.abs(exact) * (1 + 2 ** -20));
        }
      }
    };
    for (let seed = 1; seed <= 3; seed++) await round(seed);
    const counts = instrument(rt);
    for (let seed = 4; seed <= 6; seed++) await round(seed);
    expect(counts).toEqual({ buffers: 0, bindGroups: 0 });
  });
  it('TRSV L N and ELL SpMV reuse the previous call\'s matrix: no buffer, no bind group; each call reads the new A (zero pivots, ∞ in b)', async () => {
    const rt = await requireRuntime();
    const n = 80;
    const st = { storage: formats.f32, arithmetic: formats.f32 };
    const options = { backend: 'gpu', arithmetic: formats.ff, strict: true } as const;
    const L = matrix(n, n, undefined, { ...st, layout: 'col-major' });
    const b = vector(n, st);
    const E = laplacianEll([8, 10]);
    const xe = vector(E.cols, st), ye = vector(E.rows, st);
    let counts: Counts | undefined;
    // Counts only the range calls (the resident reference solve of each round makes its own arrays).
    const counted = async (call: () => Promise<unknown>): Promise<void> => {
      const before = counts && { ...counts };
      await call();
      if (counts && before) expect({ buffers: counts.buffers - before.buffers, bindGroups: counts.bindGroups - before.bindGroups }).toEqual({ buffers: 0, bindGroups: 0 });
    };
    const round = async (seed: number): Promise<void> => {
      // A new lower triangle and b each round: the block inverses of an earlier round's A would solve another system.
      const av = randomValues(n * n, seed + 300), bv = randomValues(n, seed + 400);
      const lv = new Float64Array(n * n);
      for (let j = 0; j < n; j++) for (let i = j; i < n; i++) lv[j * n + i] = Math.fround(i === j ? 1 + Math.abs(av[j * n + i]!) : av[j * n + i]! / 4);
      const bs = Array.from(bv);
      // Every other round a zero pivot (row 70: ±∞ and NaN from there on) or an infinite b: the substitution redo.
      if (seed % 2 === 0) lv[70 * n + 70] = 0;
      if (seed % 4 === 1) bs[5] = -Infinity;
      for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) L.set(i, j, lv[j * n + i]!);
      for (let i = 0; i < n; i++) b.set(i, bs[i]!);
      // The same solve on resident arrays made for it (a cold plan): the same bits, a NaN as any NaN.
      const dx = await toDevice(bs, { format: 'f32', strict: true });
      const dL = deviceMatrix(await toDevice(lv, { format: 'f32', strict: true }), n, n);
      await gpuTrsv({ A: dL, x: dx, uplo: 'L' }, { arithmetic: 'ff', strict: true });
      const expected = await dx.toHost();
      expect(expected.some((v) => !Number.isFinite(v)), `round ${seed} takes the redo`).toBe(seed % 4 !== 3);
      dx.destroy();
      dL.data.destroy();
      await counted(() => trsv({ A: L, x: b, uplo: 'L' }, options));
      expect(bits(toArray(b)), `TRSV round ${seed}`).toEqual(bits(expected));
      // ELL: new values and new column indices (each row's entries rotated, the last one of some rows dropped to
      // padding: padding comes last) each round.
      const colIndex = E.colIndex.slice(), values = new Float64Array(E.values.length);
      const vv = randomValues(values.length, seed + 500), xv = randomValues(E.cols, seed + 600);
      for (let i = 0; i < E.rows; i++) {
        const row = Array.from({ length: E.width }, (_, k) => E.colIndex[i + k * E.stride]!).filter((c) => c >= 0);
        const kept = (i + seed) % 3 === 0 ? row.length - 1 : row.length;
        for (let k = 0; k < E.width; k++) {
          colIndex[i + k * E.stride] = k < kept ? row[(k + seed + i) % row.length]! : -1;
          values[i + k * E.stride] = k < kept ? Math.fround(vv[i + k * E.stride]!) : 0;
        }
      }
      for (let i = 0; i < E.cols; i++) xe.set(i, xv[i]!);
      const A = ellMatrix({ ...E, colIndex, values });
      await counted(() => ellSpmv({ alpha: 1, A, x: xe, beta: 0, y: ye }, options));
      const xs = toArray(xe), got = toArray(ye);
      for (let i = 0; i < E.rows; i++) {
        const terms = Array.from({ length: E.width }, (_, k) => (colIndex[i + k * E.stride]! < 0 ? 0 : values[i + k * E.stride]! * xs[colIndex[i + k * E.stride]!]!));
        const exact = accurateSum(terms);
        expect(Math.abs(got[i]! - exact), `ELL round ${seed} row ${i}`).toBeLessThanOrEqual(gamma(E.width, opError('ff')) * accurateSum(terms.map(Math.abs)) + 2 ** -24 * Math.abs(exact) * (1 + 2 ** -20));
      }
    };
    for (let seed = 1; seed <= 2; seed++) await round(seed);
    counts = instrument(rt);
    for (let seed = 3; seed <= 5; seed++) await round(seed);
  });
  it('16-bit spans refill from their own bytes when whole words, through a copy otherwise: each call reads the new values', async () => {
    await requireRuntime();
    const options = { backend: 'gpu', arithmetic: formats.ff, strict: true } as const;
    // f16 of odd length: 2 bytes past a word (the copy); bf16 of even length: whole words (the bytes as they lie).
    for (const [storage, n] of [[formats.f16, 47], [formats.bf16, 48]] as const) {
      const x = vector(n, { storage, arithmetic: formats.f32 }), y = vector(n, { storage, arithmetic: formats.f32 });
      for (let seed = 1; seed <= 4; seed++) {
        const [xv, yv] = [randomValues(n, seed), randomValues(n, seed + 100)];
        for (let i = 0; i < n; i++) { x.set(i, xv[i]!); y.set(i, yv[i]!); }
        const xs = toArray(x), ys = toArray(y);
        const terms = Array.from(xs, (v, k) => v * ys[k]!);
        const { value } = await dot(x, y, options);
        expect(Math.abs(value - accurateSum(terms)), `${storage.name} round ${seed}`).toBeLessThanOrEqual(gamma(n, opError('ff')) * accurateSum(terms.map(Math.abs)));
      }
    }
  });
});
