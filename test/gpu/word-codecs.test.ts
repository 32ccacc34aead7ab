/**
 * Decoding and encoding of 32-bit words on the GPU against the core's CPU conversions: every binary16
 * and bfloat16 bit pattern, binary32 → 16-bit rounding (ties, subnormals, overflow, NaN), float-float →
 * 16-bit rounding (round to odd, then to nearest), and IEEE double words → float-float.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberFromBf16Bits, bf16BitsFromNumber } from '../../src/formats/convert/bf16.js';
import { f16BitsFromNumber, numberFromF16Bits } from '../../src/formats/convert/f16.js';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { DeviceArray, toDevice } from '../../src/backends/webgpu/device-array.js';
import { GPU_FORMATS } from '../../src/backends/webgpu/formats.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** Uploads raw words as an array of `format`. */
function fromWords(rt: Awaited<ReturnType<typeof requireRuntime>>, format: 'f16' | 'bf16', words: Uint32Array, length: number): DeviceArray {
  return new DeviceArray(rt, GPU_FORMATS[format], length, 256, { words }, '');
}

function sameValue(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}

describe('GPU word decoding', () => {
  for (const format of ['f16', 'bf16'] as const) {
    it(`decodes all 65536 ${format} patterns exactly as the CPU does`, async () => {
      const rt = await requireRuntime();
      const words = new Uint32Array(32768);
      for (let k = 0; k < 65536; k++) words[k >> 1]! |= k << ((k & 1) << 4);
      const x = fromWords(rt, format, words, 65536);
      const { array } = await gpuConvert(x, 'f32');
      const got = await array.toHost();
      const decode = format === 'f16' ? numberFromF16Bits : numberFromBf16Bits;
      let bad = 0;
      for (let k = 0; k < 65536; k++) if (!sameValue(got[k]!, decode(k))) bad++;
      expect(bad).toBe(0);
    });
  }

  it('decodes IEEE double words to float-float within 2^-47 relative (hi rounded to nearest), special values exactly', async () => {
    await requireRuntime();
    const special = [0, -0, Infinity, -Infinity, NaN, 2 ** -102, -(2 ** -102), 2 ** 127 * (2 - 2 ** -23), 1, -1, 1 / 3, Math.PI, 1 + 2 ** -40, 3 * 2 ** -100];
    const values = Float64Array.from([...special, ...fc.sample(fc.double({ min: -1e30, max: 1e30, noNaN: true }).filter((v) => v === 0 || Math.abs(v) >= 2 ** -102), 200)]);
    const x = await toDevice(values, { format: 'f64' });
    const { array } = await gpuConvert(x, 'ff');
    const got = await array.toHost();
    values.forEach((v, k) => {
      if (!Number.isFinite(v) || v === 0) expect(sameValue(got[k]!, v)).toBe(true);
      else {
        // A low word below 2^-126 (a binary32 subnormal) is 0 on a device that flushes them (WGSL allows it).
        const lo = Math.fround(v - Math.fround(v));
        const flushable = lo !== 0 && Math.abs(lo) < 2 ** -126 ? Math.abs(lo) : 0;
        expect(Math.abs(got[k]! - v)).toBeLessThanOrEqual(2 ** -47 * Math.abs(v) + flushable);
      }
    });
    // Values with at most 48 significant bits survive exactly (hi + lo carries 24 + 24 bits).
    const short = Float64Array.from([1 + 2 ** -47, -(2 ** 100) * (1 + 2 ** -30), 12345.6789 - (12345.6789 % 2 ** -30)]);
    const back = await (await gpuConvert(await toDevice(short, { format: 'f64' }), 'ff')).array.toHost();
    expect([...back]).toEqual([...short]);
    // Beyond binary32 after rounding: ±∞; below its normal range: ±0 (as formats.ff reads a double on the CPU).
    const edges = await (await gpuConvert(await toDevice([2 ** 127 * (2 - 2 ** -52), -(2 ** 128), 2 ** -127, -1e-300], { format: 'f64' }), 'ff')).array.toHost();
    expect([...edges]).toEqual([Infinity, -Infinity, 0, -0]);
  });
});

describe('GPU word encoding', () => {
  it('rounds binary32 to binary16 and bfloat16 like the CPU (ties, subnormals, overflow, NaN)', async () => {
    await requireRuntime();
    const edge = [0, -0, 1, 65504, 65519.99, 65520, 65536, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 2 ** -14, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 3.3895313892515355e38, 3.4e38, 1e-40, Infinity, -Infinity, NaN];
    const random = fc.sample(fc.float({ noDefaultInfinity: false }), 3000);
    const values = Float32Array.from([...edge, ...random]);
    const x = await toDevice(values, { format: 'f32' });
    for (const [format, encode] of [['f16', f16BitsFromNumber], ['bf16', bf16BitsFromNumber]] as const) {
      const { array } = await gpuConvert(x, format);
      const words = (await array.encoded()).words;
      let bad = 0;
      for (let k = 0; k < values.length; k++) {
        const bits = (words[k >> 1]! >>> ((k & 1) << 4)) & 0xffff;
        const want = encode(values[k]!);
        const nan = (b: number): boolean => (format === 'f16' ? (b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0 : (b & 0x7f80) === 0x7f80 && (b & 0x7f) !== 0);
        if (bits !== want && !(nan(bits) && nan(want))) bad++;
      }
      expect(bad, format).toBe(0);
    }
  });

  it('rounds float-float values once to binary16 and bfloat16 (round to odd first)', async () => {
    await requireRuntime();
    // hi + lo with lo decisive at a 16-bit tie: a double rounding through binary32 would get these wrong.
    const pairs = fc.sample(fc.tuple(fc.float({ min: -60000, max: 60000, noNaN: true }).filter((h) => h === 0 || Math.abs(h) > 2 ** -70), fc.integer({ min: -3, max: 3 })), 2000);
    const values = pairs.map(([h, e]) => {
      const hi = Math.fround(h);
      return hi + (e * Math.abs(hi) * 2 ** -30);
    });
    values.push(1 + 2 ** -11 + 2 ** -40, 1 + 2 ** -11 - 2 ** -40, 1 + 2 ** -8 + 2 ** -40, 1 + 2 ** -8 - 2 ** -40);
    const x = await toDevice(values, { format: 'ff' });
    const exact = await x.toHost();
    for (const [format, encode] of [['f16', f16BitsFromNumber], ['bf16', bf16BitsFromNumber]] as const) {
      const words = (await (await gpuConvert(x, format)).array.encoded()).words;
      let bad = 0;
      for (let k = 0; k < values.length; k++) {
        const got = (words[k >> 1]! >>> ((k & 1) << 4)) & 0xffff;
        if (got !== encode(exact[k]!)) bad++;
      }
      expect(bad, format).toBe(0);
    }
  });

  it('round-trips every GPU storage format through the host exactly', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }).filter((v) => v === 0 || Math.abs(v) >= 2 ** -102), { minLength: 1, maxLength: 50 }), async (values) => {
        for (const format of ['f32', 'f16', 'bf16', 'f64', 'ff'] as const) {
          const x = await toDevice(values, { format });
          const stored = await x.toHost();
          // Stored values are representable: uploading them again changes nothing.
          expect([...(await (await toDevice(stored, { format })).toHost())]).toEqual([...stored]);
        }
      }),
      { numRuns: 5 },
    );
  });
});
