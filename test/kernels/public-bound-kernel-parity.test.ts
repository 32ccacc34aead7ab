/**
 * Every public bound function validates a call exactly as its kernel does, on every backend: for a sweep of bad calls
 * — bad options, non-finite values and coefficients under an RNS arithmetic, mismatched lengths, wrong storage, bad
 * α/β, combinations a backend cannot run, and two faults at once (which one is reported is the order: arguments, then
 * options, then values, then capability), and random combinations of them — the kernel and its bound raise the same
 * code naming the same parameter, or both succeed (the bound with non-negative numbers).
 *
 * Regressions:
 * - RNS with a NaN in x: dot refused `INVALID_VALUE` naming `x[1]` on every backend, but dotBound threw backend
 *   'wasm''s refusal of RNS (`INVALID_OPTION`) and with 'js', 'cpu' or 'gpu' returned a bound (its values unchecked);
 *   likewise every bound function (gemvBound checked α and β only, after the capability).
 * - `options.threads` with operands outside shared memory: the kernels refuse `INVALID_STORAGE` naming the operand,
 *   the bounds returned a bound for a call that cannot run.
 * - dotBound(x, 'x-not-a-range', 5) reported `options` where dot reports `y`: the bounds checked the options object
 *   before their arguments.
 *
 * `backend: 'gpu'`: the kernels validate synchronously before handing the call to the GPU runner; the runners are
 * stubs here (no adapter, shader or CPU fallback runs), so the comparison is with the kernel's own validation.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { BOUND_OPTION_VALUES, fakePool, outcome, sometimesInvalidOptions } from './option-arbitraries.js';
import {
  asum, asumBound, axpy, axpyBound, dot, dotBound, ellMatrix, ellSpmv, ellSpmvBound, formats, gemv, gemvBound, matrix,
  nrm2, nrm2Bound, nrm2RelativeBound, range, scal, scalBound, scaledReducedRowMajor, trsv, trsvBound, vector, waxpby,
  waxpbyBound, type Range,
} from '../../src/index.js';
import type { ThreadPool } from '../../src/threads/index.js';
import { poolFromSources } from '../threads/thread-test-helpers.js';
import { StoreFailure } from '../../src/backends/cpu/store-failure.js';

vi.mock('../../src/backends/webgpu-bridge/gpu-dispatch.js', async (io) => (await import('./gpu-dispatch-stub.js')).stubGpuDispatch(io));

/** How a call departs from a valid one (fields absent: the valid call of n = 3, α = 1.5, β = 0.5, fp64 operands). */
interface Call {
  readonly n?: number;
  readonly alpha?: unknown;
  readonly beta?: unknown;
  /** A non-finite value (or 0, a pivot) written into an operand: x, y, w, A (A.values for ELL SpMV) at `index`. */
  readonly poison?: { readonly operand: string; readonly value: number; readonly index?: number };
  /** An operand made bad: one element short, read-only, not a range, 2-D. */
  readonly bad?: { readonly operand: string; readonly how: 'short' | 'read-only' | 'not-a-range' | '2-D' };
  /** An operand stored in another format, by name (mixed operands: the default arithmetic is the most precise). */
  readonly stored?: { readonly operand: string; readonly storage: string };
  readonly options?: unknown;
}

/** A fresh valid-or-bad operand of length `n`, stored in `storage`. */
function operand(name: string, n: number, c: Call, fill: (i: number) => number): unknown {
  const storage = c.stored?.operand === name ? c.stored.storage : 'f64';
  const bad = c.bad?.operand === name ? c.bad.how : undefined;
  if (bad === 'not-a-range') return [1, 2, 3];
  if (bad === '2-D') return matrix(n, 1);
  const length = bad === 'short' ? Math.max(0, n - 1) : n;
  // i8 under one scale: read by every CPU backend but WebAssembly's RNS path, and refused by RNS on the GPU.
  const r = storage === 'scaled-i8'
    ? range(scaledReducedRowMajor<1>({ size: [length], storage: 'i8', scaleMask: [false], scale: new Float64Array([0.25]) }))
    : vector(length, fill, { storage: formats[storage as keyof typeof formats] });
  if (storage === 'scaled-i8') for (let i = 0; i < length; i++) r.set(i, fill(i));
  if (c.poison?.operand === name) r.set(c.poison.index ?? 1, c.poison.value);
  return bad === 'read-only' ? r.toConst() : r;
}

