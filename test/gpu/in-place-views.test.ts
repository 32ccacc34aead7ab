/**
 * Output views the updates write in place without a copy (issue 14): SCAL in place and AXPY into y read their input,
 * the output view itself, from the output's own binding (no snapshot of its extent), and a 16-bit view off the word
 * store — any offset, any stride, ±1 included (two threads then write the halves of one word, atomically) — is written a
 * half word per thread (no packed twin, no scatter pass). The other half of each word and every
 * element around the view hold NaN sentinels with distinct payloads, checked bit for bit; the view's elements must
 * equal the CPU kernel's on the same range, bit for bit.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { range, colMajor, formats, scal, axpy } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { deviceView, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuEllSpmv, toDeviceEll } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { csrToEll, laplacianCsr } from '../../src/index.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const STORAGE = { f64: formats.f64, f32: formats.f32, f16: formats.f16, bf16: formats.bf16 } as const;
type Name = keyof typeof STORAGE;

/** A 1-D range of NaN sentinels with distinct payloads, view elements (offset, stride) set to `values`. */
function sentinelSpan(name: Name, size: number, offset: number, stride: number, values: Float64Array): { span: Range<1, any>; view: Range<1, any> } {
  const span = range(colMajor<1>({ size: [size], storage: STORAGE[name] as never, arithmetic: formats.f32 }));
  const data = span.accessor.data as Float64Array | Float32Array | Uint16Array;
  const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2);
  for (let k = 0; k < size; k++) {
    if (name === 'f64') [words[2 * k], words[2 * k + 1]] = [k + 1, 0x7ff00000 | (k + 1)];
    else if (name === 'f32') words[k] = 0x7f800000 | (k + 1);
    else (data as Uint16Array)[k] = (name === 'f16' ? 0x7c00 : 0x7f80) | ((k % 100) + 1);
  }
  const view = range(colMajor<1>({ size: [values.length], stride, offset, storage: span.accessor.storage, arithmetic: formats.f32, data: span.accessor.data as never }));
  for (let i = 0; i < values.length; i++) span.accessor.storage.encode(data as never, view.accessor.linearIndex([i]), values[i]! as never);
  return { span, view };
}

