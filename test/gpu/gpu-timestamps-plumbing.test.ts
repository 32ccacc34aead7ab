/**
 * The plumbing of GPU timestamps (src/backends/webgpu/gpu-timestamps.ts through program.ts's submitPasses and
 * batched-submit.ts) on a stand-in device that executes command buffers on a virtual clock: every dispatch takes 100 ns,
 * a compute pass's end 7 ns more, a submit 1000 ns more. The adapters CI has (llvmpipe through OpenGL ES) offer no
 * `timestamp-query`, so this is where the pass structure, the query slots, the ring's reuse and the figures are
 * checked against what that clock makes them: with stamps on a call's pass, a call of 3 dispatches takes 300 ns and
 * 1007 ns separate calls; stamped per dispatch, 3 passes of 100 ns with 7 ns between them; in one submit, 7 ns between calls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuContext } from '../../src/backends/webgpu/backend.js';
import { submitPasses, type Pass, type Program } from '../../src/backends/webgpu/program.js';
import { withBatchedSubmit } from '../../src/backends/webgpu/batched-submit.js';
import { collectGpuTimestamps, setGpuTimestampGranularity, startGpuTimestamps, summarizeGpuTimestamps } from '../../src/backends/webgpu/gpu-timestamps.js';

afterEach(() => setGpuTimestampGranularity(undefined));

interface FakeBuffer { size: number; data: Uint8Array; destroy(): void; mapAsync(): Promise<void>; getMappedRange(): ArrayBuffer; unmap(): void }
interface Writes { querySet: { values: BigUint64Array }; beginningOfPassWriteIndex: number; endOfPassWriteIndex: number }

/** A device whose command buffers run at submit on a virtual clock in ns (see the module's notes). */
function fakeContext(): { context: GpuContext; computePasses: number } {
  let clock = 5n * 2n ** 40n;
  const state = { computePasses: 0 };
  const buffer = (size: number): FakeBuffer => {
    const data = new Uint8Array(size);
    return { size, data, destroy() {}, mapAsync: async () => {}, getMappedRange: () => data.slice().buffer, unmap() {} };
  };
  const device = {
    features: new Set(['timestamp-query']),
    limits: {},
    createQuerySet: ({ count }: { count: number }) => ({ values: new BigUint64Array(count) }),
    createBuffer: ({ size }: { size: number }) => buffer(size),
    createCommandEncoder: () => {
      const commands: (() => void)[] = [];
      return {
        beginComputePass(descriptor?: { timestampWrites?: Writes }) {
          const tw = descriptor?.timestampWrites;
          state.computePasses++;
          commands.push(() => {
            if (tw) tw.querySet.values[tw.beginningOfPassWriteIndex] = clock;
          });
          return {
            setPipeline() {},
            setBindGroup() {},
            dispatchWorkgroups: () => commands.push(() => (clock += 100n)),
            end: () => commands.push(() => {
              if (tw) tw.querySet.values[tw.endOfPassWriteIndex] = clock;
              clock += 7n;
            }),
          };
        },
        resolveQuerySet: (q: { values: BigUint64Array }, first: number, count: number, dst: FakeBuffer, offset: number) => commands.push(() => new BigUint64Array(dst.data.buffer, offset, count).set(q.values.subarray(first, first + count))),
        copyBufferToBuffer: (s: FakeBuffer, so: number, d: FakeBuffer, dO: number, n: number) => commands.push(() => d.data.set(s.data.subarray(so, so + n), dO)),
        finish: () => commands,
      };
    },
    queue: {
      submit(list: (() => void)[][]) {
        for (const commands of list) for (const c of commands) c();
        clock += 1000n;
      },
      writeBuffer() {},
      onSubmittedWorkDone: async () => {},
    },
    pushErrorScope() {},
    popErrorScope: async () => null,
  };
  const context = { device, adapter: { name: 'stand-in', backend: 'vulkan', features: ['timestamp-query'] } } as unknown as GpuContext;
  return { context, get computePasses() { return state.computePasses; } };
}

/** A call of `dispatches` dispatches (a program that only dispatches). */
function call(context: GpuContext, dispatches: number): void {
  const program = { encode: (_c: unknown, computePass: { dispatchWorkgroups(x: number): void }) => computePass.dispatchWorkgroups(1) } as unknown as Program;
  const pass = { program, arrays: {}, scalars: {}, output: { buffer: { size: 4 } }, threads: 1 } as unknown as Pass;
  submitPasses(context, Array.from({ length: dispatches }, () => ({ pass })));
}

