/**
 * A user's format whose GPU part declares `hostBytes` (its device words are the bytes of its CPU typed array: the
 * guide's E5M2, four bytes a word) goes up as the bytes of the storage span an input covers — the part's `encode` is
 * never called — and is read through its offset and stride on the device: DOT (packed, stride 3, stride −3), GEMV N/T
 * of a row-major sub-range and ELL SpMV values agree with the CPU within the kernels' bounds, and the uploaded words
 * are the span's bytes. A part that also writes gets its outputs (AXPY, WAXPBY, SCAL, GEMV's y read with β ≠ 0; strided,
 * reversed, among sentinel bytes) written into their span on the device, every byte the CPU's, without a codec call. A
 * part whose declaration does not hold (its decode of CPU bytes differs from the CPU's, or its
 * storage's slots are not its elements' width) is `INVALID_FORMAT` naming the operand, before anything runs.
 */
import { describe, expect, it } from 'vitest';
import {
  typedArrayStorage, registerFormat, createBinaryRounder, f16BitsFromNumber, numberFromF16Bits, range, rowMajor, colMajor,
  dot, gemv, vector, formats, toArray, span, ellSpmv, ellWithStorage, csrToEll, laplacianCsr, ellSpmvBound, gemvBound,
  axpy, waxpby, scal, type GpuStoragePart, type Range,
} from '../../src/index.js';
import fc from 'fast-check';
import { e5m2Byte } from './e5m2-gpu-writer.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { requireRuntime } from './gpu-test-helpers.js';

const roundE5M2 = createBinaryRounder({ significandBits: 3, minExponent: -14, maxExponent: 15 });
const encodeE5M2 = (x: number): number => f16BitsFromNumber(roundE5M2(x)) >>> 8;
const decodeE5M2 = (bits: number): number => numberFromF16Bits(bits << 8);

let encodeCalls = 0;

/** The guide's E5M2 part, declaring that its words are the bytes of the CPU's Uint8Array. */
function e5m2Part(name: string, byte: (k: number) => number = (k) => (k & 3) << 3): GpuStoragePart {
  return {
    name, elementsPerWord: 4, wordsPerElement: 1, significandBits: 3, unitRoundoff: 2 ** -3, scaled: false, writable: false, hostBytes: true,
    words: (n) => Math.ceil(n / 4),
    encode(values) {
      encodeCalls++;
      const words = new Uint32Array(Math.max(1, Math.ceil(values.length / 4)));
      for (let k = 0; k < values.length; k++) words[k >> 2]! |= encodeE5M2(values[k]!) << byte(k);
      return { words };
    },
    decode: (e, length) => Float64Array.from({ length }, (_, k) => decodeE5M2((e.words[k >> 2]! >>> byte(k)) & 255)),
    emitRead: (array, index, dst) => ({
      code: `const ${dst}k = ${index}; const ${dst}b = (mpBits(${array}[${dst}k >> 2]) >>> ((${dst}k & 3) << 3)) & 255; const ${dst}h = mpHalfPair(${dst}b << 8); const ${dst} = ${dst}h[0];`,
      register: { kind: 'f32', name: dst },
    }),
    readArgs: () => [],
    emitReturn: () => { throw new Error('read-only'); },
  };
}

function e5m2Format(name: string, part: GpuStoragePart, array: typeof Uint8Array | typeof Uint16Array = Uint8Array): ReturnType<typeof registerFormat> {
  return registerFormat({
    name,
    storage: {
      ...typedArrayStorage<Uint8Array>({
        name, array: array as typeof Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344,
        encodeHelper: { name: `${name.replace(/-/g, '')}Encode`, fn: encodeE5M2 }, decodeHelper: { name: `${name.replace(/-/g, '')}Decode`, fn: decodeE5M2 },
      }),
      gpu: part,
    },
  });
}

const e5m2 = e5m2Format('e5m2-bytes', e5m2Part('e5m2-bytes'));

let decodeCalls = 0;
const readOnly = e5m2Part('e5m2-bytes-w');
/** The same part, writable: its outputs are written on the device into the view of their span. */
const e5m2w = e5m2Format('e5m2-bytes-w', {
  ...readOnly,
  writable: true,
  decode: (e, length, block) => { decodeCalls++; return readOnly.decode(e, length, block); },
  emitReturn(values) {
    const parts = values.map((r, e) => (r ? e5m2Byte(r, `q${e}`) : `const q${e}h = 0;`));
    return `${parts.join('\n')}\nreturn mpFloat(q0h | (q1h << 8) | (q2h << 16) | (q3h << 24));`;
  },
});

