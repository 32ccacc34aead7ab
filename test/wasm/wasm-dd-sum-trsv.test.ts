/**
 * TRSV in fp64 arithmetic with the `dd` accumulation in WebAssembly (issue 20): the generated JavaScript's stored
 * values bit for bit (a NaN compared as NaN) over lower/upper, trans N/T, unit/non-unit, every layout of A (row,
 * column, padded strides, negative strides, sub-ranges inside NaN sentinels; f64, f32, f16, bf16 and dd storage, read
 * as hi + lo), x in f64, f32, dd, dd-split, fp16, bf16 and int16-scaled storage (strides, negative too, sub-ranges; more
 * scaled and integer x: wasm-trsv-stored-x.test.ts, wasm-dd-trsv-stored-x.test.ts), sizes 1 to 19, zero pivots, NaN/±∞/±0/subnormal right-hand sides and entries of A near
 * the top of the range (Dekker's splitting overflows: the templates' guarded slow form); a system long enough that
 * each column is staged in pieces; A scaled too — one scale (int8, int16), or one per row or column (int16) — read as
 * the JavaScript reads it (the double fl(v·s)).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, formats, vector, matrix } from '../../src/index.js';
import { buildMatrix } from '../kernels/matrix-kernel-fixtures.js';
import { expectSameParts } from './dd-output-fixtures.js';
import { expectWasmStoresJsParts, trsvCaseFields } from './trsv-dd-cases.js';

const OPTIONS = { arithmetic: formats.f64, accumulation: 'dd' } as const;

const trsvCase = fc.record(trsvCaseFields);

describe('WebAssembly TRSV in fp64 arithmetic with the dd accumulation', () => {
  it("the JavaScript kernel's stored values, bit for bit", () => {
    fc.assert(fc.property(trsvCase, (c) => {
      // The automatic choice keeps it in JavaScript (slower where op(A)'s rows are contiguous), saying why.
      expectWasmStoresJsParts(c, OPTIONS, /^options.accumulation: TRSV with the dd accumulation runs a column per WebAssembly call/);
    }), { numRuns: 400 });
  });

  it("a larger system solved through several staged pieces of a column gives the JavaScript's bits", () => {
    const n = 4100 + 37;
    for (const [uplo, trans] of [['U', 'T']] as const) {
      // Only a few columns of op(A) carry entries: the solve stays short, every row's sum still spans pieces of 4096 rows.
      const lower = (uplo === 'L') !== (trans === 'T');
      const A = matrix(n, n, (i, j) => {
        const [r, k] = trans === 'N' ? [i, j] : [j, i];
        return r === k ? 1.5 + (r % 7) / 8 : (lower ? k < 3 : k > n - 4) ? Math.sin(r + 3 * k) / 8 : 0;
      }, { storage: formats.f64 });
      const b = Array.from({ length: n }, (_, i) => Math.cos(i));
      const x = vector(b), xjs = vector(b);
      trsv({ A, x, uplo, trans, diag: 'N' }, { ...OPTIONS, backend: 'wasm' });
      trsv({ A, x: xjs, uplo, trans, diag: 'N' }, { ...OPTIONS, backend: 'js' });
      expectSameParts([...(x.accessor.data as Float64Array)], [...(xjs.accessor.data as Float64Array)], `n = ${n}, ${uplo}${trans}`);
    }
  });

  it("a row whose rounding depends on which chain takes each term: the JavaScript's two chains, not one", () => {
    // Row 3 sums b = 1 + 3·2^-52 and three products near a tie of binary64: one chain (b, t₀x₀, t₁x₁, t₂x₂) rounds to
    // 1 + 2^-51, the kernel's two chains ((b, t₁x₁) and (t₀x₀, t₂x₂), joined) to 1 + 3·2^-52 (found by a search
    // over such rows with the guarded templates). Rows 0–2 solve to x = (1, 1.75, 1.375).
    const t = [1.1102230246251565e-16, 7.094542995096796e-34, -7.510892350675075e-33], xs = [1, 1.75, 1.375, 1.0000000000000007];
    for (const layout of ['col-major', 'row-major'] as const) {
      const A = matrix(4, 4, (i, j) => (i === j ? 1 : i === 3 && j < 3 ? t[j]! : 0), { layout });
      const x = vector(xs), xjs = vector(xs);
      trsv({ A, x, uplo: 'L' }, { ...OPTIONS, backend: 'wasm' });
      trsv({ A, x: xjs, uplo: 'L' }, { ...OPTIONS, backend: 'js' });
      expect([x.get(3), xjs.get(3)]).toEqual([1 + 3 * 2 ** -52, 1 + 3 * 2 ** -52]);
      expect(x.get(2)).toBe(1.375);
    }
  });

  it('a scaled A (one per row or column) is no longer refused: the JavaScript\'s values, bit for bit', () => {
    for (const scaleRows of [true, false]) {
      const scaled = buildMatrix({ storage: 'i16s', layout: scaleRows ? 'row' : 'col', sub: false, scaleRows }, 3, 3, (i, j) => (i === j ? 2 + i : 0.5 - j / 3));
      const x = vector([1, -0, 1 / 3]), xjs = vector([1, -0, 1 / 3]);
      trsv({ A: scaled, x, uplo: 'U', trans: 'T' }, { ...OPTIONS, backend: 'wasm' });
      trsv({ A: scaled, x: xjs, uplo: 'U', trans: 'T' }, { ...OPTIONS, backend: 'js' });
      expectSameParts([...(x.accessor.data as Float64Array)], [...(xjs.accessor.data as Float64Array)], `scaled per ${scaleRows ? 'row' : 'column'}`);
    }
  });
});
