/**
 * The nine kernels on operands drawn from the special values (±0, ±∞, NaN, ±MAX, subnormals, ordinary numbers), in
 * a chosen arithmetic, storage and backend, each outcome as strings that tell ±0 and NaN apart: the shared fixture
 * of the double-double / float-float special-value tests (test/dd/dd-special-values.test.ts on the CPU backends,
 * test/gpu/dd-ff-special-values.test.ts on the GPU).
 */
import fc from 'fast-check';
import { dot, gemv, trsv, ellSpmv, axpy, waxpby, scal, nrm2, asum, vector, matrix, toArray, ellMatrix, formats, type Range } from '../../src/index.js';

/** The values the operands are drawn from: ordinary ones small beside MAX, so no sum of them is near a rounding tie at the top. */
export const SPECIAL_VALUES = [0, -0, Infinity, -Infinity, NaN, Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324, -5e-324, 2 ** -1050, -(2 ** -1022), 1, -1, 0.5, -3, 0.1, 7] as const;

/** binary32 values: ordinary ones small beside MAX32; binary32 subnormals (ff reads flush them to a signed zero, as the GPU does: the finite values may then differ, not the special ones). */
export const F32_VALUES = [0, -0, Infinity, -Infinity, NaN, 3.4028234663852886e38, -3.4028234663852886e38, 1e-40, -(2 ** -149), 2 ** -126, 1, -1, 0.5, -3, 0.1, 7];
export const F32_COEFFICIENTS = [0, -0, 1, -1, 2, 0.5, -3, Infinity, -Infinity, NaN, 1e30];

/** Operands of one case: vectors of length n, an n×n matrix, coefficients. */
export interface SpecialCase { readonly n: number; readonly x: number[]; readonly y: number[]; readonly a: number[]; readonly alpha: number; readonly beta: number; readonly upper: boolean }

/** The coefficients α, β are drawn from (1e300 overflows a product). */
export const SPECIAL_COEFFICIENTS = [0, -0, 1, -1, 2, 0.5, -3, Infinity, -Infinity, NaN, 1e300] as const;

/** A case with operands from `values` and coefficients from `coefficients`. */
export function specialCase(values: readonly number[] = SPECIAL_VALUES, coefficients: readonly number[] = SPECIAL_COEFFICIENTS): fc.Arbitrary<SpecialCase> {
  const v = fc.constantFrom(...values);
  const k = fc.constantFrom(...coefficients);
  return fc.integer({ min: 1, max: 3 }).chain((n) => fc.record({
    n: fc.constant(n),
    x: fc.array(v, { minLength: n, maxLength: n }), y: fc.array(v, { minLength: n, maxLength: n }),
    a: fc.array(v, { minLength: n * n, maxLength: n * n }),
    alpha: k,
    beta: k,
    upper: fc.boolean(),
  }));
}

/** How operands are stored and computed: the arithmetic, and fp64 or dd storage. */
export interface Setting { readonly arithmetic: 'f64' | 'dd' | 'f32' | 'ff'; readonly storage: 'f64' | 'dd' | 'f32' }

const storageOf = { f64: formats.f64, dd: formats.dd, f32: formats.f32 } as const;
const arithmeticOf = { f64: formats.f64, dd: formats.dd, f32: formats.f32, ff: formats.ff } as const;

/** A value as a string: −0 and NaN told apart. */
export const show = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));

function vec(values: readonly number[], s: Setting): Range<1, any> {
  return vector(values, { storage: storageOf[s.storage], arithmetic: arithmeticOf[s.arithmetic] } as never);
}
function mat(c: SpecialCase, s: Setting): Range<2, any> {
  return matrix(c.n, c.n, (i, j) => c.a[i * c.n + j]!, { storage: storageOf[s.storage], arithmetic: arithmeticOf[s.arithmetic] } as never);
}
const values = (r: Range<1, any>): string[] => [...toArray(r)].map((v) => show(v as number));