function bytesOf(r: Range<1, any>): Uint8Array {
  const d = r.accessor.data as Float64Array | Float32Array | Uint16Array;
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

describe('update outputs written in place with no copy', () => {
  it('SCAL in place and AXPY into a view read it from the output binding; 16-bit views store half words: the CPU bits, sentinels kept', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.constantFrom<Name>('f16', 'bf16', 'f32', 'f64'),
      fc.integer({ min: 1, max: 300 }),
      fc.constantFrom(2, -2, 3, -3, 5, 1, -1),
      fc.integer({ min: 0, max: 5 }),
      fc.constantFrom<'scal' | 'axpy' | 'copy'>('scal', 'axpy', 'copy'),
      fc.constantFrom(0.75, -3, 2 ** -20),
      fc.constantFrom<'f32' | 'ff'>('f32', 'ff'),
      fc.integer({ min: 1, max: 1000 }),
      async (name, n, stride, pad, kind, alpha, arith, seed) => {
        const offset = pad + (stride < 0 ? (n - 1) * -stride : 0);
        const size = offset + (stride > 0 ? (n - 1) * stride : 0) + 1 + pad;
        const values = randomValues(n, seed, 4);
        const dev = sentinelSpan(name, size, offset, stride, values);
        const cpu = sentinelSpan(name, size, offset, stride, values);
        const xs = randomValues(n, seed + 1, 2);
        const arithmetic = arith === 'f32' ? formats.f32 : formats.ff;
        const xr = range(colMajor<1>({ size: [n], storage: STORAGE[name] as never, arithmetic: formats.f32 }));
        for (let i = 0; i < n; i++) xr.set(i, xs[i]!);
        const span = await toDevice(dev.span as never);
        const out = deviceView(span, offset, n, stride);
        const x = await toDevice(xr as never);
        const run = (o: DeviceArray): Promise<unknown> => kind === 'scal' ? gpuUpdate({ alpha, x: o, beta: 0, out: o }, { arithmetic: arith })
          : kind === 'axpy' ? gpuUpdate({ alpha, x, beta: 1, y: o, out: o }, { arithmetic: arith })
            : gpuUpdate({ alpha, x, beta: 0, out: o }, { arithmetic: arith });
        await run(out);
        if (kind === 'scal') scal(alpha, cpu.view, { arithmetic });
        else if (kind === 'axpy') axpy(alpha, xr, cpu.view, { arithmetic });
        else { scal(0, cpu.view, { arithmetic }); axpy(alpha, xr, cpu.view, { arithmetic }); }
        const got = new Uint8Array((await span.encoded()).words.buffer).subarray(0, bytesOf(cpu.span).length);
        expect(Array.from(got)).toEqual(Array.from(bytesOf(cpu.span)));
        // The copies these paths replace were not made: no snapshot buffer (spare), no packed twin.
        // Every built-in view is written in place.
        expect(span.storage.twins, 'a packed twin').toBeUndefined();
        if (kind !== 'copy') expect(span.storage.spare, 'a snapshot of the output').toBeUndefined();
        span.destroy();
        x.destroy();
      },
    ), { numRuns: 60, seed: 14 });
  });

  it("GEMV's and ELL SpMV's y and TRSV's x views: old values read from the output binding (TRSV: b through the view), 16-bit views stored as half words: the packed run's bits, sentinels kept", async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.constantFrom<Name>('f16', 'bf16', 'f32', 'f64'),
      fc.integer({ min: 1, max: 70 }),
      fc.constantFrom(2, -2, 3, -3, 1, -1),
      fc.constantFrom(0, 0.5),
      fc.constantFrom<'f32' | 'ff'>('f32', 'ff'),
      fc.constantFrom<'gemv N' | 'gemv T' | 'ell' | 'trsv'>('gemv N', 'gemv T', 'ell', 'trsv'),
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 0, max: 3 }),
      async (name, n, stride, beta, arith, kernel, seed, pad) => {
        // pad 0 … 3: odd and even first elements, and a last element in either half of its word.
        const offset = pad + (stride < 0 ? (n - 1) * -stride : 0);
        const size = offset + (stride > 0 ? (n - 1) * stride : 0) + 1 + pad;
        const values = randomValues(n, seed, 4);
        const dev = sentinelSpan(name, size, offset, stride, values);
        const before = bytesOf(dev.span).slice();
        const span = await toDevice(dev.span as never);
        const out = deviceView(span, offset, n, stride);
        const packed = await toDevice(values, { format: name });
        const A = deviceMatrix(await toDevice(randomValues(n * 5, seed + 1), { format: name }), kernel === 'gemv T' ? 5 : n, kernel === 'gemv T' ? n : 5);
        const x = await toDevice(randomValues(5, seed + 2), { format: name });
        const E = await toDeviceEll(csrToEll(laplacianCsr([n])), { format: name });
        const xe = await toDevice(randomValues(n, seed + 3), { format: name });
        // TRSV solves its x in place: a lower triangle with 4 on the diagonal, b the view's values.
        const T = deviceMatrix(await toDevice(Float64Array.from({ length: n * n }, (_, k) => (k % (n + 1) === 0 ? 4 : Math.sin(k + seed) / n)), { format: name }), n, n);
        const run = (y: DeviceArray): Promise<unknown> => kernel === 'ell' ? gpuEllSpmv({ A: E, x: xe, y, alpha: 1.5, beta }, { arithmetic: arith })
          : kernel === 'trsv' ? gpuTrsv({ A: T, x: y, uplo: 'L' }, { arithmetic: arith })
            : gpuGemv({ A, x, y, alpha: 1.5, beta, trans: kernel === 'gemv T' ? 'T' : 'N' }, { arithmetic: arith });
        await run(out);
        await run(packed);
        const got = new Uint8Array((await span.encoded()).words.buffer);
        const pk = new Uint8Array((await packed.encoded()).words.buffer);
        const bytes = name === 'f64' ? 8 : name === 'f32' ? 4 : 2;
        const inView = new Map(Array.from({ length: n }, (_, i) => [offset + i * stride, i]));
        for (let e = 0; e < size; e++) {
          const i = inView.get(e);
          const want = i === undefined ? before.subarray(e * bytes, (e + 1) * bytes) : pk.subarray(i * bytes, (i + 1) * bytes);
          expect(Array.from(got.subarray(e * bytes, (e + 1) * bytes)), `element ${e}${i === undefined ? ' (sentinel)' : ` (view element ${i})`}`).toEqual(Array.from(want));
        }
        expect(span.storage.twins, 'a packed twin').toBeUndefined();
        expect(span.storage.spare, 'a snapshot of y').toBeUndefined();
        for (const d of [span, packed, A.data, x, xe, T.data]) d.destroy();
      },
    ), { numRuns: 60, seed: 19 });
  });
});
