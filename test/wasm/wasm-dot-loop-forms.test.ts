/**
 * Session 24's candidate DOT forms (src/backends/wasm/wasm-kernel-forms.ts), each the same operations in the same
 * order as the default form, so the same bits:
 * - `dotPointerLoop`: the general chunk looping on x's pointer, two steps an iteration — every storage pair, scaled
 *   or not, staged and in place, odd and even step counts: the documented lane order in fp64 arithmetic, and the
 *   default form's bits in fp32 arithmetic and in GEMV, whose row dots take the same chunk;
 * - `halfDotScaledSums` (fp16·fp16: x times 2^127, y's bits as they are, sums kept times 2^-97): every product of an
 *   fp16 at either end of the range (subnormals, the largest finite) with every fp16 pattern, each alone in its lane;
 * - `halfDotPairs` (lean bf16: two steps an iteration): lengths with odd and even step counts per check block.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, formats, gemv, matrix, scaledReducedRowMajor, range, vector, wasmArena, type Range } from '../../src/index.js';
import { setWasmKernelForms, type WasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { NARROW_16_LANES, checkedNarrowDotChunk } from '../../kernels/dot/dot-narrow-wasm.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { wasmStorageNamed } from '../../src/backends/wasm/wasm-storage.js';
import { laneOrderDot, readValues } from './wasm-dot-oracles.js';

const STORAGES = ['f64', 'f32', 'bf16', 'f16', 'i16', 'i8'] as const;
type StorageName = (typeof STORAGES)[number];

/** `f` run with `forms`, the previous forms restored after it. */
function withForms<T>(forms: Partial<WasmKernelForms>, f: () => T): T {
  const previous = setWasmKernelForms(forms);
  try { return f(); } finally { setWasmKernelForms(previous); }
}

/** A vector of `n` elements in `storage` (integers for i8, i16; one scale where `scale` is given), in `arena` if any. */
function makeVector(storage: StorageName, n: number, value: (i: number) => number, scale: number | null, arena: ReturnType<typeof wasmArena> | null): Range<1, any> {
  const integer = storage === 'i8' || storage === 'i16';
  const v = (i: number): number => (integer ? Math.round(value(i) * 40) : value(i));
  // (an empty vector has no scale entry to write)
  if (scale !== null && n > 0) {
    const r = range(scaledReducedRowMajor<1>({ size: [n], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false], ...(arena ? { memory: arena } : {}) }));
    r.accessor.writeScale!(0, scale);
    for (let i = 0; i < n; i++) r.set(i, v(i) * scale);
    return r;
  }
  const r = vector(n, { storage: formats[storage], arithmetic: formats.f64, ...(arena ? { memory: arena } : {}) });
  for (let i = 0; i < n; i++) r.set(i, v(i));
  return r;
}

