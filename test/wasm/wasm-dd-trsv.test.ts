/**
 * TRSV in double-double arithmetic in WebAssembly (issue 20), recursive and `dd` accumulations: the generated
 * JavaScript's stored parts bit for bit (a NaN part compared as NaN) over lower/upper, trans N/T, unit/non-unit,
 * every layout of A (row, column, padded strides, negative strides, sub-ranges inside NaN sentinels; f64, f32, f16,
 * bf16 and dd storage whose low parts count), x in f64, f32, dd, dd-split, fp16, bf16 and int16-scaled storage (strides,
 * negative too, sub-ranges; the last three stored through the JavaScript kernel's own store, int16 saturating past its
 * scale's room; int8/int32 and sizes 0: wasm-dd-trsv-stored-x.test.ts), sizes 1 to 19, zero pivots, NaN/±∞/±0/subnormal right-hand sides and entries of A near the top of the
 * range (Dekker's splitting overflows: the templates' guarded slow form); A scaled too — one scale (int8, int16), or
 * one per row or column (int16) — read as the JavaScript reads it (the pair (v, 0)·(s, 0)).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, formats, vector, matrix } from '../../src/index.js';
import { buildMatrix } from '../kernels/matrix-kernel-fixtures.js';
import { expectSameParts, rawParts } from './dd-output-fixtures.js';
import { expectWasmStoresJsParts, trsvCaseFields } from './trsv-dd-cases.js';

const trsvCase = fc.record({ accumulation: fc.constantFrom('recursive', 'dd'), ...trsvCaseFields });

describe('WebAssembly TRSV in double-double arithmetic', () => {
  it('the JavaScript kernel\'s stored parts, bit for bit', () => {
    fc.assert(fc.property(trsvCase, (c) => {
      // The automatic choice keeps it in JavaScript (slower row-major and at small n), saying why; backend 'wasm' runs it.
      expectWasmStoresJsParts(c, { arithmetic: formats.dd, accumulation: c.accumulation }, /^options.arithmetic: TRSV in double-double runs a column per WebAssembly call/);
    }), { numRuns: 400 });
  });

  it('a larger system solved through several staged pieces of a column gives the JavaScript\'s bits', () => {
    const n = 4100 + 37;
    for (const [accumulation, uplo] of [['dd', 'L'], ['recursive', 'U']] as const) {
      // Only the first columns carry entries: the solve stays short, every row's sum still spans pieces of 4096 rows.
      const A = matrix(n, n, (i, j) => (i === j ? 1.5 + (i % 7) / 8 : (uplo === 'L' ? j < 3 : j > n - 4) ? Math.sin(i + 3 * j) / 8 : 0), { storage: formats.f64 });
      const b = Array.from({ length: n }, (_, i) => Math.cos(i));
      const x = vector(b, { storage: formats.dd }), xjs = vector(b, { storage: formats.dd });
      trsv({ A, x, uplo, trans: 'N', diag: 'N' }, { arithmetic: formats.dd, accumulation, backend: 'wasm' });
      trsv({ A, x: xjs, uplo, trans: 'N', diag: 'N' }, { arithmetic: formats.dd, accumulation, backend: 'js' });
      expectSameParts(rawParts(x), rawParts(xjs), `n = ${n}, ${accumulation}, ${uplo}`);
    }
  });

  it('a scaled A (one scale, one per row or column) is no longer refused: the JavaScript\'s parts, bit for bit', () => {
    for (const scaleRows of [true, false]) {
      const scaled = buildMatrix({ storage: 'i16s', layout: scaleRows ? 'row' : 'col', sub: false, scaleRows }, 3, 3, (i, j) => (i === j ? 2 + i : 0.5 - j / 3));
      for (const accumulation of ['recursive', 'dd'] as const) {
        const x = vector([1, -0, 1 / 3], { storage: formats.dd }), xjs = vector([1, -0, 1 / 3], { storage: formats.dd });
        trsv({ A: scaled, x, uplo: 'L' }, { arithmetic: formats.dd, accumulation, backend: 'wasm' });
        trsv({ A: scaled, x: xjs, uplo: 'L' }, { arithmetic: formats.dd, accumulation, backend: 'js' });
        expectSameParts(rawParts(x), rawParts(xjs), `scaled per ${scaleRows ? 'row' : 'column'}, ${accumulation}`);
      }
    }
  });
});
