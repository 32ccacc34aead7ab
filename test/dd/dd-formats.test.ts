import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import '../../src/formats/dd/register.js';
import { range, rowMajor, vector, dot, axpy, scal, toArray, findFormat, formats } from '../../src/index.js';
import { ddStorage, ddSplitStorage, DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { ddArithmetic, type DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { exactDot } from '../../src/testing/exact.js';
import { roundRationalToFormat } from '../../src/testing/round-rational.js';
import { BINARY32, BINARY16 } from '../../src/formats/convert/binary-parameters.js';
import { Q } from './exact-rational.js';
import { normalizedDd } from './arbitraries.js';

describe('dd storage formats', () => {
  it('are registered with DD arithmetic as their default', () => {
    expect(findFormat('dd')?.storage).toBe(ddStorage);
    expect(findFormat('dd')?.arithmetic).toBe(ddArithmetic);
    expect(findFormat('dd-split')?.storage).toBe(ddSplitStorage);
    expect(range(rowMajor<1, DdValue>({ size: 2, storage: 'dd' })).accessor.arithmetic).toBe(ddArithmetic);
  });

  it('encode then decode is exact and normalised, in both layouts', () => {
    const inter = ddStorage.allocate(3), split = ddSplitStorage.allocate(3);
    fc.assert(fc.property(normalizedDd(), fc.boolean(), (a, swap) => {
      // the user pair may be unnormalised: parts swapped (|lo| > |hi|), same value
      const user = swap ? { hi: a[1], lo: a[0] } : { hi: a[0], lo: a[1] };
      ddStorage.encode(inter, 1, user);
      ddSplitStorage.encode(split, 1, user);
      for (const v of [ddStorage.decode(inter, 1), ddSplitStorage.decode(split, 1)]) {
        expect(Q.dd(v.hi, v.lo).cmp(Q.dd(...a))).toBe(0);
        expect(v.hi + v.lo).toBe(v.hi);
      }
    }), { numRuns: 300 });
    ddStorage.encode(inter, 0, { hi: 1, lo: 1 });
    expect(ddStorage.decode(inter, 0)).toEqual({ hi: 2, lo: 0 });
    ddStorage.encode(inter, 2, 0.5 as unknown as DdValue);
    expect(ddStorage.decode(inter, 2)).toEqual({ hi: 0.5, lo: 0 });
  });

  it('rejects a finite hi with a non-finite lo; stores IEEE specials in hi', () => {
    const data = ddStorage.allocate(1);
    expect(() => ddStorage.encode(data, 0, { hi: 1, lo: NaN })).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', parameter: 'value.lo' }));
    ddStorage.encode(data, 0, { hi: Infinity, lo: 0 });
    expect(ddStorage.decode(data, 0).hi).toBe(Infinity);
    expect(() => new DdSplitArray({ hi: new Float64Array(2), lo: new Float64Array(3) })).toThrow(expect.objectContaining({ code: 'INVALID_STORAGE' }));
    expect(() => new DdSplitArray(-1)).toThrow(expect.objectContaining({ code: 'INVALID_SIZE' }));
  });

  it('keeps the sign of a zero: a written −0 reads back as −0 (set, vector, and a kernel write), in both layouts', () => {
    // Regression: a number x was stored as TwoSum(x, +0) = (+0, +0) for x = −0, and a kernel's fp64 register −0 as
    // (−0, +0), whose hi + lo reads back as +0.
    for (const storage of [formats.dd, formats.ddSplit]) {
      for (const arithmetic of [formats.f64, formats.dd, formats.f32]) {
        const x = vector([-0, 0], { storage, arithmetic });
        expect([...toArray(x)], `${storage.name}/${arithmetic.name}`).toEqual([-0, 0]);
        x.set(1, -0);
        expect(Object.is(toArray(x)[1], -0)).toBe(true);
      }
      for (const backend of ['cpu', 'js'] as const) {
        const y = vector([0, 2], { storage, arithmetic: formats.f64 });
        scal(-1, y, { backend });
        expect([...toArray(y)], `${storage.name} scal ${backend}`).toEqual([-0, -2]);
      }
      const y = vector(1, { storage });
      y.set(0, { hi: -0, lo: -0 });
      expect(Object.is(toArray(y)[0], -0)).toBe(true);
      y.set(0, { hi: 1, lo: -1 });   // an exact zero sum is +0, as in IEEE
      expect(Object.is(toArray(y)[0], 0)).toBe(true);
    }
  });

  it('capacity and buffer checks', () => {
    expect(ddStorage.capacity(new Float64Array(7))).toBe(3);
    expect(ddSplitStorage.capacity(new DdSplitArray(4))).toBe(4);
    expect(() => range(rowMajor<1, DdValue>({ size: 4, storage: 'dd', data: new Float64Array(7) }))).toThrow(expect.objectContaining({ code: 'INVALID_STORAGE' }));
    expect(() => range(rowMajor<1, DdValue>({ size: 2, storage: 'dd-split', data: new Float64Array(4) }))).toThrow(expect.objectContaining({ code: 'INVALID_STORAGE' }));
  });

  it('both layouts give bit-identical kernel results, also with strides and offsets', () => {
    fc.assert(fc.property(fc.array(normalizedDd(-20, 20), { minLength: 1, maxLength: 30 }), (vals) => {
      const n = vals.length;
      const xi = range(rowMajor<1, DdValue>({ size: n, storage: 'dd', stride: 2, offset: 1 }));
      const xs = range(rowMajor<1, DdValue>({ size: n, storage: 'dd-split', stride: 2, offset: 1 }));
      vals.forEach(([h, l], i) => { xi.set(i, { hi: h, lo: l }); xs.set(i, { hi: h, lo: l }); });
      const y = vector(vals.map((_, i) => i + 1));
      const ri = range(rowMajor<1, DdValue>({ size: 1, storage: 'dd' })), rs = range(rowMajor<1, DdValue>({ size: 1, storage: 'dd' }));
      dot(xi, y, { into: ri });
      dot(xs, y, { into: rs });
      expect(ri.get(0)).toEqual(rs.get(0));
      // untouched padding stays zero (element 0 of the stride-2 view is storage element 1)
      const raw = xi.accessor.data as Float64Array;
      expect(raw[0]).toBe(0);
      expect(raw[1]).toBe(0);
    }), { numRuns: 100 });
  });

  it('DD arithmetic writes to fp32 / fp16 storage with ONE rounding (round-to-odd), not via the double hi', () => {
    // exact = 1 + 2^-24 + 2^-70: hi = 1 + 2^-24 is an fp32 tie that rounds to 1, the true value rounds up.
    const xs = [1 + 2 ** -24, 2 ** -70];
    const x = vector(xs, { arithmetic: 'dd' });
    const y = vector([1, 1]);
    const out32 = range(rowMajor<1, number>({ size: 1, storage: 'f32' }));
    dot(x, y, { into: out32 });
    expect(out32.get(0)).toBe(roundRationalToFormat(exactDot(xs, [1, 1]), BINARY32));
    expect(out32.get(0)).toBe(1 + 2 ** -23);
    const x16 = [1 + 2 ** -11, 2 ** -70];
    const out16 = range(rowMajor<1, number>({ size: 1, storage: 'f16' }));
    dot(vector(x16, { arithmetic: 'dd' }), y, { into: out16 });
    expect(out16.get(0)).toBe(roundRationalToFormat(exactDot(x16, [1, 1]), BINARY16));
  });

  it('AXPY in DD arithmetic on DD storage: y := αx + y within 2^-100·(|αx| + |y|) (7u² for ×, 3u² + 13u³ for +)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(normalizedDd(-10, 10), normalizedDd(-10, 10)), { minLength: 1, maxLength: 20 }), (pairs) => {
      const n = pairs.length;
      const x = range(rowMajor<1, DdValue>({ size: n, storage: 'dd' }));
      const y = range(rowMajor<1, DdValue>({ size: n, storage: 'dd' }));
      pairs.forEach(([a, b], i) => { x.set(i, { hi: a[0], lo: a[1] }); y.set(i, { hi: b[0], lo: b[1] }); });
      axpy(1 / 3, x, y);
      pairs.forEach(([a, b], i) => {
        const got = y.get(i);
        const exact = Q.of(1 / 3).mul(Q.dd(...a)).add(Q.dd(...b));
        const scale = Q.of(1 / 3).mul(Q.dd(...a)).abs().add(Q.dd(...b).abs());
        // mul ≤ 7u², add ≤ 3u² + 13u³: |err| ≤ 2^-100 Σ|terms| with room to spare
        expect(Q.dd(got.hi, got.lo).sub(exact).abs().cmp(scale.mul(Q.of(2 ** -100)))).toBeLessThanOrEqual(0);
      });
    }), { numRuns: 100 });
  });
});

describe('dd arithmetic scalar path', () => {
  it('fromKind / toKind / mul / div', () => {
    expect(ddArithmetic.fromKind('number', 3)).toEqual({ hi: 3, lo: 0 });
    expect(ddArithmetic.toKind('number', { hi: 1 + 2 ** -24, lo: 2 ** -70 }, 24)).toBe(1 + 2 ** -24 + 2 ** -52); // rounded to odd
    expect(ddArithmetic.toKind('number', { hi: 1, lo: 2 ** -60 }, 53)).toBe(1);
    const q = ddArithmetic.div({ hi: 1, lo: 0 }, { hi: 3, lo: 0 });
    const p = ddArithmetic.mul(q, { hi: 3, lo: 0 });
    expect(Math.abs(p.hi - 1 + p.lo)).toBeLessThan(2 ** -100);
    expect(() => ddArithmetic.toKind('mp', { hi: 1, lo: 0 }, 212)).toThrow(expect.objectContaining({ code: 'INVALID_FORMAT' }));
  });
});
