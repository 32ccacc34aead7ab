/**
 * The double-double DOT's lazy form (wasmKernelForms().ddDotLazy; kernels/dot/dot-dd-wasm.ts): the documented
 * order bit for bit where no product's error underflows — xᵢyᵢ into lane i mod 8 by Dot2's step (TwoSum of the high
 * parts, the errors in a plain f64 sum), each lane folded by TwoSum after every 64 elements of the vector and at its
 * end, the tree of ddAdd —, staged and in place across chunks; within dotBound of the exact value (the tightest of
 * the three numerics it serves is fp64 with the dd accumulation) on any finite doubles, ill-conditioned sums up to
 * cond 1e30, strides, sub-ranges, n = 0, 1 and odd; NaN, ±∞ and splitting overflows answered by the JavaScript kernel;
 * dd storage keeps the dd step (the form does not apply).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, formats, range, rowMajor, span, vector, wasmArena, type Range } from '../../src/index.js';
import { setWasmKernelForms, wasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { twoProd, twoSum } from '../../src/formats/dd/eft.js';
import { ddAdd } from '../../src/formats/dd/add.js';
import { CHUNK, inPlaceAddress, wasmStorageNamed } from '../../src/backends/wasm/wasm-storage.js';
import { reserveBytes, wasmMemory } from '../../src/backends/wasm/wasm-runtime.js';
import { ddDotChunk } from '../../kernels/dot/dot-dd-wasm.js';
import { buildVector, exactDotOf, exactVector, errorOf, withinBound, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import '../../src/formats/dd/register.js';

const NUMERICS = [
  { arithmetic: 'dd', accumulation: 'recursive' }, { arithmetic: 'dd', accumulation: 'dd' }, { arithmetic: 'f64', accumulation: 'dd' },
] as const;
type Numerics = typeof NUMERICS[number];

/** The lazy form's eight lanes, in JavaScript: Dot2's step per lane, a TwoSum fold per lane after each 64 elements and at the end. */
function lazyLanes(x: ArrayLike<number>, y: ArrayLike<number>): { s: Float64Array; c: Float64Array } {
  const s = new Float64Array(8), c = new Float64Array(8), pe = new Float64Array(2), hq = new Float64Array(2);
  const fold = (): void => { for (let l = 0; l < 8; l++) { twoSum(hq, s[l]!, c[l]!); s[l] = hq[0]!; c[l] = hq[1]!; } };
  for (let i = 0; i < x.length; i++) {
    const l = i % 8;
    twoProd(pe, x[i]!, y[i]!);
    twoSum(hq, s[l]!, pe[0]!);
    s[l] = hq[0]!; c[l] = c[l]! + (hq[1]! + pe[1]!);
    if (i % 64 === 63) fold();
  }
  if (x.length % 64 !== 0) fold();
  return { s, c };
}

/** The lazy form's order: {@link lazyLanes}, then the tree of ddAdd; hi + lo. */
function lazyLaneOrder(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const { s, c } = lazyLanes(x, y);
  const join = (a: number, b: number): [number, number] => { const r = new Float64Array(2); ddAdd(r, s[a]!, c[a]!, s[b]!, c[b]!); return [r[0]!, r[1]!]; };
  const joinPairs = (a: [number, number], b: [number, number]): [number, number] => { const r = new Float64Array(2); ddAdd(r, a[0], a[1], b[0], b[1]); return [r[0]!, r[1]!]; };
  const r = joinPairs(joinPairs(join(0, 1), join(2, 3)), joinPairs(join(4, 5), join(6, 7)));
  return r[0] + r[1];
}

/** The splitting of the products (without a fused multiply-add): each test runs with both. */
let split: 'veltkamp' | 'bits' = 'veltkamp';

/** The DD DOT in the lazy form under these numerics. */
function lazyDot(x: Range<1, any>, y: Range<1, any>, numerics: Numerics = NUMERICS[2]): number {
  const previous = setWasmKernelForms({ ddDotLazy: true, ddDotSplit: split });
  try {
    return dot(x, y, { arithmetic: formats[numerics.arithmetic], accumulation: numerics.accumulation, backend: 'wasm' });
  } finally {
    setWasmKernelForms(previous);
  }
}

const DEFAULT_SPLIT = wasmKernelForms().ddDotSplit;
afterEach(() => setWasmKernelForms({ ddDotLazy: false, ddDotSplit: DEFAULT_SPLIT }));

const read = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i) as number);

/** |got − exact| ≤ dotBound under these numerics, decided exactly. */
function expectWithinBound(x: Range<1, any>, y: Range<1, any>, got: number, numerics: Numerics): void {
  const exact = exactDotOf(exactVector(x), exactVector(y));
  const bound = dotBound(x, y, { arithmetic: formats[numerics.arithmetic], accumulation: numerics.accumulation });
  const computed = exactVector(vector([got]))[0]!;
  if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
}

