/**
 * WebAssembly TRSV in double-double arithmetic (and fp64 with the `dd` accumulation) into an x it does not store
 * itself (issue 20), the cases the shared property (test/wasm/trsv-dd-cases.ts: fp16, bf16 and int16-scaled x) does
 * not reach: rows whose storage rounding is decided by the low part of a read-back scaled xⱼ (the JavaScript kernel
 * reads raw·scale as a double-double), int8 and int32 with one scale and unscaled int32 (saturating stores, NaN and ∞
 * from zero pivots), a dd or dd-split x with one scale, and sizes 0 and 1 — the JavaScript's stored values bit for bit.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, cpuBackendOf, formats, matrix, range, rowMajor, span, type Range } from '../../src/index.js';
import { scaledReducedRowMajor } from '../../accessors/scaled-reduced.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { expectSameParts } from './dd-output-fixtures.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';

const NUMERICS = {
  'dd': { arithmetic: formats.dd },
  'dd, dd accumulation': { arithmetic: formats.dd, accumulation: 'dd' },
  'f64, dd accumulation': { arithmetic: formats.f64, accumulation: 'dd' },
} as const;
type NumericsName = keyof typeof NUMERICS;

/** Every element of x's buffer decoded (sentinels included; a dd element as hi and lo), then its scales. */
function stored(x: Range<1, any>): number[] {
  const a = x.accessor, data = a.data as ArrayLike<number> | DdSplitArray;
  const count = data instanceof DdSplitArray ? data.hi.length : a.storage.kind === 'dd' ? data.length / 2 : data.length;
  const values = Array.from({ length: count }, (_, k) => a.storage.decode(data as never, k) as number | { hi: number; lo: number })
    .flatMap((v) => (typeof v === 'number' ? [v] : [v.hi, v.lo]));
  return [...values, ...(a.scale ? [...a.scale.data] : [])];
}

/** A vector in `storage` (with one scale `scale`, if given) holding `values`, stride `stride`, inside sentinels where `sub`. */
function xIn(storage: 'i8' | 'i16' | 'i32' | 'dd' | 'ddSplit', scale: number | undefined, values: readonly number[], stride = 1, sub = false): Range<1, any> {
  const N = sub ? values.length + 3 : values.length;
  const common = { size: [N] as const, storage: formats[storage], arithmetic: formats.f64, stride };
  const parent = scale === undefined ? rowMajor<1, any>(common) : scaledReducedRowMajor<1, any>({ ...common, scaleMask: [false] });
  if (scale !== undefined && N > 0) parent.writeScale(0, scale);
  for (let k = 0; k < N; k++) parent.set(k, storage === 'dd' || storage === 'ddSplit' ? NaN : 7);
  const x = sub ? parent.sub(span(1, 1 + values.length)) : parent;
  values.forEach((v, i) => x.set(i, v));
  return range(x);
}

/** Solves with backend 'wasm' (accepted, not refused) and 'js' on copies and expects the same stored values; returns x. */
function expectJsBits(A: Range<2, any>, make: () => Range<1, any>, uplo: 'L' | 'U', trans: 'N' | 'T', diag: 'N' | 'U', numerics: NumericsName): Range<1, any> {
  const options = NUMERICS[numerics], x = make(), xjs = make();
  expect(cpuBackendOf('trsv', { A, x }, { ...options, backend: 'wasm' }, ['x']).backend).toBe('wasm');
  trsv({ A, x, uplo, trans, diag }, { ...options, backend: 'wasm' });
  trsv({ A, x: xjs, uplo, trans, diag }, { ...options, backend: 'js' });
  expectSameParts(stored(x), stored(xjs), `${numerics}, ${x.accessor.storage.name}, ${uplo}${trans}${diag}`);
  return x;
}

