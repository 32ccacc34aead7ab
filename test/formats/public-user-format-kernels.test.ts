/**
 * The nine kernels and the Krylov solvers through a user's own formats (test/formats/user-formats.ts: a table-coded
 * 8-bit storage, a logarithmic 16-bit storage, an arithmetic rounding every operation to 16 bits), from the public
 * entry only. On backend 'js' every result is within its …Bound of the exact value of the stored operands — bounds that
 * take the formats' declared unit roundoffs and underflow errors; WebAssembly and the GPU refuse what they cannot run
 * with a typed error naming it, writing nothing, and the automatic choice says why it stayed in JavaScript.
 *
 * Regression (user formats that underflow otherwise than IEEE): the bounds took η from significandBits and maxValue
 * as for gradual underflow, which a format without subnormals does not have — axpy(1, [0.5], [−0.4375]) into the
 * 8-bit table storage (smallest magnitude 0.1328) stored 0 for 0.0625 with axpyBound 0.033; the log storage stored
 * its smallest magnitude 5.4e-20 for 8.8e-22 with a bound of 7.2e-22. StorageFormat.underflowError now declares it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ModprecError, asum, asumBound, axpy, axpyBound, bicgstab, cg, cpuBackendOf, csrMatrix, csrToEll, dot, dotBound,
  ellSpmv, ellSpmvBound, ellWithStorage, gemv, gemvBound, gmres, laplacianEll, matrix, nrm2, nrm2Bound, scal,
  scalBound, toArray, trsv, trsvBound, typedArrayStorage, vector, waxpby, waxpbyBound, writeRelativeError, asArithmetic, formats,
  type Range,
} from '../../src/index.js';
import {
  absRational, addRational, compareRational, exactDot, exactOf, exactSum, exactTriangularSolve, mulRational,
  subRational, type Rational,
} from '../../src/testing/index.js';
import { LNS_U, TB8_UNDERFLOW, lns16, lnsRound, r16, tb8, tb8Round } from './user-formats.js';

/** |computed − exact| ≤ bound, exactly. */
function within(computed: number, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  return compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0;
}
const q = exactOf;
const values = (r: Range<1, any>) => [...toArray(r)];
const entries = fc.double({ min: -4, max: 4, noNaN: true }).map((v) => (Math.abs(v) < 0.2 ? 0 : v));

const combos = [
  { in: tb8, out: lns16, ar: r16 }, { in: tb8, out: tb8, ar: formats.f64 },
  { in: lns16, out: lns16, ar: r16 }, { in: lns16, out: lns16, ar: formats.f64 },
];

