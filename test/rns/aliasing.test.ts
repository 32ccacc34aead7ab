import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rnsFormat } from '../../src/formats/rns/register.js';
import { range, rowMajor, axpy, waxpby, dot, scal } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { RnsNumber } from '../../src/formats/rns/rns-number.js';

// Registers read from an mp_array element stay bound to it (no copy) until used: a kernel whose output is also
// one of its inputs must still read each element before overwriting it. These run the kernels with aliased
// and with separate operands and require the same bits.
describe.each([106, 424])('RNS kernels with aliased operands (%i bits)', (precision) => {
  const f = rnsFormat(precision);
  const vector = (values: number[]): Range<1, RnsNumber> => {
    const r = range(rowMajor<1, RnsNumber>({ size: [values.length], storage: f, arithmetic: f }));
    values.forEach((v, i) => r.set(i, v));
    return r;
  };
  const bits = (r: Range<1, RnsNumber>) => Array.from({ length: r.length(0) }, (_, i) => {
    const z = r.get(i);
    return [Array.from(z.digits), z.sign, z.exp];
  });
  const values = fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 40 });
  const scalar = fc.double({ min: -8, max: 8, noNaN: true });

  it('AXPY y := αy + y equals the same with a separate copy of y as x', () => {
    fc.assert(fc.property(values, scalar, (v, alpha) => {
      const y = vector(v), x = vector(v), expected = vector(v);
      axpy(alpha, x, expected);
      axpy(alpha, y, y);
      expect(bits(y)).toEqual(bits(expected));
    }), { numRuns: 40 });
  });

  it('WAXPBY with w aliasing x, y or both equals the same with separate operands', () => {
    fc.assert(fc.property(values, scalar, scalar, (v, alpha, beta) => {
      const w2 = v.map((t) => t * 0.5 - 1);
      const expected = vector(v.map(() => 0));
      waxpby(alpha, vector(v), beta, vector(w2), expected);
      const x = vector(v);
      waxpby(alpha, x, beta, vector(w2), x);
      expect(bits(x)).toEqual(bits(expected));
      const y = vector(w2);
      waxpby(alpha, vector(v), beta, y, y);
      expect(bits(y)).toEqual(bits(expected));
      const both = vector(v), same = vector(v.map(() => 0));
      waxpby(alpha, vector(v), beta, vector(v), same);
      waxpby(alpha, both, beta, both, both);
      expect(bits(both)).toEqual(bits(same));
    }), { numRuns: 40 });
  });

  it('DOT of a vector with itself, and after SCAL in place, reads every element once', () => {
    fc.assert(fc.property(values, scalar, (v, alpha) => {
      const x = vector(v), copy = vector(v);
      expect(dot(x, x)).toBe(dot(x, copy));
      scal(alpha, x);
      const scaled = vector(v);
      scal(alpha, scaled);
      expect(bits(x)).toEqual(bits(scaled));
      expect(dot(x, x)).toBe(dot(scaled, scaled));
    }), { numRuns: 40 });
  });
});
