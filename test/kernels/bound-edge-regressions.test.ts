/**
 * Regression cases found by the public-API fuzzers (test/wasm/public-*-fuzz.test.ts): results the a-priori bounds
 * did not cover. Each one runs the kernel on every CPU backend and requires its result within the library's bound
 * of the exact BigInt value — +∞ where a read, a coefficient, a scale or the stored output overflows (the guide's
 * one rule for non-finite values), and η terms where something rounds into a subnormal range.
 */
import { describe, it, expect } from 'vitest';
import {
  range, vector, matrix, dot, dotBound, waxpby, waxpbyBound, scal, scalBound, asum, asumBound, nrm2, nrm2Bound, gemv, gemvBound, ellSpmv, ellSpmvBound, trsv, trsvBound,
  ellOperand, ELL_PADDING, scaledReducedRowMajor, scaledReducedColMajor, formats, type Range,
} from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, divRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';
import { exactAt } from '../wasm/public-operands.js';
import { asArithmetic } from '../../src/formats/common/registry.js';

const BACKENDS = ['js', 'cpu', 'wasm'] as const;

/** |computed − exact| ≤ bound, decided exactly; a non-finite computed value only under an infinite bound. */
function within(computed: Rational | null, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  if (computed === null || !(bound >= 0)) return false;
  return compareRational(absRational(subRational(computed, exact)), exactOf(bound)) <= 0;
}

/** A 1-D range with one scale (or one per element) over the given storage, the values written through it. */
function scaled(values: number[], storage: string, scale: number, arithmetic = 'f64', perElement = false): Range<1, any> {
  const r = range(scaledReducedRowMajor<1>({ size: [values.length], storage, arithmetic: 'f64', scaleMask: [perElement],
    scale: new Float64Array(perElement ? values.length : 1).fill(scale) }));
  values.forEach((v, i) => r.set(i, v));
  return range(r.accessor.withArithmetic(asArithmetic(arithmetic)));
}

/** Runs a y-updating kernel on every backend from fresh operands and checks each yᵢ against the exact values. */
function expectUpdateWithin(make: () => { y: Range<1, any>; run: (o: object) => void; bound: () => Float64Array; exact: () => (Rational | null)[] }, options: object): void {
  for (const backend of BACKENDS) {
    const c = make();
    const bound = c.bound();
    const exact = c.exact();
    try { c.run({ ...options, backend }); } catch (e) { if (backend === 'wasm') continue; throw e; }
    for (let i = 0; i < c.y.length(); i++) {
      const e = exact[i];
      if (e === null) { expect(bound[i], `element ${i} reads a non-finite value`).toBe(Infinity); continue; }
      expect(within(exactAt(c.y, [i]), e, bound[i]!), `[${backend}] y[${i}] = ${c.y.accessor.storage.decode(c.y.accessor.data as never, c.y.accessor.linearIndex([i]))}, bound ${bound[i]}`).toBe(true);
    }
  }
}

describe('bound regressions: reductions', () => {
  it('fp32 arithmetic, a scale that converts to +∞ (1e300) over zeros: 0·∞ = NaN, so the bounds are +∞', () => {
    const x = scaled([0, 0, 0, 0, 0, 0], 'i32', 1e300, 'f32');
    for (const backend of BACKENDS) {
      expect(Number.isNaN(asum(x, { backend }))).toBe(true);
      expect(Number.isNaN(nrm2(x, { backend }))).toBe(true);
      expect(Number.isNaN(dot(x, x, { backend }))).toBe(true);
    }
    expect(asumBound(x)).toBe(Infinity);
    expect(nrm2Bound(x)).toBe(Infinity);
    expect(dotBound(x, x)).toBe(Infinity);
  });

  it('fp32 arithmetic, fp64 storage holding 1.4e300 under a scale of 1e-300: the read is ∞·0, the bound +∞', () => {
    const x = scaled([1.4375, 0, 2], 'f64', 1e-300, 'f32', true);
    const y = vector([1, 1, 1], { arithmetic: formats.f32 });
    expect(Number.isNaN(dot(x, y, { backend: 'js' }))).toBe(true);
    expect(dotBound(x, y)).toBe(Infinity);
    expect(asumBound(x)).toBe(Infinity);
  });
});

