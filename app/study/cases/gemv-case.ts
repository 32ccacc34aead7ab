/**
 * GEMV case: y = A·x (α = 1, β = 0) for a random square matrix and vector (seed 004, Figures 7 and 8).
 * @module
 */
import { gemv, type Range } from '../../modprec.js';
import { gemvReference } from '../reference.js';
import { makeCase, type KernelCase } from '../kernel-case.js';
import { deviceOptions, gpuOutputFormat, hostPairs, kernelOptions } from '../gpu-backend.js';
import { matrixOf, outputOf, valuesOf, vectorOf } from '../operands.js';
import { randomValues, studyRandom } from '../random-data.js';
import type { Distribution } from '../types.js';

/**
 * A GEMV problem of order `n` (A n×n column-major, x of length n).
 * @returns the case: 2n² flops, n² + 2n values moved per call
 */
export function gemvCase(n: number, distribution: Distribution, seed: number): KernelCase {
  const a = randomValues(n * n, distribution, studyRandom(seed, 0));
  const x = randomValues(n, distribution, studyRandom(seed, 1));
  return makeCase({
    kernel: 'gemv', problem: distribution, size: n, seed, flops: 2 * n * n, values: n * n + 2 * n, inputs: [a, x],
    integerLayouts: [{ rows: n }, 'vector'],
    referenceOf: ([m, v], precision) => gemvReference(n, n, m!, v!, precision),
    resultStored: true,
    outputTerms: (ref) => {
      const absProducts = new Float64Array(n);
      const absRows = new Float64Array(n);
      let absX = 0;
      for (let j = 0; j < n; j++) {
        absX += Math.abs(x[j]!);
        for (let i = 0; i < n; i++) {
          absProducts[i] += Math.abs(a[i + j * n]! * x[j]!);
          absRows[i] += Math.abs(a[i + j * n]!);
        }
      }
      const up = 1 + (2 * n + 2) * 2 ** -52; // the fp64 sums above, rounded up
      return Array.from(absProducts, (p, i) => ({
        terms: n, absProducts: p * up, absInputs: (absRows[i]! + absX) * up, absExact: Math.abs(ref.hi[i]! + ref.lo[i]!),
      }));
    },
    bindGpu: async (gpu, config) => {
      const format = deviceOptions(config.storage);
      const output = deviceOptions(gpuOutputFormat(config.storage, config.arithmetic));
      const ad = await gpu.lib.toDevice(a, format);
      const A = gpu.lib.deviceMatrix(ad, n, n);
      const xd = await gpu.lib.toDevice(x, format);
      const yd = await gpu.lib.deviceZeros(n, output);
      const args = { A, x: xd, y: yd, alpha: 1, beta: 0, trans: 'N' as const };
      return {
        run: () => gpu.lib.gpuGemv(args, kernelOptions(config.arithmetic)),
        sync: async () => { await yd.toHost(); },
        result: () => hostPairs(yd),
        dispose: () => { ad.destroy(); xd.destroy(); yd.destroy(); },
      };
    },
    bind: (config) => {
      const A = matrixOf(config, n, n, a);
      const xr = vectorOf(config, x);
      const y = outputOf(config, new Float64Array(n));
      const options = { arithmetic: config.arithmeticFormat };
      const args = { alpha: 1, A, x: xr, beta: 0, y, trans: 'N' as const };
      return { run: () => gemv(args, options), result: () => valuesOf(y) };
    },
  });
}
