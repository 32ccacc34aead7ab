/**
 * Double-double storage read by the WebAssembly kernels in fp64 arithmetic: each element's value is hi + lo, as the
 * JavaScript kernels read it. Oracle: every kernel on a dd operand (lo parts non-zero, strides incl. negative,
 * sub-ranges) gives bit for bit what the same WebAssembly kernel gives on an fp64 copy holding hi + lo, and what the
 * generated JavaScript gives on the dd operand where both sum in the same order (updates, ELL, TRSV, GEMV by
 * columns). dd storage is read only here (dd outputs: wasm-dd-outputs-*.test.ts). (DOT in dd arithmetic reads the pairs:
 * test/wasm/wasm-dd-dot.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  asum, axpy, colMajor, dot, ellOperand, ellSpmv, formats, gemv, laplacianEll, nrm2, range, rowMajor, scal, span, trsv, vector, waxpby, cpuBackendOf,
  type Range,
} from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import '../../src/formats/dd/register.js';

type Pair = { hi: number; lo: number };

/** A dd vector holding the pairs (stride, sub-range as asked) and its fp64 twin holding hi + lo. */
function ddVector(pairs: readonly Pair[], stride: number, sub: boolean): [Range<1, any>, Range<1, any>] {
  const n = pairs.length, N = sub ? n + 3 : n;
  const make = (storage: typeof formats.dd | typeof formats.f64): Range<1, any> => {
    const parent = range(rowMajor<1, any>({ size: [N], storage, arithmetic: formats.f64, stride }));
    const view = sub ? parent.sub(span(1, 1 + n)) : parent;
    pairs.forEach((p, i) => (storage === formats.dd ? setPair(view, [i], p) : view.set(i, p.hi + p.lo)));
    return view;
  };
  return [make(formats.dd), make(formats.f64)];
}

/** Writes a pair through the storage (the range's fp64 arithmetic would take a number). */
function setPair(r: Range<any, any>, index: number[], p: Pair): void {
  const a = r.accessor;
  a.storage.encode(a.data as never, a.linearIndex(index), p);
}

function pairs(n: number, seed: number): Pair[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const hi = (random.nextDouble() * 2 - 1) * 2 ** (random.nextUint32() % 8);
    return { hi, lo: hi * 2 ** -54 * (random.nextDouble() * 2 - 1) };
  });
}

const bits = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i) as number);
const same = (a: readonly number[], b: readonly number[]): void => expect(a.every((v, i) => Object.is(v, b[i])) && a.length === b.length).toBe(true);

