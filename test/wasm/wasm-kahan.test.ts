/**
 * The compensated `kahan` accumulation in WebAssembly (issue 20): DOT in fp64 and fp32 arithmetic, every built-in
 * storage of the fixtures with strides, sub-ranges and a scale — bit for bit the documented order (lane i mod 8,
 * Knuth's TwoSum per term, the lanes joined by TwoSum in a fixed tree) evaluated here on the decoded values, within
 * dotBound's kahan bound of the exact rational value; NaN/±∞/±0/subnormal operands give the JavaScript kernel's
 * answer (a non-finite compensated sum is recomputed there); the automatic choice reported by cpuBackendOf.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, gemv, gemvBound, asum, asumBound, nrm2, nrm2Bound, formats, vector, cpuBackendOf } from '../../src/index.js';
import { Q } from '../dd/exact-rational.js';
import { nrm2Scaling, unscaled } from './nrm2-scaling.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, changedOutside, exactVector, positionsOf, snapshot, vectorSpec, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { readValues } from './wasm-dot-oracles.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { expectAsumWithinBound, expectDotWithinBound, expectGemvWithinBound, wasmGemvMatrixSpec, wasmGemvOutputSpec } from './wasm-exact-bounds.js';
import type { Range } from '../../src/index.js';

const f = Math.fround;
const id = (v: number): number => v;

/** Knuth's TwoSum in `round`'s arithmetic: [fl(a + b), the exact error]. */
function twoSum(a: number, b: number, round: (v: number) => number): [number, number] {
  const s = round(a + b), z = round(s - a);
  return [s, round(round(a - round(s - z)) + round(b - z))];
}

/** The documented order: term i into lane i mod 8's (s, c); joins (S, (ca + cb) + e) in the tree; s + c. */
function laneOrderKahan(terms: readonly number[], round: (v: number) => number): number {
  const lanes = Array.from({ length: 8 }, () => [0, 0] as [number, number]);
  terms.forEach((t, i) => {
    const l = lanes[i % 8]!;
    const [s, e] = twoSum(l[0], t, round);
    lanes[i % 8] = [s, round(l[1] + e)];
  });
  const join = (a: [number, number], b: [number, number]): [number, number] => {
    const [s, e] = twoSum(a[0], b[0], round);
    return [s, round(round(a[1] + b[1]) + e)];
  };
  const [s, c] = join(join(join(lanes[0]!, lanes[1]!), join(lanes[2]!, lanes[3]!)), join(join(lanes[4]!, lanes[5]!), join(lanes[6]!, lanes[7]!)));
  return round(s + c);
}

/** The values the f32 arithmetic reads: each element rounded to binary32, then times the binary32 scale, rounded. */
function readF32(r: Range<1, any>): number[] {
  const a = r.accessor;
  return Array.from({ length: r.length() }, (_, i) => {
    const v = f(a.storage.decode(a.data as never, a.linearIndex([i])) as number);
    return a.scale ? f(v * f(a.scale.data[a.scaleIndex([i])]!)) : v;
  });
}

const KAHAN = { accumulation: 'kahan' } as const;
const lengths = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 70 }) }, { weight: 1, arbitrary: fc.constantFrom(CHUNK - 3, CHUNK + 9) });
/** Values spread over many binades, so the compensation matters (cancellation, terms far apart). */
const ordinary = fc.oneof(fc.double({ min: -4, max: 4, noNaN: true }), fc.integer({ min: -(2 ** 20), max: 2 ** 20 }).map((k) => k * 2 ** 30), fc.double({ min: -1e-3, max: 1e-3, noNaN: true }));
const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e-310, -5e-324, 1e-40, 3e38, 1.7e308, -1.7e308);
const fit = (spec: VectorSpec, values: number[]): number[] => (spec.storage === 'i16s' ? values.map((v) => (Number.isFinite(v) ? v : 0)) : values);

