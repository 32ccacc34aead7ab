/**
 * A kernel in an IEEE arithmetic (fp64, fp32, ff, dd) whose result for an element is NaN or ±∞ where the output is
 * stored in RNS (which holds finite values only). Regression: axpy(1, [1, NaN, 3], y in rns106, { arithmetic: f64 })
 * wrote y[0] = 2 and then threw INVALID_VALUE naming the conversion's own `value` (`hi` in ff and dd), in every
 * writing kernel (and DOT's `into`). Now INVALID_VALUE naming the output's element (`y[1]`, in the caller's range), with every bit of
 * the output's storage — the elements outside the view included — as it was. The WebAssembly refuses RNS outputs
 * (and ff) before anything is written; the GPU refuses RNS storage in an IEEE arithmetic. A call whose results are
 * all finite still runs: fp64 and fp32 results are stored exactly, as an fp64 output holds them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, dot, ellMatrix, ellSpmv, formats, gemv, matrix, scal, span, toArray, trsv, vector, waxpby, type Range } from '../../src/index.js';
import type { RnsArray } from '../../src/formats/rns/rns-array.js';
import { outcome } from './option-arbitraries.js';

const ARITHMETICS = ['f64', 'f32', 'ff', 'dd'] as const;
const BACKENDS = ['js', 'cpu', 'wasm', 'gpu'] as const;
type Arithmetic = typeof ARITHMETICS[number];

/** Every word of an RNS vector's storage (the version counters are bookkeeping, not the values). */
function bits(parent: Range<1, any>): unknown[] {
  const d = parent.accessor.data as RnsArray;
  return [d.digits, d.sign, d.exp, d.evalFrac, d.evalExp].map((a) => Array.from(a as ArrayLike<number>));
}

/** An output of length n stored in `storage`, a view one element into a vector with a sentinel on each side. */
function output(values: readonly number[], storage: 'rns106' | 'f64'): { parent: Range<1, any>; y: Range<1, any> } {
  const n = values.length;
  const parent = vector(n + 2, (i) => (i === 0 || i === n + 1 ? -7.25 : values[i - 1]!), { storage: formats[storage] });
  return { parent, y: parent.sub(span(1, n + 1)) };
}

/** One writing kernel: its output's name and a call on operands where element k (when given) is not finite. */
interface Case {
  readonly out: string;
  run(y: Range<1, any>, n: number, k: number | undefined, poison: number, options: object): unknown;
}

const diagonal = (n: number, k: number | undefined, poison: number): Float64Array => Float64Array.from({ length: n }, (_, i) => (i === k ? poison : 2));

/** GEMV's column loop where the call may ask for it (a number-kind arithmetic, not backend 'gpu'). */
const axpyLoop = (o: object): string => {
  const { arithmetic, backend } = o as { arithmetic: { kind: string }; backend: string };
  return arithmetic.kind === 'number' && backend !== 'gpu' ? 'axpy' : 'auto';
};

const CASES: Readonly<Record<string, Case>> = {
  axpy: { out: 'y', run: (y, n, k, p, o) => axpy(1.5, vector(n, (i) => (i === k ? p : i + 0.5)), y, o as never) },
  waxpby: { out: 'w', run: (w, n, k, p, o) => waxpby(0.5, vector(n, (i) => (i === k ? p : i - 1)), -2, vector(n, (i) => i / 8), w, o as never) },
  // SCAL's output is its input: element k holds 1e300 (RNS holds it; binary32 reads it as ∞), which α = 2^100 takes
  // past every IEEE range; the others stay finite (2^106 at most).
  scal: { out: 'x', run: (x, n, k, _p, o) => { if (k !== undefined) x.set(k, 1e300); return scal(k === undefined ? 3 : 2 ** 100, x, o as never); } },
  gemv: { out: 'y', run: (y, n, k, p, o) => gemv({ alpha: 1, A: matrix(n, n, (i, j) => (i === k && j === n - 1 ? p : 1 / (i + j + 1))), x: vector(n, (i) => i + 1), beta: 0.5, y }, o as never) },
  'gemv, loop axpy': { out: 'y', run: (y, n, k, p, o) => gemv({ alpha: 1, A: matrix(n, n, (i, j) => (i === k && j === 0 ? p : i - j)), x: vector(n, () => 1), beta: 1, y }, { ...o, loop: axpyLoop(o) } as never) },
  'gemv, transposed': { out: 'y', run: (y, n, k, p, o) => gemv({ alpha: 2, A: matrix(n, n, (i, j) => (j === k && i === 0 ? p : 1)), x: vector(n, () => 0.25), beta: 0, y, trans: 'T' }, o as never) },
  ellSpmv: { out: 'y', run: (y, n, k, p, o) => ellSpmv({ alpha: 1, A: ellMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values: diagonal(n, k, p) }), x: vector(n, (i) => i), beta: 1, y }, o as never) },
  // DOT's `into` (the output's first element; the rest stays as it was): x·y is not finite when x[k] is not.
  'dot into': { out: 'options.into', run: (y, n, k, p, o) => dot(vector(n, (i) => (i === k ? p : i)), vector(n, () => 0.5), { ...o, into: y.sub(span(0, 1)) } as never) },
  // A zero pivot at k: the unknown k, the first solved as ±∞ or NaN (upper triangle: solved last to first).
  trsv: { out: 'x', run: (x, n, k, _p, o) => trsv({ A: matrix(n, n, (i, j) => (i === j ? (i === k ? 0 : 2) : i < j ? 0.5 : 0)), x }, o as never) },
};

