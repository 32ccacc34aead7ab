/**
 * The WebAssembly TRSV: with contiguous columns of op(A), bit for bit the generated JavaScript's column loop (and so
 * its row loop on the transposed layout); with contiguous rows, bit for bit the documented row order (each row's
 * products in eight lanes, then (0 + bᵢ) − sum, divided by the diagonal, stored); for every readable storage of A,
 * f64/f32 x with strides and sub-ranges, every uplo/trans/diag; within trsvBound of the exact solution
 * (test/kernels/trsv.test.ts runs the default backend, which is this one for such calls); typed refusal for an
 * op(A) with neither unit stride.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, trsvBound, cpuBackendOf, range, strided, formats, ModprecError, type Range } from '../../src/index.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';

/** The WebAssembly DOT's order on doubles: element i into partial sum i mod 8, then a fixed tree. */
function laneOrderDot(a: readonly number[], b: readonly number[]): number {
  const p = new Array<number>(8).fill(0);
  for (let i = 0; i < a.length; i++) p[i % 8] = p[i % 8]! + a[i]! * b[i]!;
  return ((p[0]! + p[1]!) + (p[2]! + p[3]!)) + ((p[4]! + p[5]!) + (p[6]! + p[7]!));
}
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, changedOutside, errorOf, exactElement, exactVector, positionsOf, snapshot, withinBound, type MatrixSpec, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { ZERO } from '../../src/testing/rational.js';
import { exactTriangularSolve } from '../../src/testing/exact.js';

const system = fc.record({
  n: fc.integer({ min: 1, max: 40 }), uplo: fc.constantFrom('U' as const, 'L' as const), trans: fc.constantFrom('N' as const, 'T' as const),
  diag: fc.constantFrom('N' as const, 'U' as const), seed: fc.integer({ min: 0, max: 2 ** 30 }),
  A: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const), sub: fc.boolean(), byRows: fc.boolean() }),
  x: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() }),
});

/** {@link laneOrderDot} in binary32: each product and sum one binary32 rounding. */
function laneOrderDotF32(a: readonly number[], b: readonly number[]): number {
  const f = Math.fround, p = new Array<number>(8).fill(0);
  for (let i = 0; i < a.length; i++) p[i % 8] = f(p[i % 8]! + f(a[i]! * b[i]!));
  return f(f(f(p[0]! + p[1]!) + f(p[2]! + p[3]!)) + f(f(p[4]! + p[5]!) + f(p[6]! + p[7]!)));
}

/** The recursive row order: (0 + bᵢ) − the lane-order sum of the products (`dot` in the arithmetic). */
const recursiveRow = (dot: typeof laneOrderDot, round: (v: number) => number) => (b: number, t: readonly number[], x: readonly number[]): number => round(round(0 + b) - dot(t, x));

/**
 * The kahan row order of kernels/trsv/trsv-kahan-wasm.ts: lane 0 starts from bᵢ (TwoSum(0, bᵢ)), product k, fl(tₖ·(−xₖ)),
 * enters lane k mod 8's (s, c) by TwoSum, the lanes are joined in the fixed tree, result s + c.
 */
const kahanRow = (round: (v: number) => number) => (b: number, t: readonly number[], x: readonly number[]): number => {
  const twoSum = (a: number, c: number): [number, number] => {
    const S = round(a + c), z = round(S - a);
    return [S, round(round(a - round(S - z)) + round(c - z))];
  };
  const add = (l: [number, number], term: number): [number, number] => { const [S, e] = twoSum(l[0], term); return [S, round(l[1] + e)]; };
  const lanes = Array.from({ length: 8 }, () => [0, 0] as [number, number]);
  lanes[0] = add(lanes[0]!, b);
  t.forEach((tk, k) => { lanes[k % 8] = add(lanes[k % 8]!, round(tk * -x[k]!)); });
  const join = (a: [number, number], c: [number, number]): [number, number] => { const [S, e] = twoSum(a[0], c[0]); return [S, round(round(a[1] + c[1]) + e)]; };
  const [S, c] = join(join(join(lanes[0]!, lanes[1]!), join(lanes[2]!, lanes[3]!)), join(join(lanes[4]!, lanes[5]!), join(lanes[6]!, lanes[7]!)));
  return round(S + c);
};

