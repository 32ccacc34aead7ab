/**
 * GEMV through the public API with `backend: 'gpu'`: storage × arithmetic over shapes with several workgroups.
 * A in f32/f16/bf16/f64 or scaled (i8 one scale per row, i16 one per column, f16 one per element), x in
 * f32/f16/bf16/f64, y in f32/f16/bf16/f64 or scaled i16, arithmetic f32 or float-float (2 rows a thread; 16-bit A and
 * x take the exact-products form), m up to ~1500, n across the chunks, N and T, column- and row-major. The ranges
 * compute in f64 on the CPU side (so `get` reads stored × scale); the arithmetic is named in the options. Each yᵢ
 * against the exact rational result of the stored values (integers × their fp64 scales) within `gemvBound`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colMajor, formats, gemv, gemvBound, range, rowMajor, scaledReducedColMajor, scaledReducedRowMajor } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectSpanKept, expectWithin, exactSumOfProducts, makeVector, seededValues, storedVector } from './public-shapes-oracle.js';

type AStore = 'f32' | 'f16' | 'bf16' | 'f64' | 'i8-rows' | 'i16-cols' | 'f16-each';
type VStore = 'f32' | 'f16' | 'bf16' | 'f64';
type YStore = VStore | 'i16-each';
const F = { f32: formats.f32, f16: formats.f16, bf16: formats.bf16, f64: formats.f64 } as const;

interface Case {
  readonly m: number;
  readonly n: number;
  readonly trans: 'N' | 'T';
  readonly row: boolean;
  readonly a: AStore;
  readonly x: VStore;
  readonly y: YStore;
  readonly ff: boolean;
  readonly alpha: number;
  readonly beta: number;
  readonly seed: number;
}

/** Scales with few significant bits (stored × scale exact in fp64) that are not powers of two. */
const scaleOf = (k: number) => [3 / 256, 5 / 64, 0.75, 7 / 1024][k % 4]!;

/** The matrix and, per entry (column-major), the factors whose product is its value. */
function makeA(c: Case, values: Float64Array): { A: Range<2, any>; factors: (i: number, j: number) => number[] } {
  const { m, n } = c;
  const size: [number, number] = [m, n];
  let A: Range<2, any>;
  let scale: ((i: number, j: number) => number) | undefined;
  if (c.a === 'i8-rows' || c.a === 'i16-cols' || c.a === 'f16-each') {
    const mask: [boolean, boolean] = c.a === 'i8-rows' ? [true, false] : c.a === 'i16-cols' ? [false, true] : [true, true];
    const count = (mask[0] ? m : 1) * (mask[1] ? n : 1);
    // Values stay within about ±1: an i8 holds ±100 quanta of scale/128, an i16 ±30000 of scale/32768.
    const unit = c.a === 'i8-rows' ? 128 : c.a === 'i16-cols' ? 32768 : 1;
    const s = Float64Array.from({ length: count }, (_, k) => scaleOf(k) / unit);
    const storage = c.a === 'i8-rows' ? formats.i8 : c.a === 'i16-cols' ? formats.i16 : formats.f16;
    const make = c.row ? scaledReducedRowMajor : scaledReducedColMajor;
    A = range(make<2>({ size, storage, arithmetic: formats.f64, scaleMask: mask, scale: s } as never)) as Range<2, any>;
    // The accessor's own scale index decides; read it back rather than assume the order.
    scale = (i, j) => A.readScale(i, j);
  } else {
    const make = c.row ? rowMajor : colMajor;
    A = range(make<2>({ size, stride: c.row ? n + 1 : m + 2, storage: F[c.a], arithmetic: formats.f64 } as never)) as Range<2, any>;
  }
  // Integers of a scaled storage span ±127 / ±32767 quanta; values in [-1, 1) divided by the scale fill them.
  const amp = c.a === 'i8-rows' ? 100 : c.a === 'i16-cols' ? 30000 : 1;
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) A.set(i, j, values[i + j * m]! * (scale ? scale(i, j) * amp : 1));
  const factors = (i: number, j: number): number[] => {
    const v = A.get(i, j) as number;
    if (!scale) return [v];
    const s = scale(i, j);
    // stored × scale is exact in fp64 (≤ 16 + 10 significant bits), so v / s gives the stored value back.
    return c.a === 'f16-each' ? [v / s, s] : [Math.round(v / s), s];
  };
  return { A, factors };
}

