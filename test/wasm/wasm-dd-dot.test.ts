/**
 * The WebAssembly DOT summed in double-double (double-double arithmetic with the recursive or dd accumulation,
 * fp64 arithmetic with the dd accumulation): bit for bit the documented order (eight lanes of
 * ddTwoProdAccumulate, joined by ddAdd in a fixed tree), within dotBound of the exact value, a cancellation fp64
 * cannot resolve, non-finite inputs and splitting overflows answered as the JavaScript kernel answers them; the
 * other arithmetics and accumulations refused by backend 'wasm' (typed, naming the option) and run on the
 * JavaScript by the automatic choice, which says why.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { axpy, dot, dotBound, gemv, formats, vector, cpuBackendOf, type ModprecErrorCode, type Range } from '../../src/index.js';
import { buildMatrix, buildVector, exactDotOf, exactVector, errorOf, withinBound, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { ddTwoProdAccumulate } from '../../src/formats/dd/two-prod-accumulate.js';
import { ddAdd } from '../../src/formats/dd/add.js';
import { ddMulAccumulate } from '../../src/formats/dd/mul.js';
import { addRational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { range, rowMajor, span } from '../../src/index.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import '../../src/formats/dd/register.js';

/** The documented order: xᵢyᵢ into double-double lane i mod 8 by ddTwoProdAccumulate, then the tree of ddAdd; hi + lo. */
function laneOrderDdDot(x: readonly number[], y: readonly number[]): number {
  const s = Array.from({ length: 8 }, () => new Float64Array(2));
  for (let i = 0; i < x.length; i++) { const p = s[i % 8]!; ddTwoProdAccumulate(p, x[i]!, y[i]!, p[0]!, p[1]!); }
  const join = (a: Float64Array, b: Float64Array): Float64Array => { const r = new Float64Array(2); ddAdd(r, a[0]!, a[1]!, b[0]!, b[1]!); return r; };
  const r = join(join(join(s[0]!, s[1]!), join(s[2]!, s[3]!)), join(join(s[4]!, s[5]!), join(s[6]!, s[7]!)));
  return r[0]! + r[1]!;
}

const read = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i) as number);
const spec: fc.Arbitrary<VectorSpec> = fc.record({
  storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(),
});
const NUMERICS = [
  { arithmetic: 'dd', accumulation: 'recursive' }, { arithmetic: 'dd', accumulation: 'dd' }, { arithmetic: 'f64', accumulation: 'dd' },
] as const;

describe('WebAssembly DOT in double-double', () => {
  it('the documented order bit for bit, within dotBound of the exact value, for dd arithmetic and the dd accumulation', () => {
    const input = fc.integer({ min: 0, max: 70 }).chain((n) => fc.record({
      a: spec, b: spec, numerics: fc.constantFrom(...NUMERICS),
      x: fc.array(fc.double({ min: -6e4, max: 6e4, noNaN: true }), { minLength: n, maxLength: n }),
      y: fc.array(fc.double({ min: -6e4, max: 6e4, noNaN: true }), { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a, b, numerics, x: xs, y: ys }) => {
      const x = buildVector(a, xs), y = buildVector(b, ys);
      const options = { arithmetic: formats[numerics.arithmetic], accumulation: numerics.accumulation };
      expect(cpuBackendOf('dot', { x, y }, options).backend).toBe('wasm');
      const got = dot(x, y, { ...options, backend: 'wasm' });
      expect(Object.is(got, laneOrderDdDot(read(x), read(y)))).toBe(true);
      const exact = exactDotOf(exactVector(x), exactVector(y));
      const bound = dotBound(x, y, options);
      const computed = exactVector(vector([got]))[0]!;
      if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
    }), { numRuns: 300 });
  });

  it('resolves a cancellation fp64 cannot, across staging chunks', () => {
    const n = 2 * CHUNK + 13;
    const xs = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 2 ** 60 : -(2 ** 60)) + (i === n - 1 ? 0 : 0));
    xs[n - 1] = 1;
    const x = vector(xs), y = vector(Array.from({ length: n }, (_, i) => (i === n - 2 ? 1 + 2 ** -52 : 1)));
    // Σ = 2^60·2^-52·(±1) + 1: exactly ±2^8 + 1 here
    const exact = (n - 2) % 2 === 0 ? 2 ** 8 + 1 : -(2 ** 8) + 1;
    expect(dot(x, y, { arithmetic: formats.dd, backend: 'wasm' })).toBe(exact);
    expect(dot(x, y, { accumulation: 'dd', backend: 'wasm' })).toBe(exact);
  });

  it('NaN, ±Inf and operands whose splitting overflows: the JavaScript kernel\'s answer', () => {
    const cases: number[][] = [[NaN, 1, 2], [Infinity, 1, 1], [Infinity, -Infinity, 1], [1.5e301, 3, 1e-300], [-1.7e308, 0.5, 2], [0, -0, 2 ** -1074]];
    for (const [a, b, c] of cases) {
      const x = vector([a!, b!, c!, 1, 2, 3, 4, 5, 6]), y = vector([3, 1e10, c!, 1, 1, 1, 1, 1, 1e300]);
      for (const numerics of NUMERICS) {
        const options = { arithmetic: formats[numerics.arithmetic], accumulation: numerics.accumulation };
        expect(Object.is(dot(x, y, { ...options, backend: 'wasm' }), dot(x, y, { ...options, backend: 'js' }))).toBe(true);
      }
    }
  });
});