describe('dotPointerLoop: the general DOT chunk on its pointer loop', () => {
  it('fp64 arithmetic: bit for bit the lane order, every storage pair, scaled or not, staged and in place', () => {
    const input = fc.record({
      xs: fc.constantFrom(...STORAGES), ys: fc.constantFrom(...STORAGES), n: fc.integer({ min: 0, max: 2600 }),
      scaleX: fc.constantFrom(null, 0.375, 3), scaleY: fc.constantFrom(null, 0.375, 3), inArena: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    fc.assert(fc.property(input, ({ xs, ys, n, scaleX, scaleY, inArena, seed }) => {
      const arena = inArena ? wasmArena(20 * n + 4096) : null;
      try {
        const x = makeVector(xs, n, (i) => Math.sin(seed + i) * 3, xs === 'i8' || xs === 'i16' ? scaleX : null, arena);
        const y = makeVector(ys, n, (i) => Math.sin(seed + 7919 + i) * 3, ys === 'i8' || ys === 'i16' ? scaleY : null, arena);
        const got = withForms({ dotPointerLoop: true, halfDotChecked: false }, () => dot(x, y, { backend: 'wasm' }));
        expect(Object.is(got, laneOrderDot(readValues(x), readValues(y)))).toBe(true);
      } finally { arena?.release(); }
    }), { numRuns: 150 });
  });

  it('fp32 arithmetic and GEMV: the default form\'s bits', () => {
    const input = fc.record({ s: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const), n: fc.integer({ min: 0, max: 300 }), m: fc.integer({ min: 1, max: 9 }), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    fc.assert(fc.property(input, ({ s, n, m, seed }) => {
      const x = makeVector(s, n, (i) => Math.sin(seed + i) * 3, null, null), y = makeVector(s, n, (i) => Math.cos(seed + i) * 3, null, null);
      const f32 = (): number => dot(x, y, { backend: 'wasm', arithmetic: formats.f32 });
      expect(Object.is(withForms({ dotPointerLoop: true }, f32), withForms({ dotPointerLoop: false }, f32))).toBe(true);
      const A = matrix(m, n, (r, c) => Math.sin(seed * 3 + r * 31 + c), { storage: formats[s], arithmetic: formats.f64, layout: 'row-major' });
      const out = (pointer: boolean): number[] => withForms({ dotPointerLoop: pointer }, () => {
        const z = vector(m, { storage: formats.f64, arithmetic: formats.f64 });
        gemv({ alpha: 1, A, x, beta: 0, y: z }, { backend: 'wasm' });
        return Array.from({ length: m }, (_, r) => z.get(r));
      });
      const [on, off] = [out(true), out(false)];
      expect(on.every((v, r) => Object.is(v, off[r]))).toBe(true);
    }), { numRuns: 60 });
  });
});

// Operands of the direct chunk calls: 16 bytes of gap before each (the lean fp16 chunk reads the 2 bytes before).
const X_AT = 128, Y_AT = X_AT + 2 * 65536 + 16, SCRATCH = Y_AT + 2 * 65536 + 16;

describe('halfDotScaledSums: fp16 products as xy·2^-97 in binary32', () => {
  it('every pattern against the ends of the range, each product alone in its lane, both operand orders', () => {
    const f16 = wasmStorageNamed('f16')!;
    const decode = (bits: number): number => formats.f16.storage.decode(new Uint16Array([bits]) as never, 0) as number;
    // Smallest and largest subnormals, smallest normal, one, the largest finite; both signs; zeros.
    const ends = [0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x3c00, 0x7bff, 0xfbff, 0x0000, 0x8000];
    for (const lean of [true, false]) {
      const f = checkedNarrowDotChunk(f16, false, f16, false, SCRATCH, lean, 0, false, true)!;
      reserveBytes(SCRATCH + 96);
      const buffer = wasmMemory().buffer as ArrayBuffer;
      const x = new Uint16Array(buffer, X_AT, 65536), y = new Uint16Array(buffer, Y_AT, 65536), acc = new Float64Array(buffer, 0, 8);
      for (const end of ends) {
        for (const endInX of [true, false]) {
          for (let base = 0; base < 65536; base += 8) {
            for (let k = 0; k < 8; k++) { (endInX ? x : y)[k] = end; (endInX ? y : x)[k] = base + k; }
            acc.fill(0);
            const done = f(X_AT, 1, Y_AT, 1, 8);
            // Inf and NaN (exponent 31) are declined: the exact chunk takes them.
            const finite = Array.from({ length: 8 }, (_, k) => (((base + k) >> 10) & 31) !== 31).every(Boolean) && ((end >> 10) & 31) !== 31;
            if (done !== (finite ? 8 : 0)) throw new Error(`0x${end.toString(16)} with 0x${base.toString(16)}…: done ${done}`);
            if (!finite) continue;
            for (let lane = 0; lane < 8; lane++) {
              const want = 0 + decode(x[lane]!) * decode(y[lane]!);
              if (!Object.is(acc[NARROW_16_LANES[lane]!], want)) throw new Error(`0x${x[lane]!.toString(16)} · 0x${y[lane]!.toString(16)}: ${acc[NARROW_16_LANES[lane]!]} ≠ ${want}`);
            }
          }
        }
      }
    }
  });

  it('through the public API: the lane order, tiny and huge elements mixed, across check blocks', () => {
    const input = fc.record({ n: fc.integer({ min: 0, max: 1700 }), seed: fc.integer({ min: 1, max: 2 ** 30 }), inArena: fc.boolean(), lean: fc.boolean(), pairs: fc.boolean() });
    fc.assert(fc.property(input, ({ n, seed, inArena, lean, pairs }) => {
      const arena = inArena ? wasmArena(4 * n + 4096) : null;
      try {
        // magnitudes from 2^-24 (subnormal) to 2^15
        const value = (i: number, k: number): number => Math.sin(seed + k * 7919 + i) * 2 ** Math.round(Math.cos(seed + i * k) * 19 - 4);
        const x = makeVector('f16', n, (i) => value(i, 1), null, arena), y = makeVector('f16', n, (i) => value(i, 2), null, arena);
        const got = withForms({ halfDotScaledSums: true, halfDotLean: lean, halfDotPairs: pairs }, () => dot(x, y, { backend: 'wasm' }));
        expect(Object.is(got, laneOrderDot(readValues(x), readValues(y)))).toBe(true);
      } finally { arena?.release(); }
    }), { numRuns: 120 });
  });
});

describe('halfDotPairs: the lean bf16 chunk two steps an iteration', () => {
  it('the lane order for lengths with odd and even step counts, zeros declining blocks here and there', () => {
    const input = fc.record({
      n: fc.integer({ min: 0, max: 2100 }), seed: fc.integer({ min: 1, max: 2 ** 30 }), inArena: fc.boolean(),
      zeros: fc.array(fc.nat(), { maxLength: 2 }), promote: fc.constantFrom('shuffle' as const, 'memory' as const),
    });
    fc.assert(fc.property(input, ({ n, seed, inArena, zeros, promote }) => {
      const arena = inArena ? wasmArena(4 * n + 4096) : null;
      try {
        const x = makeVector('bf16', n, (i) => Math.sin(seed + i) * 3, null, arena), y = makeVector('bf16', n, (i) => Math.cos(seed + i) * 3, null, arena);
        for (const z of zeros) if (n > 0) x.set(z % n, 0);
        const got = withForms({ halfDotPairs: true, halfDotPromote: promote }, () => dot(x, y, { backend: 'wasm' }));
        expect(Object.is(got, laneOrderDot(readValues(x), readValues(y)))).toBe(true);
      } finally { arena?.release(); }
    }), { numRuns: 150 });
  });
});
