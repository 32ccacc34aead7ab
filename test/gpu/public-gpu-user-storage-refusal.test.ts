/**
 * A user's storage whose write throws (here: formats that refuse a negative value), as the output of a `backend: 'gpu'`
 * call, gives the CPU's typed error: INVALID_VALUE naming the element, the format's error as `cause`, the output's
 * buffer as it was. Regression: DOT's `options.into` in a format with no GPU part is written by the storage codec
 * after the run (writePair), and its RangeError came through the promise as it was (dot(x, y, { backend: 'gpu', into })
 * with x·y = -3 rejected with "negative: -3", where the CPU gives INVALID_VALUE options.into[0]); likewise an output
 * in a format whose GPU part writes but whose device words are not its CPU bytes (the codec writes back the decoded
 * values): DOT's into, and the outputs of GEMV, AXPY, WAXPBY and SCAL, written up to the refused element before the error;
 * and DOT's into with an RNS arithmetic on the device (its exact result written by the codec; RNS outputs of the other
 * kernels are RNS or built-in storage only).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, dot, formats, gemv, matrix, ModprecError, range, registerFormat, rowMajor, scal, span, trsv, typedArrayStorage, vector, waxpby, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { decodeE5M2, e5m2LanePart, encodeE5M2 } from './e5m2-gpu-writer.js';

const refuseNegative = (v: number): number => { if (v < 0) throw new RangeError(`negative: ${v}`); return v; };

/** fp64 storage with no GPU part that refuses negative values in its write. */
const plain = registerFormat({
  name: 'test-gpu-refusing-f64',
  storage: typedArrayStorage<Float64Array>({
    name: 'test-gpu-refusing-f64', array: Float64Array, significandBits: 53, unitRoundoff: 2 ** -53, isInteger: false, maxValue: Number.MAX_VALUE,
    encodeHelper: { name: 'testGpuRefusingF64Encode', fn: refuseNegative },
  }),
});

/** E5M2 whose GPU part writes (its words not declared as the CPU's bytes: the codec writes the values back), refusing negatives. */
const writable = registerFormat({
  name: 'test-gpu-refusing-e5m2',
  storage: {
    ...typedArrayStorage<Uint8Array>({
      name: 'test-gpu-refusing-e5m2', array: Uint8Array, significandBits: 3, unitRoundoff: 2 ** -3, isInteger: false, maxValue: 57344,
      encodeHelper: { name: 'testGpuRefusingE5m2Encode', fn: (v: number) => encodeE5M2(refuseNegative(v)) },
      decodeHelper: { name: 'testGpuRefusingE5m2Decode', fn: decodeE5M2 },
    }),
    gpu: { ...e5m2LanePart('test-gpu-refusing-e5m2'), hostBytes: false },
  },
});

/** A view of n elements one element into a buffer of sentinel words (the words the call must leave as they were). */
function output(format: typeof plain, n: number): { data: Float64Array | Uint8Array; out: Range<1, any> } {
  const data = format === plain ? Float64Array.from({ length: n + 2 }, (_, k) => 0.75 + k) : Uint8Array.from({ length: n + 2 }, (_, k) => 56 + k);
  const parent = range(rowMajor<1>({ size: [n + 2], storage: format, arithmetic: 'f32', data } as never));
  return { data, out: parent.sub(span(1, n + 1)) };
}

async function rejection(p: Promise<unknown>): Promise<ModprecError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  if (!(e instanceof ModprecError)) throw new Error(`expected a ModprecError, got ${String(e)}`);
  return e;
}

describe("backend 'gpu': a user's storage that throws in its write", () => {
  it('DOT into (no GPU part, or a writing part): INVALID_VALUE options.into[0], cause kept, into as it was; a value it takes is stored', async () => {
    await requireRuntime();
    const ints = fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 1, maxLength: 5 });
    // f32 on the device, or RNS (its exact result written by the codec on the CPU).
    await fc.assert(fc.asyncProperty(ints, fc.constantFrom(plain, writable), fc.constantFrom('f32', 'rns106'), async (xs, format, arithmetic) => {
      const x = vector(xs, { storage: formats.f64, arithmetic: formats.f32 });
      const y = vector(xs.map((_, i) => (i % 2 === 0 ? 1 : -1)), { storage: formats.f64, arithmetic: formats.f32 });
      const exact = xs.reduce((s, v, i) => s + (i % 2 === 0 ? v : -v), 0);
      const { data, out } = output(format, 1);
      const before = Array.from(data);
      const call = dot(x, y, { backend: 'gpu', strict: true, arithmetic, into: out });
      if (exact < 0) {
        const e = await rejection(call);
        expect([e.code, e.parameter]).toEqual(['INVALID_VALUE', 'options.into[0]']);
        expect((e as { cause?: unknown }).cause).toBeInstanceOf(RangeError);
        expect(Array.from(data)).toEqual(before);
      } else {
        expect((await call).value).toBe(exact);
        // The sum of small integers is exact in f32: stored once, rounded to the format; the sentinels untouched.
        expect(Array.from(data)).toEqual([before[0], format === plain ? exact : encodeE5M2(exact), before[2]]);
      }
    }), { numRuns: 10, examples: [[[-3], plain, 'f32'], [[-3], writable, 'f32'], [[2, 5], writable, 'f32'], [[-3], plain, 'rns106'], [[1, 4], writable, 'rns106']] });
  });

  it('GEMV, AXPY, WAXPBY, SCAL and TRSV outputs in a writing part: INVALID_VALUE naming the element, cause kept, every byte as it was', async () => {
    await requireRuntime();
    const n = 4, f32 = { arithmetic: formats.f32 };
    const ones = vector(n, () => 1, f32);
    // Each call's result is negative at element k only (the outputs' old values are positive: sentinel bytes 57…60).
    const cases: [string, number, (out: Range<1, any>, k: number) => Promise<unknown>][] = [
      ['y', 2, (y, k) => gemv({ alpha: 1, A: matrix(n, n, (i, j) => (i === k ? -1 : 1) * (j + 1), f32), x: ones, beta: 0, y }, { backend: 'gpu', strict: true })],
      ['y', 1, (y, k) => axpy(1, vector(n, (i) => (i === k ? -200 : i), f32), y, { backend: 'gpu', strict: true })],
      ['w', 3, (w, k) => waxpby(1, vector(n, (i) => (i === k ? -3 : i), f32), 0.5, ones, w, { backend: 'gpu', strict: true })],
      // α = -1 makes every element negative: the first is refused.
      ['x', 0, (x) => scal(-1, x, { backend: 'gpu', strict: true })],
      // TRSV's x, solved in place: a pivot −1 at row k negates x_k alone.
      ['x', 1, (x, k) => trsv({ A: matrix(n, n, (i, j) => (i === j ? (i === k ? -1 : 1) : 0), f32), x }, { backend: 'gpu', strict: true })],
    ];
    for (const [name, k, run] of cases) {
      const { data, out } = output(writable, n);
      const before = Array.from(data);
      const e = await rejection(run(out, k));
      expect([e.code, e.parameter]).toEqual(['INVALID_VALUE', `${name}[${k}]`]);
      expect((e as { cause?: unknown }).cause).toBeInstanceOf(RangeError);
      expect(Array.from(data)).toEqual(before);
    }
  });
});
