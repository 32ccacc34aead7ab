/**
 * Sub-word output views where no adapter exists (MODPREC_GPU_BACKEND=none): a host-resident view of the guide's E5M2
 * (8-bit lanes) or bf16 is spliced into its span lane by lane (view-output.ts, spliceView), as the device stores it:
 * the span's bytes after gpuUpdate equal the CPU's WAXPBY on the range, the lanes around and between the view's kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { waxpby, vector, formats } from '../../src/index.js';
import { toDevice, gpuUpdate } from '../../src/backends/webgpu/index.js';
import { SUB_WORD_FORMATS, sentinelLanes, laneView } from './sub-word-views.js';

const saved = process.env.MODPREC_GPU_BACKEND;
beforeAll(() => { process.env.MODPREC_GPU_BACKEND = 'none'; });
afterAll(() => { if (saved === undefined) delete process.env.MODPREC_GPU_BACKEND; else process.env.MODPREC_GPU_BACKEND = saved; });

describe('sub-word output views without an adapter', () => {
  it('a host-resident E5M2 or bf16 view written by gpuUpdate: every lane of its span the CPU\'s', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(0, 2), fc.array(fc.double({ min: -60000, max: 60000, noNaN: true }), { minLength: 1, maxLength: 20 }),
      fc.constantFrom(1, 2, 3, 5, -1, -3), fc.integer({ min: 0, max: 4 }), fc.constantFrom(0.5, -3),
      async (fi, values, stride, pad, alpha) => {
        const f = SUB_WORD_FORMATS[fi]!;
        const n = values.length;
        const offset = pad + (stride < 0 ? -stride * (n - 1) : 0);
        const size = pad + Math.abs(stride) * (n - 1) + 4;
        const x = vector(values, { storage: formats.f64 });
        const cpu = sentinelLanes(f, size), resident = sentinelLanes(f, size);
        waxpby(alpha, x, 0, x, laneView(f, cpu, n, offset, stride), { arithmetic: formats.f32 });
        const out = await toDevice(laneView(f, resident, n, offset, stride) as never, { format: f.storage.name as 'f32' });
        await gpuUpdate({ alpha, x: await toDevice(values), beta: 0, out }, { arithmetic: 'f32' });
        const words = (await out.encoded()).words;
        // The span's lanes from the word holding the view's lowest lane (toDevice keeps the span from there).
        const lanes = f.bits === 8 ? new Uint8Array(words.buffer, words.byteOffset, words.byteLength) : new Uint16Array(words.buffer, words.byteOffset, words.byteLength / 2);
        const start = offset - out.offset;
        expect(start <= pad && start % (32 / f.bits) === 0).toBe(true);
        expect(Array.from(lanes.subarray(0, out.spanLength))).toEqual(Array.from(cpu.subarray(start, start + out.spanLength)));
      }), { numRuns: 40 });
  });
});
