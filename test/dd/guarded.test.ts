/**
 * The guarded operations (the kernels' templates as functions, behind `ddArithmetic.mul/div` and `DD`) have the bare
 * algorithms' bits wherever those give a finite non-zero result, and IEEE's answer in hi where an operand or the
 * result is not finite or the result is a zero of a product or quotient (the bare ones give NaN or lose the sign).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ddAdd, ddSub } from '../../src/formats/dd/add.js';
import { ddMul } from '../../src/formats/dd/mul.js';
import { ddDiv } from '../../src/formats/dd/div.js';
import { ddGuardedAdd, ddGuardedSub, ddGuardedMul, ddGuardedDiv } from '../../src/formats/dd/guarded.js';
import { ddArithmetic } from '../../src/formats/dd/dd-arithmetic.js';
import { DD } from '../../src/formats/dd/dd-value.js';

type Op = (out: Float64Array, ah: number, al: number, bh: number, bl: number) => void;
const OPS: [string, Op, Op, (a: number, b: number) => number][] = [
  ['add', ddAdd as Op, ddGuardedAdd, (a, b) => a + b],
  ['sub', ddSub as Op, ddGuardedSub, (a, b) => a - b],
  ['mul', ddMul as Op, ddGuardedMul, (a, b) => a * b],
  ['div', ddDiv as Op, ddGuardedDiv, (a, b) => a / b],
];

/** A normalised pair hi + lo with |lo| ≤ ulp(hi)/2, over most of the exponent range. */
const pair = fc.tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.double({ min: -0.5, max: 0.5, noNaN: true }))
  .map(([m, e, neg, f]) => { const hi = (neg ? -m : m) * 2 ** e; return [hi, hi + f * 2 ** (e - 52) - hi] as const; });

describe('guarded double-double operations', () => {
  it('equal the bare algorithms bit for bit where those give a finite non-zero result', () => {
    const bare = new Float64Array(2), guarded = new Float64Array(2);
    fc.assert(fc.property(pair, pair, fc.constantFrom(...OPS), ([ah, al], [bh, bl], [, b, g]) => {
      b(bare, ah, al, bh, bl);
      g(guarded, ah, al, bh, bl);
      if (!Number.isFinite(bare[0]!) || !Number.isFinite(bare[1]!) || bare[0] === 0) return;
      // (Division: beyond 2^±900 both scale the operands the same way, div-window.ts.)
      expect([Object.is(guarded[0], bare[0]), Object.is(guarded[1], bare[1])]).toEqual([true, true]);
    }), { numRuns: 2000 });
  });

  it("give IEEE's hi for non-finite operands, overflow and zero products and quotients", () => {
    const specials = [0, -0, Infinity, -Infinity, NaN, 1, -3, 1e300, -1e-300];
    const out = new Float64Array(2);
    for (const [name, , g, ieee] of OPS) {
      for (const a of specials) {
        for (const b of specials) {
          g(out, a, 0, b, 0);
          const want = ieee(a, b);
          const zeroProduct = want === 0 && (name === 'mul' || name === 'div');
          if (Number.isFinite(want) && !zeroProduct) continue;
          expect(Object.is(out[0], want) || (Number.isNaN(want) && Number.isNaN(out[0]!)), `${name}(${a}, ${b}) = ${out[0]}, IEEE ${want}`).toBe(true);
        }
      }
    }
  });

  it('serve ddArithmetic.mul/div and DD: ∞ · 2 = ∞, ∞ / 3 = ∞, overflow is ±∞, −0 · 5 = −0, 3 / 0 = ∞', () => {
    const v = (hi: number) => ({ hi, lo: 0 });
    expect(ddArithmetic.mul(v(Infinity), v(2)).hi).toBe(Infinity);
    expect(ddArithmetic.div(v(Infinity), v(3)).hi).toBe(Infinity);
    expect(ddArithmetic.div(v(1e308), v(1e-10)).hi).toBe(Infinity);
    expect(Object.is(ddArithmetic.mul(v(-0), v(5)).hi, -0)).toBe(true);
    // DD holds finite values only: overflow and division by zero are where it meets infinity.
    expect(DD.from(1e300).mul(-1e300).hi).toBe(-Infinity);
    expect(DD.from(1e308).add(1e308).hi).toBe(Infinity);
    expect(DD.from(3).div(0).hi).toBe(Infinity);
  });
});
