/**
 * Systems the solver tests share: random SPD and nonsymmetric dense matrices from fast-check, their LU reference
 * solutions, and a norm-wise comparison.
 */
import fc from 'fast-check';
import { luFactor, luSolve, matrix, type DenseMatrix, type Range } from '../../src/index.js';

/** A dense system: A column-major, b, and the fp64 LU solution as the reference. */
export interface DenseSystem {
  readonly n: number;
  readonly A: Range<2, number>;
  readonly dense: DenseMatrix;
  readonly b: Float64Array;
  readonly reference: Float64Array;
}

function system(n: number, entries: number[], rhs: number[], make: (i: number, j: number, e: number) => number): DenseSystem {
  const data = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) data[i + j * n] = make(i, j, entries[i + j * n]!);
  const dense = { rows: n, cols: n, ld: n, data };
  const A = matrix(n, n, (i, j) => data[i + j * n]!);
  const b = Float64Array.from(rhs.slice(0, n));
  return { n, A, dense, b, reference: luSolve(luFactor(dense), b) };
}

// Entries k/1000, |k| ≤ 1000: no subnormal right-hand side whose rᵀr would underflow to 0.
const unit = fc.integer({ min: -1000, max: 1000 }).map((k) => k / 1000);

/** SPD: A = BᵀB + n·I (condition at most about 2). */
export const spdSystem = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc.tuple(fc.constant(n), fc.array(unit, { minLength: n * n, maxLength: n * n }), fc.array(unit, { minLength: n, maxLength: n }))
    .filter(([, , rhs]) => rhs.some((v) => v !== 0))
    .map(([n, e, rhs]) => {
      const B = (i: number, j: number): number => e[i + j * n]!;
      return system(n, e, rhs, (i, j) => {
        let s = i === j ? n : 0;
        for (let k = 0; k < n; k++) s += B(k, i) * B(k, j);
        return s;
      });
    }));

/** Nonsymmetric, diagonally dominant: off-diagonal entries in [−1, 1], diagonal n + 1. */
export const nonsymmetricSystem = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc.tuple(fc.constant(n), fc.array(unit, { minLength: n * n, maxLength: n * n }), fc.array(unit, { minLength: n, maxLength: n }))
    .filter(([, , rhs]) => rhs.some((v) => v !== 0))
    .map(([n, e, rhs]) => system(n, e, rhs, (i, j, v) => (i === j ? n + 1 : v))));

/** max |x − y| / max |y|. */
export function relativeError(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let e = 0, m = 0;
  for (let i = 0; i < y.length; i++) { e = Math.max(e, Math.abs(x[i]! - y[i]!)); m = Math.max(m, Math.abs(y[i]!)); }
  return m === 0 ? e : e / m;
}

/** ‖b − A·x‖₂/‖b‖₂ in fp64, computed here (independently of the solvers' kernels). */
export function relativeResidual(s: DenseSystem, x: ArrayLike<number>): number {
  let rr = 0, bb = 0;
  for (let i = 0; i < s.n; i++) {
    let t = s.b[i]!;
    for (let j = 0; j < s.n; j++) t -= s.dense.data[i + j * s.n]! * x[j]!;
    rr += t * t;
    bb += s.b[i]! * s.b[i]!;
  }
  return Math.sqrt(rr / bb);
}