for (const [arithmetic, round, read] of [['f64', id, readValues], ['f32', f, readF32]] as const) {
  describe(`WebAssembly DOT with the kahan accumulation, ${arithmetic} arithmetic`, () => {
    const options = { ...KAHAN, arithmetic: formats[arithmetic] };

    it('is the documented order bit for bit and within dotBound of the exact value: every storage, stride, sub-range, scale', () => {
      const input = lengths.chain((n) => fc.record({ a: vectorSpec, b: vectorSpec, x: fc.array(ordinary, { minLength: n, maxLength: n }), y: fc.array(ordinary, { minLength: n, maxLength: n }) }));
      fc.assert(fc.property(input, ({ a, b, x: xs, y: ys }) => {
        const x = buildVector(a, xs, arithmetic), y = buildVector(b, ys, arithmetic);
        expect(cpuBackendOf('dot', { x, y }, options).backend).toBe('wasm');
        const got = dot(x, y, { ...options, backend: 'wasm' });
        const vx = read(x), vy = read(y);
        const expected = laneOrderKahan(vx.map((v, i) => round(v * vy[i]!)), round);
        // A product or a sum beyond the format's range: the JavaScript kernel answers (checked below).
        if (!Number.isFinite(expected)) return;
        expect(Object.is(got, expected)).toBe(true);
        expectDotWithinBound(x, y, got, dotBound(x, y, options));
      }), { numRuns: 250 });
    });

    it('gives the JavaScript kernel\'s NaN, ±∞ and zeros: special operands, overflowing sums', () => {
      const element = fc.oneof({ weight: 3, arbitrary: ordinary }, { weight: 2, arbitrary: special });
      const input = fc.integer({ min: 0, max: 40 }).chain((n) => fc.record({ a: vectorSpec, b: vectorSpec, x: fc.array(element, { minLength: n, maxLength: n }), y: fc.array(element, { minLength: n, maxLength: n }) }));
      fc.assert(fc.property(input, ({ a, b, x: xs, y: ys }) => {
        const x = buildVector(a, fit(a, xs), arithmetic), y = buildVector(b, fit(b, ys), arithmetic);
        const auto = dot(x, y, options), js = dot(x, y, { ...options, backend: 'js' });
        const vx = read(x), vy = read(y);
        const lanes = laneOrderKahan(vx.map((v, i) => round(v * vy[i]!)), round);
        // Non-finite in the lane order: the call went to the JavaScript kernel. Finite: the lane order's value
        // (the JavaScript loop may overflow where the lanes do not — then Σ|terms| overflows and the bound is ∞).
        expect(Object.is(auto, Number.isFinite(lanes) ? lanes : js)).toBe(true);
        if (Number.isFinite(js) && js === 0 && auto === 0) expect(Object.is(auto, js)).toBe(true);
      }), { numRuns: 300 });
    });

    it('sums from +0 as the JavaScript kernel does: products of ±0 give +0', () => {
      const x = vector([-0, -0, 0, -0, -0, -0, -0, -0, -0], { arithmetic: formats[arithmetic] });
      const y = vector([1, 2, -3, 4, 5, 6, 7, 8, 9], { arithmetic: formats[arithmetic] });
      expect(Object.is(dot(x, y, { ...options, backend: 'wasm' }), 0)).toBe(true);
      expect(Object.is(dot(x, y, { ...options, backend: 'js' }), 0)).toBe(true);
    });

    it('recovers what the recursive sum loses: [2^k, 1, −2^k] repeated over the lanes', () => {
      const big = arithmetic === 'f64' ? 2 ** 60 : 2 ** 30;
      const xs = Array.from({ length: 3 * 24 }, (_, i) => [big, 1, -big][i % 3]!);
      const x = vector(xs, { arithmetic: formats[arithmetic] }), ones = vector(xs.map(() => 1), { arithmetic: formats[arithmetic] });
      expect(dot(x, ones, { ...options, backend: 'wasm' })).toBe(24);
      expect(dot(x, ones, { ...options, backend: 'js' })).toBe(24);
    });
  });
}

