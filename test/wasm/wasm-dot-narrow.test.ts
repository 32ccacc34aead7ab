/**
 * The narrow-pair DOT chunks (kernels/dot/dot-narrow-wasm.ts): their fp16 and bf16 decoders against the formats'
 * own decode for every one of the 65536 bit patterns in every lane position (NaN, ±Inf, ±0, subnormals included),
 * through both product paths (two fp16 multiplied in binary32, a mixed pair in binary64); the public DOT bit for
 * bit the documented lane order for pairs of fp16, bf16 (scaled or not) and i8 across chunk boundaries, strides
 * and sub-ranges; i8·i8 exact (its integer sums).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, formats, range, scaledReducedRowMajor, span, vector, type Range } from '../../src/index.js';
import { NARROW_16_LANES, narrowDotChunk } from '../../kernels/dot/dot-narrow-wasm.js';
import { CHUNK, wasmStorageNamed, type WasmStorage } from '../../src/backends/wasm/wasm-storage.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { exactDotOf, exactVector } from '../kernels/matrix-kernel-fixtures.js';
import { laneOrderDot, readValues } from './wasm-dot-oracles.js';


const X_AT = 64, Y_AT = X_AT + 2 * 65536 + 64, SCRATCH = Y_AT + 64;

describe('narrow-pair DOT decoders: every bit pattern in every lane', () => {
  for (const [xName, yName] of [['f16', 'f16'], ['f16', 'bf16'], ['bf16', 'bf16'], ['bf16', 'f16']] as const) {
    it(`${xName} · ${yName} (one): each partial sum is the exact decode of its element`, () => {
      const f = narrowDotChunk(wasmStorageNamed(xName)!, false, wasmStorageNamed(yName)!, false, SCRATCH)!;
      reserveBytes(SCRATCH + 96);
      const buffer = wasmMemory().buffer as ArrayBuffer;
      const acc = new Float64Array(buffer, 0, 8);
      const x = new Uint16Array(buffer, X_AT, 65536);
      new Uint16Array(buffer, Y_AT, 8).fill(yName === 'f16' ? 0x3c00 : 0x3f80);
      const decode = (bits: number): number => formats[xName].storage.decode(new Uint16Array([bits]) as never, 0) as number;
      for (let rotation = 0; rotation < 8; rotation++) {
        for (let i = 0; i < 65536; i++) x[i] = (i + rotation) & 0xffff;
        for (let step = 0; step < 8192; step++) {
          acc.fill(-0); // −0 + v is v for every v, −0 included
          f(X_AT + 16 * step, 1, Y_AT, 1, 8);
          for (let lane = 0; lane < 8; lane++) {
            const bits = (8 * step + lane + rotation) & 0xffff;
            const got = acc[NARROW_16_LANES[lane]!];
            if (!Object.is(got, decode(bits))) throw new Error(`pattern 0x${bits.toString(16)} in lane ${lane}: ${got} ≠ ${decode(bits)}`);
          }
        }
      }
    });
  }
});

/** A vector of `storage` with stride and sub-range, optionally scaled (one scale for the vector). */
function narrowVector(storage: 'f16' | 'bf16' | 'i8', values: readonly number[], stride: number, sub: boolean, scale: number | null): Range<1, any> {
  const n = values.length, N = sub ? n + 3 : n;
  const common = { size: [N] as const, storage: formats[storage], arithmetic: formats.f64, stride };
  if (scale === null || N === 0) {
    const parent = vector(new Array<number>(N).fill(storage === 'i8' ? 7 : 0.5), common);
    const view = sub ? parent.accessor.sub(span(1, 1 + n)) : parent.accessor;
    values.forEach((v, i) => view.set(i, v));
    return range(view as never) as Range<1, any>;
  }
  const parent = scaledReducedRowMajor<1>({ ...common, scaleMask: [false] });
  parent.writeScale(0, scale);
  const view = sub ? parent.sub(span(1, 1 + n)) : parent;
  values.forEach((v, i) => view.set(i, v));
  return range(view) as Range<1, any>;
}