async function runCase(c: Case): Promise<void> {
  const { m, n, trans } = c;
  const [rows, inner] = trans === 'N' ? [m, n] : [n, m];
  const { A, factors } = makeA(c, seededValues(m * n, c.seed));
  const x = makeVector(seededValues(inner, c.seed + 1), F[c.x], formats.f64, 1, 1);
  const y0 = c.beta === 0 ? new Float64Array(rows).fill(NaN) : seededValues(rows, c.seed + 2);
  let y: Range<1, any>;
  let yFactors: (i: number) => number[];
  let kept: (() => void) | undefined;
  if (c.y === 'i16-each') {
    // Quanta of 3/64 … 7/64: |y| ≤ 1500 fits ±32767 of them (the bounds assume no saturation).
    const s = Float64Array.from({ length: rows }, (_, k) => [3 / 64, 5 / 64, 1 / 8, 7 / 64][k % 4]!);
    y = range(scaledReducedColMajor<1>({ size: [rows], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true], scale: s } as never)) as Range<1, any>;
    for (let i = 0; i < rows; i++) y.set(i, Number.isNaN(y0[i]!) ? 0 : y0[i]!);
    yFactors = (i) => [Math.round((y.get(i) as number) / s[i]!), s[i]!];
  } else {
    const v = makeVector(y0, F[c.y], formats.f64, -1, 1);
    y = v.r;
    yFactors = (i) => [y.get(i) as number];
    kept = () => expectSpanKept(JSON.stringify(c), v);
  }
  const options = { arithmetic: c.ff ? formats.ff : formats.f32 };
  const args = { alpha: c.alpha, A, x: x.r, beta: c.beta, y, trans };
  const bound = gemvBound(args, options);
  const hx = storedVector(x.r);
  const yIn = Array.from({ length: rows }, (_, i) => yFactors(i));
  const aF: number[][] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) aF.push(factors(i, j));
  const report = await gemv(args, { backend: 'gpu', strict: true, ...options });
  expect(report.backend).toBe('gpu');
  kept?.();
  const got = storedVector(y);
  const what = JSON.stringify(c);
  for (let i = 0; i < rows; i++) {
    const terms: number[][] = [];
    if (c.alpha !== 0) for (let k = 0; k < inner; k++) terms.push([c.alpha, ...aF[trans === 'N' ? i + k * m : k + i * m]!, hx[k]!]);
    if (c.beta !== 0) terms.push([c.beta, ...yIn[i]!]);
    expectWithin(`${what} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
  }
}

const cases = fc.record({
  m: fc.constantFrom(1, 65, 257, 771, 1499),
  n: fc.constantFrom(1, 2, 9, 64, 97, 200),
  trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
  row: fc.boolean(),
  a: fc.constantFrom<AStore>('f32', 'f16', 'bf16', 'f64', 'i8-rows', 'i16-cols', 'f16-each'),
  x: fc.constantFrom<VStore>('f32', 'f16', 'bf16', 'f64'),
  y: fc.constantFrom<YStore>('f32', 'f16', 'bf16', 'f64', 'i16-each'),
  ff: fc.boolean(),
  alpha: fc.constantFrom(1, -0.75, 0, 2),
  beta: fc.constantFrom(0, 1, -0.5),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe('gemv, backend gpu: storage × arithmetic over several workgroups', () => {
  it('random storages, arithmetics and shapes', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(cases, runCase), { numRuns: 45 });
  });

  it('16-bit A and x in float-float (exact products), m = 1499, n = 200, N and T', async () => {
    await requireRuntime();
    for (const a of ['bf16', 'f16'] as const) for (const trans of ['N', 'T'] as const) {
      await runCase({ m: 1499, n: 200, trans, row: false, a, x: a, y: 'f32', ff: true, alpha: 1, beta: -0.5, seed: 3 });
    }
  });
});