/** What the call must give on a backend: the element named where the JavaScript stores the output, the refusal elsewhere. */
function expected(c: Case, backend: typeof BACKENDS[number], arithmetic: Arithmetic, k: number): string {
  // DOT's WebAssembly result goes through the JavaScript's store into `into` (any storage): the same refusal.
  if (backend === 'wasm' && (arithmetic === 'ff' || c.out !== 'options.into')) return arithmetic === 'ff' ? 'INVALID_OPTION options.arithmetic' : `INVALID_FORMAT ${c.out}`;
  // The GPU refuses an RNS output in an IEEE arithmetic (DOT: an RNS `into` other than in an RNS arithmetic).
  if (backend === 'gpu') return arithmetic === 'f64' ? 'INVALID_OPTION options.arithmetic' : c.out === 'options.into' ? 'INVALID_OPTION options.into' : `INVALID_FORMAT ${c.out}`;
  return `INVALID_VALUE ${c.out}[${c.out === 'options.into' ? 0 : k}]`;
}

describe('IEEE arithmetic, RNS-stored output, a non-finite result', () => {
  it('INVALID_VALUE names the element, and the output\'s storage keeps every bit', () => {
    const values = fc.array(fc.double({ min: -64, max: 64, noNaN: true }), { minLength: 1, maxLength: 6 });
    fc.assert(fc.property(
      values, fc.nat(), fc.constantFrom(NaN, Infinity, -Infinity), fc.constantFrom(...Object.keys(CASES)),
      fc.constantFrom(...ARITHMETICS), fc.constantFrom(...BACKENDS),
      (ys, k0, poison, name, arithmetic, backend) => {
        const c = CASES[name]!, n = ys.length, k = k0 % n;
        const { parent, y } = output(ys, 'rns106');
        if (name === 'scal') y.set(k, 1e300);
        const before = bits(parent);
        const got = outcome(() => c.run(y, n, k, poison, { arithmetic: formats[arithmetic], backend }));
        expect({ name, arithmetic, backend, got: got.ok ? 'ok' : got.error }).toEqual({ name, arithmetic, backend, got: expected(c, backend, arithmetic, k) });
        expect(bits(parent)).toEqual(before);
      },
    ), { numRuns: 300 });
  });

  it('finite results still run on the CPU: fp64 and fp32 results stored exactly (as an fp64 output holds them)', () => {
    const values = fc.array(fc.double({ min: -64, max: 64, noNaN: true }), { minLength: 1, maxLength: 6 });
    fc.assert(fc.property(values, fc.constantFrom(...Object.keys(CASES)), fc.constantFrom('f64', 'f32'), fc.constantFrom('js', 'cpu'), (ys, name, arithmetic, backend) => {
      const c = CASES[name]!, n = ys.length;
      const rns = output(ys, 'rns106'), f64 = output(ys, 'f64');
      const o = { arithmetic: formats[arithmetic], backend };
      expect(outcome(() => c.run(rns.y, n, undefined, 0, o)).ok).toBe(true);
      c.run(f64.y, n, undefined, 0, o);
      expect(toArray(rns.parent)).toEqual(toArray(f64.parent));
    }), { numRuns: 100 });
  });
});
