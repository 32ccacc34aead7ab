/**
 * The harness of the public matrix-kernel property tests (test/wasm/public-matrix-fuzz, on the fuzzers' operands, and
 * test/kernels/public-bound-adversarial-matrix, on adversarial ones): one call run from identical operands on the
 * automatic choice, `'js'` and `'wasm'`, refusals that write nothing, and each output element within its bound of the
 * exact (BigInt) value — the same raw bits as the JavaScript's where the summation order is shared.
 */
import { expect } from 'vitest';
import fc from 'fast-check';
import { ellOperand, ellSpmv, ellSpmvBound, ELL_PADDING, gemv, gemvBound, ModprecError, trsv, trsvBound, type Range } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { absRational, addRational, compareRational, divRational, mulRational, subRational, ZERO, type Rational } from '../../src/testing/rational.js';
import { buildMat, buildVec, describeVec, exactAt, firstRawDifference, SPECIALS, type Built, type MatSpec, type VecSpec } from './public-operands.js';

export const BACKENDS = ['js', 'cpu', 'wasm'] as const;
export const ACCUMULATIONS = [undefined, 'recursive', 'kahan', 'dd', 'pairwise', 'dot2'] as const;
/** α and β: ordinary values, the BLAS special cases and the specials. */
export const coefficient = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom(0, -0, 1, -1, 0.5) }, { weight: 1, arbitrary: fc.constantFrom(...SPECIALS) });
/** Extents around the WebAssembly kernels' unrolling boundaries. */
export const dims = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 40 }) });

/** |computed − exact| ≤ bound for an exact computed value; a non-finite computed value only under an infinite bound. */
export function withinExact(computed: Rational | null, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  if (computed === null || !(bound >= 0)) return false;
  return compareRational(absRational(subRational(computed, exact)), exactOf(bound)) <= 0;
}

/** A backend's run: every operand's raw words after it, and the output range. */
export interface Outcome { raws: number[][]; out: Range<1, any> }

/** Runs on each backend from fresh identical operands (built by `make`); checks a refusal wrote nothing. */
export function eachBackend(make: () => Built<any>[], run: (ops: Built<any>[], backend: string) => void, outIndex: number): Map<string, Outcome | ModprecError> {
  const out = new Map<string, Outcome | ModprecError>();
  for (const backend of BACKENDS) {
    const ops = make();
    const before = ops.map((o) => o.raw());
    try {
      run(ops, backend);
      out.set(backend, { raws: ops.map((o) => o.raw()), out: ops[outIndex]!.range as Range<1, any> });
    } catch (e) {
      if (!(e instanceof ModprecError)) throw e;
      ops.forEach((o, k) => {
        const d = firstRawDifference(before[k]!, o.raw());
        if (d) throw new Error(`${backend} threw ${e.code} after writing operand ${k}: ${d}`);
      });
      out.set(backend, e);
    }
  }
  return out;
}

/** The bound, or the typed error the bound function raises for options its kernel refuses. */
export function boundOrRefusal(f: () => Float64Array): Float64Array | ModprecError {
  try { return f(); } catch (e) { if (e instanceof ModprecError) return e; throw e; }
}

/** Every backend (but those in `except`) refused the call as the bound function did (same code and parameter). */
export function expectRefusedAlike(results: Map<string, Outcome | ModprecError>, refusal: ModprecError, what: string, except: readonly string[] = []): void {
  for (const [b, r] of results) if (!except.includes(b)) expect(r instanceof ModprecError ? `${b} ${r.code} ${r.parameter}` : `${b} ran`, what).toBe(`${b} ${refusal.code} ${refusal.parameter}`);
}

/** Every backend's output within bound[i] of exact[i]; the same raw bits as the JavaScript's where `bits`. */
export function check(results: Map<string, Outcome | ModprecError>, bits: boolean, exact: ((Rational | null)[]) | null, bound: ArrayLike<number>, what: string): void {
  const js = results.get('js')!;
  if (js instanceof ModprecError) {
    const cpu = results.get('cpu');
    expect(cpu instanceof ModprecError && cpu.code === js.code, `${what}: js threw ${js.code} ${js.message}; cpu ${String(cpu)}`).toBe(true);
    return;
  }
  for (const b of results.keys()) {
    const r = results.get(b)!;
    if (r instanceof ModprecError) {
      if (b === 'cpu') throw new Error(`${what}: cpu threw ${r.code} ${r.message} where js ran`);
      continue;
    }
    if (exact) {
      for (let i = 0; i < r.out.length(); i++) {
        const e = exact[i];
        if (e === null) { if (bound[i] !== Infinity) throw new Error(`${what}: element ${i} depends on a NaN/±∞ but its bound is ${bound[i]}`); continue; }
        if (!withinExact(exactAt(r.out, [i]), e, bound[i]!)) throw new Error(`${what}: ${b} element ${i} = ${(() => { const c = exactAt(r.out, [i]); return c ? roundRationalToDouble(c) : NaN; })()}, exact ${roundRationalToDouble(e)}, outside bound ${bound[i]}`);
      }
    }
    if (bits && b !== 'js') {
      for (let k = 0; k < js.raws.length; k++) {
        const d = firstRawDifference(js.raws[k]!, r.raws[k]!);
        if (d) throw new Error(`${what}: ${b} ≠ js (bits promised) in operand ${k} at ${d}`);
      }
    }
  }
}

