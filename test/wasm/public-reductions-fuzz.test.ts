/**
 * DOT, ASUM and NRM2 through the public API: the automatic choice, `backend: 'wasm'` and `backend: 'js'` each within
 * the library's own a-priori bound (dotBound, asumBound, nrm2Bound) of the exact BigInt result; the same bits where
 * the docs promise them (`pairwise`, `dot2`: the JavaScript's order); a bound of +∞ wherever a NaN or ±∞ is read;
 * over every built-in storage, scales, strides of either sign, sub-ranges and lengths at the lane, unroll, block and
 * chunk boundaries. A case WebAssembly refuses is a typed error.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, asum, asumBound, nrm2, nrm2Bound, ModprecError } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, compareRational, mulRational, subRational, ZERO, type Rational } from '../../src/testing/rational.js';
import { buildVec, describeVec, exactVec, lengthArb, runs, vecSpecArb, within } from './public-operands.js';

const BACKENDS = ['js', 'cpu', 'wasm'] as const;
const config = fc.record({
  arithmetic: fc.constantFrom('f64', 'f32', 'dd'),
  accumulation: fc.constantFrom(undefined, 'recursive', 'kahan', 'dd', 'pairwise', 'dot2'),
});
/** The accumulations whose order WebAssembly follows term by term: the JavaScript's bits. */
const ORDERED = new Set(['pairwise', 'dot2']);

/** Each backend's value, or the typed error it raised (anything else fails the test). */
function eachBackend(run: (backend: string) => number): Map<string, number | ModprecError> {
  const out = new Map<string, number | ModprecError>();
  for (const b of BACKENDS) {
    try { out.set(b, run(b)); } catch (e) { if (!(e instanceof ModprecError)) throw e; out.set(b, e); }
  }
  return out;
}

/**
 * The bound, or — where the bound function refuses the options (an accumulation the arithmetic cannot run) — checks
 * that every backend's kernel refuses them with the same typed error and returns undefined.
 */
function boundOrRefused(bound: () => number, run: (backend: string) => number): number | undefined {
  let refusal: ModprecError;
  try { return bound(); } catch (e) { if (!(e instanceof ModprecError)) throw e; refusal = e; }
  for (const [b, r] of eachBackend(run)) {
    expect(r instanceof ModprecError ? `${b} ${r.code} ${r.parameter}` : `${b} ${r}`).toBe(`${b} ${refusal.code} ${refusal.parameter}`);
  }
  return undefined;
}

/** Checks every backend's value against `ok`, and the bits where they are promised. */
function checkResults(results: Map<string, number | ModprecError>, bits: boolean, ok: (v: number) => boolean, what: string): void {
  const js = results.get('js')!;
  if (js instanceof ModprecError) {
    const cpu = results.get('cpu');
    expect(cpu instanceof ModprecError && cpu.code === js.code, `${what}: js threw ${js.code}, cpu ${String(cpu)}`).toBe(true);
    return;
  }
  for (const b of BACKENDS) {
    const v = results.get(b)!;
    if (v instanceof ModprecError) {
      if (b === 'cpu') throw new Error(`${what}: cpu threw ${v.code} ${v.message} where js ran`);
      continue;
    }
    if (!ok(v)) throw new Error(`${what}: ${b} = ${v} outside the bound`);
    if (bits && !Object.is(v, js)) throw new Error(`${what}: ${b} = ${v}, js = ${js} (bits promised)`);
  }
}

