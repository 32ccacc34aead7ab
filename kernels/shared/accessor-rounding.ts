/**
 * The rounding errors an accessor adds to a kernel, for the a-priori error bounds of GEMV, TRSV and ELL SpMV.
 *
 * Model (Higham, Accuracy and Stability of Numerical Algorithms, §2.2): every operation of the arithmetic
 * rounds with a relative error of at most its unit roundoff u; a product of k such factors (1 + δ)^±1 is
 * 1 + θ_k with |θ_k| ≤ γ_k = ku/(1 − ku) (Lemma 3.1). The bounds are relative to the values the operands
 * represent as stored (stored × scale, exactly), so storage rounding of the inputs is not counted; what is:
 * - a read converts to the arithmetic: one rounding when the storage has more significand bits than the
 *   arithmetic (fp64 read into fp32 arithmetic), none otherwise; a scaled read adds the product with the
 *   scale (one rounding) and, when the arithmetic is narrower than fp64, the conversion of the fp64 scale;
 * - a write rounds once to the storage (relative u of the storage, plus half the smallest subnormal spacing
 *   absolute), or for integer storage to the nearest integer of the exact value / scale, in one step (absolute ½
 *   of the scale, nothing relative); a scaled write to a floating-point storage first divides by the scale in
 *   the arithmetic.
 * Assumed throughout: no overflow or integer saturation, and no underflow inside the arithmetic.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { numberOfKind } from '../../src/formats/f64/f64-arithmetic.js';
import { gamma } from './accumulation.js';
import { findFormat } from '../../src/formats/common/registry.js';

/** fp64's unit roundoff, the arithmetic the bounds themselves are evaluated in. */
const U64 = 2 ** -53;

/** Relative roundings (each of the arithmetic's unit roundoff) that one read through `a` into `ar` makes. */
export function readRoundings(a: Accessor<any, any>, ar: ArithmeticFormat): number {
  let k = a.storage.significandBits > ar.significandBits ? 1 : 0;
  if (a.scale) k += 1 + (ar.significandBits < 53 ? 1 : 0);
  return k;
}

/** 1 if converting the coefficient `c` to `ar` rounds it, else 0. */
export function coefficientRoundings(ar: ArithmeticFormat, c: number): number {
  return Object.is(ar.toNumber(ar.fromNumber(c)), c) ? 0 : 1;
}

/** The error of writing a value of the arithmetic through an accessor. */
export interface WriteError {
  /** |θ| of the relative part: written = value·(1 + θ) + η, valid for (1 + θ) and for 1/(1 + θ). */
  readonly relative: number;
  /** |η| per unit of scale (multiply by the element's scale, 1 when unscaled). */
  readonly absolutePerScale: number;
}

/** Smallest positive subnormal of a binary floating-point storage (from its precision and largest value). */
function smallestSubnormal(significandBits: number, maxValue: number): number {
  let emax = Math.floor(Math.log2(maxValue));
  if (2 ** emax > maxValue) emax -= 1;
  return Math.max(2 ** (2 - emax - significandBits), Number.MIN_VALUE);
}

/** How a write of an `ar` value through `a` perturbs it (see the module comment). */
export function writeError(a: Accessor<any, any>, ar: ArithmeticFormat): WriteError {
  const st = a.storage;
  // Integer storage rounds the exact value / scale once (src/formats/convert/scaled-integer.ts).
  if (st.isInteger) return { relative: 0, absolutePerScale: 0.5 };
  const divisions = a.scale ? 1 + (ar.significandBits < 53 ? 1 : 0) : 0;
  const arithmeticPart = gamma(divisions, ar.unitRoundoff);
  // A scaled write divides by the scale in the arithmetic: the quotient may round into the arithmetic's subnormal
  // range (fp64 storage under a scale of 1e300 receiving 1e-310 stores 0), off by up to its spacing there.
  const quotientUnderflow = a.scale ? subnormalSpacingOf(ar) : 0;
  if (st.significandBits >= ar.significandBits) {
    // As wide as the arithmetic, but maybe not as deep: a storage whose subnormals are coarser than the arithmetic's
    // (a user's 30-bit significand down to 2^-8 under fp32) rounds small values the arithmetic holds exactly.
    const storageEta = st.underflowError ?? Math.max(smallestSubnormal(st.significandBits, st.maxValue) / 2, Number.MIN_VALUE);
    const bottom = st.kind === 'number' && storageEta > subnormalSpacingOf(ar) ? storageEta : 0;
    return { relative: arithmeticPart, absolutePerScale: quotientUnderflow + bottom };
  }
  // γ_1 of the storage rather than its u, so that the bound also covers 1/(1 + δ) (TRSV needs it).
  return {
    relative: compose(arithmeticPart, gamma(1, st.unitRoundoff)),
    // Half the storage's spacing, but never below the smallest double: fp64's half spacing 2^-1075 is not a double
    // (it rounded to 0, and an fp64 write into a dd arithmetic's bound lost its underflow term).
    // A format that declares its underflow error (not IEEE's gradual underflow) is taken at its word.
    absolutePerScale: (st.underflowError ?? Math.max(smallestSubnormal(st.significandBits, st.maxValue) / 2, Number.MIN_VALUE)) + quotientUnderflow,
  };
}

