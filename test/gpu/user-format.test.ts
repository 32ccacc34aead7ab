/**
 * A user's storage format runs on the GPU when it supplies a GPU part (issue 14, item 1): the guide's E5M2 fp8
 * (the upper byte of an fp16), registered with a `gpu` part of a few lines, goes through DOT and GEMV on the
 * llvmpipe adapter and agrees with the CPU; as an output (read-only part) it is a typed error, as is a format
 * without a GPU part.
 */
import { describe, expect, it } from 'vitest';
import {
  typedArrayStorage, registerFormat, createBinaryRounder, f16BitsFromNumber, numberFromF16Bits, range, rowMajor, colMajor,
  dot, gemv, vector, formats, toArray, ModprecError, axpy, waxpby, scal, trsv, ellSpmv, ellOperand, ellStructure,
  type GpuStoragePart, type Range,
} from '../../src/index.js';
import fc from 'fast-check';
import { requireRuntime } from './gpu-test-helpers.js';
import { e5m2Byte } from './e5m2-gpu-writer.js';

const roundE5M2 = createBinaryRounder({ significandBits: 3, minExponent: -14, maxExponent: 15 });
const encodeE5M2 = (x: number): number => f16BitsFromNumber(roundE5M2(x)) >>> 8;
const decodeE5M2 = (bits: number): number => numberFromF16Bits(bits << 8);

/** E5M2 on the device: four values per 32-bit word; a read shifts the byte into an fp16 and unpacks it. */
const e5m2Gpu: GpuStoragePart = {
  name: 'e5m2-test', elementsPerWord: 4, wordsPerElement: 1, significandBits: 3, unitRoundoff: 2 ** -3, scaled: false, writable: false,
  words: (n) => Math.ceil(n / 4),
  encode(values) {
    const words = new Uint32Array(Math.max(1, Math.ceil(values.length / 4)));
    for (let k = 0; k < values.length; k++) words[k >> 2]! |= encodeE5M2(values[k]!) << ((k & 3) << 3);
    return { words };
  },
  decode(encoded, length) {
    return Float64Array.from({ length }, (_, k) => decodeE5M2((encoded.words[k >> 2]! >>> ((k & 3) << 3)) & 255));
  },
  emitRead: (array, index, dst) => ({
    code: `const ${dst}k = ${index}; const ${dst}b = (mpBits(${array}[${dst}k >> 2]) >>> ((${dst}k & 3) << 3)) & 255; const ${dst}h = mpHalfPair(${dst}b << 8); const ${dst} = ${dst}h[0];`,
    register: { kind: 'f32', name: dst },
  }),
  readArgs: () => [],
  emitReturn: () => { throw new Error('e5m2 is read-only on the GPU'); },
};

const e5m2 = registerFormat({
  name: 'e5m2-test',
  storage: {
    ...typedArrayStorage<Uint8Array>({
      name: 'e5m2-test', array: Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344,
      encodeHelper: { name: 'e5m2TestEncode', fn: encodeE5M2 }, decodeHelper: { name: 'e5m2TestDecode', fn: decodeE5M2 },
    }),
    gpu: e5m2Gpu,
  },
});

