/**
 * ELL SpMV on device RNS vectors, y := α·A·x + β·y, with A's values in fp64 (read exactly into RNS by the kernel:
 * two words per value, as MPRES-BLAS pairs a double matrix with multiple-precision vectors) or as device RNS
 * numbers. As GEMV: d = α·x rounded, then each y_i is one exact grid sum of a_ik·d_col(i,k) and β·y_i, rounded once
 * (src/formats/rns/gpu/grid.ts): |ŷ_i − y_i| ≤ 2^-p(3 + O(2^-p))(Σ_k|α·a_ik·x_col| + |β·y_i|) ≤ γ_{K+2}(…), the
 * CPU's `ellSpmvBound`.
 *
 * @module
 */
import { fail } from '../../src/core/errors.js';
import { checkArgumentsObject } from '../../src/backends/webgpu/kernel-common.js';
import { ellStructure, type EllStructure } from '../../src/sparse/ell-matrix.js';
import { checkLength } from '../../src/sparse/sparse-checks.js';
import { createWordBuffer } from '../../src/backends/webgpu/runtime.js';
import type { GpuBuffer } from '../../src/backends/webgpu/webgpu-types.js';
import { WORD_BIAS } from '../../src/formats/rns/gpu/device-set.js';
import { encodeValues, RnsDeviceArray } from '../../src/formats/rns/gpu/rns-device-array.js';
import { checkOperands, coefficient, deviceTable, runStages, sharedScalars, type RnsCoefficient, type RoundedStage } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { rowSumPasses, rowSumPrograms } from '../../src/formats/rns/gpu/row-sum-webgpu.js';
import { scaledVectorStage } from '../../src/formats/rns/gpu/update-rns-webgpu.js';

/**
 * An ELL matrix on the device for the RNS kernels: validated structure, column indices and values.
 * @group GPU
 */
export interface RnsDeviceEll {
  readonly structure: EllStructure;
  /** fp64 words (two per slot) or an RNS device array of stride·width elements. */
  readonly values: { readonly kind: 'f64'; readonly buffer: GpuBuffer } | { readonly kind: 'rns'; readonly array: RnsDeviceArray };
  readonly colIndex: GpuBuffer;
}

/**
 * Uploads an ELL matrix for {@link rnsGpuEllSpmv}.
 * @param structure - rows, cols, width, stride, column indices (validated as on the CPU)
 * @param values - stride·width fp64 values (slot k of row i at i + k·stride; finite), or a device RNS array of them
 * @param like - a device array whose device receives the matrix
 * @returns the device matrix
 * @throws {@link modprec!ModprecError} as `ellStructure`; `INVALID_STORAGE` naming `values` for anything but a
 *   Float64Array or an RNS device array; `DIMENSION_MISMATCH` naming `values.length` for a length
 *   other than stride·width (as `ellMatrix`); `INVALID_VALUE` (naming `values[k]`) for a non-finite fp64 value, before any upload
 * @example
 * ```ts
 * import { ELL_PADDING } from 'modprec';
 * import { rnsDeviceSet, rnsToDevice, rnsEllToDevice, rnsGpuEllSpmv } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(424);
 * const x = await rnsToDevice([1, 2], set), y = await rnsToDevice([0, 0], set);
 * const A = await rnsEllToDevice({ rows: 2, cols: 2, width: 2, stride: 2, colIndex: Int32Array.of(0, 1, 1, ELL_PADDING) }, Float64Array.of(2, 3, 0.5, 0), x);
 * await rnsGpuEllSpmv({ A, x, y });
 * (await y.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 3, 6 ]
 * ```
 * @group GPU
 */
export async function rnsEllToDevice(structure: EllStructure, values: Float64Array | RnsDeviceArray, like: RnsDeviceArray): Promise<RnsDeviceEll> {
  const s = ellStructure(structure);
  const slots = s.stride * s.width;
  // The fp64 words go up as they lie in memory: a plain array (no buffer) went up as zeros, A·x = 0 without an error,
  // and a Float32Array or Int32Array threw a RangeError ("Invalid typed array length"). ellMatrix's rule: a Float64Array.
  if (!(values instanceof Float64Array) && !(values instanceof RnsDeviceArray)) fail('INVALID_STORAGE', 'values', 'must be a Float64Array (as ellMatrix takes) or an RNS device array (rnsToDevice)', values);
  // A wrong length is the mismatch ellMatrix reports for the same structure and values (not INVALID_SIZE, which is a
  // number that is not a non-negative integer).
  checkLength('values.length', values.length, slots, 'stride * width');
  const ctx = like.runtime.context;
  const cols = new Uint32Array(Math.max(1, slots));
  for (let k = 0; k < slots; k++) cols[k] = s.colIndex[k]! + WORD_BIAS;
  if (values instanceof RnsDeviceArray) {
    checkOperands({ values, like });
    return { structure: s, values: { kind: 'rns', array: values }, colIndex: createWordBuffer(ctx, cols.length, cols) };
  }
  for (let k = 0; k < slots; k++) if (!Number.isFinite(values[k]!)) fail('INVALID_VALUE', `values[${k}]`, 'must be finite (RNS has no infinity or NaN)', values[k]);
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * slots); // little-endian: low word first
  return { structure: s, values: { kind: 'f64', buffer: createWordBuffer(ctx, Math.max(2, words.length), words) }, colIndex: createWordBuffer(ctx, cols.length, cols) };
}

