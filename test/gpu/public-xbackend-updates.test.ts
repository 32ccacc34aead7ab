/**
 * SCAL, AXPY and WAXPBY through the public API on the three backends — `'js'`, `'wasm'` and `'gpu'` (llvmpipe,
 * strict) — from identical operands in every storage the GPU reads and writes (f64, f32, f16, bf16, dd, i8/i16 under
 * a scale) and every arithmetic (f32, ff, f64, dd): the same typed error everywhere but a documented capability
 * refusal, nothing written when it throws nor outside the output view when it runs, the same NaN/±∞ pattern, and
 * each finite element within the kernel's bound (scalBound, axpyBound, waxpbyBound) of the exact value of the stored
 * operands (BigInt); 'wasm' stores the bits 'js' stores (an element-wise kernel has no order to differ in). BLAS semantics are part of the exact value: α = 0 leaves AXPY's y as it was and keeps WAXPBY from
 * reading x (β = 0: y), so NaN or ±∞ there must not propagate; SCAL with α = 0 writes zeros.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpy, axpyBound, formats, scal, scalBound, waxpby, waxpbyBound } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { exactSumOfProducts, withinBound, type Factor } from './public-shapes-oracle.js';
import {
  ARITHMETICS, BACKENDS, affordable, attempt, coefficientArb, expectOneRule, makeVec, outsideBits, pattern, rawBits, readableAlike, readBack, vecSpecArb, type Backend, type Outcome,
} from './public-xbackend-cases.js';

const RUNS = Number(process.env.MODPREC_FUZZ_RUNS ?? 24);

const factors = (r: Parameters<typeof readBack>[0]): Factor[] => readBack(r).map((p) => (p.length === 1 ? p[0]! : { hi: p[0]!, lo: p[1]! }));
const finite = (f: Factor): boolean => (typeof f === 'number' ? Number.isFinite(f) : Number.isFinite(f.hi) && Number.isFinite(f.lo));

describe('SCAL, AXPY, WAXPBY on js, wasm and gpu: one rule, bounds against the exact value', () => {
  it('agree on errors, non-finite results and bounds', async () => {
    await requireRuntime();
    let compared = 0;
    await fc.assert(fc.asyncProperty(
      fc.nat(6).chain((n) => fc.tuple(vecSpecArb(n), vecSpecArb(n), vecSpecArb(n))), fc.constantFrom(...ARITHMETICS), fc.constantFrom('scal', 'axpy', 'waxpby'),
      coefficientArb, coefficientArb,
      async ([xs0, ys0, ws0], ar, kernel, alpha, beta) => {
        const [xs, ys, ws] = [affordable(xs0, ar), affordable(ys0, ar), affordable(ws0, ar)];
        const arithmetic = formats[ar];
        const outcomes = new Map<Backend, Outcome>(), patterns = new Map<Backend, string>(), stored = new Map<Backend, string>();
        const what = `${kernel} ${ar} α ${alpha} β ${beta} x ${xs.storage} ${JSON.stringify(xs.values)} y ${ys.storage} ${JSON.stringify(ys.values)} w ${ws.storage} inc ${ws.inc}`;
        for (const backend of BACKENDS) {
          const x = makeVec(readableAlike(xs, ar)), y = makeVec(readableAlike(ys, ar)), w = makeVec(readableAlike(ws, ar));
          const out = kernel === 'scal' ? x : kernel === 'axpy' ? y : w;
          const inputs = kernel === 'scal' ? [] : kernel === 'axpy' ? [x.full] : [x.full, y.full];
          const before = rawBits([x.full, y.full, w.full]), inputsBefore = rawBits(inputs), outside = outsideBits(out);
          const [xf, yf] = [factors(x.r), factors(y.r)];
          const options = { backend, strict: true, arithmetic } as never;
          const bound = kernel === 'scal' ? scalBound(alpha, x.r, { arithmetic }) : kernel === 'axpy' ? axpyBound(alpha, x.r, y.r, { arithmetic }) : waxpbyBound(alpha, x.r, beta, y.r, w.r, { arithmetic });
          const o = await attempt(() => (kernel === 'scal' ? scal(alpha, x.r, options) : kernel === 'axpy' ? axpy(alpha, x.r, y.r, options) : waxpby(alpha, x.r, beta, y.r, w.r, options)));
          outcomes.set(backend, o);
          if ('error' in o) {
            expect(rawBits([x.full, y.full, w.full]), `${what} [${backend}]: written before ${o.error}`).toBe(before);
            continue;
          }
          expect(rawBits(inputs), `${what} [${backend}]: an input changed`).toBe(inputsBefore);
          expect(outsideBits(out), `${what} [${backend}]: written outside the output view`).toBe(outside);
          const got = factors(out.r);
          stored.set(backend, rawBits([out.full]));
          patterns.set(backend, pattern(got.map((g) => (typeof g === 'number' ? g : g.hi)), ar === 'dd' || ar === 'ff'));
          got.forEach((g, i) => {
            // The terms the kernel reads, by BLAS semantics (a zero coefficient does not read its vector).
            let terms: Factor[][];
            if (kernel === 'scal') terms = alpha === 0 ? [] : [[alpha, xf[i]!]];
            else if (kernel === 'axpy') terms = alpha === 0 ? [[yf[i]!]] : [[alpha, xf[i]!], [yf[i]!]];
            else terms = [...(alpha === 0 ? [] : [[alpha, xf[i]!]]), ...(beta === 0 ? [] : [[beta, yf[i]!]])];
            if (!terms.every((t) => t.every(finite))) return;
            expect(withinBound(g, exactSumOfProducts(terms), bound[i]!), `${what} [${backend}] element ${i}: ${JSON.stringify(g)} outside the bound ${bound[i]}`).toBe(true);
            compared++;
          });
        }
        expectOneRule(what, outcomes, ['x', 'y', 'w'], patterns);
        // No reduction to order: WebAssembly computes each element as the JavaScript does (guide §3), so the same bits.
        if (stored.has('js') && stored.has('wasm')) expect(stored.get('wasm'), `${what}: wasm's bits against js's`).toBe(stored.get('js'));
      },
    ), { numRuns: RUNS });
    expect(compared).toBeGreaterThan(RUNS / 2);
  });
});
