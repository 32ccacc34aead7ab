/**
 * One rule for a raw double-double pair whose low part is ±∞ or NaN (written straight into dd or dd-split storage's
 * words, where no storage write checks it): the pair stands for hi + lo, so (1, NaN) is NaN, (1, −∞) is −∞ and
 * (∞, NaN) is NaN — the value a storage write of the same pair gives, (hi + lo, 0). The shared fixture of
 * test/dd/public-raw-pair-non-finite-lo.test.ts (CPU: 'js', 'wasm') and test/gpu/public-dd-raw-pair-non-finite-lo.test.ts:
 * each kernel runs once with the raw pair and once with (hi + lo, 0) in its place; the outcomes (results, output
 * vectors, or a typed error) must be the same strings.
 */
import fc from 'fast-check';
import { asum, axpy, dot, formats, gemv, ModprecError, nrm2, range, rowMajor, scal, toArray, trsv, type Range } from '../../src/index.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';

/** Where the raw pair sits: operand, and index (into x/y, or column-major into the n×n A). */
export interface RawPairCase {
  readonly n: number;
  readonly storage: 'dd' | 'dd-split';
  readonly operand: 'x' | 'y' | 'A';
  readonly at: number;
  readonly hi: number;
  readonly lo: number;
  readonly alpha: number;
  readonly beta: number;
  /** Ordinary values of x, y and A (column-major), before the raw pair replaces one. */
  readonly x: number[];
  readonly y: number[];
  readonly a: number[];
}

const HIGHS = [1, -3, 0, -0, 5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Infinity, -Infinity, NaN];
const LOWS = [NaN, Infinity, -Infinity];

/** Cases: n ≤ 3, the raw pair anywhere in x, y or A, ordinary values small integers (no special value of their own). */
export function rawPairCase(): fc.Arbitrary<RawPairCase> {
  const small = fc.integer({ min: -4, max: 4 }).filter((v) => v !== 0);
  return fc.integer({ min: 1, max: 3 }).chain((n) => fc.record({
    n: fc.constant(n),
    storage: fc.constantFrom<'dd' | 'dd-split'>('dd', 'dd-split'),
    operand: fc.constantFrom<'x' | 'y' | 'A'>('x', 'y', 'A'),
    at: fc.nat({ max: n * n - 1 }),
    hi: fc.constantFrom(...HIGHS), lo: fc.constantFrom(...LOWS),
    alpha: fc.constantFrom(2, -1), beta: fc.constantFrom(0, 1),
    x: fc.array(small, { minLength: n, maxLength: n }), y: fc.array(small, { minLength: n, maxLength: n }),
    a: fc.array(small, { minLength: n * n, maxLength: n * n }),
  }));
}

type Arithmetic = 'f64' | 'dd' | 'f32' | 'ff';
const ARITHMETIC = { f64: formats.f64, dd: formats.dd, f32: formats.f32, ff: formats.ff } as const;

/** A dd or dd-split range holding `pairs` as they are (raw words: no storage write, no normalisation). */
function rawRange(pairs: [number, number][], size: [number] | [number, number], c: RawPairCase, ar: Arithmetic): Range<any, any> {
  const data = c.storage === 'dd'
    ? Float64Array.from(pairs.flat())
    : new DdSplitArray({ hi: Float64Array.from(pairs, (p) => p[0]), lo: Float64Array.from(pairs, (p) => p[1]) });
  // A is column-major: element (i, j) at i + j·n, as the pairs are listed.
  const layout = size.length === 1 ? { size, strides: [1] } : { size, strides: [1, size[0]] };
  return range(rowMajor<any, any>({ ...layout, storage: c.storage, arithmetic: ARITHMETIC[ar], data } as never));
}

/** The case's operands, with the raw pair (`raw`) or its value as a storage write gives it, (hi + lo, 0). */
function operands(c: RawPairCase, ar: Arithmetic, raw: boolean): { x: Range<1, any>; y: Range<1, any>; A: Range<2, any> } {
  const pairsOf = (values: number[], name: 'x' | 'y' | 'A'): [number, number][] => values.map((v, i) => {
    if (name !== c.operand || i !== c.at % values.length) return [v, 0];
    return raw ? [c.hi, c.lo] : [c.hi + c.lo, 0];
  });
  return {
    x: rawRange(pairsOf(c.x, 'x'), [c.n], c, ar),
    y: rawRange(pairsOf(c.y, 'y'), [c.n], c, ar),
    A: rawRange(pairsOf(c.a, 'A'), [c.n, c.n], c, ar),
  };
}

const show = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));
const shown = (r: Range<1, any>): string => [...toArray(r)].map((v) => show(v as number)).join(',');
const valueOf = async (r: number | Promise<{ value: number }>): Promise<number> => (typeof r === 'number' ? r : (await r).value);

/** The kernels: each returns its outcome as a string (a result, or its output vector). */
export const RAW_PAIR_KERNELS: Record<string, (o: ReturnType<typeof operands>, c: RawPairCase, options: object) => Promise<string>> = {
  dot: async (o, _c, opt) => show(await valueOf(dot(o.x, o.y, opt as never))),
  nrm2: async (o, _c, opt) => show(await valueOf(nrm2(o.x, opt as never))),
  asum: async (o, _c, opt) => show(await valueOf(asum(o.x, opt as never))),
  scal: async (o, c, opt) => { await scal(c.alpha, o.x, opt as never); return shown(o.x); },
  axpy: async (o, c, opt) => { await axpy(c.alpha, o.x, o.y, opt as never); return shown(o.y); },
  gemvN: async (o, c, opt) => { await gemv({ alpha: c.alpha, A: o.A, x: o.x, beta: c.beta, y: o.y, trans: 'N' }, opt as never); return shown(o.y); },
  gemvT: async (o, c, opt) => { await gemv({ alpha: c.alpha, A: o.A, x: o.x, beta: c.beta, y: o.y, trans: 'T' }, opt as never); return shown(o.y); },
  trsvL: async (o, _c, opt) => { await trsv({ A: o.A, x: o.x, uplo: 'L' }, opt as never); return shown(o.x); },
  trsvU: async (o, _c, opt) => { await trsv({ A: o.A, x: o.x, uplo: 'U', trans: 'T' }, opt as never); return shown(o.x); },
};

/** Every kernel's outcome on the case, with the raw pair or with its stored value; a typed error is an outcome too. */
export async function outcomes(c: RawPairCase, ar: Arithmetic, options: object, raw: boolean): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, run] of Object.entries(RAW_PAIR_KERNELS)) {
    try {
      out[name] = await run(operands(c, ar, raw), c, options);
    } catch (e) {
      if (!(e instanceof ModprecError)) throw e;
      out[name] = `${e.code} ${e.parameter}`;
    }
  }
  return out;
}
