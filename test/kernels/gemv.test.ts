import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { range, type Range } from '../../src/core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { formats } from '../../src/formats/index.js';
import { ModprecError } from '../../src/core/errors.js';
import { gemv, type GemvOptions } from '../../kernels/gemv/gemv.js';
import { gemvBound } from '../../kernels/gemv/gemv-bound.js';
import { gamma } from '../../kernels/shared/accumulation.js';
import { exactDot, exactOf, relativeError } from '../../src/testing/exact.js';
import { addRational, mulRational } from '../../src/testing/rational.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import {
  buildMatrix, buildVector, changedOutside, exactDotOf, exactMatrix, exactVector, errorOf, matrixSpec, positionsOf,
  snapshot, value, vectorSpec, vectorValues, withinBound, type ArithmeticName,
} from './matrix-kernel-fixtures.js';
import '../../src/formats/dd/register.js';

const coefficient = fc.oneof(fc.constantFrom(0, 1, -1, 0.5, 0.1, -3), value);

const gemvCase = fc.record({
  m: fc.integer({ min: 0, max: 6 }),
  n: fc.integer({ min: 0, max: 6 }),
  trans: fc.constantFrom('N' as const, 'T' as const),
  A: matrixSpec,
  x: vectorSpec,
  y: vectorSpec,
  alpha: coefficient,
  beta: coefficient,
  arithmetic: fc.constantFrom<ArithmeticName>('f64', 'f32'),
  loop: fc.constantFrom<NonNullable<GemvOptions['loop']>>('auto', 'dot', 'dot-blocked', 'axpy'),
  seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

describe('gemv against the exact result of the stored values', () => {
  it('stays within gemvBound for every storage, layout, stride, trans, α, β, arithmetic and loop', () => {
    fc.assert(fc.property(gemvCase, (c) => {
      const random = seededRandom(c.seed);
      const v = (): number => (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6);
      const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const A = buildMatrix(c.A, rows, cols, () => v());
      const x = buildVector(c.x, Float64Array.from({ length: c.n }, v));
      // β = 0: y holds NaN (where the storage can), which must not leak.
      const yNaN = c.beta === 0 && c.y.storage !== 'i16s';
      const headroom = Math.abs(c.alpha) * c.n + Math.abs(c.beta) + 1;
      const y = buildVector(c.y, Float64Array.from({ length: c.m }, () => (yNaN ? NaN : v())), 'f64', headroom);
      const before = { A: snapshot(A), x: snapshot(x), y: snapshot(y) };
      const yIn = exactOrNull(y);
      const options: GemvOptions = { arithmetic: c.arithmetic, loop: c.loop };
      const bound = gemvBound({ alpha: c.alpha, A, x, beta: c.beta, y, trans: c.trans }, options);
      gemv({ alpha: c.alpha, A, x, beta: c.beta, y, trans: c.trans }, options);

      expect(changedOutside(A, before.A)).toEqual([]);
      expect(changedOutside(x, before.x)).toEqual([]);
      expect(changedOutside(y, before.y, positionsOf(y))).toEqual([]);
      const untouched = c.m === 0 || c.n === 0 || (c.alpha === 0 && c.beta === 1);
      if (untouched) {
        expect(changedOutside(y, before.y)).toEqual([]);
        return;
      }
      const eA = exactMatrix(A);
      const ex = exactVector(x);
      const out = exactVector(y);
      for (let i = 0; i < c.m; i++) {
        const row = Array.from({ length: c.n }, (_, j) => (c.trans === 'N' ? eA[i]![j]! : eA[j]![i]!));
        let exact = mulRational(exactOf(c.alpha), exactDotOf(row, ex));
        if (c.beta !== 0) exact = addRational(exact, mulRational(exactOf(c.beta), yIn![i]!));
        if (!withinBound(out[i]!, exact, bound[i]!)) {
          throw new Error(`y[${i}]: error ${errorOf(out[i]!, exact)} > bound ${bound[i]}`);
        }
      }
    }), { numRuns: 400 });
  });

  it('stays within gemvBound at larger sizes (48×64), where the γ_n terms dominate', () => {
    for (const [spec, trans, arithmetic] of [
      [{ storage: 'f32', layout: 'col', sub: true, scaleRows: false }, 'N', 'f32'],
      [{ storage: 'bf16', layout: 'row', sub: false, scaleRows: false }, 'T', 'f32'],
      [{ storage: 'i16s', layout: 'col', sub: false, scaleRows: true }, 'N', 'f64'],
    ] as const) {
      const random = seededRandom(99);
      const [m, n] = [48, 64];
      const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
      const A = buildMatrix(spec, rows, cols, () => random.nextDouble() * 2 - 1);
      const x = buildVector({ storage: 'f32', stride: -2, sub: true }, Float64Array.from({ length: n }, () => random.nextDouble() * 2 - 1));
      const y = buildVector({ storage: 'f16', stride: 1, sub: false }, Float64Array.from({ length: m }, () => random.nextDouble()));
      const yIn = exactVector(y);
      const args = { alpha: 0.75, A, x, beta: -1.5, y, trans };
      const bound = gemvBound(args, { arithmetic });
      gemv(args, { arithmetic });
      const eA = exactMatrix(A);
      const ex = exactVector(x);
      const out = exactVector(y);
      for (let i = 0; i < m; i++) {
        const row = Array.from({ length: n }, (_, j) => (trans === 'N' ? eA[i]![j]! : eA[j]![i]!));
        const exact = addRational(mulRational(exactOf(0.75), exactDotOf(row, ex)), mulRational(exactOf(-1.5), yIn[i]!));
        expect(withinBound(out[i]!, exact, bound[i]!)).toBe(true);
      }
    }
  });

  it('gives the same bits with the dot, dot-blocked and axpy loop orders', () => {
    fc.assert(fc.property(gemvCase, (c) => {
      const random = seededRandom(c.seed);
      const vals = Float64Array.from({ length: 64 }, () => random.nextDouble() * 2 - 1);
      const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const A = buildMatrix(c.A, rows, cols, (i, j) => vals[(i * 7 + j) % 64]!);
      const x = buildVector(c.x, vals.subarray(0, c.n));
      const results = (['dot', 'dot-blocked', 'axpy'] as const).map((loop) => {
        const y = buildVector(c.y, vals.subarray(10, 10 + c.m), 'f64', Math.abs(c.alpha) * c.n + Math.abs(c.beta) + 1);
        gemv({ alpha: c.alpha, A, x, beta: c.beta, y, trans: c.trans }, { arithmetic: c.arithmetic, loop });
        return vectorValues(y);
      });
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);
    }), { numRuns: 150 });
  });

  it('gives the bits of the dot order with dot-blocked for DD arithmetic and every accumulation (two blocks and leftover rows)', () => {
    const accumulations = ['recursive', 'pairwise', 'kahan', 'dot2', 'dd'] as const;
    fc.assert(fc.property(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 7 }), fc.constantFrom(...accumulations),
      fc.constantFrom('f64', 'dd'), fc.constantFrom('N' as const, 'T' as const), fc.integer({ min: 0, max: 2 ** 30 }), (m, n, acc, ar, trans, seed) => {
        if (ar === 'dd' && (acc === 'kahan' || acc === 'dot2' || acc === 'dd')) return; // refused for DD arithmetic
        const random = seededRandom(seed);
        const v = (): number => (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 40);
        const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
        const A = range(colMajor<2>({ size: [rows, cols], storage: formats.f64, arithmetic: formats.f64 }));
        for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) A.set(i, j, v());
        const x = range(rowMajor<1>({ size: n, storage: formats.f64, arithmetic: formats.f64, data: Float64Array.from({ length: n }, v) }));
        const y0 = Float64Array.from({ length: m }, v);
        const [a, b] = (['dot', 'dot-blocked'] as const).map((loop) => {
          const y = range(rowMajor<1>({ size: m, storage: formats.f64, arithmetic: formats.f64, data: y0.slice() }));
          gemv({ alpha: 0.75, A, x, beta: -0.5, y, trans }, { arithmetic: ar, accumulation: acc, loop });
          return vectorValues(y);
        });
        expect(b).toEqual(a);
      }), { numRuns: 200 });
  });

  it("chooses dot-blocked for column-major A when the partial sums are not plain doubles ('auto')", () => {
    // Observable through the bits: dot-blocked equals dot, and both must match what 'auto' gives.
    const A = packed(6, 3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18].map((v) => v / 7), 'col-major');
    const x = range(rowMajor<1>({ size: 3, storage: formats.f64, arithmetic: formats.f64, data: Float64Array.of(0.1, -0.2, 0.3) }));
    const run = (loop: NonNullable<GemvOptions['loop']>) => {
      const y = range(rowMajor<1>({ size: 6, storage: formats.f64, arithmetic: formats.f64 }));
      gemv({ alpha: 1, A, x, beta: 0, y }, { accumulation: 'kahan', loop });
      return vectorValues(y);
    };
    expect(run('auto')).toEqual(run('dot-blocked'));
    expect(run('dot-blocked')).toEqual(run('dot'));
  });
});

