/**
 * One options object means the same to a resident kernel of modprec/gpu as to the CPU kernel called with
 * `backend: 'gpu'`: the same typed error (code and parameter) for the same bad or unsupported option, raised before
 * anything is written, and a run where both run. Regressions: the resident kernels ignored `accumulation` (any value,
 * 'kahan' and 'bogus' alike: `gpuDot(x, y, { accumulation: 'kahan' })` summed in the GPU's blocked order, where
 * `dot(x, y, { backend: 'gpu', accumulation: 'kahan' })` is INVALID_OPTION naming options.accumulation), `threads`,
 * an unknown `backend` ('GPU'), GEMV's `loop` and DOT's `into`; and an arithmetic that names no arithmetic ('bogus', 3,
 * formats.i8) was INVALID_OPTION where the CPU kernels say INVALID_FORMAT (both naming options.arithmetic); gpuTrsv's
 * `blockSize` NaN, 1.5 or '64' was INVALID_SIZE where trsv's is INVALID_OPTION, and `blockSize: null` ran with 64.
 */
import { describe, expect, it } from 'vitest';
import {
  asum, dot, ellFromMatrix, ellMatrix, ellSpmv, formats, gemv, matrix, nrm2, trsv, vector, waxpby,
} from '../../src/index.js';
import {
  deviceMatrix, gpuAsum, gpuDot, gpuDotResident, gpuEllSpmv, gpuGemv, gpuNrm2, gpuTrsv, gpuUpdate, toDevice, toDeviceEll, type DeviceArray,
} from '../../src/backends/webgpu/index.js';
import { outcome } from '../kernels/kernel-calls.js';
import { requireRuntime } from './gpu-test-helpers.js';

const f32 = { storage: formats.f32, arithmetic: formats.f32 };
const dev = (values: number[]): Promise<DeviceArray> => toDevice(values, { format: 'f32' });
const ellParts = { rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(0, 1), values: Float64Array.of(2, 3) };

/** Each kernel twice: resident (returning its output array, to check it is untouched) and CPU with the options given. */
type Pair = { resident: (o: unknown) => Promise<{ out: DeviceArray; run: () => Promise<unknown> }>; cpu: (o: Record<string, unknown>) => unknown };
const PAIRS: Record<string, Pair> = {
  dot: { resident: async (o) => { const y = await dev([3, 4]); const x = await dev([1, 2]); return { out: y, run: () => gpuDot(x, y, o as never) }; }, cpu: (o) => dot(vector([1, 2], f32), vector([3, 4], f32), o) },
  dotResident: { resident: async (o) => { const y = await dev([3, 4]); const x = await dev([1, 2]); return { out: y, run: () => gpuDotResident(x, y, o as never) }; }, cpu: (o) => dot(vector([1, 2], f32), vector([3, 4], f32), o) },
  asum: { resident: async (o) => { const x = await dev([1, -2]); return { out: x, run: () => gpuAsum(x, o as never) }; }, cpu: (o) => asum(vector([1, -2], f32), o) },
  nrm2: { resident: async (o) => { const x = await dev([3, 4]); return { out: x, run: () => gpuNrm2(x, o as never) }; }, cpu: (o) => nrm2(vector([3, 4], f32), o) },
  update: {
    resident: async (o) => { const out = await dev([5, 5]); const x = await dev([1, 2]), y = await dev([1, 1]); return { out, run: () => gpuUpdate({ alpha: 2, x, beta: 3, y, out }, o as never) }; },
    cpu: (o) => waxpby(2, vector([1, 2], f32), 3, vector([1, 1], f32), vector([5, 5], f32), o),
  },
  gemv: {
    resident: async (o) => { const y = await dev([5, 5]); const A = deviceMatrix(await dev([1, 2, 3, 4]), 2, 2), x = await dev([1, 2]); return { out: y, run: () => gpuGemv({ A, x, y, alpha: 1, beta: 1 }, o as never) }; },
    cpu: (o) => gemv({ alpha: 1, A: matrix(2, 2, (i, j) => 1 + i + 2 * j, f32), x: vector([1, 2], f32), beta: 1, y: vector([5, 5], f32) }, o),
  },
  trsv: {
    resident: async (o) => { const x = await dev([1, 2]); const A = deviceMatrix(await dev([2, 0, 1, 4]), 2, 2); return { out: x, run: () => gpuTrsv({ A, x }, o as never) }; },
    cpu: (o) => trsv({ A: matrix(2, 2, (i, j) => [2, 1, 0, 4][2 * i + j]!, f32), x: vector([1, 2], f32) }, o),
  },
  ellSpmv: {
    resident: async (o) => { const y = await dev([5, 5]); const A = await toDeviceEll(ellParts, { format: 'f32' }), x = await dev([1, 2]); return { out: y, run: () => gpuEllSpmv({ A, x, y, alpha: 1, beta: 1 }, o as never) }; },
    cpu: (o) => ellSpmv({ alpha: 1, A: ellFromMatrix(ellMatrix(ellParts), 'f32'), x: vector([1, 2], f32), beta: 1, y: vector([5, 5], f32) }, o),
  },
};

