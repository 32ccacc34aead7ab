/**
 * `mpQuantizeDd` (src/backends/webgpu/quantize-dd-scale.ts), the device's rounding of a dd pair by an fp64 scale into
 * i8/i16, checked against an exact BigInt oracle: its source is run as JavaScript (its operations are i32 bit
 * operations, whose results JavaScript gives bit for bit; mpI32 and mpClz as the WGSL translation maps them), so
 * that many cases — exact ties with and without a tail far below, subnormal values and scales, quotients at the
 * saturation edge, ±0/±∞/NaN — run without compiling a shader. test/gpu/dd-scaled-outputs.test.ts runs the compiled
 * helper against the CPU's scaled store.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { QUANTIZE_DD_HELPERS } from '../../src/backends/webgpu/quantize-dd-scale.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, divRational } from '../../src/testing/rational.js';

const quantizeDd = new Function('mpI32', 'mpClz', `${QUANTIZE_DD_HELPERS.map((h) => h.source).join('\n')}; return mpQuantizeDd;`)(
  (x: number) => x | 0, Math.clz32) as (...words: number[]) => number;

/** A double's IEEE words, low first, as i32. */
function words(x: number): [number, number] {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x, true);
  return [v.getInt32(0, true), v.getInt32(4, true)];
}

/** The exact (hi + lo)/s to the nearest integer, ties to even, clamped to ±qmax; the IEEE quotient's store otherwise. */
function oracle(hi: number, lo: number, s: number, qmax: number): number {
  if (Number.isNaN(hi) || Number.isNaN(s) || !Number.isFinite(s) || hi === 0) return 0; // NaN, ±0 quotients store 0
  const negative = (hi < 0) !== (s < 0 || Object.is(s, -0));
  if (!Number.isFinite(hi) || s === 0) return negative ? -qmax : qmax;
  const q = divRational(addRational(exactOf(hi), exactOf(lo)), exactOf(s));
  const num = q.num < 0n ? -q.num : q.num;
  const floor = num / q.den, twice = 2n * (num - floor * q.den);
  const n = twice > q.den || (twice === q.den && (floor & 1n) === 1n) ? floor + 1n : floor;
  const clamped = n > BigInt(qmax) ? qmax : Number(n);
  return negative ? -clamped + 0 : clamped; // a zero quotient stores +0
}

/** The normalised pair nearest a + b (|lo| ≤ ulp(hi)/2); (hi, 0) when hi is not finite. */
function pairOf(a: number, b: number): [number, number] {
  const hi = a + b;
  if (!Number.isFinite(hi)) return [hi, 0];
  const bv = hi - a;
  return [hi, (a - (hi - bv)) + (b - bv)];
}

const run = (hi: number, lo: number, s: number, qmax: number): number => quantizeDd(...words(hi), ...words(lo), ...words(s), qmax) + 0;

describe('mpQuantizeDd', () => {
  it('rounds the exact (hi + lo)/s once to the nearest integer, ties to even, saturated (any pair, any fp64 scale)', () => {
    const scale = fc.oneof(fc.double(), fc.constantFrom(0.1, 1 / 3, -3, 2 ** -1000, 2 ** 1000, 5e-324, 3 * 2 ** -1074, 2 ** -1022, 0, -0, Infinity, -Infinity, NaN));
    // Multiples of ½ times the scale are the ties (exact when the product is); the tail moves them by a little.
    const multiple = fc.oneof(fc.integer({ min: -70000, max: 70000 }).map((k) => k / 2), fc.double({ noNaN: true, min: -1e6, max: 1e6 }));
    const tail = fc.oneof(fc.constant(0), fc.constantFrom(1e-300, -1e-300, 5e-324, -5e-324), fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => x * 2 ** -60));
    fc.assert(fc.property(fc.oneof(fc.double(), multiple), tail, scale, fc.boolean(), fc.constantFrom(128, 32768), (m, t, s, times, qmax) => {
      const a = times && Number.isFinite(s) ? m * s : m;
      const [hi, lo0] = pairOf(a, Number.isFinite(a) ? t * Math.abs(a) : 0);
      const lo = Math.abs(lo0) <= Math.abs(hi) * 2 ** -53 ? lo0 : 0; // keep the pair normalised (tiny hi: no tail)
      expect(run(hi, lo, s, qmax), `${hi} + ${lo} over ${s}`).toBe(oracle(hi, lo, s, qmax));
    }), { numRuns: 20000 });
  });

  it('breaks exact ties to even and by the sign of a tail 2^-1074 far below', () => {
    for (const s of [0.1, 1 / 3, 3, -7, 2 ** -1000, 2 ** 1000 / 3, 5e-324, 7 * 2 ** -1074]) {
      for (const k of [0.5, 1.5, 2.5, -2.5, 127.5, -128.5, 32766.5, 32767.5, 0.25, 0.75]) {
        const hi = k * s;
        if (hi / s !== k) continue; // the product rounded: no tie
        for (const lo of [0, 5e-324, -5e-324, 1e-300, -1e-300]) {
          if (Math.abs(lo) > Math.abs(hi) * 2 ** -53) continue;
          for (const qmax of [128, 32768]) expect(run(hi, lo, s, qmax), `${hi} + ${lo} over ${s}`).toBe(oracle(hi, lo, s, qmax));
        }
      }
    }
  });
});
