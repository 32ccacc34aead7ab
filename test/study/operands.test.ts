/**
 * Scaled-integer operands of the study: the image the operands are filled with is the one the stored
 * reference uses, each value is within half a quantum (plus one fp64 rounding) of the original, and every
 * group's largest magnitude lands on the storage's largest integer.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import '../../src/index.js'; // registers every format
import { integerImage, matrixOf, outputOf, resolveConfiguration, storedValues, vectorOf, largestScale } from '../../app/study/operands.js';
import { toArray } from '../../src/core/vectors.js';
import { makeCase } from '../../app/study/kernel-case.js';
import { dotReference } from '../../app/study/reference.js';

const finite = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e-300, max: 1e-300, noNaN: true }));
const config = (storage: string, arithmetic = 'f64') => resolveConfiguration({ storage, arithmetic, backend: 'cpu' });

describe('study operands in scaled integer storage', () => {
  it('|integer·scale − v| ≤ scale/2 + 2^-53|v| (subnormals included); the largest magnitude of each group maps to ±maxValue', () => {
    fc.assert(fc.property(fc.constantFrom('i8', 'i16', 'i32'), fc.integer({ min: 1, max: 5 }), fc.array(finite, { minLength: 1, maxLength: 40 }), (name, rows, list) => {
      const values = Float64Array.from(list);
      const c = config(name);
      const image = integerImage(c.storageFormat, values, rows);
      const top = new Float64Array(rows);
      values.forEach((v, k) => { top[image.group(k)] = Math.max(top[image.group(k)]!, Math.abs(v)); });
      values.forEach((v, k) => {
        const s = image.scales[image.group(k)]!;
        expect(Number.isInteger(image.integers[k])).toBe(true);
        expect(Math.abs(image.integers[k]!)).toBeLessThanOrEqual(c.storageFormat.maxValue);
        expect(Math.abs(image.integers[k]! * s - v)).toBeLessThanOrEqual((s / 2 + 2 ** -53 * Math.abs(v)) * (1 + 2 ** -50));
        // (a group of subnormals may use fewer integers: its scale cannot go below the smallest double)
        if (Math.abs(v) === top[image.group(k)] && Math.abs(v) >= 2 ** -1000) expect(Math.abs(image.integers[k]!)).toBe(c.storageFormat.maxValue);
      });
    }));
  });

  it('vectors and matrices read back exactly the stored values the reference uses (fp64 arithmetic)', () => {
    fc.assert(fc.property(fc.constantFrom('i8', 'i16'), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.array(finite, { minLength: 16, maxLength: 16 }), (name, m, n, list) => {
      const c = config(name);
      const v = Float64Array.from(list.slice(0, m * n));
      const A = matrixOf(c, m, n, v);
      const stored = storedValues(c, v, { rows: m });
      for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) expect(A.get(i, j)).toBe(stored[i + j * m]);
      const x = vectorOf(c, v);
      expect(Array.from(toArray(x))).toEqual(Array.from(storedValues(c, v, 'vector')));
      // the largest scale of a group that holds a non-zero value (an all-zero group's scale 1 stores exact zeros)
      const image = integerImage(c.storageFormat, v, m);
      const used = Array.from(image.scales).filter((_, g) => v.some((value, k) => image.group(k) === g && value !== 0));
      expect(largestScale(c, [v], [{ rows: m }])).toBe(used.length > 0 ? Math.max(...used) : 0);
    }));
  });

  it('outputs of an integer configuration live in the arithmetic format; other configurations keep their storage', () => {
    const v = Float64Array.of(0.1, -2.5, 3);
    expect(outputOf(config('i16', 'f32'), v).accessor.storage.name).toBe('f32');
    expect(outputOf(config('i8', 'f64'), v).accessor.storage.name).toBe('f64');
    expect(outputOf(config('f16', 'f32'), v).accessor.storage.name).toBe('f16');
    expect(Array.from(storedValues(config('i16', 'f32'), v, 'output'))).toEqual(Array.from(v, Math.fround));
  });
});

describe('a-priori bound of a study case', () => {
  it('is infinite when an input overflows the storage (fp16 beyond 65504), finite otherwise', () => {
    const of = (x: Float64Array, y: Float64Array) => makeCase({
      kernel: 'dot', problem: 'test', size: x.length, seed: null, flops: 2 * x.length, values: 2 * x.length, inputs: [x, y],
      referenceOf: ([a, b]) => dotReference(a!, b!), resultStored: false,
      outputTerms: () => [{ terms: x.length, absProducts: x.reduce((t, v, i) => t + Math.abs(v * y[i]!), 0), absInputs: 0, absExact: 1 }],
      bind: () => { throw new Error('not used'); },
    });
    const y = Float64Array.of(1, 1);
    expect(of(Float64Array.of(7e4, 1), y).bound(config('f16', 'f32'))).toBe(Infinity);
    expect(Number.isFinite(of(Float64Array.of(6e4, 1), y).bound(config('f16', 'f32')))).toBe(true);
    expect(Number.isFinite(of(Float64Array.of(7e4, 1), y).bound(config('f32', 'f32')))).toBe(true);
    expect(Number.isFinite(of(Float64Array.of(7e4, 1), y).bound(config('i8', 'f32')))).toBe(true); // scaled: never overflows
  });
});
