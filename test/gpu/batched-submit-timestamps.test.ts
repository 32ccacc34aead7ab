/**
 * The benchmarks' diagnostics of issue 19 (bench/gpu/gpu-gaps.ts): a batched submit (src/backends/webgpu/batched-submit.ts)
 * must give the unbatched calls' bits — resident DOT, and GEMV N with β ≠ 0 so that each call reads the y the call
 * before it wrote — in one submit, and refuse what it cannot keep in order; GPU timestamps
 * (src/backends/webgpu/gpu-timestamps.ts) must change no result bit, and their summary must give the figures it
 * defines. The timestamps are asked for in this file (before the device comes up); where the adapter has no
 * `timestamp-query` (llvmpipe through OpenGL ES has none) the test that needs stamps says so and skips.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { deviceZeros, toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDotResident } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { readWords } from '../../src/backends/webgpu/runtime.js';
import { withBatchedSubmit } from '../../src/backends/webgpu/batched-submit.js';
import { setGpuCoalesce } from '../../src/backends/webgpu/coalesced-submit.js';
import { collectGpuTimestamps, gpuTimestampsStatus, setGpuTimestampGranularity, startGpuTimestamps, summarizeGpuTimestamps, timestampsFromWords, type BatchTimestamps } from '../../src/backends/webgpu/gpu-timestamps.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

// Read when the device comes up (backend.ts asks for timestamp-query then, where the adapter has it).
process.env.MODPREC_GPU_TIMESTAMPS = 'pass';

afterEach(() => setGpuTimestampGranularity(undefined));

/** Counts the queue's submits while `f` runs. */
async function countingSubmits<T>(queue: { submit(c: unknown[]): void }, f: () => Promise<T>): Promise<{ value: T; submits: number }> {
  const q = queue as unknown as Record<string, unknown>;
  const own = Object.prototype.hasOwnProperty.call(q, 'submit');
  const original = queue.submit;
  let submits = 0;
  q.submit = (c: unknown[]) => {
    submits++;
    return original.call(queue, c);
  };
  try {
    return { value: await f(), submits };
  } finally {
    if (own) q.submit = original;
    else delete q.submit;
  }
}

const sameBits = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => a.length === b.length && Array.from(a).every((v, k) => Object.is(v, b[k]));

