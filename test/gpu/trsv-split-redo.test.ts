/**
 * GPU TRSV over a matrix split across bindings, with a zero pivot and non-finite values: the substitution redo runs
 * through windows of A's columns (kernels/trsv/trsv-split-redo-source.ts) and gives the one-binding redo's x bit for
 * bit — which is the CPU's outcome: its non-finite pattern in f32, its special values and signed zeros in dd. Before,
 * the split solve kept the block-inverse result (0·∞ = NaN reaching rows that substitution leaves ±∞).
 */
import { describe, expect, it } from 'vitest';
import { setBindingLimitForTests, toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';
import { formats, matrix, toArray, trsv, vector } from '../../src/index.js';
import { nonFinitePattern, requireRuntime } from './gpu-test-helpers.js';
import { sameSpecials, show } from '../dd/special-value-cases.js';

const n = 200;
const lda = 203;
// A in f32 storage is 162 kB: a 64 kB limit holds 80 of its columns per window (one 64-column block each). In dd the
// block inverses take 256 kB (one binding, not windowed): A in f64 storage (325 kB) under a 256 kB limit, 160 columns
// per window. The zero pivot lies where its ±∞ and NaN cross a window boundary in either substitution order.
const SETUP = { f32: { storage: 'f32', limit: 64 * 1024, zeroPivot: 120 }, dd: { storage: 'f64', limit: 256 * 1024, zeroPivot: 100 } } as const;
const entry = (i: number, j: number, zeroPivot: number): number => (i === j ? (i === zeroPivot ? 0 : 2) : Math.abs(i - j) === 1 ? 0.5 : (i + j) % 7 === 0 ? -0.25 : 0);
const rhs = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 0 : (i % 3) - 1));

async function gpuSolve(uplo: 'L' | 'U', trans: 'N' | 'T', arithmetic: 'f32' | 'dd', zeroPivot: number, limit?: number): Promise<number[]> {
  const a = new Float64Array(lda * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) a[i + j * lda] = entry(i, j, zeroPivot);
  const A = deviceMatrix(await toDevice(a, { format: SETUP[arithmetic].storage }), n, n, lda);
  const x = await toDevice(rhs, { format: arithmetic === 'dd' ? 'f64' : 'f32' });
  // The one-binding reference runs the blocked solve too (64-row blocks would otherwise take the one-dispatch one).
  process.env.MODPREC_TRSV_ONE_DISPATCH = '0';
  rereadTuningKnobs();
  setBindingLimitForTests(limit);
  try {
    await gpuTrsv({ A, x, uplo, trans }, { arithmetic, blockSize: 64 });
  } finally {
    setBindingLimitForTests(undefined);
    delete process.env.MODPREC_TRSV_ONE_DISPATCH;
    rereadTuningKnobs();
  }
  const out = [...(await x.toHost())];
  A.data.destroy();
  x.destroy();
  return out;
}

function cpuSolve(uplo: 'L' | 'U', trans: 'N' | 'T', arithmetic: 'f32' | 'dd', zeroPivot: number): number[] {
  const A = matrix(n, n, (i, j) => entry(i, j, zeroPivot), { storage: SETUP[arithmetic].storage === 'f64' ? formats.f64 : formats.f32 });
  const x = vector(rhs, { storage: arithmetic === 'dd' ? formats.f64 : formats.f32 });
  trsv({ A, x, uplo, trans }, { arithmetic: arithmetic === 'dd' ? formats.dd : formats.f32 });
  return [...toArray(x)] as number[];
}

describe('GPU TRSV split across bindings, non-finite values: the substitution redo', () => {
  for (const arithmetic of ['f32', 'dd'] as const) {
    it(`${arithmetic}: every variant gives the one-binding x bit for bit, the CPU's outcome`, async () => {
      await requireRuntime();
      for (const uplo of ['L', 'U'] as const) {
        for (const trans of ['N', 'T'] as const) {
          const { zeroPivot, limit } = SETUP[arithmetic];
          const whole = await gpuSolve(uplo, trans, arithmetic, zeroPivot);
          const split = await gpuSolve(uplo, trans, arithmetic, zeroPivot, limit);
          const cpu = cpuSolve(uplo, trans, arithmetic, zeroPivot);
          const label = `${uplo}${trans} ${arithmetic}`;
          expect(nonFinitePattern(cpu), label).toMatch(/[N+-]/);
          expect(split.map(show), label).toEqual(whole.map(show));
          expect(nonFinitePattern(split), label).toBe(nonFinitePattern(cpu));
          // dd: the CPU's special values and signed zeros (substitution in its order; finite values within rounding).
          if (arithmetic === 'dd') expect(sameSpecials(split.map(show), cpu.map(show)), label).toBe(true);
        }
      }
    });
  }

  it('dd: block inverses over the binding limit are BACKEND_LIMIT naming it, before x is written', async () => {
    await requireRuntime();
    // 64-row blocks of 200 rows in dd (four words a register) take 64·256·16 = 256 kB: over a 128 kB limit, which
    // still holds A's 64-column windows in f64 (64·203·8 = 104 kB).
    const a = new Float64Array(lda * n);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) a[i + j * lda] = entry(i, j, -1);
    const A = deviceMatrix(await toDevice(a, { format: 'f64' }), n, n, lda);
    // x in dd storage: an f64 x would be rounded between rows, a substitution that inverts no block.
    const x = await toDevice(rhs, { format: 'dd' });
    process.env.MODPREC_TRSV_ONE_DISPATCH = '0';
    rereadTuningKnobs();
    setBindingLimitForTests(128 * 1024);
    try {
      await expect(gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'dd', blockSize: 64 })).rejects.toMatchObject({ code: 'BACKEND_LIMIT', parameter: 'maxStorageBufferBindingSize' });
    } finally {
      setBindingLimitForTests(undefined);
      delete process.env.MODPREC_TRSV_ONE_DISPATCH;
      rereadTuningKnobs();
    }
    expect([...(await x.toHost())]).toEqual(rhs);
    A.data.destroy();
    x.destroy();
  });
});
