import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { range, type Range } from '../../src/core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { formats } from '../../src/formats/index.js';
import { ModprecError } from '../../src/core/errors.js';
import { trsv } from '../../kernels/trsv/trsv.js';
import { trsvBound } from '../../kernels/trsv/trsv-bound.js';
import type { KernelOptions } from '../../kernels/shared/kernel-options.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { luFactor, luSolve, applyPivots } from '../../src/linalg/lu.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { ZERO } from '../../src/testing/rational.js';
import { exactTriangularSolve } from '../../src/testing/exact.js';
import {
  buildMatrix, buildVector, changedOutside, exactElement, exactVector, errorOf, matrixSpec, positionsOf,
  snapshot, vectorSpec, withinBound, type ArithmeticName,
} from './matrix-kernel-fixtures.js';
import '../../src/formats/dd/register.js';

type Uplo = 'U' | 'L';
type Trans = 'N' | 'T';
type Diag = 'N' | 'U';

/** Whether A(i, j) lies in the triangle TRSV reads. */
function inTriangle(i: number, j: number, uplo: Uplo, diag: Diag): boolean {
  if (i === j) return diag === 'N';
  return uplo === 'U' ? j > i : j < i;
}

type TrsvCase = typeof trsvCase extends fc.Arbitrary<infer C> ? C : never;

