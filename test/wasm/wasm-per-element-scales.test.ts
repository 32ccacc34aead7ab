/**
 * Vectors with a scale per element in WebAssembly (issue 20), in every numerics it runs (fp64, fp32, kahan, pairwise,
 * dot2 in fp64 and fp32, double-double arithmetic, fp64 with the dd accumulation): inputs read from an unscaled twin
 * holding each element as the JavaScript kernel's load reads it, outputs stored through the JavaScript kernel's store.
 * - AXPY, WAXPBY, SCAL, GEMV (by columns; by rows for pairwise and dot2) and ELL SpMV (the same order in both backends): the JavaScript's stored words
 *   and scales, bit for bit (Object.is; a NaN compared as NaN), inputs and outputs scaled per element;
 * - DOT, ASUM and NRM2 in the accumulations whose order is the JavaScript's (pairwise, dot2): its result bit for bit;
 *   in the lane-ordered ones (fp64, fp32, kahan, the dd accumulation): WebAssembly's result over an unscaled fp64 vector
 *   of the values the JavaScript reads (x.get(i): fl(v·s)), bit for bit;
 * - TRSV into an x scaled per element, in double-double arithmetic and fp64 with the dd accumulation: the JavaScript's
 *   stored codes, bit for bit.
 * - GEMV's and TRSV's A scaled per row or column, ELL SpMV's values scaled per slot: read from an unscaled twin, the
 *   JavaScript's results bit for bit where both sum in the same order; the automatic choice keeps them in JavaScript.
 * Strides of either sign, sub-ranges inside sentinels, n = 0 and 1, α = 0, β = 0 with NaN in y, NaN/±∞/±0/subnormal
 * inputs, tiny and huge scales (saturating outputs, overflowing reads).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asum, axpy, cpuBackendOf, dot, ellOperand, ellSpmv, formats, gemv, matrix, nrm2, range, scal, scaledReducedRowMajor, span, trsv, vector, waxpby, ELL_PADDING, type Range } from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix } from '../kernels/matrix-kernel-fixtures.js';
import { expectSameParts, SPECIALS } from './dd-output-fixtures.js';
import { outputScale, outputSpec, outputVector, startValue, storedWords } from './stored-output-fixtures.js';
import '../../src/formats/dd/register.js';

const NUMERICS = {
  f64: { arithmetic: formats.f64 }, f32: { arithmetic: formats.f32 }, kahan: { arithmetic: formats.f64, accumulation: 'kahan' },
  'kahan-f32': { arithmetic: formats.f32, accumulation: 'kahan' }, pairwise: { arithmetic: formats.f64, accumulation: 'pairwise' },
  'dot2-f32': { arithmetic: formats.f32, accumulation: 'dot2' }, dd: { arithmetic: formats.dd }, 'dd-accumulation': { arithmetic: formats.f64, accumulation: 'dd' },
} as const;
type NumericsName = keyof typeof NUMERICS;
const NAMES = Object.keys(NUMERICS) as NumericsName[];
type InStorage = 'i8' | 'i16' | 'i32' | 'f16' | 'f32' | 'f64' | 'dd';

/** An input vector with a scale per element: stored codes or values (NaN/±∞ where `special` and the storage holds them). */
const inputSpec = fc.record({
  storage: fc.constantFrom<InStorage>('i8', 'i16', 'i32', 'f16', 'f32', 'f64', 'dd'), scales: fc.array(outputScale, { minLength: 1, maxLength: 5 }),
  stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(), special: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
});
type InputSpec = typeof inputSpec extends fc.Arbitrary<infer S> ? S : never;

function inputVector(spec: InputSpec, n: number): Range<1, any> {
  const random = seededRandom(spec.seed);
  const integer = spec.storage.startsWith('i');
  const values = Array.from({ length: n }, () => {
    const r = random.nextDouble();
    if (integer) return Math.round((random.nextDouble() * 2 - 1) * (spec.storage === 'i8' ? 127 : 30000));
    if (spec.special && r < 0.2) return SPECIALS[Math.floor(random.nextDouble() * SPECIALS.length)]!;
    return (random.nextDouble() * 2 - 1) * 2 ** Math.floor(random.nextDouble() * 20 - 10);
  });
  return outputVector({ storage: spec.storage, scaleKind: 'per-element', scales: spec.scales, stride: spec.stride, sub: spec.sub }, values);
}

const sizes = fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 17 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 1) });

