/**
 * The sign of an exactly-zero x_i of the GPU TRSV's block-inverse solves.
 *
 * Substitution computes x_i = s / t_ii from a row sum s that starts at 0 + b_i: an exactly-zero sum is +0 (IEEE
 * round to nearest: 0 + (−0), x + (−x) and +0 + (−0) are all +0), so an exactly-zero x_i is +0 / t_ii — −0 under a
 * negative pivot — or +0 with a unit diagonal. The block-inverse solves compute x_k = Inv_k·r_k as a sum of products
 * from a +0 accumulator, which gives +0 whatever the pivot: A = −I, b = 0 gave x = +0 on the GPU and −0 on the CPU. So
 * the solve's last pass gives every exactly-zero x_i the sign substitution gives it: +0 / t_ii in the arithmetic. An
 * infinite pivot makes x_i zero whatever its sum (the inverse's row is zero or NaN), so there — and for a zero or NaN
 * pivot, whose quotient is not +0 / t_ii's — the solve redoes by substitution (./trsv-substitution-source.ts), which
 * divides the CPU's own sum. Nonzero values are left as they are.
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import type { SubstitutionShape } from './trsv-substitution-source.js';

/** What {@link zeroSignLines} needs from the pass it goes into. */
export interface ZeroSignPlace {
  /** Index expression of op(A)(row, col) in A's binding. */
  opIndex(row: string, col: string): string;
  /** How the pass has the solve redo by substitution; absent where no redo can follow. */
  readonly redo?: {
    /** The statement that sets the pass's verdict to redo. */
    readonly statement: string;
    /** Lines that run `then` where a register of the arithmetic is ±∞ or NaN (./trsv-substitution-source.ts's ifNonFinite). */
    ifNonFinite(register: string, then: string): string[];
  };
}

/**
 * Lines that, where row `i`'s x (in `XAtomic`, the arithmetic's words per row) is exactly zero, store +0 / t_ii there
 * (+0 for a unit diagonal), and have the solve redo (`place.redo`) where t_ii is not finite or zero. Run by the thread that owns row `i`.
 * @param arithmetic - the solve's arithmetic
 * @param A - the matrix (its format reads t_ii)
 * @param shape - the variant (unit diagonal)
 * @param i - the row (an expression in scope)
 * @param place - how op(A) is indexed, and the redo
 * @returns source lines (names prefixed `zs`)
 */
export function zeroSignLines(arithmetic: GpuArithmetic, A: DeviceArray, shape: SubstitutionShape, i: string, place: ZeroSignPlace): string[] {
  const c = arithmetic.components;
  const word = (name: string, k: number): string => (c === 1 ? name : `${name}[${k}]`);
  const load = `let zsx = ${c === 1 ? `mpFloat(mpAtomicLoad(XAtomic[${i}]))` : `[${Array.from({ length: c }, (_, k) => `mpFloat(mpAtomicLoad(XAtomic[(${i}) * ${c} + ${k}]))`).join(', ')}]`};`;
  // Tested on bits (a compiler may fold a compare with 0.0); dd's words are not binary32 values: its value rounded to
  // odd in binary32 is zero exactly for a zero — read as bits, since a binary64 subnormal (3e-323) rounds to odd to a
  // binary32 subnormal, which a device that flushes them (the H200) compares equal to 0.0.
  const isZero = (name: string): string => (arithmetic.specialTests
    ? `mpAnd(mpXfOddBits(${name}), 2147483647) === 0`
    : Array.from({ length: c }, (_, k) => `mpAnd(mpBits(${word(name, k)}), 2147483647) === 0`).join(' && '));
  const store = (name: string): string[] => Array.from({ length: c }, (_, k) => `mpAtomicStore(XAtomic[(${i}) * ${c} + ${k}], mpBits(${word(name, k)}));`);
  if (shape.unit) return [load, `if (${isZero('zsx')}) {`, `let zsq = ${arithmetic.literal(0)};`, ...store('zsq'), '}'];
  const rd = A.format.emitRead('A', place.opIndex(i, i), 'zsp', arithmetic);
  // +0 / t_ii: dd divides (integer arithmetic, nothing folds); binary32 words take t_ii's sign bit, every word of it (a
  // shader compiler folds 0.0 / t to +0; float-float's −0 is (−0, −0), whose hi + lo stays −0), which is +0 / t_ii for
  // a finite nonzero t_ii — the others redo.
  const quotient = arithmetic.specialTests
    ? [arithmetic.declareZero('zsz'), arithmetic.declareDiv('zsq', arithmetic.register('zsz'), arithmetic.register('zsd'))]
    : [`const zss = mpFloat(mpAnd(mpBits(${word('zsd', 0)}), -2147483648));`, `let zsq = ${c === 1 ? 'zss' : `[${Array.from({ length: c }, () => 'zss').join(', ')}]`};`];
  return [
    load,
    `if (${isZero('zsx')}) {`,
    `let zsd = ${arithmetic.literal(1)};`, rd.code, arithmetic.assign('zsd', rd.register),
    ...quotient,
    // An infinite or NaN pivot, or a zero one: substitution's quotient of its own sum.
    ...(place.redo ? [...place.redo.ifNonFinite('zsd', place.redo.statement), `if (${isZero('zsd')}) { ${place.redo.statement} }`] : []),
    ...store('zsq'),
    '}',
  ];
}