/** The kernels by name: each runs on the case's operands and returns its outcome (a result, or the output vector). */
export const SPECIAL_KERNELS: Record<string, (c: SpecialCase, s: Setting, options: object) => Promise<string[]>> = {
  dot: async (c, s, o) => [show(await value(dot(vec(c.x, s), vec(c.y, s), o as never)))],
  nrm2: async (c, s, o) => [show(await value(nrm2(vec(c.x, s), o as never)))],
  asum: async (c, s, o) => [show(await value(asum(vec(c.x, s), o as never)))],
  scal: async (c, s, o) => { const x = vec(c.x, s); await scal(c.alpha, x, o as never); return values(x); },
  axpy: async (c, s, o) => { const y = vec(c.y, s); await axpy(c.alpha, vec(c.x, s), y, o as never); return values(y); },
  waxpby: async (c, s, o) => { const w = vec(c.x.map(() => 5), s); await waxpby(c.alpha, vec(c.x, s), c.beta, vec(c.y, s), w, o as never); return values(w); },
  gemvN: async (c, s, o) => { const y = vec(c.y, s); await gemv({ alpha: c.alpha, A: mat(c, s), x: vec(c.x, s), beta: c.beta, y, trans: 'N' }, o as never); return values(y); },
  gemvT: async (c, s, o) => { const y = vec(c.y, s); await gemv({ alpha: c.alpha, A: mat(c, s), x: vec(c.x, s), beta: c.beta, y, trans: 'T' }, o as never); return values(y); },
  trsv: async (c, s, o) => {
    // Pivots that are finite and not powers of two become 2, so every quotient of finite values is exact: a residual
    // then cancels to zero in both precisions or in neither, and x/0 is ±∞ (or NaN for 0/0) in both — with a pivot
    // 0.1 the more precise arithmetic leaves a residual −2^-27 where binary32's is 0, and −∞ against NaN follows.
    const pivot = (v: number) => (Number.isFinite(v) && v !== 0 && Math.log2(Math.abs(v)) % 1 !== 0 ? 2 : v);
    const A = mat({ ...c, a: c.a.map((v, k) => (k % (c.n + 1) === 0 ? pivot(v) : v)) }, s);
    const x = vec(c.x, s);
    await trsv({ A, x, uplo: c.upper ? 'U' : 'L' }, o as never);
    return values(x);
  },
  ellSpmv: async (c, s, o) => {
    // Row i holds A's row i in ELL form (every entry stored), values in fp64.
    const values64 = new Float64Array(c.n * c.n), cols = new Int32Array(c.n * c.n);
    for (let i = 0; i < c.n; i++) for (let k = 0; k < c.n; k++) { values64[i + k * c.n] = c.a[i * c.n + k]!; cols[i + k * c.n] = k; }
    const A = ellMatrix({ rows: c.n, cols: c.n, width: c.n, stride: c.n, colIndex: cols, values: values64 });
    const y = vec(c.y, s);
    await ellSpmv({ alpha: c.alpha, A, x: vec(c.x, s), beta: c.beta, y }, o as never);
    return values(y);
  },
};

async function value(r: number | Promise<{ value: number }>): Promise<number> {
  return typeof r === 'number' ? r : (await r).value;
}

/**
 * Whether two outcomes have the same special values: where either is NaN or ±∞ both are that value, and where both
 * are zeros they are the same zero. Finite non-zero values may differ (a double-double result is more accurate than
 * fp64's: [MAX, 1, −MAX] sums to 0 in fp64 and to 1 in double-double).
 */
export function sameSpecials(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const special = (v: string) => v === 'NaN' || v === 'Infinity' || v === '-Infinity';
  const zero = (v: string) => v === '0' || v === '-0';
  return a.every((u, i) => {
    const v = b[i]!;
    if (special(u) || special(v)) return u === v;
    if (zero(u) && zero(v)) return u === v;
    return true;
  });
}
