/**
 * Process lifetime: a Node process that split calls over a pool exits by itself — its idle workers are unref'd —
 * and also after an explicit terminate(). Each case bundles a small script (test/threads/fixtures) and runs it in
 * a child process, which must end on its own with status 0 (no time limit: a pool
 * that held the event loop would keep the child alive for ever, which hangs the test).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, workerFromSources } from './thread-test-helpers.js';

function bundle(): string {
  const out = join(mkdtempSync(join(tmpdir(), 'modprec-thread-exit-')), 'exit-after-threads.mjs');
  buildSync({ entryPoints: [join(REPO, 'test/threads/fixtures/exit-after-threads.ts')], bundle: true, format: 'esm', platform: 'node', outfile: out, logLevel: 'silent' });
  return out;
}

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    // 'close', not 'exit': the child's stdout may still hold its last line when 'exit' fires. No time limit (a fixed one
    // fails on a slow enough machine): a child that never ends hangs the test, which the CI job's limit reports (as any hang).
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('a Node process that split calls over threads', () => {
  it('exits by itself without terminate(), and after it', async () => {
    const script = bundle();
    for (const mode of ['', 'terminate']) {
      const r = await run(script, [workerFromSources().href, mode]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('dot 328350 gemv 63');
    }
  });
});