function exactOrNull(y: Range<1, any>) {
  const vals = vectorValues(y);
  return vals.some((v) => !Number.isFinite(v)) ? null : exactVector(y);
}

function packed(m: number, n: number, values: number[], layout: 'row-major' | 'col-major' = 'row-major', storage = formats.f64): Range<2> {
  const make = layout === 'row-major' ? rowMajor : colMajor;
  const A = range(make<2>({ size: [m, n], storage, arithmetic: formats.f64, stride: Math.max(1, layout === 'row-major' ? n : m) }));
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, values[i * n + j]!);
  return A;
}
const vec = (values: number[], storage = formats.f64): Range<1> => {
  const r = range(rowMajor<1>({ size: [values.length], storage, arithmetic: formats.f64 }));
  values.forEach((v, i) => r.set(i, v));
  return r;
};
const read = (r: Range<1>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));

describe('gemv with the accumulation plugins and double-double arithmetic (same kernel code)', () => {
  const withAccumulation = fc.record({
    base: gemvCase,
    pair: fc.constantFrom(
      ['f64', 'pairwise'], ['f64', 'kahan'], ['f64', 'dot2'], ['f64', 'dd'],
      ['f32', 'pairwise'], ['f32', 'kahan'], ['f32', 'dot2'], ['f32', 'dd'],
      ['dd', 'recursive'], ['dd', 'pairwise'], ['dd', 'dd'],
    ),
  });
  it('stays within gemvBound, which uses the accumulation’s own bound', () => {
    fc.assert(fc.property(withAccumulation, ({ base: c, pair: [arithmetic, accumulation] }) => {
      const random = seededRandom(c.seed);
      const v = (): number => (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6);
      const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const A = buildMatrix(c.A, rows, cols, () => v());
      const x = buildVector(c.x, Float64Array.from({ length: c.n }, v));
      const y = buildVector(c.y, Float64Array.from({ length: c.m }, v), 'f64', Math.abs(c.alpha) * c.n + Math.abs(c.beta) + 1);
      const yIn = exactVector(y);
      const options: GemvOptions = { arithmetic, accumulation };
      const args = { alpha: c.alpha, A, x, beta: c.beta, y, trans: c.trans };
      const bound = gemvBound(args, options);
      gemv(args, options);
      if (c.m === 0 || c.n === 0) return;
      const eA = exactMatrix(A);
      const ex = exactVector(x);
      const out = exactVector(y);
      for (let i = 0; i < c.m; i++) {
        const row = Array.from({ length: c.n }, (_, j) => (c.trans === 'N' ? eA[i]![j]! : eA[j]![i]!));
        let exact = mulRational(exactOf(c.alpha), exactDotOf(row, ex));
        if (c.beta !== 0) exact = addRational(exact, mulRational(exactOf(c.beta), yIn[i]!));
        if (!withinBound(out[i]!, exact, bound[i]!)) throw new Error(`y[${i}]: error ${errorOf(out[i]!, exact)} > bound ${bound[i]}`);
      }
    }), { numRuns: 200 });
  });

  it('refuses the axpy loop order for an accumulation other than recursive', () => {
    const A = packed(2, 2, [1, 2, 3, 4], 'col-major');
    const y = vec([5, 6]);
    expect(() => gemv({ alpha: 1, A, x: vec([1, 1]), beta: 0, y }, { accumulation: 'kahan', loop: 'axpy' })).toThrow(ModprecError);
    expect(read(y)).toEqual([5, 6]);
    // 'auto' picks the dot order then, and the compensated sum gets every row.
    gemv({ alpha: 1, A, x: vec([1, 1]), beta: 0, y }, { accumulation: 'kahan' });
    expect(read(y)).toEqual([3, 7]);
  });
});

