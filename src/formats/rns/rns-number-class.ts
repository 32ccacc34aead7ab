/**
 * The RNS multiple-precision number ⟨s, X, e, I(X/M)⟩ of seed 000 (eq. 5): x = (−1)^s · X · 2^e, with the
 * significand X held as residues x_i = |X|_{m_i} and an interval evaluation I(X/M) = [lo, up] whose
 * bounds are extended floats (see `ext-float.ts`).
 *
 * Invariants kept by every operation of this folder:
 * - 0 ≤ X ≤ 2^p (p = set.precision); zero is X = 0 with lo = up = 0, exp = 0 (its sign may be 1: −0);
 * - lo ≤ X/M ≤ up rigorously, lo > 0 when X > 0, and up ≤ lo·(1 + 2^-24) (else it is recomputed);
 * - |exp| ≤ {@link MAX_EXPONENT}.
 *
 * This module sits below every operation of the folder (they create scratch numbers and check `instanceof`), so it
 * imports none of them: its {@link MpValueLike} methods call the conversions that `convert-number.ts`
 * installs with {@link installNumberConversions} when it loads. `rns-number.ts` re-exports the class after
 * loading that module, so every importer outside this folder gets a class whose methods work.
 * @module
 */
import { fail } from '../../core/errors.js';
import type { MpValueLike } from '../common/format.js';
import { type RnsModuliSet, type RnsTables, rnsTables } from './moduli-set.js';
import type { RnsArray } from './rns-array.js';

/** The operations behind {@link RnsNumber}'s {@link MpValueLike} methods (defined above this module). */
export interface NumberConversions {
  /** Makes a bound number or an open sum an ordinary number (`rnsResolve`). */
  resolve(z: RnsNumber): void;
  /** The value rounded to the nearest double (`rnsToNumber`). */
  toNumber(x: RnsNumber): number;
  /** z := the double x exactly (`rnsFromNumber`). */
  fromNumber(z: RnsNumber, x: number): void;
  /** z := hi + lo rounded to the precision (`rnsFromDoubleDouble`). */
  fromDoubleDouble(z: RnsNumber, hi: number, lo: number): void;
  /** The value as a double-double, hi = RN(x), lo = RN(x − hi) (`rnsToDoubleDouble`). */
  toDoubleDouble(x: RnsNumber, out: { hi: number; lo: number }): void;
  /** The exact value as num/den (`rnsToRational`). */
  toRational(x: RnsNumber): { num: bigint; den: bigint };
}

function notInstalled(): never {
  throw new Error("modprec internal error: RnsNumber's conversions are not installed (import RnsNumber from rns-number.js)");
}

let conversions: NumberConversions = {
  resolve: notInstalled, toNumber: notInstalled, fromNumber: notInstalled, fromDoubleDouble: notInstalled,
  toDoubleDouble: notInstalled, toRational: notInstalled,
};

/** Called once by `convert-number.ts`: the operations the class's methods run. */
export function installNumberConversions(c: NumberConversions): void {
  conversions = c;
}

/** In-place multiply-adds into a number before its sum is kept open (closing one costs about an evaluation). */
export const OPEN_AFTER = 8;

/**
 * Largest |exponent| a number may carry; operations whose result could leave the range throw.
 * @group RNS
 */
export const MAX_EXPONENT = 2 ** 30;

/**
 * A multiple-precision number in RNS. Mutable on purpose: kernels preallocate one per variable and
 * operations write their result into a destination (which may alias an operand).
 * @group RNS
 */
export class RnsNumber implements MpValueLike {
  /** The moduli set; numbers of different sets never mix. */
  readonly set: RnsModuliSet;
  /** Residues x_i = |X|_{m_i}, integers in [0, m_i) (in [−m_i, 2m_i) while the number is an open sum). */
  readonly digits: Float64Array;
  /** The set's CPU tables (cached here: operations read them without a map lookup). */
  readonly tables: RnsTables;
  /** Sign bit s (1: negative). */
  sign = 0;
  /** Binary exponent e. */
  exp = 0;
  /** Lower bound of X/M: lf · 2^le. */
  lf = 0;
  /** Exponent of the lower bound. */
  le = 0;
  /** Upper bound of X/M: uf · 2^ue. */
  uf = 0;
  /** Exponent of the upper bound. */
  ue = 0;
  /**
   * Set while the number is bound lazily to an mp_array element (`rnsRef`): its residues are still there, its
   * other fields are valid. Operations that need the residues copy them first (`rnsResolve`); writes unbind.
   */
  refArray: RnsArray | null = null;
  /** Element index of {@link refArray}. */
  refIndex = 0;
  /** The element's write count when it was bound (checked before its residues are read). */
  refVersion = 0;
  /**
   * 1 while the number is an open sum (`open-sum.ts`): the residues hold a signed integer D,
   * |D|/M ≤ {@link openBound}·2^{@link openUnit}, the value is (−1)^sign·D·2^exp, and lf, le, uf, ue are
   * meaningless. Only the in-place multiply-add of the kernels' sums opens one; every other operation closes it
   * first (`rnsResolve`).
   */
  open = 0;
  /** An open sum's bound on |D|/M, in units of 2^openUnit (a double: one add and two multiplies per term). */
  openBound = 0.5;
  /** The exponent of an open sum's bound unit (fixed when it opens: see `openSum`). */
  openUnit = 0;
  /** Largest openBound that keeps |D| ≤ M/8: 2^(−3 − openUnit), capped at the largest double. */
  openLimit = 0.5;
  /** Consecutive in-place multiply-adds into this number; a sum opens after `OPEN_AFTER` of them. */
  runs = 0;

