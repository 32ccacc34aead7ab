import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { rnsToDevice, type RnsDeviceArray, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsGpuWaxpby } from '../../src/formats/rns/gpu/update-rns-webgpu.js';
import { rnsGpuDot } from '../../kernels/dot/dot-rns-webgpu.js';
import { rnsGpuGemv } from '../../kernels/gemv/gemv-rns-webgpu.js';
import { rnsEllToDevice, rnsGpuEllSpmv } from '../../kernels/ell-spmv/ell-spmv-rns-webgpu.js';
import { rnsGpuTrsv } from '../../kernels/trsv/trsv-rns-webgpu.js';
import { setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ELL_PADDING } from '../../src/sparse/ell-matrix.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

/**
 * The bounded rounding (normalize-webgpu.ts) against the full CRT it replaced, through every kernel that fills an
 * accumulator (the element updates and the row sums of DOT, GEMV, ELL SpMV and TRSV): the same words — residues,
 * sign, exponent and evaluation — for values whose sizes spread from single bits to p bits, exponents far apart
 * (dropped terms) and exact zeros.
 */
const value = (p: number, spread: number): fc.Arbitrary<RnsExactValue> => fc.record({
  X: fc.oneof(fc.bigInt({ min: 0n, max: 1n << BigInt(p) }), fc.bigInt({ min: 0n, max: 1n << 53n }), fc.constantFrom(0n, 1n, 3n, 1n << BigInt(p))),
  exp: fc.integer({ min: -spread, max: spread }),
  sign: fc.constantFrom(0 as const, 1 as const),
});

/** Runs `kernel` on fresh copies of the operands with each rounding and returns the output words of both. */
async function bothRoundings(operands: readonly (readonly RnsExactValue[])[], p: number, kernel: (arrays: RnsDeviceArray[]) => Promise<RnsDeviceArray>): Promise<[Uint32Array, Uint32Array]> {
  const words: Uint32Array[] = [];
  for (const rnsBounded of [true, false]) {
    const previous = setGpuKernelSwitches({ rnsBounded });
    try {
      const arrays = await Promise.all(operands.map((o) => rnsToDevice(o, rnsDeviceSet(p))));
      const out = await kernel(arrays);
      words.push(await out.toWords());
      new Set([...arrays, out]).forEach((a) => a.destroy());
    } finally {
      setGpuKernelSwitches(previous);
    }
  }
  return [words[0]!, words[1]!];
}

describe('the bounded RNS rounding gives the full CRT\'s words in every kernel', () => {
  for (const [p, spread] of [[106, 40], [424, 2000]] as const) {
    it(`WAXPBY, DOT, GEMV N/T at ${p} bits`, async () => {
      await requireRuntime();
      await fc.assert(fc.asyncProperty(
        value(p, spread), value(p, spread), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.array(value(p, spread), { minLength: 35, maxLength: 35 }), fc.constantFrom<'N' | 'T'>('N', 'T'),
        async (alpha, beta, m, n, pool, trans) => {
          const take = (k: number, at: number): RnsExactValue[] => Array.from({ length: k }, (_, i) => pool[(at + i) % pool.length]!);
          const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
          const [a1, b1] = await bothRoundings([take(m, 0), take(m, 7)], p, async ([x, y]) => { await rnsGpuWaxpby(alpha, x!, beta, y!, y!); return y!; });
          expect(a1).toEqual(b1);
          const [a2, b2] = await bothRoundings([take(m, 3), take(m, 11)], p, ([x, y]) => rnsGpuDot(x!, y!));
          expect(a2).toEqual(b2);
          const [a3, b3] = await bothRoundings([take(m * n, 5), take(cols, 17), take(rows, 23)], p, async ([A, x, y]) => { await rnsGpuGemv({ A: A!, m, n, x: x!, y: y!, alpha, beta, trans }); return y!; });
          expect(a3).toEqual(b3);
        }), { numRuns: 8 });
    });
  }

  it('ELL SpMV with an fp64 matrix and TRSV at 424 bits', async () => {
    await requireRuntime();
    const p = 424;
    await fc.assert(fc.asyncProperty(
      fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 12, maxLength: 12 }), fc.array(value(p, 300), { minLength: 12, maxLength: 12 }), fc.integer({ min: 1, max: 4 }),
      async (vals, pool, rows) => {
        const width = 3, colIndex = new Int32Array(rows * width).fill(ELL_PADDING);
        // Row i: min(rows, 1 + i mod 3) distinct columns, then padding.
        for (let i = 0; i < rows; i++) for (let k = 0; k < Math.min(rows, 1 + (i % width)); k++) colIndex[i + k * rows] = (i + k) % rows;
        const values = Float64Array.from({ length: rows * width }, (_, s) => vals[s % vals.length]!);
        const [a1, b1] = await bothRoundings([pool.slice(0, rows), pool.slice(4, 4 + rows)], p, async ([x, y]) => {
          const A = await rnsEllToDevice({ rows, cols: rows, width, stride: rows, colIndex }, values, x!);
          await rnsGpuEllSpmv({ A, x: x!, y: y!, alpha: 0.75, beta: -1.5 });
          return y!;
        });
        expect(a1).toEqual(b1);
        // An upper triangle with a non-zero diagonal (a zero pool value becomes 1 there; X stays ≤ 2^p).
        const T = Array.from({ length: rows * rows }, (_, s): RnsExactValue => {
          const i = s % rows, j = Math.floor(s / rows), v = pool[s % pool.length]!;
          return i === j ? { sign: v.sign, X: v.X === 0n ? 1n : v.X, exp: v.exp } : i < j ? v : { sign: 0, X: 0n, exp: 0 };
        });
        const [a2, b2] = await bothRoundings([T, pool.slice(2, 2 + rows)], p, async ([A, x]) => { await rnsGpuTrsv({ A: A!, n: rows, x: x! }); return x!; });
        expect(a2).toEqual(b2);
      }), { numRuns: 5 });
  });
});
