/**
 * The elementwise update (AXPY, WAXPBY, SCAL on the GPU) takes four elements per thread with vector loads when its
 * operands are whole arrays and the length is a multiple of four. That path must give the same bits as the scalar
 * path, element for element: the same update on a length one longer (4k + 1, which the scalar path runs) agrees on
 * its first 4k elements — special values, signed zeros and zero coefficients included — and the last element is
 * still written (the vector path has no tail of its own).
 *
 * A NaN result's sign and payload are the hardware's default NaN (IEEE 754 leaves them open), and scalar and vector
 * instructions may pick different ones (llvmpipe gave 0x7fc00000 from vec4 and 0xffc00000 from scalar code for
 * 0 × −Inf + NaN), so NaN elements compare as NaN; every other element compares bit for bit.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { setGpuKernelDebug } from '../../src/backends/webgpu/program.js';
import { requireRuntime } from './gpu-test-helpers.js';

const SPECIAL = [0, -0, Infinity, -Infinity, NaN, 1e-40, -3e38, 65504, 1 / 3];
const element = fc.oneof(fc.constantFrom(...SPECIAL), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
const coefficient = fc.oneof(fc.constantFrom(0, -0, 1, -1, 0.1), fc.double({ min: -100, max: 100, noNaN: true }));

/** The output's elements as bit patterns of their format (the sign of zero included), each NaN as the string 'NaN'. */
async function bits(a: DeviceArray, format: string): Promise<(number | string)[]> {
  const { words } = await a.encoded();
  if (format === 'f32') return Array.from(words, (w) => ((w & 0x7fffffff) > 0x7f800000 ? 'NaN' : w));
  const isNaN16 = format === 'f16' ? (h: number) => (h & 0x7fff) > 0x7c00 : (h: number) => (h & 0x7fff) > 0x7f80;
  const halves = Array.from(words).flatMap((w) => [w & 0xffff, w >>> 16]);
  return halves.map((h) => (isNaN16(h) ? 'NaN' : h));
}

describe('vector update (four elements per thread) = scalar update, bit for bit', () => {
  it('a length of 4k runs a program with vector loads and four output words per thread; 4k + 1 does not', async () => {
    await requireRuntime();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    setGpuKernelDebug(true);
    const wgsl = async (n: number): Promise<string> => {
      log.mockClear();
      const x = await toDevice(Float64Array.from({ length: n }, (_, k) => k), { format: 'f32' });
      const out = await toDevice(new Float64Array(n), { format: 'f32' });
      // Programs are compiled once per process: this is the file's first update, so its programs print here.
      await gpuUpdate({ alpha: 3, x, beta: 0, out }, { arithmetic: 'f32' });
      expect(Array.from(await out.toHost())).toEqual(Array.from({ length: n }, (_, k) => 3 * k));
      x.destroy(); out.destroy();
      return log.mock.calls.map((c) => String(c[0])).join('\n');
    };
    try {
      const vector = await wgsl(8);
      const scalar = await wgsl(9);
      expect(vector).toMatch(/Quad : array<vec4<f32>>/);
      expect(scalar).not.toMatch(/Quad/);
    } finally {
      setGpuKernelDebug(false);
      log.mockRestore();
    }
  });

  it('AXPY / WAXPBY / SCAL shapes over f32, f16, bf16, f64 and ff operands, f32 and ff arithmetic', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 6 }).chain((k) => fc.tuple(fc.array(element, { minLength: 4 * k + 1, maxLength: 4 * k + 1 }), fc.array(element, { minLength: 4 * k + 1, maxLength: 4 * k + 1 }))),
      coefficient, coefficient,
      fc.constantFrom('f32', 'f16', 'bf16'), fc.constantFrom('f32', 'f16', 'bf16', 'f64', 'ff'), fc.constantFrom('f32', 'ff'),
      fc.constantFrom('waxpby', 'axpy', 'scal', 'x-absent'),
      async ([xs, ys], alpha, beta, outFormat, inFormat, arithmetic, shape) => {
        const n = xs.length - 1; // a multiple of four
        const run = async (m: number): Promise<number[]> => {
          const x = await toDevice(xs.slice(0, m), { format: inFormat as 'f32' });
          const y = await toDevice(ys.slice(0, m), { format: (shape === 'axpy' ? outFormat : inFormat) as 'f32' });
          const out = shape === 'axpy' ? y : shape === 'scal' ? await toDevice(xs.slice(0, m), { format: outFormat as 'f32' }) : await toDevice(new Float64Array(m), { format: outFormat as 'f32' });
          try {
            if (shape === 'scal') await gpuUpdate({ alpha, x: out, beta: 0, out }, { arithmetic: arithmetic as 'ff' });
            else if (shape === 'x-absent') await gpuUpdate({ alpha: 0, beta, y, out }, { arithmetic: arithmetic as 'ff' });
            else await gpuUpdate({ alpha, x, beta, y, out }, { arithmetic: arithmetic as 'ff' });
            return await bits(out, outFormat);
          } finally {
            x.destroy(); y.destroy(); out.destroy();
          }
        };
        const vector = await run(n);
        const scalar = await run(n + 1);
        expect(vector.slice(0, n)).toEqual(scalar.slice(0, n));
        expect(vector.length).toBeGreaterThanOrEqual(n);
      },
    ), { numRuns: 60 });
  });
});