describe('GPU timestamps on a stand-in device', () => {
  it('stamp a call\'s pass: its GPU time and the idle gap between submits', async () => {
    const fake = fakeContext();
    setGpuTimestampGranularity('pass');
    expect(startGpuTimestamps(fake.context)).toBe(true);
    for (let r = 0; r < 5; r++) call(fake.context, 3);
    expect(fake.computePasses).toBe(5);
    const batch = (await collectGpuTimestamps(fake.context))!;
    expect(batch.lost).toBe(0);
    expect(batch.calls.map((c) => c.begin.length)).toEqual([1, 1, 1, 1, 1]);
    expect(batch.calls.map((c) => c.end[0]! - c.begin[0]!)).toEqual([300, 300, 300, 300, 300]);
    const s = summarizeGpuTimestamps(batch)!;
    expect(s.passMs).toBeCloseTo(300e-6, 15);
    expect(s.gapMs).toBeCloseTo(1007e-6, 15);
    expect(s.spanPerCallMs).toBeCloseTo((5 * 300 + 4 * 1007) * 1e-6 / 5, 15);
    expect(s.quantized).toBe(false);
    // Collected: nothing more until the next start.
    expect(await collectGpuTimestamps(fake.context)).toBeUndefined();
  });

  it('stamp each dispatch in its own pass, and a batch in one submit has no submit gaps', async () => {
    const fake = fakeContext();
    setGpuTimestampGranularity('dispatch');
    startGpuTimestamps(fake.context);
    for (let r = 0; r < 4; r++) call(fake.context, 3);
    expect(fake.computePasses).toBe(12);
    const s = summarizeGpuTimestamps((await collectGpuTimestamps(fake.context))!)!;
    expect(s.dispatchMs!.length).toBe(3);
    for (const d of s.dispatchMs!) expect(d).toBeCloseTo(100e-6, 15);
    expect(s.innerGapMs).toBeCloseTo(14e-6, 15);
    expect(s.passMs).toBeCloseTo(314e-6, 15);
    expect(s.gapMs).toBeCloseTo(1007e-6, 15);
    setGpuTimestampGranularity('pass');
    startGpuTimestamps(fake.context);
    let submits = 0;
    const submit = fake.context.device.queue.submit.bind(fake.context.device.queue);
    fake.context.device.queue.submit = (c: unknown[]) => {
      submits++;
      submit(c);
    };
    await withBatchedSubmit(fake.context, async () => {
      for (let r = 0; r < 4; r++) call(fake.context, 2);
    });
    expect(submits).toBe(1);
    const b = summarizeGpuTimestamps((await collectGpuTimestamps(fake.context))!)!;
    expect(b.calls).toBe(4);
    expect(b.passMs).toBeCloseTo(200e-6, 15);
    expect(b.gapMs).toBeCloseTo(7e-6, 15);
  });

  it('keep the ring\'s last 4096 slots: older calls are counted lost, a call\'s slots never wrap', async () => {
    const fake = fakeContext();
    setGpuTimestampGranularity('dispatch');
    startGpuTimestamps(fake.context);
    // 6 slots a call: 682 calls fill 4092 slots, the 4 left are skipped, and calls 682… overwrite slots 0… .
    const calls = 800;
    for (let r = 0; r < calls; r++) call(fake.context, 3);
    const batch = (await collectGpuTimestamps(fake.context))!;
    // Each later call takes the 6 slots of one earlier call (the same alignment after the skip): one lost each.
    const overwritten = calls - 682;
    expect(batch.lost).toBe(overwritten);
    expect(batch.calls.length).toBe(calls - overwritten);
    // The kept calls are the latest, in order, each with its three 100 ns dispatches.
    for (let k = 1; k < batch.calls.length; k++) expect(batch.calls[k]!.begin[0]! - batch.calls[k - 1]!.end[2]!).toBe(1007);
    expect(batch.calls.every((c) => c.begin.every((b, k) => c.end[k]! - b === 100))).toBe(true);
  });

  it('write no stamps when off, and one compute pass a call', async () => {
    const fake = fakeContext();
    setGpuTimestampGranularity('off');
    expect(startGpuTimestamps(fake.context)).toBe(false);
    call(fake.context, 3);
    expect(fake.computePasses).toBe(1);
    expect(await collectGpuTimestamps(fake.context)).toBeUndefined();
  });
});