/** An upper triangular n×n matrix with pivots 2 (A's poison goes to [index, index], on the diagonal of both triangles). */
function squareMatrix(n: number, c: Call): unknown {
  const bad = c.bad?.operand === 'A' ? c.bad.how : undefined;
  if (bad === 'not-a-range') return [[1]];
  if (bad === '2-D') return vector(n);
  const storage = formats[(c.stored?.operand === 'A' ? c.stored.storage : 'f64') as keyof typeof formats];
  const A = matrix(n, bad === 'short' ? Math.max(0, n - 1) : n, (i, j) => (i === j ? 2 : i < j ? 0.5 : 0), { storage: storage as never });
  if (c.poison?.operand === 'A') { const k = c.poison.index ?? 1; A.set(k, k, c.poison.value); }
  return bad === 'read-only' ? A.toConst() : A;
}

/** An n×n diagonal ELL matrix (A.values poisoned at row `index`). */
function ell(n: number, c: Call): unknown {
  if (c.bad?.operand === 'A') return c.bad.how === 'not-a-range' ? 'A' : matrix(n, n);
  const values = new Float64Array(n).fill(2);
  if (c.poison?.operand === 'A' && n > 0) values[c.poison.index ?? 1] = c.poison.value;
  return ellMatrix({ rows: n, cols: n, width: 1, stride: n, colIndex: Int32Array.from({ length: n }, (_, i) => i), values });
}

type Pair = readonly [kernel: () => unknown, bound: () => unknown];

/** Each kernel beside its bound function for the call `c`: both build their own fresh operands (kernels write them). */
const KERNELS: Readonly<Record<string, (c: Call) => Pair>> = {
  dot: (c) => both((v) => dot(v('x'), v('y'), opts(c)), (v) => dotBound(v('x'), v('y'), opts(c)), c),
  asum: (c) => both((v) => asum(v('x'), opts(c)), (v) => asumBound(v('x'), opts(c)), c),
  nrm2: (c) => both((v) => nrm2(v('x'), opts(c)), (v) => nrm2Bound(v('x'), opts(c)), c),
  axpy: (c) => both((v, a) => axpy(a, v('x'), v('y'), opts(c)), (v, a) => axpyBound(a, v('x'), v('y'), opts(c)), c),
  waxpby: (c) => both((v, a, b) => waxpby(a, v('x'), b, v('y'), v('w'), opts(c)), (v, a, b) => waxpbyBound(a, v('x'), b, v('y'), v('w'), opts(c)), c),
  scal: (c) => both((v, a) => scal(a, v('x'), opts(c)), (v, a) => scalBound(a, v('x'), opts(c)), c),
  gemv: (c) => both((v, a, b) => gemv({ alpha: a, A: v('A'), x: v('x'), beta: b, y: v('y') }, opts(c)), (v, a, b) => gemvBound({ alpha: a, A: v('A'), x: v('x'), beta: b, y: v('y') }, opts(c)), c),
  ellSpmv: (c) => both((v, a, b) => ellSpmv({ alpha: a, A: v('A'), x: v('x'), beta: b, y: v('y') }, opts(c)), (v, a, b) => ellSpmvBound({ alpha: a, A: v('A'), x: v('x'), beta: b, y: v('y') }, opts(c)), c, 'ell'),
  trsv: (c) => both((v) => trsv({ A: v('A'), x: v('x') }, opts(c)), (v) => trsvBound({ A: v('A'), x: v('x') }, opts(c)), c),
};

