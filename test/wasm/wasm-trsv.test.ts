/**
 * The WebAssembly TRSV (column-oriented, op(A) with contiguous columns): bit for bit the generated JavaScript's
 * column loop (and so its row loop on the transposed layout) for every readable storage of A, f64/f32 x with
 * strides and sub-ranges, every uplo/trans/diag; within trsvBound of the exact solution (test/kernels/trsv.test.ts
 * runs the default backend, which is this one for such calls); typed refusal for row-contiguous op(A).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, trsvBound, cpuBackendOf, ModprecError, type Range } from '../../src/index.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, changedOutside, errorOf, exactElement, exactVector, positionsOf, snapshot, withinBound, type MatrixSpec, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { type Rational, ZERO, divRational, mulRational, subRational } from '../../src/testing/rational.js';

const system = fc.record({
  n: fc.integer({ min: 1, max: 40 }), uplo: fc.constantFrom('U' as const, 'L' as const), trans: fc.constantFrom('N' as const, 'T' as const),
  diag: fc.constantFrom('N' as const, 'U' as const), seed: fc.integer({ min: 0, max: 2 ** 30 }),
  A: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const), sub: fc.boolean() }),
  x: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() }),
});

function exactSolve(T: Rational[][], b: Rational[], lower: boolean, unit: boolean): Rational[] {
  const n = b.length, x: Rational[] = new Array(n);
  for (let k = 0; k < n; k++) {
    const i = lower ? k : n - 1 - k;
    let s = b[i]!;
    for (let j = lower ? 0 : i + 1; j < (lower ? i : n); j++) s = subRational(s, mulRational(T[i]![j]!, x[j]!));
    x[i] = unit ? s : divRational(s, T[i]![i]!);
  }
  return x;
}

describe('WebAssembly TRSV', () => {
  it('gives the bits of the JavaScript kernel and stays within trsvBound: storages, strides, uplo/trans/diag', () => {
    fc.assert(fc.property(system, (c) => {
      // Column-contiguous op(A): column-major A for trans 'N', row-major for 'T'.
      const spec: MatrixSpec = { storage: c.A.storage, layout: c.trans === 'N' ? 'col' : 'row', sub: c.A.sub, scaleRows: false };
      const read = (i: number, j: number): boolean => (i === j ? c.diag === 'N' : c.uplo === 'U' ? j > i : j < i);
      const make = (): { A: Range<2, any>; x: Range<1, any> } => {
        const random = seededRandom(c.seed);
        const A = buildMatrix(spec, c.n, c.n, (i, j) => (!read(i, j) ? NaN : i === j ? 1 + random.nextDouble() : random.nextDouble() - 0.5));
        const x = buildVector(c.x as VectorSpec, Float64Array.from({ length: c.n }, () => random.nextDouble() - 0.5));
        return { A, x };
      };
      const a = make(), b = make();
      const args = { A: a.A, x: a.x, uplo: c.uplo, trans: c.trans, diag: c.diag };
      expect(cpuBackendOf('trsv', { A: a.A, x: a.x }, {}, ['x']).backend).toBe('wasm');
      const bIn = exactVector(a.x);
      const before = snapshot(a.x);
      trsv(args, { backend: 'wasm' });
      trsv({ ...args, A: b.A, x: b.x }, { backend: 'js' });
      expect(Array.from(a.x.accessor.data as Float64Array)).toEqual(Array.from(b.x.accessor.data as Float64Array));
      expect(changedOutside(a.x, before, positionsOf(a.x))).toEqual([]);
      const lower = (c.uplo === 'L') !== (c.trans === 'T');
      const T = Array.from({ length: c.n }, (_, i) => Array.from({ length: c.n }, (_, j) => {
        const [r, k] = c.trans === 'N' ? [i, j] : [j, i];
        return read(r, k) ? exactElement(a.A, r, k) : ZERO;
      }));
      const exact = exactSolve(T, bIn, lower, c.diag === 'U');
      const bound = trsvBound(args);
      const got = exactVector(a.x);
      for (let i = 0; i < c.n; i++) if (!withinBound(got[i]!, exact[i]!, bound[i]!)) throw new Error(`x[${i}]: error ${errorOf(got[i]!, exact[i]!)} > bound ${bound[i]}`);
    }), { numRuns: 150 });
  });

  it("refuses row-contiguous op(A) for backend 'wasm' naming A (the automatic choice runs the JavaScript row loop)", () => {
    const A = buildMatrix({ storage: 'f64', layout: 'row', sub: false, scaleRows: false }, 2, 2, (i, j) => (i === j ? 1 : 0));
    const x = buildVector({ storage: 'f64', stride: 1, sub: false }, [1, 2]);
    let caught: unknown;
    try { trsv({ A, x, uplo: 'L' }, { backend: 'wasm' }); } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(ModprecError);
    expect((caught as ModprecError).parameter).toBe('A');
    trsv({ A, x, uplo: 'L' });
    expect([x.get(0), x.get(1)]).toEqual([1, 2]);
  });
});