describe('gemv BLAS semantics', () => {
  const A = packed(2, 3, [1, 2, 3, 4, 5, 6]);
  const x = vec([1, -1, 2]);

  it('computes y := αAx + βy and αAᵀx + βy', () => {
    const y = vec([1, 2]);
    gemv({ alpha: 2, A, x, beta: 3, y, trans: 'N' });
    expect(read(y)).toEqual([2 * 5 + 3, 2 * 11 + 6]);
    const z = vec([1, 1, 1]);
    gemv({ alpha: 1, A, x: vec([1, 2]), beta: -1, y: z, trans: 'T' });
    expect(read(z)).toEqual([9 - 1, 12 - 1, 15 - 1]);
  });

  it('β = 0 does not read y: NaN and ±Inf there do not leak', () => {
    for (const layout of ['row-major', 'col-major'] as const) {
      const y = vec([NaN, Infinity]);
      gemv({ alpha: 1, A: packed(2, 3, [1, 2, 3, 4, 5, 6], layout), x, beta: 0, y });
      expect(read(y)).toEqual([5, 11]);
    }
  });

  it('α = 0 reads neither A nor x', () => {
    const bad = packed(2, 3, [NaN, NaN, NaN, NaN, NaN, NaN]);
    const y = vec([1, -2]);
    gemv({ alpha: 0, A: bad, x: vec([NaN, Infinity, NaN]), beta: 2, y });
    expect(read(y)).toEqual([2, -4]);
    const z = vec([NaN, 5]);
    gemv({ alpha: 0, A: bad, x, beta: 0, y: z });
    expect(read(z)).toEqual([0, 0]);
  });

  it('α = 0 and β = 1 returns at once, leaving even NaN in y as it was', () => {
    const y = vec([NaN, 3]);
    gemv({ alpha: 0, A, x, beta: 1, y });
    expect(read(y)).toEqual([NaN, 3]);
  });

  it('empty sizes return at once (reference BLAS quick return) and size 1 works', () => {
    const y = vec([7, 8]);
    gemv({ alpha: 1, A: packed(2, 0, []), x: vec([]), beta: 0, y });
    expect(read(y)).toEqual([7, 8]);
    const e = vec([]);
    gemv({ alpha: 1, A: packed(0, 3, []), x, beta: 0, y: e });
    expect(e.length()).toBe(0);
    const one = vec([2]);
    gemv({ alpha: 3, A: packed(1, 1, [5]), x: vec([7]), beta: -1, y: one });
    expect(read(one)).toEqual([3 * 35 - 2]);
  });

  it('propagates NaN and Inf from A and x as IEEE arithmetic does', () => {
    const y = vec([0, 0]);
    gemv({ alpha: 1, A: packed(2, 2, [Infinity, 1, 1, 1]), x: vec([1, NaN]), beta: 0, y });
    expect(read(y)).toEqual([NaN, NaN]);
  });
});

