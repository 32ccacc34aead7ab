/**
 * Views that share a span: a kernel's write through one view must be seen by the span, by every other view of it
 * (overlapping or interleaved, either stride sign) and by caches derived from the span's contents (TRSV's inverted
 * diagonal blocks). Run on the llvmpipe adapter and without one (host-resident arrays), against a plain model of the
 * span's elements.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  deviceMatrixView, deviceView, gpuTrsv, gpuUpdate, toDevice, type DeviceArray, type GpuFormatName,
} from '../../src/backends/webgpu/index.js';

interface ViewShape { offset: number; length: number; stride: number }

/** A view of a span of `spanLength` elements: any offset, a stride of either sign, at least one element. */
function viewShape(spanLength: number): fc.Arbitrary<ViewShape> {
  return fc.record({ a: fc.nat(spanLength - 1), b: fc.nat(spanLength - 1), step: fc.integer({ min: 1, max: 3 }), negative: fc.boolean() })
    .map(({ a, b, step, negative }) => {
      const lo = Math.min(a, b), hi = Math.max(a, b);
      const length = Math.floor((hi - lo) / step) + 1;
      return negative ? { offset: lo + (length - 1) * step, length, stride: -step } : { offset: lo, length, stride: step };
    });
}

const read = (model: number[], v: ViewShape): number[] => Array.from({ length: v.length }, (_, i) => model[v.offset + i * v.stride]!);

/**
 * Random spans (small integers: exact in every format), a sequence of writes out ← α·out through random views;
 * after each, the span and every view read back exactly what the model holds.
 * @param formats - storage formats to try
 */
export async function siblingViewWrites(formats: readonly GpuFormatName[]): Promise<void> {
  await fc.assert(fc.asyncProperty(
    fc.constantFrom(...formats),
    fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(
      fc.array(fc.integer({ min: -60, max: 60 }), { minLength: n, maxLength: n }),
      fc.array(fc.tuple(viewShape(n), fc.constantFrom(2, -1, 0.5)), { minLength: 1, maxLength: 4 }),
      fc.array(viewShape(n), { minLength: 1, maxLength: 3 }),
    )),
    async (format, [values, writes, watchers]) => {
      const model = values.slice();
      const span = await toDevice(values, { format });
      const watched: [ViewShape, DeviceArray][] = watchers.map((w) => [w, deviceView(span, w.offset, w.length, w.stride)]);
      for (const [w, alpha] of writes) {
        const out = deviceView(span, w.offset, w.length, w.stride);
        await gpuUpdate({ alpha, x: out, beta: 0, out }, { arithmetic: 'f32' });
        for (let i = 0; i < w.length; i++) model[w.offset + i * w.stride] = alpha * model[w.offset + i * w.stride]!;
        expect([...await span.toHost()]).toEqual(model);
        for (const [shape, view] of watched) expect([...await view.toHost()]).toEqual(read(model, shape));
      }
      span.destroy();
    },
  ), { numRuns: 25 });
}

/** A write to a packed array after a view of it was made is seen through the view. */
export async function viewOfPackedOutput(): Promise<void> {
  const p = await toDevice([1, 2, 3, 4, 5], { format: 'f32' });
  const tail = deviceView(p, 4, 3, -1);
  await gpuUpdate({ alpha: 3, x: p, beta: 0, out: p }, { arithmetic: 'f32' });
  expect([...await tail.toHost()]).toEqual([15, 12, 9]);
  p.destroy();
}

/**
 * TRSV after A's span changed through another view: the solve uses the new A (the cached inverse of its diagonal
 * blocks keys on the span's version, which every view shares).
 */
export async function trsvSeesWritesThroughOtherViews(): Promise<void> {
  const n = 3;
  // Column-major upper triangle with 2 on the diagonal, one spare column after it.
  const A0 = [2, 0, 0, 1, 2, 0, 1, 1, 2, 0, 0, 0];
  const span = await toDevice(A0, { format: 'f32' });
  const A = deviceMatrixView(span, { rows: n, cols: n, offset: 0, rowStride: 1, colStride: n });
  const x1 = await toDevice([4, 4, 4], { format: 'f32' });
  await gpuTrsv({ A, x: x1 }, { arithmetic: 'f32' });
  expect([...await x1.toHost()]).toEqual([0.5, 1, 2]);
  // The diagonal (every n+1-th element) doubled through a view of the same span.
  const diagonal = deviceView(span, 0, n, n + 1);
  await gpuUpdate({ alpha: 2, x: diagonal, beta: 0, out: diagonal }, { arithmetic: 'f32' });
  const x2 = await toDevice([4, 4, 4], { format: 'f32' });
  await gpuTrsv({ A, x: x2 }, { arithmetic: 'f32' });
  // 4x3 = 4 → 1; 4x2 + 1 = 4 → 0.75; 4x1 + 0.75 + 1 = 4 → 0.5625.
  expect([...await x2.toHost()]).toEqual([0.5625, 0.75, 1]);
  span.destroy();
}
