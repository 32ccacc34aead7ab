/**
 * Reads every SuiteSparse matrix in shared/matrices (beside the repository) and checks it against the
 * figures in that folder's README, then checks the CSR and ELL conversions on it.
 */
import { matricesFolder } from '../matrix-fixtures.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readMatrixMarket, writeMatrixMarket } from '../../src/io/matrix-market.js';
import type { MatrixMarketField, MatrixMarketSymmetry } from '../../src/io/matrix-market.js';
import { cooToCsr } from '../../src/sparse/coo-to-csr.js';
import { csrMaxRowLength } from '../../src/sparse/csr-matrix.js';
import type { CsrMatrix } from '../../src/sparse/csr-matrix.js';
import { csrToEll } from '../../src/sparse/csr-to-ell.js';
import { ELL_PADDING, ellMatrix } from '../../src/sparse/ell-matrix.js';
import type { EllMatrix } from '../../src/sparse/ell-matrix.js';
import { csrLowerTriangle, isSymmetricCsr } from '../../src/sparse/symmetric.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { csrEqual, csrTimes } from '../sparse/sparse-arbitraries.js';

const folder = matricesFolder;

interface Expected {
  symmetry: MatrixMarketSymmetry; field: MatrixMarketField; spd: boolean;
  rows: number; stored: number; expanded: number; zeros: number; maxRow: number; meanRow: number; ellFill: number;
}
// Transcribed from the table "Matrix properties" in shared/matrices/README.md (square matrices: cols = rows).
const readme: Record<string, Expected> = {
  bcsstk01: { symmetry: 'symmetric', field: 'real', spd: true, rows: 48, stored: 224, expanded: 400, zeros: 0, maxRow: 12, meanRow: 8.33, ellFill: 1.44 },
  '494_bus': { symmetry: 'symmetric', field: 'real', spd: true, rows: 494, stored: 1080, expanded: 1666, zeros: 0, maxRow: 10, meanRow: 3.37, ellFill: 2.97 },
  gr_30_30: { symmetry: 'symmetric', field: 'integer', spd: true, rows: 900, stored: 4322, expanded: 7744, zeros: 0, maxRow: 9, meanRow: 8.6, ellFill: 1.05 },
  bcsstk08: { symmetry: 'symmetric', field: 'real', spd: true, rows: 1074, stored: 7017, expanded: 12960, zeros: 0, maxRow: 339, meanRow: 12.07, ellFill: 28.09 },
  bcsstk09: { symmetry: 'symmetric', field: 'real', spd: true, rows: 1083, stored: 9760, expanded: 18437, zeros: 0, maxRow: 23, meanRow: 17.02, ellFill: 1.35 },
  '1138_bus': { symmetry: 'symmetric', field: 'real', spd: true, rows: 1138, stored: 2596, expanded: 4054, zeros: 0, maxRow: 18, meanRow: 3.56, ellFill: 5.05 },
  bcsstk13: { symmetry: 'symmetric', field: 'real', spd: true, rows: 2003, stored: 42943, expanded: 83883, zeros: 0, maxRow: 95, meanRow: 41.88, ellFill: 2.27 },
  bcsstk21: { symmetry: 'symmetric', field: 'real', spd: true, rows: 3600, stored: 15100, expanded: 26600, zeros: 0, maxRow: 9, meanRow: 7.39, ellFill: 1.22 },
  bcsstm25: { symmetry: 'symmetric', field: 'real', spd: true, rows: 15439, stored: 15439, expanded: 15439, zeros: 0, maxRow: 1, meanRow: 1, ellFill: 1 },
  arc130: { symmetry: 'general', field: 'real', spd: false, rows: 130, stored: 1282, expanded: 1282, zeros: 245, maxRow: 124, meanRow: 9.86, ellFill: 12.57 },
  west0479: { symmetry: 'general', field: 'real', spd: false, rows: 479, stored: 1910, expanded: 1910, zeros: 22, maxRow: 12, meanRow: 3.99, ellFill: 3.01 },
  orsirr_1: { symmetry: 'general', field: 'real', spd: false, rows: 1030, stored: 6858, expanded: 6858, zeros: 0, maxRow: 13, meanRow: 6.66, ellFill: 1.95 },
  add32: { symmetry: 'general', field: 'real', spd: false, rows: 4960, stored: 23884, expanded: 23884, zeros: 4036, maxRow: 32, meanRow: 4.82, ellFill: 6.65 },
};

function checksums(): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of readFileSync(join(folder, 'SHA256SUMS'), 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64})\s+\*?(\S+)$/.exec(line.trim());
    if (m) sums.set(m[2]!, m[1]!);
  }
  return sums;
}

