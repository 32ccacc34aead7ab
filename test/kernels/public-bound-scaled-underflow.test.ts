/**
 * The a-priori bounds of scaled operands whose stored value, or whose scale, lies below the arithmetic's normal range
 * although the value they represent does not: a read is fl(q)·fl(s) and a scaled write stores t / fl(s), so an
 * underflow of q or of s errs by η times the OTHER factor — far above the η the bounds counted. Each case runs the
 * kernel on the JavaScript and WebAssembly backends and requires |computed − exact| ≤ bound, decided exactly.
 */
import { describe, it, expect } from 'vitest';
import {
  range, vector, matrix, scaledReducedRowMajor, dot, dotBound, asum, asumBound, nrm2, nrm2Bound, gemv, gemvBound,
  ellSpmv, ellSpmvBound, ellOperand, trsv, trsvBound, axpy, axpyBound, scal, scalBound, waxpby, waxpbyBound, type Range,
} from '../../src/index.js';
import { asArithmetic } from '../../src/formats/common/registry.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

const BACKENDS = ['js', 'wasm'] as const;

/** A vector of one scale over `storage`, the values written through it, read in `arithmetic`. */
function scaled(values: number[], storage: string, scale: number, arithmetic: string): Range<1, any> {
  const r = range(scaledReducedRowMajor<1>({ size: [values.length], storage, arithmetic: 'f64', scaleMask: [false], scale: new Float64Array([scale]) }));
  values.forEach((v, i) => r.set(i, v));
  return range(r.accessor.withArithmetic(asArithmetic(arithmetic)));
}

/** The exact value element i holds: stored × scale. */
function exactAt(r: Range<1, any>, i: number): Rational {
  const a = r.accessor;
  const q = exactOf(a.storage.decode(a.data as never, a.linearIndex([i])) as number);
  return a.scale ? mulRational(q, exactOf(a.scale.data[a.scaleIndex([i])]!)) : q;
}

function within(computed: Rational, exact: Rational, bound: number): boolean {
  return bound >= 0 && compareRational(absRational(subRational(computed, exact)), exactOf(bound)) <= 0;
}

describe('a stored value below the arithmetic’s range under a large scale', () => {
  // fp64 storage holding 2^-220 under a scale of 2^120 represents 2^-100; fp32 reads q as 0 (ff flushes it too).
  const make = (ar: string) => scaled([2 ** -100, 3 * 2 ** -101], 'f64', 2 ** 120, ar);

  it('DOT, ASUM and NRM2 in fp32 read 0 for 2^-100: their bounds admit it', () => {
    const x = make('f32'), y = vector([1, -1], { arithmetic: asArithmetic('f32') });
    const exactDot = exactOf(2 ** -100 - 3 * 2 ** -101), exactAsum = exactOf(2 ** -100 + 3 * 2 ** -101);
    for (const backend of BACKENDS) {
      expect(dot(x, y, { backend })).toBe(0);
      expect(within(exactOf(dot(x, y, { backend })), exactDot, dotBound(x, y, { backend }))).toBe(true);
      expect(asum(x, { backend })).toBe(0);
      expect(within(exactOf(asum(x, { backend })), exactAsum, asumBound(x, { backend }))).toBe(true);
      // ‖x‖ = 2^-100·√(13)/2 > 1.8·2^-100: a bound below that cannot admit 0.
      expect(nrm2(x, { backend })).toBe(0);
      expect(nrm2Bound(x, { backend })).toBeGreaterThanOrEqual(1.81 * 2 ** -100);
    }
  });

  it('GEMV and ELL SpMV in fp32 with such an x: the bounds admit the 0 they compute', () => {
    for (const backend of BACKENDS) {
      const x = make('f32'), A = matrix(1, 2, () => 1, { arithmetic: asArithmetic('f32') } as any);
      const y = vector(1, { arithmetic: asArithmetic('f32') });
      const args = { alpha: 1, A, x, beta: 0, y, trans: 'N' as const };
      const bound = gemvBound(args, { backend });
      gemv(args, { backend });
      expect(within(exactOf(y.get(0) as number), exactOf(2 ** -100 + 3 * 2 ** -101), bound[0]!), `gemv ${backend}`).toBe(true);
      const values = matrix(1, 2, () => 1, { arithmetic: asArithmetic('f32') } as any);
      const E = ellOperand({ rows: 1, cols: 2, width: 2, stride: 1, colIndex: new Int32Array([0, 1]) }, values);
      const z = vector(1, { arithmetic: asArithmetic('f32') });
      const eb = ellSpmvBound({ alpha: 1, A: E, x, beta: 0, y: z }, { backend });
      ellSpmv({ alpha: 1, A: E, x, beta: 0, y: z }, { backend });
      expect(within(exactOf(z.get(0) as number), exactOf(2 ** -100 + 3 * 2 ** -101), eb[0]!), `ell ${backend}`).toBe(true);
    }
  });

  it('TRSV in float-float with b = 0.001 under a scale of 1e38 (q = 1e-41, flushed): the bound admits x̂ = 0', () => {
    for (const ar of ['ff', 'f32']) {
      const x = scaled([0.001], 'f64', 1e38, ar), A = matrix(1, 1, () => 1, { arithmetic: asArithmetic(ar) } as any);
      const exact = exactAt(x, 0);
      trsv({ A, x, uplo: 'U', trans: 'T', diag: 'N' }, { backend: 'js' });
      const bound = trsvBound({ A, x, uplo: 'U', trans: 'T', diag: 'N' });
      expect(within(exactAt(x, 0), exact, bound[0]!), `${ar}: x̂ = ${x.get(0)}, bound ${bound[0]}`).toBe(true);
    }
  });
});

