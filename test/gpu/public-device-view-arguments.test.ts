/**
 * deviceView (modprec/gpu) checks its shape before making a view, as deviceMatrixView does and as the CPU layouts
 * refuse a zero increment: a typed error naming the argument, and no view. Regression: deviceView(span, 0.5, 2, 1)
 * read NaN, deviceView(span, 0, -1, 1).toHost() returned five elements of a six-element span, a string offset ('0')
 * read other elements, a NaN offset or length failed inside WebGPU with a TypeError, stride 0 made an output view that
 * wrote one element three times, and deviceView(null, …) threw a TypeError.
 */
import { describe, expect, it } from 'vitest';
import { deviceView, gpuAsum, gpuUpdate, toDevice } from '../../src/backends/webgpu/index.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { requireRuntime } from './gpu-test-helpers.js';

describe('deviceView arguments', () => {
  it('a bad offset, length, stride or span is a typed error naming it; valid views read and write their elements', async () => {
    await requireRuntime();
    const span = await toDevice([1, 2, 3, 4, 5, 6], { format: 'f32' });
    const bad: [unknown, unknown, unknown, string, string][] = [
      [0.5, 2, 1, 'INVALID_STRIDE', 'offset'], [NaN, 2, 1, 'INVALID_STRIDE', 'offset'], ['0', 2, 1, 'INVALID_STRIDE', 'offset'],
      [-1, 0, 1, 'INVALID_STRIDE', 'offset'], [0, 1.5, 1, 'INVALID_SIZE', 'length'], [0, -1, 1, 'INVALID_SIZE', 'length'],
      [0, NaN, 1, 'INVALID_SIZE', 'length'], [0, 2, 1.5, 'INVALID_STRIDE', 'stride'], [0, 2, NaN, 'INVALID_STRIDE', 'stride'],
      [0, 3, 0, 'INVALID_STRIDE', 'stride'], [0, 2, Infinity, 'INVALID_STRIDE', 'stride'], [5, 2, 1, 'INVALID_STORAGE', 'span'],
    ];
    for (const [offset, length, stride, code, parameter] of bad) expectModprec(() => deviceView(span, offset as number, length as number, stride as number), code as never, parameter);
    expectModprec(() => deviceView(null as never, 0, 1, 1), 'INVALID_STORAGE', 'span');
    expectModprec(() => deviceView([1, 2] as never, 0, 1, 1), 'INVALID_STORAGE', 'span');
    // Valid views: an empty one anywhere, a backwards one, one written through.
    expect([...await deviceView(span, 6, 0, 1).toHost()]).toEqual([]);
    const back = deviceView(span, 5, 3, -2);
    expect([...await back.toHost()]).toEqual([6, 4, 2]);
    expect((await gpuAsum(back, { arithmetic: 'f32' })).value).toBe(12);
    await gpuUpdate({ alpha: -1, x: back, beta: 0, out: back }, { arithmetic: 'f32' });
    expect([...await span.toHost()]).toEqual([1, -2, 3, -4, 5, -6]);
    span.destroy();
  });
});