describe('narrow-pair DOT through the public API', () => {
  const spec = fc.record({
    stride: fc.constantFrom(1, 2, -3), sub: fc.boolean(), scale: fc.option(fc.constantFrom(0.75, 3, 2 ** -20), { nil: null }),
  });
  const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 2 ** -24, -(2 ** -133), 65504, 3e38, 1e-40);

  it('fp16 and bf16 pairs, scaled or not: bit for bit the lane order, specials included', () => {
    const input = fc.integer({ min: 0, max: 90 }).chain((n) => fc.record({
      xs: fc.constantFrom('f16', 'bf16'), ys: fc.constantFrom('f16', 'bf16'), a: spec, b: spec,
      x: fc.array(fc.oneof({ weight: 8, arbitrary: fc.double({ min: -300, max: 300, noNaN: true }) }, special), { minLength: n, maxLength: n }),
      y: fc.array(fc.oneof({ weight: 8, arbitrary: fc.double({ min: -300, max: 300, noNaN: true }) }, special), { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ xs, ys, a, b, x, y }) => {
      const xv = narrowVector(xs, x, a.stride, a.sub, a.scale), yv = narrowVector(ys, y, b.stride, b.sub, b.scale);
      expect(Object.is(dot(xv, yv, { backend: 'wasm' }), laneOrderDot(readValues(xv), readValues(yv)))).toBe(true);
    }), { numRuns: 300 });
  });

  it('crosses chunk boundaries in the same order (fp16·fp16, bf16·fp16, n around multiples of the chunk)', () => {
    const chunk = CHUNK * 4; // 16-bit elements per staged chunk
    for (const n of [chunk - 1, chunk, chunk + 9, 2 * chunk + 13]) {
      for (const [xs, ys, stride] of [['f16', 'f16', 1], ['bf16', 'f16', -3]] as const) {
        const x = narrowVector(xs, Array.from({ length: n }, (_, i) => Math.sin(i) * 100), stride, true, null);
        const y = narrowVector(ys, Array.from({ length: n }, (_, i) => Math.cos(i * 0.37)), 1, false, null);
        expect(Object.is(dot(x, y, { backend: 'wasm' }), laneOrderDot(readValues(x), readValues(y)))).toBe(true);
      }
    }
  });

  it('i8·i8 is exact (integer sums), across chunk boundaries, strides and sub-ranges', () => {
    // Pseudo-random integers of the whole i8 range, every fifth element an extreme (−128 or 127).
    const int = (i: number, k: number, seed: number): number => (i % 5 === 0 ? (((i + k) & 1) === 0 ? -128 : 127) : ((Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(seed, k)) >>> 24) - 128);
    const check = (n: number, a: { stride: number; sub: boolean }, b: { stride: number; sub: boolean }, seed: number): void => {
      const x = narrowVector('i8', Array.from({ length: n }, (_, i) => int(i, 1, seed)), a.stride, a.sub, null);
      const y = narrowVector('i8', Array.from({ length: n }, (_, i) => int(i, 2, seed)), b.stride, b.sub, null);
      const got = dot(x, y, { backend: 'wasm' });
      const exact = exactDotOf(exactVector(x), exactVector(y));
      expect(exact.den).toBe(1n);
      expect(BigInt(got)).toBe(exact.num);
      expect(Object.is(got, laneOrderDot(readValues(x), readValues(y)))).toBe(true);
    };
    fc.assert(fc.property(fc.integer({ min: 0, max: 70 }), spec, spec, fc.integer(), check), { numRuns: 100 });
    const chunk = CHUNK * 8; // i8 elements per staged chunk
    for (const n of [chunk - 1, chunk + 17]) check(n, { stride: -3, sub: true }, { stride: 1, sub: false }, n);
  });
});

/** The storages the chunks are built for (a guard: the narrow path must not take a pair it does not handle). */
it('takes only unscaled i8 pairs and fp16/bf16 pairs', () => {
  const s = (name: string): WasmStorage => wasmStorageNamed(name)!;
  expect(narrowDotChunk(s('i8'), true, s('i8'), false, SCRATCH)).toBeNull();
  expect(narrowDotChunk(s('f16'), false, s('f64'), false, SCRATCH)).toBeNull();
  expect(narrowDotChunk(s('i16'), false, s('i16'), false, SCRATCH)).toBeNull();
  expect(narrowDotChunk(s('bf16'), true, s('f16'), false, SCRATCH)).not.toBeNull();
});
