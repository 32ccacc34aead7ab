/**
 * What warm calls reuse (issue 19, item 5) — a GEMV N plan's argument records and spec (kernels/gemv/gemv-workgroup-split.ts),
 * the streaming passes' arithmetic (src/backends/webgpu/streaming-pass.ts, ff-exact-products.ts), the plans' use stamps
 * (kernel-common.ts, getPlan), buffer sizes and program look-ups (program.ts) — must never serve stale state: after
 * an operand's buffer was swapped by another kernel's ping-pong and its contents rewritten, after α or β changed, and
 * after an operand was destroyed (a typed error, y untouched), a warm call gives the very bits of a cold call on fresh
 * copies of the same operands.
 */
import { describe, expect, it } from 'vitest';
import { toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { getProgram } from '../../src/backends/webgpu/program.js';
import { deviceMatrix, gpuGemv, type DeviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { gemvWorkgroupSplitCalls } from '../../kernels/gemv/gemv-workgroup-split.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

/** A fresh array holding `a`'s current values in its format (a cold operand: a new object, a new plan). */
async function copyOf(a: DeviceArray): Promise<DeviceArray> {
  return toDevice(await a.toHost(), { format: a.format.name });
}

/** Bits of a host copy, NaN as NaN. */
function same(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((v, k) => Object.is(v, b[k]) || (Number.isNaN(v) && Number.isNaN(b[k]!)));
}

describe('warm calls after their operands changed', () => {
  it('GEMV N and T, DOT and AXPY: a swapped and rewritten operand, new α and β — the bits of a cold call', async () => {
    await requireRuntime();
    const m = 64, n = 48;
    const A: DeviceMatrix = deviceMatrix(await toDevice(randomValues(m * n, 3), { format: 'bf16' }), m, n);
    const x = await toDevice(randomValues(n, 5), { format: 'f32' });
    const xt = await toDevice(randomValues(m, 6), { format: 'f32' });
    const y = await toDevice(randomValues(m, 7), { format: 'f32' });
    const yt = await toDevice(randomValues(n, 8), { format: 'f32' });
    const z = await toDevice(randomValues(n, 9), { format: 'f32' });
    const ff = { arithmetic: 'ff' } as const;
    const calls = async (alpha: number, beta: number): Promise<number> => {
      await gpuGemv({ A, x, y, alpha, beta }, ff);
      await gpuGemv({ A, x: xt, y: yt, alpha, beta, trans: 'T' }, ff);
      await gpuUpdate({ alpha, x, beta: 1, y: z, out: z }, ff);
      return (await gpuDot(x, x, ff)).value;
    };
    // Warm: the plans, programs, argument records and bind groups of every call exist.
    for (let r = 0; r < 3; r++) await calls(0.5, 0);
    // Another kernel rewrites A's data and x (each ping-pongs: a new buffer, new contents).
    const bufferA = A.data.buffer, bufferX = x.buffer;
    await gpuUpdate({ alpha: -0.75, x: A.data, beta: 0, out: A.data }, ff);
    await gpuUpdate({ alpha: 1.5, x, beta: 0, out: x }, ff);
    expect(A.data.buffer).not.toBe(bufferA);
    expect(x.buffer).not.toBe(bufferX);
    // Cold copies of every operand as they are now.
    const cold = { A: deviceMatrix(await copyOf(A.data), m, n), x: await copyOf(x), xt: await copyOf(xt), y: await copyOf(y), yt: await copyOf(yt), z: await copyOf(z) };
    // Warm calls with other coefficients (β ≠ 0 reads y) against cold ones; GEMV N in one dispatch (the default form).
    const split = gemvWorkgroupSplitCalls();
    await gpuGemv({ A, x, y, alpha: 1.25, beta: -0.5 }, ff);
    expect(gemvWorkgroupSplitCalls()).toBe(split + 1);
    await gpuGemv({ A: cold.A, x: cold.x, y: cold.y, alpha: 1.25, beta: -0.5 }, ff);
    expect(same(await y.toHost(), await cold.y.toHost())).toBe(true);
    await gpuGemv({ A, x: xt, y: yt, alpha: -2, beta: 0.25, trans: 'T' }, ff);
    await gpuGemv({ A: cold.A, x: cold.xt, y: cold.yt, alpha: -2, beta: 0.25, trans: 'T' }, ff);
    expect(same(await yt.toHost(), await cold.yt.toHost())).toBe(true);
    // And the warm β = 0 plans again, after those (α changed: a new uniform upload).
    await gpuGemv({ A, x, y, alpha: 3, beta: 0 }, ff);
    await gpuGemv({ A: cold.A, x: cold.x, y: cold.y, alpha: 3, beta: 0 }, ff);
    expect(same(await y.toHost(), await cold.y.toHost())).toBe(true);
    await gpuUpdate({ alpha: -1.5, x, beta: 0.25, y: z, out: z }, ff);
    await gpuUpdate({ alpha: -1.5, x: cold.x, beta: 0.25, y: cold.z, out: cold.z }, ff);
    expect(same(await z.toHost(), await cold.z.toHost())).toBe(true);
    expect(Object.is((await gpuDot(x, z, ff)).value, (await gpuDot(cold.x, cold.z, ff)).value)).toBe(true);
    // A destroyed operand: a typed error naming it, y as it was.
    const before = await y.toHost();
    const gone = await copyOf(x);
    gone.destroy();
    await expect(gpuGemv({ A, x: gone, y, alpha: 1, beta: 0 }, ff)).rejects.toMatchObject({ code: 'INVALID_STORAGE', parameter: 'x' });
    expect(same(await y.toHost(), before)).toBe(true);
  });

  it('getProgram: the same argument list with other output options or source is another program', async () => {
    const rt = await requireRuntime();
    const args = [['X', 'Array']] as const;
    const plain = await getProgram(rt.context, { source: 'function (X) { return X[this.thread.x]; }', args, components: 1 });
    expect(await getProgram(rt.context, { source: 'function (X) { return X[this.thread.x]; }', args, components: 1 })).toBe(plain);
    const pair = await getProgram(rt.context, { source: 'function (X) { return [X[this.thread.x], 0]; }', args, components: 2 });
    expect(pair).not.toBe(plain);
    const wide = await getProgram(rt.context, { source: 'function (X) { return X[this.thread.x]; }', args, components: 1, workgroup: { workgroupSize: 64, workgroupArrays: [] } });
    expect(wide).not.toBe(plain);
    // Back to the first spec, as a new literal: the first program again, and the workgroup one for an equal new literal.
    expect(await getProgram(rt.context, { source: 'function (X) { return X[this.thread.x]; }', args, components: 1 })).toBe(plain);
    expect(await getProgram(rt.context, { source: 'function (X) { return X[this.thread.x]; }', args, components: 1, workgroup: { workgroupSize: 64, workgroupArrays: [] } })).toBe(wide);
  });
});
