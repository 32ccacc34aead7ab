/**
 * The fused multiply-add of the WebAssembly double-double kernels (src/backends/wasm/wasm-fused-fma.ts). Node 20
 * runs relaxed SIMD only behind a flag, so the kernels are checked in a child process started with
 * `--experimental-wasm-relaxed-simd` (the fixture is bundled with rolldown, as test/gpu/process-exit does): where
 * the probe finds the multiply-add fused, DOT, GEMV N/T and ELL SpMV in double-double give the JavaScript kernels'
 * bits on products whose error is representable (fast-check inside the child); in this process (no flag) the probe
 * says no and the kernels keep Dekker's product.
 */
import { describe, expect, it } from 'vitest';
import { wasmFusedFmaAvailable } from '../../src/index.js';
import { bundleFixture, runNode } from '../child-fixture.js';

describe('the fused multiply-add of the WebAssembly double-double kernels', () => {
  it('is not used where the engine has no relaxed SIMD (Node 20 without the flag)', () => {
    const [major] = process.versions.node.split('.').map(Number);
    if (major! < 22) expect(wasmFusedFmaAvailable()).toBe(false);
    else expect(typeof wasmFusedFmaAvailable()).toBe('boolean');
  });

  it('gives the JavaScript kernels\' bits where the probe finds it fused (child process with relaxed SIMD)', async () => {
    const script = await bundleFixture('test/wasm/fixtures/dd-fma-agreement.ts', 'dd-fma-agreement', ['fast-check']);
    const seed = Math.floor(Math.random() * 2 ** 31);
    const r = await runNode(['--experimental-wasm-relaxed-simd', script, '40', String(seed)]);
    expect(r.stderr.split('\n').filter((l) => !/ExperimentalWarning|--trace-warnings/.test(l)).join('\n'), `seed ${seed}`).not.toMatch(/Error|failed/i);
    expect(r.code, `seed ${seed}: ${r.stderr.slice(0, 2000)}`).toBe(0);
    // x86-64 with FMA3 and arm64 fuse; an engine that does not fuse keeps Dekker's product (then this checks that path).
    expect(r.stdout).toMatch(/^fma (true|false) ok 40 seed/m);
    if (process.arch === 'x64' || process.arch === 'arm64') expect(r.stdout).toContain('fma true');
  });
});
