/**
 * GPU ELL SpMV (column-major ELL, padding −1) against an accurate reference on the stored values, for
 * several storage formats, both arithmetics and y formats; real matrices from ../shared/matrices when present.
 */
import { matricesFolder } from '../matrix-fixtures.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMatrixMarketCsr } from '../../src/io/matrix-market-csr.js';
import { csrToEll } from '../../src/sparse/csr-to-ell.js';
import { laplacianEll } from '../../src/sparse/laplacian.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuEllSpmv, toDeviceEll, type EllParts } from '../../kernels/ell-spmv/ell-spmv-webgpu.js';
import { accurateSum, gamma, opError, randomValues, readError, requireRuntime, writeError } from './gpu-test-helpers.js';

/** A random ELL matrix: rows with 0..width entries at random distinct columns, the rest padding. */
function randomEll(rows: number, cols: number, width: number, stridePad: number, seed: number): EllParts {
  const stride = rows + stridePad;
  const colIndex = new Int32Array(stride * width).fill(-1);
  const values = randomValues(stride * width, seed);
  const pick = randomValues(rows * width, seed + 7);
  for (let i = 0; i < rows; i++) {
    const len = Math.floor(((pick[i]! + 1) / 2) * (width + 1)) % (width + 1);
    for (let k = 0; k < len; k++) colIndex[i + k * stride] = Math.floor(((pick[(i * width + k) % pick.length]! + 1) / 2) * cols) % cols;
  }
  // A padding slot holds 0 (ellMatrix's rule, which toDeviceEll applies too).
  for (let q = 0; q < colIndex.length; q++) if (colIndex[q] === -1) values[q] = 0;
  return { rows, cols, width, stride, colIndex, values };
}

async function check(parts: EllParts, storage: 'f32' | 'f16' | 'f64' | 'i16' | 'bf16', yFormat: 'f32' | 'ff' | 'bf16' | 'f64', arithmetic: 'f32' | 'ff', seed: number): Promise<void> {
  const A = await toDeviceEll(parts, { format: storage, scaleBlock: 32 });
  const x = await toDevice(randomValues(parts.cols, seed + 3), { format: storage === 'i16' ? 'f32' : storage });
  const y = await toDevice(randomValues(parts.rows, seed + 4), { format: yFormat });
  const [hv, hx, hy] = [await A.values.toHost(), await x.toHost(), await y.toHost()];
  const alpha = -2;
  const beta = 0.5;
  const r = await gpuEllSpmv({ A, x, y, alpha, beta }, { arithmetic });
  expect(r.backend).toBe('gpu');
  const got = await y.toHost();
  for (let i = 0; i < parts.rows; i++) {
    const terms: number[] = [];
    for (let k = 0; k < parts.width; k++) {
      const c = parts.colIndex[i + k * parts.stride]!;
      if (c >= 0) terms.push(hv[i + k * parts.stride]! * hx[c]!);
    }
    const exact = alpha * accurateSum(terms) + beta * hy[i]!;
    const mag = Math.abs(alpha) * accurateSum(terms.map(Math.abs)) + Math.abs(beta * hy[i]!);
    const w = writeError(yFormat, arithmetic);
    const bound = (gamma(parts.width + 3, opError(arithmetic)) + 2.01 * readError(storage, arithmetic) + readError(yFormat, arithmetic)) * mag * (1 + w) + w * Math.abs(exact);
    expect(Math.abs(got[i]! - exact)).toBeLessThanOrEqual(bound);
  }
}

describe('gpuEllSpmv', () => {
  for (const [storage, yFormat] of [['f32', 'f32'], ['f16', 'ff'], ['f64', 'ff'], ['i16', 'f32'], ['bf16', 'bf16'], ['f32', 'f64']] as const) {
    for (const arithmetic of ['f32', 'ff'] as const) {
      it(`values ${storage}, y ${yFormat}, ${arithmetic} arithmetic on random ELL matrices`, async () => {
        await requireRuntime();
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 2 ** 30 }), async (rows, cols, width, pad, seed) => {
            await check(randomEll(rows, cols, width, pad, seed), storage, yFormat, arithmetic, seed);
          }),
          { numRuns: 3 },
        );
      });
    }
  }

  it('matches the reference on a 3-D Laplacian', async () => {
    await requireRuntime();
    await check(laplacianEll([12, 10, 9], { strideMultiple: 64 }), 'f32', 'ff', 'ff', 11);
  });

  const matrices = matricesFolder;
  it.runIf(existsSync(matrices))('matches the reference on real matrices (west0479, bcsstk08)', async () => {
    await requireRuntime();
    for (const file of ['west0479.mtx', 'bcsstk08.mtx']) {
      const ell = csrToEll(readMatrixMarketCsr(readFileSync(join(matrices, file), 'utf8')), { strideMultiple: 32 });
      await check(ell, 'f32', 'f32', 'ff', 5);
    }
  });
});
