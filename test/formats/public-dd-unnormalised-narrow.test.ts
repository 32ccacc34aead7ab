/**
 * A double-double pair that is not normalised (|lo| > ulp(hi)/2) stands for hi + lo all the same — a user's pair
 * written through double-double arithmetic, a raw pair in dd storage. Written into, or read as, a format narrower than
 * fp64 it must be hi + lo rounded once: (1, −2^-25 − 2^-77) into fp32 is 1 − 2^-24 (it was 1: the round-to-odd
 * step took the pair as normalised and rounded hi alone), on the JavaScript and the WebAssembly readers alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BFLOAT16, BINARY16, BINARY32, dot, formats, range, reducedRowMajor, roundToOddDd, vector, wasmSimdAvailable } from '../../src/index.js';
import { addRational, exactOf, roundRationalToFormat } from '../../src/testing/index.js';

/** Pairs far from normalised: lo up to hi·2^-10, often just past a tie of the narrow grid. */
const pairs = fc.tuple(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1, max: 1 }),
  fc.integer({ min: 10, max: 80 }),
  fc.constantFrom(0, 2 ** -25, -(2 ** -25), 2 ** -12, -(2 ** -12), 2 ** -9, -(2 ** -9)),
).map(([hi, f, k, tie]) => ({ hi, lo: hi * (tie + f * 2 ** -k) }));
const exactPair = (p: { hi: number; lo: number }) => addRational(exactOf(p.hi), exactOf(p.lo));
const same = (a: number, b: number) => Object.is(a + 0, b + 0);

describe('double-double pairs that are not normalised, into and out of narrow formats', () => {
  it('the documented case: (1, −2^-25 − 2^-77) is 1 − 2^-24 in fp32', () => {
    const lo = -(2 ** -25) - 2 ** -77;
    expect(Math.fround(roundToOddDd(1, lo))).toBe(1 - 2 ** -24);
    const A = range(reducedRowMajor<1>({ size: [1], storage: formats.f32, arithmetic: formats.dd }));
    A.set(0, { hi: 1, lo });
    expect(A.get(0)).toEqual({ hi: 1 - 2 ** -24, lo: 0 });
  });

  it.each([['f32', formats.f32, BINARY32], ['f16', formats.f16, BINARY16], ['bf16', formats.bf16, BFLOAT16]] as const)(
    'a pair written through double-double arithmetic into %s storage is hi + lo rounded once', (_, storage, params) => {
      const A = range(reducedRowMajor<1>({ size: [1], storage, arithmetic: formats.dd }));
      fc.assert(fc.property(pairs, (p) => {
        A.set(0, p);
        const got = A.get(0);
        expect(same(got.hi + got.lo, roundRationalToFormat(exactPair(p), params)), `(${p.hi}, ${p.lo})`).toBe(true);
      }), { numRuns: 400 });
    });

  it('raw pairs in dd storage read by fp32 arithmetic: get and DOT on js and wasm are hi + lo rounded once', () => {
    const backends = wasmSimdAvailable() ? ['js', 'wasm'] as const : ['js'] as const;
    fc.assert(fc.property(fc.array(pairs, { minLength: 1, maxLength: 9 }), fc.nat(), (ps, pick) => {
      const n = ps.length, k = pick % n;
      const data = new Float64Array(ps.flatMap((p) => [p.hi, p.lo]));
      const x = range(reducedRowMajor<1>({ size: [n], storage: formats.dd, arithmetic: formats.f32, data }));
      const e = vector(Array.from({ length: n }, (_, i) => (i === k ? 1 : 0)), { storage: formats.f32, arithmetic: formats.f32 });
      const want = roundRationalToFormat(exactPair(ps[k]!), BINARY32);
      expect(same(x.get(k), want), `get (${ps[k]!.hi}, ${ps[k]!.lo})`).toBe(true);
      for (const backend of backends) expect(same(dot(x, e, { backend }), want), `${backend} (${ps[k]!.hi}, ${ps[k]!.lo})`).toBe(true);
    }), { numRuns: 200 });
  });
});