/** Exact sum (null: a term depends on NaN/±∞). */
export const sumOf = (terms: (Rational | null)[]): Rational | null => (terms.some((t) => t === null) ? null : terms.reduce<Rational>((s, t) => addRational(s, t!), ZERO));
/** Exact product (null propagates). */
export const times = (a: Rational | null, b: Rational | null): Rational | null => (a === null || b === null ? null : mulRational(a, b));
/** A coefficient as a rational (null: not finite). */
export const coef = (c: number): Rational | null => (Number.isFinite(c) ? exactOf(c) : null);

/** Kernel options of a drawn configuration. */
export const optsOf = (c: { arithmetic: string; accumulation: string | undefined }) => ({ arithmetic: c.arithmetic, ...(c.accumulation ? { accumulation: c.accumulation } : {}) });

/** Operand arbitraries of a matrix property: a matrix spec (storages, specials) and a vector spec of length n. */
export interface OperandArbitraries {
  mat: (storages?: undefined, specials?: number) => fc.Arbitrary<MatSpec>;
  vec: (n: number) => fc.Arbitrary<VecSpec>;
}

/**
 * ELL SpMV y := α·A·x + β·y from drawn operands: every backend within ellSpmvBound of the exact value (the
 * JavaScript's bits where `bits`), refusals as the bound's (but the backends in `except`).
 */
export function ellSpmvProperty(operands: OperandArbitraries, config: fc.Arbitrary<{ arithmetic: string; accumulation: string | undefined }>, bits: boolean, except: readonly string[], numRuns: number): void {
  const arb = fc.record({ rows: dims, cols: dims, width: fc.integer({ min: 0, max: 6 }), extra: fc.constantFrom(0, 0, 3),
    fillSeed: fc.array(fc.integer({ min: -1, max: 1000 }), { minLength: 13, maxLength: 13 }), V: operands.mat(undefined, 1),
    alpha: coefficient, beta: coefficient, c: config }).chain((t) => fc.record({ x: operands.vec(t.cols), y: operands.vec(t.rows) }).map((v) => ({ ...t, ...v })));
  fc.assert(fc.property(arb, (t) => {
    const opts = optsOf(t.c);
    const width = t.cols === 0 ? 0 : t.width;
    const stride = t.rows + t.extra;
    // Column indices: each row's first slots hold columns (some rows shorter), padding after; rows ≥ rows are padding.
    const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
    for (let i = 0; i < t.rows; i++) {
      const len = width === 0 ? 0 : (t.fillSeed[i % 13]! + 1) % (width + 1);
      for (let k = 0; k < len; k++) colIndex[i + k * stride] = (t.fillSeed[(i + k) % 13]! * 7 + k * 3 + 1000) % t.cols;
    }
    const structure = { rows: t.rows, cols: t.cols, width, stride, colIndex };
    const make = (): Built<any>[] => {
      const V = buildMat({ ...t.V, r0: 0, c0: 0 } as MatSpec, stride, width, t.c.arithmetic);
      return [V, buildVec(t.x, t.c.arithmetic), buildVec(t.y, t.c.arithmetic)];
    };
    const [V0, x0, y0] = make();
    const A0 = ellOperand(structure, V0!.range);
    const args = { alpha: t.alpha, A: A0, x: x0!.range, beta: t.beta, y: y0!.range };
    const bound = boundOrRefusal(() => ellSpmvBound(args, opts));
    // ELL's quick return (documented): no rows, or α = 0 with β = 1, leaves y as it was.
    const quick = t.rows === 0 || (t.alpha === 0 && t.beta === 1);
    const exact = quick ? null : Array.from({ length: t.rows }, (_, i) => {
      if (t.alpha === 0) return t.beta === 0 ? ZERO : times(coef(t.beta), exactAt(y0!.range, [i]));
      const terms: (Rational | null)[] = [];
      for (let k = 0; k < width; k++) { const c = colIndex[i + k * stride]!; if (c !== ELL_PADDING) terms.push(times(exactAt(V0!.range, [i, k]), exactAt(x0!.range, [c]))); }
      // A row with no entries skips the product (α·0 is 0 even for α = ±∞ or NaN): y := β·y.
      const ax = terms.length === 0 ? ZERO : times(coef(t.alpha), sumOf(terms));
      if (t.beta === 0 || ax === null) return ax;
      const b = times(coef(t.beta), exactAt(y0!.range, [i]));
      return b === null ? null : addRational(ax, b);
    });
    const what = `ell ${t.rows}×${t.cols} w=${width} stride=${stride} α=${t.alpha} β=${t.beta} ${t.c.arithmetic}/${t.c.accumulation} V=${t.V.storage}/${t.V.scale}/${t.V.layout} x=${describeVec(t.x)} y=${describeVec(t.y)}`;
    const results = eachBackend(make, ([V, x, y], backend) => ellSpmv({ alpha: t.alpha, A: ellOperand(structure, V!.range), x: x!.range, beta: t.beta, y: y!.range }, { ...opts, backend } as any), 2);
    if (bound instanceof ModprecError) { expectRefusedAlike(results, bound, what, except); return; }
    check(results, bits, exact, bound, what);
  }), { numRuns });
}

