/**
 * One rule for every option modprec knows: a call that does not take an option refuses it (INVALID_OPTION naming
 * it, after checking its value as the call that takes it does), on every backend and in both APIs, before anything
 * is written. Regression: the resident kernels' tuning options were checked by gpuDot and gpuGemv
 * (`gpuDot(x, y, { groups: 99 })` INVALID_OPTION options.groups) but ignored as unknown keys by the public kernels on
 * every backend (`dot(x, y, { backend: 'gpu', groups: 99 })` and `{ backend: 'js', groups: 99 }` ran), and an option
 * of another kernel was ignored (`asum(x, { loop: 'dot' })`, `gpuTrsv(…, { groups: 4 })`, `dotBound(x, y, { blockSize: 64 })`);
 * the resident kernels took a null tuning option as omitted (`gpuDot(x, y, { chains: null })` ran with the default).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dotBound, gemvBound, vector } from '../../src/index.js';
import { deviceMatrix, gpuAsum, gpuDot, gpuGemv, gpuTrsv, gpuUpdate, toDevice } from '../../src/backends/webgpu/index.js';
import { KERNEL_CALLS, kernelOperands, outcome, rangeBits } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

/** Each option beyond the common ones, with values the call that takes it accepts and refuses (and that error). */
const KNOBS: Record<string, { good: unknown[]; bad: [unknown, string][] }> = {
  maxThreads: { good: [1, 4096], bad: [[0, 'INVALID_SIZE'], [1.5, 'INVALID_SIZE'], ['8', 'INVALID_SIZE']] },
  groupWidth: { good: [1, 2, 4], bad: [[3, 'INVALID_OPTION'], ['4', 'INVALID_OPTION']] },
  groups: { good: [1, 16], bad: [[0, 'INVALID_OPTION'], [17, 'INVALID_OPTION'], [2.5, 'INVALID_OPTION'], [null, 'INVALID_OPTION']] },
  chains: { good: [1, 8], bad: [[9, 'INVALID_OPTION'], [null, 'INVALID_OPTION']] },
  vectorLoads: { good: [true, false], bad: [['yes', 'INVALID_OPTION']] },
  targetThreads: { good: [0, 1024], bad: [[-1, 'INVALID_SIZE'], [NaN, 'INVALID_SIZE']] },
  rowsPerThread: { good: [1, 2], bad: [[3, 'INVALID_OPTION']] },
};
/** Options of one kernel given to another (their values are valid where they are taken). */
const FOREIGN: Record<string, unknown> = { into: vector(1), loop: 'dot', blockSize: 64 };
const TAKES: Record<string, string[]> = { dot: ['into'], gemv: ['loop'], trsv: ['blockSize'] };

const knob = fc.constantFrom(...Object.keys(KNOBS)).chain((key) => fc.record({
  key: fc.constant(key),
  value: fc.constantFrom<[unknown, string | undefined]>(...KNOBS[key]!.good.map((v): [unknown, undefined] => [v, undefined]), ...KNOBS[key]!.bad),
}));

describe('an option a call does not take is refused, the same way everywhere', () => {
  it.each(KERNEL_CALLS)("%s: the resident kernels' tuning options are one error on every backend, nothing written", async (_, kernel) => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(knob, async ({ key, value: [value, badCode] }) => {
      for (const backend of [undefined, 'cpu', 'js', 'wasm', 'gpu']) {
        const o = kernelOperands();
        const before = rangeBits([o.x, o.y, o.w]);
        const result = await outcome(() => kernel(o, { backend, [key]: value }));
        // A bad value is the error the resident kernel gives it; a good one is refused by name.
        expect([backend, result]).toEqual([backend, `${badCode ?? 'INVALID_OPTION'} options.${key}`]);
        expect(rangeBits([o.x, o.y, o.w])).toBe(before);
      }
    }), { numRuns: 12 });
  });

  it.each(KERNEL_CALLS)("%s: another kernel's option is refused on every backend, its own is taken", async (name, kernel) => {
    await requireRuntime();
    for (const [key, value] of Object.entries(FOREIGN)) {
      if (TAKES[name]?.includes(key)) continue;
      for (const backend of [undefined, 'js', 'wasm', 'gpu']) {
        expect([backend, await outcome(() => kernel(kernelOperands(), { backend, [key]: value }))]).toEqual([backend, `INVALID_OPTION options.${key}`]);
      }
    }
  });

  it('the bound functions refuse what their kernel refuses', () => {
    const x = vector([1, 2]), y = vector([3, 4]);
    expect(() => dotBound(x, y, { groups: 4 } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.groups' }));
    expect(() => dotBound(x, y, { blockSize: 64 } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.blockSize' }));
    expect(() => dotBound(x, y, { maxThreads: 0 } as never)).toThrow(expect.objectContaining({ code: 'INVALID_SIZE', parameter: 'options.maxThreads' }));
    expect(() => gemvBound({ alpha: 1, A: kernelOperands().A, x: vector([1, 2, 3]), beta: 0, y: vector(3) }, { rowsPerThread: 2 } as never))
      .toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.rowsPerThread' }));
  });

  it("the resident kernels: a bad value is the public kernels' error, another kernel's option is refused, their own run", async () => {
    await requireRuntime();
    const dev = (v: number[]) => toDevice(v, { format: 'f32' });
    const x = await dev([1, 2]), y = await dev([3, 4]), M = deviceMatrix(await dev([1, 2]), 1, 2), out = await dev([0]);
    for (const [key, { bad }] of Object.entries(KNOBS)) {
      for (const [value, code] of bad) {
        const publicError = await outcome(() => KERNEL_CALLS[0]![1](kernelOperands(), { backend: 'gpu', [key]: value }));
        const call = ['targetThreads', 'rowsPerThread'].includes(key) ? () => gpuGemv({ A: M, x, y: out }, { [key]: value } as never) : () => gpuDot(x, y, { [key]: value } as never);
        expect([key, value, await outcome(call)]).toEqual([key, value, publicError]);
        expect(publicError).toBe(`${code} options.${key}`);
      }
    }
    const A = deviceMatrix(await dev([2, 0, 1, 4]), 2, 2);
    expect(await outcome(() => gpuTrsv({ A, x }, { groups: 4 } as never))).toBe('INVALID_OPTION options.groups');
    expect(await outcome(() => gpuAsum(x, { loop: 'dot' } as never))).toBe('INVALID_OPTION options.loop');
    expect(await outcome(() => gpuUpdate({ alpha: 1, x, beta: 0, out: y }, { blockSize: 64 } as never))).toBe('INVALID_OPTION options.blockSize');
    expect(await outcome(() => gpuDot(x, y, { loop: 'dot' } as never))).toBe('INVALID_OPTION options.loop');
    expect(await outcome(() => gpuDot(x, y, { chains: 1, groups: 1 }))).toBe('ran');
  });
});
