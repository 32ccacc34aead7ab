/**
 * The `pairwise` and `dot2` accumulations in WebAssembly (issue 20): DOT, GEMV, ASUM and NRM2 in fp64 and fp32 arithmetic
 * give the JavaScript kernel's bits — the accumulations define their order, and the WebAssembly follows it — over
 * every built-in storage with strides, negative strides, sub-ranges, scales, wasmArena operands read in place, block
 * and level counts past several carries and the staging chunks' boundaries; within the accumulation's bound of the
 * exact rational value; NaN/±∞ from the JavaScript kernel; the automatic choice reported by cpuBackendOf.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum, asumBound, cpuBackendOf, dot, dotBound, formats, gemv, gemvBound, nrm2, vector, wasmArena, type Range } from '../../src/index.js';
import { buildMatrix, buildVector, exactVector, vectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { wasmOrderedAsum, wasmOrderedDot } from '../../kernels/shared/ordered-sum-wasm.js';
import { vectorTwinSpec, vectorTwins, type TwinStorage } from './arena-twins.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { expectAsumWithinBound, expectDotWithinBound, expectGemvWithinBound, wasmGemvMatrixSpec, wasmGemvOutputSpec } from './wasm-exact-bounds.js';

/** Lengths: every remainder mod 8 and 16, block counts with several carries (up to 2^5 blocks), chunk boundaries. */
const lengths = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 530 }) },
  { weight: 1, arbitrary: fc.constantFrom(CHUNK - 3, CHUNK + 9, 4 * CHUNK + 5) },
);
/**
 * Values with full significands over 40 binades (every addition rounds: the tree's shape shows in the last bits),
 * and large integers' multiples that cancel (what dot2 recovers).
 */
const fullSignificand = fc.tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.integer({ min: -20, max: 20 }), fc.boolean()).map(([m, e, negative]) => (negative ? -m : m) * 2 ** e);
const ordinary = fc.oneof({ weight: 4, arbitrary: fullSignificand }, { weight: 1, arbitrary: fc.integer({ min: -(2 ** 20), max: 2 ** 20 }).map((k) => k * 2 ** 30) });
const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e-310, -5e-324, 1e-40, 3e38, 1.7e308, -1.7e308);
const withSpecials = fc.oneof({ weight: 12, arbitrary: ordinary }, { weight: 1, arbitrary: special });
/** n elements, with specials in one case of four (a special makes most long sums non-finite: the JavaScript's to answer). */
const elements = (n: number): fc.Arbitrary<number[]> => fc.integer({ min: 0, max: 3 }).chain((k) => fc.array(k === 0 ? withSpecials : ordinary, { minLength: n, maxLength: n }));
/** Scaled 16-bit integers take finite values only. */
const fit = (storage: string, values: number[]): number[] => (storage === 'i16s' ? values.map((v) => (Number.isFinite(v) ? v : 0)) : values);
const ALL: readonly TwinStorage[] = ['f64', 'f32', 'f16', 'bf16', 'i8s', 'i8', 'dd'];
/** The automatic choice: pairwise in WebAssembly, dot2 in the JavaScript (as fast there, the same bits: cpu-backend.ts). */
const AUTOMATIC = { pairwise: 'wasm', dot2: 'js' } as const;