describe("the nine kernels on 'js' through the user's formats, within their bounds", () => {
  for (const c of combos) {
    const name = `${c.in.name} in, ${c.out.name} out, ${c.ar.name} arithmetic`;
    const o = { storage: c.in, arithmetic: c.ar }, oo = { storage: c.out, arithmetic: c.ar };
    const js = { backend: 'js' } as const;

    it(`${name}: DOT, ASUM, NRM2`, () => {
      fc.assert(fc.property(fc.array(fc.tuple(entries, entries), { minLength: 1, maxLength: 12 }), (pairs) => {
        const x = vector(pairs.map((p) => p[0]), o), y = vector(pairs.map((p) => p[1]), o);
        expect(within(dot(x, y, js), exactDot(values(x), values(y)), dotBound(x, y))).toBe(true);
        expect(within(asum(x, js), exactSum(values(x).map(Math.abs)), asumBound(x))).toBe(true);
        // ‖x‖ within b of r  ⇔  (r − b)² ≤ Σxᵢ² ≤ (r + b)², exactly.
        const r = nrm2(x, js), b = nrm2Bound(x), ss = exactDot(values(x), values(x));
        const lo = subRational(q(r), q(b)), hi = addRational(q(r), q(b));
        expect(b === Infinity || ((compareRational(lo, q(0)) <= 0 || compareRational(mulRational(lo, lo), ss) <= 0) && compareRational(ss, mulRational(hi, hi)) <= 0)).toBe(true);
      }), { numRuns: 25 });
    });

    it(`${name}: AXPY, WAXPBY, SCAL into the output storage`, () => {
      fc.assert(fc.property(fc.array(fc.tuple(entries, entries), { minLength: 1, maxLength: 10 }), fc.constantFrom(1, -2, 0.5, 0.3),
        (pairs, a) => {
          const x = vector(pairs.map((p) => p[0]), o), y = vector(pairs.map((p) => p[1]), oo), w = vector(pairs.length, oo);
          const xs = values(x), ys = values(y);
          const wb = waxpbyBound(a, x, -1, y, w);
          waxpby(a, x, -1, y, w, js);
          values(w).forEach((v, i) => expect(within(v, subRational(mulRational(q(a), q(xs[i]!)), q(ys[i]!)), wb[i]!), `waxpby ${i}`).toBe(true));
          const ab = axpyBound(a, x, y);
          axpy(a, x, y, js);
          values(y).forEach((v, i) => expect(within(v, addRational(mulRational(q(a), q(xs[i]!)), q(ys[i]!)), ab[i]!), `axpy ${i}`).toBe(true));
          const before = values(y), sb = scalBound(a, y);
          scal(a, y, js);
          values(y).forEach((v, i) => expect(within(v, mulRational(q(a), q(before[i]!)), sb[i]!), `scal ${i}`).toBe(true));
        }), { numRuns: 25 });
    });

    it(`${name}: GEMV (both layouts, both transposes), TRSV, ELL SpMV`, () => {
      fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.array(entries, { minLength: 48, maxLength: 48 }), fc.boolean(), fc.constantFrom('N', 'T') as fc.Arbitrary<'N' | 'T'>,
        (n, raw, rowMajor, trans) => {
          // Diagonally dominant, powers of two on the diagonal: a triangle TRSV can solve in 5 bits.
          const A = matrix(n, n, (i, j) => (i === j ? 2 ** ((i % 3) + 1) : raw[i * 6 + j]!), { ...o, layout: rowMajor ? 'row-major' : 'col-major' });
          const x = vector(raw.slice(36, 36 + n), o), y = vector(n, oo);
          const a = (i: number, j: number) => (trans === 'N' ? A.get(i, j) : A.get(j, i));
          const gb = gemvBound({ alpha: 1, A, x, beta: 0, y, trans });
          gemv({ alpha: 1, A, x, beta: 0, y, trans }, js);
          values(y).forEach((v, i) => expect(within(v, exactDot(Array.from({ length: n }, (_, j) => a(i, j)), values(x)), gb[i]!), `gemv ${i}`).toBe(true));
          // TRSV with A's lower triangle (uplo refers to A, as in BLAS: op(A) is upper for 'T'), b in the output storage;
          // the bound is taken after the solve.
          const b = vector(raw.slice(40, 40 + n), oo), bs = values(b);
          trsv({ A, x: b, uplo: 'L', trans, diag: 'N' }, js);
          const tb = trsvBound({ A, x: b, uplo: 'L', trans, diag: 'N' });
          const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => q(a(i, j))));
          const exact = exactTriangularSolve(T, bs.map(q), trans === 'N', false);
          values(b).forEach((v, i) => expect(within(v, exact[i]!, tb[i]!), `trsv ${i}`).toBe(true));
          // ELL SpMV of the strictly lower part plus the diagonal, values rounded once into the input storage.
          const dense = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? A.get(i, j) : 0)));
          const rowPtr = new Int32Array(n + 1), cols: number[] = [], vals: number[] = [];
          dense.forEach((row, i) => { row.forEach((v, j) => { if (v !== 0) { cols.push(j); vals.push(v); } }); rowPtr[i + 1] = cols.length; });
          const E = ellWithStorage(csrToEll(csrMatrix({ rows: n, cols: n, rowPtr, colIndex: Int32Array.from(cols), values: Float64Array.from(vals) })), o);
          const z = vector(n, oo), eb = ellSpmvBound({ alpha: 1, A: E, x, beta: 0, y: z });
          ellSpmv({ alpha: 1, A: E, x, beta: 0, y: z }, js);
          values(z).forEach((v, i) => expect(within(v, exactDot(dense[i]!, values(x)), eb[i]!), `ellSpmv ${i}`).toBe(true));
        }), { numRuns: 20 });
    });
  }
});

