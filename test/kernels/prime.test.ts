/** Priming of cold kernels (src/backends/cpu/prime.ts): two prefix runs on first use only, invisible in results. */
import { describe, it, expect } from 'vitest';
import '../../src/formats/dd/register.js';
import { vector, dot, range, rowMajor } from '../../src/index.js';
import { primeOnce, PRIME_LENGTH } from '../../src/backends/cpu/prime.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { exactDot } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';

describe('primeOnce', () => {
  it('runs the prefix twice on the first call of a kernel only, and not at all for short first runs', () => {
    const calls: number[] = [];
    const f = {}, g = {};
    primeOnce(f, 1000, (k) => calls.push(k));
    primeOnce(f, 1000, (k) => calls.push(k));
    expect(calls).toEqual([PRIME_LENGTH, PRIME_LENGTH]);
    primeOnce(g, PRIME_LENGTH, (k) => calls.push(-k));
    primeOnce(g, 1000, (k) => calls.push(-k));
    expect(calls).toEqual([PRIME_LENGTH, PRIME_LENGTH]);
  });

  it('a cold DOT with `into` returns and stores the full result, not the prefix\'s (fresh signature: interleaved DD storage, pairwise)', () => {
    const n = 3 * PRIME_LENGTH + 1;
    const xs = Array.from({ length: n }, (_, i) => 1 / (i + 1)), ys = Array.from({ length: n }, (_, i) => (i % 3) - 1);
    const x = range(rowMajor<1, DdValue>({ size: n, storage: 'dd' }));
    xs.forEach((v, i) => x.set(i, { hi: v, lo: 0 }));
    const out = range(rowMajor<1, DdValue>({ size: 1, storage: 'dd' }));
    const r = dot(x, vector(ys, { storage: 'f32' }), { accumulation: 'pairwise', into: out });
    expect(r).toBe(roundRationalToDouble(exactDot(xs, ys)));
    expect(out.get(0).hi + out.get(0).lo).toBe(r);
  });
});
