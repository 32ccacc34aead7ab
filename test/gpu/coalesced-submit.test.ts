/**
 * The opt-in coalesced submit (src/backends/webgpu/coalesced-submit.ts): with K = 2, 4, 16 calls per submit, a
 * sequence of GPU calls must leave exactly the bits of one submit a call — calls that read what the call before wrote
 * (AXPY/WAXPBY chains, GEMV N with β ≠ 0, TRSV on a vector AXPY just wrote), read-backs between calls, a re-upload of
 * an operand between calls, the destroy of an array a held call reads, a CG solve — with no validation error; and
 * nothing may stay held after a read-back settles, after `queue.onSubmittedWorkDone()`, or after one macrotask.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deviceZeros, refillSpan, toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot, gpuDotResident } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { gpuUpdate } from '../../kernels/waxpby/update-webgpu.js';
import { readWords, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { coalescedSubmitStats, gpuCoalesce, setGpuCoalesce } from '../../src/backends/webgpu/coalesced-submit.js';
import { cg, formats, laplacianEll, toArray, vector } from '../../src/index.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { expectModprec } from '../sparse/sparse-arbitraries.js';

// Back to the environment's setting (K = 4 by default since session 22) after each test.
afterEach(() => setGpuCoalesce(undefined));

const ff = { arithmetic: 'ff', strict: true } as const;
const f32 = { format: 'f32', strict: true } as const;
const bits = (a: ArrayLike<number>): string[] => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));

/** Runs the sequence; returns every result, and whether anything was held right after each read-back. */
async function sequence(rt: GpuRuntime, coalesced: boolean): Promise<{ results: string[][]; heldAfterRead: number[] }> {
  const device = rt.context.device;
  const n = 300;
  const m = 48;
  const heldAfterRead: number[] = [];
  const read = async (a: DeviceArray): Promise<string[]> => {
    const v = await a.toHost();
    heldAfterRead.push(coalescedSubmitStats(rt.context).held);
    return bits(v);
  };
  device.pushErrorScope('validation');
  const x = await toDevice(randomValues(n, 1), f32);
  const y = await toDevice(randomValues(n, 2), { format: 'bf16', strict: true });
  const out = await toDevice(randomValues(n, 3), f32);
  const w = await deviceZeros(n, f32);
  const results: string[][] = [];
  // AXPY (out ← 0.75·x + 1.25·out) and WAXPBY (w ← −0.5·out + 2·y) chains: each call reads what the one before wrote.
  for (let r = 0; r < 5; r++) {
    await gpuUpdate({ alpha: 0.75, x, beta: 1.25, y: out, out }, ff);
    await gpuUpdate({ alpha: -0.5, x: out, beta: 2, y, out: w }, ff);
  }
  // A read-back between calls (the DOT's value), then more calls.
  results.push([String((await gpuDot(x, out, ff)).value)]);
  heldAfterRead.push(coalescedSubmitStats(rt.context).held);
  // After the read-back the ramp restarts: two calls are submitted, the third (which reads x) is held.
  await gpuUpdate({ alpha: 1, x: w, beta: -1, y: out, out: w }, ff);
  await gpuUpdate({ alpha: 2, x, beta: 1, y: w, out: w }, ff);
  await gpuUpdate({ alpha: -1, x, beta: 1, y: w, out: w }, ff);
  if (coalesced) expect(coalescedSubmitStats(rt.context).held).toBeGreaterThan(0);
  // x re-uploaded between calls that read it.
  refillSpan(x, vector(randomValues(n, 4), { storage: formats.f32 }));
  await gpuUpdate({ alpha: 0.75, x, beta: 1.25, y: out, out }, ff);
  const { result } = await gpuDotResident(x, out, ff);
  results.push(Array.from(await readWords(rt.context, result.buffer!, result.words), String));
  heldAfterRead.push(coalescedSubmitStats(rt.context).held);
  results.push(await read(out), await read(w));
  // GEMV N with β ≠ 0, three times: each reads the y the call before wrote.
  const A = deviceMatrix(await toDevice(randomValues(m * m, 5), f32), m, m);
  const xv = await toDevice(randomValues(m, 6), f32);
  const yv = await toDevice(randomValues(m, 7), f32);
  for (let r = 0; r < 3; r++) await gpuGemv({ A, x: xv, y: yv, beta: 0.5 }, ff);
  // TRSV L N on a copy of xv that AXPY just wrote (its block inversion submits its own encoder).
  const lv = randomValues(m * m, 8);
  for (let j = 0; j < m; j++) for (let i = 0; i < m; i++) lv[j * m + i] = i < j ? 0 : i === j ? 2 + Math.abs(lv[j * m + i]!) : lv[j * m + i]! / m;
  const L = deviceMatrix(await toDevice(lv, f32), m, m);
  const b = await deviceZeros(m, f32);
  await gpuUpdate({ alpha: 1, x: xv, beta: 0, out: b }, ff);
  await gpuTrsv({ A: L, x: b, uplo: 'L' }, ff);
  await gpuGemv({ A, x: b, y: yv, beta: -1 }, ff);
  // An array destroyed while a call that reads it may be held.
  const doomed = await toDevice(randomValues(m, 9), f32);
  const c = await deviceZeros(m, f32);
  // Three calls that read it: after a ramp restart (the uploads wait on the device) the third is held.
  await gpuUpdate({ alpha: 3, x: doomed, beta: 0, out: c }, ff);
  await gpuUpdate({ alpha: 0.5, x: doomed, beta: 1, y: c, out: c }, ff);
  await gpuUpdate({ alpha: -2, x: doomed, beta: 1, y: c, out: c }, ff);
  if (coalesced) expect(coalescedSubmitStats(rt.context).held).toBeGreaterThan(0);
  doomed.destroy();
  await gpuUpdate({ alpha: 1, x: c, beta: 1, y: yv, out: c }, ff);
  results.push(await read(yv), await read(b), await read(c));
  expect((await device.popErrorScope())?.message).toBeUndefined();
  for (const a of [x, y, out, w, A.data, xv, yv, L.data, b, c]) a.destroy();
  return { results, heldAfterRead };
}

