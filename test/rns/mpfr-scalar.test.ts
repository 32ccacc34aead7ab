import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CalculateTypeWithDestroy } from 'gmp-wasm';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsAdd, rnsFma, rnsMul, rnsSub } from '../../src/formats/rns/arithmetic.js';
import { rnsFromRational } from '../../src/formats/rns/convert-exact.js';
import { abs, fullPrecision, le, mul, ofRns, q, sub, type Q } from './oracle.js';
import { fromMpfr, mpfrContext, toMpfr } from './mpfr-oracle.js';

/** |a − b| ≤ c·|b| with c = num/den. */
function relClose(a: Q, b: Q, c: Q): boolean {
  return le(abs(sub(a, b)), mul(c, abs(b)));
}

describe.each([106, 424, 1696])('RNS vs MPFR at %i bits', (precision) => {
  const set = rnsModuliSet(precision);
  let ctx: CalculateTypeWithDestroy;
  beforeAll(async () => { ctx = await mpfrContext(precision); });
  afterAll(() => ctx.destroy());
  const p = BigInt(precision);
  const mk = (v: Q) => { const z = new RnsNumber(set); rnsFromRational(z, v.num, v.den); return z; };

  it('single operations agree within u + 2^-p (both round once)', () => {
    fc.assert(fc.property(fullPrecision(set, 300), fullPrecision(set, 300), (a, b) => {
      const x = mk(a), y = mk(b), z = new RnsNumber(set);
      const mx = toMpfr(ctx, ofRns(x)), my = toMpfr(ctx, ofRns(y));
      const bound = q(1n, 1n << (p - 3n)); // (u + 2^-p)/(1 − 2^-p) ≤ 2^(3−p)
      rnsAdd(z, x, y);
      expect(relClose(ofRns(z), fromMpfr(mx.add(my)), bound)).toBe(true);
      rnsSub(z, x, y);
      expect(relClose(ofRns(z), fromMpfr(mx.sub(my)), bound)).toBe(true);
      rnsMul(z, x, y);
      expect(relClose(ofRns(z), fromMpfr(mx.mul(my)), bound)).toBe(true);
    }), { numRuns: precision >= 1696 ? 30 : 100 });
  });

  it('a sum of 30 positive products agrees within 2·γ_60', () => {
    const pos = fullPrecision(set, 100).map((v) => abs(v));
    fc.assert(fc.property(fc.array(fc.tuple(pos, pos), { minLength: 30, maxLength: 30 }), (pairs) => {
      const acc = new RnsNumber(set);
      let m = toMpfr(ctx, q(0n));
      for (const [a, b] of pairs) {
        const x = mk(a), y = mk(b);
        rnsFma(acc, x, y, acc);
        m = m.add(toMpfr(ctx, ofRns(x)).mul(toMpfr(ctx, ofRns(y))));
      }
      // 2γ_60 with u ≤ 2^(1−p): 120·2^(1−p)/(1 − 60·2^(1−p)) ≤ 2^(8−p)
      expect(relClose(ofRns(acc), fromMpfr(m), q(1n, 1n << (p - 8n)))).toBe(true);
    }), { numRuns: precision >= 1696 ? 5 : 20 });
  });
});
