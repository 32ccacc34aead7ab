/**
 * `modprec/threads` for documentation blocks run from the sources: the same exports, but createThreadPool's
 * workers run the worker entry bundled from the sources (a worker cannot load `.ts` files; the built package's
 * own default is checked by test/package).
 */
import { createThreadPool as createFromSources, type ThreadPool, type ThreadPoolOptions } from '../../src/threads/index.js';
import { workerFromSources } from '../threads/thread-test-helpers.js';

export * from '../../src/threads/index.js';

/** createThreadPool with the worker entry bundled from the sources. */
export function createThreadPool(threads: number, options: ThreadPoolOptions = {}): Promise<ThreadPool> {
  return createFromSources(threads, { workerUrl: workerFromSources(), ...options });
}