type Pair = { hi: number; lo: number };

/** The documented order with double-double factors: ddMulAccumulate per lane (an exact double's low part 0), the tree of ddAdd. */
function laneOrderDdMulDot(x: readonly Pair[], y: readonly Pair[]): number {
  const s = Array.from({ length: 8 }, () => new Float64Array(2));
  for (let i = 0; i < x.length; i++) { const p = s[i % 8]!; ddMulAccumulate(p, x[i]!.hi, x[i]!.lo, y[i]!.hi, y[i]!.lo, p[0]!, p[1]!); }
  const join = (a: Float64Array, b: Float64Array): Float64Array => { const r = new Float64Array(2); ddAdd(r, a[0]!, a[1]!, b[0]!, b[1]!); return r; };
  const r = join(join(join(s[0]!, s[1]!), join(s[2]!, s[3]!)), join(join(s[4]!, s[5]!), join(s[6]!, s[7]!)));
  return r[0]! + r[1]!;
}

/** A vector of pairs in dd storage (dd arithmetic), or of their hi parts in fp64 storage. */
function pairVector(v: readonly Pair[], dd: boolean, stride: number, sub: boolean): Range<1, any> {
  const N = sub ? v.length + 2 : v.length;
  const parent = range(rowMajor<1, any>({ size: [N], storage: dd ? formats.dd : formats.f64, arithmetic: formats.dd, stride }));
  const view = sub ? parent.sub(span(1, 1 + v.length)) : parent;
  v.forEach((p, i) => view.accessor.storage.encode(view.accessor.data as never, view.accessor.linearIndex([i]), dd ? p : p.hi));
  return view;
}

describe('WebAssembly DOT in double-double on double-double storage', () => {
  it('reads the pairs: ddMulAccumulate per lane bit for bit, within dotBound of the exact value; dd with fp64 operands too', () => {
    const pair = fc.double({ min: -1e3, max: 1e3, noNaN: true }).chain((hi) => fc.double({ min: -1, max: 1, noNaN: true }).map((r) => ({ hi, lo: hi * r * 2 ** -54 })));
    const input = fc.integer({ min: 0, max: 50 }).chain((n) => fc.record({
      x: fc.array(pair, { minLength: n, maxLength: n }), y: fc.array(pair, { minLength: n, maxLength: n }),
      ddX: fc.boolean(), ddY: fc.boolean(), stride: fc.constantFrom(1, -2, 3), sub: fc.boolean(), accumulation: fc.constantFrom('recursive', 'dd'),
    }));
    fc.assert(fc.property(input, ({ x: xp, y: yp, ddX, ddY, stride, sub, accumulation }) => {
      const norm = (p: Pair): Pair => { const s = p.hi + p.lo; return { hi: s, lo: (p.hi - (s - (s - p.hi))) + (p.lo - (s - p.hi)) }; };
      const xs = xp.map(norm).map((p) => (ddX ? p : { hi: p.hi, lo: 0 })), ys = yp.map(norm).map((p) => (ddY ? p : { hi: p.hi, lo: 0 }));
      const x = pairVector(xs, ddX, stride, sub), y = pairVector(ys, ddY, -stride, !sub);
      const options = { arithmetic: formats.dd, accumulation };
      expect(cpuBackendOf('dot', { x, y }, options).backend).toBe('wasm');
      const got = dot(x, y, { ...options, backend: 'wasm' });
      if (ddX || ddY) expect(Object.is(got, laneOrderDdMulDot(xs, ys))).toBe(true);
      else expect(Object.is(got, laneOrderDdDot(xs.map((p) => p.hi), ys.map((p) => p.hi)))).toBe(true);
      const exactPair = (p: Pair) => addRational(exactOf(p.hi), exactOf(p.lo));
      const exact = exactDotOf(xs.map(exactPair), ys.map(exactPair));
      const bound = dotBound(x, y, options);
      const computed = exactVector(vector([got]))[0]!;
      if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
    }), { numRuns: 200 });
  });
});