describe('gemv bad input: a typed error naming the parameter, nothing written', () => {
  const A = packed(2, 3, [1, 2, 3, 4, 5, 6]);
  const cases: [string, () => { args: Parameters<typeof gemv>[0]; y: Range<1>; options?: GemvOptions }, string, string][] = [
    ['x too short', () => { const y = vec([1, 2]); return { args: { alpha: 1, A, x: vec([1, 2]), beta: 0, y }, y }; }, 'DIMENSION_MISMATCH', 'x'],
    ['y too long', () => { const y = vec([1, 2, 3]); return { args: { alpha: 1, A, x: vec([1, 2, 3]), beta: 0, y }, y }; }, 'DIMENSION_MISMATCH', 'y'],
    ['x wrong for Aᵀ', () => { const y = vec([1, 2, 3]); return { args: { alpha: 1, A, x: vec([1, 2, 3]), beta: 0, y, trans: 'T' }, y }; }, 'DIMENSION_MISMATCH', 'x'],
    ['read-only y', () => { const y = vec([1, 2]); return { args: { alpha: 1, A, x: vec([1, 2, 3]), beta: 0, y: y.toConst() }, y }; }, 'INVALID_STORAGE', 'y'],
    ['bad trans', () => { const y = vec([1, 2]); return { args: { alpha: 1, A, x: vec([1, 2, 3]), beta: 0, y, trans: 'C' as 'N' }, y }; }, 'INVALID_OPTION', 'trans'],
    ['alpha not a number', () => { const y = vec([1, 2]); return { args: { alpha: '1' as unknown as number, A, x: vec([1, 2, 3]), beta: 0, y }, y }; }, 'INVALID_VALUE', 'alpha'],
    ['A a vector', () => { const y = vec([1, 2]); return { args: { alpha: 1, A: vec([1, 2]) as unknown as Range<2>, x: vec([1, 2, 3]), beta: 0, y }, y }; }, 'DIMENSION_MISMATCH', 'A'],
    ['x not a range', () => { const y = vec([1, 2]); return { args: { alpha: 1, A, x: [1, 2, 3] as unknown as Range<1>, beta: 0, y }, y }; }, 'INVALID_OPTION', 'x'],
    ['unknown accumulation', () => { const y = vec([1, 2]); return { args: { alpha: 1, A, x: vec([1, 2, 3]), beta: 0, y }, y, options: { accumulation: 'magic' } }; }, 'INVALID_OPTION', 'options.accumulation'],
    ['bad loop', () => { const y = vec([1, 2]); return { args: { alpha: 1, A, x: vec([1, 2, 3]), beta: 0, y }, y, options: { loop: 'zigzag' as 'dot' } }; }, 'INVALID_OPTION', 'options.loop'],
    ['unknown arithmetic', () => { const y = vec([1, 2]); return { args: { alpha: 1, A, x: vec([1, 2, 3]), beta: 0, y }, y, options: { arithmetic: 'f16' } }; }, 'INVALID_FORMAT', 'options.arithmetic'],
  ];
  for (const [name, make, code, parameter] of cases) {
    it(name, () => {
      const { args, y, options } = make();
      const before = read(y);
      let caught: unknown;
      try { gemv(args, options); } catch (e) { caught = e; }
      expect(caught).toBeInstanceOf(ModprecError);
      expect((caught as ModprecError).code).toBe(code);
      expect((caught as ModprecError).parameter).toBe(parameter);
      expect(read(y)).toEqual(before);
      expect(() => gemvBound(args, options)).toThrow(ModprecError);
    });
  }
});

