/**
 * The double-double DOT's splitting forms (wasmKernelForms().ddDotSplit: 'veltkamp', 'veltkamp-pinned', 'bits' —
 * guarded per block; 'veltkamp' is the default; src/backends/wasm/wasm-dd-steps.ts): every form gives the documented order's bits
 * (eight lanes of ddTwoProdAccumulate, the tree of ddAdd) wherever no partial product underflows — factors whose
 * significands fill all 53 bits, signs mixed, staged and read in place across chunks —, and the bits of 'veltkamp'
 * on any input: products whose Dekker errors underflow (where the unguarded bit split differs), subnormals, factors
 * near 2^±480 (the guard's limits) and beyond Veltkamp's overflow, ±0, ±Inf, NaN, dd storage, strides; within
 * dotBound of the exact value. Skipped where the start-up probe found a fused multiply-add (the forms are not used then).
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, formats, range, rowMajor, span, vector, wasmArena, type Range } from '../../src/index.js';
import { setWasmKernelForms, wasmKernelForms, type WasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import { wasmFusedFmaAvailable } from '../../src/backends/wasm/wasm-fused-fma.js';
import { ddTwoProdAccumulate } from '../../src/formats/dd/two-prod-accumulate.js';
import { ddAdd } from '../../src/formats/dd/add.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { exactDotOf, exactVector, errorOf, withinBound } from '../kernels/matrix-kernel-fixtures.js';
import '../../src/formats/dd/register.js';

const FORMS: readonly WasmKernelForms['ddDotSplit'][] = ['veltkamp', 'veltkamp-pinned', 'bits'];

/** The documented order: xᵢyᵢ into double-double lane i mod 8 by ddTwoProdAccumulate, then the tree of ddAdd; hi + lo. */
function laneOrderDdDot(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const s = Array.from({ length: 8 }, () => new Float64Array(2));
  for (let i = 0; i < x.length; i++) { const p = s[i % 8]!; ddTwoProdAccumulate(p, x[i]!, y[i]!, p[0]!, p[1]!); }
  const join = (a: Float64Array, b: Float64Array): Float64Array => { const r = new Float64Array(2); ddAdd(r, a[0]!, a[1]!, b[0]!, b[1]!); return r; };
  const r = join(join(join(s[0]!, s[1]!), join(s[2]!, s[3]!)), join(join(s[4]!, s[5]!), join(s[6]!, s[7]!)));
  return r[0]! + r[1]!;
}

/** The DD DOT under split form `form`. */
function ddDotWith(form: WasmKernelForms['ddDotSplit'], x: Range<1, any>, y: Range<1, any>, accumulation: 'recursive' | 'dd' = 'recursive'): number {
  const previous = setWasmKernelForms({ ddDotSplit: form });
  try {
    return dot(x, y, accumulation === 'dd' ? { accumulation: 'dd', backend: 'wasm' } : { arithmetic: formats.dd, backend: 'wasm' });
  } finally {
    setWasmKernelForms(previous);
  }
}

/** A double with a full 53-bit significand (odd last bit), exponent in [−60, 60], either sign, or 0. */
const fullDouble: fc.Arbitrary<number> = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }), fc.integer({ min: -60, max: 60 }), fc.boolean())
    .map(([m, e, negative]) => (negative ? -1 : 1) * Number(m | 1n) * 2 ** (e - 52)) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1, -1, 2 ** 27 + 1, 2 ** 26 - 1, 1 - 2 ** -53) },
);

const DEFAULT_SPLIT = wasmKernelForms().ddDotSplit;
afterEach(() => setWasmKernelForms({ ddDotSplit: DEFAULT_SPLIT }));

