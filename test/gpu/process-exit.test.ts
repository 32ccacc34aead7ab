/**
 * Process lifetime (issue 15, item 1): a Node process that used the GPU exits by itself. Dawn polls a live
 * device with setImmediate for ever; modprec destroys the device once nothing else keeps the event loop alive
 * (or when releaseGpu() is called). Each case bundles a small script with rolldown (vite's bundler) and runs it
 * in a child process, which must end on its own with status 0 (no time limit:
 * before the fix the child never ends, which hangs the test).
 */
import { describe, expect, it } from 'vitest';
import { requireRuntime } from './gpu-test-helpers.js';
import { bundleFixture, runNode } from '../child-fixture.js';

describe('a Node process that used the GPU', () => {
  it('exits by itself after its last GPU call (idle release), and after an explicit releaseGpu()', async () => {
    await requireRuntime();
    const script = await bundleFixture('test/gpu/fixtures/exit-after-gpu.ts', 'exit-after-gpu', ['gpu.js', 'webgpu']);
    for (const args of [[], ['manual']]) {
      const r = await runNode([script, ...args], { ...process.env, EGL_PLATFORM: 'surfaceless' });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('ran gpu 32 5');
    }
  });
});