describe('a user format with a GPU part', () => {
  it('E5M2 runs through DOT and GEMV (N and T) on the GPU and agrees with the CPU', async () => {
    await requireRuntime();
    const n = 300;
    const values = Array.from({ length: n }, (_, i) => Math.sin(i + 1) * 2 ** ((i % 9) - 4));
    const x = range(rowMajor<1>({ size: [n], storage: e5m2, arithmetic: 'f32' }));
    // A strided view, walked backwards: the upload reads the stored bytes through the accessor.
    const y = range(colMajor<1>({ size: [n], stride: -3, storage: e5m2, arithmetic: 'f32' }));
    for (let i = 0; i < n; i++) { x.set(i, values[i]!); y.set(i, values[(7 * i) % n]!); }
    for (const arithmetic of [formats.f32, formats.ff]) {
      const g = await dot(x, y, { backend: 'gpu', arithmetic });
      expect(g.backend).toBe('gpu');
      // Both backends are within γ_n·Σ|xᵢyᵢ| of the exact value (summing in different orders): within twice that of each other.
      const c = dot(x, y, { arithmetic });
      const abs = toArray(x).reduce((s, v, i) => s + Math.abs(v * toArray(y)[i]!), 0);
      expect(Math.abs(g.value - c)).toBeLessThanOrEqual(2 * n * arithmetic.arithmetic!.unitRoundoff * abs);
    }
    const m = 17, k = 29;
    const A = range(rowMajor<2>({ size: [m, k], storage: e5m2, arithmetic: 'f32' }));
    for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) A.set(i, j, Math.cos(i * k + j));
    for (const trans of ['N', 'T'] as const) {
      const [rows, cols] = trans === 'N' ? [m, k] : [k, m];
      const xv = vector(Array.from({ length: cols }, (_, j) => j / cols - 0.5), { storage: formats.f32 });
      const yg = vector(rows, { storage: formats.f32, arithmetic: formats.ff }), yc = vector(rows, { storage: formats.f32, arithmetic: formats.ff });
      expect((await gemv({ alpha: 1, A, x: xv, beta: 0, y: yg, trans }, { backend: 'gpu' })).backend).toBe('gpu');
      gemv({ alpha: 1, A, x: xv, beta: 0, y: yc, trans });
      // Float-float products of 3- and 24-bit values are exact and the sums within 2^-44: both round to the same binary32.
      expect([...toArray(yg)], trans).toEqual([...toArray(yc)]);
    }
  });

  it('as a GPU output (read-only part) it is a typed error naming the operand; without a GPU part too', async () => {
    await requireRuntime();
    const A = range(rowMajor<2>({ size: [2, 2], storage: formats.f32 }));
    const y = range(rowMajor<1>({ size: [2], storage: e5m2, arithmetic: 'f32' }));
    let error: unknown;
    try { await gemv({ alpha: 1, A, x: vector([1, 1], { storage: formats.f32 }), beta: 0, y }, { backend: 'gpu' }); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ModprecError);
    expect([(error as ModprecError).code, (error as ModprecError).parameter]).toEqual(['INVALID_FORMAT', 'y']);
    const plain = registerFormat({ name: 'e5m2-test-cpu-only', storage: typedArrayStorage<Uint8Array>({
      name: 'e5m2-test-cpu-only', array: Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344,
      encodeHelper: { name: 'e5m2TestEncode2', fn: encodeE5M2 }, decodeHelper: { name: 'e5m2TestDecode2', fn: decodeE5M2 },
    }) });
    const z = range(rowMajor<1>({ size: [2], storage: plain, arithmetic: 'f32' }));
    error = undefined;
    try { await dot(z, z, { backend: 'gpu' }); } catch (e) { error = e; }
    expect([(error as ModprecError).code, (error as ModprecError).parameter]).toEqual(['INVALID_FORMAT', 'x']);
  });
});

/** E5M2 the GPU also writes: the read-only part plus an emitReturn that rounds each value once. */
const e5m2WritableGpu: GpuStoragePart = {
  ...e5m2Gpu,
  name: 'e5m2-test-w',
  writable: true,
  emitReturn(values) {
    const parts = values.map((r, e) => (r ? e5m2Byte(r, `q${e}`) : `const q${e}h = 0;`));
    return `${parts.join('\n')}\nreturn mpFloat(q0h | (q1h << 8) | (q2h << 16) | (q3h << 24));`;
  },
};

const e5m2w = registerFormat({
  name: 'e5m2-test-w',
  storage: {
    ...typedArrayStorage<Uint8Array>({
      name: 'e5m2-test-w', array: Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344,
      encodeHelper: { name: 'e5m2TestWEncode', fn: encodeE5M2 }, decodeHelper: { name: 'e5m2TestWDecode', fn: decodeE5M2 },
    }),
    gpu: e5m2WritableGpu,
  },
});

/** A strided E5M2 vector over a buffer of sentinel bytes (`data` shared by the CPU's and the GPU's copies). */
function e5m2Vector(data: Uint8Array, n: number, stride: number, arithmetic: typeof formats.f32): Range<1, any> {
  return range(rowMajor<1>({ size: [n], storage: e5m2w, arithmetic, data, stride, offset: 1 + (stride < 0 ? -stride * (n - 1) : 0) }));
}