describe("the bounds take the user's declared numbers", () => {
  it('the write term is the declared unit roundoff, and the declared underflow error covers a flush to zero', () => {
    const f64 = asArithmetic('f64');
    expect(writeRelativeError(vector(1, { storage: lns16 }), f64)).toBe(LNS_U);
    expect(writeRelativeError(vector(1, { storage: tb8 }), f64)).toBe(2 ** -5);
    // 0.5 − 0.4375 = 0.0625 is below tb8's smallest magnitude: stored 0, an error of 0.0625 > 2^-5·0.0625 + η_IEEE.
    const x = vector([0.5], { storage: tb8 }), y = vector([-0.4375], { storage: tb8 });
    const bound = axpyBound(1, x, y)[0]!;
    axpy(1, x, y, { backend: 'js' });
    expect(y.get(0)).toBe(0);
    expect(bound).toBeGreaterThanOrEqual(0.0625);
    expect(bound).toBeLessThan(2 * TB8_UNDERFLOW);
    // lns16 rounds 2^-63 − (2^-63 − 2^-70) up to its smallest magnitude.
    const p = vector([2 ** -63], { storage: lns16 }), r = vector([-lnsRound(2 ** -63 - 2 ** -70)], { storage: lns16 });
    const exact = addRational(q(p.get(0)), q(r.get(0))), pb = axpyBound(1, p, r)[0]!;
    axpy(1, p, r, { backend: 'js' });
    expect(within(r.get(0), exact, pb)).toBe(true);
    expect(tb8Round(0.0625)).toBe(0);
    // The declaration is checked where it enters.
    for (const bad of [-1, NaN, Infinity, '0.1']) {
      let parameter: unknown;
      try {
        typedArrayStorage({ name: 'user-bad-eta', array: Float32Array, significandBits: 24, unitRoundoff: 2 ** -24, isInteger: false,
          maxValue: 3.4e38, underflowError: bad as number });
      } catch (e) { parameter = e instanceof ModprecError ? e.parameter : e; }
      expect(parameter).toBe('spec.underflowError');
    }
  });

  it("an arithmetic's declared unit roundoff scales DOT's bound", () => {
    const x = vector([1.5, -2.25, 3.125, 0.75], { storage: lns16, arithmetic: r16 });
    const b16 = dotBound(x, x), b64 = dotBound(x, x, { arithmetic: 'f64' });
    expect(b16 / b64).toBeGreaterThan(2 ** 36);   // 2^-16 against 2^-53: the user's u is the one counted
  });
});

describe("what WebAssembly and the GPU cannot run is a typed error, and the automatic choice says why it stayed in JavaScript", () => {
  function errorOf(f: () => unknown): [string, string | undefined] {
    try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
    return ['none', undefined];
  }
  async function rejectionOf(p: () => Promise<unknown>): Promise<[string, string | undefined]> {
    try { await p(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
    return ['none', undefined];
  }

  it('a user storage or arithmetic on backend wasm: refused, naming it, nothing written; cpu runs the JavaScript', () => {
    const x = vector([1, 2.5, -3], { storage: tb8 }), y = vector([0.5, 1, 2], { storage: lns16 });
    const before = values(y);
    expect(errorOf(() => axpy(2, x, y, { backend: 'wasm' }))).toEqual(['INVALID_FORMAT', 'x']);
    expect(values(y)).toEqual(before);
    expect(errorOf(() => dot(vector([1, 2]), vector([3, 4]), { backend: 'wasm', arithmetic: r16 }))).toEqual(['INVALID_OPTION', 'options.arithmetic']);
    const choice = cpuBackendOf('axpy', { x, y }, {}, ['y']);
    expect(choice.backend).toBe('js');
    expect(choice.reason).toContain('user-tb8');
    expect(cpuBackendOf('dot', { x: vector([1]), y: vector([2]) }, { arithmetic: r16 }).reason).toContain('user-r16');
    axpy(2, x, y);   // the automatic choice runs the JavaScript: the same bits as backend 'js'
    const z = vector(before, { storage: lns16 });
    axpy(2, x, z, { backend: 'js' });
    expect(values(y)).toEqual(values(z));
  });

  it('a user storage or arithmetic on the GPU: rejected naming it before any upload, nothing written', async () => {
    const x = vector([1, 2.5, -3], { storage: tb8, arithmetic: 'f32' }), y = vector([0.5, 1, 2], { arithmetic: 'f32' });
    const before = values(y);
    expect(await rejectionOf(() => axpy(2, x, y, { backend: 'gpu' }))).toEqual(['INVALID_FORMAT', 'x']);
    expect(await rejectionOf(() => dot(y, y, { backend: 'gpu', arithmetic: r16 }))).toEqual(['INVALID_OPTION', 'options.arithmetic']);
    expect(values(y)).toEqual(before);
  });
});

describe("the solvers through the user's formats", () => {
  it('CG, BiCGStab and GMRES converge with log-storage vectors, in fp64 or in the 16-bit arithmetic; the GPU refuses them', async () => {
    const A = laplacianEll([16]);
    const b = Float64Array.from({ length: 16 }, (_, i) => Math.sin(i + 1));
    for (const arithmetic of [formats.f64, r16]) {
      for (const solve of [cg, bicgstab, gmres]) {
        const r = solve(A, b, { storage: lns16, arithmetic, tolerance: 1e-2 });
        expect(r.status, `${solve.name} ${arithmetic.name}`).toBe('converged');
        expect(r.trueResidualNorm).toBeLessThanOrEqual(1e-2);
        expect(r.x.accessor.storage.name).toBe('user-lns16');
      }
      let code: unknown;
      try { await cg(A, b, { storage: lns16, arithmetic, tolerance: 1e-2, backend: 'gpu' }); } catch (e) { code = e instanceof ModprecError ? e.code : e; }
      expect(code).toMatch(/^INVALID_/);
    }
  });
});
