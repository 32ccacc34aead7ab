/**
 * DOT's `into` with backend 'gpu' is written on the device where its storage has a writable GPU part (f64, f32, f16,
 * bf16 — as a view of its span, neighbours untouched) and by the CPU's scaled store for a scaled range: the result
 * is rounded once to the storage, as the CPU kernel's into write. With integer data the dot product is exact on both
 * backends, so the stored bits must be the CPU's; data whose sum needs the float-float low word checks that the
 * rounding starts from the pair, not from its head.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, formats, range, rowMajor, scaledReducedRowMajor, vector, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const STORAGES = ['f64', 'f32', 'f16', 'bf16'] as const;

/** A one-element `into` at element 2 of a 5-element sentinel-filled range (stride 2), or a scaled one. */
function intoOf(kind: string, arithmetic: typeof formats.f32, data: ArrayLike<number> & ArrayBufferView, scale?: Float64Array): Range<1, any> {
  if (kind === 'i16' || kind === 'i8') {
    return range(scaledReducedRowMajor<1>({ size: [1], storage: (formats as any)[kind], arithmetic, scaleMask: [true], scale, data, offset: 2 }));
  }
  return range(rowMajor<1>({ size: [1], storage: (formats as any)[kind], arithmetic, data, offset: 2, stride: 2 }));
}

function sentinels(kind: string): ArrayLike<number> & ArrayBufferView {
  const st = (formats as any)[kind];
  const data = (st.storage ?? st).allocate(5);
  new Uint8Array(data.buffer).forEach((_, k, a) => { a[k] = (k * 29 + 3) & 255; });
  return data;
}

function bits(d: ArrayBufferView): number[] {
  return Array.from(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
}

describe("dot's into with backend 'gpu'", () => {
  it('integer data: the stored bits (sentinels around included) equal the CPU run, every storage and arithmetic', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: -300, max: 300 }), fc.integer({ min: -300, max: 300 })), { minLength: 1, maxLength: 100 }), // |Σ| < 2^24·2^-3: exact in f32
      fc.constantFrom(...STORAGES, 'i16', 'i8'), fc.constantFrom(0, 1), fc.double({ min: 2 ** -8, max: 2 ** 12, noNaN: true }),
      async (pairs, kind, ai, s) => {
        const arithmetic = [formats.f32, formats.ff][ai]!;
        const x = vector(pairs.map((p) => p[0] / 8), { storage: formats.f32 });
        const y = vector(pairs.map((p) => p[1]), { storage: formats.f32 });
        const data = sentinels(kind);
        const run = async (backend: 'cpu' | 'gpu') => {
          const d = data.slice() as typeof data;
          const into = intoOf(kind, arithmetic, d, new Float64Array([s]));
          const r = backend === 'gpu' ? await dot(x, y, { backend, arithmetic, into, strict: true }) : dot(x, y, { arithmetic, into });
          return [bits(d), typeof r === 'number' ? r : r.value];
        };
        expect(await run('gpu')).toEqual(await run('cpu'));
      }), { numRuns: 40 });
  });

  it('rounds the float-float pair once: 1 + 2^-30 − 2^-40 into f32 / f16 / scaled i16 as the CPU', async () => {
    await requireRuntime();
    // hi = 1, lo = 2^-30 − 2^-40 in float-float: f32 keeps 1; a scale of 2^-40 makes the integer see the low word.
    const x = vector([1, 2 ** -30, -(2 ** -40)], { storage: formats.f32 }), y = vector([1, 1, 1], { storage: formats.f32 });
    for (const kind of ['f32', 'f16', 'i16'] as const) {
      const run = async (backend: 'cpu' | 'gpu') => {
        const d = sentinels(kind);
        const into = intoOf(kind, formats.ff, d, new Float64Array([2 ** -16]));
        if (backend === 'gpu') await dot(x, y, { backend, arithmetic: formats.ff, into, strict: true }); else dot(x, y, { arithmetic: formats.ff, into });
        return bits(d);
      };
      expect(await run('gpu'), kind).toEqual(await run('cpu'));
    }
  });
});