for (const accumulation of ['pairwise', 'dot2'] as const) {
  for (const arithmetic of ['f64', 'f32'] as const) {
    describe(`WebAssembly ${accumulation} accumulation, ${arithmetic} arithmetic`, () => {
      const options = { accumulation, arithmetic: formats[arithmetic] };

      it('DOT: the JavaScript kernel\'s bits, within dotBound of the exact value; every storage, stride, sub-range, scale', () => {
        const input = lengths.chain((n) => fc.record({ a: vectorSpec, b: vectorSpec, x: elements(n), y: elements(n) }));
        fc.assert(fc.property(input, ({ a, b, x: xs, y: ys }) => {
          const x = buildVector(a, fit(a.storage, xs), arithmetic), y = buildVector(b, fit(b.storage, ys), arithmetic);
          expect(cpuBackendOf('dot', { x, y }, options).backend).toBe(AUTOMATIC[accumulation]);
          const js = dot(x, y, { ...options, backend: 'js' });
          const direct = wasmOrderedDot(x.accessor, y.accessor, x.length(), accumulation, arithmetic);
          // Finite: the WebAssembly's own value is the JavaScript's; non-finite: the kernel asks the JavaScript.
          if (Number.isFinite(direct)) expect(Object.is(direct, js)).toBe(true);
          expect(Object.is(dot(x, y, { ...options, backend: 'wasm' }), js)).toBe(true);
          const bound = dotBound(x, y, options);
          // The exact rational oracle on the chunk-crossing lengths costs seconds: their bits are checked above.
          if (!Number.isFinite(js) || !Number.isFinite(bound) || x.length() > CHUNK) return;
          expectDotWithinBound(x, y, js, bound);
        }), { numRuns: 30 });
      });

      it('ASUM and NRM2: the JavaScript kernel\'s bits, ASUM within asumBound; every storage, stride, sub-range, scale', () => {
        const input = lengths.chain((n) => fc.record({ a: vectorSpec, x: elements(n) }));
        fc.assert(fc.property(input, ({ a, x: xs }) => {
          const x = buildVector(a, fit(a.storage, xs), arithmetic);
          expect(cpuBackendOf('asum', { x }, options).backend).toBe(AUTOMATIC[accumulation]);
          expect(cpuBackendOf('nrm2', { x }, options).backend).toBe(AUTOMATIC[accumulation]);
          const js = asum(x, { ...options, backend: 'js' });
          const direct = wasmOrderedAsum(x.accessor, x.length(), accumulation, arithmetic);
          if (Number.isFinite(direct)) expect(Object.is(direct, js)).toBe(true);
          expect(Object.is(asum(x, { ...options, backend: 'wasm' }), js)).toBe(true);
          expect(Object.is(nrm2(x, { ...options, backend: 'wasm' }), nrm2(x, { ...options, backend: 'js' }))).toBe(true);
          const bound = asumBound(x, options);
          if (!Number.isFinite(js) || !Number.isFinite(bound) || x.length() > CHUNK) return;
          expectAsumWithinBound(x, js, bound);
        }), { numRuns: 25 });
      });

      it('wasmArena operands read in place (dd, i8, scaled i8 too): the JavaScript kernel\'s bits for DOT, ASUM, NRM2', () => {
        const input = lengths.chain((n) => fc.record({
          a: vectorTwinSpec(ALL), b: vectorTwinSpec(ALL), xs: elements(n), ys: elements(n),
        }));
        fc.assert(fc.property(input, ({ a: sa, b: sb, xs, ys }) => {
          const arena = wasmArena(16 * 2 ** 20);
          try {
            const [x1, x2] = vectorTwins(sa, xs, arena, arithmetic), [y1, y2] = vectorTwins(sb, ys, arena, arithmetic);
            expect(cpuBackendOf('dot', { x: x2, y: y2 }, options).backend).toBe(AUTOMATIC[accumulation]);
            expect(Object.is(dot(x2, y2, { ...options, backend: 'wasm' }), dot(x1, y1, { ...options, backend: 'js' }))).toBe(true);
            expect(Object.is(asum(x2, { ...options, backend: 'wasm' }), asum(x1, { ...options, backend: 'js' }))).toBe(true);
            expect(Object.is(nrm2(x2, { ...options, backend: 'wasm' }), nrm2(x1, { ...options, backend: 'js' }))).toBe(true);
          } finally { arena.release(); }
        }), { numRuns: 15 });
      });
    });
  }
}

const gemvCase = fc.record({
  m: fc.integer({ min: 1, max: 12 }), n: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 90 }) }, { weight: 1, arbitrary: fc.constant(CHUNK + 5) }),
  trans: fc.constantFrom('N' as const, 'T' as const), A: wasmGemvMatrixSpec, x: vectorSpec, y: wasmGemvOutputSpec,
  alpha: fc.constantFrom(1, -1, 0.5, 3), beta: fc.constantFrom(1, -1, 0.5, 0), seed: fc.integer({ min: 0, max: 2 ** 30 }), specials: fc.integer({ min: 0, max: 3 }),
});
type GemvCase = typeof gemvCase extends fc.Arbitrary<infer C> ? C : never;