describe('bound regressions: WAXPBY and SCAL', () => {
  it('fp32 arithmetic, y under a scale of 1e300 (∞ in fp32) and β = 5e-324 (0 in fp32): 0·∞ = NaN — bound +∞', () => {
    const x = vector([1, 2]), y = scaled([0.5, 0], 'bf16', 1e300, 'f64', true), w = vector(2);
    expect([...waxpbyBound(0, x, 5e-324, y, w, { arithmetic: 'f32' })]).toEqual([Infinity, Infinity]);
    waxpby(0, x, 5e-324, y, w, { arithmetic: 'f32' });
    expect(Number.isNaN(w.get(0))).toBe(true);
  });

  it('a dd-split w under a scale of 8e-323: fp64 values overflow in the division — bound +∞', () => {
    const x = vector([0.75]), y = vector([0]);
    const w = range(scaledReducedRowMajor<1>({ size: [1], storage: 'dd-split', arithmetic: 'f64', scaleMask: [true], scale: Float64Array.of(8e-323) }));
    expect(waxpbyBound(-1, x, 0, y, w)[0]).toBe(Infinity);
    waxpby(-1, x, 0, y, w);
    expect(w.accessor.storage.decode(w.accessor.data as never, 0)).toMatchObject({ hi: -Infinity });
  });

  it('SCAL by 0 in fp32 through a scale of 1e-300 (0 in fp32): 0/0 stores NaN — bound +∞', () => {
    for (const backend of BACKENDS) {
      const x = scaled([1, -2, 3], 'dd-split', 1e-300, 'f32');
      expect([...scalBound(0, x)]).toEqual([Infinity, Infinity, Infinity]);
      scal(0, x, { backend });
      expect(Number.isNaN((x.accessor.storage.decode(x.accessor.data as never, 0) as { hi: number }).hi)).toBe(true);
    }
  });
});

describe('bound regressions: GEMV and ELL SpMV', () => {
  const ell1 = (V: Range<2, any>, cols: number, colIndex: number[]) => ellOperand({ rows: V.length(0), cols, width: V.length(1), stride: V.length(0), colIndex: Int32Array.from(colIndex) }, V);

  it('an output beyond its storage: fp16 overflows to ∞, i32 saturates — bound +∞', () => {
    const yf16 = vector([1], { storage: formats.f16 });
    expect(gemvBound({ alpha: 1, A: matrix(1, 1, () => 1e5), x: vector([1]), beta: 0, y: yf16 })[0]).toBe(Infinity);
    const yi32 = scaled([0], 'i32', 0.5);
    expect(gemvBound({ alpha: 0.5, A: matrix(1, 1, () => 2 ** 31), x: vector([4]), beta: 0, y: yi32 })[0]).toBe(Infinity);
    gemv({ alpha: 0.5, A: matrix(1, 1, () => 2 ** 31), x: vector([4]), beta: 0, y: yi32 });
    expect(yi32.get(0)).toBe((2 ** 31 - 1) * 0.5);   // saturated, as the guide says: the bound above admits it
  });

  it('fp32 arithmetic: an fp64 A entry beyond binary32 times x = 0 gives NaN; α = 3.5e38 converts to ∞ — bound +∞', () => {
    const A = matrix(1, 1, () => 1e39), x = vector([0]);
    expect(gemvBound({ alpha: 1, A, x, beta: 0, y: vector(1) }, { arithmetic: 'f32' })[0]).toBe(Infinity);
    const V = matrix(1, 1, () => 0);
    expect(ellSpmvBound({ alpha: 3.5e38, A: ell1(V, 1, [0]), x: vector([1]), beta: 0, y: vector(1) }, { arithmetic: 'f32' })[0]).toBe(Infinity);
    const ys = scaled([1], 'f32', 1e300);
    expect(gemvBound({ alpha: 0, A, x, beta: 2, y: ys }, { arithmetic: 'f32' })[0]).toBe(Infinity);
  });

  it('underflow: β·y, α = 0 with β below binary32\'s range, products of subnormals — within the bound on every backend', () => {
    for (const [beta, arithmetic, yv] of [[-5e-324, 'f64', 0.5], [6.631340278977325e-47, 'f32', 10.5], [5e-324, 'f64', -0.75]] as const) {
      expectUpdateWithin(() => {
        const y = vector([yv, yv]);
        const A = matrix(2, 2, () => 3);
        const args = { alpha: 0, A, x: vector([1, 2]), beta, y };
        return { y, run: (o) => gemv(args, o), bound: () => gemvBound(args, { arithmetic }), exact: () => [0, 1].map(() => mulRational(exactOf(beta), exactOf(yv))) };
      }, { arithmetic });
    }
    expectUpdateWithin(() => {
      const A = matrix(1, 2, (_, j) => [3e-310, 1e-200][j]!), x = vector([0.3, 1e-150]), y = vector([7]);
      const args = { alpha: 1, A, x, beta: 0, y };
      return { y, run: (o) => gemv(args, o), bound: () => gemvBound(args), exact: () => [addRational(mulRational(exactOf(3e-310), exactOf(0.3)), mulRational(exactOf(1e-200), exactOf(1e-150)))] };
    }, {});
  });

  it('a scaled output whose quotient underflows its storage (fp64 under a scale of 1e300 receiving 1e-310): within the bound', () => {
    for (const arithmetic of ['f64', 'dd']) {
      expectUpdateWithin(() => {
        const y = scaled([-1], 'f64', 1e300, arithmetic);
        const args = { alpha: 1e-323, A: ell1(matrix(1, 1, () => 0), 1, [ELL_PADDING]), x: vector([1]), beta: 1e-310, y };
        return { y, run: (o) => ellSpmv(args, o), bound: () => ellSpmvBound(args, { arithmetic }), exact: () => [mulRational(exactOf(1e-310), exactOf(-1))] };
      }, { arithmetic });
    }
  });

  it('fp32 arithmetic, a per-element scale that converts to 0 (8e-323): y := 0 stores 0/0 = NaN — bound +∞', () => {
    const y = scaled([1], 'f64', 8e-323, 'f32', true);
    const args = { alpha: 0, A: ell1(matrix(1, 1, () => 0), 1, [ELL_PADDING]), x: vector([1]), beta: 0, y };
    expect(ellSpmvBound(args, { arithmetic: 'f32' })[0]).toBe(Infinity);
    ellSpmv(args, { arithmetic: 'f32' });
    expect(Number.isNaN(y.get(0))).toBe(true);
  });
});

