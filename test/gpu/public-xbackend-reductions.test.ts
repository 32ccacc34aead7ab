/**
 * DOT, ASUM and NRM2 through the public API on the three backends — `'js'`, `'wasm'` and `'gpu'` (llvmpipe, strict)
 * — from identical operands in every storage the GPU reads (f64, f32, f16, bf16, dd, i8/i16 under a scale) and every
 * arithmetic (f32, ff, f64, dd): the same typed error everywhere but a documented capability refusal, nothing written
 * when it throws, the same NaN/±∞ pattern, and each finite result within the kernel's own bound (dotBound, asumBound,
 * nrm2Bound; with DOT's `into` of any of those storages, the value stored there) of the exact value of the stored
 * operands (BigInt). Special values (NaN, ±0, ±∞, binary32 and binary64
 * subnormals, 0·∞) come often; sizes 0–6 keep llvmpipe's compiles few.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asum, asumBound, dot, dotBound, formats, nrm2, nrm2Bound } from '../../src/index.js';
import { addRational, compareRational, exactOf, mulRational, rational, subRational, type Rational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { exactSumOfProducts, withinBound, type Factor } from './public-shapes-oracle.js';
import { ARITHMETICS, BACKENDS, affordable, attempt, expectOneRule, makeVec, outsideBits, pattern, rawBits, readableAlike, readBack, vecSpecArb, type Backend, type Outcome } from './public-xbackend-cases.js';

// Each new signature compiles on llvmpipe (seconds, some tens of seconds): few runs keep the file near 30 s;
// MODPREC_FUZZ_RUNS raises them for a hunt.
const RUNS = Number(process.env.MODPREC_FUZZ_RUNS ?? 16);

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
      fc.nat(6).chain((n) => fc.tuple(vecSpecArb(n), vecSpecArb(n))), fc.constantFrom(...ARITHMETICS), fc.constantFrom('dot', 'dot-into', 'asum', 'nrm2'),
      vecSpecArb(1),
      async ([xs0, ys0], ar, kernel, intoSpec) => {
        const [xs, ys] = [affordable(xs0, ar), affordable(ys0, ar)];
        const arithmetic = formats[ar];
        const outcomes = new Map<Backend, Outcome>(), patterns = new Map<Backend, string>();
        const what = `${kernel}${kernel === 'dot-into' ? ` into ${intoSpec.storage}` : ''} ${ar} x ${xs.storage} ${JSON.stringify(xs.values)} y ${ys.storage} ${JSON.stringify(ys.values)}`;
        for (const backend of BACKENDS) {
          const x = makeVec(readableAlike(xs, ar)), y = makeVec(readableAlike(ys, ar)), into = kernel === 'dot-into' ? makeVec(affordable(intoSpec, ar)) : undefined;
          const ranges = [x.full, y.full];
          const before = rawBits(ranges), intoBefore = into ? rawBits([into.full]) : '', outside = into ? outsideBits(into) : '';
          const [xf, yf] = [factors(x.r), factors(y.r)];
          const extra = into ? { into: into.r } : {};
          const bound = kernel.startsWith('dot') ? dotBound(x.r, y.r, { arithmetic, ...extra }) : kernel === 'asum' ? asumBound(x.r, { arithmetic }) : nrm2Bound(x.r, { arithmetic });
          const options = { backend, strict: true, arithmetic, ...extra } as never;
          const o = await attempt(() => (kernel.startsWith('dot') ? dot(x.r, y.r, options) : kernel === 'asum' ? asum(x.r, options) : nrm2(x.r, options)));
          outcomes.set(backend, o);
          expect(rawBits(ranges), `${what} [${backend}]: operands changed`).toBe(before);
          if ('error' in o) {
            if (into) expect(rawBits([into.full]), `${what} [${backend}]: into written before ${o.error}`).toBe(intoBefore);
            continue;
          }
          if (into) expect(outsideBits(into), `${what} [${backend}]: written outside into's view`).toBe(outside);
          // With into, the bound is the value stored there (dotBound's table, guide §5).
          const stored = into ? factors(into.r)[0]! : undefined;
          const r = stored === undefined ? o.value! : typeof stored === 'number' ? stored : stored.hi + stored.lo;
          patterns.set(backend, pattern([r], ar === 'dd' || ar === 'ff'));
          const inputsFinite = xf.every(finite) && (!kernel.startsWith('dot') || yf.every(finite));
          if (!inputsFinite) continue;
          let ok: boolean;
          if (kernel.startsWith('dot')) ok = withinBound(stored ?? r, exactSumOfProducts(xf.map((v, i) => [v, yf[i]!])), bound);
          else if (kernel === 'asum') ok = withinBound(r, exactSumOfProducts(xf.map((v) => [abs(v)])), bound);
          else ok = sqrtWithin(r, exactSumOfProducts(xf.map((v) => [v, v])), bound);
          expect(ok, `${what} [${backend}]: ${r} outside the bound ${bound}`).toBe(true);
          compared++;
        }
        expectOneRule(what, outcomes, ['x', 'y', 'options.into'], patterns);
      },
    ), { numRuns: RUNS });
    expect(compared).toBeGreaterThan(RUNS / 3);
  });
});
