/**
 * toDeviceEll applies the CPU's ELL rules (ellMatrix): padding last in a row, rows past `rows` padding only, and 0 in
 * every padding slot, colIndex and values of exactly stride·width — the same error codes and parameters before anything
 * is uploaded. Regressions: it accepted an entry after padding and an entry in a row beyond `rows` (computing with
 * them), zeroed a nonzero padding value silently, and took colIndex / values arrays longer than stride·width.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ellMatrix } from '../../src/sparse/ell-matrix.js';
import { toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';

/** The error's code and parameter, the CPU's parameter prefixed with `A.` as toDeviceEll names its argument. */
async function outcomeOf(f: () => unknown, prefix = ''): Promise<string> {
  try { await f(); return 'ok'; } catch (e) { const { code, parameter } = e as { code?: string; parameter?: string }; return code ? `${code} ${prefix}${parameter}` : String(e); }
}

describe('toDeviceEll: the CPU ellMatrix rules', () => {
  it('accepts exactly the ELL matrices ellMatrix accepts, with the same error code and parameter', async () => {
    // The arrays' lengths are off by a few now and then: exactly stride·width is required (a longer one was accepted).
    const lengthOff = fc.constantFrom(0, 0, 0, 0, -1, 1, 3);
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 4 }),
      fc.array(fc.integer({ min: -1, max: 3 }), { minLength: 21, maxLength: 21 }), fc.array(fc.constantFrom(0, 0, 1.5, -2), { minLength: 21, maxLength: 21 }),
      lengthOff, lengthOff,
      async (rows, width, extra, cols, idx, vals, offIndex, offValues) => {
        const stride = rows + extra;
        const n = stride * width;
        // Past stride·width the extra slots hold what a longer layout would: padding, or an entry.
        const colIndex = Int32Array.from(idx.slice(0, Math.max(0, n + offIndex)).map((c) => Math.min(c, cols - 1)));
        const values = Float64Array.from(vals.slice(0, Math.max(0, n + offValues)));
        const parts = { rows, cols, width, stride, colIndex, values };
        const cpu = await outcomeOf(() => ellMatrix(parts), 'A.');
        const gpu = await outcomeOf(async () => (await toDeviceEll(parts, { format: 'f32' })).values.destroy());
        expect(gpu, JSON.stringify({ rows, width, stride, cols, colIndex: [...colIndex], values: [...values] })).toBe(cpu);
      },
    ), { numRuns: 200 });
  });

  it('a colIndex or values longer than stride·width: DIMENSION_MISMATCH naming its length, as ellMatrix', async () => {
    const base = { rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(0, 1), values: Float64Array.of(1, 2) };
    for (const [parts, parameter] of [
      [{ ...base, colIndex: Int32Array.of(0, 1, -1) }, 'colIndex.length'],
      [{ ...base, values: Float64Array.of(1, 2, 0) }, 'values.length'],
    ] as const) {
      expect(await outcomeOf(() => ellMatrix(parts))).toBe(`DIMENSION_MISMATCH ${parameter}`);
      expect(await outcomeOf(() => toDeviceEll(parts))).toBe(`DIMENSION_MISMATCH A.${parameter}`);
    }
  });

  it('names the slot: an entry after padding, an entry beyond rows, a nonzero padding value', async () => {
    const err = async (f: () => unknown) => { try { await f(); return 'ok'; } catch (e) { return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`; } };
    const base = { rows: 2, cols: 2, width: 2, stride: 2 };
    expect(await err(() => toDeviceEll({ ...base, colIndex: Int32Array.of(-1, 0, 1, 1), values: Float64Array.of(0, 1, 2, 3) }))).toBe('INVALID_VALUE A.colIndex[2]');
    expect(await err(() => toDeviceEll({ ...base, stride: 3, colIndex: Int32Array.of(0, 1, 1, -1, -1, -1), values: Float64Array.of(1, 2, 3, 0, 0, 0) }))).toBe('INVALID_VALUE A.colIndex[2]');
    expect(await err(() => toDeviceEll({ ...base, colIndex: Int32Array.of(0, 1, 1, -1), values: Float64Array.of(1, 2, 3, 4) }))).toBe('INVALID_VALUE A.values[3]');
  });
});
