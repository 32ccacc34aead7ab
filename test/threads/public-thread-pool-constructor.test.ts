/**
 * The ThreadPool class of modprec/threads is exported (for instanceof and its type) but only createThreadPool starts
 * one: its constructor refuses any other caller with INVALID_OPTION naming ThreadPool, whatever the arguments.
 * Regression: new ThreadPool(undefined) threw a TypeError reading `workers.length`, and new ThreadPool(-1, …) a
 * RangeError sizing the control views.
 */
import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/core/errors.js';
import { ThreadPool, createThreadPool } from '../../src/threads/index.js';

describe('new ThreadPool', () => {
  it('new ThreadPool(…) outside createThreadPool is INVALID_OPTION naming ThreadPool, whatever the arguments', () => {
    for (const args of [[], [undefined], [null, null, null, null], [[], new SharedArrayBuffer(64), {}, 1], [Symbol('token'), [], new SharedArrayBuffer(64), {}, 1], [-1, -1, -1, -1]]) {
      let thrown: unknown;
      try { new (ThreadPool as unknown as new (...a: unknown[]) => unknown)(...args); } catch (e) { thrown = e; }
      expect(thrown).toBeInstanceOf(ModprecError);
      expect([(thrown as ModprecError).code, (thrown as ModprecError).parameter]).toEqual(['INVALID_OPTION', 'ThreadPool']);
    }
  });

  it('leaves createThreadPool working: its pool is a ThreadPool', async () => {
    const pool = await createThreadPool(1);
    expect(pool).toBeInstanceOf(ThreadPool);
    expect(pool.threads).toBe(1);
    await pool.terminate();
  });
});
