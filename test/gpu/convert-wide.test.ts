/**
 * Device-side conversion into f64 (the nearest double of a float-float value, against exact BigInt
 * rounding) and into scaled integers (block scales equal to the host encoder's, integers the nearest
 * multiples), plus every source × target pair against the host codecs within the target's rounding.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpuConvert } from '../../src/backends/webgpu/convert.js';
import { DeviceArray, toDevice } from '../../src/backends/webgpu/device-array.js';
import { GPU_FORMATS, type GpuFormatName } from '../../src/backends/webgpu/formats.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

/** The double nearest the exact sum hi + lo (ties to even), by BigInt arithmetic on dyadic rationals. */
function nearestDouble(hi: number, lo: number): number {
  if (!Number.isFinite(hi) || lo === 0) return hi;
  const scale = 149n; // every binary32 is an integer multiple of 2^-149: scaled by 2^149 both are integers
  const toBig = (v: number): bigint => {
    const buf = new DataView(new ArrayBuffer(8));
    buf.setFloat64(0, v);
    const bits = buf.getBigUint64(0);
    const e = Number((bits >> 52n) & 0x7ffn);
    const m = e === 0 ? bits & ((1n << 52n) - 1n) : (bits & ((1n << 52n) - 1n)) | (1n << 52n);
    const shift = BigInt((e === 0 ? 1 : e) - 1075) + scale;
    const mag = shift >= 0n ? m << shift : m >> -shift;
    return v < 0 ? -mag : mag;
  };
  const sum = toBig(hi) + toBig(lo); // value · 2^scale
  const neg = sum < 0n;
  let mag = neg ? -sum : sum;
  const bitsLen = mag.toString(2).length;
  const drop = bitsLen - 53;
  if (drop > 0) {
    const rem = mag & ((1n << BigInt(drop)) - 1n);
    const half = 1n << BigInt(drop - 1);
    mag >>= BigInt(drop);
    if (rem > half || (rem === half && (mag & 1n) === 1n)) mag += 1n;
    mag <<= BigInt(drop);
  }
  const value = Number(mag) * 2 ** -Number(scale); // exact: mag has ≤ 54 significant bits after rounding
  return neg ? -value : value;
}

describe('gpuConvert into f64', () => {
  it('writes the double nearest each float-float value (ties to even), special values exactly', async () => {
    const rt = await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.float({ min: Math.fround(-1e30), max: Math.fround(1e30), noNaN: true, noDefaultInfinity: true }).filter((h) => h === 0 || Math.abs(h) >= 2 ** -100), fc.double({ min: -0.5, max: 0.5, noNaN: true })), { minLength: 1, maxLength: 300 }),
        async (pairs) => {
          const words = new Float32Array(2 * pairs.length);
          pairs.forEach(([h, t], k) => {
            const hi = Math.fround(h);
            // lo within half an ulp of hi, any magnitude down to far below the double's last bit
            const ulp = hi === 0 ? 0 : 2 ** (Math.floor(Math.log2(Math.abs(hi))) - 23);
            const lo = Math.fround(t * ulp * 2 ** -Math.floor(Math.abs(t) * 60));
            words[2 * k] = hi;
            words[2 * k + 1] = Math.abs(lo) <= ulp / 2 && (lo === 0 || Math.abs(lo) >= 2 ** -126) ? lo : 0;
          });
          const x = new DeviceArray(rt, GPU_FORMATS.ff, pairs.length, 256, { words: new Uint32Array(words.buffer) }, '');
          const got = await (await gpuConvert(x, 'f64')).array.toHost();
          for (let k = 0; k < pairs.length; k++) {
            expect(Object.is(got[k], nearestDouble(words[2 * k]!, words[2 * k + 1]!)), `pair ${words[2 * k]} + ${words[2 * k + 1]}`).toBe(true);
          }
          x.destroy();
        },
      ),
      { numRuns: 6 },
    );
    // Ties at the 53rd bit, powers of two lowered by a negative tail, signed zeros, ±∞, NaN, binary32 subnormals.
    const edge = [[1, 2 ** -53], [1, 3 * 2 ** -53], [1 + 2 ** -23, 2 ** -53], [-1, 2 ** -53], [1, -(2 ** -54)], [1, -(2 ** -78)], [2 ** 20, -(2 ** -40)], [-(2 ** 20), 2 ** -40], [0, 0], [-0, 0], [Infinity, 0], [-Infinity, 0], [NaN, 0], [2 ** -149, 0], [-(3 * 2 ** -140), 0], [2 ** -127 + 2 ** -149, 0]];
    const words = new Float32Array(edge.flat());
    const x = new DeviceArray(rt, GPU_FORMATS.ff, edge.length, 256, { words: new Uint32Array(words.buffer) }, '');
    const got = await (await gpuConvert(x, 'f64')).array.toHost();
    edge.forEach(([hi, lo], k) => {
      const want = Number.isNaN(hi!) ? NaN : nearestDouble(words[2 * k]!, words[2 * k + 1]!);
      expect(Object.is(got[k], want) || (Number.isNaN(got[k]!) && Number.isNaN(want)), `edge ${hi} + ${lo}`).toBe(true);
    });
  });

  it('copies f64 → f64 word for word (53 bits, not the 48 a decode keeps)', async () => {
    await requireRuntime();
    const values = Float64Array.from([Math.PI, -1 / 3, 1 + 2 ** -52, 2 ** -100]);
    const got = await (await gpuConvert(await toDevice(values, { format: 'f64' }), 'f64')).array.toHost();
    expect([...got]).toEqual([...values]);
  });
});

