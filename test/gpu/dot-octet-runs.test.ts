/**
 * DOT's first pass in runs of eight 16-bit elements, one 16-byte load an operand (the `dotOctetRuns` switch,
 * kernels/dot/dot-webgpu.ts): another fixed order, so every result must lie within dotBound of the exact rational
 * oracle, in float-float (with and without the lean settle and long lazy runs) and f32, over n from one element to
 * many steps with a tail, 1 to 16 first-pass threads, bf16 and fp16 operands alike or mixed; the path only for packed
 * 16-bit operands (a view or an fp32 operand keeps the runs of four), the same value from run to run; on by default since session 22.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dotBound, formats, vector } from '../../src/index.js';
import { toDevice, viewOf } from '../../src/backends/webgpu/device-array.js';
import { dotOctetRunCalls, gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches, type GpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { absoluteError, exactDot, exactOf } from '../../src/testing/exact.js';
import { compareRational } from '../../src/testing/rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const initial: GpuKernelSwitches = gpuKernelSwitches();

afterEach(() => {
  setGpuKernelSwitches(initial);
});

type Sixteen = 'bf16' | 'f16';
const FORMAT = { bf16: formats.bf16, f16: formats.f16, f32: formats.f32 } as const;

/** |got − exact| ≤ bound, exactly. */
function within(got: number, exact: ReturnType<typeof exactDot>, bound: number): boolean {
  return Number.isFinite(got) && compareRational(absoluteError(got, exact), exactOf(bound)) <= 0;
}

describe('DOT in runs of eight 16-bit elements (dotOctetRuns)', () => {
  it('within dotBound of the exact sum (ff, ff with lean settles and long runs, f32), the same value twice', async () => {
    await requireRuntime();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 6000 })), fc.integer({ min: 1, max: 16 }),
        fc.constantFrom<readonly [Sixteen, Sixteen]>(['bf16', 'bf16'], ['f16', 'f16'], ['bf16', 'f16']),
        fc.constantFrom('ff', 'ff+', 'f32'), fc.integer({ min: 1, max: 2 ** 30 }),
        async (n, maxThreads, [fx, fy], form, seed) => {
          // Products of both signs across 2^±6 (f16's range keeps them normal): partial sums cancel.
          const r = randomValues(2 * n, seed);
          const x = await toDevice(Array.from({ length: n }, (_, k) => r[k]! * 2 ** Math.round(6 * r[n + k]!)), { format: fx });
          const y = await toDevice(randomValues(n, seed + 1).map((v) => v * 3), { format: fy });
          setGpuKernelSwitches({ dotOctetRuns: true, ...(form === 'ff+' ? { ffLeanSettle: true, ffLongLazy: true } : {}) });
          const arithmetic = form === 'f32' ? 'f32' : 'ff';
          const before = dotOctetRunCalls();
          const one = (await gpuDot(x, y, { arithmetic, maxThreads })).value;
          const two = (await gpuDot(x, y, { arithmetic, maxThreads })).value;
          const label = `n=${n} T≤${maxThreads} ${fx}·${fy} ${form}`;
          expect(dotOctetRunCalls() - before, label).toBe(2);
          expect(Object.is(one, two), `${label}: ${one} vs ${two}`).toBe(true);
          const [hx, hy] = [Float64Array.from(await x.toHost()), Float64Array.from(await y.toHost())];
          const fa = form === 'f32' ? formats.f32 : formats.ff;
          const bound = dotBound(vector(hx, { storage: FORMAT[fx], arithmetic: fa }), vector(hy, { storage: FORMAT[fy], arithmetic: fa }), { arithmetic: fa });
          expect(within(one, exactDot(hx, hy), bound), `${label}: ${one} bound ${bound}`).toBe(true);
          x.destroy();
          y.destroy();
        },
      ),
      { numRuns: 8 },
    );
  });

  it('keeps the runs of four for a view or an fp32 operand; NaN and ±∞ come through; on by default', async () => {
    await requireRuntime();
    setGpuKernelSwitches({ dotOctetRuns: true });
    const n = 300;
    const span = await toDevice(randomValues(2 * n, 5), { format: 'bf16' });
    const packed = await toDevice(randomValues(n, 6), { format: 'bf16' });
    const x32 = await toDevice(randomValues(n, 7), { format: 'f32' });
    const view = viewOf(span, { offset: 1, length: n, stride: 2 });
    const before = dotOctetRunCalls();
    for (const [u, v] of [[view, packed], [x32, packed]] as const) {
      const got = (await gpuDot(u, v, { arithmetic: 'ff', maxThreads: 4 })).value;
      const [hu, hv] = [Float64Array.from(await u.toHost()), Float64Array.from(await v.toHost())];
      const bound = dotBound(vector(hu, { storage: u === x32 ? formats.f32 : formats.bf16, arithmetic: formats.ff }), vector(hv, { storage: formats.bf16, arithmetic: formats.ff }), { arithmetic: formats.ff });
      expect(within(got, exactDot(hu, hv), bound), `${got} bound ${bound}`).toBe(true);
    }
    expect(dotOctetRunCalls() - before).toBe(0);
    for (const [special, want] of [[NaN, NaN], [Infinity, Infinity]] as const) {
      const values = randomValues(n, 8).map((v) => Math.abs(v) + 0.5);
      values[137] = special;
      const s = await toDevice(values, { format: 'f16' });
      const got = (await gpuDot(s, s, { arithmetic: 'ff', maxThreads: 4 })).value;
      expect(Object.is(got, want), `${special}: ${got}`).toBe(true);
      s.destroy();
    }
    expect(dotOctetRunCalls() - before).toBe(2);
    for (const b of [span, packed, x32]) b.destroy();
    expect(initial.dotOctetRuns).toBe(process.env.MODPREC_GPU_DOT_OCTET_RUNS !== '0');
  });
});