/** Plain ELL SpMV reference: row by row, slots in order, padding skipped. */
function ellTimes(E: EllMatrix, x: Float64Array): Float64Array {
  const y = new Float64Array(E.rows);
  for (let i = 0; i < E.rows; i++) {
    let sum = 0;
    for (let k = 0; k < E.width; k++) {
      const col = E.colIndex[i + k * E.stride]!;
      if (col !== ELL_PADDING) sum += E.values[i + k * E.stride]! * x[col]!;
    }
    y[i] = sum;
  }
  return y;
}

function diagonal(A: CsrMatrix): (number | undefined)[] {
  return Array.from({ length: A.rows }, (_, i) => {
    for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) if (A.colIndex[t] === i) return A.values[t]!;
    return undefined;
  });
}

describe('shared/matrices (SuiteSparse)', () => {
  it('the folder is present beside the repository with every file of the README and SHA256SUMS', () => {
    if (!existsSync(folder)) throw new Error(`${folder} not found: the bundled copy of shared/matrices is missing`);
    expect([...checksums().keys()].sort()).toEqual(Object.keys(readme).map((name) => `${name}.mtx`).sort());
  });

  describe.runIf(existsSync(folder)).each(Object.entries(readme))('%s', (name, expected) => {
    const text = readFileSync(join(folder, `${name}.mtx`), 'utf8');
    const data = readMatrixMarket(text);
    if (data.format !== 'coordinate') throw new Error(`${name}: expected a coordinate file`);
    const A = cooToCsr(data.matrix);

    it('matches its SHA-256 checksum', () => {
      expect(createHash('sha256').update(readFileSync(join(folder, `${name}.mtx`))).digest('hex')).toBe(checksums().get(`${name}.mtx`));
    });

    it('has the banner, sizes, entry counts and row statistics of the README', () => {
      expect(data.header).toEqual({ object: 'matrix', format: 'coordinate', field: expected.field, symmetry: expected.symmetry });
      expect([data.rows, data.cols, data.storedEntries]).toEqual([expected.rows, expected.rows, expected.stored]);
      expect(data.matrix.values.length).toBe(expected.expanded);
      expect(A.values.length).toBe(expected.expanded); // no duplicates: summing removes nothing
      const { rowIndex, colIndex, values } = data.matrix;
      const stored = (k: number) => expected.symmetry === 'general' || rowIndex[k]! >= colIndex[k]!; // not a mirror
      const storedZeros = Array.from(values).filter((v, k) => v === 0 && stored(k)).length;
      expect(storedZeros).toBe(expected.zeros);
      expect(csrMaxRowLength(A)).toBe(expected.maxRow);
      expect((A.values.length / A.rows).toFixed(2)).toBe(expected.meanRow.toFixed(2));
      expect(((A.rows * csrMaxRowLength(A)) / A.values.length).toFixed(2)).toBe(expected.ellFill.toFixed(2));
    });

    it(`is ${expected.symmetry === 'symmetric' ? 'equal to' : 'different from'} its transpose, and its diagonal fits the README`, () => {
      expect(isSymmetricCsr(A)).toBe(expected.symmetry === 'symmetric');
      if (expected.symmetry === 'symmetric') expect(csrLowerTriangle(A).values.length).toBe(expected.stored);
      const d = diagonal(A);
      if (expected.spd) expect(d.every((v) => v !== undefined && v > 0)).toBe(true); // necessary for SPD
      if (name === 'west0479') expect(d.filter((v) => v === undefined || v === 0).length).toBe(471);
      if (name === 'orsirr_1') expect(d.every((v) => v !== undefined && v < 0)).toBe(true);
      if (name === 'bcsstm25') expect(A.values.length).toBe(A.rows); // diagonal
    });

    it('ELL (stride a multiple of 32) holds the same rows, and ELL·x = CSR·x exactly on random x', () => {
      const E = ellMatrix(csrToEll(A, { strideMultiple: 32 }));
      expect(E.width).toBe(expected.maxRow);
      expect(E.stride % 32).toBe(0);
      const random = seededRandom(name.length * 1000 + expected.rows);
      for (let trial = 0; trial < 3; trial++) {
        const x = Float64Array.from({ length: A.cols }, () => 2 * random.nextDouble() - 1);
        expect(ellTimes(E, x)).toEqual(csrTimes(A, x));
      }
    });

    it('writes back and reads back to the same matrix', () => {
      const symmetry = expected.symmetry;
      const again = readMatrixMarket(writeMatrixMarket(A, { symmetry, field: expected.field }));
      if (again.format !== 'coordinate') throw new Error('expected coordinate');
      expect(again.storedEntries).toBe(expected.stored);
      expect(csrEqual(cooToCsr(again.matrix), A)).toBe(true);
    });
  });
});