/** A double with a full 53-bit significand, exponent in [−60, 60], either sign, or a few special finite ones. */
const fullDouble: fc.Arbitrary<number> = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }), fc.integer({ min: -60, max: 60 }), fc.boolean())
    .map(([m, e, negative]) => (negative ? -1 : 1) * Number(m) * 2 ** (e - 52)) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1, -1, 2 ** 27 + 1, 2 ** 26 - 1, 1 - 2 ** -53) },
);
/** Positive doubles with full significands in [1, 8): the TwoSum errors pile up in the low sums, so the folds change bits. */
const narrowDouble: fc.Arbitrary<number> = fc.tuple(fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }), fc.integer({ min: 0, max: 2 }))
  .map(([m, e]) => Number(m) * 2 ** (e - 52));
const spec: fc.Arbitrary<VectorSpec> = fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() });

describe.each(['veltkamp', 'bits'] as const)('WebAssembly DD DOT, lazy form, %s split', (form) => {
  beforeEach(() => { split = form; });

  it('the documented order bit for bit and within dotBound: n from 0 to 300 (blocks of 64 and a partial one), strides, sub-ranges, f32 storage', () => {
    const input = fc.tuple(fc.integer({ min: 0, max: 300 }), fc.constantFrom(fullDouble, narrowDouble)).chain(([n, values]) => fc.record({
      a: spec, b: spec, numerics: fc.constantFrom(...NUMERICS),
      x: fc.array(values, { minLength: n, maxLength: n }), y: fc.array(values, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a, b, numerics, x: xs, y: ys }) => {
      const x = buildVector(a, xs), y = buildVector(b, ys);
      const got = lazyDot(x, y, numerics);
      expect(Object.is(got, lazyLaneOrder(read(x), read(y)))).toBe(true);
      expectWithinBound(x, y, got, numerics);
    }), { numRuns: 150 });
  });

  it('within dotBound on any finite doubles: subnormals, products whose errors underflow, wide exponents, ±0', () => {
    const anyFinite = fc.oneof(fullDouble, fc.double({ noNaN: true, noDefaultInfinity: true, min: -(2 ** 400), max: 2 ** 400 }), fc.double({ min: -(2 ** -1000), max: 2 ** -1000, noNaN: true }));
    const input = fc.integer({ min: 0, max: 140 }).chain((n) => fc.record({
      numerics: fc.constantFrom(...NUMERICS),
      x: fc.array(anyFinite, { minLength: n, maxLength: n }), y: fc.array(anyFinite, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ numerics, x: xs, y: ys }) => {
      const x = vector(xs), y = vector(ys);
      const got = lazyDot(x, y, numerics);
      expect(Number.isFinite(got)).toBe(true);
      expectWithinBound(x, y, got, numerics);
    }), { numRuns: 150 });
  });

  it('ill-conditioned sums (cond up to 1e30): the documented order bit for bit, within dotBound of the exact value', () => {
    // Groups of three terms that cancel twice: v·w − v·w⁺ + v·ulp(w)(1 + 2^-52) = ±v·ulp(w)·2^-52 (w⁺ = w + ulp(w),
    // a sign flips the last term), cond up to about 2^105 per group; exponents spread, positions shuffled, so the
    // groups' terms land in different lanes and blocks and the TwoSums' errors carry the answer.
    const group = fc.tuple(fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 2n }), fc.integer({ min: -60, max: 60 }), fullDouble, fc.integer({ min: 0, max: 100 }), fc.boolean());
    const input = fc.record({
      groups: fc.array(group, { minLength: 1, maxLength: 120 }),
      order: fc.array(fc.nat(), { minLength: 360, maxLength: 360 }),
      numerics: fc.constantFrom(...NUMERICS),
    });
    let worst = 0;
    fc.assert(fc.property(input, ({ groups, order, numerics }) => {
      const xs: number[] = [], ys: number[] = [];
      for (const [m, ew, v, ev, flip] of groups) {
        const ulp = 2 ** (ew - 52), vs = v * 2 ** ev;
        xs.push(vs, -vs, vs);
        ys.push(Number(m) * ulp, Number(m + 1n) * ulp, (flip ? -1 : 1) * ulp * (1 + 2 ** -52));
      }
      const n = xs.length;
      for (let k = n - 1; k > 0; k--) { const j = order[k]! % (k + 1); [xs[k], xs[j]] = [xs[j]!, xs[k]!]; [ys[k], ys[j]] = [ys[j]!, ys[k]!]; }
      const x = vector(xs), y = vector(ys);
      const got = lazyDot(x, y, numerics);
      const exact = exactDotOf(exactVector(x), exactVector(y));
      const abs = xs.reduce((sum, v, i) => sum + Math.abs(v * ys[i]!), 0), value = errorOf(exact, exactVector(vector([0]))[0]!);
      if (value > 0) worst = Math.max(worst, abs / value);
      // no product's error underflows here: the documented order's bits (the low parts decide the answer)
      expect(Object.is(got, lazyLaneOrder(xs, ys))).toBe(true);
      expectWithinBound(x, y, got, numerics);
    }), { numRuns: 120 });
    expect(worst).toBeGreaterThan(1e30); // the cases reach the condition numbers they are meant to
  });

  it('staged and in place across chunks, and a sub-range read in place at an unaligned start: the same bits, the documented order', () => {
    const n = 3 * CHUNK + 21;
    const random = fc.sample(fc.tuple(fullDouble, fullDouble), { numRuns: n + 5, seed: 19 });
    const xs = Float64Array.from(random, ([a]) => a), ys = Float64Array.from(random, ([, b]) => b);
    const arena = wasmArena(16 * (n + 5) + 1024);
    try {
      const want = lazyLaneOrder(xs.subarray(0, n), ys.subarray(0, n));
      expect(Object.is(lazyDot(vector(xs.subarray(0, n)), vector(ys.subarray(0, n))), want)).toBe(true);
      const px = vector(xs, { memory: arena }), py = vector(ys, { memory: arena });
      expect(Object.is(lazyDot(px.sub(span(0, n)), py.sub(span(0, n))), want)).toBe(true);
      // elements 3 … n + 3 in place: the blocks start at element 3 of the arena vector
      expect(Object.is(lazyDot(px.sub(span(3, n + 3)), py.sub(span(3, n + 3))), lazyLaneOrder(xs.subarray(3, n + 3), ys.subarray(3, n + 3)))).toBe(true);
    } finally {
      arena.release();
    }
  });

  it('the chunk leaves each lane\'s pair as the documented steps and folds do, bit for bit (before the joins)', () => {
    const sx = wasmStorageNamed('f64')!;
    const f = ddDotChunk(sx, sx, false, split, [false, false], true);
    const lanes = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(fullDouble, narrowDouble)).chain(([blocks, values]) => fc.tuple(
      fc.array(values, { minLength: 64 * blocks, maxLength: 64 * blocks }), fc.array(values, { minLength: 64 * blocks, maxLength: 64 * blocks }),
    ));
    fc.assert(fc.property(lanes, ([xs, ys]) => {
      const arena = wasmArena(16 * xs.length + 1024);
      try {
        const x = vector(xs, { memory: arena }), y = vector(ys, { memory: arena });
        reserveBytes(128);
        const acc = new Float64Array(wasmMemory().buffer as ArrayBuffer, 0, 16);
        acc.fill(0);
        f(inPlaceAddress(x.accessor, sx, 0), 1, inPlaceAddress(y.accessor, sx, 0), 1, xs.length);
        const { s, c } = lazyLanes(xs, ys);
        for (let l = 0; l < 8; l++) {
          expect(Object.is(acc[l], s[l])).toBe(true);
          expect(Object.is(acc[8 + l], c[l])).toBe(true);
        }
      } finally {
        arena.release();
      }
    }), { numRuns: 60 });
  });

  it('a cancellation fp64 cannot resolve, across staging chunks', () => {
    const n = 2 * CHUNK + 13;
    const xs = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 2 ** 60 : -(2 ** 60)));
    xs[n - 1] = 1;
    const x = vector(xs), y = vector(Array.from({ length: n }, (_, i) => (i === n - 2 ? 1 + 2 ** -52 : 1)));
    for (const numerics of NUMERICS) expect(lazyDot(x, y, numerics)).toBe(-(2 ** 8) + 1);
  });

  it("NaN, ±Inf and operands whose splitting overflows: the JavaScript kernel's answer", () => {
    const cases: number[][] = [[NaN, 1, 2], [Infinity, 1, 1], [Infinity, -Infinity, 1], [1.5e301, 3, 1e-300], [-1.7e308, 0.5, 2], [0, -0, 2 ** -1074]];
    for (const [a, b, c] of cases) {
      const x = vector([a!, b!, c!, 1, 2, 3, 4, 5, 6]), y = vector([3, 1e10, c!, 1, 1, 1, 1, 1, 1e300]);
      for (const numerics of NUMERICS) {
        const options = { arithmetic: formats[numerics.arithmetic], accumulation: numerics.accumulation };
        expect(Object.is(lazyDot(x, y, numerics), dot(x, y, { ...options, backend: 'js' }))).toBe(true);
      }
    }
  });

  it('dd storage keeps the dd step: the same bits as without the lazy form', () => {
    const n = 77;
    const random = fc.sample(fc.tuple(fullDouble, fullDouble, fullDouble), { numRuns: n, seed: 7 });
    const x = range(rowMajor<1, any>({ size: [n], storage: formats.dd, arithmetic: formats.dd }));
    // normalised pairs: |lo| = |hi|·2^-60·(a factor in [1, 2)), below u·|hi|
    random.forEach(([h, l], i) => x.accessor.storage.encode(x.accessor.data as never, x.accessor.linearIndex([i]), { hi: h, lo: h * 2 ** -60 * (1 + Math.abs(l) / 2 ** 62) }));
    const y = vector(random.map(([, , v]) => v), { arithmetic: formats.dd });
    const plain = dot(x, y, { arithmetic: formats.dd, backend: 'wasm' });
    expect(Object.is(lazyDot(x, y, NUMERICS[0]), plain)).toBe(true);
  });
});
