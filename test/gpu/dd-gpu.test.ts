/**
 * Double-double on the GPU (llvmpipe): dd storage read and written exactly, the 112-bit register arithmetic's
 * operations against exact BigInt rationals (add, multiply, fused multiply-add through the update kernel, divide
 * through a 1×1 TRSV, each within its stated bound), and the kernels in dd arithmetic against the exact oracle —
 * ill-conditioned DOTs to cond 1e30 within the CPU double-double's dotBound, GEMV N/T, NRM2, ASUM over dd, f64,
 * f32, f16, bf16 storage.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ddRange } from './dd-ranges.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpuNrm2 } from '../../kernels/nrm2/nrm2-webgpu.js';
import { gpuAsum } from '../../kernels/asum/asum-webgpu.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, divRational, mulRational, rational, subRational, type Rational } from '../../src/testing/rational.js';
import { formats, vector } from '../../src/index.js';
import { dotBound } from '../../kernels/dot/dot-bound.js';
import { roundBigToDouble } from '../../src/formats/dd/dd-gpu-words.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

/** The CPU double-double's unit roundoff: every GPU dd operation errs by less (2^-110). */
const U_OP = 2 ** -110;

/** Exact value of a dd pair. */
const pairValue = (hi: number, lo: number): Rational => addRational(exactOf(hi), exactOf(lo));


/** Pairs of a dd device array, exactly (its words). */
async function pairsOf(a: { encoded(): Promise<{ words: Uint32Array }>; length: number }): Promise<{ hi: number; lo: number }[]> {
  const w = (await a.encoded()).words;
  const d = new Float64Array(w.buffer, w.byteOffset, 2 * a.length);
  return Array.from({ length: a.length }, (_, k) => ({ hi: d[2 * k]!, lo: d[2 * k + 1]! }));
}

/** |a − b| ≤ rel·|scale| + abs, exactly. */
function within(a: Rational, b: Rational, rel: number, scale: Rational, abs = 0): boolean {
  const err = absRational(subRational(a, b));
  const bound = addRational(mulRational(exactOf(rel), absRational(scale)), exactOf(abs));
  return compareRational(err, bound) <= 0;
}

/** Rational to double (nearest), for messages. */
const num = (q: Rational): number => Number(q.num) / Number(q.den);