describe('batched submit', () => {
  it('resident DOT and GEMV N (β ≠ 0: each call reads the previous y) give the unbatched bits in one submit', async () => {
    const rt = await requireRuntime();
    // One submit a call to compare with (coalesced submits, on by default, would share them): coalesced-submit.test.ts.
    setGpuCoalesce(0);
    onTestFinished(() => setGpuCoalesce(undefined));
    const n = 3000;
    const m = 37;
    for (const arithmetic of ['ff', 'f32'] as const) {
      const x = await toDevice(randomValues(n, 3), { format: 'f32', strict: true });
      const y = await toDevice(randomValues(n, 5), { format: 'bf16', strict: true });
      const { result } = await gpuDotResident(x, y, { arithmetic });
      const unbatched = await readWords(rt.context, result.buffer!, result.words);
      // Overwritten first, so that the words read after the batch are the batch's.
      rt.context.device.queue.writeBuffer(result.buffer!, 0, new Uint32Array(result.words).fill(0xdeadbeef));
      const { submits } = await countingSubmits(rt.context.device.queue, () => withBatchedSubmit(rt.context, async () => {
        for (let r = 0; r < 3; r++) await gpuDotResident(x, y, { arithmetic });
      }));
      expect(submits).toBe(1);
      expect(Array.from(await readWords(rt.context, result.buffer!, result.words))).toEqual(Array.from(unbatched));

      const A = deviceMatrix(await toDevice(randomValues(m * 29, 7), { format: 'f32', strict: true }), m, 29);
      const xg = await toDevice(randomValues(29, 11), { format: 'f32', strict: true });
      const y0 = randomValues(m, 13);
      const run = async (batched: boolean): Promise<{ y: Float64Array; submits: number }> => {
        const yg = await toDevice(y0, { format: 'f32', strict: true });
        const calls = async (): Promise<void> => {
          for (let r = 0; r < 3; r++) await gpuGemv({ A, x: xg, y: yg, alpha: 1.5, beta: -0.75 }, { arithmetic });
        };
        const { submits } = await countingSubmits(rt.context.device.queue, () => (batched ? withBatchedSubmit(rt.context, calls) : calls()));
        const out = { y: await yg.toHost(), submits };
        yg.destroy();
        return out;
      };
      const one = await run(false);
      const batched = await run(true);
      expect(one.submits).toBe(3);
      expect(batched.submits).toBe(1);
      expect(sameBits(batched.y, one.y)).toBe(true);
      // The calls' order matters: y after 3 calls is not y after 1.
      const single = await toDevice(y0, { format: 'f32', strict: true });
      await gpuGemv({ A, x: xg, y: single, alpha: 1.5, beta: -0.75 }, { arithmetic });
      expect(sameBits(await single.toHost(), one.y)).toBe(false);
      for (const a of [x, y, A.data, xg, single]) a.destroy();
    }
  });

  it('refuses a read-back, a queue write into a bound buffer and a nested batch, and leaves the queue as it was', async () => {
    const rt = await requireRuntime();
    const A = deviceMatrix(await toDevice(randomValues(16 * 16, 17), { format: 'f32', strict: true }), 16, 16);
    const x = await toDevice(randomValues(16, 19), { format: 'f32', strict: true });
    const y = await deviceZeros(16, { format: 'f32', strict: true });
    const call = (): Promise<unknown> => gpuGemv({ A, x, y }, { arithmetic: 'ff' });
    await call();
    const expected = await y.toHost();
    await expect(withBatchedSubmit(rt.context, async () => {
      await call();
      return y.toHost();
    })).rejects.toThrow(/submitted its own command buffer/);
    await expect(withBatchedSubmit(rt.context, async () => {
      await call();
      rt.context.device.queue.writeBuffer(x.buffer!, 0, new Float32Array([2]));
    })).rejects.toThrow(/writes \(queue\.writeBuffer\) a buffer/);
    await expect(withBatchedSubmit(rt.context, () => withBatchedSubmit(rt.context, call))).rejects.toThrow(/already open/);
    // Nothing of the refused batches ran, and the queue submits and writes as before.
    await call();
    expect(sameBits(await y.toHost(), expected)).toBe(true);
    for (const a of [A.data, x, y]) a.destroy();
  });
});

