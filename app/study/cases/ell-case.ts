/**
 * ELL SpMV case: y = A·x for real SuiteSparse matrices (seed 004, Figures 13 and 14) and generated ones
 * (2-D and 3-D Laplacians, random banded) over a size sweep. x is random per seed; A's values go
 * through the configuration's storage like every other operand.
 * @module
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { csrToEll, type EllMatrix, ellOperand, ellSpmv, ellWithStorage, laplacianEll, randomBandedCsr, type Range, readMatrixMarketCsr } from '../../modprec.js';
import { ellSpmvReference } from '../reference.js';
import { makeCase, type KernelCase } from '../kernel-case.js';
import { deviceOptions, gpuOutputFormat, hostPairs, kernelOptions } from '../gpu-backend.js';
import { matrixOf, outputOf, valuesOf, vectorOf } from '../operands.js';
import { randomValues, studyRandom } from '../random-data.js';
import type { ProblemSpec } from '../problems.js';
import type { StudyOptions } from '../types.js';

/** The Laplacian grid with about `n` points in `dims` dimensions. */
function grid(n: number, dims: 2 | 3): number[] {
  const side = Math.max(2, Math.round(n ** (1 / dims)));
  return Array.from({ length: dims }, () => side);
}

/** Generated matrices by name: their ELL form for a target size and seed. */
const GENERATED: Readonly<Record<string, (n: number, seed: number) => EllMatrix>> = {
  'laplacian-2d': (n) => laplacianEll(grid(n, 2)),
  'laplacian-3d': (n) => laplacianEll(grid(n, 3)),
  banded: (n, seed) => csrToEll(randomBandedCsr({ rows: n, lowerBandwidth: 8, upperBandwidth: 8, density: 0.5, seed })),
};

/** Real matrices found in `folder` (names without .mtx), restricted to `wanted` when it is not empty. */
export function realMatrixNames(folder: string | null, wanted: readonly string[]): string[] {
  if (!folder || !existsSync(folder)) return [];
  const found = readdirSync(folder).filter((f) => f.endsWith('.mtx')).map((f) => f.slice(0, -4)).sort();
  return wanted.length === 0 ? found : found.filter((n) => wanted.includes(n));
}

/** Stored slots (padding included): what the kernel reads. */
function slots(A: EllMatrix): number {
  return A.stride * A.width;
}

/** A case for the ELL matrix `A` named `problem`. */
export function ellCase(problem: string, A: EllMatrix, seed: number): KernelCase {
  const x = randomValues(A.cols, 'uniform', studyRandom(seed, 1));
  let nnz = 0;
  for (let k = 0; k < A.colIndex.length; k++) if (A.colIndex[k]! >= 0) nnz++;
  return makeCase({
    kernel: 'ell-spmv', problem, size: A.rows, nnz, seed, flops: 2 * nnz,
    values: slots(A) + A.cols + A.rows, indexBytes: 4 * slots(A), inputs: [A.values, x],
    integerLayouts: [{ rows: A.stride }, 'vector'],
    referenceOf: ([v, xv], precision) => ellSpmvReference(A, v!, xv!, precision),
    resultStored: true,
    outputTerms: (ref) => {
      const out = [];
      for (let i = 0; i < A.rows; i++) {
        let terms = 0;
        let absProducts = 0;
        let absValues = 0;
        for (let k = 0; k < A.width; k++) {
          const col = A.colIndex[i + k * A.stride]!;
          if (col < 0) break;
          const v = A.values[i + k * A.stride]!;
          terms++;
          absProducts += Math.abs(v * x[col]!);
          absValues += Math.abs(v) + Math.abs(x[col]!); // the inputs this row reads
        }
        const up = 1 + (2 * terms + 2) * 2 ** -52; // the fp64 sums above, rounded up
        out.push({ terms, absProducts: absProducts * up, absInputs: absValues * up, absExact: Math.abs(ref.hi[i]! + ref.lo[i]!) });
      }
      return out;
    },
    bindGpu: async (gpu, config) => {
      const format = deviceOptions(config.storage);
      const output = deviceOptions(gpuOutputFormat(config.storage, config.arithmetic));
      const Ad = await gpu.lib.toDeviceEll({ rows: A.rows, cols: A.cols, width: A.width, stride: A.stride, colIndex: A.colIndex, values: A.values }, format);
      const xd = await gpu.lib.toDevice(x, format);
      const yd = await gpu.lib.deviceZeros(A.rows, output);
      const args = { A: Ad, x: xd, y: yd, alpha: 1, beta: 0 };
      return {
        run: () => gpu.lib.gpuEllSpmv(args, kernelOptions(config.arithmetic)),
        sync: async () => { await yd.toHost(); },
        result: () => hostPairs(yd),
        dispose: () => { xd.destroy(); yd.destroy(); },
      };
    },
    bind: (config) => {
      // Integer storage: the values with one scale per row, fitted as the stored reference computes them.
      const operand = config.storageFormat.isInteger
        ? ellOperand(A, matrixOf(config, A.stride, A.width, A.values))
        : ellWithStorage(A, { storage: config.storageFormat, arithmetic: config.arithmeticFormat });
      const xr = vectorOf(config, x);
      const y = outputOf(config, new Float64Array(A.rows));
      const args = { alpha: 1, A: operand, x: xr, beta: 0, y };
      const options = { arithmetic: config.arithmeticFormat };
      return { run: () => ellSpmv(args, options), result: () => valuesOf(y) };
    },
  });
}

/** The ELL problems: generated matrices at every size, then the real matrices at their own size. */
export function ellProblems(sizes: readonly number[], options: StudyOptions): ProblemSpec[] {
  const out: ProblemSpec[] = [];
  const largest = Math.max(...sizes);
  for (const [name, make] of Object.entries(GENERATED)) {
    for (const n of sizes) {
      // Estimated nonzeros per row: 5 (2-D), 7 (3-D), about 9 (banded, half of 17).
      const perRow = name === 'laplacian-2d' ? 5 : name === 'laplacian-3d' ? 7 : 9;
      out.push({
        // Timed at the largest size only: speed vs size is the dense kernels' plot; here the matrices differ.
        kernel: 'ell-spmv', problem: name, size: n, seeded: true, speed: n === largest, flops: 2 * perRow * n,
        values: (perRow + 2) * n, setupFlops: 0,
        make: (seed) => ellCase(name, make(n, seed), seed),
      });
    }
  }
  for (const name of realMatrixNames(options.matrixFolder, options.matrices)) {
    const A = csrToEll(readMatrixMarketCsr(readFileSync(join(options.matrixFolder!, `${name}.mtx`), 'utf8')));
    let nnz = 0;
    for (let k = 0; k < A.colIndex.length; k++) if (A.colIndex[k]! >= 0) nnz++;
    out.push({
      kernel: 'ell-spmv', problem: name, size: A.rows, seeded: true, speed: true, flops: 2 * nnz,
      values: A.stride * A.width + A.cols + A.rows, setupFlops: 0,
      make: (seed) => ellCase(name, A, seed),
    });
  }
  return out;
}
