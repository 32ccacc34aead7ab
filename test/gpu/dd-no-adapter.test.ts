/**
 * Double-double without an adapter: the resident API runs the CPU backend with formats.dd on the arrays' exact
 * pairs (their words are the bytes of the CPU's dd storage), giving the CPU kernels' results.
 */
import { describe, expect, it } from 'vitest';
import { ddRange } from './dd-ranges.js';
import { deviceView, toDevice } from '../../src/backends/webgpu/device-array.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { ddSplitLoWord } from '../../src/formats/dd/dd-split-gpu-words.js';
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

  it('dd-split: host-resident arrays run the same, and an output view comes back into its hi and lo blocks', async () => {
    const pairs = [{ hi: 1, lo: 2 ** -70 }, { hi: -3, lo: 2 ** -60 }, { hi: 0.5, lo: -(2 ** -80) }];
    const S = vector(3, { storage: formats.ddSplit, arithmetic: formats.dd });
    const data = S.accessor.data as DdSplitArray;
    pairs.forEach((p, k) => { data.hi[k] = p.hi; data.lo[k] = p.lo; });
    const x = await toDevice(S as never);
    expect([x.runtime, x.format.name]).toEqual([undefined, 'dd-split']);
    const d = await gpuDot(x, x, { arithmetic: 'dd' });
    expect([d.backend, d.value]).toEqual(['cpu', dot(ddRange(pairs), ddRange(pairs))]);
    // out: elements 4, 2, 0 of a 5-element span whose other elements hold 7 and 9.
    const span = await toDevice([7, 0, 7, 9, 0], { format: 'dd-split' });
    await gpuUpdate({ alpha: 2, x, beta: 0, out: deviceView(span, 4, 3, -2) }, { arithmetic: 'dd' });
    const w = Uint32Array.from((await span.encoded()).words);
    const hi = new Float64Array(w.slice(0, 10).buffer), lo = new Float64Array(w.slice(ddSplitLoWord(5), ddSplitLoWord(5) + 10).buffer);
    expect([Array.from(hi), Array.from(lo)]).toEqual([[1, 0, -6, 9, 2], [-(2 ** -79), 0, 2 ** -59, 0, 2 ** -69]]);
  });
});
