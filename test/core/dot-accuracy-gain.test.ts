/**
 * The accessor's accuracy gain (Anzt et al.; issue 2): DOT on fp32-stored data computed in fp64 has a clearly
 * smaller mean relative error than pure fp32, against the exact dot product of the stored values, on uniform
 * [−1, 1] data, several seeds, n up to 1e5.
 */
import { describe, expect, it } from 'vitest';
import { range } from '../../src/core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { dot } from '../../kernels/dot/dot.js';
import { exactDot, relativeError } from '../../src/testing/exact.js';

/** Uniform doubles in [−1, 1) from a seeded 32-bit generator (mulberry32, two draws per 53-bit value). */
function uniformData(n: number, seed: number): Float64Array {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return Float64Array.from({ length: n }, () => 2 * (next() + next() * 2 ** -32) - 1);
}

/** The relative errors of DOT in fp32 and in fp64 arithmetic on the same fp32-stored vectors. */
function dotErrors(n: number, seed: number): { f32: number; f64: number } {
  const xs = Float32Array.from(uniformData(n, seed));
  const ys = Float32Array.from(uniformData(n, seed + 1000));
  const exact = exactDot(Float64Array.from(xs), Float64Array.from(ys));
  const view = (data: Float32Array, arithmetic: 'f32' | 'f64') => range(rowMajor<1>({ size: [n], storage: 'f32', arithmetic, data }));
  return {
    f32: relativeError(dot(view(xs, 'f32'), view(ys, 'f32')), exact),
    f64: relativeError(dot(view(xs, 'f64'), view(ys, 'f64')), exact),
  };
}

describe('DOT accuracy gain of fp32 storage with fp64 arithmetic', () => {
  it.each([1_000, 10_000, 100_000])('n = %i: the mean relative error is at least 1000× smaller than pure fp32', (n) => {
    const seeds = [1, 2, 3, 4, 5];
    const errors = seeds.map((seed) => dotErrors(n, seed));
    const mean = (k: 'f32' | 'f64') => errors.reduce((s, e) => s + e[k], 0) / errors.length;
    // fp32 accumulation loses ~u32·√n relative (times the condition number); fp64 on the same data ~u64·√n.
    expect(mean('f32')).toBeGreaterThan(0);
    expect(mean('f64')).toBeLessThan(mean('f32') / 1000);
    if (process.env.MODPREC_TEST_STATS) console.log(n, mean('f32'), mean('f64'));
  });
});
