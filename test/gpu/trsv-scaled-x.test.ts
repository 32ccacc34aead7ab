/**
 * TRSV with x in a scaled integer storage (i8, i16 with fp64 scales): the CPU stores each x_j — value/scale rounded
 * once to the nearest integer, saturated, NaN → 0 — before later rows read it back, so a row that saturates or
 * divides by a zero pivot reaches the later rows as its stored value. The GPU follows the same rule: it rounds x_j to
 * the storage between rows in its substitution. With power-of-two scales and entries of few bits every operation of
 * both backends is exact, so the stored integers must be the CPU's bit for bit — saturation, ±∞ and NaN rows included. x
 * may be a strided view among sentinels: the GPU solves it in place (b read through its scales, the integers stored
 * into its span by the scaled store), and every other element keeps its value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colMajor, formats, range, rowMajor, scaledReducedRowMajor, trsv, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const ARITHMETICS = { f32: formats.f32, ff: formats.ff } as const;

interface Case {
  readonly n: number; readonly storage: 'i8' | 'i16'; readonly perElement: boolean; readonly exponents: number[];
  readonly stored: number[]; readonly offDiagonal: number[]; readonly diagonal: number[];
  readonly uplo: 'U' | 'L'; readonly trans: 'N' | 'T'; readonly diag: 'N' | 'U'; readonly layout: 'col' | 'row';
  readonly arithmetic: keyof typeof ARITHMETICS; readonly blockSize: 64 | 128;
  /** x's stride and the elements before and after it in its storage (sentinels the solve must leave alone). */
  readonly stride: number; readonly pad: number;
}

/**
 * Off-diagonal entries k/2 (|k| ≤ 4), pivots 0, ±½, ±1, ±2, scales 2^e (e ∈ [−2, 0]) and at most 6 rows: every product
 * t·x is a multiple of 2^-3 below 2^17 and every row sum fits 24 bits, so nothing rounds but the stores.
 */
const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  n: fc.integer({ min: 1, max: 6 }), storage: fc.constantFrom<'i8' | 'i16'>('i8', 'i16'), perElement: fc.boolean(),
  uplo: fc.constantFrom<'U' | 'L'>('U', 'L'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), diag: fc.constantFrom<'N' | 'U'>('N', 'N', 'U'),
  layout: fc.constantFrom<'col' | 'row'>('col', 'row'), arithmetic: fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), blockSize: fc.constantFrom<64 | 128>(64, 128),
  stride: fc.constantFrom(1, 1, -1, 2, -3), pad: fc.integer({ min: 0, max: 3 }),
}).chain((c) => {
  const top = c.storage === 'i8' ? 127 : 32767;
  const stored = fc.oneof(fc.integer({ min: -top - 1, max: top }), fc.constantFrom(0, 1, -1, top, -top - 1));
  return fc.record({
    exponents: fc.array(fc.integer({ min: -2, max: 0 }), { minLength: c.n, maxLength: c.n }),
    stored: fc.array(stored, { minLength: c.n, maxLength: c.n }),
    offDiagonal: fc.array(fc.integer({ min: -4, max: 4 }).map((k) => k / 2), { minLength: c.n * c.n, maxLength: c.n * c.n }),
    diagonal: fc.array(fc.constantFrom(0, 0.5, -0.5, 1, -1, 2, -2), { minLength: c.n, maxLength: c.n }),
  }).map((v) => ({ ...c, ...v }));
});

/**
 * x: the case's stored integers with its scales (one for the whole vector, or one per element), at its stride in an
 * array of sentinels (−7 − k mod 50).
 */
function scaledX(c: Case): Range<1, any> {
  const scale = c.perElement ? Float64Array.from(c.exponents, (e) => 2 ** e) : Float64Array.of(2 ** c.exponents[0]!);
  const offset = c.pad + (c.stride < 0 ? -c.stride * (c.n - 1) : 0);
  const size = offset + (c.stride > 0 ? c.stride * (c.n - 1) : 0) + 1 + c.pad;
  const data = (c.storage === 'i8' ? Int8Array : Int16Array).from({ length: size }, (_, k) => -7 - (k % 50));
  const x = range(scaledReducedRowMajor<1>({ size: [c.n], storage: formats[c.storage], arithmetic: ARITHMETICS[c.arithmetic], scaleMask: [c.perElement], scale, stride: c.stride, offset, data }));
  c.stored.forEach((q, i) => { data[offset + i * c.stride] = q; });
  return x;
}

function matrixOf(c: Case): Range<2, any> {
  const A = range((c.layout === 'col' ? colMajor<2> : rowMajor<2>)({ size: [c.n, c.n], storage: formats.f64, arithmetic: ARITHMETICS[c.arithmetic] }));
  for (let i = 0; i < c.n; i++) for (let j = 0; j < c.n; j++) A.set(i, j, i === j ? c.diagonal[i]! : c.offDiagonal[i * c.n + j]!);
  return A;
}

async function solve(c: Case, backend: 'cpu' | 'gpu'): Promise<number[]> {
  const x = scaledX(c);
  const options = backend === 'gpu' ? { backend: 'gpu', arithmetic: ARITHMETICS[c.arithmetic], strict: true, blockSize: c.blockSize } : { arithmetic: ARITHMETICS[c.arithmetic] };
  await trsv({ A: matrixOf(c), x, uplo: c.uplo, trans: c.trans, diag: c.diag }, options as never);
  return [...(x.accessor.data as Int8Array | Int16Array)];
}