describe('gemv bound', () => {
  it('is Higham’s γ_{n+2}(|α||A||x| + |β||y|) for fp64 throughout (up to its own evaluation)', () => {
    const n = 5;
    const A = packed(1, n, [1, -2, 3, -4, 5]);
    const x = vec([1, 1, 1, 1, 1]);
    const y = vec([3]);
    const b = gemvBound({ alpha: 2, A, x, beta: 3, y });
    const u = 2 ** -53;
    // α-part: n products summed, α·t, the final sum: γ_{n+2}; β-part: β·y and the final sum: γ_2.
    const expected = gamma(n + 2, u) * 2 * 15 + gamma(2, u) * 3 * 3;
    expect(b[0]).toBeGreaterThanOrEqual(expected);
    expect(b[0]).toBeLessThan(expected * 1.0001);
    expect(b[0]).toBeLessThan(gamma(n + 2, u) * (2 * 15 + 3 * 3));
  });

  it('adds a rounding per operand read when the arithmetic is narrower than the storage', () => {
    const A = packed(1, 4, [1, 1, 1, 1]);
    const x = vec([1, 1, 1, 1]);
    const y = vec([0]);
    const b = gemvBound({ alpha: 1, A, x, beta: 0, y }, { arithmetic: 'f32' });
    // A and x each read once with a rounding, then 4 products summed: (1 + γ_2)(1 + γ_4) − 1 ≤ γ_6;
    // the result is written exactly into fp64.
    const u = 2 ** -24;
    const g2 = gamma(2, u), g4 = gamma(4, u);
    expect(b[0]).toBeGreaterThanOrEqual(4 * (g2 + g4 + g2 * g4));
    expect(b[0]).toBeLessThan(4 * gamma(6, u) * 1.0001);
  });
});

describe('the accessor’s accuracy gain (Grützmacher et al., seed 004)', () => {
  it('fp32 storage with fp64 arithmetic has a clearly smaller mean relative error than pure fp32', () => {
    const n = 300;
    for (const seed of [1, 2, 3]) {
      const random = seededRandom(seed);
      const a = Float64Array.from({ length: n * n }, () => Math.fround(random.nextDouble() * 2 - 1));
      const xs = Float64Array.from({ length: n }, () => Math.fround(random.nextDouble() * 2 - 1));
      const meanError = (arithmetic: 'f32' | 'f64'): number => {
        const A = range(rowMajor<2>({ size: [n, n], storage: formats.f32, arithmetic: formats[arithmetic], data: Float32Array.from(a) }));
        const x = range(rowMajor<1>({ size: [n], storage: formats.f32, arithmetic: formats[arithmetic], data: Float32Array.from(xs) }));
        const y = range(rowMajor<1>({ size: [n], storage: formats.f32, arithmetic: formats[arithmetic] }));
        gemv({ alpha: 1, A, x, beta: 0, y });
        let sum = 0;
        for (let i = 0; i < n; i++) sum += relativeError(y.get(i), exactDot(a.subarray(i * n, (i + 1) * n), xs));
        return sum / n;
      };
      const pure = meanError('f32');
      const accessor = meanError('f64');
      expect(accessor).toBeLessThan(pure / 4);
      expect(accessor).toBeLessThan(2 ** -24);
    }
  });
});