describe('WebAssembly over vectors with a scale per element', () => {
  it('AXPY, WAXPBY, SCAL: the JavaScript kernel\'s stored words and scales, bit for bit, in every arithmetic', () => {
    const updateCase = fc.record({
      kernel: fc.constantFrom('axpy' as const, 'waxpby' as const, 'scal' as const), numerics: fc.constantFrom<NumericsName>('f64', 'f32', 'dd'), n: sizes,
      x: inputSpec, y: inputSpec, out: outputSpec(['per-element', 'one', 'none']), alpha: fc.constantFrom(0, 1, -1, 0.5, 3), beta: fc.constantFrom(0, 1, -0.25), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(fc.property(updateCase, (c) => {
      const options = NUMERICS[c.numerics];
      const start = Array.from({ length: c.n }, (_, i) => startValue(c.out.storage, c.kernel === 'waxpby', ((c.seed + i * 7919) % 1000) / 1000));
      const run = (backend: 'wasm' | 'js'): number[] => {
        const x = inputVector(c.x, c.n), y = inputVector(c.y, c.n), out = outputVector(c.out, start);
        if (backend === 'wasm') {
          const report = (o: object) => (c.kernel === 'scal' ? cpuBackendOf('scal', { x: out }, o, ['x']) : c.kernel === 'axpy' ? cpuBackendOf('axpy', { x, y: out }, o, ['y']) : cpuBackendOf('waxpby', { x, y, w: out }, o, ['w']));
          expect(report({ ...options, backend: 'wasm' })).toEqual({ backend: 'wasm' });
          // The automatic choice keeps an update reading a vector scaled per element in JavaScript, saying why.
          const reads = c.kernel !== 'scal' || c.out.scaleKind === 'per-element';
          if (reads) expect(report(options).reason).toMatch(/: a scale per element is read through a JavaScript pass before WebAssembly's/);
        }
        if (c.kernel === 'scal') scal(c.alpha, out, { ...options, backend });
        else if (c.kernel === 'axpy') axpy(c.alpha, x, out, { ...options, backend });
        else waxpby(c.alpha, x, c.beta, y, out, { ...options, backend });
        return storedWords(out);
      };
      expectSameParts(run('wasm'), run('js'), `${c.kernel} ${c.numerics}: x ${c.x.storage}, out ${c.out.scaleKind} ${c.out.storage}`);
    }), { numRuns: 250 });
  });

  it('GEMV by columns and ELL SpMV: x and y scaled per element, the JavaScript\'s stored words, bit for bit', () => {
    const matrixCase = fc.record({
      kernel: fc.constantFrom('gemv' as const, 'ellSpmv' as const), numerics: fc.constantFrom(...NAMES), m: sizes, n: fc.integer({ min: 1, max: 9 }),
      x: inputSpec, y: outputSpec(['per-element', 'one']), alpha: fc.constantFrom(1, -1, 0.5), beta: fc.constantFrom(0, 1, 0.75), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(fc.property(matrixCase, (c) => {
      const options = NUMERICS[c.numerics];
      const random = seededRandom(c.seed);
      const start = Array.from({ length: c.m }, () => startValue(c.y.storage, c.beta === 0, random.nextDouble()));
      // The JavaScript's order: op(A) by columns; pairwise and dot2 sum contiguous rows (in their own order).
      const ordered = c.numerics === 'pairwise' || c.numerics === 'dot2-f32';
      const A = buildMatrix({ storage: 'f64', layout: ordered ? 'row' : 'col', sub: false, scaleRows: false }, c.m, c.n, () => random.nextDouble() * 2 - 1);
      const width = 3, colIndex = new Int32Array(c.m * width).fill(ELL_PADDING);
      for (let i = 0; i < c.m; i++) for (let k = 0, len = random.nextUint32() % (width + 1); k < len; k++) colIndex[i + k * c.m] = random.nextUint32() % c.n;
      const V = buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, c.m, width, () => random.nextDouble() * 2 - 1);
      const E = ellOperand({ rows: c.m, cols: c.n, width, stride: c.m, colIndex }, V);
      const run = (backend: 'wasm' | 'js'): number[] => {
        const x = inputVector(c.x, c.n), y = outputVector(c.y, start);
        // backend 'wasm' accepts it (the automatic choice keeps dot2, and ELL's ordered sums, in JavaScript: the same bits).
        if (backend === 'wasm' && c.m > 0) expect(cpuBackendOf(c.kernel, c.kernel === 'gemv' ? { A, x, y } : { x, y }, { ...options, backend: 'wasm' }, ['y']).backend).toBe('wasm');
        if (c.kernel === 'gemv') gemv({ alpha: c.alpha, A, x, beta: c.beta, y }, { ...options, backend });
        else ellSpmv({ alpha: c.alpha, A: E, x, beta: c.beta, y }, { ...options, backend });
        return storedWords(y);
      };
      expectSameParts(run('wasm'), run('js'), `${c.kernel} ${c.numerics}: x ${c.x.storage}, y ${c.y.scaleKind} ${c.y.storage}`);
    }), { numRuns: 250 });
  });

  it('DOT, ASUM, NRM2: the JavaScript\'s result (pairwise, dot2), or WebAssembly\'s over the values the JavaScript reads', () => {
    const reductionCase = fc.record({ numerics: fc.constantFrom<NumericsName>('f64', 'f32', 'kahan', 'kahan-f32', 'pairwise', 'dot2-f32', 'dd-accumulation'), n: sizes, x: inputSpec, y: inputSpec });
    fc.assert(fc.property(reductionCase, (c) => {
      const options = NUMERICS[c.numerics];
      const x = inputVector(c.x, c.n), y = inputVector(c.y, c.n);
      expect(cpuBackendOf('dot', { x, y }, { ...options, backend: 'wasm' }).backend).toBe('wasm');
      const ordered = c.numerics === 'pairwise' || c.numerics === 'dot2-f32';
      // The oracle's operands: unscaled vectors of what the JavaScript reads (fp32 arithmetic: the binary32 reads).
      const f32 = options.arithmetic === formats.f32;
      const read = (r: Range<1, any>): Range<1, any> => {
        const values = Array.from({ length: c.n }, (_, i) => (f32 ? Math.fround(Math.fround(r.accessor.storage.kind === 'dd' ? NaN : (r.accessor.storage.decode(r.accessor.data as never, r.accessor.linearIndex([i])) as number)) * Math.fround(r.accessor.readScale(i))) : r.get(i) as number));
        return vector(values, { storage: f32 ? formats.f32 : formats.f64 });
      };
      const kernels: [string, (a: Range<1, any>, b: Range<1, any>, backend: 'wasm' | 'js') => number][] = [
        ['dot', (a, b, backend) => dot(a, b, { ...options, backend })],
        ['asum', (a, _b, backend) => asum(a, { ...options, backend })],
        ['nrm2', (a, _b, backend) => nrm2(a, { ...options, backend })],
      ];
      // fp32 arithmetic reads a dd element through round-to-odd: the oracle's read covers the other storages only.
      const oracle = !(f32 && (c.x.storage === 'dd' || c.y.storage === 'dd'));
      for (const [name, f] of kernels) {
        const got = f(x, y, 'wasm');
        if (ordered) expectSameParts([got], [f(x, y, 'js')], `${name} ${c.numerics}`);
        else if (oracle) expectSameParts([got], [f(read(x), read(y), 'wasm')], `${name} ${c.numerics} against its reads`);
      }
    }), { numRuns: 200 });
  });

  it('TRSV into an x scaled per element: the JavaScript\'s stored codes, bit for bit (double-double arithmetic, fp64 with the dd accumulation)', () => {
    const trsvCase = fc.record({
      numerics: fc.constantFrom<NumericsName>('dd', 'dd-accumulation'), n: fc.integer({ min: 1, max: 12 }), uplo: fc.constantFrom('L' as const, 'U' as const),
      trans: fc.constantFrom('N' as const, 'T' as const), layout: fc.constantFrom('row-major' as const, 'col-major' as const), x: outputSpec(['per-element']), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(fc.property(trsvCase, (c) => {
      const random = seededRandom(c.seed);
      const A = matrix(c.n, c.n, (i, j) => (i === j ? 1 + random.nextDouble() : (random.nextDouble() - 0.5) / c.n), { layout: c.layout });
      const start = Array.from({ length: c.n }, () => startValue(c.x.storage, false, random.nextDouble()));
      const options = NUMERICS[c.numerics];
      const run = (backend: 'wasm' | 'js'): number[] => {
        const x = outputVector(c.x, start);
        trsv({ A, x, uplo: c.uplo, trans: c.trans }, { ...options, backend });
        return storedWords(x);
      };
      // A 16-bit NaN's sign is the engine's: every NaN code of the storage compares as one.
      expectSameParts(run('wasm'), run('js'), `trsv ${c.numerics} into ${c.x.storage}`);
    }), { numRuns: 150 });
  });

  it('GEMV\'s A and TRSV\'s A scaled per row or column, ELL SpMV values scaled per slot: the JavaScript\'s stored values, bit for bit', () => {
    const lineCase = fc.record({
      kernel: fc.constantFrom('gemv' as const, 'trsv' as const, 'ellSpmv' as const), numerics: fc.constantFrom(...NAMES), m: fc.integer({ min: 0, max: 11 }), n: fc.integer({ min: 1, max: 9 }),
      scaleRows: fc.boolean(), sub: fc.boolean(), uplo: fc.constantFrom('L' as const, 'U' as const), alpha: fc.constantFrom(1, -0.5), beta: fc.constantFrom(0, 0.75), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(fc.property(lineCase, (c) => {
      const options = NUMERICS[c.numerics];
      const random = seededRandom(c.seed);
      const ordered = c.numerics === 'pairwise' || c.numerics === 'dot2-f32';
      // The JavaScript's order: op(A) by columns (GEMV, TRSV); pairwise and dot2 by rows, in their own order. TRSV: kahan's row sums lane by lane.
      if (c.kernel === 'trsv' && (c.numerics === 'kahan' || c.numerics === 'kahan-f32')) return;
      const layout = ordered ? 'row' : 'col';
      const [rows, cols] = c.kernel === 'trsv' ? [c.n, c.n] : c.kernel === 'gemv' ? [c.m, c.n] : [c.m, 3];
      const M = buildMatrix({ storage: 'i16s', layout, sub: c.sub, scaleRows: c.scaleRows }, rows, cols, (i, j) => (c.kernel === 'trsv' && i === j ? 1 + random.nextDouble() : (random.nextDouble() - 0.5) * 2 ** Math.floor(random.nextDouble() * 8)));
      const xs = Array.from({ length: c.kernel === 'trsv' ? c.n : c.n }, () => random.nextDouble() * 2 - 1);
      const colIndex = new Int32Array(c.m * 3).fill(ELL_PADDING);
      for (let i = 0; i < c.m; i++) for (let k = 0, len = random.nextUint32() % 4; k < len; k++) colIndex[i + k * c.m] = random.nextUint32() % c.n;
      const run = (backend: 'wasm' | 'js'): number[] => {
        if (c.kernel === 'trsv') {
          const x = vector(xs);
          trsv({ A: M, x, uplo: c.uplo }, { ...options, backend });
          return [...(x.accessor.data as Float64Array)];
        }
        const x = vector(xs), y = vector(Array.from({ length: c.m }, (_, i) => (c.beta === 0 ? NaN : i / 3)));
        if (c.kernel === 'gemv') gemv({ alpha: c.alpha, A: M, x, beta: c.beta, y }, { ...options, backend });
        else if (c.scaleRows) return [];
        else ellSpmv({ alpha: c.alpha, A: ellOperand({ rows: c.m, cols: c.n, width: 3, stride: c.m, colIndex }, M), x, beta: c.beta, y }, { ...options, backend });
        return [...(y.accessor.data as Float64Array)];
      };
      expectSameParts(run('wasm'), run('js'), `${c.kernel} ${c.numerics}, scaled per ${c.scaleRows ? 'row' : 'column'}`);
    }), { numRuns: 250 });
  });

  it('a matrix scaled per row: backend \'wasm\' runs it, the automatic choice keeps it in JavaScript, saying why', () => {
    const A = buildMatrix({ storage: 'i16s', layout: 'col', sub: false, scaleRows: true }, 3, 3, (i, j) => (i === j ? 2 : i - j));
    const x = vector([1, 2, 3]);
    for (const options of Object.values(NUMERICS)) {
      // The report is the kernel's own decision: backend 'wasm' runs it unless GEMV's ordered sums need contiguous rows
      // of op(A) (this A is column-major: pairwise, for one, is refused — the kernel throws, the report says 'js' and why).
      let runs = true;
      try { gemv({ alpha: 1, A, x, beta: 0, y: vector(3) }, { ...options, backend: 'wasm' }); } catch { runs = false; }
      const report = cpuBackendOf('gemv', { A, x, y: vector(3) }, { ...options, backend: 'wasm' }, ['y']);
      if (runs) expect(report).toEqual({ backend: 'wasm' });
      else expect(report.reason).toMatch(/^A: WebAssembly sums GEMV with the \w+ accumulation over contiguous rows/);
      expect(cpuBackendOf('gemv', { A, x, y: vector(3) }, options, ['y']).reason).toMatch(runs ? /^A: scales per row, column or element are read through a JavaScript pass/ : /^A: WebAssembly sums GEMV/);
      expect(cpuBackendOf('trsv', { A, x }, { ...options, backend: 'wasm' }, ['x'])).toEqual({ backend: 'wasm' });
    }
  });

  it('a sub-range of a vector scaled per element reads and writes its own elements\' scales', () => {
    const parent = range(scaledReducedRowMajor<1, any>({ size: [6], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true] }));
    for (let i = 0; i < 6; i++) { parent.accessor.scale!.data[i] = 2 ** -i; parent.set(i, 1 + i / 4); }
    const run = (backend: 'wasm' | 'js'): number[] => {
      const y = range(scaledReducedRowMajor<1, any>({ size: [6], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true], scale: Float64Array.of(1, 0.5, 0.25, 3, 1e-3, 7) }));
      axpy(3, parent.sub(span(1, 5)), y.sub(span(2, 6)), { arithmetic: formats.dd, backend });
      return storedWords(y);
    };
    expectSameParts(run('wasm'), run('js'), 'sub-ranges');
  });
});
