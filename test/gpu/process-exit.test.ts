/**
 * Process lifetime (issue 15, item 1): a Node process that used the GPU exits by itself. Dawn polls a live
 * device with setImmediate for ever; modprec destroys the device once nothing else keeps the event loop alive
 * (or when releaseGpu() is called). Each case bundles a small script with rolldown (vite's bundler) and runs it
 * in a child process, which must end on its own with status 0 — a generous bound, not a timing measurement:
 * before the fix the child never ends.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { requireRuntime } from './gpu-test-helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BOUND_MS = 60_000;

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

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, EGL_PLATFORM: 'surfaceless' }, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, BOUND_MS);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, killed }); });
  });
}

describe('a Node process that used the GPU', () => {
  it('exits by itself after its last GPU call (idle release), and after an explicit releaseGpu()', async () => {
    await requireRuntime();
    const script = await bundle();
    for (const args of [[], ['manual']]) {
      const r = await run(script, args);
      expect(r.killed, `child ${args.join(' ')} did not exit within ${BOUND_MS} ms`).toBe(false);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('ran gpu 32 5');
    }
  });
});