const opts = (c: Call): never => c.options as never;

/** The kernel and bound thunks of a call, each with its own operands. */
function both(kernel: (v: (name: string) => any, alpha: any, beta: any) => unknown, bound: (v: (name: string) => any, alpha: any, beta: any) => unknown, c: Call, matrixKind: 'dense' | 'ell' = 'dense'): Pair {
  const n = c.n ?? 3;
  const operands = (): ((name: string) => any) => {
    const made = new Map<string, unknown>();
    return (name) => {
      if (!made.has(name)) {
        made.set(name, name === 'A' ? (matrixKind === 'ell' ? ell(n, c) : squareMatrix(n, c)) : operand(name, n, c, (i) => (i + 1) / 4));
      }
      return made.get(name);
    };
  };
  const alpha = 'alpha' in c ? c.alpha : 1.5, beta = 'beta' in c ? c.beta : 0.5;
  return [() => kernel(operands(), alpha, beta), () => bound(operands(), alpha, beta)];
}

const BACKENDS = [undefined, 'cpu', 'js', 'wasm', 'gpu'] as const;
const rns = formats.rns106;

/** The bad calls, each tried on every backend (its `options` get the backend). */
const CALLS: readonly (Call & { readonly name: string })[] = [
  { name: 'valid' },
  { name: 'valid, empty', n: 0 },
  { name: 'valid in RNS', options: { arithmetic: rns } },
  // Options.
  { name: 'unknown arithmetic', options: { arithmetic: 'nope' } },
  { name: 'unknown accumulation', options: { accumulation: 'nope' } },
  { name: 'strict not a boolean', options: { strict: 'x' } },
  { name: 'threads not a pool', options: { threads: {} } },
  { name: 'a pool', options: { threads: fakePool } },
  { name: 'kahan in dd', options: { arithmetic: formats.dd, accumulation: 'kahan' } },
  { name: 'pairwise in fp32', options: { arithmetic: formats.f32, accumulation: 'pairwise' } },
  { name: 'fp64 arithmetic', options: { arithmetic: formats.f64 } },
  { name: 'an accumulation', options: { accumulation: 'recursive' } },
  { name: 'dd', options: { arithmetic: formats.dd } },
  // Values under RNS (none of them read by the quick returns).
  ...['x', 'y', 'w', 'A'].flatMap((operand) => [NaN, -Infinity].map((value) => ({ name: `${value} in ${operand}, RNS`, poison: { operand, value }, options: { arithmetic: rns } }))),
  { name: 'NaN in x, RNS, index 0', poison: { operand: 'x', value: NaN, index: 0 }, options: { arithmetic: rns } },
  { name: 'zero pivot, RNS', poison: { operand: 'A', value: 0 }, options: { arithmetic: rns } },
  { name: 'NaN α, RNS', alpha: NaN, options: { arithmetic: rns } },
  { name: '∞ β, RNS', beta: Infinity, options: { arithmetic: rns } },
  { name: 'NaN α = 0 quick return, RNS', alpha: 0, beta: 1, poison: { operand: 'x', value: NaN }, options: { arithmetic: rns } },
  { name: 'NaN in y with β = 0, RNS', beta: 0, poison: { operand: 'y', value: NaN }, options: { arithmetic: rns } },
  { name: 'NaN in x, fp64 (IEEE: runs)', poison: { operand: 'x', value: NaN } },
  { name: 'NaN in x with an RNS-stored y (default arithmetic RNS)', poison: { operand: 'x', value: NaN }, stored: { operand: 'y', storage: 'rns106' } },
  { name: 'RNS-stored x', stored: { operand: 'x', storage: 'rns106' } },
  { name: 'scaled i8 x, RNS', stored: { operand: 'x', storage: 'scaled-i8' }, options: { arithmetic: rns } },
  { name: 'scaled i8 x, RNS, NaN α', alpha: NaN, stored: { operand: 'x', storage: 'scaled-i8' }, options: { arithmetic: rns } },
  { name: 'scaled i8 x, RNS, NaN in y', poison: { operand: 'y', value: NaN }, stored: { operand: 'x', storage: 'scaled-i8' }, options: { arithmetic: rns } },
  { name: 'NaN in x, RNS, unknown accumulation', poison: { operand: 'x', value: NaN }, options: { arithmetic: rns, accumulation: 'nope' } },
  { name: 'NaN in x, RNS, an accumulation', poison: { operand: 'x', value: NaN }, options: { arithmetic: rns, accumulation: 'recursive' } },
  { name: 'NaN in x, RNS, a pool', poison: { operand: 'x', value: NaN }, options: { arithmetic: rns, threads: fakePool } },
  { name: 'NaN in x, RNS, threads not a pool', poison: { operand: 'x', value: NaN }, options: { arithmetic: rns, threads: 2 } },
  // Kernel-specific options (other kernels ignore the key), in order with the values.
  { name: 'loop axpy with kahan', options: { loop: 'axpy', accumulation: 'kahan' } },
  { name: 'loop dot', options: { loop: 'dot' } },
  { name: 'loop sideways', options: { loop: 'sideways' } },
  { name: 'loop axpy, RNS, NaN in x', poison: { operand: 'x', value: NaN }, options: { loop: 'axpy', arithmetic: rns } },
  { name: 'a block size', options: { blockSize: 128 } },
  { name: 'a bad block size', options: { blockSize: 100 } },
  { name: 'a block size, RNS, NaN in x', poison: { operand: 'x', value: NaN }, options: { blockSize: 64, arithmetic: rns } },
  { name: 'a block size, RNS, an accumulation', options: { blockSize: 64, arithmetic: rns, accumulation: 'recursive' } },
  { name: 'into', options: { into: vector(1) } },
  { name: 'into, RNS, NaN in x', poison: { operand: 'x', value: NaN }, options: { into: vector(1), arithmetic: rns } },
  { name: 'into with a pool', options: { into: vector(1), threads: fakePool } },
  // Arguments.
  ...['x', 'y', 'w', 'A'].flatMap((operand) => (['short', 'read-only', 'not-a-range', '2-D'] as const).map((how) => ({ name: `${how} ${operand}`, bad: { operand, how } }))),
  { name: 'short x and bad options', bad: { operand: 'x', how: 'short' }, options: 5 },
  { name: 'not-a-range y and a bad accumulation', bad: { operand: 'y', how: 'not-a-range' }, options: { accumulation: 'nope' } },
  { name: 'α a string', alpha: '1' },
  { name: 'β undefined', beta: undefined },
  { name: 'α NaN (IEEE: runs)', alpha: NaN },
  // Options that are no object.
  { name: 'options null', options: null },
  { name: 'options a number', options: 5 },
];