const trsvCase = fc.record({
  n: fc.integer({ min: 0, max: 6 }),
  uplo: fc.constantFrom<Uplo>('U', 'L'),
  trans: fc.constantFrom<Trans>('N', 'T'),
  diag: fc.constantFrom<Diag>('N', 'U'),
  A: matrixSpec,
  x: vectorSpec,
  arithmetic: fc.constantFrom<ArithmeticName>('f64', 'f32'),
  seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

/** Solves one random case and checks it against the exact solution within trsvBound. */
function checkCase(c: TrsvCase, options: KernelOptions): void {
  const random = seededRandom(c.seed);
  const v = (): number => random.nextDouble() * 2 - 1;
  // The triangle not read (and a unit diagonal) holds a sentinel: NaN where the storage can hold it.
  const outside = c.A.storage === 'i16s' ? 7 : NaN;
  const A = buildMatrix(c.A, c.n, c.n, (i, j) => (!inTriangle(i, j, c.uplo, c.diag) ? outside
    : i === j ? (random.nextUint32() % 2 ? 1 : -1) * (1 + random.nextDouble()) : v()));
  const x = buildVector(c.x, Float64Array.from({ length: c.n }, v), 'f64', 2 ** (c.n + 1));
  const before = { A: snapshot(A), x: snapshot(x) };
  const b = exactVector(x);
  const args = { A, x, uplo: c.uplo, trans: c.trans, diag: c.diag };
  trsv(args, options);
  expect(changedOutside(A, before.A)).toEqual([]);
  expect(changedOutside(x, before.x, positionsOf(x))).toEqual([]);
  const bound = trsvBound(args, options);
  const lower = (c.uplo === 'L') !== (c.trans === 'T');
  // op(A) where it is read (the sentinels elsewhere have no exact value).
  const T = Array.from({ length: c.n }, (_, i) => Array.from({ length: c.n }, (_, j) => {
    const [r, k] = c.trans === 'N' ? [i, j] : [j, i];
    return inTriangle(r, k, c.uplo, c.diag) ? exactElement(A, r, k) : ZERO;
  }));
  const exact = exactTriangularSolve(T, b, lower, c.diag === 'U');
  const computed = exactVector(x);
  for (let i = 0; i < c.n; i++) {
    if (!withinBound(computed[i]!, exact[i]!, bound[i]!)) {
      throw new Error(`x[${i}]: error ${errorOf(computed[i]!, exact[i]!)} > bound ${bound[i]}`);
    }
  }
}

describe('trsv against the exact solution for the stored values', () => {
  it('stays within trsvBound for all 8 uplo/trans/diag, every storage, layout, stride and arithmetic', () => {
    fc.assert(fc.property(trsvCase, (c) => checkCase(c, { arithmetic: c.arithmetic })), { numRuns: 300 });
  });

  it('stays within trsvBound with the accumulation plugins and double-double arithmetic', () => {
    const pair = fc.constantFrom(['f64', 'pairwise'], ['f64', 'kahan'], ['f64', 'dot2'], ['f64', 'dd'], ['f32', 'dot2'], ['f32', 'dd'], ['dd', 'recursive'], ['dd', 'dd']);
    fc.assert(fc.property(trsvCase, pair, (c, [arithmetic, accumulation]) => checkCase(c, { arithmetic, accumulation })), { numRuns: 150 });
  });
});

describe('trsv reads A contiguously for its layout (rows in blocks where columns are contiguous)', () => {
  // n past several 8-row (f64/f32) and 4-row (dd) blocks, with leftover rows: every storage, layout and stride.
  const largeCase = trsvCase.chain((c) => fc.integer({ min: 7, max: 27 }).map((n) => ({ ...c, n })));

  it('stays within trsvBound for n past the row blocks, every layout, storage and arithmetic', () => {
    fc.assert(fc.property(largeCase, (c) => checkCase(c, { arithmetic: c.arithmetic })), { numRuns: 80 });
  });

  it('stays within trsvBound for n past the row blocks with the accumulation plugins and dd', () => {
    const pair = fc.constantFrom(['f64', 'kahan'], ['f64', 'dot2'], ['f64', 'dd'], ['dd', 'recursive'], ['dd', 'dd'], ['f32', 'pairwise']);
    fc.assert(fc.property(largeCase, pair, (c, [arithmetic, accumulation]) => checkCase(c, { arithmetic, accumulation })), { numRuns: 40 });
  });

  // The generated JavaScript's property; WebAssembly sums a row-contiguous op(A)'s rows in SIMD lanes (docs/guide.md,
  // "On the CPU"), so there the layouts agree within trsvBound, not bit for bit (test/wasm/wasm-trsv.test.ts).
  it('gives the same bits for row-major and column-major A on the JavaScript kernel (each row sums in the same order)', () => {
    const pair = fc.constantFrom(['f64', 'recursive'], ['f32', 'recursive'], ['f64', 'kahan'], ['f64', 'dd'], ['dd', 'recursive']);
    const system = fc.record({
      n: fc.integer({ min: 0, max: 30 }), uplo: fc.constantFrom<Uplo>('U', 'L'), trans: fc.constantFrom<Trans>('N', 'T'),
      diag: fc.constantFrom<Diag>('N', 'U'), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    fc.assert(fc.property(system, pair, (c, [arithmetic, accumulation]) => {
      const random = seededRandom(c.seed);
      const values = Array.from({ length: c.n }, (_, i) => Array.from({ length: c.n }, (_, j) => (i === j ? 1 + random.nextDouble() : random.nextDouble() * 2 - 1)));
      const b = Array.from({ length: c.n }, () => random.nextDouble() * 2 - 1);
      const solve = (layout: 'row' | 'col'): number[] => {
        const x = vec(b);
        trsv({ A: square(values, layout), x, uplo: c.uplo, trans: c.trans, diag: c.diag }, { arithmetic, accumulation, backend: 'js' });
        return read(x);
      };
      expect(solve('col')).toEqual(solve('row'));
    }), { numRuns: 60 });
  });
});

const vec = (values: number[], storage = formats.f64): Range<1> => {
  const r = range(rowMajor<1>({ size: [values.length], storage, arithmetic: formats.f64 }));
  values.forEach((v, i) => r.set(i, v));
  return r;
};
const read = (r: Range<1>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));
function square(values: number[][], layout: 'row' | 'col' = 'row'): Range<2> {
  const n = values.length;
  const A = range((layout === 'row' ? rowMajor : colMajor)<2>({ size: [n, n], stride: Math.max(1, n) }));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A.set(i, j, values[i]![j]!);
  return A;
}

describe('trsv on small systems with exact answers', () => {
  // Each triangle holds NaN where it must not be read.
  const N = NaN;
  const upper = [[2, 4, -2], [N, 4, 8], [N, N, -1]];
  const lower = [[2, N, N], [4, 4, N], [-2, 8, -1]];
  const unitUpper = [[N, 4, -2], [N, N, 8], [N, N, N]];
  const unitLower = [[N, N, N], [4, N, N], [-2, 8, N]];
  const cases: [string, number[][], Uplo, Trans, Diag, number[]][] = [
    // b chosen as op(A)·[1, 2, 3]
    ['U N N', upper, 'U', 'N', 'N', [2 + 8 - 6, 8 + 24, -3]],
    ['L N N', lower, 'L', 'N', 'N', [2, 4 + 8, -2 + 16 - 3]],
    ['U T N', upper, 'U', 'T', 'N', [2, 4 + 8, -2 + 16 - 3]],
    ['L T N', lower, 'L', 'T', 'N', [2 + 8 - 6, 8 + 24, -3]],
    ['U N U', unitUpper, 'U', 'N', 'U', [1 + 8 - 6, 2 + 24, 3]],
    ['L N U', unitLower, 'L', 'N', 'U', [1, 4 + 2, -2 + 16 + 3]],
    ['U T U', unitUpper, 'U', 'T', 'U', [1, 4 + 2, -2 + 16 + 3]],
    ['L T U', unitLower, 'L', 'T', 'U', [1 + 8 - 6, 2 + 24, 3]],
  ];
  for (const [name, values, uplo, trans, diag, b] of cases) {
    for (const layout of ['row', 'col'] as const) {
      it(`${name} (${layout}-major)`, () => {
        const x = vec(b);
        trsv({ A: square(values, layout), x, uplo, trans, diag });
        expect(read(x)).toEqual([1, 2, 3]);
      });
    }
  }

  it('n = 0 returns at once, n = 1 divides', () => {
    const e = vec([]);
    trsv({ A: square([]), x: e });
    expect(e.length()).toBe(0);
    const one = vec([6]);
    trsv({ A: square([[4]]), x: one, uplo: 'L' });
    expect(read(one)).toEqual([1.5]);
    const unit = vec([6]);
    trsv({ A: square([[NaN]]), x: unit, diag: 'U' });
    expect(read(unit)).toEqual([6]);
  });
});

describe('trsv bad input: a typed error naming the parameter, nothing written', () => {
  const cases: [string, () => { args: Parameters<typeof trsv>[0]; x: Range<1> }, string, string][] = [
    ['non-square A', () => { const x = vec([1, 2]); return { args: { A: range(rowMajor<2>({ size: [2, 3] })), x }, x }; }, 'DIMENSION_MISMATCH', 'A'],
    ['wrong length of x', () => { const x = vec([1, 2, 3]); return { args: { A: square([[1, 0], [0, 1]]), x }, x }; }, 'DIMENSION_MISMATCH', 'x'],
    ['read-only x', () => { const x = vec([1, 2]); return { args: { A: square([[1, 0], [0, 1]]), x: x.toConst() }, x }; }, 'INVALID_STORAGE', 'x'],
    ['bad uplo', () => { const x = vec([1, 2]); return { args: { A: square([[1, 0], [0, 1]]), x, uplo: 'X' as Uplo }, x }; }, 'INVALID_OPTION', 'uplo'],
    ['bad trans', () => { const x = vec([1, 2]); return { args: { A: square([[1, 0], [0, 1]]), x, trans: 'C' as Trans }, x }; }, 'INVALID_OPTION', 'trans'],
    ['bad diag', () => { const x = vec([1, 2]); return { args: { A: square([[1, 0], [0, 1]]), x, diag: 1 as unknown as Diag }, x }; }, 'INVALID_OPTION', 'diag'],
    ['A not a range', () => { const x = vec([1, 2]); return { args: { A: [[1, 0], [0, 1]] as unknown as Range<2>, x }, x }; }, 'INVALID_OPTION', 'A'],
  ];
  for (const [name, make, code, parameter] of cases) {
    it(name, () => {
      const { args, x } = make();
      const before = read(x);
      let caught: unknown;
      try { trsv(args); } catch (e) { caught = e; }
      expect(caught).toBeInstanceOf(ModprecError);
      expect((caught as ModprecError).code).toBe(code);
      expect((caught as ModprecError).parameter).toBe(parameter);
      expect(read(x)).toEqual(before);
    });
  }
});

describe('trsv bound', () => {
  it('is Higham’s bound for fp64: x̂ = fl(b/t) has |ΔT| ≤ (γ_1 composed with the one-term sum’s γ_1)·|t|', () => {
    const A = square([[3]]);
    const x = vec([1]);
    trsv({ A, x });
    const b = trsvBound({ A, x });
    const g = gamma(1, 2 ** -53);
    const expected = (g + g / (1 - g) + g * g / (1 - g)) * Math.abs(x.get(0));
    expect(b[0]).toBeGreaterThanOrEqual(expected);
    expect(b[0]).toBeLessThan(expected * 1.0001);
  });

  it('grows with the off-diagonal part through M(T)⁻¹', () => {
    const A = square([[1, NaN], [-1, 1]]);
    const x = vec([1, 1]);
    trsv({ A, x, uplo: 'L' });
    const b = trsvBound({ A, x, uplo: 'L' });
    expect(read(x)).toEqual([1, 2]);
    // z₁ = r₁ + |t₁₀|·z₀ > z₀: the error of x̂₀ propagates into x̂₁.
    expect(b[1]).toBeGreaterThan(b[0]! + b[0]! / 2);
  });
});

describe('the accessor’s accuracy gain on LU factors (Grützmacher et al., seed 004, Fig. 11)', () => {
  it('fp32 storage with fp64 arithmetic is about an order of magnitude more accurate than pure fp32', () => {
    const n = 256;
    const ratios: number[] = [];
    for (const seed of [11, 12, 13]) {
      const random = seededRandom(seed);
      const data = Float64Array.from({ length: n * n }, () => random.nextDouble() * 2 - 1);
      const { lu, pivots } = luFactor({ rows: n, cols: n, ld: n, data });
      const b = Float64Array.from({ length: n }, () => Math.fround(random.nextDouble() * 2 - 1));
      applyPivots(pivots, b);
      const lu32 = Float32Array.from(lu.data);
      // Reference: the solve with the fp32-stored factors in fp64 (its error is ~1e-9 of the fp32 errors).
      const ref = luSolve({ n, lu: { rows: n, cols: n, ld: n, data: Float64Array.from(lu32) }, pivots: Int32Array.from({ length: n }, (_, i) => i), firstZeroPivot: -1 }, Float64Array.from(b));
      const solve = (arithmetic: 'f32' | 'f64'): number => {
        const A = range(colMajor<2>({ size: [n, n], storage: formats.f32, arithmetic: formats[arithmetic], data: lu32 }));
        const x = range(rowMajor<1>({ size: [n], storage: formats.f32, arithmetic: formats[arithmetic], data: Float32Array.from(b) }));
        trsv({ A, x, uplo: 'L', diag: 'U' });
        trsv({ A, x, uplo: 'U', diag: 'N' });
        let err = 0, norm = 0;
        for (let i = 0; i < n; i++) { err += (x.get(i) - ref[i]!) ** 2; norm += ref[i]! ** 2; }
        return Math.sqrt(err / norm);
      };
      ratios.push(solve('f32') / solve('f64'));
    }
    // Seen at n = 256: ratios of 16–20 (pure fp32 accumulates ~√n roundings per row, the accessor one per
    // stored xᵢ). Demand at least 8 for every seed: "about an order of magnitude".
    for (const ratio of ratios) expect(ratio).toBeGreaterThan(8);
  });
});
