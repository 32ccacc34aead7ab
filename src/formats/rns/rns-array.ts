/**
 * mp_array: an array of RNS numbers in the structure-of-arrays layout of seed 000 (Table 2, Fig. 2):
 *
 * ```
 * digits   x0.d1 x0.d2 … x0.dn | x1.d1 … x1.dn | … | x(L−1).dn     n·L integers (a number's digits together)
 * sign     x0.s  x1.s  …  x(L−1).s                                   L
 * exp      x0.e  x1.e  …  x(L−1).e                                   L
 * eval     x0.lo x1.lo … x(L−1).lo | x0.up x1.up … x(L−1).up          2L extended floats: lower bounds, then upper
 * ```
 *
 * An extended float is a fraction (`evalFrac`, Float64Array) and an exponent (`evalExp`, Int32Array) at the same
 * index. A matrix is stored column-major with a leading dimension by the accessor's strides: element (i, j) is
 * number k = i + j·LDA, whose digit r is at digits[r + (i + j·LDA)·n]. (The seed's `buf` is a GPU transfer
 * buffer and has no counterpart here.)
 * @module
 */
import { fail } from '../../core/errors.js';
import { checkModuliSet, type RnsModuliSet } from './moduli-set.js';
import { type RnsNumber, checkRnsNumber, checkSameSet, markOwnOrdinary } from './rns-number-class.js';

/**
 * An array of L numbers of one moduli set (seed 000's mp_array_t).
 * @group RNS
 */
export class RnsArray {
  /** The moduli set of every element. */
  readonly set: RnsModuliSet;
  /** Number of elements L. */
  readonly length: number;
  /** Residues, n per number, numbers consecutive: digit r of number k at k·n + r. */
  readonly digits: Int32Array;
  /** Sign bits. */
  readonly sign: Uint8Array;
  /** Binary exponents. */
  readonly exp: Int32Array;
  /** Fractions of the interval evaluations: lower bounds at [0, L), upper bounds at [L, 2L). */
  readonly evalFrac: Float64Array;
  /** Exponents of the interval evaluations, indexed as {@link evalFrac}. */
  readonly evalExp: Int32Array;
  /**
   * Write count per element (wrapping): a number bound lazily to an element (`rnsRef`) checks it, so a kernel
   * that overwrote the element before reading the number fails loudly instead of reading the new value.
   */
  readonly versions: Uint32Array;

  /**
   * L zeros of `set`.
   * @param set - the moduli set
   * @param length - number of elements
   * @throws {@link ModprecError} `INVALID_SIZE` for a bad length; `INVALID_VALUE` naming `set` when it is not a moduli set
   */
  constructor(set: RnsModuliSet, length: number) {
    checkModuliSet('set', set);
    if (!Number.isSafeInteger(length) || length < 0 || length * set.size > 2 ** 31) {
      fail('INVALID_SIZE', 'length', `must be a non-negative integer with length·${set.size} ≤ 2^31`, length);
    }
    this.set = set;
    this.length = length;
    this.digits = new Int32Array(length * set.size);
    this.sign = new Uint8Array(length);
    this.exp = new Int32Array(length);
    this.evalFrac = new Float64Array(2 * length);
    this.evalExp = new Int32Array(2 * length);
    this.versions = new Uint32Array(length);
  }
}

/**
 * z := element k of `a` (exact copy into a scratch number of the same set).
 * @param z - destination number
 * @param a - the array
 * @param k - element index, `0 … a.length − 1`
 * @throws {@link ModprecError} `INVALID_VALUE` naming `z` or `a` when it is not an RnsNumber / RnsArray;
 *   `INVALID_FORMAT` naming `z` for another moduli set; `INDEX_OUT_OF_RANGE` naming `k`
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFromNumber, rnsToNumber, RnsArray, rnsLoad, rnsStore } from 'modprec';
 *
 * const set = rnsModuliSet(106);
 * const a = new RnsArray(set, 4), x = rnsZero(set);
 * rnsFromNumber(x, 2.5);
 * rnsStore(a, 3, x);
 * const y = rnsZero(set);
 * rnsLoad(y, a, 3);
 * rnsToNumber(y); // → 2.5
 * ```
 * @group RNS
 */
export function rnsLoad(z: RnsNumber, a: RnsArray, k: number): void {
  checkRnsNumber('z', z);
  checkElement(a, k);
  if (z.set !== a.set) checkSameSet('z', z, a.set);
  loadElement(z, a, k);
}

/**
 * Throws unless `a` is an RnsArray and `k` one of its indices (the public element functions' check).
 * @throws {@link ModprecError} `INVALID_VALUE` naming `a`; `INDEX_OUT_OF_RANGE` naming `k`
 */
export function checkElement(a: RnsArray, k: number): void {
  if (!(a instanceof RnsArray)) fail('INVALID_VALUE', 'a', 'must be an RnsArray', a);
  if (!Number.isInteger(k) || k < 0 || k >= a.length) fail('INDEX_OUT_OF_RANGE', 'k', `must be an integer in 0..${a.length - 1}`, k);
}

/** rnsLoad without the checks: the kernels' per-element load (valid indices, the set of the array). */
export function loadElement(z: RnsNumber, a: RnsArray, k: number): void {
  const n = a.set.size;
  const zd = z.digits;
  const d = a.digits;
  const base = k * n;
  for (let i = 0; i < n; i++) zd[i] = d[base + i]!;
  z.sign = a.sign[k]!;
  z.exp = a.exp[k]!;
  const L = a.length;
  z.lf = a.evalFrac[k]!; z.le = a.evalExp[k]!;
  z.uf = a.evalFrac[L + k]!; z.ue = a.evalExp[L + k]!;
  markOwnOrdinary(z);
}

/**
 * Binds `z` lazily to element k of `a`: the sign, exponent and eval are copied, the residues stay in the array
 * until an operation needs them in `z` ({@link rnsResolve}) — the kernels' multiply-add reads them from the
 * array directly, which saves a copy of n residues per read. Every operation writing `z` unbinds it.
 * @param z - the number to bind
 * @param a - the array
 * @param k - element index (unchecked: generated kernels pass valid indices)
 */
export function rnsRef(z: RnsNumber, a: RnsArray, k: number): void {
  z.sign = a.sign[k]!;
  z.exp = a.exp[k]!;
  const L = a.length;
  z.lf = a.evalFrac[k]!; z.le = a.evalExp[k]!;
  z.uf = a.evalFrac[L + k]!; z.ue = a.evalExp[L + k]!;
  z.refArray = a;
  z.refIndex = k;
  z.refVersion = a.versions[k]!;
  z.open = 0;
  z.runs = 0;
}

/**
 * Offset of a lazily bound number's residues in its array's digits, after checking that the element has not
 * been written since it was bound.
 */
export function rnsRefOffset(z: RnsNumber, a: RnsArray): number {
  if (a.versions[z.refIndex] !== z.refVersion) {
    throw new Error('modprec internal error: an mp_array element was overwritten while a register was bound to it');
  }
  return z.refIndex * a.set.size;
}

/**
 * Copies the residues of a lazily bound number into it and unbinds it (no-op for a number with its own residues).
 * An open sum stays open: `rnsResolve` (resolve.ts) also closes it.
 */
export function rnsUnbind(z: RnsNumber): void {
  const a = z.refArray;
  if (a === null) return;
  const base = rnsRefOffset(z, a);
  const n = a.set.size;
  const zd = z.digits, d = a.digits;
  for (let i = 0; i < n; i++) zd[i] = d[base + i]!;
  z.refArray = null;
}
