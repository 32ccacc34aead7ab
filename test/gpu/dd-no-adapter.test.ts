/**
 * Double-double without an adapter: the resident API runs the CPU backend with formats.dd on the arrays' exact
 * pairs (their words are the bytes of the CPU's dd storage), giving the CPU kernels' results.
 */
import { describe, expect, it } from 'vitest';
import { ddRange } from './dd-ranges.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
// The GPU entry hands the host fallback its CPU kernels (src/backends/webgpu/host-kernels.ts).
import '../../src/backends/webgpu/index.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { dot, formats, vector } from '../../src/index.js';

process.env.MODPREC_GPU_BACKEND = 'none';


describe('dd without an adapter', () => {
  it('the resident API runs the CPU backend with formats.dd on the exact pairs (DOT, update)', async () => {
    const pairs = [{ hi: 1, lo: 2 ** -70 }, { hi: -3, lo: 2 ** -60 }, { hi: 0.5, lo: -(2 ** -80) }];
    const X = ddRange(pairs);
    const x = await toDevice(X as never);
    expect(x.runtime).toBeUndefined();
    const d = await gpuDot(x, x, { arithmetic: 'dd' });
    expect([d.backend, d.arithmetic, d.value]).toEqual(['cpu', 'dd', dot(X, X)]);
    const out = await toDevice(new Float64Array(3), { format: 'dd' });
    await gpuUpdate({ alpha: 2, x, beta: 0, out }, { arithmetic: 'dd' });
    const w = (await out.encoded()).words;
    const got = new Float64Array(Uint32Array.from(w).buffer);
    expect(Array.from(got.subarray(0, 6))).toEqual(pairs.flatMap((p) => [2 * p.hi, 2 * p.lo]));
  });
});
