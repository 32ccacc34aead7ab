import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CalculateTypeWithDestroy } from 'gmp-wasm';
import { rnsFormat } from '../../src/formats/rns/register.js';
import { range, rowMajor, colMajor, dot, gemv } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { rnsModuliSet } from '../../src/formats/rns/moduli-set.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';
import { rnsFromRational } from '../../src/formats/rns/convert-exact.js';
import { abs, add, le, mul, ofNumber, ofRns, q, sub, type Q } from './oracle.js';
import { fromMpfr, mpfrContext, toMpfr } from './mpfr-oracle.js';

const sum = (xs: Q[]): Q => xs.reduce(add, q(0n));

describe.each([106, 424, 1696])('DOT and GEMV in RNS vs MPFR at %i bits', (precision) => {
  const set = rnsModuliSet(precision);
  const f = rnsFormat(precision);
  const p = BigInt(precision);
  let ctx: CalculateTypeWithDestroy;
  beforeAll(async () => { ctx = await mpfrContext(precision); });
  afterAll(() => ctx.destroy());
  // Both computations are recursive sums of rounded products; each is within γ_{n+2}(u ≤ 2^(1−p))·Σ|terms|
  // of the exact value, so they differ by at most 2·γ_{n+2} ≤ 2^(3−p)·(n+2)·Σ|terms| for n ≪ 2^p.
  const tolerance = (n: number, mag: Q) => mul(q(BigInt(n + 2), 1n << (p - 3n)), mag);
  const el = fc.tuple(fc.bigInt({ min: -(1n << p), max: 1n << p }), fc.integer({ min: 0, max: 60 })).map(([s, e]) => q(s, 1n << (p + BigInt(e))));
  const vecOf = (vals: Q[]): Range<1, RnsNumber> => {
    const r = range(rowMajor<1, RnsNumber>({ size: [vals.length], storage: f, arithmetic: f }));
    vals.forEach((v, i) => { const z = new RnsNumber(set); rnsFromRational(z, v.num, v.den); r.set(i, z); });
    return r;
  };

  it('DOT of full-precision vectors agrees with MPFR', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 30 }).chain((n) => fc.tuple(fc.array(el, { minLength: n, maxLength: n }), fc.array(el, { minLength: n, maxLength: n }))), ([xs, ys]) => {
      const x = vecOf(xs), y = vecOf(ys);
      const out = vecOf([q(0n)]);
      dot(x, y, { into: out });
      let m = toMpfr(ctx, q(0n));
      const mags: Q[] = [];
      for (let i = 0; i < xs.length; i++) {
        const a = ofRns(x.get(i)), b = ofRns(y.get(i));
        m = m.add(toMpfr(ctx, a).mul(toMpfr(ctx, b)));
        mags.push(abs(mul(a, b)));
      }
      expect(le(abs(sub(ofRns(out.get(0)), fromMpfr(m))), tolerance(xs.length, sum(mags)))).toBe(true);
    }), { numRuns: precision >= 1696 ? 5 : 25 });
  });

  it('GEMV (column-major, trans N) agrees with MPFR row by row', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((m) => fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant([m, n] as const),
      fc.array(el, { minLength: m * n, maxLength: m * n }), fc.array(el, { minLength: n, maxLength: n }), fc.array(el, { minLength: m, maxLength: m })))),
    fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), ([[m, n], as, xs, ys], alpha, beta) => {
      const A = range(colMajor<2, RnsNumber>({ size: [m, n], storage: f, arithmetic: f }));
      for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) {
        const z = new RnsNumber(set); const v = as[i + j * m]!; rnsFromRational(z, v.num, v.den); A.set(i, j, z);
      }
      const x = vecOf(xs), y = vecOf(ys);
      const y0 = Array.from({ length: m }, (_, i) => ofRns(y.get(i)));
      gemv({ alpha, A, x, beta, y, trans: 'N' });
      const ma = toMpfr(ctx, ofNumber(alpha)), mb = toMpfr(ctx, ofNumber(beta));
      for (let i = 0; i < m; i++) {
        let s = toMpfr(ctx, q(0n));
        const mags: Q[] = [abs(mul(ofNumber(beta), y0[i]!))];
        for (let j = 0; j < n; j++) {
          const a = ofRns(A.get(i, j)), b = ofRns(x.get(j));
          s = s.add(toMpfr(ctx, a).mul(toMpfr(ctx, b)));
          mags.push(abs(mul(ofNumber(alpha), mul(a, b))));
        }
        const ref = fromMpfr(ma.mul(s).add(mb.mul(toMpfr(ctx, y0[i]!))));
        expect(le(abs(sub(ofRns(y.get(i)), ref)), tolerance(n + 2, sum(mags)))).toBe(true);
      }
    }), { numRuns: precision >= 1696 ? 4 : 15 });
  });
});