/**
 * GEMV y := α·op(A)·x + β·y from drawn operands: every backend within gemvBound of the exact value — the JavaScript's
 * bits where `bitsPromised` and the order is shared (op(A) read by columns, pairwise and dot2) — a quick return
 * leaving y alone, refusals as the bound's (but the backends in `except`).
 */
export function gemvProperty(operands: OperandArbitraries, config: fc.Arbitrary<{ arithmetic: string; accumulation: string | undefined }>, bitsPromised: boolean, except: readonly string[], numRuns: number): void {
  const arb = fc.tuple(dims, dims, fc.constantFrom<'N' | 'T'>('N', 'T')).chain(([m, n, trans]) => {
    const [rows, cols] = trans === 'N' ? [m, n] : [n, m];
    return fc.record({ m: fc.constant(m), n: fc.constant(n), trans: fc.constant(trans), rows: fc.constant(rows), cols: fc.constant(cols),
      A: operands.mat(), x: operands.vec(n), y: operands.vec(m), alpha: coefficient, beta: coefficient, c: config });
  });
  fc.assert(fc.property(arb, (t) => {
    const opts = optsOf(t.c);
    const make = (): Built<any>[] => [buildMat(t.A, t.rows, t.cols, t.c.arithmetic), buildVec(t.x, t.c.arithmetic), buildVec(t.y, t.c.arithmetic)];
    const [A, x, y] = make();
    const args = { alpha: t.alpha, A: A!.range, x: x!.range, beta: t.beta, y: y!.range, trans: t.trans };
    const bound = boundOrRefusal(() => gemvBound(args as any, opts));
    const ex = Array.from({ length: t.n }, (_, j) => exactAt(x!.range, [j]));
    // The reference BLAS's quick return (documented): an empty op(A), or α = 0 with β = 1, leaves y as it was.
    const quick = t.m === 0 || t.n === 0 || (t.alpha === 0 && t.beta === 1);
    const exact = quick ? null : Array.from({ length: t.m }, (_, i) => {
      if (t.alpha === 0 && Number.isFinite(t.alpha)) return t.beta === 0 ? ZERO : times(coef(t.beta), exactAt(y!.range, [i]));
      const row = sumOf(ex.map((xj, j) => times(exactAt(A!.range, t.trans === 'N' ? [i, j] : [j, i]), xj)));
      const ax = times(coef(t.alpha), row);
      return t.beta === 0 ? ax : ax === null ? null : (() => { const b = times(coef(t.beta), exactAt(y!.range, [i])); return b === null ? null : addRational(ax, b); })();
    });
    const byColumns = (t.A.layout === 'col') === (t.trans === 'N');
    const ordered = t.c.accumulation === 'pairwise' || t.c.accumulation === 'dot2';
    const bits = bitsPromised && (byColumns || ordered || quick);
    const what = `gemv ${t.trans} ${t.m}×${t.n} α=${t.alpha} β=${t.beta} ${t.c.arithmetic}/${t.c.accumulation} A=${t.A.storage}/${t.A.scale}/${t.A.layout} pad=${t.A.pad} x=${describeVec(t.x)} y=${describeVec(t.y)}`;
    const results = eachBackend(make, ([A2, x2, y2], backend) => gemv({ ...args, A: A2!.range, x: x2!.range, y: y2!.range }, { ...opts, backend } as any), 2);
    if (bound instanceof ModprecError) { expectRefusedAlike(results, bound, what, except); return; }
    check(results, bits, exact, bound, what);
    if (quick) {
      const js = results.get('js');
      if (!(js instanceof ModprecError)) expect(firstRawDifference(js!.raws[2]!, y!.raw()), `${what}: quick return wrote y`).toBe(null);
    }
  }), { numRuns });
}