for (const [arithmetic, round, read] of [['f64', id, readValues], ['f32', f, readF32]] as const) {
  describe(`WebAssembly ASUM and NRM2 with the kahan accumulation, ${arithmetic} arithmetic`, () => {
    const options = { ...KAHAN, arithmetic: formats[arithmetic] };
    const element = fc.oneof({ weight: 12, arbitrary: ordinary }, { weight: 1, arbitrary: special });
    const input = lengths.chain((n) => fc.record({ a: vectorSpec, x: fc.array(element, { minLength: n, maxLength: n }) }));

    it('ASUM: the documented lane order bit for bit, within asumBound of the exact value; specials as JavaScript', () => {
      fc.assert(fc.property(input, ({ a, x: xs }) => {
        const x = buildVector(a, fit(a, xs), arithmetic);
        expect(cpuBackendOf('asum', { x }, options).backend).toBe('wasm');
        const got = asum(x, { ...options, backend: 'wasm' }), js = asum(x, { ...options, backend: 'js' });
        const lanes = laneOrderKahan(read(x).map(Math.abs), round);
        // Non-finite in the lane order: the JavaScript kernel answered.
        expect(Object.is(got, Number.isFinite(lanes) ? lanes : js)).toBe(true);
        const bound = asumBound(x, options);
        if (!Number.isFinite(bound) || !Number.isFinite(got)) return;
        expectAsumWithinBound(x, got, bound);
      }), { numRuns: 200 });
    });

    it('NRM2: 2^e·√(the lane order of the scaled squares) bit for bit, within nrm2Bound of the exact norm; specials as JavaScript', () => {
      fc.assert(fc.property(input, ({ a, x: xs }) => {
        const x = buildVector(a, fit(a, xs), arithmetic);
        expect(cpuBackendOf('nrm2', { x }, options).backend).toBe('wasm');
        const got = nrm2(x, { ...options, backend: 'wasm' }), js = nrm2(x, { ...options, backend: 'js' });
        const v = read(x);
        const max = v.reduce((m, t) => (Number.isNaN(m) || Number.isNaN(t) ? NaN : Math.max(m, Math.abs(t))), 0);
        if (max === 0 || !Number.isFinite(max)) { expect(Object.is(got, js)).toBe(true); return; }
        const { e, h1, h2 } = nrm2Scaling(max);
        const squares = v.map((t) => { const z = round(round(t * 2 ** h1) * 2 ** h2); return round(z * z); });
        const sum = laneOrderKahan(squares, round);
        expect(Object.is(got, Number.isFinite(sum) ? unscaled(round(Math.sqrt(sum)), e) : js)).toBe(true);
        const bound = nrm2Bound(x, options);
        if (!Number.isFinite(bound)) return;
        // |got − ‖x‖| ≤ bound, checked on squares: (got + bound)² ≥ Σxᵢ² and (got − bound ≤ 0 or (got − bound)² ≤ Σxᵢ²).
        const sq = exactVector(x).reduce((t, r) => { const q = new Q(r.num, r.den); return t.add(q.mul(q)); }, Q.of(0));
        const hi = Q.of(got).add(Q.of(bound)), lo = Q.of(got).sub(Q.of(bound));
        expect(hi.mul(hi).cmp(sq) >= 0 && (lo.cmp(Q.of(0)) <= 0 || lo.mul(lo).cmp(sq) <= 0)).toBe(true);
      }), { numRuns: 200 });
    });

    it('NRM2 keeps the squares the plain sum loses: ‖[1, 64 × 2^−k]‖ with 2^−2k under half an ulp of 1', () => {
      // fp64: 1 + 64·2^−54 = 1 + 2^−48 summed exactly, √ rounds to 1 + 2^−49; the plain loop adds each 2^−54 to 1 and loses it.
      // fp32: 1 + 64·2^−26 = 1 + 2^−20, √ → 1 + 2^−21.
      const k = arithmetic === 'f64' ? 27 : 13;
      const x = vector([1, ...Array.from({ length: 64 }, () => 2 ** -k)], { arithmetic: formats[arithmetic] });
      expect(nrm2(x, { ...options, backend: 'wasm' })).toBe(1 + 2 ** (5 - 2 * k));
      expect(nrm2(x, { ...options, backend: 'js' })).toBe(nrm2(x, { ...options, backend: 'wasm' }));
      expect(nrm2(x, { arithmetic: formats[arithmetic], backend: 'js' })).toBe(1);
    });
  });
}