describe('GPU timestamps', () => {
  it('change no result bit, and stamp each call (or each dispatch)', async (ctx) => {
    const rt = await requireRuntime();
    const status = gpuTimestampsStatus(rt.context);
    if (!status.on) ctx.skip(`no GPU timestamps here: ${status.reason}`);
    const x = await toDevice(randomValues(5000, 23), { format: 'f32', strict: true });
    const A = deviceMatrix(await toDevice(randomValues(40 * 33, 29), { format: 'f32', strict: true }), 40, 33);
    const xg = await toDevice(randomValues(33, 31), { format: 'f32', strict: true });
    const y = await deviceZeros(40, { format: 'f32', strict: true });
    const results = async (): Promise<{ dot: Uint32Array; gemv: Float64Array; stamps: BatchTimestamps | undefined }> => {
      startGpuTimestamps(rt.context);
      const { result } = await gpuDotResident(x, x, { arithmetic: 'ff' });
      await gpuGemv({ A, x: xg, y }, { arithmetic: 'ff' });
      await rt.context.device.queue.onSubmittedWorkDone();
      const stamps = await collectGpuTimestamps(rt.context);
      return { dot: await readWords(rt.context, result.buffer!, result.words), gemv: await y.toHost(), stamps };
    };
    setGpuTimestampGranularity('off');
    const off = await results();
    expect(off.stamps).toBeUndefined();
    for (const g of ['pass', 'dispatch'] as const) {
      setGpuTimestampGranularity(g);
      const on = await results();
      expect(Array.from(on.dot)).toEqual(Array.from(off.dot));
      expect(sameBits(on.gemv, off.gemv)).toBe(true);
      expect(on.stamps!.calls.length).toBe(2);
      for (const c of on.stamps!.calls) {
        if (g === 'pass') expect(c.begin.length).toBe(1);
        for (let k = 0; k < c.begin.length; k++) expect(c.end[k]!).toBeGreaterThanOrEqual(c.begin[k]!);
      }
    }
    for (const a of [x, A.data, xg, y]) a.destroy();
  });

  it('read as u64 ns from the resolved words, relative to the first begin; unwritten queries lose their call', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 30n }), fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 0, max: 2 ** 20 })), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }), fc.boolean(), fc.integer({ min: -1, max: 7 }), (origin, calls, quantum, unwritten) => {
        // Calls laid out in slot order, each pass a (delay, length) in ns; with `quantum` every stamp a multiple of 2^16.
        const words = new Uint32Array(2 * 2 * calls.reduce((s, c) => s + c.length, 0) + 8);
        const records: { slot: number; passes: number }[] = [];
        const expected: { begin: number[]; end: number[] }[] = [];
        const unit = quantum ? 2n ** 16n : 1n;
        let t = origin * unit;
        let slot = 1;
        calls.forEach((passes, i) => {
          records.push({ slot, passes: passes.length });
          const begin: number[] = [];
          const end: number[] = [];
          for (const [delay, length] of passes) {
            if (begin.length > 0 || i > 0) t += BigInt(delay) * unit;
            for (const [k, v] of [[0, t], [1, t + BigInt(length + 1) * unit]] as const) {
              words[2 * (slot + k)] = Number(v & 0xffffffffn);
              words[2 * (slot + k) + 1] = Number(v >> 32n);
            }
            begin.push(Number(t));
            t += BigInt(length + 1) * unit;
            end.push(Number(t));
            slot += 2;
          }
          // One call's queries left unwritten (zero words): the call is lost.
          if (i === unwritten) words.fill(0, 2 * records[i]!.slot, 2 * slot);
          else expected.push({ begin, end });
        });
        // Relative to the first kept call's first begin (absolute values here stay below 2^53: exact as numbers).
        const first = expected[0]?.begin[0] ?? 0;
        for (const c of expected) for (const v of [c.begin, c.end]) v.forEach((x, k) => (v[k] = x - first));
        const got = timestampsFromWords(words, records);
        expect(got.calls).toEqual(expected);
        expect(got.lost).toBe(calls.length - expected.length);
        expect(got.quantized).toBe(quantum && expected.length > 0);
      }),
    );
  });

  it('summarise to the call time, span per call and idle gap they define', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ gap: fc.integer({ min: 0, max: 10 ** 6 }), busy: fc.array(fc.integer({ min: 1, max: 10 ** 6 }), { minLength: 3, maxLength: 3 }), idle: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 3, maxLength: 3 }) }), { minLength: 1, maxLength: 12 }), (calls) => {
        // Three stamped dispatches a call: busy[k] each, idle[k] before dispatch k (idle[0]: unused), gap before the call.
        let t = 0;
        const stamped = calls.map((c, i) => {
          if (i > 0) t += c.gap;
          const begin: number[] = [];
          const end: number[] = [];
          c.busy.forEach((b, k) => {
            if (k > 0) t += c.idle[k]!;
            begin.push(t);
            t += b;
            end.push(t);
          });
          return { begin, end };
        });
        const s = summarizeGpuTimestamps({ calls: stamped, lost: 0, quantized: false })!;
        const callNs = calls.map((c) => c.busy.reduce((a, b) => a + b, 0) + c.idle[1]! + c.idle[2]!);
        const median = (v: number[]): number => {
          const w = [...v].sort((a, b) => a - b);
          return w.length % 2 ? w[w.length >> 1]! : (w[w.length / 2 - 1]! + w[w.length / 2]!) / 2;
        };
        const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));
        const gaps = calls.slice(1).map((c) => c.gap);
        return close(s.passMs, median(callNs) * 1e-6) && close(s.spanPerCallMs, (t / calls.length) * 1e-6) && close(s.gapMs, gaps.length ? (gaps.reduce((a, b) => a + b, 0) / gaps.length) * 1e-6 : 0)
          && s.dispatchMs!.every((d, k) => close(d, median(calls.map((c) => c.busy[k]!)) * 1e-6)) && close(s.innerGapMs!, median(calls.map((c) => c.idle[1]! + c.idle[2]!)) * 1e-6);
      }),
    );
  });
});
