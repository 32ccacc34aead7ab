/**
 * DOT, ASUM and NRM2 through the public API on the three backends — `'js'`, `'wasm'` and `'gpu'` (llvmpipe, strict)
 * — from identical operands in every storage the GPU reads (f64, f32, f16, bf16, dd, i8/i16 under a scale) and every
 * arithmetic (f32, ff, f64, dd): the same typed error everywhere but a documented capability refusal, nothing written
 * when it throws, the same NaN/±∞ pattern, and each finite result within the kernel's own bound (dotBound, asumBound,
 * nrm2Bound) of the exact value of the stored operands (BigInt). Special values (NaN, ±0, ±∞, binary32 and binary64
 * subnormals, 0·∞) come often; sizes 0–6 keep llvmpipe's compiles few.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asum, asumBound, dot, dotBound, formats, nrm2, nrm2Bound } from '../../src/index.js';
import { addRational, compareRational, exactOf, mulRational, rational, subRational, type Rational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { exactSumOfProducts, withinBound, type Factor } from './public-shapes-oracle.js';
import { ARITHMETICS, BACKENDS, attempt, expectOneRule, makeVec, pattern, rawBits, readableAlike, readBack, vecSpecArb, type Backend, type Outcome } from './public-xbackend-cases.js';

const RUNS = Number(process.env.MODPREC_FUZZ_RUNS ?? 24);

const factors = (r: Parameters<typeof readBack>[0]): Factor[] => readBack(r).map((p) => (p.length === 1 ? p[0]! : { hi: p[0]!, lo: p[1]! }));
const finite = (f: Factor): boolean => (typeof f === 'number' ? Number.isFinite(f) : Number.isFinite(f.hi) && Number.isFinite(f.lo));
const neg = (f: Factor): Factor => (typeof f === 'number' ? -f : { hi: -f.hi, lo: -f.lo });
const abs = (f: Factor): Factor => ((typeof f === 'number' ? f : f.hi) < 0 ? neg(f) : f);

/** |r − √S| ≤ b for an exact sum of squares S: (r − b)² ≤ S ≤ (r + b)² with r − b clamped at 0. */
function sqrtWithin(r: number, S: Rational, b: number): boolean {
  if (!Number.isFinite(r)) return false;
  if (b === Infinity) return true;
  const hi = addRational(exactOf(r), exactOf(b));
  let lo = subRational(exactOf(r), exactOf(b));
  if (compareRational(lo, rational(0n)) < 0) lo = rational(0n);
  return compareRational(mulRational(lo, lo), S) <= 0 && compareRational(S, mulRational(hi, hi)) <= 0;
}

describe('DOT, ASUM, NRM2 on js, wasm and gpu: one rule, bounds against the exact value', () => {
  it('agree on errors, non-finite results and bounds', async () => {
    await requireRuntime();
    let compared = 0;
    await fc.assert(fc.asyncProperty(
      fc.nat(6).chain((n) => fc.tuple(vecSpecArb(n), vecSpecArb(n))), fc.constantFrom(...ARITHMETICS), fc.constantFrom('dot', 'asum', 'nrm2'),
      async ([xs, ys], ar, kernel) => {
        const arithmetic = formats[ar];
        const outcomes = new Map<Backend, Outcome>(), patterns = new Map<Backend, string>();
        const what = `${kernel} ${ar} x ${xs.storage} ${JSON.stringify(xs.values)} y ${ys.storage} ${JSON.stringify(ys.values)}`;
        for (const backend of BACKENDS) {
          const x = makeVec(readableAlike(xs, ar)), y = makeVec(readableAlike(ys, ar));
          const ranges = [x.full, y.full];
          const before = rawBits(ranges);
          const [xf, yf] = [factors(x.r), factors(y.r)];
          const bound = kernel === 'dot' ? dotBound(x.r, y.r, { arithmetic }) : kernel === 'asum' ? asumBound(x.r, { arithmetic }) : nrm2Bound(x.r, { arithmetic });
          const options = { backend, strict: true, arithmetic } as never;
          const o = await attempt(() => (kernel === 'dot' ? dot(x.r, y.r, options) : kernel === 'asum' ? asum(x.r, options) : nrm2(x.r, options)));
          outcomes.set(backend, o);
          expect(rawBits(ranges), `${what} [${backend}]: operands changed`).toBe(before);
          if ('error' in o) continue;
          const r = o.value!;
          patterns.set(backend, pattern([r], ar === 'dd' || ar === 'ff'));
          const inputsFinite = xf.every(finite) && (kernel !== 'dot' || yf.every(finite));
          if (!inputsFinite) continue;
          let ok: boolean;
          if (kernel === 'dot') ok = withinBound(r, exactSumOfProducts(xf.map((v, i) => [v, yf[i]!])), bound);
          else if (kernel === 'asum') ok = withinBound(r, exactSumOfProducts(xf.map((v) => [abs(v)])), bound);
          else ok = sqrtWithin(r, exactSumOfProducts(xf.map((v) => [v, v])), bound);
          expect(ok, `${what} [${backend}]: ${r} outside the bound ${bound}`).toBe(true);
          compared++;
        }
        expectOneRule(what, outcomes, ['x', 'y'], patterns);
      },
    ), { numRuns: RUNS });
    expect(compared).toBeGreaterThan(RUNS / 2);
  });
});
