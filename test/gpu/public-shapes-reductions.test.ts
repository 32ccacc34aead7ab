/**
 * DOT, ASUM and NRM2 through the public API with `backend: 'gpu'`, over lengths that cross the first pass's
 * boundaries (T = min(2^17, ⌈n/64⌉) threads reading runs of 4, two runs a step; the tree passes' 2048 partials a
 * workgroup), strided and negative-stride views with offsets, and storage × arithmetic: the default (f32 ranges:
 * f32), and f16/bf16/f64 with f32 or float-float. Each value is checked against the exact rational result of the
 * stored values within `dotBound` / `asumBound` / `nrm2Bound` (NRM2: (r − b)² ≤ Σx² ≤ (r + b)², exactly).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asum, asumBound, dot, dotBound, formats, nrm2, nrm2Bound } from '../../src/index.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { addRational, compareRational, exactOf, mulRational, subRational, type Rational } from '../../src/testing/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectWithin, exactSumOfProducts, makeVector, seededValues, storedVector } from './public-shapes-oracle.js';

/** Lengths around the first pass's thread count, its runs of 4 and its steps of 2 runs. */
const LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 513, 1023, 1025, 4097, 8191, 8200, 65537];

interface Case {
  readonly n: number;
  readonly incX: number;
  readonly incY: number;
  readonly seed: number;
}

const STORE = { f32: formats.f32, f16: formats.f16, bf16: formats.bf16, f64: formats.f64 } as const;
type Store = keyof typeof STORE;

async function checkDot(c: Case, sx: Store, sy: Store, arithmetic: FormatLike | undefined): Promise<void> {
  const ar = arithmetic ? { arithmetic } : {};
  const x = makeVector(seededValues(c.n, c.seed), STORE[sx], arithmetic ?? undefined, c.incX, 1);
  const y = makeVector(seededValues(c.n, c.seed + 1, 12), STORE[sy], arithmetic ?? undefined, c.incY, 1);
  const [hx, hy] = [storedVector(x.r), storedVector(y.r)];
  const bound = dotBound(x.r, y.r, ar);
  const r = await dot(x.r, y.r, { backend: 'gpu', strict: true, ...ar });
  expect(r.backend).toBe('gpu');
  expectWithin(`dot ${sx}·${sy} ${JSON.stringify(c)}`, r.value, exactSumOfProducts(Array.from(hx, (v, i) => [v, hy[i]!])), bound);
}

async function checkAsumNrm2(c: Case, sx: Store, arithmetic: FormatLike | undefined): Promise<void> {
  const ar = arithmetic ? { arithmetic } : {};
  const x = makeVector(seededValues(c.n, c.seed, 20), STORE[sx], arithmetic ?? undefined, c.incX, 1);
  const hx = storedVector(x.r);
  const what = `${sx} ${JSON.stringify(c)}`;
  const ab = asumBound(x.r, ar);
  const a = await asum(x.r, { backend: 'gpu', strict: true, ...ar });
  expect(a.backend).toBe('gpu');
  expectWithin(`asum ${what}`, a.value, exactSumOfProducts(Array.from(hx, (v) => [Math.abs(v)])), ab);
  const nb = nrm2Bound(x.r, ar);
  const r = await nrm2(x.r, { backend: 'gpu', strict: true, ...ar });
  expect(r.backend).toBe('gpu');
  const squares = exactSumOfProducts(Array.from(hx, (v) => [v, v]));
  expectNormWithin(`nrm2 ${what}`, r.value, squares, nb);
}

/** |r − √S| ≤ b, exactly: (r − b)² ≤ S (or r − b ≤ 0) and S ≤ (r + b)². */
function expectNormWithin(what: string, r: number, S: Rational, b: number): void {
  expect(Number.isFinite(r), `${what}: ${r}`).toBe(true);
  if (b === Infinity) return;
  const lo = subRational(exactOf(r), exactOf(b));
  const hi = addRational(exactOf(r), exactOf(b));
  const okLo = lo.num <= 0n || compareRational(mulRational(lo, lo), S) <= 0;
  const okHi = compareRational(S, mulRational(hi, hi)) <= 0;
  expect(okLo && okHi, `${what}: r = ${r}, √S ≈ ${Math.sqrt(Number(S.num) / Number(S.den))}, bound ${b}`).toBe(true);
}

const cases = fc.record({
  n: fc.constantFrom(...LENGTHS),
  incX: fc.constantFrom(1, 1, 1, 2, -1, -3),
  incY: fc.constantFrom(1, 1, 3, -2),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('DOT / ASUM / NRM2, backend gpu: lengths across the first pass', () => {
  it('default options (f32 ranges: f32 arithmetic)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(cases, async (c) => {
      await checkDot(c, 'f32', 'f32', undefined);
      await checkAsumNrm2(c, 'f32', undefined);
    }), { numRuns: 40 });
  });

  it('float-float over f32, f16, bf16 and f64 storage', async () => {
    await requireRuntime();
    const stores = fc.constantFrom<Store>('f32', 'f16', 'bf16', 'f64');
    await fc.assert(fc.asyncProperty(cases, stores, stores, async (c, sx, sy) => {
      await checkDot(c, sx, sy, formats.ff);
      await checkAsumNrm2(c, sx, formats.ff);
    }), { numRuns: 40 });
  });

  it('f32 arithmetic over 16-bit and f64 storage', async () => {
    await requireRuntime();
    const stores = fc.constantFrom<Store>('f16', 'bf16', 'f64');
    await fc.assert(fc.asyncProperty(cases, stores, stores, async (c, sx, sy) => {
      await checkDot(c, sx, sy, formats.f32);
      await checkAsumNrm2(c, sx, formats.f32);
    }), { numRuns: 25 });
  });

  it('lengths where the tree passes take several workgroups (T > 2048)', async () => {
    await requireRuntime();
    for (const n of [140001, 300003]) {
      for (const arithmetic of [undefined, formats.ff]) {
        await checkDot({ n, incX: 1, incY: -1, seed: n }, 'f32', 'f32', arithmetic);
        await checkAsumNrm2({ n, incX: 2, incY: 1, seed: n + 5 }, 'f32', arithmetic);
      }
    }
  });
});
