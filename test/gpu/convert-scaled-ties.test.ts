/**
 * Scaled-integer writes round once (issue #15): the integer stored for a value v under block scale s is the
 * exact v/s rounded to the nearest integer, ties to even — on the device (`gpuConvert`, float-float and binary32
 * sources) and in the host encoder behind `toDevice` — checked over near-ties (values within a few ulps of
 * (k + ½)·s, exact ties of both parities) against a BigInt oracle and, bit for bit, against the CPU's write.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestIntegerOfQuotient } from '../../src/formats/convert/scaled-integer.js';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { DeviceArray, toDevice } from '../../src/backends/webgpu/device-array.js';
import { GPU_FORMATS } from '../../src/backends/webgpu/formats.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** Every double is an integer multiple of 2^-1074: x·2^1074 as a BigInt. */
function bigOf(x: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const m = biased === 0 ? bits & 0xfffffffffffffn : (bits & 0xfffffffffffffn) | (1n << 52n);
  const mag = m << BigInt(Math.max(0, biased - 1));
  return bits >> 63n ? -mag : mag;
}

/** Oracle: (hi + lo)/s rounded to the nearest integer, ties to even, clamped to ±qmax — exactly. */
function oracle(hi: number, lo: number, s: number, qmax: number): number {
  let num = bigOf(hi) + bigOf(lo);
  const den = bigOf(s);
  const negative = num < 0n;
  if (negative) num = -num;
  let n = num / den;
  const twice = 2n * (num - n * den);
  if (twice > den || (twice === den && (n & 1n) === 1n)) n += 1n;
  const q = Math.min(qmax, Number(n));
  return negative && q !== 0 ? -q : q;
}

/** The CPU's scaled-integer write of hi + lo under scale s, clamped as the storage does. */
function cpuWrite(hi: number, lo: number, s: number, qmax: number): number {
  const q = Math.max(-qmax, Math.min(qmax, nearestIntegerOfQuotient(hi, lo, s)));
  return q === 0 ? 0 : q;
}

/** The integers of scaled words (lane by lane, sign-extended). */
function integersOf(words: Uint32Array, length: number, bits: number): number[] {
  const perWord = 32 / bits;
  return Array.from({ length }, (_, k) => (words[Math.floor(k / perWord)]! << (32 - bits - (k % perWord) * bits)) >> (32 - bits));
}

/** The double j steps (of one ulp) away from x > 0 or x < 0. */
function doublesAway(x: number, j: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + BigInt(j));
  return view.getFloat64(0);
}

const QMAX = { i8: 127, i16: 32767 } as const;
const BITS = { i8: 8, i16: 16 } as const;

/** A near-tie: (k + ½)·s moved by j·2^-e of itself (j = 0: the exact tie), as a double. */
const nearTie = fc.record({
  k: fc.integer({ min: -40000, max: 40000 }),
  j: fc.integer({ min: -4, max: 4 }),
  e: fc.integer({ min: 18, max: 62 }),
});