describe('bound regressions: TRSV', () => {
  /** Runs trsv on every backend and checks x̂ within trsvBound (in terms of x̂) of the exact lower-triangular solve. */
  function expectSolveWithin(makeA: () => Range<2, any>, makeB: () => Range<1, any>, arithmetic: string): void {
    for (const backend of BACKENDS) {
      const A = makeA(), x = makeB();
      const n = x.length();
      const b = Array.from({ length: n }, (_, i) => exactAt(x, [i])!);
      const exact: Rational[] = [];
      for (let i = 0; i < n; i++) {
        let s = b[i]!;
        for (let j = 0; j < i; j++) s = subRational(s, mulRational(exactAt(A, [i, j])!, exact[j]!));
        exact.push(divRational(s, exactAt(A, [i, i])!));
      }
      try { trsv({ A, x, uplo: 'L', trans: 'N', diag: 'N' }, { arithmetic, backend }); } catch (e) { if (backend === 'wasm') continue; throw e; }
      const bound = trsvBound({ A, x, uplo: 'L', trans: 'N', diag: 'N' }, { arithmetic });
      for (let i = 0; i < n; i++) expect(within(exactAt(x, [i]), exact[i]!, bound[i]!), `[${backend}] x[${i}], bound ${bound[i]}`).toBe(true);
    }
  }

  it('an integer x that saturates: bound +∞ (i16: −40000 is stored as −32768)', () => {
    for (const backend of BACKENDS) {
      const A = matrix(1, 1, () => 0.5), x = scaled([-20000], 'i16', 1);
      trsv({ A, x, uplo: 'L' }, { backend });
      expect(x.get(0)).toBe(-32768);
      expect(trsvBound({ A, x, uplo: 'L' })[0]).toBe(Infinity);
    }
    expectSolveWithin(() => matrix(2, 2, (i, j) => (i === j ? 0.25 : i > j ? 0.5 : 0)), () => scaled([-20000, 9000], 'i16', 1), 'f64');
  });

  it('a matrix of subnormal entries (i16 under a column scale of 8e-323): the bound keeps its terms', () => {
    const makeA = () => {
      const A = range(scaledReducedColMajor<2>({ size: [3, 3], storage: 'i16', arithmetic: 'f64', scaleMask: [false, true], scale: Float64Array.of(0.5, 8e-323, 0.03) }));
      for (let i = 0; i < 3; i++) for (let j = 0; j <= i; j++) A.set(i, j, i === j ? 2 ** (i - 1) : 0.3 * (i - j));
      return A;
    };
    expectSolveWithin(makeA, () => vector([1.25, -3, 0.7]), 'dd');
    expectSolveWithin(makeA, () => vector([1.25, -3, 0.7]), 'f64');
    expectSolveWithin(() => scaledMatrix1(1e-310), () => vector([1.5625e-2]), 'f64');
  });

  it('fp32 arithmetic, a dd pivot of 3.5e38 (beyond binary32) is read as ∞ and solves x = 0 — bound +∞', () => {
    const A = matrix(1, 1, () => 3.5e38, { storage: formats.dd, arithmetic: formats.f32 }), x = vector([1], { arithmetic: formats.f32 });
    trsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
    expect(x.get(0)).toBe(0);
    expect(trsvBound({ A, x, uplo: 'L' }, { arithmetic: 'f32' })[0]).toBe(Infinity);
  });

  it('a dd-split x under a scale of 1e300: the low parts of x̂/1e300 underflow, within the bound', () => {
    const makeX = () => {
      const r = range(scaledReducedRowMajor<1>({ size: [3], storage: 'dd-split', arithmetic: 'dd', scaleMask: [true], scale: new Float64Array(3).fill(1e300) }));
      [1, -2, 3].forEach((v, i) => r.set(i, v));
      return r;
    };
    expectSolveWithin(() => matrix(3, 3, (i, j) => (i === j ? 3 : i > j ? 1 / 3 : 0), { arithmetic: formats.dd }), makeX, 'dd');
  });
});

/** A 1×1 matrix holding v through a row scale (so its read into the arithmetic rounds). */
function scaledMatrix1(v: number): Range<2, any> {
  const A = range(scaledReducedRowMajor<2>({ size: [1, 1], storage: 'f64', arithmetic: 'f64', scaleMask: [true, false], scale: Float64Array.of(0.7) }));
  A.set(0, 0, v);
  return A;
}