describe('coalesced submit', () => {
  it('K = 2, 4, 16 give the bits of one submit a call (chains, read-backs, re-upload, destroy, GEMV β ≠ 0, TRSV); nothing held after a read-back', async () => {
    const rt = await requireRuntime();
    setGpuCoalesce(0);
    const before = coalescedSubmitStats(rt.context);
    const immediate = await sequence(rt, false);
    // Off: no call went through the coalescer.
    expect(coalescedSubmitStats(rt.context)).toEqual(before);
    for (const k of [2, 4, 16]) {
      setGpuCoalesce(k, { idleMs: Infinity });
      const before = coalescedSubmitStats(rt.context);
      const coalesced = await sequence(rt, true);
      const after = coalescedSubmitStats(rt.context);
      expect(coalesced.results, `K = ${k}`).toEqual(immediate.results);
      expect(coalesced.heldAfterRead.every((h) => h === 0), `K = ${k}`).toBe(true);
      // It coalesced: fewer submits than calls.
      expect(after.submits - before.submits, `K = ${k}`).toBeLessThan(after.calls - before.calls);
    }
  });

  it('a bench-style loop: submits follow the ramp 1, 1, 2, 3, …, K (or 1, K, K, … without it); queue.onSubmittedWorkDone() submits the rest; the bits of one submit a call', async () => {
    const rt = await requireRuntime();
    const x = await toDevice(randomValues(4000, 11), f32);
    const y = await toDevice(randomValues(4000, 12), { format: 'bf16', strict: true });
    const { result } = await gpuDotResident(x, y, ff);
    const immediate = await readWords(rt.context, result.buffer!, result.words);
    rt.context.device.queue.writeBuffer(result.buffer!, 0, new Uint32Array(result.words).fill(0x7fc00001));
    for (const k of [2, 4, 16]) for (const ramp of [true, false]) {
      setGpuCoalesce(k, { idleMs: Infinity, ramp });
      const before = coalescedSubmitStats(rt.context);
      const reps = 20;
      for (let r = 0; r < reps; r++) await gpuDotResident(x, y, ff);
      const during = coalescedSubmitStats(rt.context);
      // The ramp: submit j holds max(1, min(K, j)) calls (without it: 1, then K); what is left over is held.
      const size = (j: number): number => (j === 0 ? 1 : ramp ? Math.min(k, j) : k);
      let submits = 0;
      let left = reps;
      for (let j = 0; left >= size(j); j++) {
        left -= size(j);
        submits++;
      }
      expect(during.calls - before.calls).toBe(reps);
      expect(during.submits - before.submits, `K = ${k}`).toBe(submits);
      expect(during.held, `K = ${k}`).toBe(left);
      await rt.context.device.queue.onSubmittedWorkDone();
      expect(coalescedSubmitStats(rt.context).held).toBe(0);
      expect(Array.from(await readWords(rt.context, result.buffer!, result.words))).toEqual(Array.from(immediate));
      rt.context.device.queue.writeBuffer(result.buffer!, 0, new Uint32Array(result.words).fill(0x7fc00001));
    }
    x.destroy();
    y.destroy();
  });

  it('nothing waits past the next macrotask; the same bits as one submit a call', async () => {
    const rt = await requireRuntime();
    const x = await toDevice(randomValues(500, 13), f32);
    const run = async (k: number, idleMs?: number): Promise<string[]> => {
      const out = await deviceZeros(500, f32);
      setGpuCoalesce(k, idleMs === undefined ? {} : { idleMs });
      // Five calls: the ramp submits 1, 1 and 2 of them and holds the fifth.
      for (let r = 0; r < 5; r++) await gpuUpdate({ alpha: 0.5 + r, x, beta: 1.5, y: out, out }, ff);
      if (k > 0 && idleMs === Infinity) expect(coalescedSubmitStats(rt.context).held).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(coalescedSubmitStats(rt.context).held).toBe(0);
      const v = bits(await out.toHost());
      out.destroy();
      return v;
    };
    const immediate = await run(0);
    expect(await run(16, Infinity)).toEqual(immediate);
    // The default idle rule (a ramp restarts after 1 ms without a submit).
    expect(await run(4)).toEqual(immediate);
    x.destroy();
  });

  it('a CG solve on the GPU: the same iterates and solution with K = 4 as with one submit a call', async () => {
    await requireRuntime();
    const A = laplacianEll([6, 6]);
    const b = Float64Array.from({ length: 36 }, (_, i) => 1 + Math.sin(i));
    const options = { backend: 'gpu' as const, arithmetic: formats.ff, strict: true, tolerance: 1e-10 };
    setGpuCoalesce(0);
    const immediate = await cg(A, b, options);
    setGpuCoalesce(4, { idleMs: Infinity });
    const coalesced = await cg(A, b, options);
    expect(coalesced.status).toBe('converged');
    expect(coalesced.history).toEqual(immediate.history);
    expect(bits(toArray(coalesced.x))).toEqual(bits(toArray(immediate.x)));
  });

  it('MODPREC_GPU_COALESCE and bad limits: INVALID_OPTION naming the parameter', () => {
    expectModprec(() => setGpuCoalesce(2.5), 'INVALID_OPTION', 'k');
    expectModprec(() => setGpuCoalesce(-1), 'INVALID_OPTION', 'k');
    expectModprec(() => setGpuCoalesce(4, { idleMs: -1 }), 'INVALID_OPTION', 'options.idleMs');
    const saved = process.env.MODPREC_GPU_COALESCE;
    try {
      process.env.MODPREC_GPU_COALESCE = 'four';
      expectModprec(() => setGpuCoalesce(undefined), 'INVALID_OPTION', 'MODPREC_GPU_COALESCE');
      process.env.MODPREC_GPU_COALESCE = '8';
      setGpuCoalesce(undefined);
      expect(gpuCoalesce()).toBe(8);
      process.env.MODPREC_GPU_COALESCE = '1';
      setGpuCoalesce(undefined);
      expect(gpuCoalesce()).toBe(0);
      delete process.env.MODPREC_GPU_COALESCE;
      setGpuCoalesce(undefined);
      expect(gpuCoalesce()).toBe(4);   // the default
    } finally {
      if (saved === undefined) delete process.env.MODPREC_GPU_COALESCE;
      else process.env.MODPREC_GPU_COALESCE = saved;
    }
  });
});
