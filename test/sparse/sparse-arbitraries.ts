/**
 * fast-check generators and exact oracles shared by the sparse and Matrix Market tests.
 */
import fc from 'fast-check';
import { vi } from 'vitest';
import type { CooMatrix } from '../../src/sparse/coo-matrix.js';
import type { CsrMatrix } from '../../src/sparse/csr-matrix.js';
import { ModprecError } from '../../src/core/errors.js';
import type { ModprecErrorCode } from '../../src/core/errors.js';

/** Values that stress conversions: signed zeros, dyadic values, extremes, subnormals; NaN/Inf only when asked. */
export function entryValue(options: { nonFinite?: boolean } = {}): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(0, -0, 1, -1, 0.5, 3, Number.MIN_VALUE, -Number.MAX_VALUE, 2 ** -1074 * 3),
    fc.double({ noNaN: !options.nonFinite, noDefaultInfinity: !options.nonFinite }),
    fc.integer({ min: -1000, max: 1000 }),
  );
}

/** A COO matrix of up to `maxSize` rows/cols and `maxEntries` entries; small sizes make duplicates likely. */
export function cooArbitrary(options: { maxSize?: number; maxEntries?: number; nonFinite?: boolean; value?: fc.Arbitrary<number> } = {}): fc.Arbitrary<CooMatrix> {
  const maxSize = options.maxSize ?? 6;
  const value = options.value ?? entryValue(options);
  return fc
    .tuple(fc.integer({ min: 0, max: maxSize }), fc.integer({ min: 0, max: maxSize }))
    .chain(([rows, cols]) => {
      const entry = rows === 0 || cols === 0
        ? fc.constant<[number, number, number][]>([])
        : fc.array(fc.tuple(fc.integer({ min: 0, max: rows - 1 }), fc.integer({ min: 0, max: cols - 1 }), value), { maxLength: options.maxEntries ?? 20 });
      return entry.map((entries) => ({
        rows, cols,
        rowIndex: Int32Array.from(entries, (e) => e[0]),
        colIndex: Int32Array.from(entries, (e) => e[1]),
        values: Float64Array.from(entries, (e) => e[2]),
      }));
    });
}

/**
 * Oracle: the canonical CSR of a COO matrix computed the slow, obvious way — a map from position to the
 * running sum in input order, then positions sorted by (row, column).
 */
export function canonicalOracle(A: CooMatrix): CsrMatrix {
  const sums = new Map<number, number>();
  for (let k = 0; k < A.values.length; k++) {
    const key = A.rowIndex[k]! * (A.cols + 1) + A.colIndex[k]!;
    sums.set(key, sums.has(key) ? sums.get(key)! + A.values[k]! : A.values[k]!);
  }
  const keys = [...sums.keys()].sort((a, b) => a - b);
  const rowPtr = new Int32Array(A.rows + 1);
  for (const key of keys) rowPtr[Math.floor(key / (A.cols + 1)) + 1]!++;
  for (let i = 0; i < A.rows; i++) rowPtr[i + 1]! += rowPtr[i]!;
  return {
    rows: A.rows, cols: A.cols, rowPtr,
    colIndex: Int32Array.from(keys, (key) => key % (A.cols + 1)),
    values: Float64Array.from(keys, (key) => sums.get(key)!),
  };
}

/**
 * Exact equality of two CSR matrices: same sizes, pattern and values (by `Object.is`; with
 * `signedZeros = false`, +0 and −0 count as equal).
 */
export function csrEqual(A: CsrMatrix, B: CsrMatrix, signedZeros = true): boolean {
  if (A.rows !== B.rows || A.cols !== B.cols) return false;
  if (A.rowPtr.length !== B.rowPtr.length || A.colIndex.length !== B.colIndex.length) return false;
  for (let i = 0; i < A.rowPtr.length; i++) if (A.rowPtr[i] !== B.rowPtr[i]) return false;
  for (let t = 0; t < A.colIndex.length; t++) {
    const a = A.values[t]!, b = B.values[t]!;
    if (A.colIndex[t] !== B.colIndex[t] || !(Object.is(a, b) || (!signedZeros && a === 0 && b === 0))) return false;
  }
  return true;
}

/** Runs `f` and returns the ModprecError it throws; fails the test if it throws nothing or something else. */
export function catchModprec(f: () => unknown): ModprecError {
  try {
    f();
  } catch (e) {
    if (e instanceof ModprecError) return e;
    throw e;
  }
  throw new Error('expected a ModprecError, but nothing was thrown');
}

/** Asserts that `f` throws a ModprecError with this code and parameter. */
export function expectModprec(f: () => unknown, code: ModprecErrorCode, parameter?: string): ModprecError {
  const e = catchModprec(f);
  if (e.code !== code) throw new Error(`expected code ${code}, got ${e.code}: ${e.message}`);
  if (parameter !== undefined && e.parameter !== parameter) throw new Error(`expected parameter ${parameter}, got ${e.parameter}: ${e.message}`);
  return e;
}

/** Reference y = A·x for CSR, summing each row in stored order. */
export function csrTimes(A: CsrMatrix, x: Float64Array): Float64Array {
  const y = new Float64Array(A.rows);
  for (let i = 0; i < A.rows; i++) {
    let sum = 0;
    for (let t = A.rowPtr[i]!; t < A.rowPtr[i + 1]!; t++) sum += A.values[t]! * x[A.colIndex[t]!]!;
    y[i] = sum;
  }
  return y;
}

/**
 * Makes `new` of the named typed-array constructors refuse any length from `limit` up with the RangeError an engine out
 * of memory throws, so allocation failures are tested without the memory (undo with vi.unstubAllGlobals()).
 */
export function refuseAllocationsFrom(limit: number, names: readonly ('Int32Array' | 'Float64Array' | 'Float32Array' | 'Uint8Array')[]): void {
  for (const name of names) {
    const real = globalThis[name];
    vi.stubGlobal(name, new Proxy(real, {
      construct(target, args: unknown[]) {
        if (typeof args[0] === 'number' && args[0] >= limit) throw new RangeError('Array buffer allocation failed');
        return Reflect.construct(target, args) as object;
      },
    }));
  }
}