describe('WebAssembly reads double-double storage as hi + lo (fp64 arithmetic)', () => {
  it('DOT, ASUM, NRM2, AXPY, WAXPBY, SCAL: the bits of the fp64 twin; the updates also the bits of the JavaScript', () => {
    const input = fc.record({ n: fc.integer({ min: 0, max: 40 }), seed: fc.integer({ min: 0, max: 2 ** 30 }), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(), alpha: fc.constantFrom(1, -0.5, 3) });
    fc.assert(fc.property(input, ({ n, seed, stride, sub, alpha }) => {
      const [x, x64] = ddVector(pairs(n, seed), stride, sub);
      const [y, y64] = ddVector(pairs(n, seed + 1), -stride, !sub);
      expect(cpuBackendOf('dot', { x, y }).backend).toBe('wasm');
      expect(Object.is(dot(x, y, { backend: 'wasm' }), dot(x64, y64, { backend: 'wasm' }))).toBe(true);
      expect(Object.is(asum(x, { backend: 'wasm' }), asum(x64, { backend: 'wasm' }))).toBe(true);
      expect(Object.is(nrm2(x, { backend: 'wasm' }), nrm2(x64, { backend: 'wasm' }))).toBe(true);
      const outs = (): Range<1, any>[] => [vector(n), vector(n), vector(n), vector(n)];
      const [a, b, c, d] = outs(), [a2, b2, c2, d2] = outs();
      for (const [out, backend] of [[a, 'wasm'], [a2, 'js']] as const) { out.accessor.data.fill(0.25); axpy(alpha, x, out, { backend }); }
      for (const [out, backend] of [[b, 'wasm'], [b2, 'js']] as const) waxpby(alpha, x, 0.5, y, out, { backend });
      same(bits(a), bits(a2));
      same(bits(b), bits(b2));
      for (const [out, backend] of [[c, 'wasm'], [d, 'js']] as const) waxpby(alpha, x64, 0.5, y64, out, { backend });
      same(bits(b), bits(c));
      // A dd output is written too: SCAL in place, the JavaScript's pairs.
      const [s1] = ddVector(pairs(n, seed), stride, sub), [s2] = ddVector(pairs(n, seed), stride, sub);
      scal(alpha, s1, { backend: 'wasm' });
      scal(alpha, s2, { backend: 'js' });
      expect(Array.from(s1.accessor.data as Float64Array)).toEqual(Array.from(s2.accessor.data as Float64Array));
    }), { numRuns: 150 });
  });

  it('GEMV (both layouts), TRSV and ELL SpMV with dd matrices: the bits of the fp64 twin, and of the JavaScript where the order is the same', () => {
    const random = seededRandom(11);
    const m = 37, n = 29;
    for (const layout of [colMajor, rowMajor]) {
      const A = range(layout<2, any>({ size: [m, n], storage: formats.dd, arithmetic: formats.f64 }));
      const A64 = range(layout<2>({ size: [m, n], storage: formats.f64, arithmetic: formats.f64 }));
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
        const hi = random.nextDouble() - 0.5, lo = hi * 2 ** -55 * random.nextDouble();
        setPair(A, [i, j], { hi, lo });
        A64.set(i, j, hi + lo);
      }
      const x = vector(Array.from({ length: n }, () => random.nextDouble()));
      const [y, y64, yjs] = [vector(m), vector(m), vector(m)];
      gemv({ alpha: 1.5, A, x, beta: 0, y }, { backend: 'wasm' });
      gemv({ alpha: 1.5, A: A64, x, beta: 0, y: y64 }, { backend: 'wasm' });
      gemv({ alpha: 1.5, A, x, beta: 0, y: yjs }, { backend: 'js' });
      same(bits(y), bits(y64));
      if (layout === colMajor) same(bits(y), bits(yjs));
      else for (let i = 0; i < m; i++) expect(Math.abs(y.get(i) - yjs.get(i))).toBeLessThan(1e-13);
    }
    const T = range(colMajor<2, any>({ size: [n, n], storage: formats.dd, arithmetic: formats.f64 }));
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) setPair(T, [i, j], i === j ? { hi: 2 + random.nextDouble(), lo: 2 ** -60 } : { hi: random.nextDouble() / n, lo: -(2 ** -62) });
    const b = Array.from({ length: n }, () => random.nextDouble());
    const [s, sjs] = [vector(b), vector(b)];
    trsv({ A: T, x: s, uplo: 'L' }, { backend: 'wasm' });
    trsv({ A: T, x: sjs, uplo: 'L' }, { backend: 'js' });
    same(bits(s), bits(sjs));
    // fp32 arithmetic reads each hi + lo through round-to-odd (the diagonal too): the JavaScript f32 kernel's bits.
    const [s32, s32js] = [vector(b), vector(b)];
    trsv({ A: T, x: s32, uplo: 'L' }, { backend: 'wasm', arithmetic: formats.f32 });
    trsv({ A: T, x: s32js, uplo: 'L' }, { backend: 'js', arithmetic: formats.f32 });
    same(bits(s32), bits(s32js));
    const L = laplacianEll([9, 9, 9]);
    const V = range(colMajor<2, any>({ size: [L.stride, L.width], storage: formats.dd, arithmetic: formats.f64 }));
    for (let k = 0; k < L.width; k++) for (let i = 0; i < L.stride; i++) setPair(V, [i, k], { hi: L.values[i + k * L.stride]!, lo: 2 ** -70 });
    const A = ellOperand(L, V);
    const xe = vector(Array.from({ length: L.cols }, () => random.nextDouble()));
    const [e, ejs] = [vector(L.rows), vector(L.rows)];
    ellSpmv({ alpha: 1, A, x: xe, beta: 0, y: e }, { backend: 'wasm' });
    ellSpmv({ alpha: 1, A, x: xe, beta: 0, y: ejs }, { backend: 'js' });
    same(bits(e), bits(ejs));
  });

  it('TRSV in double-double arithmetic with a dd x runs in WebAssembly with the JavaScript\'s parts (wasm-dd-trsv.test.ts covers it)', () => {
    const [x] = ddVector(pairs(2, 1), 1, false);
    const [xjs] = ddVector(pairs(2, 1), 1, false);
    const T = range(colMajor<2, any>({ size: [2, 2], storage: formats.f64, arithmetic: formats.f64 }));
    T.set(0, 0, 1); T.set(1, 1, 2); T.set(1, 0, 0.5);
    trsv({ A: T, x, uplo: 'L' }, { backend: 'wasm', arithmetic: formats.dd });
    trsv({ A: T, x: xjs, uplo: 'L' }, { backend: 'js', arithmetic: formats.dd });
    expect(Array.from(x.accessor.data as Float64Array)).toEqual(Array.from(xjs.accessor.data as Float64Array));
    expect(cpuBackendOf('trsv', { A: T, x }, { arithmetic: formats.dd }, ['x']).backend).toBe('js');
    expect(cpuBackendOf('trsv', { A: T, x }, { arithmetic: formats.f64 }, ['x']).backend).toBe('wasm');
    expect(cpuBackendOf('scal', { x }, {}, ['x']).backend).toBe('wasm');
  });
});