describe('TRSV with a scaled integer x: each x_j rounded to its storage before later rows read it, on the GPU as on the CPU', () => {
  it('saturation and a zero pivot: 5×5 upper, x in i16 with scale 2^-8 (regression: the GPU gave [0, −128, …])', async () => {
    await requireRuntime();
    const base = { n: 5, storage: 'i16', perElement: false, exponents: [-8, -8, -8, -8, -8], uplo: 'U', trans: 'N', diag: 'N', layout: 'col', blockSize: 128, stride: 1, pad: 0 } as const;
    const offDiagonal = Array.from({ length: 25 }, (_, q) => (Math.floor(q / 5) < q % 5 ? 0.5 : 0));
    for (const arithmetic of ['f32', 'ff'] as const) {
      const c: Case = { ...base, exponents: [...base.exponents], arithmetic, offDiagonal, diagonal: [2, 2, 0, 2, 2], stored: [1, -2, 3, 0.5, 4].map((v) => v * 256) };
      const want = [-23.578125, -33.4375, 127.99609375, -0.25, 2].map((v) => v * 256);
      expect(await solve(c, 'cpu'), `CPU ${arithmetic}`).toEqual(want);
      expect(await solve(c, 'gpu'), `GPU ${arithmetic}`).toEqual(want);
    }
  });

  it('random systems with saturating rows, zero pivots (±∞ and 0/0 rows stored saturated or 0), both triangles, transposed, unit diagonal, x at strides ±1, 2, −3 among sentinels (solved in place): the CPU integers, the sentinels kept', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(caseArbitrary, async (c) => {
      expect(await solve(c, 'gpu'), JSON.stringify(c)).toEqual(await solve(c, 'cpu'));
    }), { numRuns: 30 });
  });

  it('fp64 scales that are not binary32 (0.1, 1/3, 53-bit): x_j is rounded by its exact scale between rows, not by a binary32 stand-in (regression: with scale 0.1 the GPU stored [5, 0], the CPU [4, 1])', async () => {
    await requireRuntime();
    // x₁ = (1·0.1)/2 in f32 is 0.05000000074…: the exact quotient by 0.1 is just above ½ (stored 1), by fround(0.1)
    // exactly ½ (stored 0, the even); row 0 then reads x₁ back: 0.5 − 0.1 = 0.4 → 4, not 0.5 → 5.
    for (const arithmetic of [formats.f32, formats.ff]) {
      const run = async (backend: 'cpu' | 'gpu') => {
        const A = range(colMajor<2>({ size: [2, 2], storage: formats.f64, arithmetic }));
        A.set(0, 0, 1); A.set(0, 1, 1); A.set(1, 1, 2);
        const data = new Int16Array([5, 1]);
        const x = range(scaledReducedRowMajor<1>({ size: [2], storage: formats.i16, arithmetic, scaleMask: [true], scale: Float64Array.of(0.1, 0.1), data }));
        if (backend === 'cpu') trsv({ A, x, uplo: 'U' }, { arithmetic });
        else await trsv({ A, x, uplo: 'U' }, { arithmetic, backend: 'gpu', strict: true });
        return [...data];
      };
      expect(await run('gpu'), arithmetic.name).toEqual(await run('cpu'));
    }
    expect(await (async () => {
      const data = new Int16Array([5, 1]);
      const A = range(colMajor<2>({ size: [2, 2], storage: formats.f64, arithmetic: formats.f32 }));
      A.set(0, 0, 1); A.set(0, 1, 1); A.set(1, 1, 2);
      trsv({ A, x: range(scaledReducedRowMajor<1>({ size: [2], storage: formats.i16, arithmetic: formats.f32, scaleMask: [true], scale: Float64Array.of(0.1, 0.1), data })), uplo: 'U' }, { arithmetic: formats.f32 });
      return [...data];
    })()).toEqual([4, 1]);
    // Diagonal systems (each x_j = stored·s / d on its own, d a power of two: exact in both arithmetics, no sum whose
    // order could differ): every stored integer the CPU's for random fp64 scales and near-ties of them.
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.constantFrom<'i8' | 'i16'>('i8', 'i16'), fc.constantFrom<'f32' | 'ff'>('f32', 'ff'), fc.integer(), async (n, storage, ar, seed) => {
      let s = seed >>> 0 || 1;
      const r = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 2 ** 32; };
      const top = storage === 'i8' ? 127 : 32767;
      const scale = Float64Array.from({ length: n }, () => (r() < 0.3 ? -1 : 1) * [0.1, 1 / 3, 1 + r()][Math.floor(r() * 3)]! * 2 ** (Math.floor(r() * 20) - 10));
      const stored = Array.from({ length: n }, () => Math.floor(r() * 2 * top) - top);
      const diagonal = Array.from({ length: n }, () => [1, 2, 4, 0.5][Math.floor(r() * 4)]!);
      const arithmetic = ARITHMETICS[ar];
      const run = async (backend: 'cpu' | 'gpu') => {
        const A = range(colMajor<2>({ size: [n, n], storage: formats.f64, arithmetic }));
        diagonal.forEach((d, i) => A.set(i, i, d));
        const x = range(scaledReducedRowMajor<1>({ size: [n], storage: formats[storage], arithmetic, scaleMask: [true], scale }));
        stored.forEach((q, i) => { (x.accessor.data as Int16Array)[i] = q; });
        if (backend === 'cpu') trsv({ A, x, uplo: 'L' }, { arithmetic });
        else await trsv({ A, x, uplo: 'L' }, { arithmetic, backend: 'gpu', strict: true });
        return [...(x.accessor.data as Int16Array)];
      };
      expect(await run('gpu')).toEqual(await run('cpu'));
    }), { numRuns: 20 });
  });
});
