/**
 * Pools for tests run from the sources: vitest transforms TypeScript in its own process, but a worker thread is
 * a fresh Node isolate that cannot load `.ts` files, so the worker entry (src/threads/thread-worker.ts) is bundled
 * once into a temporary ES module and passed as `workerUrl`. The built package's default URL (dist/, beside the
 * pool's module) is checked by the installed-package test.
 */
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createThreadPool, type ThreadPool, type ThreadPoolOptions } from '../../src/threads/index.js';

export const REPO = resolve(import.meta.dirname, '../..');

let bundled: URL | undefined;

/** The worker entry bundled from the sources (once per test process). */
export function workerFromSources(): URL {
  if (!bundled) {
    const out = join(mkdtempSync(join(tmpdir(), 'modprec-thread-worker-')), 'thread-worker.mjs');
    buildSync({ entryPoints: [join(REPO, 'src/threads/thread-worker.ts')], bundle: true, format: 'esm', platform: 'node', outfile: out, logLevel: 'silent' });
    bundled = pathToFileURL(out);
  }
  return bundled;
}

/** A pool whose workers run the sources' kernels. */
export function poolFromSources(threads: number, options: ThreadPoolOptions = {}): Promise<ThreadPool> {
  return createThreadPool(threads, { workerUrl: workerFromSources(), ...options });
}