describe("backend 'wasm' refuses what it does not compute, naming the option", () => {
  const x = vector([1, 2, 3]);
  const scaled = buildVector({ storage: 'i16s', stride: 1, sub: false }, [1, 2, 3]);
  const A = buildMatrix({ storage: 'f64', layout: 'row', sub: false, scaleRows: false }, 2, 2, (i, j) => i + 2 * j);
  const cases: [string, () => unknown, ModprecErrorCode, string][] = [
    ['RNS arithmetic', () => dot(x, x, { backend: 'wasm', arithmetic: formats.rns212 }), 'INVALID_OPTION', 'options.arithmetic'],
    ['the pairwise accumulation in dd arithmetic', () => dot(x, x, { backend: 'wasm', arithmetic: formats.dd, accumulation: 'pairwise' }), 'INVALID_OPTION', 'options.accumulation'],
    ['the kahan accumulation in dd arithmetic', () => dot(x, x, { backend: 'wasm', arithmetic: formats.dd, accumulation: 'kahan' }), 'INVALID_OPTION', 'options.accumulation'],
    // Scales per element, row, column or slot run (wasm-per-element-scales.test.ts); a one-scale operand whose scale was
    // set to ∞ behind the accessor's checks is left to the JavaScript, by name.
    ['GEMV with an x whose one scale is not finite', () => { const xs = buildVector({ storage: 'i16s', stride: 1, sub: false }, [1, 1]); xs.accessor.scale!.data[0] = Infinity; gemv({ alpha: 1, A, x: xs, beta: 0, y: vector(2) }, { backend: 'wasm', arithmetic: formats.dd }); }, 'INVALID_FORMAT', 'x'],
  ];
  for (const [name, call, code, parameter] of cases) {
    it(name, () => {
      expectModprec(call, code, parameter);
    });
  }

  it('scaled outputs in double-double are no longer refused: GEMV\'s and AXPY\'s y run in WebAssembly (wasm-dd-stored-outputs.test.ts)', () => {
    const run = (backend: 'wasm' | 'js'): number[] => {
      const y = buildVector({ storage: 'i16s', stride: 1, sub: false }, [1, 2]), z = buildVector({ storage: 'i16s', stride: 1, sub: false }, [1, 2, 3]);
      gemv({ alpha: 1, A, x: vector([1, 1]), beta: 0.5, y }, { backend, arithmetic: formats.dd });
      axpy(1, vector([1, 2, 3]), z, { backend, arithmetic: formats.dd });
      return [...(y.accessor.data as Int16Array), ...(z.accessor.data as Int16Array)];
    };
    expect(run('wasm')).toEqual(run('js'));
    expect(cpuBackendOf('axpy', { x, y: scaled }, { arithmetic: formats.dd }, ['y'])).toEqual({ backend: 'wasm' });
  });

  it('the automatic choice runs them on the JavaScript kernels and says why', () => {
    expect(cpuBackendOf('dot', { x, y: x }, { arithmetic: formats.rns212 })).toEqual({ backend: 'js', reason: 'options.arithmetic: WebAssembly computes in f64, f32 or double-double arithmetic only (not rns212)' });
    expect(cpuBackendOf('trsv', { A, x: vector([1, 1]) }, { accumulation: 'dd' }, ['x']).backend).toBe('js');
    expect(dot(x, x, { arithmetic: formats.f32 })).toBe(14);
  });
});
