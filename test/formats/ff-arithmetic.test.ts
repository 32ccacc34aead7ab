/**
 * The CPU float-float arithmetic (formats.ff): each operation against the exact rational result within its
 * published error (Joldes, Muller, Popescu 2017; u = 2^-24), and kernels computing in it within γ_n(FF_UNIT_ROUNDOFF).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Q, withinRelative } from '../dd/exact-rational.js';
import { ffAddInto, ffMulInto, ffDivInto, ffSqrtInto, ffFromNumberInto } from '../../src/formats/ff/ff-ops.js';
import { ffArithmetic, FF_UNIT_ROUNDOFF } from '../../src/formats/ff/ff.js';
import { dot, gemv, vector, matrix, toArray, formats } from '../../src/index.js';

const u2 = 2 ** -48;
/** A float-float value with both words normal binary32 numbers (|hi| in [2^-40, 2^40]). */
const ffValue = fc.tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.integer({ min: -40, max: 40 }), fc.boolean(), fc.double({ min: -1, max: 1, noNaN: true }))
  .map(([m, e, neg, t]) => {
    const out = new Float64Array(2);
    const x = (neg ? -m : m) * 2 ** e;
    ffFromNumberInto(out, x + t * Math.abs(x) * 2 ** -30);
    return { hi: out[0]!, lo: out[1]! };
  });
const exact = (v: { hi: number; lo: number }): Q => Q.dd(v.hi, v.lo);

describe('float-float arithmetic on the CPU', () => {
  it('words are binary32 numbers and a double rounds to within 2^-48', () => {
    fc.assert(fc.property(fc.double({ min: -1e30, max: 1e30, noNaN: true }).filter((x) => x === 0 || Math.abs(x) > 1e-30), (x) => {
      const out = new Float64Array(2);
      ffFromNumberInto(out, x);
      expect(Math.fround(out[0]!)).toBe(out[0]);
      expect(Math.fround(out[1]!)).toBe(out[1]);
      expect(withinRelative(Q.dd(out[0]!, out[1]!), Q.of(x), u2)).toBe(true);
    }));
  });

  it('addition errs by at most 3u², multiplication by 5u², division and square root by 16u²', () => {
    const out = new Float64Array(2);
    fc.assert(fc.property(ffValue, ffValue, (a, b) => {
      ffAddInto(out, a.hi, a.lo, b.hi, b.lo);
      const s = exact(a).add(exact(b));
      if (!s.isZero()) expect(withinRelative(Q.dd(out[0]!, out[1]!), s, 3 * u2)).toBe(true);
      ffMulInto(out, a.hi, a.lo, b.hi, b.lo);
      expect(withinRelative(Q.dd(out[0]!, out[1]!), exact(a).mul(exact(b)), 5 * u2)).toBe(true);
      ffDivInto(out, a.hi, a.lo, b.hi, b.lo);
      expect(withinRelative(Q.dd(out[0]!, out[1]!), exact(a).div(exact(b)), FF_UNIT_ROUNDOFF)).toBe(true);
      const p = { hi: Math.abs(a.hi), lo: a.hi < 0 ? -a.lo : a.lo };
      ffSqrtInto(out, p.hi, p.lo);
      const r = Q.dd(out[0]!, out[1]!);
      // |r − √p| ≤ ε√p  ⇔  (up to second order) |r² − p| ≤ 2ε·p
      expect(withinRelative(r.mul(r), exact(p), 2 * FF_UNIT_ROUNDOFF)).toBe(true);
    }), { numRuns: 300 });
  });

  it('a zero keeps its sign through the scalar conversions (toArray of a −0 read into ff was +0)', () => {
    for (const v of [-0, 0, -(2 ** -130), 2 ** -130]) {   // below binary32's normal range: flushed to a signed zero
      const z = ffArithmetic.fromNumber(v);
      expect(Object.is(ffArithmetic.toNumber(z), v < 0 || Object.is(v, -0) ? -0 : 0)).toBe(true);
    }
    for (const storage of [formats.f64, formats.f32, formats.f16]) {
      expect([...toArray(vector([-0, 0, 1], { storage, arithmetic: formats.ff }))], storage.name).toEqual([-0, 0, 1]);
    }
  });

  it('exports round once to narrower storage (round to odd first)', () => {
    // 1 + 2^-24 + 2^-40 lies above the binary32 midpoint 1 + 2^-24: the nearest binary32 is 1 + 2^-23.
    const v = { hi: 1, lo: 2 ** -24 + 2 ** -40 };
    expect(Math.fround(ffArithmetic.toKind('number', v, 24) as number)).toBe(1 + 2 ** -23);
    expect(ffArithmetic.toNumber(v)).toBe(1 + 2 ** -24 + 2 ** -40);
  });

  it('a DOT in formats.ff keeps about 48 bits where binary32 keeps 24 (bound γ_n(2^-44))', () => {
    const xs = Array.from({ length: 200 }, (_, i) => Math.fround(Math.sin(i + 1)));
    const ys = Array.from({ length: 200 }, (_, i) => Math.fround(Math.cos(3 * i + 2)));
    const x = vector(xs, { storage: formats.f32 }), y = vector(ys, { storage: formats.f32 });
    let e = Q.of(0), abs = Q.of(0);
    for (let i = 0; i < 200; i++) { const t = Q.of(xs[i]!).mul(Q.of(ys[i]!)); e = e.add(t); abs = abs.add(t.abs()); }
    const g = (200 * FF_UNIT_ROUNDOFF) / (1 - 200 * FF_UNIT_ROUNDOFF);
    const into = vector(1, { storage: formats.dd });
    const r = dot(x, y, { arithmetic: formats.ff, into });
    expect(Q.of(r).sub(e).abs().cmp(abs.mul(Q.of(g)).add(e.abs().mul(Q.of(2 ** -53))))).toBeLessThanOrEqual(0);
    const r32 = dot(x, y, { arithmetic: formats.f32 });
    expect(Math.abs(r - e.toNumber())).toBeLessThan(Math.abs(r32 - e.toNumber()) + 2 ** -40);
  });

  it('GEMV in formats.ff agrees with binary64 within the float-float bound', () => {
    const m = 9, n = 13;
    const A = matrix(m, n, (i, j) => Math.fround(Math.sin(i * n + j)), { storage: formats.f32 });
    const x = vector(Array.from({ length: n }, (_, j) => Math.fround(Math.cos(j))), { storage: formats.f32 });
    const yf = vector(m), yd = vector(m);
    gemv({ alpha: 1, A, x, beta: 0, y: yf }, { arithmetic: formats.ff });
    gemv({ alpha: 1, A, x, beta: 0, y: yd });
    const a = toArray(yf), b = toArray(yd);
    for (let i = 0; i < m; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual((n + 2) * FF_UNIT_ROUNDOFF * n + 2 ** -52);
  });
});
