/**
 * TRSV case: solve with the LU factors of a random matrix (seed 004, Figures 11 and 12): A = P·L·U with
 * partial pivoting in fp64, then T·x = b for T = U (upper, non-unit diagonal) or T = L (lower, unit).
 * @module
 */
import { luFactor, type Range, trsv } from '../../modprec.js';
import { trsvReference } from '../reference.js';
import { makeCase, type KernelCase } from '../kernel-case.js';
import { deviceOptions, gpuOutputFormat, hostPairs, kernelOptions } from '../gpu-backend.js';
import { fill, matrixOf, outputOf, valuesOf } from '../operands.js';
import { randomValues, studyRandom } from '../random-data.js';
import type { Distribution } from '../types.js';

/** The two triangular problems of an LU factorisation. */
export const TRSV_PROBLEMS = ['upper', 'lower'] as const;

/**
 * Splits the in-place LU factors of a column-major n×n matrix into L (unit lower, diagonal 1 stored)
 * and U (upper), each a full column-major matrix with zeros in the other triangle.
 */
export function splitFactors(n: number, lu: Float64Array): { L: Float64Array; U: Float64Array } {
  const L = new Float64Array(n * n);
  const U = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const v = lu[i + j * n]!;
      if (i > j) L[i + j * n] = v;
      else U[i + j * n] = v;
    }
    L[j + j * n] = 1;
  }
  return { L, U };
}

/** The factors of the last matrix factorised: the upper and lower problems of one seed share them. */
let lastFactors: { key: string; L: Float64Array; U: Float64Array } | undefined;

function factorsOf(n: number, distribution: Distribution, seed: number): { L: Float64Array; U: Float64Array } {
  const key = `${n}|${distribution}|${seed}`;
  if (lastFactors?.key !== key) {
    const a = randomValues(n * n, distribution, studyRandom(seed, 0));
    const { lu } = luFactor({ rows: n, cols: n, ld: n, data: a });
    const packed = lu.ld === n ? lu.data : Float64Array.from({ length: n * n }, (_, k) => lu.data[(k % n) + Math.floor(k / n) * lu.ld]!);
    lastFactors = { key, ...splitFactors(n, packed) };
  }
  return lastFactors;
}

/**
 * A TRSV problem: the factor `which` of the LU factorisation of a random n×n matrix, right-hand side random.
 * @returns the case: n² flops, n²/2 + 2n values moved per call
 */
export function trsvCase(n: number, which: typeof TRSV_PROBLEMS[number], distribution: Distribution, seed: number): KernelCase {
  const { L, U } = factorsOf(n, distribution, seed);
  const t = which === 'upper' ? U : L;
  const b = randomValues(n, distribution, studyRandom(seed, 1));
  const uplo = which === 'upper' ? 'U' : 'L';
  const diag = which === 'upper' ? 'N' : 'U';
  return makeCase({
    kernel: 'trsv', problem: `${which}-${distribution}`, size: n, seed, flops: n * n, values: (n * (n + 1)) / 2 + 2 * n,
    inputs: [t, b], integerLayouts: [{ rows: n }, 'output'],
    referenceOf: ([m, v], precision) => trsvReference(n, m!, v!, which, which === 'lower', precision),
    resultStored: true,
    bindGpu: async (gpu, config) => {
      const format = deviceOptions(config.storage);
      const output = deviceOptions(gpuOutputFormat(config.storage, config.arithmetic));
      const td = await gpu.lib.toDevice(t, format);
      const T = gpu.lib.deviceMatrix(td, n, n);
      let xd = await gpu.lib.toDevice(b, output);
      return {
        // TRSV overwrites x with the solution: upload b again before every call (O(n) next to the O(n²) solve).
        run: async () => {
          xd.destroy();
          xd = await gpu.lib.toDevice(b, output);
          return gpu.lib.gpuTrsv({ A: T, x: xd, uplo, trans: 'N', diag }, kernelOptions(config.arithmetic));
        },
        sync: async () => { await xd.toHost(); },
        result: () => hostPairs(xd),
        dispose: () => { td.destroy(); xd.destroy(); },
      };
    },
    bind: (config) => {
      const T = matrixOf(config, n, n, t);
      const x = outputOf(config, b);
      const options = { arithmetic: config.arithmeticFormat };
      const args = { A: T, x, uplo, trans: 'N', diag } as const;
      return {
        // TRSV overwrites x with the solution: write b again before every call (O(n) next to the O(n²) solve).
        run: () => { fill(x, b); trsv(args, options); },
        result: () => valuesOf(x),
      };
    },
  });
}