/** The call's options with `backend` (options that are no object stay as they are). */
function withBackend(c: Call, backend: string | undefined): Call {
  if (backend === undefined) return c;
  if (c.options !== undefined && (typeof c.options !== 'object' || c.options === null)) return c;
  return { ...c, options: { ...(c.options as object | undefined), backend } };
}

/** What a call gives: a typed error's `CODE parameter`, or 'ok' for a bound of non-negative numbers. */
function boundOutcome(f: () => unknown): string {
  const o = outcome(f);
  if (!o.ok) return o.error;
  const v = o.value;
  const values = typeof v === 'number' ? [v] : v instanceof Float64Array ? [...v] : undefined;
  return values !== undefined && values.every((b) => b >= 0) ? 'ok' : `not a bound: ${String(v)}`;
}

/**
 * The kernel's outcome as {@link kernelOutcome} gives it, or, where a result was not finite for an RNS-stored output
 * (a refusal only the computation can find), the element it names and its index.
 */
function storeFailureOf(f: () => unknown): string | { parameter: string; index: number } {
  try {
    f();
    return 'ok';
  } catch (e) {
    if (e instanceof StoreFailure) return { parameter: e.parameter!, index: Number(/\[(\d+)\]$/.exec(e.parameter!)![1]) };
    return kernelOutcome(() => { throw e; });
  }
}