describe('public reductions: every backend within the bound of the exact result', () => {
  it('DOT', () => {
    fc.assert(fc.property(lengthArb.chain((n) => fc.tuple(vecSpecArb(n), vecSpecArb(n), config)), ([xs, ys, c]) => {
      const opts = { arithmetic: c.arithmetic, ...(c.accumulation ? { accumulation: c.accumulation } : {}) };
      const x = buildVec(xs, c.arithmetic).range, y = buildVec(ys, c.arithmetic).range;
      const bound = boundOrRefused(() => dotBound(x, y, opts), (backend) => dot(x, y, { ...opts, backend: backend as 'js' }));
      if (bound === undefined) return;
      const ex = exactVec(x), ey = exactVec(y);
      const finite = ex.every((v) => v !== null) && ey.every((v) => v !== null);
      const what = `dot ${c.arithmetic}/${c.accumulation} x=${describeVec(xs)} y=${describeVec(ys)} bound=${bound}`;
      expect(bound >= 0, `${what}: bound is NaN or negative`).toBe(true);
      if (!finite) { expect(bound, `${what}: a NaN or ±∞ is read, the bound must be +∞`).toBe(Infinity); }
      let exact: Rational = ZERO;
      if (finite) for (let i = 0; i < ex.length; i++) exact = addRational(exact, mulRational(ex[i]!, ey[i]!));
      const results = eachBackend((backend) => dot(x, y, { ...opts, backend: backend as 'js' }));
      checkResults(results, ORDERED.has(c.accumulation ?? '') && c.arithmetic !== 'dd', (v) => !finite || within(v, exact, bound), what);
    }), { numRuns: runs(200) });
  });

  it('ASUM', () => {
    fc.assert(fc.property(lengthArb.chain((n) => fc.tuple(vecSpecArb(n), config)), ([xs, c]) => {
      const opts = { arithmetic: c.arithmetic, ...(c.accumulation ? { accumulation: c.accumulation } : {}) };
      const x = buildVec(xs, c.arithmetic).range;
      const bound = boundOrRefused(() => asumBound(x, opts), (backend) => asum(x, { ...opts, backend: backend as 'js' }));
      if (bound === undefined) return;
      const ex = exactVec(x);
      const finite = ex.every((v) => v !== null);
      const what = `asum ${c.arithmetic}/${c.accumulation} x=${describeVec(xs)} bound=${bound}`;
      expect(bound >= 0, `${what}: bound is NaN or negative`).toBe(true);
      if (!finite) expect(bound, `${what}: bound must be +∞`).toBe(Infinity);
      let exact: Rational = ZERO;
      if (finite) for (const v of ex) exact = addRational(exact, v!.num < 0n ? { num: -v!.num, den: v!.den } : v!);
      const results = eachBackend((backend) => asum(x, { ...opts, backend: backend as 'js' }));
      checkResults(results, ORDERED.has(c.accumulation ?? '') && c.arithmetic !== 'dd', (v) => !finite || within(v, exact, bound), what);
    }), { numRuns: runs(200) });
  });

  it('NRM2', () => {
    fc.assert(fc.property(lengthArb.chain((n) => fc.tuple(vecSpecArb(n), config)), ([xs, c]) => {
      const opts = { arithmetic: c.arithmetic, ...(c.accumulation ? { accumulation: c.accumulation } : {}) };
      const x = buildVec(xs, c.arithmetic).range;
      const bound = boundOrRefused(() => nrm2Bound(x, opts), (backend) => nrm2(x, { ...opts, backend: backend as 'js' }));
      if (bound === undefined) return;
      const ex = exactVec(x);
      const finite = ex.every((v) => v !== null);
      const what = `nrm2 ${c.arithmetic}/${c.accumulation} x=${describeVec(xs)} bound=${bound}`;
      expect(bound >= 0, `${what}: bound is NaN or negative`).toBe(true);
      if (!finite) expect(bound, `${what}: bound must be +∞`).toBe(Infinity);
      let squares: Rational = ZERO;
      if (finite) for (const v of ex) squares = addRational(squares, mulRational(v!, v!));
      // |r − √S| ≤ b  ⟺  max(0, r − b)² ≤ S ≤ (r + b)², decided exactly.
      const ok = (r: number): boolean => {
        if (!finite || bound === Infinity) return true;
        if (!Number.isFinite(r) || r < 0) return false;
        const lo = subRational(exactOf(r), exactOf(bound)), hi = addRational(exactOf(r), exactOf(bound));
        const low = lo.num < 0n ? ZERO : mulRational(lo, lo);
        return compareRational(low, squares) <= 0 && compareRational(squares, mulRational(hi, hi)) <= 0;
      };
      const results = eachBackend((backend) => nrm2(x, { ...opts, backend: backend as 'js' }));
      checkResults(results, false, ok, what);
    }), { numRuns: runs(200) });
  });
});
