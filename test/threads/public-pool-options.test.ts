/**
 * createThreadPool (modprec/threads) checks its options before starting a worker: INVALID_OPTION naming `options` when
 * they are not an object, as the kernels refuse theirs. Regression: createThreadPool(2, null) threw a TypeError
 * ("Cannot read properties of null (reading 'minWorkPerThread')").
 */
import { describe, expect, it } from 'vitest';
import { createThreadPool } from '../../src/threads/index.js';

async function codeOf(f: () => Promise<unknown>): Promise<string> {
  try { await f(); return 'ran'; } catch (e) { return `${(e as { code?: string }).code} ${(e as { parameter?: string }).parameter}`; }
}

describe('createThreadPool options', () => {
  it('are refused before any worker starts when not an object; bad threads and minWorkPerThread are named', async () => {
    for (const options of [null, 5, 'x']) expect(await codeOf(() => createThreadPool(2, options as never))).toBe('INVALID_OPTION options');
    expect(await codeOf(() => createThreadPool(0))).toBe('INVALID_SIZE threads');
    expect(await codeOf(() => createThreadPool(1, { minWorkPerThread: 0 }))).toBe('INVALID_OPTION options.minWorkPerThread');
    const pool = await createThreadPool(1);
    expect(pool.threads).toBe(1);
    await pool.terminate();
  });
});

describe('createThreadPool workerUrl', () => {
  // Regression: a relative path or a non-URL threw a TypeError (Invalid URL) from inside the worker start, and a
  // pool of one thread (no worker) accepted any value.
  it('is INVALID_OPTION naming options.workerUrl when it is not a URL, whatever the thread count', async () => {
    for (const workerUrl of [5, {}, 'not a url', './thread-worker.js', '']) {
      for (const threads of [1, 2]) {
        expect(await codeOf(() => createThreadPool(threads, { workerUrl: workerUrl as never }))).toBe('INVALID_OPTION options.workerUrl');
      }
    }
  });
});

describe('createThreadPool with a worker entry that cannot load', () => {
  // Regression: a workerUrl naming no module rejected with Node's own Error (code MODULE_NOT_FOUND, no parameter).
  it('is BACKEND_UNAVAILABLE naming options.workerUrl', async () => {
    const missing = new URL('./no-such-worker-entry.mjs', import.meta.url);
    expect(await codeOf(() => createThreadPool(2, { workerUrl: missing }))).toBe('BACKEND_UNAVAILABLE options.workerUrl');
  });
});
