/**
 * Range.set through the public API with values that are not numbers: an object is written only when it is a value of
 * the range's arithmetic (a `{ hi, lo }` pair of numbers for dd and ff, an RnsNumber for RNS); anything else is
 * INVALID_VALUE naming `value`, with nothing written. Regressions: dd arithmetic stored `{}`, `[]` or an RnsNumber as
 * NaN without a word; RNS arithmetic over fp64, fp16, int8 or dd storage threw a plain TypeError ("Cannot read
 * properties of undefined") for `{}` or a `{ hi, lo }` pair.
 */
import { describe, expect, it } from 'vitest';
import { formats, range, rnsFromNumber, rnsModuliSet, rnsZero, rowMajor, scaledReducedRowMajor, toArray, type Range } from '../../src/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { addRational, rational, type Rational } from '../../src/testing/rational.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

const STORAGES = ['f64', 'f32', 'f16', 'bf16', 'i8', 'dd', 'ddSplit', 'rns106'] as const;
const ARITHMETICS = ['f64', 'f32', 'ff', 'dd', 'rns106'] as const;

function rangeOf(storage: string, arithmetic: string): Range<1, any> {
  const f = formats as unknown as Record<string, never>;
  const r = range(rowMajor<1, any>({ size: [2], storage: f[storage]!, arithmetic: f[arithmetic]! }));
  r.set(0, 0.75);
  r.set(1, -2);
  return r;
}

const three = rnsZero(rnsModuliSet(106));
rnsFromNumber(three, 3);

/** Objects that are values of some arithmetic, and objects that are values of none. */
const pair = { hi: 0.5, lo: 0 };
const notValues: readonly unknown[] = [{}, [], { hi: 1 }, { hi: '1', lo: 0 }, { lo: 0 }, new Float64Array(2)];

describe('Range.set: an object must be a value of the arithmetic', () => {
  it.each(STORAGES)('%s storage', (storage) => {
    for (const arithmetic of ARITHMETICS) {
      const where = `${storage} / ${arithmetic}`;
      const kind = formats[arithmetic as 'f64'].kind === 'number' ? 'number' : arithmetic === 'rns106' ? 'mp' : 'dd';
      const foreign = [...notValues, ...(kind === 'dd' ? [three] : kind === 'mp' ? [pair] : [pair, three])];
      for (const value of foreign) {
        const r = rangeOf(storage, arithmetic);
        const before = Array.from(toArray(r));
        expectModprec(() => r.set(1, value as never), 'INVALID_VALUE', 'value');
        expect(Array.from(toArray(r)), `${where}: ${Object.prototype.toString.call(value)} wrote`).toEqual(before);
      }
    }
  });

  it('values of the arithmetic are written, and read back exactly where the storage holds them', () => {
    for (const storage of ['f64', 'dd', 'f16'] as const) {
      const dd = rangeOf(storage, 'dd');
      dd.set(1, { hi: 0.5, lo: 0 } as never);
      expect(toArray(dd)[1]).toBe(0.5);
      const rns = rangeOf(storage, 'rns106');
      rns.set(1, three as never);
      expect(toArray(rns)[1]).toBe(3);
    }
  });
});

/**
 * Writes into RNS storage from a number or double-double arithmetic. Regression: every such write that did not take
 * the plain-number shortcut was INVALID_FORMAT naming `storage` ("of kind mp must be written through its own
 * encode()"): a range of rns106 storage with dd or ff arithmetic could not store one of its own reads
 * (`r.set(1, r.get(0))`), and a scaled rns106 range with any arithmetic but RNS could not be written at all.
 */
