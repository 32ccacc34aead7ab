/**
 * A user's storage format runs on the GPU when it supplies a GPU part (issue 14, item 1): the guide's E5M2 fp8
 * (the upper byte of an fp16), registered with a `gpu` part of a few lines, goes through DOT and GEMV on the
 * llvmpipe adapter and agrees with the CPU; as an output (read-only part) it is a typed error, as is a format
 * without a GPU part.
 */
import { describe, expect, it } from 'vitest';
import {
  typedArrayStorage, registerFormat, createBinaryRounder, f16BitsFromNumber, numberFromF16Bits, range, rowMajor, colMajor,
  dot, gemv, vector, formats, toArray, ModprecError, type GpuStoragePart,
} from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

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
