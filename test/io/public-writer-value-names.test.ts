/**
 * writeMatrixMarket names the value it cannot write. A symmetric file is written from the summed lower triangle and a
 * dense matrix's coordinate file from its nonzeros, and the error named `matrix.values[t]` with t counted in those
 * converted arrays: for the symmetric CSR matrix [[1, 7, 0.5], [7, 2, 0], [0.5, 0, 3]] with field 'integer' it named
 * matrix.values[3] — the user's values[3] is the 7 at (1, 0); the 0.5 written at (2, 0) is entry 3 of the lower
 * triangle — and for a dense input `matrix.values[0]`, an array a dense matrix does not have. Such values are now
 * named by position, `matrix(i, j)`, as array files name theirs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeMatrixMarket } from '../../src/io/matrix-market.js';
import { cooToCsr } from '../../src/sparse/coo-to-csr.js';
import { csrToDense } from '../../src/sparse/csr-dense.js';
import { csrMatrix } from '../../src/sparse/csr-matrix.js';
import type { CooMatrix } from '../../src/sparse/coo-matrix.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

type Input = 'coo' | 'csr' | 'dense';

/** A square COO matrix of integers and halves, mirrored (so symmetric) or not, with repeated positions. */
const matrices = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean()).chain(([n, mirror]) =>
  fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.constantFrom(1, -2, 3, 0.5, -1.5)), { maxLength: 8 }).map((entries): CooMatrix => {
    const all = mirror ? entries.flatMap(([i, j, v]) => (i === j ? [[i, j, v]] : [[i, j, v], [j, i, v]])) : entries;
    return {
      rows: n, cols: n,
      rowIndex: Int32Array.from(all, (e) => e[0]!), colIndex: Int32Array.from(all, (e) => e[1]!), values: Float64Array.from(all, (e) => e[2]!),
    };
  }));

describe('writeMatrixMarket: the value named in a field error is the one that cannot be written', () => {
  it('symmetric CSR with field integer: the lower triangle\'s 0.5 at (2, 0) is named matrix(2, 0)', () => {
    const S = csrMatrix({ rows: 3, cols: 3, rowPtr: Int32Array.of(0, 3, 5, 7), colIndex: Int32Array.of(0, 1, 2, 0, 1, 0, 2),
      values: Float64Array.of(1, 7, 0.5, 7, 2, 0.5, 3) });
    expectModprec(() => writeMatrixMarket(S, { symmetry: 'symmetric', field: 'integer' }), 'INVALID_VALUE', 'matrix(2, 0)');
  });

  it('any input, format and symmetry: matrix.values[k] is the input\'s own value k, matrix(i, j) the summed entry at (i, j)', () => {
    fc.assert(fc.property(matrices, fc.constantFrom<Input>('coo', 'csr', 'dense'), fc.constantFrom('coordinate', 'array'),
      fc.constantFrom('general', 'symmetric'), fc.constantFrom('integer', 'real'), (coo, kind, format, symmetry, field) => {
        // field real is refused a value only when it is not finite: NaN where integer refuses the halves
        if (field === 'real') coo.values.forEach((v, k, a) => { if (!Number.isInteger(v)) a[k] = NaN; });
        const csr = cooToCsr(coo), dense = csrToDense(csr);
        const input = kind === 'coo' ? coo : kind === 'csr' ? csr : dense;
        const bad = (v: number) => (field === 'integer' ? !Number.isSafeInteger(v) : !Number.isFinite(v));
        const values = (m: typeof input) => ('values' in m ? m.values : m.data);
        let text: string;
        try {
          text = writeMatrixMarket(input, { format: format as 'coordinate', symmetry: symmetry as 'general', field: field as 'real' });
        } catch (e) {
          const { parameter = '', message = '' } = e as { parameter?: string; message?: string };
          if (/must satisfy/.test(message)) return; // not symmetric: the symmetry check's error, tested with the writer
          const own = /^matrix\.values\[(\d+)\]$/.exec(parameter), at = /^matrix\((\d+), (\d+)\)$/.exec(parameter);
          expect(own !== null || at !== null, parameter).toBe(true);
          if (own !== null) {
            expect(kind === 'dense', 'a dense matrix has no values array').toBe(false);
            expect(bad(values(input)[Number(own[1])]!), parameter).toBe(true);
          } else {
            expect(bad(dense.data[Number(at![1]) + Number(at![2]) * dense.ld]!), parameter).toBe(true);
          }
          return;
        }
        expect(text.endsWith('\n')).toBe(true);
      }), { numRuns: 400 });
  });
});
