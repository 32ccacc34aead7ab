/**
 * A call with options.threads raises the same typed errors whatever its sizes and coefficients, and a bound function
 * raises the pool's option errors as its kernel does (docs/guide.md, "Threads").
 * - Regression: axpy(0, x, y, { threads: terminatedPool }) and an empty axpy returned silently while dot of empty
 *   vectors threw; asum of an empty x with arithmetic 'dd' returned 0 where a longer x was refused.
 * - Regression: asumBound / dotBound with a pool and accumulation 'pairwise' (or arithmetic 'dd', or a terminated
 *   pool) returned a bound for a call the kernel refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asum, asumBound, axpy, axpyBound, dot, dotBound, gemv, gemvBound, matrix, range, rowMajor, scal, scalBound, vector, waxpby, waxpbyBound,
  type Range,
} from '../../src/index.js';
import type { ThreadPool } from '../../src/threads/index.js';
import { poolFromSources } from './thread-test-helpers.js';

let live: ThreadPool, dead: ThreadPool;
beforeAll(async () => {
  [live, dead] = await Promise.all([poolFromSources(2, { minWorkPerThread: 16 }), poolFromSources(2)]);
  await dead.terminate();
});
afterAll(async () => {
  await live?.terminate();
});

/** A shared f64 vector of `values`. */
function shared(values: readonly number[]): Range<1> {
  const r = range(rowMajor<1>({ size: [values.length], storage: 'f64', arithmetic: 'f64', shared: true }));
  values.forEach((v, i) => r.set(i, v));
  return r;
}

/** The code and parameter `f` throws, or 'ok'. */
function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`;
  }
}

const TERMINATED = 'INVALID_OPTION options.threads';
const long = Array.from({ length: 40 }, (_, i) => i - 19.5);

describe('a terminated pool is refused whatever the sizes and coefficients', () => {
  it('AXPY, WAXPBY, SCAL, ASUM, DOT, GEMV: empty operands, α = 0, β = 1, and a full call alike; nothing written', () => {
    for (const v of [[], [NaN], long]) {
      const x = shared(v), y = shared(v.map((e) => e + 1)), w = shared(v);
      const before = [...Array.from({ length: v.length }, (_, i) => y.get(i))];
      for (const alpha of [0, 2]) {
        expect(outcome(() => axpy(alpha, x, y, { threads: dead }))).toBe(TERMINATED);
        expect(outcome(() => waxpby(alpha, x, 0, y, w, { threads: dead }))).toBe(TERMINATED);
        expect(outcome(() => scal(alpha, y, { threads: dead }))).toBe(TERMINATED);
      }
      expect(outcome(() => scal(1, y, { threads: dead }))).toBe(TERMINATED);
      expect(outcome(() => asum(x, { threads: dead }))).toBe(TERMINATED);
      expect(outcome(() => dot(x, y, { threads: dead }))).toBe(TERMINATED);
      const A = matrix(v.length, v.length, undefined, { shared: true });
      expect(outcome(() => gemv({ alpha: 0, A, x, beta: 1, y }, { threads: dead }))).toBe(TERMINATED);
      Array.from({ length: v.length }, (_, i) => expect(Object.is(y.get(i), before[i])).toBe(true));
    }
  });

  it('the bound functions refuse it as their kernels do', () => {
    const x = shared(long), y = shared(long), w = shared(long);
    expect(outcome(() => axpyBound(2, x, y, { threads: dead }))).toBe(TERMINATED);
    expect(outcome(() => waxpbyBound(2, x, 3, y, w, { threads: dead }))).toBe(TERMINATED);
    expect(outcome(() => scalBound(2, x, { threads: dead }))).toBe(TERMINATED);
    expect(outcome(() => asumBound(x, { threads: dead }))).toBe(TERMINATED);
    expect(outcome(() => dotBound(x, y, { threads: dead }))).toBe(TERMINATED);
    expect(outcome(() => gemvBound({ alpha: 1, A: matrix(40, 40, undefined, { shared: true }), x, beta: 0, y }, { threads: dead }))).toBe(TERMINATED);
  });
});

describe('a reduction the pool cannot combine is refused by the kernel and its bound, whatever the length', () => {
  const refused = [
    [{ accumulation: 'pairwise' }, 'INVALID_OPTION options.accumulation'],
    [{ accumulation: 'kahan' }, 'INVALID_OPTION options.accumulation'],
    [{ arithmetic: 'dd' }, 'INVALID_OPTION options.arithmetic'],
  ] as const;
  it('ASUM and DOT, empty, size 1 and split', () => {
    for (const v of [[], [3], long]) {
      const x = shared(v);
      for (const [o, expected] of refused) {
        expect(outcome(() => asum(x, { ...o, threads: live }))).toBe(expected);
        expect(outcome(() => asumBound(x, { ...o, threads: live }))).toBe(expected);
        expect(outcome(() => dot(x, x, { ...o, threads: live }))).toBe(expected);
        expect(outcome(() => dotBound(x, x, { ...o, threads: live }))).toBe(expected);
      }
    }
  });

  it('a live pool with the default options still runs: the empty sums are 0, the split ones within their bounds', () => {
    expect(asum(shared([]), { threads: live })).toBe(0);
    expect(dot(shared([]), shared([]), { threads: live })).toBe(0);
    const x = shared(long);
    const exact = long.reduce((s, e) => s + Math.abs(e), 0); // exact: halves summed in fp64 well below 2^53
    expect(Math.abs(asum(x, { threads: live }) - exact)).toBeLessThanOrEqual(asumBound(x, { threads: live }));
  });

  it('an empty operand outside shared memory is INVALID_STORAGE as a long one is', () => {
    expect(outcome(() => asum(vector([]), { threads: live }))).toBe('INVALID_STORAGE x');
    expect(outcome(() => axpy(0, vector([1]), vector([2]), { threads: live }))).toBe('INVALID_STORAGE x');
  });
});

describe('a pool\'s thread count', () => {
  // Regression: `threads` was a plain field; `pool.threads = 8` from JavaScript made a split AXPY post parts to
  // workers the pool does not have (a TypeError after the first parts were posted, with those still running).
  it('cannot be changed from JavaScript: the split call stays that of the pool\'s threads', () => {
    const x = shared(long), y = shared(long), y1 = shared(long);
    expect(() => { (live as unknown as { threads: number }).threads = 8; }).toThrow(TypeError);
    expect(live.threads).toBe(2);
    axpy(1.5, x, y, { threads: live });
    axpy(1.5, x, y1);
    long.forEach((_, i) => expect(Object.is(y.get(i), y1.get(i))).toBe(true));
  });
});