/** |a − b| ≤ bound, with the bound's own rounding allowed. */
const close = (a: number, b: number, bound: number): boolean => Math.abs(a - b) <= bound * (1 + 2 ** -40);

describe('a user format whose GPU part declares hostBytes', () => {
  it('inputs go up as their span bytes (encode never called) and run DOT, GEMV and ELL SpMV as the CPU does', async () => {
    await requireRuntime();
    const n = 301;
    const value = (i: number): number => Math.sin(i + 1) * 2 ** ((i % 9) - 4);
    const layouts = {
      packed: range(rowMajor<1>({ size: [n], storage: e5m2, arithmetic: 'f32' })),
      stride3: range(rowMajor<1>({ size: [n], stride: 3, offset: 2, storage: e5m2, arithmetic: 'f32' })),
      reversed: range(colMajor<1>({ size: [n], stride: -3, storage: e5m2, arithmetic: 'f32' })),
    };
    for (const r of Object.values(layouts)) for (let i = 0; i < n; i++) r.set(i, value(7 * i % n));
    encodeCalls = 0;
    // The uploaded words are the bytes of the span the range covers, from the word holding its first element.
    const d = await toDevice(layouts.stride3 as never, { format: 'e5m2-bytes' as 'f32' });
    const bytes = layouts.stride3.accessor.data as Uint8Array;
    const words = (await d.encoded()).words;
    expect(Array.from(new Uint8Array(words.buffer, words.byteOffset, d.spanLength))).toEqual(Array.from(bytes.subarray(0, d.spanLength)));
    expect([d.offset, d.stride, d.length]).toEqual([2, 3, n]);
    d.destroy();
    for (const [a, x] of Object.entries(layouts)) for (const [b, y] of Object.entries(layouts)) {
      for (const arithmetic of [formats.f32, formats.ff]) {
        const g = await dot(x, y, { backend: 'gpu', arithmetic, strict: true });
        const c = dot(x, y, { arithmetic });
        const abs = toArray(x).reduce((s, v, i) => s + Math.abs(v * toArray(y)[i]!), 0);
        expect(close(g.value, c, 2 * n * arithmetic.arithmetic!.unitRoundoff * abs), `${a}·${b} ${arithmetic.name}`).toBe(true);
      }
    }
    const m = 17, k = 29;
    const A = range(rowMajor<2>({ size: [m + 3, k + 2], storage: e5m2, arithmetic: 'f32' })).sub(span(2, m + 2), span(1, k + 1));
    for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) A.set(i, j, Math.cos(i * k + j));
    for (const trans of ['N', 'T'] as const) {
      const [rows, cols] = trans === 'N' ? [m, k] : [k, m];
      const xv = vector(Array.from({ length: cols }, (_, j) => j / cols - 0.5), { storage: formats.f32 });
      const yg = vector(rows, { storage: formats.f64, arithmetic: formats.ff }), yc = vector(rows, { storage: formats.f64, arithmetic: formats.ff });
      const args = (y: Range<1, any>) => ({ alpha: 1, A, x: xv, beta: 0, y, trans });
      const bound = gemvBound(args(yc), { arithmetic: formats.ff });
      await gemv(args(yg), { backend: 'gpu', arithmetic: formats.ff, strict: true });
      gemv(args(yc), { arithmetic: formats.ff });
      toArray(yg).forEach((v, i) => expect(close(v, toArray(yc)[i]!, 2 * bound[i]!), `${trans} ${i}`).toBe(true));
    }
    const E = ellWithStorage(csrToEll(laplacianCsr([5, 4])), { storage: e5m2, arithmetic: formats.f32 });
    const ex = vector(Array.from({ length: 20 }, (_, i) => value(i)), { storage: formats.f32 });
    const [eg, ec] = [vector(20, { storage: formats.f64 }), vector(20, { storage: formats.f64 })];
    const eb = ellSpmvBound({ alpha: 1, A: E, x: ex, beta: 0, y: ec }, { arithmetic: formats.ff });
    await ellSpmv({ alpha: 1, A: E, x: ex, beta: 0, y: eg }, { backend: 'gpu', arithmetic: formats.ff, strict: true });
    ellSpmv({ alpha: 1, A: E, x: ex, beta: 0, y: ec }, { arithmetic: formats.ff });
    toArray(eg).forEach((v, i) => expect(close(v, toArray(ec)[i]!, 2 * eb[i]!), `ELL ${i}`).toBe(true));
    // No per-element encode on the host for any of those inputs.
    expect(encodeCalls).toBe(0);
  });

  it('outputs of a writable part are written on the device into the view of their span, whose bytes come back in one copy: every byte the CPU\'s, neighbours untouched, no codec call', async () => {
    await requireRuntime();
    const value = fc.oneof(fc.double({ min: -70000, max: 70000, noNaN: true }), fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 57344, 61440, 2 ** -16, 2 ** -17, 1.125));
    // The declaration is checked (its decode called once) at the part's first upload.
    await scal(2, range(rowMajor<1>({ size: [3], storage: e5m2w, arithmetic: 'f32' })), { backend: 'gpu', strict: true });
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(value, value), { minLength: 1, maxLength: 30 }), fc.constantFrom(1, 2, -1, -3), fc.integer({ min: 0, max: 4 }), fc.constantFrom(0, 1), fc.constantFrom(0.75, -1.5, 3),
      async (pairs, stride, pad, ai, alpha) => {
        const arithmetic = [formats.f32, formats.ff][ai]!;
        const n = pairs.length;
        const x = vector(pairs.map((p) => p[0]), { storage: formats.f64, arithmetic });
        const yv = vector(pairs.map((p) => p[1]), { storage: formats.f64, arithmetic });
        // GEMV's y with β = 2 reads its old values (the view's elements gathered on the device): small integers, exact.
        const A = range(rowMajor<2>({ size: [n, 3], storage: formats.f64, arithmetic }));
        for (let i = 0; i < n; i++) for (let j = 0; j < 3; j++) A.set(i, j, ((i + 2 * j) % 3) - 1);
        const ax = vector([1, -1, 2], { storage: formats.f64, arithmetic });
        const sentinels = Uint8Array.from({ length: 2 * pad + 1 + Math.abs(stride) * (n - 1) }, (_, k) => (k * 37 + 11) & 255);
        const view = (d: Uint8Array) => range(rowMajor<1>({ size: [n], storage: e5m2w, arithmetic, data: d, stride, offset: pad + (stride < 0 ? -stride * (n - 1) : 0) }));
        const run = async (backend: 'cpu' | 'gpu') => {
          const ds = [0, 1, 2, 3].map(() => sentinels.slice());
          const [w, y, z, g] = ds.map(view);
          for (let i = 0; i < n; i++) { y!.set(i, pairs[i]![1]); z!.set(i, pairs[i]![0]); g!.set(i, (i % 5) - 2); }
          const o = (backend === 'gpu' ? { backend: 'gpu', arithmetic, strict: true } : { arithmetic }) as never;
          await waxpby(alpha, x, -0.5, yv, w!, o);
          await axpy(alpha, x, y!, o);
          await scal(alpha, z!, o);
          await gemv({ alpha: 1, A, x: ax, beta: 2, y: g! }, o);
          return ds;
        };
        // As in user-format.test.ts: a zero's sign (the GPU's update sums from +0) and a NaN's (IEEE leaves it open) may differ.
        const isNaNByte = (b: number): boolean => (b & 0x7c) === 0x7c && (b & 3) !== 0;
        const unsigned = (d: Uint8Array) => d.map((b) => (b === 0x80 ? 0 : isNaNByte(b) ? b & 0x7f : b));
        const cpu = await run('cpu');
        const [enc, dec] = [encodeCalls, decodeCalls];
        const gpu = await run('gpu');
        // Nothing went through the part's codecs: the outputs never came back as values.
        expect([encodeCalls, decodeCalls]).toEqual([enc, dec]);
        for (let k = 0; k < 3; k++) expect(unsigned(gpu[k]!)).toEqual(unsigned(cpu[k]!));
        expect(gpu[3]).toEqual(cpu[3]);
      }), { numRuns: 25 });
  });

  it('a declaration that does not hold is INVALID_FORMAT naming the operand', async () => {
    await requireRuntime();
    // Bytes in the wrong order within a word: its decode of the CPU's bytes gives other values.
    const swapped = e5m2Format('e5m2-bytes-swapped', e5m2Part('e5m2-bytes-swapped', (k) => (3 - (k & 3)) << 3));
    // A 16-bit typed array under a part of 8-bit elements.
    const wide = e5m2Format('e5m2-bytes-wide', e5m2Part('e5m2-bytes-wide'), Uint16Array);
    for (const f of [swapped, wide]) {
      const x = range(rowMajor<1>({ size: [8], storage: f, arithmetic: 'f32' }));
      const y = vector(8, { storage: formats.f32 });
      await expect(Promise.resolve().then(() => dot(y, x, { backend: 'gpu', strict: true }))).rejects.toMatchObject({ code: 'INVALID_FORMAT', parameter: 'y' });
    }
  });
});
