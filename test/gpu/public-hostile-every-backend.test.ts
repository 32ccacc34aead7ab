/**
 * Every bad argument of the nine kernels is one typed error on every backend. From a valid fp32 call of each kernel
 * (which js, wasm and gpu all run), one argument, one property of its arguments object or one option at a time is
 * replaced by a hostile value (test/core/support/hostile-sweep.ts's, plus wrong ranges, strings for uplo/trans/diag
 * and non-finite numbers); wherever backend 'js' refuses the call, 'wasm', 'gpu' and the automatic choice refuse it
 * with the same code naming the same parameter, and no range is written. (Calls 'js' runs are compared by value in
 * public-xbackend-*.test.ts; here nothing reaches a GPU shader, so the sweep stays fast on llvmpipe.)
 */
import { describe, expect, it } from 'vitest';
import {
  asum, axpy, csrMatrix, csrToEll, dot, ellFromMatrix, ellSpmv, formats, gemv, matrix, nrm2, scal, trsv, vector, waxpby,
} from '../../src/index.js';
import { hostileRanges, hostileValues } from '../core/support/hostile-sweep.js';
import { outcome, rangeBits } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

const f32 = { storage: formats.f32, arithmetic: formats.f32 };
const v = (values: number[]) => vector(values, f32);
const A = () => matrix(2, 2, (i, j) => (i === j ? 4 : 1), f32);
const E = () => ellFromMatrix(csrToEll(csrMatrix({ rows: 2, cols: 2, rowPtr: Int32Array.of(0, 1, 2), colIndex: Int32Array.of(0, 1), values: Float64Array.of(2, 3) })), 'f32');

/** Each kernel, and fresh valid arguments for it (the last one its options). */
const KERNELS: [string, (...a: any[]) => unknown, () => unknown[]][] = [
  ['dot', dot, () => [v([1, 2]), v([3, 4]), {}]],
  ['asum', asum, () => [v([1, -2]), {}]],
  ['nrm2', nrm2, () => [v([3, 4]), {}]],
  ['scal', scal, () => [3, v([1, 2]), {}]],
  ['axpy', axpy, () => [2, v([1, 2]), v([1, 2]), {}]],
  ['waxpby', waxpby, () => [1, v([1, 2]), 2, v([1, 2]), v([1, 2]), {}]],
  ['gemv', gemv, () => [{ alpha: 1, A: A(), x: v([1, 2]), beta: 0, y: v([1, 2]), trans: 'N' }, {}]],
  ['trsv', trsv, () => [{ A: A(), x: v([1, 2]), uplo: 'L', trans: 'N', diag: 'N' }, {}]],
  ['ellSpmv', ellSpmv, () => [{ alpha: 1, A: E(), x: v([1, 2]), beta: 1, y: v([1, 2]) }, {}]],
];

/** Hostile values, wrong ranges, and values aimed at the kernels' own parameters. */
const HOSTILE: readonly (readonly [string, () => unknown])[] = [
  ...hostileValues(), ...hostileRanges(),
  ["'u'", () => 'u'], ["'X'", () => 'X'], ['Infinity', () => Infinity], ['-0', () => -0], ['true', () => true],
  ['an f16 vector', () => vector([1, 2], { storage: formats.f16, arithmetic: formats.f32 })], ['a 2-vector of f32', () => v([5, 6])],
];

/** Options each call is also given with one key set to a hostile value. */
const OPTION_KEYS = ['arithmetic', 'accumulation', 'strict', 'threads', 'into', 'loop', 'blockSize'];

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && Object.getPrototypeOf(x) === Object.prototype;

/** Every range among the arguments (and inside an arguments or options object). */
function rangesOf(args: unknown[]): Parameters<typeof rangeBits>[0] {
  const out: unknown[] = [];
  for (const a of args) for (const x of isPlain(a) ? Object.values(a) : [a]) if (x !== null && typeof x === 'object' && 'accessor' in x) out.push(x);
  return out as Parameters<typeof rangeBits>[0];
}

/** The variants of a call: one argument, one property of an object argument, or one option replaced. */
function variants(sample: unknown[]): [string, (args: unknown[]) => unknown[]][] {
  const out: [string, (args: unknown[]) => unknown[]][] = [];
  const last = sample.length - 1;
  sample.forEach((s, at) => {
    const keys = at === last ? OPTION_KEYS : isPlain(s) ? Object.keys(s) : [];
    for (const [label, make] of HOSTILE) {
      out.push([`argument ${at} = ${label}`, (a) => a.map((x, i) => (i === at ? make() : x))]);
      for (const k of keys) out.push([`argument ${at}.${k} = ${label}`, (a) => a.map((x, i) => (i === at ? { ...(x as object), [k]: make() } : x))]);
    }
  });
  return out;
}

/** The call's outcome with `backend` set in its options (left out: the automatic choice), and whether it wrote. */
async function run(kernel: (...a: any[]) => unknown, args: unknown[], backend: string | undefined): Promise<[string, boolean]> {
  const last = args.length - 1;
  const options = args[last];
  const withBackend = backend === undefined || !isPlain(options) ? args : [...args.slice(0, last), { ...options, backend }];
  const ranges = rangesOf(withBackend);
  const before = rangeBits(ranges);
  const result = await outcome(() => kernel(...withBackend));
  return [result, result === 'ran' || rangeBits(ranges) === before];
}

describe('a bad argument is one typed error on every backend', () => {
  it.each(KERNELS.map(([name, kernel, args]) => [name, kernel, args] as const))('%s', async (_, kernel, args) => {
    await requireRuntime();
    let refused = 0;
    for (const [label, mutate] of variants(args())) {
      const js = await run(kernel, mutate(args()), 'js');
      if (js[0] === 'ran') continue;
      refused++;
      expect([label, ...js]).toEqual([label, expect.stringMatching(/^[A-Z_]+ \S/), true]);
      for (const backend of ['wasm', 'gpu', undefined]) {
        expect([label, backend, ...(await run(kernel, mutate(args()), backend))]).toEqual([label, backend, ...js]);
      }
    }
    // The sweep reaches many refusals of each kernel (bad ranges, coefficients, strings and options).
    expect(refused).toBeGreaterThan(60);
  });
});
