/**
 * Raw double-double pairs read from dd or dd-split storage whose low part outweighs the high part — (0, −1), (1, −3):
 * the JavaScript kernels take them as their value hi + lo where the arithmetic's templates do — ASUM's abs negates
 * both parts where hi + lo < 0 (src/formats/dd/dd-arithmetic.ts), NRM2's scaling by (s, 0) ends in FastTwoSum, which
 * normalises the pair — and the WebAssembly's lanes must do the same.
 * Regressions: the WebAssembly ASUM negated where hi < 0 only (ASUM of (0, −1) was −1; the JavaScript: 1), and its
 * NRM2 scaled both parts without normalising (NRM2 of (0, −1) was 0 and of (1, −3) NaN; the JavaScript: 1 and 2).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { asum, nrm2, range, rowMajor } from '../../src/index.js';

/** A dd or dd-split vector holding the raw pairs as given. */
function rawPairs(pairs: readonly (readonly [number, number])[], storage: 'dd' | 'dd-split') {
  const x = range(rowMajor<1>({ size: [pairs.length], storage, arithmetic: 'dd' }));
  const d = x.accessor.data as unknown as Float64Array & { hi: Float64Array; lo: Float64Array };
  pairs.forEach(([h, l], i) => { if (storage === 'dd') { d[2 * i] = h; d[2 * i + 1] = l; } else { d.hi[i] = h; d.lo[i] = l; } });
  return x;
}

describe('ASUM of raw double-double pairs', () => {
  it('a pair whose low part outweighs its high part counts as |hi + lo| on every CPU backend', () => {
    // Integers (exact sums whatever the order): hi in [−8, 8], lo of the opposite sign and larger.
    const pair = fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: 1, max: 64 }), fc.boolean())
      .map(([h, m, neg]) => [h, (neg ? -1 : 1) * (Math.abs(h) + m)] as const);
    fc.assert(fc.property(fc.array(pair, { minLength: 1, maxLength: 40 }), fc.constantFrom('dd', 'dd-split') as fc.Arbitrary<'dd' | 'dd-split'>,
      fc.constantFrom('recursive', 'dd'), (pairs, storage, accumulation) => {
        const exact = pairs.reduce((s, [h, l]) => s + Math.abs(h + l), 0);
        for (const backend of ['js', 'wasm', 'cpu'] as const) {
          expect(asum(rawPairs(pairs, storage), { backend, accumulation }), `${backend} ${storage} ${accumulation} ${JSON.stringify(pairs)}`).toBe(exact);
        }
      }), { numRuns: 200 });
  });

  it('NRM2: the same value on every CPU backend, the norm of the pairs\' values', () => {
    // Pythagorean pairs of raw elements: (0, −3) and (1, 3) — values −3 and 4 — have the norm 5.
    for (const storage of ['dd', 'dd-split'] as const) {
      for (const accumulation of ['recursive', 'dd']) {
        for (const backend of ['js', 'wasm', 'cpu'] as const) {
          expect(nrm2(rawPairs([[0, -3], [1, 3]], storage), { backend, accumulation }), `${backend} ${storage} ${accumulation}`).toBe(5);
          expect(nrm2(rawPairs([[0, -1]], storage), { backend, accumulation })).toBe(1);
          expect(nrm2(rawPairs([[1, -3]], storage), { backend, accumulation })).toBe(2);
        }
      }
    }
  });
});
