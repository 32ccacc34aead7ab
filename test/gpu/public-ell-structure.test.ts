/**
 * toDeviceEll applies the CPU's ELL rules (ellMatrix): padding last in a row, rows past `rows` padding only, and 0 in
 * every padding slot — the same error codes before anything is uploaded. Regression: it accepted an entry after
 * padding and an entry in a row beyond `rows` (computing with them), and zeroed a nonzero padding value silently.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellMatrix } from '../../src/sparse/ell-matrix.js';
import { toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';

async function codeOf(f: () => unknown): Promise<string> {
  try { await f(); return 'ok'; } catch (e) { return (e as { code?: string }).code ?? String(e); }
}

describe('toDeviceEll: the CPU ellMatrix rules', () => {
  it('accepts exactly the ELL matrices ellMatrix accepts, with the same error code', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 4 }),
      fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 18, maxLength: 18 }), fc.array(fc.constantFrom(0, 0, 1.5, -2), { minLength: 18, maxLength: 18 }),
      async (rows, width, extra, cols, idx, vals) => {
        const stride = rows + extra;
        const n = stride * width;
        const colIndex = Int32Array.from(idx.slice(0, n).map((c) => Math.min(c, cols - 1)));
        const values = Float64Array.from(vals.slice(0, n));
        const parts = { rows, cols, width, stride, colIndex, values };
        const cpu = await codeOf(() => ellMatrix(parts));
        const gpu = await codeOf(async () => (await toDeviceEll(parts, { format: 'f32' })).values.destroy());
        expect(gpu, JSON.stringify({ rows, width, stride, cols, colIndex: [...colIndex], values: [...values] })).toBe(cpu);
      },
    ), { numRuns: 150 });
  });

  it('names the slot: an entry after padding, an entry beyond rows, a nonzero padding value', async () => {
    const err = async (f: () => unknown) => { try { await f(); return 'ok'; } catch (e) { return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`; } };
    const base = { rows: 2, cols: 2, width: 2, stride: 2 };
    expect(await err(() => toDeviceEll({ ...base, colIndex: Int32Array.of(-1, 0, 1, 1), values: Float64Array.of(0, 1, 2, 3) }))).toBe('INVALID_VALUE A.colIndex[2]');
    expect(await err(() => toDeviceEll({ ...base, stride: 3, colIndex: Int32Array.of(0, 1, 1, -1, -1, -1), values: Float64Array.of(1, 2, 3, 0, 0, 0) }))).toBe('INVALID_VALUE A.colIndex[2]');
    expect(await err(() => toDeviceEll({ ...base, colIndex: Int32Array.of(0, 1, 1, -1), values: Float64Array.of(1, 2, 3, 4) }))).toBe('INVALID_VALUE A.values[3]');
  });
});
