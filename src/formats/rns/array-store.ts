/**
 * Writing a number into an mp_array element (`rns-array.ts`), rounding it to the array's moduli set when it
 * comes from another set.
 * @module
 */
import { checkElement, type RnsArray } from './rns-array.js';
import { RnsNumber, checkRnsNumber } from './rns-number-class.js';
import { resolveNumber } from './resolve.js';
import { rnsToRational, setRoundedRational } from './convert-exact.js';

/**
 * Element k of `a` := x, exactly when x uses the array's moduli set, else rounded to it (correctly, via BigInt).
 * @param a - the array
 * @param k - element index, `0 … a.length − 1`
 * @param x - the value
 * @throws {@link ModprecError} `INVALID_VALUE` naming `a` or `x` when it is not an RnsArray / RnsNumber;
 *   `INDEX_OUT_OF_RANGE` naming `k`
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsToNumber, rnsFromRational, RnsArray, rnsLoad, rnsStore } from 'modprec';
 *
 * const a = new RnsArray(rnsModuliSet(106), 2);
 * const wide = rnsZero(rnsModuliSet(424));
 * rnsFromRational(wide, 1n, 3n);
 * rnsStore(a, 0, wide);   // rounded to the array's 106 bits
 * const y = rnsZero(rnsModuliSet(106));
 * rnsLoad(y, a, 0);
 * rnsToNumber(y); // → 0.3333333333333333
 * ```
 * @group RNS
 */
export function rnsStore(a: RnsArray, k: number, x: RnsNumber): void {
  checkElement(a, k);
  checkRnsNumber('x', x);
  storeElement(a, k, x);
}

/** rnsStore without the checks: the kernels' per-element store (valid indices and values). */
export function storeElement(a: RnsArray, k: number, x: RnsNumber): void {
  // A bound number is copied out of its array first, an open sum closed (its eval is meaningless while open).
  if (x.refArray !== null || x.open !== 0) resolveNumber(x);
  if (x.set !== a.set) {
    const t = new RnsNumber(a.set);
    const r = rnsToRational(x);
    setRoundedRational(t, r.num < 0n || (r.num === 0n && x.sign === 1), r.num < 0n ? -r.num : r.num, r.den, 0);
    x = t;
  }
  const n = a.set.size;
  const xd = x.digits;
  const d = a.digits;
  const base = k * n;
  for (let i = 0; i < n; i++) d[base + i] = xd[i]!;
  a.sign[k] = x.sign;
  a.exp[k] = x.exp;
  const L = a.length;
  a.evalFrac[k] = x.lf; a.evalExp[k] = x.le;
  a.evalFrac[L + k] = x.uf; a.evalExp[L + k] = x.ue;
  a.versions[k] = (a.versions[k]! + 1) >>> 0;
}
