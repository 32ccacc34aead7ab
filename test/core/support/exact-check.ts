/** Exact comparisons of computed doubles against rational results and a-priori bounds. */
import { absoluteError, exactOf } from '../../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, ZERO, type Rational } from '../../../src/testing/rational.js';
import { roundRationalToDouble } from '../../../src/testing/round-rational.js';

/** Whether |computed − exact| ≤ bound, decided exactly (an infinite bound always holds). */
export function withinBound(computed: number, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  if (!Number.isFinite(computed) || !(bound >= 0)) return false;
  return compareRational(absoluteError(computed, exact), exactOf(bound)) <= 0;
}

/** |computed − exact| rounded to a double (for statistics and messages). */
export function errorOf(computed: number, exact: Rational): number {
  return roundRationalToDouble(absoluteError(computed, exact));
}

/** Σ xᵢyᵢ exactly. */
export function exactDotOf(x: readonly Rational[], y: readonly Rational[]): Rational {
  let s = ZERO;
  for (let i = 0; i < x.length; i++) s = addRational(s, mulRational(x[i]!, y[i]!));
  return s;
}

/** c·x + y exactly (c a double). */
export function exactAxpy(c: number, x: Rational, y: Rational): Rational {
  return addRational(mulRational(exactOf(c), x), y);
}

/** c·x exactly. */
export function exactScale(c: number, x: Rational): Rational {
  return mulRational(exactOf(c), x);
}

/** Whether |computed − exact| ≤ bound for an exact computed value (e.g. int16 × scale), decided exactly. */
export function withinBoundExact(computed: Rational, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  if (!(bound >= 0)) return false;
  return compareRational(absRational(subRational(computed, exact)), exactOf(bound)) <= 0;
}

/** |computed − exact| of two rationals, rounded to a double. */
export function errorOfExact(computed: Rational, exact: Rational): number {
  return roundRationalToDouble(absRational(subRational(computed, exact)));
}