describe('dd on the GPU', () => {
  it('dd storage goes up and comes back bit for bit (out = 1·x + 0): pairs spanning ≤ 112 bits exactly, others within 2^-111', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(doubleDoubles({ minExponent: -900, maxExponent: 900 }), { minLength: 1, maxLength: 40 }), async (pairs) => {
      const x = await toDevice(ddRange(pairs) as never);
      const out = await toDevice(new Float64Array(pairs.length), { format: 'dd' });
      await gpuUpdate({ alpha: 1, x, beta: 0, out }, { arithmetic: 'dd', strict: true });
      const got = await pairsOf(out);
      pairs.forEach((p, k) => {
        const exact = pairValue(p.hi, p.lo);
        const value = pairValue(got[k]!.hi, got[k]!.lo);
        if (spanBits(p.hi, p.lo) <= 112) expect(compareRational(value, exact)).toBe(0);
        else expect(within(value, exact, 2 ** -111 + 2 ** -106, exact)).toBe(true);
      });
    }), { numRuns: 12 });
  });

  it('update αx + βy in dd arithmetic with dd storage: within (2·2^-110 + 2^-106)(|αx| + |βy|) of the exact value (multiply, add, fused multiply-add)', async () => {
    await requireRuntime();
    const dd = doubleDoubles({ minExponent: -200, maxExponent: 200 });
    const scalar = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(dd, dd), { minLength: 1, maxLength: 30 }), scalar, scalar, async (xy, alpha, beta) => {
      const x = await toDevice(ddRange(xy.map((t) => t[0])) as never);
      const y = await toDevice(ddRange(xy.map((t) => t[1])) as never);
      const out = await toDevice(new Float64Array(xy.length), { format: 'dd' });
      await gpuUpdate({ alpha, x, beta, y, out }, { arithmetic: 'dd', strict: true });
      const got = await pairsOf(out);
      xy.forEach(([p, q], k) => {
        const ax = mulRational(exactOf(alpha), pairValue(p.hi, p.lo));
        const by = mulRational(exactOf(beta), pairValue(q.hi, q.lo));
        const exact = addRational(ax, by);
        const scale = addRational(absRational(ax), absRational(by));
        // Reads of the pairs (< 2^-111 each), two products, one sum, the dd write (2^-106), and subnormal lo.
        expect(within(pairValue(got[k]!.hi, got[k]!.lo), exact, 5 * U_OP + 2 ** -106, scale, 2 ** -1074)).toBe(true);
      });
    }), { numRuns: 10 });
  });

  it('division (a 1×1 TRSV, b/a): within 2^-110 + 2^-106 of the exact quotient, dd storage', async () => {
    await requireRuntime();
    const dd = doubleDoubles({ minExponent: -300, maxExponent: 300 });
    await fc.assert(fc.asyncProperty(dd, dd, async (a, b) => {
      const A = deviceMatrix(await toDevice(ddRange([a]) as never), 1, 1);
      const x = await toDevice(ddRange([b]) as never);
      await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'dd', strict: true });
      const [got] = await pairsOf(x);
      const exact = divRational(pairValue(b.hi, b.lo), pairValue(a.hi, a.lo));
      expect(within(pairValue(got!.hi, got!.lo), exact, 3 * U_OP + 2 ** -106, exact, 2 ** -1074)).toBe(true);
    }), { numRuns: 15 });
  });

  it('ill-conditioned DOTs (cond up to 1e30), dd storage and arithmetic: within the CPU double-double dotBound', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 10, max: 100 }), fc.integer({ min: 2, max: 60 }), async (seed, big, n) => {
      // Large terms ±2^big·r that cancel exactly, small terms that survive: cond ≈ 2^(big+1)·n / |result|.
      const r = randomValues(n, seed);
      const s = randomValues(n, seed + 7);
      const xs: number[] = [];
      const ys: number[] = [];
      for (let k = 0; k < n; k++) {
        xs.push(r[k]! * 2 ** big, s[k]!, -r[k]! * 2 ** big);
        ys.push(1 + s[k]!, 1, 1 + s[k]!);
      }
      const pairs = (v: number[]): { hi: number; lo: number }[] => v.map((hi) => ({ hi, lo: 0 }));
      const X = ddRange(pairs(xs));
      const Y = ddRange(pairs(ys));
      const got = await gpuDot(await toDevice(X as never), await toDevice(Y as never), { arithmetic: 'dd', strict: true });
      expect(got.backend).toBe('gpu');
      let exact = rational(0n);
      for (let k = 0; k < xs.length; k++) exact = addRational(exact, mulRational(exactOf(xs[k]!), exactOf(ys[k]!)));
      const bound = dotBound(X as never, Y as never, { arithmetic: formats.dd });
      const err = absRational(subRational(exactOf(got.value), exact));
      expect(compareRational(err, exactOf(bound)), `cond-${big} dot: got ${got.value}, exact ${num(exact)}, bound ${bound}`).toBeLessThanOrEqual(0);
      // The 112-bit arithmetic does far better than the bound: these sums hold in 112 bits, so the result is the
      // exact value rounded once to a double.
      if (big <= 50) expect(got.value).toBe(roundRationalToNumber(exact));
    }), { numRuns: 12 });
  });

  for (const storage of ['dd', 'f64', 'f32', 'f16', 'bf16'] as const) {
    it(`GEMV N and T, NRM2, ASUM in dd arithmetic with ${storage} storage: within γ_{n+3}(2^-102)·Σ|terms| of the exact values`, async () => {
      await requireRuntime();
      await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 }), async (seed, m, n) => {
        const A = deviceMatrix(await toDevice(randomValues(m * n, seed, 3), { format: storage }), m, n);
        const x = await toDevice(randomValues(n, seed + 1), { format: storage });
        const xt = await toDevice(randomValues(m, seed + 2), { format: storage });
        const [ha, hx, hxt] = [await A.data.toHost(), await x.toHost(), await xt.toHost()];
        const y = await toDevice(new Float64Array(m), { format: 'dd' });
        const yt = await toDevice(new Float64Array(n), { format: 'dd' });
        await gpuGemv({ A, x, y, alpha: 1, beta: 0 }, { arithmetic: 'dd', strict: true });
        await gpuGemv({ A, x: xt, y: yt, alpha: 1, beta: 0, trans: 'T' }, { arithmetic: 'dd', strict: true });
        const [gy, gyt] = [await pairsOf(y), await pairsOf(yt)];
        const u = (k: number): number => (k * 2 ** -102) / (1 - k * 2 ** -102) + 2 ** -106;
        for (let i = 0; i < m; i++) {
          let exact = rational(0n);
          let mag = rational(0n);
          for (let j = 0; j < n; j++) {
            const t = mulRational(exactOf(ha[i + j * m]!), exactOf(hx[j]!));
            exact = addRational(exact, t);
            mag = addRational(mag, absRational(t));
          }
          expect(within(pairValue(gy[i]!.hi, gy[i]!.lo), exact, u(n + 3), mag, 2 ** -1074)).toBe(true);
        }
        for (let j = 0; j < n; j++) {
          let exact = rational(0n);
          let mag = rational(0n);
          for (let i = 0; i < m; i++) {
            const t = mulRational(exactOf(ha[i + j * m]!), exactOf(hxt[i]!));
            exact = addRational(exact, t);
            mag = addRational(mag, absRational(t));
          }
          expect(within(pairValue(gyt[j]!.hi, gyt[j]!.lo), exact, u(m + 3), mag, 2 ** -1074)).toBe(true);
        }
        // NRM2 and ASUM return doubles: the exact value rounded once more (relative 2^-53).
        let sq = rational(0n);
        let abs = rational(0n);
        for (let j = 0; j < n; j++) {
          sq = addRational(sq, mulRational(exactOf(hx[j]!), exactOf(hx[j]!)));
          abs = addRational(abs, absRational(exactOf(hx[j]!)));
        }
        const asum = await gpuAsum(x, { arithmetic: 'dd', strict: true });
        expect(within(exactOf(asum.value), abs, u(n + 1) + 2 ** -53, abs)).toBe(true);
        const nrm2 = await gpuNrm2(x, { arithmetic: 'dd', strict: true });
        const nrm2Exact = Math.sqrt(num(sq));
        expect(Math.abs(nrm2.value - nrm2Exact)).toBeLessThanOrEqual(nrm2Exact * 2 ** -50);
      }), { numRuns: 3 });
    });
  }

  it('refuses f32 or ff arithmetic on dd storage (it would drop lo), naming options.arithmetic', async () => {
    await requireRuntime();
    const x = await toDevice([1, 2], { format: 'dd' });
    await expect(gpuDot(x, x, { arithmetic: 'ff', strict: true })).rejects.toMatchObject({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' });
  });

  it('defaults to dd arithmetic for dd storage', async () => {
    await requireRuntime();
    const x = await toDevice([1, 2], { format: 'dd' });
    expect((await gpuDot(x, x, { strict: true })).arithmetic).toBe('dd');
  });
});

/** Bits from hi's leading bit to lo's last: a pair spanning ≤ 112 bits is held exactly by the register. */
function spanBits(hi: number, lo: number): number {
  if (lo === 0 || hi === 0) return 53;
  const top = Math.floor(Math.log2(Math.abs(hi)));
  const lsb = (v: number): number => {
    let e = Math.floor(Math.log2(Math.abs(v))) - 52;
    while (e < 2000 && Number.isInteger(v / 2 ** (e + 1))) e++;
    return e;
  };
  return top - lsb(lo) + 1;
}

/** The double nearest an exact rational with a power-of-two denominator. */
function roundRationalToNumber(q: Rational): number {
  const neg = q.num < 0n;
  const m = neg ? -q.num : q.num;
  const k = -(q.den.toString(2).length - 1);
  const v = roundBigToDouble(m, k);
  return neg ? -v : v;
}
