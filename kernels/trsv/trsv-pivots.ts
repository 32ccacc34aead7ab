/**
 * What TRSV checks before writing anything when its arithmetic has no IEEE special values (kind `mp`: RNS):
 * every entry of the triangle it reads must be finite, and every diagonal entry it divides by must be non-zero.
 * IEEE arithmetics (fp64, fp32, dd) need no check: a zero pivot gives ±Inf/NaN as IEEE division does.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat, MpValueLike } from '../../src/formats/common/format.js';
import { fail } from '../../src/core/errors.js';
import { checkReadableIn } from '../shared/kernel-options.js';

/** Whether an exact storage value (of any kind) is zero. */
function isZero(kind: string, v: unknown): boolean {
  switch (kind) {
    case 'number': return v === 0;
    case 'dd': { const p = v as { hi: number; lo: number }; return p.hi === 0 && p.lo === 0; }
    default: return (v as MpValueLike).toRational().num === 0n;
  }
}

/** Whether an exact storage value is finite (mp values always are). */
function isFinite(kind: string, v: unknown): boolean {
  switch (kind) {
    case 'number': return Number.isFinite(v);
    case 'dd': { const p = v as { hi: number; lo: number }; return Number.isFinite(p.hi) && Number.isFinite(p.lo); }
    default: return true;
  }
}

/**
 * Throws, before TRSV writes anything, when an arithmetic without NaN or infinity (kind `mp`) would meet a
 * non-finite entry of A's `uplo` triangle or divide by a zero diagonal entry. No-op for other arithmetics.
 * @param ar - the kernel's arithmetic
 * @param A - the matrix as the caller passed it (indices in the message are A's)
 * @param upper - whether A's upper triangle is the one read (uplo = 'U')
 * @param unit - unit diagonal (not read, never divided by)
 * @throws {@link ModprecError} `INVALID_VALUE` naming the entry `A[i, j]`
 * @example
 * ```ts
 * checkPivotsIn(formats.rns424.arithmetic, U, true, false); // throws if U[i, i] = 0 for some i
 * ```
 */
export function checkPivotsIn(ar: ArithmeticFormat, A: Range<2, any>, upper: boolean, unit: boolean): void {
  if (ar.kind !== 'mp') return;
  const a = A.accessor;
  const st = a.storage;
  const n = A.length(0);
  for (let i = 0; i < n; i++) {
    const from = upper ? i : 0, to = upper ? n : i + 1;
    for (let j = from; j < to; j++) {
      if (unit && i === j) continue;
      const v = st.decode(a.data as never, a.linearIndex([i, j]));
      if (!isFinite(st.kind, v)) fail('INVALID_VALUE', `A[${i}, ${j}]`, `must be finite for ${ar.name} arithmetic (it has no NaN or infinity)`, v);
      if (i === j && isZero(st.kind, v)) {
        fail('INVALID_VALUE', `A[${i}, ${i}]`, `must be non-zero: a zero pivot, and ${ar.name} arithmetic has no infinity to divide into`, 0);
      }
    }
  }
}

/**
 * The values TRSV reads, checked in its arithmetic on every backend and by its bound: x (b) whole, then A's `uplo`
 * triangle and pivots ({@link checkPivotsIn}). No-op for IEEE arithmetics.
 * @param ar - the kernel's arithmetic
 * @param A - the matrix as the caller passed it
 * @param x - the right-hand side, overwritten by the solution
 * @param upper - whether A's upper triangle is the one read (uplo = 'U')
 * @param unit - unit diagonal (not read)
 * @throws {@link ModprecError} `INVALID_VALUE` naming the element (`x[1]`, `A[2, 2]`)
 */
export function checkTrsvValues(ar: ArithmeticFormat, A: Range<2, any>, x: Range<1, any>, upper: boolean, unit: boolean): void {
  // Only x is scanned whole: A's unused triangle may hold anything.
  checkReadableIn(ar, [['x', x]]);
  checkPivotsIn(ar, A, upper, unit);
}