describe('WebAssembly dd TRSV into integer and scaled x', () => {
  it("a read-back xⱼ's low part decides the next row's rounding to the scaled storage", () => {
    // x₀ = k·s is read as the double-double k·s (s = 0.1 has a full significand: the product has a low part), and
    // x₁ = (m·s + x₀/2)/s lands on m + k/2, a tie for odd k, rounded as the exact double-double sum says.
    for (const numerics of ['dd', 'dd, dd accumulation'] as const) {
      for (let k = 1; k < 120; k += 2) {
        for (const layout of ['col-major', 'row-major'] as const) {
          const A = matrix(2, 2, (i, j) => (i === 1 && j === 0 ? -0.5 : i === j ? 1 : 0), { layout });
          expectJsBits(A, () => xIn('i16', 0.1, [k * 0.1, 3 * 0.1]), 'L', 'N', 'U', numerics);
          expectJsBits(matrix(2, 2, (i, j) => (i === 0 && j === 1 ? -0.5 : i === j ? 1 : 0), { layout }), () => xIn('i16', 0.1, [3 * 0.1, k * 0.1]), 'U', 'N', 'U', numerics);
        }
      }
    }
  });

  it('int8 and int32 with one scale, unscaled int32 and a dd or dd-split x with one scale: saturating stores, NaN and ∞ from zero pivots', () => {
    const intCase = fc.record({
      storage: fc.constantFrom('i8' as const, 'i32' as const, 'dd' as const, 'ddSplit' as const), scaled: fc.boolean(), numerics: fc.constantFrom<NumericsName>('dd', 'dd, dd accumulation', 'f64, dd accumulation'),
      n: fc.integer({ min: 1, max: 12 }), uplo: fc.constantFrom('L' as const, 'U' as const), trans: fc.constantFrom('N' as const, 'T' as const),
      diag: fc.constantFrom('N' as const, 'U' as const), layout: fc.constantFrom('col-major' as const, 'row-major' as const),
      stride: fc.constantFrom(1, -2), sub: fc.boolean(), big: fc.boolean(), zeroPivot: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    let saturated = 0;
    fc.assert(fc.property(intCase, (c) => {
      const random = seededRandom(c.seed);
      const pivot = c.zeroPivot ? random.nextUint32() % c.n : -1;
      // Large off-diagonals (where `big`) grow the solution past int8's range under its scale: the store saturates.
      const A = matrix(c.n, c.n, (i, j) => (i === j ? (i === pivot ? 0 : 0.5 + random.nextDouble()) : (random.nextDouble() - 0.5) * (c.big ? 4 : 1 / c.n)), { layout: c.layout });
      const scale = !c.scaled ? undefined : c.storage === 'i8' ? 2 / 100 : c.storage === 'i32' ? 2 / 2 ** 30 : 0.1;
      const b = Array.from({ length: c.n }, () => (scale === undefined && (c.storage === 'i8' || c.storage === 'i32') ? Math.round((random.nextDouble() * 2 - 1) * 100) : random.nextDouble() * 2 - 1));
      const x = expectJsBits(A, () => xIn(c.storage, scale, b, c.stride, c.sub), c.uplo, c.trans, c.diag, c.numerics);
      if (c.storage === 'i8' && Array.from(x.accessor.data as Int8Array).some((v) => v === 127 || v === -128)) saturated++;
    }), { numRuns: 300 });
    // The saturating store was reached, not only drawn.
    expect(saturated).toBeGreaterThan(0);
  });

  it('sizes 0 and 1', () => {
    for (const numerics of Object.keys(NUMERICS) as NumericsName[]) {
      expectJsBits(matrix(0, 0, () => 0), () => xIn('i16', 0.1, []), 'L', 'N', 'N', numerics);
      for (const [a, v] of [[3, 1.7], [0, 1.7], [0, 0], [-0, -0.3], [2 ** -1000, 1.7]] as const) {
        for (const diag of ['N', 'U'] as const) {
          expectJsBits(matrix(1, 1, () => a), () => xIn('i16', 0.1, [v], 1, true), 'U', 'N', diag, numerics);
          expectJsBits(matrix(1, 1, () => a), () => xIn('i8', undefined, [Math.round(v * 10)]), 'L', 'T', diag, numerics);
        }
      }
    }
  });
});