/** The operands of one case (built once per backend): full significands over 40 binades; specials in one case of four. */
function buildGemv(c: GemvCase, arithmetic: 'f64' | 'f32'): { A: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): number => (random.nextDouble() + 1) * (random.nextUint32() % 2 ? -1 : 1) * 2 ** ((random.nextUint32() % 40) - 20);
  const specials = [NaN, Infinity, -0, 1e-310] as const;
  const maybe = (): number => (c.specials === 0 && random.nextUint32() % 16 === 0 ? specials[random.nextUint32() % specials.length]! : v());
  const finiteFor = (storage: string, t: number): number => (storage === 'i16s' && !Number.isFinite(t) ? 0 : t);
  const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
  const A = buildMatrix(c.A, rows, cols, () => v(), arithmetic);
  const x = buildVector(c.x, Float64Array.from({ length: c.n }, () => finiteFor(c.x.storage, maybe())), arithmetic);
  const y = buildVector(c.y, Float64Array.from({ length: c.m }, () => (c.beta === 0 ? NaN : v())), arithmetic);
  return { A, x, y };
}

for (const accumulation of ['pairwise', 'dot2'] as const) {
  for (const arithmetic of ['f64', 'f32'] as const) {
    describe(`WebAssembly GEMV with the ${accumulation} accumulation, ${arithmetic} arithmetic`, () => {
      const options = { accumulation, arithmetic: formats[arithmetic] };
      it('contiguous rows of op(A): the JavaScript kernel\'s bits (strides, sub-ranges, β = 0 over NaN), within gemvBound; contiguous columns: JavaScript', () => {
        fc.assert(fc.property(gemvCase, (c) => {
          const a = buildGemv(c, arithmetic), b = buildGemv(c, arithmetic);
          const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y, trans: c.trans };
          // op(A)'s rows are contiguous for row-major A with 'N' and column-major with 'T'; the other layouts are refused
          // (and cpuBackendOf, given trans, reports the kernel's own choice: JavaScript there).
          const byRows = (c.A.layout === 'row') === (c.trans === 'N');
          expect(cpuBackendOf('gemv', { A: a.A, x: a.x, y: a.y }, { ...options, trans: c.trans }, ['y']).backend).toBe(byRows ? AUTOMATIC[accumulation] : 'js');
          const yIn = c.beta === 0 ? null : exactVector(a.y);
          const bound = gemvBound(args, options);
          if (!byRows) expectModprec(() => gemv(args, { ...options, backend: 'wasm' }), 'INVALID_OPTION', 'A');
          gemv(args, { ...options, backend: byRows ? 'wasm' : 'cpu' });
          gemv({ ...args, A: b.A, x: b.x, y: b.y }, { ...options, backend: 'js' });
          const got = Array.from({ length: c.m }, (_, i) => a.y.get(i)), js = Array.from({ length: c.m }, (_, i) => b.y.get(i));
          got.forEach((g, i) => expect(Object.is(g, js[i]), `y[${i}]: ${g} vs ${js[i]}`).toBe(true));
          if (c.n > CHUNK || !got.every(Number.isFinite) || !Array.from({ length: c.n }, (_, j) => a.x.get(j)).every(Number.isFinite)) return;
          expectGemvWithinBound(c, a, yIn, bound);
        }), { numRuns: 30 });
      });
    });
  }
}

describe('WebAssembly pairwise and dot2: what they are for', () => {
  it('dot2 keeps what the plain sum loses: [2^k, 1, −2^k] repeated, in WebAssembly as in JavaScript', () => {
    for (const [arithmetic, big] of [['f64', 2 ** 60], ['f32', 2 ** 30]] as const) {
      const xs = Array.from({ length: 3 * 24 }, (_, i) => [big, 1, -big][i % 3]!);
      const x = vector(xs, { arithmetic: formats[arithmetic] }), ones = vector(xs.map(() => 1), { arithmetic: formats[arithmetic] });
      expect(dot(x, ones, { accumulation: 'dot2', backend: 'wasm' })).toBe(24);
      expect(dot(x, ones, { accumulation: 'recursive', backend: 'js' })).not.toBe(24);
    }
  });

  it('pairwise keeps the ones the recursive loop loses: 2^16 × 256 then 16 × 1 in binary32', () => {
    // The recursive loop's 2^24 + 1 rounds to 2^24 sixteen times; the tree adds the block of ones (16) to 2^24 once.
    const n = 2 ** 16 + 16;
    const x: Range<1> = vector(Array.from({ length: n }, (_, i) => (i < 2 ** 16 ? 256 : 1)), { storage: formats.f32, arithmetic: formats.f32 });
    const pairwise = asum(x, { accumulation: 'pairwise', backend: 'wasm' });
    expect(pairwise).toBe(asum(x, { accumulation: 'pairwise', backend: 'js' }));
    expect(pairwise).toBe(2 ** 24 + 16);
    expect(asum(x, { backend: 'js' })).toBe(2 ** 24);
  });
});
