/**
 * Ill-conditioned dot products with a chosen condition number: Ogita, Rump, Oishi, "Accurate sum and dot
 * product" (SIAM J. Sci. Comput. 2005), Algorithm 6.1 (GenDot), with a seeded generator and the exact
 * prefix dot products taken from the BigInt oracle.
 */
import { exactDot } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { absRational, divRational, rational } from '../../src/testing/rational.js';

/** A small deterministic PRNG (mulberry32) so failures reproduce. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** GenDot: vectors x, y of length n (≥ 6) whose dot product has condition number near `cond`. */
export function genDot(n: number, cond: number, seed: number): { x: Float64Array; y: Float64Array; cond: number } {
  const rand = prng(seed);
  const b = Math.log2(cond);
  const n2 = Math.round(n / 2);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n2; i++) {
    const e = i === 0 ? Math.round(b / 2) + 1 : i === n2 - 1 ? 0 : Math.round((rand() * b) / 2);
    x[i] = (2 * rand() - 1) * 2 ** e;
    y[i] = (2 * rand() - 1) * 2 ** e;
  }
  for (let i = n2; i < n; i++) {
    const steps = n - n2 - 1;
    const e = Math.round(steps === 0 ? 0 : (b / 2) * (1 - (i - n2) / steps));
    x[i] = (2 * rand() - 1) * 2 ** e;
    const prefix = roundRationalToDouble(exactDot(x.subarray(0, i), y.subarray(0, i)));
    y[i] = ((2 * rand() - 1) * 2 ** e - prefix) / x[i]!;
  }
  // Same random permutation of both.
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [x[i], x[j]] = [x[j]!, x[i]!];
    [y[i], y[j]] = [y[j]!, y[i]!];
  }
  return { x, y, cond: conditionOf(x, y) };
}

/** The condition number 2·|x|ᵀ|y| / |xᵀy| of a dot product, from the exact values. */
export function conditionOf(x: Float64Array, y: Float64Array): number {
  const ax = x.map(Math.abs);
  const ay = y.map(Math.abs);
  const exact = exactDot(x, y);
  return 2 * roundRationalToDouble(divRational(exactDot(ax, ay), absRational(exact.num === 0n ? rational(1n, 1n << 2000n) : exact)));
}
