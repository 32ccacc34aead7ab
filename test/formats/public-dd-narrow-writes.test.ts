/**
 * A double-double value written through the public API (a range computing in double-double arithmetic) into fp32,
 * fp16, bf16 or fp64 storage is rounded ONCE from hi + lo (round-to-odd first, so never a double rounding): checked
 * against the exact BigInt rounding of hi + lo, near ties (lo deciding the direction), subnormals and overflow included.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { range, rowMajor, formats, DD } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational } from '../../src/testing/rational.js';
import { roundRationalToFormat } from '../../src/testing/round-rational.js';
import { BINARY16, BFLOAT16, BINARY32, BINARY64 } from '../../src/formats/convert/binary-parameters.js';

const TARGETS = [['f32', BINARY32], ['f16', BINARY16], ['bf16', BFLOAT16], ['f64', BINARY64]] as const;

/**
 * Pairs for a p-bit target: hi a midpoint of the target's grid (an odd (p + 1)-bit integer times a power of two, across
 * the normal, subnormal and overflow ranges) nudged by a few of its own ulps, or any double; lo a fraction of ulp(hi)
 * in multiples of 1/64 (zero included) — the part a rounding through fp64 first would lose.
 */
function pairFor(p: number): fc.Arbitrary<{ hi: number; lo: number }> {
  const tie = fc.tuple(fc.integer({ min: 2 ** (p - 1), max: 2 ** p - 1 }), fc.integer({ min: -170, max: 140 }), fc.constantFrom(-1, 1), fc.integer({ min: -3, max: 3 }))
    .map(([m, e, sign, nudge]) => sign * ((2 * m + 1) * 2 ** e) * (1 + nudge * 2 ** -52));
  const any = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e40, max: 1e40 });
  return fc.tuple(fc.oneof(tie, any), fc.integer({ min: -31, max: 31 })).map(([hi, k]) => {
    const lo = hi === 0 ? 0 : (k / 64) * 2 ** (Math.floor(Math.log2(Math.abs(hi))) - 52);
    return { hi, lo: Math.abs(lo) < 2 ** -1060 ? 0 : lo };
  }).filter(({ hi, lo }) => Number.isFinite(hi) && hi + lo === hi);
}

describe('double-double writes into narrower storage round once', () => {
  for (const [name, params] of TARGETS) {
    it(`dd arithmetic → ${name} storage: the exact rounding of hi + lo`, () => {
      const r = range(rowMajor<1, DD>({ size: [1], storage: formats[name], arithmetic: formats.dd }));
      fc.assert(fc.property(pairFor(params.significandBits), ({ hi, lo }) => {
        r.set(0, DD.from({ hi, lo }));
        const stored = formats[name].storage.decode(r.accessor.data as never, 0) as number;
        const expected = roundRationalToFormat(addRational(exactOf(hi), exactOf(lo)), params);
        expect(Object.is(stored, expected), `(${hi}, ${lo}) → ${stored}, expected ${expected}`).toBe(true);
      }), { numRuns: 3000 });
    });
  }
});
