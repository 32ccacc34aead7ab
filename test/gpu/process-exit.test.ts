/**
 * Process lifetime (issue 15, item 1): a Node process that used the GPU exits by itself. Dawn polls a live
 * device with setImmediate for ever; modprec destroys the device once nothing else keeps the event loop alive
 * (or when releaseGpu() is called). Each case bundles a small script with rolldown (vite's bundler) and runs it
 * in a child process, which must end on its own with status 0 (no time limit:
 * before the fix the child never ends, which hangs the test).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { requireRuntime } from './gpu-test-helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
async function bundle(): Promise<string> {
  const { build } = await import('rolldown');
  // Inside the repository, so that the bundle resolves gpu.js and webgpu from node_modules.
  const dir = join(root, 'node_modules', '.cache', 'modprec-process-exit');
  await build({
    input: join(root, 'test/gpu/fixtures/exit-after-gpu.ts'), platform: 'node', logLevel: 'silent',
    external: [/node_modules/, 'gpu.js', 'webgpu'],
    output: { dir, format: 'esm', entryFileNames: 'exit-after-gpu.mjs' },
  });
  return join(dir, 'exit-after-gpu.mjs');
}

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, EGL_PLATFORM: 'surfaceless' }, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    // 'close', not 'exit': the child's stdout may still hold its last line when 'exit' fires. No time limit (a fixed one
    // fails on a slow enough machine): a child that never ends hangs the test, which the CI job's limit reports (as any hang).
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('a Node process that used the GPU', () => {
  it('exits by itself after its last GPU call (idle release), and after an explicit releaseGpu()', async () => {
    await requireRuntime();
    const script = await bundle();
    for (const args of [[], ['manual']]) {
      const r = await run(script, args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('ran gpu 32 5');
    }
  });
});