describe('Range.set into RNS storage from another arithmetic', () => {
  const exact = (p: { hi: number; lo: number }): Rational => addRational(exactOf(p.hi), exactOf(p.lo));
  const stored = (r: Range<1, any>, i: number): Rational => {
    const q = (r.accessor.storage.decode(r.accessor.data as never, r.accessor.linearIndex([i])) as unknown as { toRational(): Rational }).toRational();
    return rational(q.num, q.den);
  };

  it.each(['f64', 'f32', 'ff', 'dd'] as const)('%s arithmetic: unscaled and scaled writes store the arithmetic value exactly', (name) => {
    const ar = formats[name].arithmetic!;
    const pairOf = (v: unknown): { hi: number; lo: number } => (ar.kind === 'dd' ? v as { hi: number; lo: number } : { hi: v as number, lo: 0 });
    const plain = range(rowMajor<1, any>({ size: [2], storage: formats.rns106, arithmetic: ar }));
    const value = ar.kind === 'dd' ? ar.fromKind('dd', { hi: 1, lo: 2 ** -40 }) : ar.fromNumber(1 / 3);
    plain.set(0, value);
    expect(stored(plain, 0)).toEqual(exact(pairOf(value)));
    plain.set(1, plain.get(0));
    expect(stored(plain, 1)).toEqual(stored(plain, 0));
    for (const s of [3, 2 ** -30, 1e200]) {
      const scaled = range(scaledReducedRowMajor<1, any>({ size: [1], storage: formats.rns106, arithmetic: ar, scaleMask: [false], scale: Float64Array.of(s) }));
      scaled.set(0, value);
      // One rounding, the arithmetic's quotient: the value / scale as the arithmetic computes it, stored exactly.
      expect(stored(scaled, 0), `scale ${s}`).toEqual(exact(pairOf(ar.div(value, ar.fromNumber(s)))));
      expectModprec(() => scaled.set(0, NaN), 'INVALID_VALUE', 'value');
      expect(stored(scaled, 0)).toEqual(exact(pairOf(ar.div(value, ar.fromNumber(s)))));
    }
  });
});

/**
 * Range.get of a double-double element into RNS arithmetic, which has no NaN or ∞: a non-finite element is
 * INVALID_VALUE naming the element (`range[i]`), as the kernels name theirs. Regression: a finite hi over a NaN or
 * infinite lo passed the check and failed in the conversion, naming its own parameter `lo`.
 */
describe('Range.get of a non-finite double-double pair in RNS arithmetic', () => {
  it.each(['dd', 'ddSplit'] as const)('%s storage', (storage) => {
    for (const [hi, lo] of [[2, NaN], [2, Infinity], [-2, -Infinity], [NaN, 0], [Infinity, 0]] as const) {
      const r = range(rowMajor<1, any>({ size: [2], storage: formats[storage], arithmetic: formats.rns106 }));
      // Raw words: the dd encoders refuse such a pair, but memory shared with other code may hold one.
      const data = r.accessor.data as Float64Array | { hi: Float64Array; lo: Float64Array };
      if (data instanceof Float64Array) { data[2] = hi; data[3] = lo; } else { data.hi[1] = hi; data.lo[1] = lo; }
      expectModprec(() => r.get(1), 'INVALID_VALUE', 'range[1]');
      expect(formats.rns106.arithmetic!.toNumber(r.get(0))).toBe(0);
    }
    // A finite pair whose double sum overflows (MAX + ulp(MAX)/2 rounds to ∞) is a finite value: it reads, exactly.
    const r = range(rowMajor<1, any>({ size: [1], storage: formats[storage], arithmetic: formats.rns106 }));
    const data = r.accessor.data as Float64Array | { hi: Float64Array; lo: Float64Array };
    if (data instanceof Float64Array) { data[0] = Number.MAX_VALUE; data[1] = 2 ** 970; } else { data.hi[0] = Number.MAX_VALUE; data.lo[0] = 2 ** 970; }
    const q = (r.get(0) as { toRational(): Rational }).toRational();
    expect(rational(q.num, q.den)).toEqual(addRational(exactOf(Number.MAX_VALUE), exactOf(2 ** 970)));
  });
});