describe.skipIf(wasmFusedFmaAvailable())('WebAssembly DD DOT: the splitting forms', () => {
  it('every form: the documented order bit for bit where no partial product underflows', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({
      x: fc.array(fullDouble, { minLength: n, maxLength: n }), y: fc.array(fullDouble, { minLength: n, maxLength: n }),
      accumulation: fc.constantFrom('recursive' as const, 'dd' as const),
    }));
    fc.assert(fc.property(input, ({ x: xs, y: ys, accumulation }) => {
      const x = vector(xs), y = vector(ys);
      const want = laneOrderDdDot(xs, ys);
      for (const form of FORMS) expect(Object.is(ddDotWith(form, x, y, accumulation), want)).toBe(true);
    }), { numRuns: 300 });
  });

  it('every form: the documented order bit for bit where the products cancel and only their errors remain', () => {
    // Steps of 8 products xᵢyᵢ, each followed by a step of fl(xᵢyᵢ)·(−1) in the same lanes: each lane ends with the
    // sum of its products' errors, so the result shows an error term that is off by a single bit.
    const input = fc.integer({ min: 1, max: 6 }).chain((steps) => fc.record({
      x: fc.array(fullDouble, { minLength: 8 * steps, maxLength: 8 * steps }), y: fc.array(fullDouble, { minLength: 8 * steps, maxLength: 8 * steps }),
    }));
    fc.assert(fc.property(input, ({ x: px, y: py }) => {
      const xs: number[] = [], ys: number[] = [];
      for (let t = 0; t < px.length; t += 8) {
        xs.push(...px.slice(t, t + 8), ...px.slice(t, t + 8).map((v, k) => v * py[t + k]!));
        ys.push(...py.slice(t, t + 8), ...new Array<number>(8).fill(-1));
      }
      const x = vector(xs), y = vector(ys);
      const want = laneOrderDdDot(xs, ys);
      const exact = exactDotOf(exactVector(x), exactVector(y));
      const bound = dotBound(x, y, { arithmetic: formats.dd });
      for (const form of FORMS) {
        const got = ddDotWith(form, x, y);
        expect(Object.is(got, want)).toBe(true);
        const computed = exactVector(vector([got]))[0]!;
        if (!withinBound(computed, exact, bound)) throw new Error(`${form}: error ${errorOf(computed, exact)} > bound ${bound}`);
      }
    }), { numRuns: 300 });
  });

  it('every form, staged and in place across chunks: the same bits', () => {
    const n = 3 * CHUNK + 21;
    const random = fc.sample(fc.tuple(fullDouble, fullDouble), { numRuns: n, seed: 20 });
    const xs = Float64Array.from(random, ([a]) => a), ys = Float64Array.from(random, ([, b]) => b);
    const arena = wasmArena(16 * n + 1024);
    try {
      const staged = [vector(xs), vector(ys)] as const;
      const inPlace = [vector(xs, { memory: arena }), vector(ys, { memory: arena })] as const;
      const want = laneOrderDdDot(xs, ys);
      for (const form of FORMS) {
        expect(Object.is(ddDotWith(form, ...staged), want)).toBe(true);
        expect(Object.is(ddDotWith(form, ...inPlace), want)).toBe(true);
      }
    } finally {
      arena.release();
    }
  });

  // Doubles of every kind: full significands at any exponent (products that underflow or overflow, factors beyond
  // Veltkamp's overflow threshold 2^996), subnormals, the guard's limits 2^±480 and their neighbours, zeros, ±Inf, NaN.
  const anyDouble: fc.Arbitrary<number> = fc.oneof(
    { weight: 4, arbitrary: fullDouble },
    { weight: 3, arbitrary: fc.tuple(fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }), fc.integer({ min: -1074, max: 1023 }), fc.boolean())
      .map(([m, e, negative]) => (negative ? -1 : 1) * Number(m) * 2 ** (e - 52) ) },
    { weight: 1, arbitrary: fc.double({ min: -(2 ** -1000), max: 2 ** -1000, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(2 ** -480, -(2 ** -480), 2 ** -480 * (1 - 2 ** -53), 2 ** 480, 2 ** 480 * (1 - 2 ** -53), -(2 ** 480), 2 ** 996, 2 ** 997, Number.MAX_VALUE, Number.MIN_VALUE, -(2 ** -1022)) },
    { weight: 1, arbitrary: fc.constantFrom(0, -0, Infinity, -Infinity, NaN) },
  );
  // Vectors mostly of ordinary values (so that most blocks pass the guard) with a few of any kind, long enough to
  // span several guarded blocks and a staged chunk.
  const mixed = (n: number, extra = anyDouble): fc.Arbitrary<number[]> => fc.tuple(
    fc.array(fullDouble, { minLength: n, maxLength: n }), fc.array(fc.tuple(fc.nat(n - 1), extra), { maxLength: 4 }),
  ).map(([v, extras]) => { for (const [at, e] of extras) v[at] = e; return v; });

  it("every form: the default's bits with any doubles — products that underflow or overflow, subnormals, huge factors, ±0, ±Inf, NaN", () => {
    const input = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 500, max: 1300 }), fc.constant(CHUNK + 9)).chain((n) => fc.record({
      x: fc.oneof(fc.array(anyDouble, { minLength: n, maxLength: n }), mixed(n)), y: fc.oneof(fc.array(anyDouble, { minLength: n, maxLength: n }), mixed(n)),
      accumulation: fc.constantFrom('recursive' as const, 'dd' as const),
    }));
    fc.assert(fc.property(input, ({ x: xs, y: ys, accumulation }) => {
      const x = vector(xs), y = vector(ys);
      const want = ddDotWith('veltkamp', x, y, accumulation);
      for (const form of FORMS) expect(Object.is(ddDotWith(form, x, y, accumulation), want)).toBe(true);
    }), { numRuns: 80 });
  });

  it('every form: products that underflow, in blocks the guard rejects and next to blocks it accepts — the same bits, within dotBound of the exact value', () => {
    const tiny = fc.oneof(fullDouble, fc.double({ min: -(2 ** -1000), max: 2 ** -1000, noNaN: true }), fc.double({ min: -6e4, max: 6e4, noNaN: true }));
    const input = fc.integer({ min: 1, max: 1100 }).chain((n) => fc.record({
      x: fc.oneof(fc.array(tiny, { minLength: n, maxLength: n }), mixed(n, anyDouble.filter(Number.isFinite))), y: fc.array(tiny, { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ x: xs, y: ys }) => {
      const x = vector(xs), y = vector(ys);
      const want = ddDotWith('veltkamp', x, y);
      const exact = exactDotOf(exactVector(x), exactVector(y));
      const bound = dotBound(x, y, { arithmetic: formats.dd });
      for (const form of FORMS) {
        const got = ddDotWith(form, x, y);
        expect(Object.is(got, want)).toBe(true);
        // An overflowing sum (the bound is then ∞) has no finite error to measure.
        if (!Number.isFinite(got)) { expect(bound).toBe(Infinity); continue; }
        const computed = exactVector(vector([got]))[0]!;
        if (!withinBound(computed, exact, bound)) throw new Error(`${form}: error ${errorOf(computed, exact)} > bound ${bound}`);
      }
    }), { numRuns: 60 });
  });

  it('every form: the default\'s bits where products that cancel leave only their errors, and the errors underflow', () => {
    // As the cancellation test above, with products near 2^-1000 … 2^-1080: Dekker's partial products round to
    // subnormals (inexact, and differently for the two splittings: unguarded, 'bits' differs in about 4 cases of 10),
    // and the result is made of those errors alone.
    const significand = fc.tuple(fc.bigInt({ min: 2n ** 52n, max: 2n ** 53n - 1n }), fc.boolean()).map(([m, negative]) => (negative ? -1 : 1) * Number(m | 1n) * 2 ** -52);
    const input = fc.integer({ min: 1, max: 70 }).chain((steps) => fc.record({
      x: fc.array(significand, { minLength: 8 * steps, maxLength: 8 * steps }), y: fc.array(significand, { minLength: 8 * steps, maxLength: 8 * steps }),
      product: fc.array(fc.integer({ min: 1000, max: 1080 }), { minLength: 8 * steps, maxLength: 8 * steps }),
      split: fc.array(fc.integer({ min: 300, max: 700 }), { minLength: 8 * steps, maxLength: 8 * steps }),
    }));
    fc.assert(fc.property(input, ({ x: mx, y: my, product, split }) => {
      const xs: number[] = [], ys: number[] = [];
      const sx = mx.map((v, i) => v * 2 ** -split[i]!), sy = my.map((v, i) => v * 2 ** (split[i]! - product[i]!));
      for (let t = 0; t < sx.length; t += 8) {
        xs.push(...sx.slice(t, t + 8), ...sx.slice(t, t + 8).map((v, k) => v * sy[t + k]!));
        ys.push(...sy.slice(t, t + 8), ...new Array<number>(8).fill(-1));
      }
      const x = vector(xs), y = vector(ys);
      const want = ddDotWith('veltkamp', x, y);
      for (const form of FORMS) expect(Object.is(ddDotWith(form, x, y), want)).toBe(true);
    }), { numRuns: 100 });
  });

  it('every form: dd storage (double-double factors), strides ±2 and a sub-range, factors outside the guard — the default\'s bits', () => {
    const input = fc.integer({ min: 1, max: 700 }).chain((n) => fc.record({
      x: mixed(n), y: mixed(n), lo: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
      stride: fc.constantFrom(2, -2, 1), lead: fc.nat(3),
    }));
    fc.assert(fc.property(input, ({ x: xs, y: ys, lo, stride, lead }) => {
      const n = ys.length, N = lead + n + 2;
      const ydd = range(rowMajor<1>({ size: [n], storage: formats.dd, arithmetic: formats.dd }));
      // A double-double value: its high part any double, its low part a small finite one where that stays a pair.
      for (let i = 0; i < n; i++) ydd.set(i, ys[i]!);
      const data = ydd.accessor.data as Float64Array;
      for (let i = 0; i < n; i++) if (Number.isFinite(ys[i]!) && ys[i] !== 0) data[2 * i + 1] = ys[i]! * 2 ** -60 * lo[i]!;
      const xAll = range(rowMajor<1>({ size: [N], storage: formats.f64, arithmetic: formats.dd, stride }));
      for (let i = 0; i < N; i++) xAll.set(i, i < lead || i >= lead + n ? NaN : xs[i - lead]!);
      const x = xAll.sub(span(lead, lead + n));
      const want = ddDotWith('veltkamp', x, ydd);
      for (const form of FORMS) expect(Object.is(ddDotWith(form, x, ydd), want)).toBe(true);
    }), { numRuns: 40 });
  });

  it("'bits': NaN, ±Inf and operands near the top of the range — the JavaScript kernel's answer", () => {
    const cases: number[][] = [[NaN, 1, 2], [Infinity, 1, 1], [Infinity, -Infinity, 1], [1.5e301, 3, 1e-300], [-1.7e308, 0.5, 2], [Number.MAX_VALUE, 1, 1]];
    for (const [a, b, c] of cases) {
      const x = vector([a!, b!, c!, 1, 2, 3, 4, 5, 6]), y = vector([3, 1e10, c!, 1, 1, 1, 1, 1, 1e300]);
      const want = dot(x, y, { arithmetic: formats.dd, backend: 'js' });
      expect(Object.is(ddDotWith('bits', x, y), want)).toBe(true);
      expect(Object.is(ddDotWith('bits', y, x), dot(y, x, { arithmetic: formats.dd, backend: 'js' }))).toBe(true);
    }
  });
});