/**
 * Runs a call's kernel and bound and expects them to agree: the same outcome, or, where the kernel found a result its
 * RNS output cannot hold (known only once computed), a bound that runs and is +∞ at that element.
 * @returns whether the kernel found such a result
 */
function agree(name: string, c: Call): boolean {
  const [kernel, bound] = KERNELS[name]!(c);
  const failure = storeFailureOf(kernel);
  if (typeof failure === 'string') {
    expect({ name, bound: boundOutcome(bound) }).toEqual({ name, bound: failure });
    return false;
  }
  const o = outcome(bound);
  expect({ name, element: failure.parameter, bound: o.ok ? (o.value as Float64Array)[failure.index] : o.error }).toEqual({ name, element: failure.parameter, bound: Infinity });
  return true;
}

/** The kernel's outcome: a typed error's `CODE parameter`, or 'ok'. */
function kernelOutcome(f: () => unknown): string {
  const o = outcome(f);
  return o.ok ? 'ok' : o.error;
}

describe('every bound function validates a call as its kernel does, on every backend', () => {
  it('the sweep: the same code naming the same parameter, or both run', () => {
    const mismatches: string[] = [];
    const seen = new Set<string>();
    for (const [name, pairOf] of Object.entries(KERNELS)) {
      for (const c of CALLS) {
        for (const backend of BACKENDS) {
          const [kernel, bound] = pairOf(withBackend(c, backend));
          const k = kernelOutcome(kernel), b = boundOutcome(bound);
          seen.add(k);
          if (k !== b) mismatches.push(`${name}, ${c.name}, backend ${backend}: kernel ${k}, bound ${b}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // The sweep reaches what it exists for: runs, value errors under RNS, capability refusals, argument errors.
    for (const error of ['ok', 'INVALID_VALUE x[1]', 'INVALID_VALUE x[0]', 'INVALID_VALUE y[1]', 'INVALID_VALUE A[1, 1]', 'INVALID_VALUE A.values[1, 0]',
      'INVALID_VALUE alpha', 'INVALID_VALUE beta', 'INVALID_OPTION options.arithmetic', 'INVALID_OPTION options.accumulation',
      'INVALID_OPTION options.threads', 'INVALID_OPTION options', 'DIMENSION_MISMATCH x', 'INVALID_STORAGE y', 'INVALID_OPTION x',
      'INVALID_OPTION options.loop', 'INVALID_OPTION options.blockSize', 'INVALID_OPTION options.into', 'INVALID_FORMAT x']) {
      expect(seen).toContain(error);
    }
  });

  it('regression: dotBound under RNS with a NaN in x names x[1] on every backend, as dot does', () => {
    for (const backend of BACKENDS) {
      const x = vector([1, NaN, 3]), y = vector([1, 2, 3]);
      const options = { arithmetic: rns, ...(backend ? { backend } : {}) } as never;
      expect(boundOutcome(() => dotBound(x, y, options))).toBe('INVALID_VALUE x[1]');
      expect(kernelOutcome(() => dot(x, y, options))).toBe('INVALID_VALUE x[1]');
    }
  });

  it('regression: arguments before the options object (dotBound(x, [], 5) names y)', () => {
    const x = vector([1, 2]);
    expect(boundOutcome(() => dotBound(x, [] as never, 5 as never))).toBe('INVALID_OPTION y');
    expect(boundOutcome(() => gemvBound({ alpha: 1, A: matrix(2, 2), x, beta: 0, y: vector(3) }, null as never))).toBe('DIMENSION_MISMATCH y');
  });

  it('nrm2RelativeBound (no x) refuses the options nrm2 refuses for an fp64 x of that length', () => {
    for (const c of CALLS.filter((call) => !call.poison && !call.bad && !call.stored && !('alpha' in call) && !('beta' in call))) {
      for (const backend of BACKENDS) {
        const { options, n = 3 } = withBackend(c, backend);
        expect({ c: c.name, backend, bound: boundOutcome(() => nrm2RelativeBound(n, options as never)) })
          .toEqual({ c: c.name, backend, bound: kernelOutcome(() => nrm2(vector(n), options as never)) });
      }
    }
  });
});

describe('with a pool: the bound refuses what the pool refuses for the kernel\'s call', () => {
  let pool: ThreadPool;
  beforeAll(async () => { pool = await poolFromSources(2); });
  afterAll(async () => { await pool?.terminate(); });

  /** A shared fp64 vector. */
  const shared = (n: number): Range<1> => vector(n, (i) => i + 1, { shared: true });

  it('operands outside shared memory: INVALID_STORAGE naming the operand, for the kernel and its bound', () => {
    const calls: Record<string, Pair> = {
      dot: [() => dot(vector(3), shared(3), { threads: pool }), () => dotBound(vector(3), shared(3), { threads: pool })],
      asum: [() => asum(vector(0), { threads: pool }), () => asumBound(vector(0), { threads: pool })],
      axpy: [() => axpy(0, shared(3), vector(3), { threads: pool }), () => axpyBound(0, shared(3), vector(3), { threads: pool })],
      scal: [() => scal(2, vector(3), { threads: pool }), () => scalBound(2, vector(3), { threads: pool })],
      waxpby: [() => waxpby(1, shared(3), 1, shared(3), vector(3), { threads: pool }), () => waxpbyBound(1, shared(3), 1, shared(3), vector(3), { threads: pool })],
      gemv: [() => gemv({ alpha: 1, A: matrix(3, 3), x: shared(3), beta: 0, y: shared(3) }, { threads: pool }),
        () => gemvBound({ alpha: 1, A: matrix(3, 3), x: shared(3), beta: 0, y: shared(3) }, { threads: pool })],
    };
    const expected: Record<string, string> = { dot: 'INVALID_STORAGE x', asum: 'INVALID_STORAGE x', axpy: 'INVALID_STORAGE y', scal: 'INVALID_STORAGE x', waxpby: 'INVALID_STORAGE w', gemv: 'INVALID_STORAGE A' };
    for (const [name, [kernel, bound]] of Object.entries(calls)) {
      expect({ name, kernel: kernelOutcome(kernel) }).toEqual({ name, kernel: expected[name] });
      expect({ name, bound: boundOutcome(bound) }).toEqual({ name, bound: expected[name] });
    }
    // Shared operands: both run.
    expect(boundOutcome(() => dotBound(shared(3), shared(3), { threads: pool }))).toBe('ok');
  });

  it('DOT: into with a pool is refused before the pool checks the operands, by dot and dotBound alike', () => {
    const into = vector(1);
    expect(kernelOutcome(() => dot(vector(3), vector(3), { threads: pool, into }))).toBe('INVALID_OPTION options.into');
    expect(boundOutcome(() => dotBound(vector(3), vector(3), { threads: pool, into }))).toBe('INVALID_OPTION options.into');
  });
});

describe('random bad calls', () => {
  // Faults and options drawn together (most calls hold several), on every kernel: what the curated sweep does not list.
  it('kernel and bound agree on random combinations of faults and options', () => {
    const callArb = fc.record({
      n: fc.constantFrom(0, 1, 3),
      alpha: fc.constantFrom<unknown>(1.5, 0, 1, NaN, Infinity, '1'),
      beta: fc.constantFrom<unknown>(0.5, 0, 1, NaN, -Infinity),
      poison: fc.option(fc.record({ operand: fc.constantFrom('x', 'y', 'w', 'A'), value: fc.constantFrom(NaN, Infinity, 0), index: fc.constantFrom(0, 1) }), { nil: undefined }),
      bad: fc.option(fc.record({ operand: fc.constantFrom('x', 'y', 'w', 'A'), how: fc.constantFrom('short', 'read-only', 'not-a-range', '2-D') as fc.Arbitrary<'short'> }), { freq: 4, nil: undefined }),
      stored: fc.option(fc.record({ operand: fc.constantFrom('x', 'y', 'w', 'A'), storage: fc.constantFrom('rns106', 'f32', 'dd', 'f16', 'scaled-i8') }), { nil: undefined }),
      options: sometimesInvalidOptions({ ...BOUND_OPTION_VALUES, loop: [['auto', 'dot', 'axpy'], ['sideways']], blockSize: [[64], [100]] }),
    }, { requiredKeys: ['options'] });
    fc.assert(fc.property(callArb, fc.constantFrom(...Object.keys(KERNELS)), (c, name) => { agree(name, c as Call); }), { numRuns: 2000, seed: 0x28b0 });
  });

  it('IEEE arithmetic into an RNS-stored output: the kernel and the bound agree, and a result it cannot hold has the bound +∞', () => {
    const OUTPUT: Readonly<Record<string, string>> = { axpy: 'y', waxpby: 'w', scal: 'x', gemv: 'y', ellSpmv: 'y', trsv: 'x' };
    const callArb = fc.record({
      n: fc.constantFrom(1, 3),
      alpha: fc.constantFrom<unknown>(1.5, 0, 1, NaN, Infinity),
      beta: fc.constantFrom<unknown>(0.5, 0, 1, NaN, -Infinity),
      poison: fc.option(fc.record({ operand: fc.constantFrom('x', 'y', 'A'), value: fc.constantFrom(NaN, Infinity, 0), index: fc.constantFrom(0, 1) }), { nil: undefined }),
      options: fc.record({ arithmetic: fc.constantFrom(formats.f64, formats.f32, formats.ff, formats.dd), backend: fc.constantFrom(undefined, 'js', 'cpu') }),
    });
    let unstorable = 0;
    fc.assert(fc.property(callArb, fc.constantFrom(...Object.keys(OUTPUT)), (c, name) => {
      // The output is RNS: a poison there would be no IEEE value, so it goes to an input (scal's x is its output: none).
      const poison = c.poison?.operand === OUTPUT[name] ? undefined : c.poison;
      if (agree(name, { ...c, poison, n: Math.max(c.n, (poison?.index ?? 0) + 1), stored: { operand: OUTPUT[name]!, storage: 'rns106' } })) unstorable++;
    }), { numRuns: 400, seed: 0x28b1 });
    // The property reaches what it exists for.
    expect(unstorable).toBeGreaterThan(20);
  });

  it('regression: a non-finite result for an RNS output is the kernel\'s INVALID_VALUE naming the element; the bound there is +∞', () => {
    const y = (): Range<1> => vector([5, 6, 7], { storage: formats.rns106 });
    const A = (): Range<2> => matrix(3, 3, (i, j) => (i === j ? (i === 1 ? 0 : 2) : i < j ? 0.5 : 0));
    const f64 = { arithmetic: formats.f64 };
    const calls: [string, () => unknown, () => unknown, string, number][] = [
      ['axpy', () => axpy(1, vector([1, NaN, 3]), y(), f64), () => axpyBound(1, vector([1, NaN, 3]), y(), f64), 'y[1]', 1],
      ['trsv', () => trsv({ A: A(), x: y() }, f64), () => trsvBound({ A: A(), x: y() }, f64), 'x[1]', 1],
    ];
    for (const [name, kernel, bound, element, index] of calls) {
      const failure = storeFailureOf(kernel);
      expect({ name, failure: typeof failure === 'string' ? failure : failure.parameter }).toEqual({ name, failure: element });
      expect({ name, bound: (bound() as Float64Array)[index] }).toEqual({ name, bound: Infinity });
    }
  });
});
