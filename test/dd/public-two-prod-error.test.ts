/**
 * twoProdError(a, b, p) returns for every triple of doubles: a non-finite factor with a finite p (a p that is not
 * fl(a·b)) sent twoProdError and its scaled path into each other until the stack overflowed (twoProdError(∞, 1, 5),
 * twoProdError(NaN, 1, 0)). With p = fl(a·b) finite and |a·b| ≥ 2^-969 the error is exact (BigInt oracle), on both
 * sides of the splitting limit 2^996; twoProd agrees.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { twoProd, twoProdError } from '../../src/index.js';

const buf = new DataView(new ArrayBuffer(8));
/** x = m·2^e exactly (finite x). */
function exact(x: number): [bigint, number] {
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const E = Number((bits >> 52n) & 0x7ffn);
  const f = bits & ((1n << 52n) - 1n);
  const m = E === 0 ? f : f | (1n << 52n);
  return [bits >> 63n ? -m : m, E === 0 ? -1074 : E - 1075];
}
/** a·b − p, exactly, as m·2^e. */
function exactError(a: number, b: number, p: number): [bigint, number] {
  const [ma, ea] = exact(a), [mb, eb] = exact(b), [mp, ep] = exact(p);
  const e = Math.min(ea + eb, ep);
  return [(ma * mb << BigInt(ea + eb - e)) - (mp << BigInt(ep - e)), e];
}

const anyDouble = fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 2 ** 996, 2 ** 1000, Number.MAX_VALUE, 5e-324));

describe('twoProdError', () => {
  it('returns a number for every triple of doubles (non-finite factors with a finite p included)', () => {
    fc.assert(fc.property(anyDouble, anyDouble, anyDouble, (a, b, p) => {
      expect(typeof twoProdError(a, b, p)).toBe('number');
    }), { numRuns: 3000 });
    for (const [a, b] of [[Infinity, 1], [1, -Infinity], [NaN, 1], [2 ** 1000, NaN], [Infinity, 2 ** 1000]]) {
      for (const p of [5, 0, -1e300]) expect(twoProdError(a!, b!, p)).toBe(a! * b! - p);
    }
  });

  it('is the exact error of a finite p = fl(a·b) with |a·b| ≥ 2^-969, beyond the splitting limit too', () => {
    const factor = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: 2 ** 990, max: 2 ** 1010, noNaN: true }), fc.double({ min: -4, max: 4, noNaN: true }));
    fc.assert(fc.property(factor, factor, (a, b) => {
      const p = a * b;
      if (!Number.isFinite(p) || Math.abs(p) < 2 ** -969) return;
      const e = twoProdError(a, b, p);
      const [m, k] = exactError(a, b, p);
      const [me, ke] = exact(e);
      const common = Math.min(k, ke);
      expect((me << BigInt(ke - common)) === (m << BigInt(k - common))).toBe(true);
      const out = new Float64Array(2);
      twoProd(out, a, b);
      expect([out[0], out[1]]).toEqual([p, e]);
    }), { numRuns: 3000 });
  });
});