/**
 * The largest error of a quotient that rounds into an arithmetic's subnormal range: the spacing there (its storage
 * codec's, else fp64's; fp32: 2^-149). Float-float flushes every binary32 word below 2^-126 to ±0, on the CPU too
 * (src/formats/ff/ff.ts), in each of the binary32 operations of its division: 2·32·2^-126 = 2^-120 (twice the
 * operation η of kernels/shared/bound-terms.ts, FF_FLUSH_OPERATIONS), not 2^-149 — an f64 x under a scale of 2^120
 * solved by TRSV in ff stored 0 for 0.001.
 */
function subnormalSpacingOf(ar: ArithmeticFormat): number {
  const st = findFormat(ar.name)?.storage;
  if (st && st.kind === 'number' && !st.isInteger) return smallestSubnormal(st.significandBits, st.maxValue);
  return ar.kind === 'dd' && ar.significandBits <= 48 ? 2 ** -120 : Number.MIN_VALUE;
}

/**
 * |Π(1 + eᵢ) − 1| for relative perturbations bounded by eᵢ ≥ 0, computed as a sum of non-negative terms
 * (never as a product minus 1, which would cancel and lose the small eᵢ).
 */
export function compose(...es: readonly number[]): number {
  let r = 0;
  for (const e of es) r = r + e + r * e;
  return r;
}

/**
 * The one rule of every bound for non-finite values: a bound that came out NaN (a NaN or ±∞ among the values it
 * depends on, met by a zero factor or an ∞ − ∞) is +∞, like one that overflowed. Bounds are never NaN.
 * @param bound - a bound as evaluated
 * @returns the bound, or +∞ in place of NaN
 * @example
 * ```ts
 * orInfinity(0 * Infinity); // Infinity
 * ```
 */
export function orInfinity(bound: number): number {
  return bound === bound ? bound : Infinity;
}

/**
 * Raises a non-negative quantity computed in fp64 with at most `operations` roundings, all on non-negative
 * values (no cancellation), so that the result is at least the exact quantity: the computed value is at
 * least exact·(1 − γ_operations), and (1 − γ)(1 + 2γ′)(1 − u) ≥ 1 for γ′ = γ_{operations+2}.
 */
export function inflate(value: number, operations: number): number {
  return value * (1 + 2 * gamma(operations + 2, U64));
}

/** |value| of the element at storage position `pos` (and scale position `scalePos`), rounded to a double. */
function magnitudeAt(a: Accessor<any, any>, pos: number, scalePos: number): number {
  const v = Math.abs(numberOfKind(a.storage.kind, a.storage.decode(a.data as never, pos)));
  if (!a.scale) return v;
  const p = v * Math.abs(a.scale.data[scalePos]!);
  // A product in fp64's subnormal range rounds off by up to half its spacing: round it up, so it stays an upper bound.
  return p > 0 && p < 2.2250738585072014e-308 ? p + Number.MIN_VALUE : p;
}

/** A reader of |a(i, j)| (the represented values, rounded to doubles: one rounding for a scaled element). */
export function matrixMagnitudes(a: Accessor<2, any>): (i: number, j: number) => number {
  const [s0, s1] = a.strides;
  const sc = a.scale;
  return (i, j) => magnitudeAt(a, a.offset + i * s0 + j * s1, sc ? sc.offset + i * sc.strides[0]! + j * sc.strides[1]! : 0);
}

/** A reader of |a(i)| for a vector accessor. */
export function vectorMagnitudes(a: Accessor<1, any>): (i: number) => number {
  const s0 = a.strides[0];
  const sc = a.scale;
  return (i) => magnitudeAt(a, a.offset + i * s0, sc ? sc.offset + i * sc.strides[0]! : 0);
}

/** The scale that applies to element i of a vector accessor (1 when unscaled). */
export function vectorScales(a: Accessor<1, any>): (i: number) => number {
  const sc = a.scale;
  return sc ? (i) => Math.abs(sc.data[sc.offset + i * sc.strides[0]!]!) : () => 1;
}