describe('a user format whose GPU part writes (emitReturn)', () => {
  it('AXPY, WAXPBY and SCAL write E5M2 outputs on the device: every byte equals the CPU run (every value class)', async () => {
    await requireRuntime();
    const special = fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 57344, 61440, 61439.99, 2 ** -16, 2 ** -17, 3 * 2 ** -18, -1.125, 1.125);
    const value = fc.oneof(fc.double({ min: -70000, max: 70000, noNaN: true }), fc.double({ min: -1e-3, max: 1e-3, noNaN: true }), special);
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(value, value), { minLength: 1, maxLength: 30 }), fc.constantFrom(1, 2, -1, -3), fc.constantFrom(0, 1), fc.constantFrom(0.75, -1.5, 3),
      async (pairs, stride, ai, alpha) => {
        const arithmetic = [formats.f32, formats.ff][ai]!;
        const n = pairs.length;
        const x = vector(pairs.map((p) => p[0]), { storage: formats.f64, arithmetic });
        const yv = vector(pairs.map((p) => p[1]), { storage: formats.f64, arithmetic });
        const sentinels = Uint8Array.from({ length: 3 + Math.abs(stride) * n }, (_, k) => (k * 37 + 11) & 255);
        const run = async (backend: 'cpu' | 'gpu') => {
          const [d1, d2, d3] = [sentinels.slice(), sentinels.slice(), sentinels.slice()];
          const [w, y, z] = [d1, d2, d3].map((d) => e5m2Vector(d, n, stride, arithmetic));
          for (let i = 0; i < n; i++) { y.set(i, pairs[i]![1]); z.set(i, pairs[i]![0]); }
          const o = (backend === 'gpu' ? { backend: 'gpu', arithmetic, strict: true } : { arithmetic }) as never;
          await waxpby(alpha, x, -0.5, yv, w, o);
          await axpy(alpha, x, y, o);
          await scal(alpha, z, o);
          return [d1, d2, d3];
        };
        // A zero result's sign may differ: the GPU's update starts its multiply-adds from +0 (−1.5·0 + 0 = +0 there,
        // −0 on the CPU), which no rounding to E5M2 is responsible for. So may a NaN's: IEEE 754 leaves the sign of an
        // operation's NaN unspecified (x86 makes −NaN, the GPU +NaN). Every other byte must be the CPU's.
        const isNaNByte = (b: number): boolean => (b & 0x7c) === 0x7c && (b & 3) !== 0;
        const unsigned = (d: Uint8Array) => d.map((b) => (b === 0x80 ? 0 : isNaNByte(b) ? b & 0x7f : b));
        const cpu = await run('cpu'), gpu = await run('gpu');
        for (let k = 0; k < 3; k++) expect(unsigned(gpu[k]!)).toEqual(unsigned(cpu[k]!));
      }), { numRuns: 30 });
  });

  it('GEMV, ELL SpMV and TRSV write E5M2 outputs on the device (exact integer data: the same bytes as the CPU)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 1), fc.constantFrom(1, -2), fc.integer(), async (n, ai, stride, seed) => {
      const arithmetic = [formats.f32, formats.ff][ai]!;
      let s = seed >>> 0 || 1;
      const small = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return ((s >>> 0) % 5) - 2; };
      const A = range(colMajor<2>({ size: [n, n], storage: formats.f64, arithmetic }));
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A.set(i, j, i === j ? 1 : i === j + 1 ? small() % 2 : j > i ? 0 : small());
      // TRSV's system: unit lower bidiagonal, b_i = (i mod 4) − 2 (y2 below). The CPU re-reads each stored x_i, the GPU
      // solves in the arithmetic: the same bytes only while every x_i is exact in E5M2, which holds the integers up to 8
      // but not 9 (n = 12, subdiagonal 0, 1, −1, 1, −1, …, 1, 1 reaches x₉ = −9, stored −8: the CPU's x₁₁ is then −7, the
      // GPU's −8). A subdiagonal entry that would take |x_i| past 8 is 0.
      const B = range(colMajor<2>({ size: [n, n], storage: formats.f64, arithmetic }));
      for (let i = 0, xi = 0; i < n; i++) {
        B.set(i, i, 1);
        const b = (i % 4) - 2;
        const sub = i > 0 && Math.abs(b - A.get(i, i - 1) * xi) <= 8 ? A.get(i, i - 1) : 0;
        if (i > 0) B.set(i, i - 1, sub);
        xi = b - sub * xi;
      }
      const x = vector(Array.from({ length: n }, small), { storage: formats.f64, arithmetic });
      const structure = ellStructure({ rows: n, cols: n, width: n, stride: n, colIndex: Int32Array.from({ length: n * n }, (_, q) => (q * 3 + 2) % n) });
      const sentinels = Uint8Array.from({ length: 3 + Math.abs(stride) * n }, (_, k) => (k * 53 + 5) & 255);
      const run = async (backend: 'cpu' | 'gpu') => {
        const [d1, d2, d3] = [sentinels.slice(), sentinels.slice(), sentinels.slice()];
        const [y1, y2, y3] = [d1, d2, d3].map((d) => e5m2Vector(d, n, stride, arithmetic));
        for (let i = 0; i < n; i++) { y1.set(i, (i % 3) - 1); y2.set(i, (i % 4) - 2); y3.set(i, (i % 5) - 2); }
        const o = (backend === 'gpu' ? { backend: 'gpu', arithmetic, strict: true } : { arithmetic }) as never;
        await gemv({ alpha: 1, A, x, beta: 2, y: y1 }, o);
        await ellSpmv({ alpha: -1, A: ellOperand(structure, A), x, beta: 1, y: y3 }, o);
        // Bidiagonal: the solution's entries stay integers of magnitude ≤ 8, which E5M2 holds exactly (B above).
        await trsv({ A: B, x: y2, uplo: 'L', diag: 'U' }, o);
        return [d1, d2, d3];
      };
      const cpu = await run('cpu'), gpu = await run('gpu');
      for (let k = 0; k < 3; k++) expect(gpu[k]).toEqual(cpu[k]);
    }), { numRuns: 12 });
  });
});

