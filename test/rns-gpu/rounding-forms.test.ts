import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setRnsRoundingSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { rnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';
import { rnsToDevice, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { rnsGpuAxpy, rnsGpuScal, rnsGpuWaxpby } from '../../src/formats/rns/gpu/update-rns-webgpu.js';
import { rnsGpuDot } from '../../kernels/dot/dot-rns-webgpu.js';
import { rnsGpuGemv } from '../../kernels/gemv/gemv-rns-webgpu.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { scratchBuffer } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { add, dyadic, mul, roundP, same } from './rns-gpu-oracle.js';

// Exponents within ±40 of each other: the two terms' sum spans up to ≈ 2p + 80 bits, so L_e runs from 0 to most
// limbs, k from 0 up, and nothing falls below the grid (the result is the correctly rounded exact sum).
const value = (p: number): fc.Arbitrary<RnsExactValue> => fc.record({
  X: fc.oneof(fc.bigInt({ min: 0n, max: 1n << BigInt(p) }), fc.bigInt({ min: 0n, max: 1n << 53n }), fc.constantFrom(0n, 1n, 1n << BigInt(p))),
  exp: fc.integer({ min: -40, max: 40 }),
  sign: fc.constantFrom(0 as const, 1 as const),
});

// The form before (quotient pass, j-major column pairs), j-major single words (two limbs a thread needs tiles: ignored),
// tiled single words one limb a thread, session 15's default, four words a thread, then no zero columns (j-major single
// words and the default), then no accumulator (the form before, one word a thread; the default).
const FORMS = [
  { columnTiles: false, columnQuotient: false, columnWord: false, columnPairs: false, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false },
  { columnTiles: false, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false },
  { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: false, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false },
  { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: false, noZeroColumns: false, updateNoAccumulator: false },
  { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: true, noZeroColumns: false, updateNoAccumulator: false },
  { columnTiles: false, columnQuotient: true, columnWord: true, columnPairs: false, vectorWords: false, noZeroColumns: true, updateNoAccumulator: false },
  { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: true, noZeroColumns: true, updateNoAccumulator: false },
  { columnTiles: false, columnQuotient: false, columnWord: false, columnPairs: false, vectorWords: false, noZeroColumns: false, updateNoAccumulator: true },
  { columnTiles: true, columnQuotient: true, columnWord: true, columnPairs: true, vectorWords: true, noZeroColumns: true, updateNoAccumulator: true },
];

/**
 * Fills the shared column buffer (every form's layout fits in 2·(limbs + 1) words per element, tiles of 64) with
 * non-zero words before a form runs: a pass that read a column the columns pass did not store (noZeroColumns) would
 * read these instead of the zeros an earlier form left.
 */
async function poisonColumns(set: ReturnType<typeof rnsDeviceSet>, count: number, seed: number): Promise<void> {
  const runtime = await requireRuntime();
  const buffer = scratchBuffer(runtime, 'columns', 2 * (set.limbs + 1) * 64 * Math.ceil(count / 64));
  const words = new Uint32Array(buffer.size / 4);
  for (let k = 0; k < words.length; k++) words[k] = (Math.imul(k + seed, 2654435761) >>> 3) | 1;
  runtime.context.device.queue.writeBuffer(buffer, 0, words);
}

describe('the forms of the device rounding (kernel switches columnTiles, columnQuotient, columnWord, columnPairs, vectorWords, noZeroColumns, updateNoAccumulator)', () => {
  it('tiled columns, the quotient in the columns pass, one word a column and two limbs a thread give the words of the form before, correctly rounded, across tile boundaries', async () => {
    await requireRuntime();
    const p = 106, set = rnsDeviceSet(p);
    // 1 … 150 elements, all drawn (size 'max'): a partial first tile, whole tiles, and a partial third one.
    const length = fc.oneof(fc.constantFrom(65, 129, 150), fc.integer({ min: 1, max: 150 }));
    const pairsOf = length.chain((n) => fc.array(fc.tuple(value(p), value(p)), { minLength: n, maxLength: n, size: 'max' }));
    await fc.assert(fc.asyncProperty(value(p), value(p), pairsOf, async (alpha, beta, pairs) => {
      const x = await rnsToDevice(pairs.map((q) => q[0]), set);
      const y = await rnsToDevice(pairs.map((q) => q[1]), set);
      const w = await rnsToDevice(pairs.map(() => 0), set);
      const words: Uint32Array[] = [];
      for (const form of FORMS) {
        const previous = setRnsRoundingSwitches(form);
        try {
          await poisonColumns(set, pairs.length, words.length);
          await rnsGpuWaxpby(alpha, x, beta, y, w);
        } finally {
          setRnsRoundingSwitches(previous);
        }
        words.push(await w.toWords());
      }
      for (const other of words.slice(1)) expect(other).toEqual(words[0]);
      const got = await w.toExact();
      pairs.forEach(([xk, yk], k) => expect(same(dyadic(got[k]!), roundP(add(mul(dyadic(alpha), dyadic(xk)), mul(dyadic(beta), dyadic(yk))), p))).toBe(true));
      [x, y, w].forEach((a) => a.destroy());
    }), { numRuns: 6 });
  });

  it('four words a thread (vectorWords) and no accumulator (updateNoAccumulator) give the words of one word a thread in GEMV (its α·x stage, row sums and rounding) and DOT (one result)', async () => {
    await requireRuntime();
    // 212 bits: n = 49 moduli, so residue vectors straddle elements; m rows × k columns with m·49 and m·55 not multiples of 4.
    const p = 212, set = rnsDeviceSet(p);
    const shape = fc.record({ m: fc.integer({ min: 1, max: 7 }), k: fc.integer({ min: 1, max: 7 }) });
    const problem = shape.chain(({ m, k }) => fc.record({ m: fc.constant(m), k: fc.constant(k), A: fc.array(value(p), { minLength: m * k, maxLength: m * k }), x: fc.array(value(p), { minLength: k, maxLength: k }), y: fc.array(value(p), { minLength: m, maxLength: m }), alpha: value(p), beta: value(p) }));
    await fc.assert(fc.asyncProperty(problem, async ({ m, k, A: Av, x: xv, y: yv, alpha, beta }) => {
      const A = await rnsToDevice(Av, set), x = await rnsToDevice(xv, set);
      const results: Uint32Array[][] = [];
      for (const [vectorWords, updateNoAccumulator] of [[false, false], [true, false], [false, true], [true, true]] as const) {
        const previous = setRnsRoundingSwitches({ vectorWords, updateNoAccumulator });
        try {
          const y = await rnsToDevice(yv, set);
          await rnsGpuGemv({ A, m, n: k, x, y, alpha, beta });
          const d = await rnsGpuDot(x, x);
          results.push([await y.toWords(), await d.toWords()]);
          [y, d].forEach((a) => a.destroy());
        } finally {
          setRnsRoundingSwitches(previous);
        }
      }
      for (const other of results.slice(1)) expect(other).toEqual(results[0]);
      [A, x].forEach((a) => a.destroy());
    }), { numRuns: 4 });
  });

  it('AXPY and SCAL in place (w is y, x) give the same words with and without updateNoAccumulator (which keeps the accumulator there)', async () => {
    await requireRuntime();
    const p = 106, set = rnsDeviceSet(p);
    const pairsOf = fc.array(fc.tuple(value(p), value(p)), { minLength: 1, maxLength: 70 });
    await fc.assert(fc.asyncProperty(value(p), pairsOf, async (alpha, pairs) => {
      const results: Uint32Array[][] = [];
      for (const updateNoAccumulator of [false, true]) {
        const previous = setRnsRoundingSwitches({ updateNoAccumulator });
        const x = await rnsToDevice(pairs.map((q) => q[0]), set), y = await rnsToDevice(pairs.map((q) => q[1]), set);
        try {
          await rnsGpuAxpy(alpha, x, y);
          const got = await y.toExact();
          pairs.forEach(([xk, yk], k) => expect(same(dyadic(got[k]!), roundP(add(mul(dyadic(alpha), dyadic(xk)), dyadic(yk)), p))).toBe(true));
          await rnsGpuScal(alpha, x);
          results.push([await y.toWords(), await x.toWords()]);
        } finally {
          setRnsRoundingSwitches(previous);
          [x, y].forEach((a) => a.destroy());
        }
      }
      expect(results[1]).toEqual(results[0]);
    }), { numRuns: 4 });
  });
});
