/**
 * Every built-in floating storage's encode → decode against the exact rational rounding oracle (not against the
 * conversion function it is built on): fp32, fp16, bfloat16 on doubles drawn at their range ends, subnormals, ties
 * and beyond; and createBinaryRounder with random (p, emin, emax) on the same kinds of doubles. NaN stays NaN, the
 * sign of zero is kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { f16Storage } from '../../src/formats/f16/f16.js';
import { bf16Storage } from '../../src/formats/bf16/bf16.js';
import { f32Storage } from '../../src/formats/f32/f32.js';
import { BFLOAT16, BINARY16, BINARY32, binaryFormatLimits, type BinaryFormatParameters } from '../../src/formats/convert/binary-parameters.js';
import { createBinaryRounder } from '../../src/formats/convert/round-to-binary.js';
import { oracleRoundToFormat } from '../../src/testing/exact.js';

/** Doubles around a format's landmarks: ties of its grid, its subnormal range, its overflow threshold. */
function doublesFor(p: BinaryFormatParameters): fc.Arbitrary<number> {
  const { maxFinite, minNormal, minSubnormal, overflowThreshold } = binaryFormatLimits(p);
  const around = (x: number) => fc.integer({ min: -4, max: 4 }).map((k) => x + k * Math.max(Math.abs(x) * 2 ** -53, 5e-324));
  const tie = fc.tuple(fc.integer({ min: p.minExponent, max: p.maxExponent }), fc.integer({ min: 0, max: 2 ** Math.min(p.significandBits - 1, 30) - 1 }), fc.integer({ min: -1, max: 1 }))
    .map(([e, k, nudge]) => (1 + (k + 0.5) * 2 ** (1 - Math.min(p.significandBits, 31))) * 2 ** e + nudge * 2 ** (e - 52));
  const subTie = fc.integer({ min: 0, max: 2 ** 20 }).map((k) => (k + 0.5) * minSubnormal);
  const sign = fc.boolean();
  return fc.tuple(fc.oneof(
    fc.double({ noNaN: true }), tie, subTie, around(maxFinite), around(overflowThreshold), around(minNormal), around(minSubnormal), around(minSubnormal / 2),
    fc.constantFrom(0, Infinity, NaN, 5e-324, Number.MAX_VALUE),
  ), sign).map(([x, s]) => (s ? -x : x));
}

const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

describe('built-in storages against the exact rounding oracle', () => {
  it.each([['f32', f32Storage, BINARY32], ['f16', f16Storage, BINARY16], ['bf16', bf16Storage, BFLOAT16]] as const)('%s: decode(encode(x)) is x rounded to nearest even, exactly', (_, st, params) => {
    const buf = st.allocate(1) as never;
    fc.assert(fc.property(doublesFor(params), (x) => {
      st.encode(buf, 0, x as never);
      const got = st.decode(buf, 0) as number;
      expect(same(got, oracleRoundToFormat(x, params)), `${x} → ${got}`).toBe(true);
    }), { numRuns: 5000 });
  });

  it('createBinaryRounder on random formats: exactly the oracle', () => {
    const format = fc.record({ significandBits: fc.integer({ min: 2, max: 52 }), minExponent: fc.integer({ min: -1022, max: 200 }), span: fc.integer({ min: 1, max: 2045 }) })
      .map(({ significandBits, minExponent, span }) => ({ significandBits, minExponent, maxExponent: Math.min(1023, minExponent + span) }));
    fc.assert(fc.property(format.chain((p) => fc.tuple(fc.constant(p), fc.array(doublesFor(p), { minLength: 20, maxLength: 20 }))), ([p, xs]) => {
      const round = createBinaryRounder(p);
      for (const x of xs) expect(same(round(x), oracleRoundToFormat(x, p)), `${x} in ${JSON.stringify(p)}`).toBe(true);
    }), { numRuns: 300 });
  });
});
