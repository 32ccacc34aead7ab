/**
 * Corners of the public GPU path the shape tests do not reach: NRM2 over f32 values near 2^±100 (the squares pass's
 * power-of-two scaling), DOT's `into` (f32, f16 views, scaled i8, dd) over lengths with several first-pass threads,
 * updates in place (AXPY with y as x, WAXPBY with w as x), GEMV with α, β not representable in binary32. Each result
 * against the exact rational value within the library's bound for the same call.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  axpy, axpyBound, colMajor, dot, dotBound, formats, gemv, gemvBound, nrm2, nrm2Bound, range, scaledReducedColMajor, waxpby, waxpbyBound,
} from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { addRational, compareRational, exactOf, mulRational, subRational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import {
  expectSpanKept, expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededValues, storedFactors, storedMatrix, storedVector,
} from './public-shapes-oracle.js';

const f32 = formats.f32;

describe('corners of the public GPU path', () => {
  it('NRM2 of f32 values near 2^100 and 2^-100 (squares beyond binary32 without the scaling)', async () => {
    await requireRuntime();
    const cases = fc.record({ n: fc.constantFrom(1, 3, 257, 70001), e: fc.constantFrom(100, -100, 60, -60), ff: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const arithmetic = c.ff ? { arithmetic: formats.ff } : {};
      const x = makeVector(Array.from(seededValues(c.n, c.seed), (v) => v * 2 ** c.e), f32, undefined, 1, 0).r;
      const hx = storedVector(x);
      const b = nrm2Bound(x, arithmetic);
      const r = await nrm2(x, { backend: 'gpu', strict: true, ...arithmetic });
      expect(r.backend).toBe('gpu');
      const S = exactSumOfProducts(Array.from(hx, (v) => [v, v]));
      const lo = subRational(exactOf(r.value), exactOf(b));
      const hi = addRational(exactOf(r.value), exactOf(b));
      const ok = Number.isFinite(r.value) && (lo.num <= 0n || compareRational(mulRational(lo, lo), S) <= 0) && compareRational(S, mulRational(hi, hi)) <= 0;
      expect(ok, `${JSON.stringify(c)}: nrm2 ${r.value}, bound ${b}`).toBe(true);
    }), { numRuns: 16 });
  });

  it("DOT's into: f32, an f16 view, a scaled i8 and a dd range", async () => {
    await requireRuntime();
    const cases = fc.record({ n: fc.constantFrom(1, 65, 1031, 20000), into: fc.constantFrom('f32', 'f16-view', 'i8-scaled', 'dd'), ff: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const arithmetic = c.ff ? formats.ff : f32;
      const x = makeVector(seededValues(c.n, c.seed), f32, arithmetic, 1, 0).r;
      const y = makeVector(seededValues(c.n, c.seed + 1), f32, arithmetic, -1, 1).r;
      let into: Range<1, any>;
      let check = () => {};
      if (c.into === 'f16-view') {
        const v = makeVector([0.5], formats.f16, arithmetic, 1, 2);
        into = v.r;
        check = () => expectSpanKept(JSON.stringify(c), v);
      } else if (c.into === 'i8-scaled') {
        into = range(scaledReducedColMajor<1>({ size: [1], storage: formats.i8, arithmetic: formats.f64, scaleMask: [false], scale: Float64Array.of(2 ** -7) } as never)) as Range<1, any>;
      } else {
        into = range(colMajor<1>({ size: [1], storage: c.into === 'dd' ? formats.dd : f32, arithmetic: c.into === 'dd' ? formats.dd : arithmetic } as never)) as Range<1, any>;
      }
      const options = { arithmetic, into };
      const bound = dotBound(x, y, options);
      const [hx, hy] = [storedVector(x), storedVector(y)];
      const r = await dot(x, y, { backend: 'gpu', strict: true, ...options } as never);
      expect((r as { backend: string }).backend).toBe('gpu');
      check();
      // |x·y| ≤ 20000: an i8 with scale 2^-7 holds ±0.99; the values are small only for n = 1 — skip saturation.
      const exact = exactSumOfProducts(Array.from(hx, (v, i) => [v, hy[i]!]));
      if (c.into === 'i8-scaled' && Math.abs(Number(exact.num) / Number(exact.den)) > 0.98) return;
      expectWithin(`into ${JSON.stringify(c)}`, storedFactors(into)[0]!, exact, bound);
    }), { numRuns: 24 });
  });

  it('AXPY with y as x and WAXPBY with w as x, lengths across the vector form', async () => {
    await requireRuntime();
    const cases = fc.record({ n: fc.constantFrom(1, 4, 7, 256, 1027), alpha: fc.constantFrom(2, -0.75, 0.1), beta: fc.constantFrom(0.5, -3), inc: fc.constantFrom(1, -2), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const v = makeVector(seededValues(c.n, c.seed), f32, undefined, c.inc, 1);
      const h = storedVector(v.r);
      const b = axpyBound(c.alpha, v.r, v.r);
      expect((await axpy(c.alpha, v.r, v.r, { backend: 'gpu', strict: true })).backend).toBe('gpu');
      let got = storedVector(v.r);
      expectSpanKept(`axpy ${JSON.stringify(c)}`, v);
      for (let i = 0; i < c.n; i++) expectWithin(`axpy in place ${JSON.stringify(c)} [${i}]`, got[i]!, exactSumOfProducts([[c.alpha, h[i]!], [h[i]!]]), b[i]!);
      const w = makeVector(seededValues(c.n, c.seed + 1), f32, undefined, c.inc, 1);
      const y = makeVector(seededValues(c.n, c.seed + 2), f32, undefined, 1, 0);
      const [hw, hy] = [storedVector(w.r), storedVector(y.r)];
      const bw = waxpbyBound(c.alpha, w.r, c.beta, y.r, w.r);
      expect((await waxpby(c.alpha, w.r, c.beta, y.r, w.r, { backend: 'gpu', strict: true })).backend).toBe('gpu');
      got = storedVector(w.r);
      for (let i = 0; i < c.n; i++) expectWithin(`waxpby w = x ${JSON.stringify(c)} [${i}]`, got[i]!, exactSumOfProducts([[c.alpha, hw[i]!], [c.beta, hy[i]!]]), bw[i]!);
    }), { numRuns: 20 });
  });

  it('GEMV with α, β not representable in binary32 (f32 and ff)', async () => {
    await requireRuntime();
    const cases = fc.record({ m: fc.constantFrom(3, 257), n: fc.constantFrom(5, 70), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), alpha: fc.constantFrom(0.1, -1 / 3, 1e-40), beta: fc.constantFrom(0.1, 2 / 3), ff: fc.boolean(), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      const arithmetic: FormatLike | undefined = c.ff ? formats.ff : undefined;
      const ar = arithmetic ? { arithmetic } : {};
      const [rows, inner] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const a = seededValues(c.m * c.n, c.seed);
      const A = makeMatrix(c.m, c.n, (i, j) => a[i + j * c.m]!, f32, undefined, 'col');
      const x = makeVector(seededValues(inner, c.seed + 1), f32, undefined).r;
      const y = makeVector(seededValues(rows, c.seed + 2), f32, undefined).r;
      const args = { alpha: c.alpha, A, x, beta: c.beta, y, trans: c.trans };
      const bound = gemvBound(args, ar);
      const [hA, hx, hy] = [storedMatrix(A), storedVector(x), storedVector(y)];
      expect((await gemv(args, { backend: 'gpu', strict: true, ...ar })).backend).toBe('gpu');
      const got = storedVector(y);
      for (let i = 0; i < rows; i++) {
        const terms: number[][] = [[c.beta, hy[i]!]];
        for (let k = 0; k < inner; k++) terms.push([c.alpha, c.trans === 'N' ? hA[i + k * c.m]! : hA[k + i * c.m]!, hx[k]!]);
        expectWithin(`${JSON.stringify(c)} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }), { numRuns: 16 });
  });
});