/** Options both APIs take, and options both refuse; `backend: 'gpu'` is added for the CPU call where none is given. */
const OPTIONS: Record<string, unknown>[] = [
  {}, { arithmetic: 'ff' }, { arithmetic: formats.f32 }, { backend: 'gpu' }, { strict: false },
  { accumulation: 'kahan' }, { accumulation: 'recursive' }, { accumulation: 'bogus' }, { accumulation: 17 },
  { arithmetic: 'bogus' }, { arithmetic: 3 }, { arithmetic: formats.i8 }, { arithmetic: 'F32' }, { arithmetic: formats.f64 }, { arithmetic: 'f64' },
  { threads: 2 }, { backend: 'GPU' }, { backend: 'gpu', threads: 2 }, { strict: 'yes' }, { accumulation: 'bogus', arithmetic: 'bogus' },
];

/** The resident call's outcome, and whether its output kept its values. */
async function residentOutcome(pair: Pair, options: unknown): Promise<[string, boolean]> {
  const { out, run } = await pair.resident(options);
  const before = [...(await out.toHost())];
  const result = await outcome(run);
  const kept = result === 'ran' || JSON.stringify([...(await out.toHost())]) === JSON.stringify(before);
  out.destroy();
  return [result, kept];
}

describe('the resident kernels take the options as backend gpu does', () => {
  it.each(Object.keys(PAIRS))('%s: the same outcome for every options object, nothing written on an error', async (name) => {
    await requireRuntime();
    const pair = PAIRS[name]!;
    const options = name === 'gemv' ? [...OPTIONS, { loop: 'auto' }, { loop: 'axpy' }, { loop: 'sideways' }] : OPTIONS;
    const seen: string[] = [];
    for (const o of options) {
      const cpu = await outcome(() => pair.cpu('backend' in o ? o : { ...o, backend: 'gpu' }));
      const [resident, kept] = await residentOutcome(pair, o);
      expect([JSON.stringify(o), resident, kept]).toEqual([JSON.stringify(o), cpu, true]);
      seen.push(resident);
    }
    // The sweep reaches runs and refusals of each option named in the header.
    expect(seen).toContain('ran');
    expect(seen).toEqual(expect.arrayContaining(['INVALID_OPTION options.accumulation', 'INVALID_FORMAT options.arithmetic', 'INVALID_OPTION options.threads', 'INVALID_OPTION options.backend']));
  });

  it("TRSV's blockSize: the same values run, and every other is INVALID_OPTION naming options.blockSize on both", async () => {
    await requireRuntime();
    for (const blockSize of [64, 128, 256, 0, 32, 512, -1, 1.5, NaN, Infinity, '64', 'x', null, true]) {
      const cpu = await outcome(() => PAIRS.trsv!.cpu({ blockSize, backend: 'gpu' }));
      expect([blockSize, ...(await residentOutcome(PAIRS.trsv!, { blockSize }))]).toEqual([blockSize, cpu, true]);
      expect([blockSize, cpu]).toEqual([blockSize, [64, 128, 256].includes(blockSize as number) ? 'ran' : 'INVALID_OPTION options.blockSize']);
    }
  });

  it("a backend other than 'gpu' and DOT's into are refused by the resident kernels, which run on the device and return their result", async () => {
    await requireRuntime();
    for (const name of Object.keys(PAIRS)) {
      for (const backend of ['js', 'wasm', 'cpu']) expect(await residentOutcome(PAIRS[name]!, { backend })).toEqual(['INVALID_OPTION options.backend', true]);
    }
    for (const name of ['dot', 'dotResident']) expect(await residentOutcome(PAIRS[name]!, { into: vector(1, f32) })).toEqual(['INVALID_OPTION options.into', true]);
  });
});
