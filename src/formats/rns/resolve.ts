/**
 * Making a number ordinary before an operation reads it whole: a number bound lazily to an array element gets its
 * residues copied in, an open sum is closed (evaluated and rounded). Above `open-sum.ts`, below every operation.
 * @module
 */
import { checkRnsNumber, type RnsNumber } from './rns-number-class.js';
import { rnsRefOffset } from './rns-array.js';
import { closeOpenSum } from './open-sum.js';

/**
 * Makes `z` an ordinary number: copies the residues of a lazily bound number into it, closes an open sum
 * (no-op for an ordinary number). Every operation that reads more than a bound factor's residues calls it.
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsFma, rnsFromNumber, rnsToNumber, rnsResolve } from 'modprec';
 *
 * const set = rnsModuliSet(106);
 * const a = rnsZero(set), b = rnsZero(set), s = rnsZero(set);
 * rnsFromNumber(a, 0.5); rnsFromNumber(b, 3);
 * for (let k = 0; k < 10; k++) rnsFma(s, a, b, s);   // after a few steps the sum may be left open
 * rnsResolve(s);   // closed: its fields may now be read directly
 * rnsToNumber(s); // → 15
 * ```
 * @throws {@link ModprecError} `INVALID_VALUE` naming `z` when it is not an RnsNumber
 * @group RNS
 */
export function rnsResolve(z: RnsNumber): void {
  checkRnsNumber('z', z);
  resolveNumber(z);
}

/** rnsResolve without the operand check: every operation's own call (the kernels' per-element path). */
export function resolveNumber(z: RnsNumber): void {
  const a = z.refArray;
  if (a !== null) {
    const base = rnsRefOffset(z, a);
    const n = a.set.size;
    const zd = z.digits, d = a.digits;
    for (let i = 0; i < n; i++) zd[i] = d[base + i]!;
    z.refArray = null;
  }
  if (z.open !== 0) closeOpenSum(z);
}

/** Copies `x` into `z` (same set), flipping the sign if `negate` is 1. */
export function copyInto(z: RnsNumber, x: RnsNumber, negate: number): void {
  if (x.open !== 0) resolveNumber(x);
  if (z !== x) {
    // A plain loop beats TypedArray.set for a few dozen elements (no builtin call).
    const a = x.refArray;
    const zd = z.digits, n = zd.length;
    if (a === null) {
      const xd = x.digits;
      for (let i = 0; i < n; i++) zd[i] = xd[i]!;
    } else {
      const xd = a.digits, base = rnsRefOffset(x, a);
      for (let i = 0; i < n; i++) zd[i] = xd[base + i]!;
    }
    z.refArray = null;
    z.runs = 0;
  }
  z.sign = x.sign ^ negate;
  z.exp = x.exp;
  z.lf = x.lf; z.le = x.le; z.uf = x.uf; z.ue = x.ue;
}