/** A drawn TRSV case: order, triangle, operand specs, one special cell of A, its off-diagonal entries, a configuration. */
export interface TrsvCase {
  n: number; uplo: 'U' | 'L'; trans: 'N' | 'T'; diag: 'N' | 'U'; A: MatSpec; b: VecSpec;
  special: [number, number, number] | null; off: number[]; c: { arithmetic: string; accumulation: string | undefined };
}

/**
 * TRSV x := op(A)⁻¹·x from drawn cases: A from `entry` (diagonally dominant, powers of two on the diagonal so the
 * exact solution stays dyadic) but for one special cell; every backend within trsvBound of its own x̂ around the exact
 * solution, the automatic choice's refusals as 'js''s, and the JavaScript's bits where `bitsPromised` and the order is
 * shared (op(A) read by columns, pairwise and dot2, dd).
 */
export function trsvProperty<T extends TrsvCase>(arb: fc.Arbitrary<T>, entry: (t: T, i: number, j: number) => number, bitsPromised: boolean, numRuns: number): void {
  fc.assert(fc.property(arb, (t) => {
    const opts = optsOf(t.c);
    const n = t.n;
    const value = (i: number, j: number): number => (t.special && n > 0 && i === t.special[0] % n && j === t.special[1] % n ? t.special[2] : entry(t, i, j));
    const make = (): Built<any>[] => [buildMat(t.A, n, n, t.c.arithmetic, value), buildVec(t.b, t.c.arithmetic)];
    const [A0, b0] = make();
    const eb = Array.from({ length: n }, (_, i) => exactAt(b0!.range, [i]));
    const lower = (t.uplo === 'L') !== (t.trans === 'T');
    const opA = (i: number, j: number) => (t.trans === 'N' ? exactAt(A0!.range, [i, j]) : exactAt(A0!.range, [j, i]));
    // The exact solution, or null where a read value is NaN/±∞ or a pivot is 0 (then the bound must be ∞).
    let exact: (Rational | null)[] | null = [];
    for (let k = 0; k < n && exact; k++) {
      const i = lower ? k : n - 1 - k;
      let s = eb[i] ?? null;
      for (let j = lower ? 0 : i + 1; j < (lower ? i : n) && s !== null; j++) { const p = times(opA(i, j), exact![j] ?? null); s = p === null ? null : subRational(s, p); }
      const d = t.diag === 'U' ? exactOf(1) : opA(i, i);
      exact[i] = s === null || d === null || d.num === 0n ? null : divRational(s, d);
      if (exact[i] === null) exact = null;
    }
    const byColumns = (t.A.layout === 'col') === (t.trans === 'N');
    const ordered = t.c.accumulation === 'pairwise' || t.c.accumulation === 'dot2';
    const bits = bitsPromised && (byColumns || ordered || t.c.arithmetic === 'dd' || (t.c.accumulation === 'dd' && t.c.arithmetic === 'f64'));
    const what = `trsv ${t.uplo}${t.trans}${t.diag} n=${n} ${t.c.arithmetic}/${t.c.accumulation} A=${t.A.storage}/${t.A.scale}/${t.A.layout} pad=${t.A.pad} special=${JSON.stringify(t.special)} b=${describeVec(t.b)}`;
    const results = eachBackend(make, ([A, x], backend) => trsv({ A: A!.range, x: x!.range, uplo: t.uplo, trans: t.trans, diag: t.diag }, { ...opts, backend } as any), 1);
    // trsvBound is in terms of the computed x̂: take it from each backend's own result.
    for (const [b, r] of results) {
      if (r instanceof ModprecError) continue;
      const bound = trsvBound({ A: A0!.range, x: r.out, uplo: t.uplo, trans: t.trans, diag: t.diag }, opts as any);
      // (A NaN/±∞ read or a zero pivot: only the rows that depend on it must be +∞, which the exact oracle does not
      // single out; the bits check covers them where bits are promised.)
      if (exact === null) continue;
      check(new Map([['js', r], ['cpu', r]]) as any, false, exact, bound, `${what} [${b}]`);
    }
    check(results, bits, null, [], what);
  }), { numRuns });
}