/**
 * Arguments of {@link rnsGpuEllSpmv}.
 * @group GPU
 */
export interface RnsGpuEllSpmvArgs {
  readonly A: RnsDeviceEll;
  readonly x: RnsDeviceArray;
  readonly y: RnsDeviceArray;
  /** Default 1. */
  readonly alpha?: RnsCoefficient;
  /** Default 0 (y is then not read). */
  readonly beta?: RnsCoefficient;
}

/**
 * y := α·A·x + β·y for an ELL matrix on device RNS vectors, each y_i rounded once.
 * @param args - operands and coefficients
 * @returns when the device has finished
 * @throws {@link modprec!ModprecError} before anything is written: `INVALID_VALUE` (α, β),
 *   `DIMENSION_MISMATCH` (x of cols, y of rows elements), `INVALID_FORMAT`, `INVALID_STORAGE`
 * @example
 * ```ts
 * import { ELL_PADDING } from 'modprec';
 * import { rnsDeviceSet, rnsToDevice, rnsEllToDevice, rnsGpuEllSpmv } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(106);
 * const x = await rnsToDevice([1, 1], set), y = await rnsToDevice([1, 1], set);
 * const A = await rnsEllToDevice({ rows: 2, cols: 2, width: 1, stride: 2, colIndex: Int32Array.of(1, ELL_PADDING) }, Float64Array.of(0.25, 0), x);
 * await rnsGpuEllSpmv({ A, x, y, alpha: 4, beta: -1 });
 * (await y.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 0, -1 ]
 * ```
 * @group GPU
 */
export async function rnsGpuEllSpmv(args: RnsGpuEllSpmvArgs): Promise<void> {
  checkArgumentsObject(args, '{ A, x, y, alpha, beta }');
  const A0 = (args as { A?: unknown }).A as Partial<RnsDeviceEll> | null | undefined;
  if (typeof A0 !== 'object' || A0 === null || !A0.structure || !A0.values) fail('INVALID_STORAGE', 'A', 'must be an RNS device ELL matrix (rnsEllToDevice)', A0);
  const { A, x, y } = args;
  const alpha = coefficient('alpha', args.alpha ?? 1), beta = coefficient('beta', args.beta ?? 0);
  const named: Record<string, RnsDeviceArray> = { x, y };
  if (A.values.kind === 'rns') named['A.values'] = A.values.array;
  const { runtime, set } = checkOperands(named);
  const s = A.structure;
  if (x.length !== s.cols) fail('DIMENSION_MISMATCH', 'x', `must have cols = ${s.cols} elements`, x.length);
  if (y.length !== s.rows) fail('DIMENSION_MISMATCH', 'y', `must have rows = ${s.rows} elements`, y.length);
  if (s.rows === 0) return;
  const betaZero = beta.X === 0n;
  if ((alpha.X === 0n || s.width === 0) && beta.X === 1n && beta.exp === 0 && beta.sign === 0) return;
  const one = alpha.X === 1n && alpha.exp === 0 && alpha.sign === 0;
  const stages: RoundedStage[] = [];
  let d = (): RnsDeviceArray => x;
  if (!one && s.cols > 0) {
    const scaled = await scaledVectorStage(runtime, set, alpha, x, 'ell');
    stages.push(scaled.stage);
    d = scaled.d;
  }
  const betaWords = encodeValues(set, [beta]);
  const programs = await rowSumPrograms(runtime, set, { beta: !betaZero, p: A.values.kind, gather: true });
  const table = deviceTable(runtime, set);
  const P = A.values.kind === 'f64' ? A.values.buffer : A.values.array.live('A.values');
  const LP = A.values.kind === 'f64' ? s.stride * s.width : A.values.array.length;
  const shape = { R: s.rows, N: s.width, rs: 1, cs: s.stride, LP, LQ: s.cols, LY: y.length, beta: !betaZero };
  stages.push({ before: (acc) => rowSumPasses(runtime, set, programs, shape, P, d().live('x'), sharedScalars(runtime, betaWords, 'ell: β'), y.live('y'), table, acc, A.colIndex), count: s.rows, out: () => y.live('y') });
  await runStages(runtime, set, stages, []);
}