const id = (v: number): number => v;
const ARITHMETICS = [
  { name: 'f64' as const, label: 'f64', options: {}, round: id, row: recursiveRow(laneOrderDot, id), numRuns: 150 },
  { name: 'f32' as const, label: 'f32', options: { arithmetic: formats.f32 }, round: Math.fround, row: recursiveRow(laneOrderDotF32, Math.fround), numRuns: 100 },
  { name: 'f64' as const, label: 'f64 kahan', options: { accumulation: 'kahan' }, round: id, row: kahanRow(id), numRuns: 80 },
  { name: 'f32' as const, label: 'f32 kahan', options: { arithmetic: formats.f32, accumulation: 'kahan' }, round: Math.fround, row: kahanRow(Math.fround), numRuns: 80 },
];

describe('WebAssembly TRSV', () => {
  for (const { name, label, options, round, row, numRuns } of ARITHMETICS) it(`gives the bits of the JavaScript kernel and stays within trsvBound: storages, strides, uplo/trans/diag (${label})`, () => {
    fc.assert(fc.property(system, (c) => {
      // Column-contiguous op(A): column-major A for trans 'N', row-major for 'T'; row-contiguous: the other way.
      const spec: MatrixSpec = { storage: c.A.storage, layout: (c.trans === 'N') !== c.A.byRows ? 'col' : 'row', sub: c.A.sub, scaleRows: false };
      const read = (i: number, j: number): boolean => (i === j ? c.diag === 'N' : c.uplo === 'U' ? j > i : j < i);
      const make = (): { A: Range<2, any>; x: Range<1, any> } => {
        const random = seededRandom(c.seed);
        const A = buildMatrix(spec, c.n, c.n, (i, j) => (!read(i, j) ? NaN : i === j ? 1 + random.nextDouble() : random.nextDouble() - 0.5), name);
        const x = buildVector(c.x as VectorSpec, Float64Array.from({ length: c.n }, () => random.nextDouble() - 0.5), name);
        return { A, x };
      };
      const a = make(), b = make();
      const args = { A: a.A, x: a.x, uplo: c.uplo, trans: c.trans, diag: c.diag };
      expect(cpuBackendOf('trsv', { A: a.A, x: a.x }, options, ['x']).backend).toBe('wasm');
      const bIn = exactVector(a.x);
      const bValues = Array.from({ length: c.n }, (_, i) => round(a.x.get(i) as number));
      const before = snapshot(a.x);
      trsv(args, { ...options, backend: 'wasm' });
      trsv({ ...args, A: b.A, x: b.x }, { ...options, backend: 'js' });
      const lower = (c.uplo === 'L') !== (c.trans === 'T');
      if (!c.A.byRows) expect(Array.from(a.x.accessor.data as Float64Array)).toEqual(Array.from(b.x.accessor.data as Float64Array));
      else {
        // The documented row order, evaluated here on the decoded values.
        const t = (i: number, j: number): number => round((c.trans === 'N' ? a.A.get(i, j) : a.A.get(j, i)) as number);
        const xs = new Array<number>(c.n).fill(0);
        for (let k = 0; k < c.n; k++) {
          const i = lower ? k : c.n - 1 - k;
          const js = lower ? Array.from({ length: i }, (_, j) => j) : Array.from({ length: c.n - 1 - i }, (_, j) => i + 1 + j);
          let q = row(bValues[i]!, js.map((j) => t(i, j)), js.map((j) => xs[j]!));
          if (c.diag === 'N') q = round(q / t(i, i));
          xs[i] = c.x.storage === 'f32' ? Math.fround(q) : q;
        }
        for (let i = 0; i < c.n; i++) expect(Object.is(a.x.get(i), xs[i])).toBe(true);
      }
      expect(changedOutside(a.x, before, positionsOf(a.x))).toEqual([]);
      const T = Array.from({ length: c.n }, (_, i) => Array.from({ length: c.n }, (_, j) => {
        const [r, k] = c.trans === 'N' ? [i, j] : [j, i];
        return read(r, k) ? exactElement(a.A, r, k) : ZERO;
      }));
      const exact = exactTriangularSolve(T, bIn, lower, c.diag === 'U');
      const bound = trsvBound(args, options);
      const got = exactVector(a.x);
      for (let i = 0; i < c.n; i++) if (!withinBound(got[i]!, exact[i]!, bound[i]!)) throw new Error(`x[${i}]: error ${errorOf(got[i]!, exact[i]!)} > bound ${bound[i]}`);
    }), { numRuns });
  });

  it("refuses an op(A) with neither unit stride for backend 'wasm' naming A (the automatic choice runs the JavaScript)", () => {
    const A = range(strided<2>({ size: [2, 2], strides: [2, 5], data: Float64Array.from([1, 0, 0, 0, 0, 0, 0, 1]) }));
    const x = buildVector({ storage: 'f64', stride: 1, sub: false }, [1, 2]);
    let caught: unknown;
    try { trsv({ A, x, uplo: 'L' }, { backend: 'wasm' }); } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(ModprecError);
    expect((caught as ModprecError).parameter).toBe('A');
    expect([x.get(0), x.get(1)]).toEqual([1, 2]);
    trsv({ A, x, uplo: 'L' });
    expect([x.get(0), x.get(1)]).toEqual([1, 2]);
  });

  it('kahan by rows: a non-finite solution leaves x to the JavaScript kernel (its answer, bit for bit)', () => {
    for (const arithmetic of [formats.f64, formats.f32]) {
      const options = { accumulation: 'kahan', arithmetic } as const;
      const A = buildMatrix({ storage: 'f64', layout: 'row', sub: false, scaleRows: false }, 3, 3, (i, j) => (j > i ? NaN : i === j ? 2 : 1e300));
      const make = (): Range<1, any> => buildVector({ storage: 'f64', stride: 1, sub: false }, [1e300, -1e300, 3]);
      const x = make(), y = make();
      trsv({ A, x, uplo: 'L' }, { ...options, backend: 'wasm' });
      trsv({ A, x: y, uplo: 'L' }, { ...options, backend: 'js' });
      for (let i = 0; i < 3; i++) expect(Object.is(x.get(i), y.get(i))).toBe(true);
      expect(Number.isFinite(x.get(2) as number)).toBe(false);
    }
  });

  it('row-contiguous rows longer than a staging chunk', () => {
    const n = CHUNK + 37;
    const A = buildMatrix({ storage: 'f32', layout: 'row', sub: true, scaleRows: false }, n, n, (i, j) => (i === j ? 2 : j < i ? Math.sin(i + j) / n : NaN));
    const x = buildVector({ storage: 'f64', stride: -1, sub: false }, Float64Array.from({ length: n }, (_, i) => Math.cos(i)));
    const y = buildVector({ storage: 'f64', stride: -1, sub: false }, Float64Array.from({ length: n }, (_, i) => Math.cos(i)));
    const bound = trsvBound({ A, x, uplo: 'L' });
    trsv({ A, x, uplo: 'L' }, { backend: 'wasm' });
    trsv({ A, x: y, uplo: 'L' }, { backend: 'js' });
    for (let i = 0; i < n; i++) expect(Math.abs((x.get(i) as number) - (y.get(i) as number))).toBeLessThanOrEqual(2 * bound[i]!);
    expect(Number.isFinite(x.get(n - 1) as number)).toBe(true);
  });
});