const gemvCase = fc.record({
  m: fc.integer({ min: 1, max: 21 }), n: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 21 }) }, { weight: 1, arbitrary: fc.constant(CHUNK + 5) }), trans: fc.constantFrom('N' as const, 'T' as const),
  A: wasmGemvMatrixSpec, x: vectorSpec, y: wasmGemvOutputSpec, alpha: fc.constantFrom(1, -1, 0.5, 3), beta: fc.constantFrom(1, -1, 0.5, 3, 0),
  seed: fc.integer({ min: 0, max: 2 ** 30 }), specials: fc.boolean(),
});
type GemvCase = typeof gemvCase extends fc.Arbitrary<infer C> ? C : never;
const SPECIALS = [NaN, Infinity, -Infinity, -0, 1e-310, 1.7e308] as const;

/** The operands of one case (built twice: one copy per backend); values over many binades, specials if asked. */
function buildGemv(c: GemvCase, arithmetic: 'f64' | 'f32'): { A: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): number => (random.nextDouble() * 2 - 1) * 2 ** ((random.nextUint32() % 40) - 20);
  const special = (): number => (c.specials && random.nextUint32() % 8 === 0 ? SPECIALS[random.nextUint32() % SPECIALS.length]! : v());
  const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
  const finite = (spec: { storage: string }, value: () => number) => (): number => { const t = value(); return spec.storage === 'i16s' && !Number.isFinite(t) ? 0 : t; };
  const A = buildMatrix(c.A, rows, cols, finite(c.A, special), arithmetic);
  const x = buildVector(c.x, Float64Array.from({ length: c.n }, finite(c.x, special)), arithmetic);
  const y = buildVector(c.y, Float64Array.from({ length: c.m }, () => (c.beta === 0 ? NaN : v())), arithmetic);
  return { A, x, y };
}

const valuesOf = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));

for (const [arithmetic, round, read] of [['f64', id, readValues], ['f32', f, readF32]] as const) {
  describe(`WebAssembly GEMV with the kahan accumulation, ${arithmetic} arithmetic`, () => {
    const options = { ...KAHAN, arithmetic: formats[arithmetic] };
    it('by columns the JavaScript bits, by rows the documented lane order; within gemvBound; specials as JavaScript', () => {
      fc.assert(fc.property(gemvCase, (c) => {
        const a = buildGemv(c, arithmetic), b = buildGemv(c, arithmetic);
        const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y, trans: c.trans };
        expect(cpuBackendOf('gemv', { A: a.A, x: a.x, y: a.y }, options, ['y']).backend).toBe('wasm');
        const yIn = c.beta === 0 ? null : exactVector(a.y);
        const xIn = read(a.x), yValues = valuesOf(a.y).map(round);
        const before = snapshot(a.y);
        const bound = gemvBound(args, options);
        gemv(args, { ...options, backend: 'wasm' });
        gemv({ ...args, A: b.A, x: b.x, y: b.y }, { ...options, backend: 'js' });
        expect(changedOutside(a.y, before, positionsOf(a.y))).toEqual([]);
        const got = valuesOf(a.y), js = valuesOf(b.y);
        const byColumns = (c.A.layout === 'col') === (c.trans === 'N');
        const row = (i: number): number[] => Array.from({ length: c.n }, (_, j) => round(c.trans === 'N' ? a.A.get(i, j) : a.A.get(j, i)));
        const lanes = Array.from({ length: c.m }, (_, i) => laneOrderKahan(row(i).map((t, j) => round(t * xIn[j]!)), round));
        if (byColumns || !lanes.every(Number.isFinite)) {
          // The JavaScript loop's order, or a non-finite row sum: the call is the JavaScript kernel's.
          got.forEach((g, i) => expect(Object.is(g, js[i]), `y[${i}]: ${g} vs ${js[i]}`).toBe(true));
        } else {
          // α and β as the arithmetic's template combines them (coefficients.ts emitCombine).
          const expected = lanes.map((ti, i) => {
            const at = c.alpha === 1 ? ti : round(round(c.alpha) * ti);
            const r = c.beta === 0 ? at : round(at + (c.beta === 1 ? yValues[i]! : round(round(c.beta) * yValues[i]!)));
            return c.y.storage === 'f32' ? Math.fround(r) : r;
          });
          expect(got).toEqual(expected);
        }
        if (!got.every(Number.isFinite) || !xIn.every(Number.isFinite)) return;
        // gemvBound assumes no underflow inside the arithmetic (kernels/shared/accessor-rounding.ts): a stored value
        // or a product below its smallest normal (fp64's 1e-310 reads as 0 in fp32) is outside what it covers.
        const smallestNormal = arithmetic === 'f32' ? 2 ** -126 : 2 ** -1022;
        const under = (v: number): boolean => v !== 0 && Math.abs(v) < smallestNormal;
        const xRaw = valuesOf(a.x);
        const stored = (i: number, j: number): number => (c.trans === 'N' ? a.A.get(i, j) : a.A.get(j, i));
        const underflows = xRaw.some(under) || Array.from({ length: c.m }, (_, i) => xRaw.some((xj, j) => under(stored(i, j)) || under(stored(i, j) * xj))).some(Boolean);
        if (underflows) return;
        expectGemvWithinBound(c, a, yIn, bound);
      }), { numRuns: 120 });
    });
  });
}