describe('gpuConvert into scaled integers', () => {
  for (const target of ['i8', 'i16'] as const) {
    it(`${target}: scales equal to the host encoder's, integers the nearest multiples (f32 sources: bit for bit)`, async () => {
      await requireRuntime();
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 2000 }), fc.constantFrom(1, 7, 64, 256), fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: -60, max: 60 }), async (n, block, seed, e) => {
          const values = randomValues(n, seed, 2 ** e).map((v, k) => (k % 97 === 5 ? 0 : v));
          const x = await toDevice(values, { format: 'f32' });
          const { array } = await gpuConvert(x, target, { scaleBlock: block });
          expect(array.scaleBlock).toBe(block);
          const got = await array.encoded();
          const want = GPU_FORMATS[target].encode(await x.toHost(), 'x', block);
          expect([...got.scales!]).toEqual([...want.scales!]);
          expect([...got.words]).toEqual([...want.words]);
          x.destroy();
          array.destroy();
        }),
        { numRuns: 8 },
      );
    });

    it(`${target}: from float-float and f64 sources within half a quantum of the exact value`, async () => {
      await requireRuntime();
      const qmax = target === 'i8' ? 127 : 32767;
      for (const source of ['ff', 'f64'] as const) {
        const values = randomValues(1500, 17, 3).map((v) => v * (1 + 2 ** -30));
        const x = await toDevice(values, { format: source });
        const exact = await x.toHost();
        const { array } = await gpuConvert(x, target, { scaleBlock: 100 });
        const got = await array.toHost();
        const { scales } = await array.encoded();
        for (let k = 0; k < exact.length; k++) {
          const s = scales![Math.floor(k / 100)]!;
          // Rounded once from the value read: half a quantum exactly for ff; f64 is read as its float-float pair first.
          expect(Math.abs(got[k]! - exact[k]!), `${source} ${k}`).toBeLessThanOrEqual(s * (source === 'ff' ? 0.5 : 0.5 + 2 ** -20));
          expect(Math.abs(got[k]! / s)).toBeLessThanOrEqual(qmax);
        }
      }
    });
  }

  it('non-finite values and block maxima too small for a normal binary32 scale are typed errors naming x', async () => {
    await requireRuntime();
    for (const bad of [[1, NaN, 2], [Infinity, 1], [1e-39, 0]]) {
      const x = await toDevice(bad, { format: 'f32' });
      await expect(gpuConvert(x, 'i8')).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'x' });
    }
    // Block maxima below 2^-126 (binary32 subnormals, which a device may flush in comparisons; doubles that the
    // read gives as ±0) and below 2^-126·qmax: no normal binary32 scale, from every source and in the upload alike.
    for (const source of ['f32', 'bf16', 'ff', 'f64'] as const) {
      for (const bad of [[1e-39, 0], [0, -1e-39, 1e-40], [1e-36, 0], ...(source === 'f64' ? [[1e-300, 0], [0, -5e-324]] : [])]) {
        const x = await toDevice(bad, { format: source });
        await expect(gpuConvert(x, 'i8'), `${source} ${bad}`).rejects.toMatchObject({ code: 'INVALID_VALUE', parameter: 'x' });
        expect(() => GPU_FORMATS.i8.encode(bad, 'x', 64), `upload ${bad}`).toThrow(expect.objectContaining({ code: 'INVALID_VALUE' }));
      }
      // The smallest maximum with a normal scale converts, and an element far below the scale rounds to 0.
      const x = await toDevice([127 * 2 ** -126, 1e-39], { format: source });
      const { array } = await gpuConvert(x, 'i8');
      expect([...(await array.toHost())]).toEqual([127 * 2 ** -126, 0]);
    }
    const x = await toDevice([1, 2]);
    await expect(gpuConvert(x, 'i16', { scaleBlock: 0 })).rejects.toMatchObject({ code: 'INVALID_SIZE', parameter: 'options.scaleBlock' });
  });
});

describe('gpuConvert between every pair of formats', () => {
  const FORMATS: GpuFormatName[] = ['f32', 'f16', 'bf16', 'f64', 'ff', 'i8', 'i16'];
  it('agrees with encoding the source values on the host, within the target rounding', async () => {
    await requireRuntime();
    const values = randomValues(700, 3, 40);
    for (const from of FORMATS) {
      const x = await toDevice(values, { format: from, scaleBlock: 50 });
      const stored = await x.toHost();
      for (const to of FORMATS) {
        const got = await (await gpuConvert(x, to, { scaleBlock: 50 })).array.toHost();
        const host = GPU_FORMATS[to].decode(GPU_FORMATS[to].encode(stored, 'x', 50), stored.length, 50);
        let worst = 0;
        for (let k = 0; k < stored.length; k++) worst = Math.max(worst, Math.abs(got[k]! - host[k]!) / (Math.abs(stored[k]!) || 1));
        // The same values, but where the device reads f64 as a float-float pair (48 bits): into scaled integers
        // (rounded once from the pair, not the double) and f64 → ff → f64.
        const scaled = to === 'i8' || to === 'i16';
        const tolerance = scaled ? (from === 'f64' ? (to === 'i8' ? 2 ** -6 : 2 ** -14) : 0) : to === 'f64' || to === 'ff' ? 2 ** -47 : 0;
        expect(worst, `${from} → ${to}`).toBeLessThanOrEqual(tolerance);
      }
      x.destroy();
    }
  });
});