  /**
   * A zero of the moduli set `set`.
   * @param set - the moduli set (from `rnsModuliSet`)
   */
  constructor(set: RnsModuliSet) {
    this.set = set;
    this.digits = new Float64Array(set.size);
    this.tables = rnsTables(set);
  }

  /** Whether the value is zero (either sign). */
  isZero(): boolean {
    if (this.open !== 0) conversions.resolve(this);
    return this.uf === 0;
  }

  /** The value rounded to the nearest double (ties to even). */
  toNumber(): number {
    if (this.refArray !== null) conversions.resolve(this);
    return conversions.toNumber(this);
  }

  /** The value as a double-double into `out` (hi = RN(x), lo = RN(x − hi)): see `rnsToDoubleDouble`. */
  toDoubleDouble(out: { hi: number; lo: number }): void {
    if (this.refArray !== null) conversions.resolve(this);
    conversions.toDoubleDouble(this, out);
  }

  /** The exact value as num/den: see `rnsToRational`. */
  toRational(): { num: bigint; den: bigint } {
    return conversions.toRational(this);
  }

  /**
   * Sets the value to the double `x` exactly.
   * @throws {@link ModprecError} `INVALID_VALUE` for a non-finite x (the number is unchanged)
   */
  setNumber(x: number): void {
    conversions.fromNumber(this, x);
    this.refArray = null;
  }

  /**
   * Sets the value to hi + lo, rounded to the precision (exact when it fits).
   * @throws {@link ModprecError} `INVALID_VALUE` for non-finite parts (the number is unchanged)
   */
  setDd(hi: number, lo: number): void {
    conversions.fromDoubleDouble(this, hi, lo);
    this.refArray = null;
  }
}

/**
 * A new zero of `set`.
 * @param set - the moduli set
 * @returns a fresh number equal to +0
 * @example
 * ```ts
 * import { rnsModuliSet, rnsZero, rnsSign } from 'modprec';
 *
 * const z = rnsZero(rnsModuliSet(212));
 * rnsSign(z); // → 0
 * ```
 * @group RNS
 */
export function rnsZero(set: RnsModuliSet): RnsNumber {
  return new RnsNumber(set);
}

/**
 * Marks z's own digits as holding an ordinary number: not bound to an array element, not an open sum, and no
 * run of in-place multiply-adds (what every operation that writes z's residues itself leaves behind).
 */
export function markOwnOrdinary(z: RnsNumber): void {
  z.refArray = null;
  z.open = 0;
  z.runs = 0;
}

/** Sets `z` to ±0 with sign bit `sign`. */
export function setZero(z: RnsNumber, sign: number): void {
  markOwnOrdinary(z);
  z.digits.fill(0);
  z.sign = sign;
  z.exp = 0;
  z.lf = 0; z.le = 0; z.uf = 0; z.ue = 0;
}

/**
 * Throws unless `x` is an RnsNumber: the destination or operand of an RNS scalar function (undefined crashed them with a
 * TypeError).
 * @throws {@link ModprecError} `INVALID_VALUE` naming `parameter`
 */
export function checkRnsNumber(parameter: string, x: unknown): asserts x is RnsNumber {
  if (!(x instanceof RnsNumber)) fail('INVALID_VALUE', parameter, 'must be an RnsNumber (rnsZero(set))', x);
}

/**
 * Throws unless `x` is an RnsNumber of the moduli set `set`.
 * @throws {@link ModprecError} `INVALID_VALUE` (not an RnsNumber) or `INVALID_FORMAT` (another set), naming `parameter`
 */
export function checkSameSet(parameter: string, x: RnsNumber, set: RnsModuliSet): void {
  if (!(x instanceof RnsNumber)) fail('INVALID_VALUE', parameter, `must be an RnsNumber of ${set.name}`, x);
  if (x.set !== set) fail('INVALID_FORMAT', parameter, `must use the moduli set ${set.name}`, x.set.name);
}

/**
 * Throws unless `e` is a representable exponent.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `parameter`
 */
export function checkExponent(parameter: string, e: number): void {
  if (!(e >= -MAX_EXPONENT && e <= MAX_EXPONENT)) {
    fail('INVALID_VALUE', parameter, `exponent must stay within ±2^30 (exponent overflow)`, e);
  }
}
