/**
 * ASUM in double-double arithmetic takes |xᵢ| as the arithmetic's abs does (src/formats/dd/dd-arithmetic.ts): both
 * parts negated where hi + lo < 0, so a raw pair read from dd or dd-split storage whose low part outweighs its high
 * part — (0, −1), (1, −3) — counts as the magnitude of its value. The WebAssembly's lanes (kernels/asum/asum-dd-wasm.ts)
 * must do the same as the JavaScript.
 * Regression: the WebAssembly negated where hi < 0 only, so ASUM of (0, −1) returned −1 (the JavaScript: 1).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { asum, range, rowMajor } from '../../src/index.js';

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
});
