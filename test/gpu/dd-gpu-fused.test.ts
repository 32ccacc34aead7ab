/**
 * The GPU dd arithmetic's fused multiply-adds (dd-gpu-fused.ts: operands straight from their storage kinds, the
 * product skipping the limbs a binary64/binary32 read leaves zero) against the unfused path they replace (each
 * operand packed into a register, then the general multiply-add): the same result bit for bit, on GEMV's dd output
 * words and DOT's value, over pairs of the storages the dd arithmetic reads (dd, f64, f32, ff, f16) and values
 * with zeros, signed zeros, subnormals, huge and tiny magnitudes, ±∞ and NaN.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { ddGpuArithmetic, ddGpuArithmeticUnfused, ddGpuArithmeticWindow4 } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { ddRange } from './dd-ranges.js';
import { requireRuntime } from './gpu-test-helpers.js';

const unfused = { name: 'dd-unfused', arithmetic: { gpu: ddGpuArithmeticUnfused } };
/** dd with its fused multiply-adds in DOT too (dd itself runs DOT unfused: its dotVariant, faster there). */
const fusedDot = { name: 'dd-fused-dot', arithmetic: { gpu: { ...ddGpuArithmetic, name: 'dd-fused-dot', dotVariant: undefined } } };

/** Doubles with the edge cases the arithmetic branches on (specials only where `specials`). */
const doubles = (specials: boolean): fc.Arbitrary<number> =>
  fc.oneof(
    fc.double({ min: -4, max: 4, noNaN: true }),
    fc.constantFrom(0, -0, 5e-324, -2.5e-308, 1e300, -1e-300, 3),
    ...(specials ? [fc.constantFrom(Infinity, -Infinity, NaN)] : []),
  );

type Storage = 'dd' | 'f64' | 'f32' | 'ff' | 'f16';
/**
 * Pairs of storages (each reads into its own register kind: xf products of two long operands, one short, two short)
 * with GEMV's orientation; every pair compiles its own shaders, which llvmpipe takes seconds for, so the list is
 * short and covers each multiplication (long × long, long × short both ways, short × short).
 */
const GEMV_CASES: readonly [Storage, Storage, 'N' | 'T'][] = [['dd', 'dd', 'N'], ['f64', 'f64', 'T'], ['f32', 'f64', 'N'], ['dd', 'f64', 'T'], ['f64', 'dd', 'N'], ['ff', 'f16', 'T']];
const DOT_CASES: readonly [Storage, Storage][] = [['dd', 'dd'], ['f64', 'f32'], ['ff', 'dd']];

/** A device vector of `storage` holding `values` (dd: genuine pairs from `pairs`). */
async function upload(storage: Storage, values: readonly number[], pairs: readonly { hi: number; lo: number }[]): Promise<Awaited<ReturnType<typeof toDevice>>> {
  if (storage === 'dd') return toDevice(ddRange(pairs) as never);
  return toDevice(Float64Array.from(values), { format: storage });
}

/** The words of a dd device array. */
async function words(a: Awaited<ReturnType<typeof toDevice>>): Promise<number[]> {
  return Array.from((await a.encoded()).words);
}

describe('fused dd multiply-adds on the GPU', () => {
  it.each(GEMV_CASES)('GEMV into dd storage, A in %s, x in %s, %s: the fused and unfused multiply-adds give the same words', async (sa, sx, trans) => {
    await requireRuntime();
    const pair = doubleDoubles({ minExponent: -300, maxExponent: 300 });
    const transposed = trans === 'T';
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 9 }),
      fc.array(doubles(true), { minLength: 45, maxLength: 45 }), fc.array(pair, { minLength: 45, maxLength: 45 }),
      async (m, n, values, pairs) => {
        const A = deviceMatrix(await upload(sa, values.slice(0, m * n), pairs.slice(0, m * n)), m, n);
        const xLength = transposed ? m : n;
        const yLength = transposed ? n : m;
        const x = await upload(sx, values.slice(45 - xLength), pairs.slice(45 - xLength));
        const outs = [];
        for (const arithmetic of ['dd', unfused] as const) {
          const y = await toDevice(new Float64Array(yLength), { format: 'dd' });
          await gpuGemv({ A, x, y, alpha: 1, beta: 0, trans: transposed ? 'T' : 'N' }, { arithmetic, strict: true });
          outs.push(await words(y));
        }
        expect(outs[0]).toEqual(outs[1]);
      },
    ), { numRuns: 4 });
  });

  // dd's DOT runs the windowed multiply-adds (another rounding, within the same bound: dd-window-dot and dd-gpu test
  // it); the fused and unfused forms, which GEMV, TRSV and the updates run, must agree bit for bit.
  it.each(DOT_CASES)('DOT, x in %s, y in %s: the fused and unfused multiply-adds give the same value (dd runs the windowed)', async (sx, sy) => {
    expect(ddGpuArithmetic.dotVariant?.()).toBe(ddGpuArithmeticWindow4);
    await requireRuntime();
    const pair = doubleDoubles({ minExponent: -300, maxExponent: 300 });
    await fc.assert(fc.asyncProperty(
      fc.array(doubles(false), { minLength: 1, maxLength: 70 }), fc.array(pair, { minLength: 70, maxLength: 70 }),
      async (values, pairs) => {
        const n = values.length;
        const x = await upload(sx, values, pairs.slice(0, n));
        const y = await upload(sy, values.map((v, k) => values[(k * 7) % n]! - v), pairs.slice(70 - n));
        const fused = await gpuDot(x, y, { arithmetic: fusedDot, strict: true });
        const plain = await gpuDot(x, y, { arithmetic: unfused, strict: true });
        expect(Object.is(fused.value, plain.value) || (Number.isNaN(fused.value) && Number.isNaN(plain.value))).toBe(true);
      },
    ), { numRuns: 4 });
  });
});