describe('a scaled write whose scale lies in the arithmetic’s subnormal range', () => {
  // fp32 converts the scale 1e-40 with a relative error up to 2^-150/1e-40 ≈ 7e-6, and the stored q·s carries it.
  const alpha = -1.285799728499177e-32;

  it('GEMV in fp32 into an f64 y under a scale of 1e-40', () => {
    for (const backend of BACKENDS) {
      const A = matrix(1, 1, () => 1, { arithmetic: asArithmetic('f32') } as any), x = vector([1], { arithmetic: asArithmetic('f32') });
      const y = scaled([0], 'f64', 1e-40, 'f32');
      const args = { alpha, A, x, beta: 0, y, trans: 'N' as const };
      const bound = gemvBound(args, { backend });
      gemv(args, { backend });
      // The fp32 α is the one the arithmetic multiplies by: exact = fl32(α) read as the kernel reads it would hide the
      // error; the exact α·1 is the reference.
      expect(within(exactAt(y, 0), exactOf(alpha), bound[0]!), `${backend}: ${y.get(0)}, bound ${bound[0]}`).toBe(true);
    }
  });

  it('AXPY, SCAL, WAXPBY and DOT into such an output (1.5·2^-100: the error passes the η they counted)', () => {
    const v = 1.5 * 2 ** -100;
    for (const backend of BACKENDS) {
      const x = vector([v], { arithmetic: asArithmetic('f32') });
      const y = scaled([0], 'f64', 1e-40, 'f32');
      const ab = axpyBound(1, x, y, { backend });
      axpy(1, x, y, { backend });
      expect(within(exactAt(y, 0), exactOf(v), ab[0]!), `axpy ${backend}: ${y.get(0)}, bound ${ab[0]}`).toBe(true);
      const w = scaled([v], 'f64', 1e-40, 'f32');
      const before = exactAt(w, 0);
      const sb = scalBound(3, w, { backend });
      scal(3, w, { backend });
      expect(within(exactAt(w, 0), mulRational(before, exactOf(3)), sb[0]!), `scal ${backend}: ${w.get(0)}, bound ${sb[0]}`).toBe(true);
      const out = scaled([0], 'f64', 1e-40, 'f32'), zero = vector([0], { arithmetic: asArithmetic('f32') });
      const wb = waxpbyBound(1, x, 1, zero, out, { backend });
      waxpby(1, x, 1, zero, out, { backend });
      expect(within(exactAt(out, 0), exactOf(v), wb[0]!), `waxpby ${backend}: ${out.get(0)}, bound ${wb[0]}`).toBe(true);
      const into = scaled([0], 'f64', 1e-40, 'f32'), one = vector([1], { arithmetic: asArithmetic('f32') });
      const db = dotBound(x, one, { backend, into });
      dot(x, one, { backend, into });
      expect(within(exactAt(into, 0), exactOf(v), db), `dot into ${backend}: ${into.get(0)}, bound ${db}`).toBe(true);
    }
  });
});