describe('WebAssembly GEMV with the kahan accumulation: compensation and staging', () => {
  it('recovers what the recursive sum loses, by columns and by rows', () => {
    for (const layout of ['col', 'row'] as const) {
      const n = 3 * 24;
      const A = buildMatrix({ storage: 'f64', layout, sub: true, scaleRows: false }, 5, n, (i, j) => [2 ** 60, i + 1, -(2 ** 60)][j % 3]!);
      const x = vector(Array.from({ length: n }, () => 1)), y = vector(5);
      gemv({ alpha: 1, A, x, beta: 0, y }, { ...KAHAN, backend: 'wasm' });
      expect(valuesOf(y)).toEqual([24, 48, 72, 96, 120]);
    }
  });

  it('row blocks past the staging size by columns: the JavaScript bits, fp64 and fp32', () => {
    const m = CHUNK + 5, n = 7;
    for (const arithmetic of ['f64', 'f32'] as const) {
      const o = { ...KAHAN, arithmetic: formats[arithmetic] };
      const A = buildMatrix({ storage: 'bf16', layout: 'col', sub: true, scaleRows: false }, m, n, (i, j) => Math.sin(i + 3 * j) * 2 ** (j * 9 - 30), arithmetic);
      const x = vector(Array.from({ length: n }, (_, j) => Math.cos(j)), o), y = vector(m, o), y2 = vector(m, o);
      gemv({ alpha: 0.1, A, x, beta: 0, y }, { ...o, backend: 'wasm' });
      gemv({ alpha: 0.1, A, x, beta: 0, y: y2 }, { ...o, backend: 'js' });
      expect(valuesOf(y)).toEqual(valuesOf(y2));
    }
  });
});

describe('the kahan accumulation: the choice, reported', () => {
  const x = vector([1, 2, 3]);
  it('DOT, GEMV, TRSV, ELL SpMV, ASUM and NRM2 run it in WebAssembly; pairwise in TRSV says why the automatic choice does not', () => {
    expect(cpuBackendOf('dot', { x, y: x }, KAHAN)).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('dot', { x, y: x }, { ...KAHAN, arithmetic: formats.f32 })).toEqual({ backend: 'wasm' });
    const A = buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, 3, 3, (i, j) => i + j);
    expect(cpuBackendOf('gemv', { A, x, y: x }, KAHAN, ['y'])).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('gemv', { A, x, y: x }, { ...KAHAN, arithmetic: formats.f32 }, ['y'])).toEqual({ backend: 'wasm' });
    for (const k of ['asum', 'nrm2'] as const) for (const o of [KAHAN, { ...KAHAN, arithmetic: formats.f32 }]) expect(cpuBackendOf(k, { x }, o)).toEqual({ backend: 'wasm' });
    for (const o of [KAHAN, { ...KAHAN, arithmetic: formats.f32 }]) expect(cpuBackendOf('trsv', { A, x }, o, ['x'])).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('trsv', { A, x }, { accumulation: 'pairwise' }, ['x'])).toEqual({ backend: 'js', reason: "options.accumulation: TRSV's pairwise sums run a row per WebAssembly call, no faster than the generated JavaScript (the same bits), so the automatic choice keeps them there" });
    expectModprec(() => dot(x, x, { ...KAHAN, arithmetic: formats.dd, backend: 'wasm' }), 'INVALID_OPTION', 'options.accumulation');
  });
});