describe('scaled-integer writes round once (near-ties against a BigInt oracle and the CPU write)', () => {
  for (const target of ['i8', 'i16'] as const) {
    const qmax = QMAX[target];
    it(`gpuConvert → ${target} from float-float and binary32 sources`, async () => {
      const rt = await requireRuntime();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('ff', 'f32'),
          fc.float({ min: 1, max: Math.fround(2 - 2 ** -23), noNaN: true }),
          fc.integer({ min: -105, max: 127 }), // scales from ~2^-120 to ~2^121
          fc.array(nearTie, { minLength: 1, maxLength: 120 }),
          async (source, mantissa, exponent, ties) => {
            // The block's maximum comes first; the scale is the host encoder's, which the device must reproduce.
            const max = Math.fround(mantissa * 2 ** exponent);
            const s = GPU_FORMATS[target].encode([max], 'x', 1).scales![0]!;
            const pairs: [number, number][] = [[max, 0]];
            for (const { k, j, e } of ties) {
              const kk = (((k % (2 * qmax - 4)) + 2 * qmax - 4) % (2 * qmax - 4)) - (qmax - 2); // |k + ½| ≤ qmax − 2.5: below the block maximum
              const tie = (kk + 0.5) * s; // exact: 17 × 24 bits
              const x = tie + j * 2 ** -e * tie;
              const hi = Math.fround(x);
              const lo = Math.fround(x - hi); // a normal tail (a subnormal one reads as 0 on the CPU)
              pairs.push([hi, source === 'ff' && Math.abs(lo) >= 2 ** -126 ? lo : 0]);
            }
            const words = new Float32Array(pairs.flat());
            const x = source === 'ff'
              ? new DeviceArray(rt, GPU_FORMATS.ff, pairs.length, 256, { words: new Uint32Array(words.buffer) }, '')
              : await toDevice(pairs.map(([hi]) => hi), { format: 'f32' });
            const { array } = await gpuConvert(x, target, { scaleBlock: pairs.length });
            const got = await array.encoded();
            expect(got.scales![0]).toBe(s);
            const integers = integersOf(got.words, pairs.length, BITS[target]);
            pairs.forEach(([hi, lo], i) => {
              const want = oracle(hi, lo, s, qmax);
              expect(integers[i], `${hi} + ${lo} over ${s}`).toBe(want);
              expect(cpuWrite(hi, lo, s, qmax)).toBe(want);
            });
            x.destroy();
            array.destroy();
          },
        ),
        { numRuns: 25 },
      );
    });

    it(`toDevice(…, { format: '${target}' }) (the host encoder) from doubles`, async () => {
      await requireRuntime();
      await fc.assert(
        fc.asyncProperty(fc.double({ min: 1, max: 2 - 2 ** -20, noNaN: true }), fc.integer({ min: -105, max: 127 }), fc.array(nearTie, { minLength: 1, maxLength: 60 }), async (mantissa, exponent, ties) => {
          const max = mantissa * 2 ** exponent;
          const s = GPU_FORMATS[target].encode([max], 'x', 1).scales![0]!;
          const values = [max];
          for (const { k, j, e } of ties) {
            const kk = (((k % (2 * qmax - 4)) + 2 * qmax - 4) % (2 * qmax - 4)) - (qmax - 2);
            const tie = (kk + 0.5) * s;
            // j doubles away from the tie (even e), or j·2^-(e+10) of it: down to 2^-72, below a double's ulp too.
            values.push(e % 2 === 0 ? doublesAway(tie, j) : tie + j * 2 ** -(e + 10) * tie);
          }
          const x = await toDevice(values, { format: target, scaleBlock: values.length });
          const got = await x.encoded();
          expect(got.scales![0]).toBe(s);
          const integers = integersOf(got.words, values.length, BITS[target]);
          values.forEach((v, i) => {
            expect(integers[i], `${v} over ${s}`).toBe(oracle(v, 0, s, qmax));
            expect(cpuWrite(v, 0, s, qmax)).toBe(integers[i]);
          });
          x.destroy();
        }),
        { numRuns: 25 },
      );
    });
  }

  it('exact ties go to the even integer on the device, both signs, with a tail of either sign breaking them', async () => {
    const rt = await requireRuntime();
    const s = GPU_FORMATS.i8.encode([127], 'x', 1).scales![0]!; // 1
    const pairs: [number, number][] = [[127, 0], [0.5, 0], [1.5, 0], [2.5, 0], [-0.5, 0], [-1.5, 0], [-2.5, 0], [0.5, 2 ** -40], [0.5, -(2 ** -40)], [2.5, -(2 ** -30)], [-2.5, 2 ** -30], [126.5, 0], [-126.5, 0], [0.25, 0], [0.5, 2 ** -120]];
    const x = new DeviceArray(rt, GPU_FORMATS.ff, pairs.length, 256, { words: new Uint32Array(new Float32Array(pairs.flat()).buffer) }, '');
    const got = await (await gpuConvert(x, 'i8', { scaleBlock: pairs.length })).array.encoded();
    expect(s).toBe(1);
    expect(integersOf(got.words, pairs.length, 8)).toEqual([127, 0, 2, 2, 0, -2, -2, 1, 0, 2, -2, 126, -126, 0, 1]);
    x.destroy();
  });
});
