/** Cross-check against an independent implementation: GNU MPFR (gmp-wasm) at 212 bits. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { init, type CalculateTypeWithDestroy } from 'gmp-wasm';
import { ddAdd, ddSub } from '../../src/formats/dd/add.js';
import { ddMul } from '../../src/formats/dd/mul.js';
import { ddDiv } from '../../src/formats/dd/div.js';
import { ddSqrt } from '../../src/formats/dd/sqrt.js';
import { ddFromDecimal } from '../../src/formats/dd/decimal.js';
import { DD_ADD_BOUND, DD_MUL_BOUND, DD_DIV_BOUND, DD_SQRT_BOUND, DD_ROUNDING_BOUND } from '../../src/formats/dd/bounds.js';
import { normalizedDd } from './arbitraries.js';
import '../../src/formats/dd/register.js';
import { range, rowMajor, gamma } from '../../src/index.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { DD_UNIT_ROUNDOFF, type DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { prng } from './gen-dot.js';

let ctx: CalculateTypeWithDestroy;
/** The part of an MPFR float we use (gmp-wasm's own declarations do not type chained results). */
interface FloatType {
  add(v: FloatType): FloatType; sub(v: FloatType): FloatType; mul(v: FloatType): FloatType; div(v: FloatType): FloatType;
  abs(): FloatType; sqrt(): FloatType; toNumber(): number;
}
const float = (v: number | string): FloatType => ctx.Float(v, P) as unknown as FloatType;
const P = { precisionBits: 212 };
const out = new Float64Array(2);

beforeAll(async () => { ctx = (await init()).getContext(P); });
afterAll(() => ctx?.destroy());

const mp = (hi: number, lo: number): FloatType => float(hi).add(float(lo));
/**
 * MPFR relative error of out against ref (ref rounded at 212 bits: negligible next to 2^-104). An exact zero (x − x)
 * must be computed exactly: error 0 then, else ∞ (0/0 would be NaN and fail any bound for the wrong reason).
 */
const relErr = (ref: FloatType): number => {
  const diff = mp(out[0]!, out[1]!).sub(ref);
  if (ref.toNumber() === 0) return diff.toNumber() === 0 ? 0 : Infinity;
  return diff.div(ref).abs().toNumber();
};
// The MPFR reference itself carries a relative error ≤ 2^-211: allow that, nothing more.
const slack = (bound: number): number => bound * (1 + 2 ** -100) + 2 ** -200;

describe('double-double vs MPFR at 212 bits (gmp-wasm)', () => {
  it('random add, sub, mul, div, sqrt within the published bounds', () => {
    fc.assert(fc.property(normalizedDd(-300, 300), normalizedDd(-300, 300), (a, b) => {
      const x = mp(...a), y = mp(...b);
      ddAdd(out, ...a, ...b); expect(relErr(x.add(y))).toBeLessThanOrEqual(slack(DD_ADD_BOUND));
      ddSub(out, ...a, ...b); expect(relErr(x.sub(y))).toBeLessThanOrEqual(slack(DD_ADD_BOUND));
      ddMul(out, ...a, ...b); expect(relErr(x.mul(y))).toBeLessThanOrEqual(slack(DD_MUL_BOUND));
      ddDiv(out, ...a, ...b); expect(relErr(x.div(y))).toBeLessThanOrEqual(slack(DD_DIV_BOUND));
      ddSqrt(out, Math.abs(a[0]), Math.sign(a[0]) * a[1]);
      expect(relErr(x.abs().sqrt())).toBeLessThanOrEqual(slack(DD_SQRT_BOUND));
    }), { numRuns: 400 });
  });

  it('decimal parsing agrees with MPFR parsing', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: 1, maxLength: 45 });
    fc.assert(fc.property(digits, digits, fc.integer({ min: -250, max: 250 }), (i, f, e) => {
      const s = `${i}.${f}e${e}`;
      if (!/[1-9]/.test(s.split('e')[0]!)) return;
      ddFromDecimal(out, s);
      expect(relErr(float(s))).toBeLessThanOrEqual(slack(DD_ROUNDING_BOUND));
    }), { numRuns: 400 });
  });

  it('a double-double GEMV y := αAx + βy (DD A, x, y) agrees with MPFR within γ_{n+2}(2^-102)(|α||A||x| + |β||y|)', () => {
    const rand = prng(11);
    const m = 12, n = 30, alpha = 1 / 3, beta = -0.7;
    const ddRandom = (): { hi: number; lo: number } => { const hi = (rand() - 0.5) * 2 ** Math.floor(rand() * 20 - 10); return { hi, lo: hi * (rand() - 0.5) * 2 ** -53 }; };
    const A = range(rowMajor<2, DdValue>({ size: [m, n], storage: 'dd' }));
    const x = range(rowMajor<1, DdValue>({ size: n, storage: 'dd' }));
    const y = range(rowMajor<1, DdValue>({ size: m, storage: 'dd' }));
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, ddRandom());
    for (let j = 0; j < n; j++) x.set(j, ddRandom());
    for (let i = 0; i < m; i++) y.set(i, ddRandom());
    const val = (v: unknown): FloatType => { const p = v as { hi: number; lo: number }; return mp(p.hi, p.lo); };
    const mag = (v: unknown): number => Math.abs((v as { hi: number }).hi) * (1 + 2 ** -52);
    const expected: FloatType[] = [], scale: number[] = [];
    for (let i = 0; i < m; i++) {
      let acc = float(0), abs = 0;
      for (let j = 0; j < n; j++) { acc = acc.add(val(A.get(i, j)).mul(val(x.get(j)))); abs += mag(A.get(i, j)) * mag(x.get(j)); }
      expected.push(acc.mul(float(alpha)).add(val(y.get(i)).mul(float(beta))));
      scale.push((Math.abs(alpha) * abs + Math.abs(beta) * mag(y.get(i))) * (1 + 2 ** -40));
    }
    gemv({ alpha, A, x, beta, y, trans: 'N' });
    for (let i = 0; i < m; i++) {
      const got = val(y.get(i));
      const err = got.sub(expected[i]!).abs().toNumber();
      expect(err).toBeLessThanOrEqual(gamma(n + 2, DD_UNIT_ROUNDOFF) * scale[i]!);
      // and far below an fp64 GEMV's error scale
      expect(err).toBeLessThanOrEqual(1e-28 * scale[i]!);
    }
  });
});

