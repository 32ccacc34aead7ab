/**
 * Operands and the exact row check shared by the GEMV N workgroup-split tests (gemv-workgroup-split-shapes and
 * gemv-workgroup-split-exact): A and x on randomValues' grid (multiples of 2^-31, which rounding to f32/bf16/f16 keeps),
 * so α·A·x + β·y is an integer in units of 2^-65 for α·4 and β·2 integers.
 */
import { formats } from '../../src/index.js';
import { toDevice, viewOf, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, deviceMatrixView, type DeviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { absoluteError, exactOf } from '../../src/testing/exact.js';
import { compareRational, rational } from '../../src/testing/rational.js';
import { randomValues } from './gpu-test-helpers.js';

/** The formats and arithmetics by name (ff: a device format and an arithmetic, no host storage). */
export const FORMAT = { f32: formats.f32, bf16: formats.bf16, f16: formats.f16, ff: formats.ff, f64: formats.f64 } as const;
/** A format's name in {@link FORMAT}. */
export type StoredFormat = keyof typeof FORMAT;

/** The same bits, or NaN for NaN. */
export function same(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}

/** v·2^31 as a BigInt (every value here is a multiple of 2^-31: randomValues' grid, rounded to coarser formats). */
export function scaled31(v: number): bigint {
  const s = v * 2 ** 31;
  if (!Number.isInteger(s)) throw new Error(`internal: ${v} is not a multiple of 2^-31`);
  return BigInt(s);
}

/** A and x on the device, and their stored values on the host. */
export interface Operands {
  A: DeviceMatrix;
  x: DeviceArray;
  /** A(i, j) and x_j as stored. */
  a: (i: number, j: number) => number;
  hx: Float64Array;
  destroy: () => void;
}

/**
 * A in `aFormat` (packed with lda = m + pad, or rows 2 apart from element 5 of a span, columns 2m + pad apart: a view
 * read element by element) and x in `xFormat` (f32 unless named; packed, or every `xStride`-th element from 1).
 * `hostA: false`: A is never read back (a large matrix compared with the two passes only).
 */
export async function operands(c: { m: number; n: number; aFormat: StoredFormat; xFormat?: StoredFormat; pad: number; aView: boolean; xStride: number; seed: number; hostA?: boolean }): Promise<Operands> {
  const { m, n } = c;
  let A: DeviceMatrix;
  let a: (i: number, j: number) => number;
  if (c.aView) {
    const ld = 2 * m + c.pad;
    const span = await toDevice(randomValues(5 + ld * n, c.seed), { format: c.aFormat });
    A = deviceMatrixView(span, { rows: m, cols: n, offset: 5, rowStride: 2, colStride: ld });
    const held = await span.toHost();
    a = (i, j) => held[5 + 2 * i + j * ld]!;
  } else {
    const lda = m + c.pad;
    const data = await toDevice(randomValues(lda * n, c.seed), { format: c.aFormat });
    A = deviceMatrix(data, m, n, lda);
    const held = c.hostA === false ? new Float64Array(0) : await data.toHost();
    a = (i, j) => held[i + j * lda]!;
  }
  const xSpan = await toDevice(randomValues(c.xStride === 1 ? n : 1 + c.xStride * n, c.seed + 1), { format: c.xFormat ?? 'f32' });
  const x = c.xStride === 1 ? xSpan : viewOf(xSpan, { offset: 1, length: n, stride: c.xStride });
  const hx = Float64Array.from(await x.toHost());
  return { A, x, a, hx, destroy: () => { A.data.destroy(); xSpan.destroy(); } };
}

/** y's entry values (NaN with β = 0) stored in `format`, packed or as every second element of a span from 3. */
export async function makeY(y0: Float64Array, format: StoredFormat, view: boolean): Promise<{ y: DeviceArray; destroy: () => void }> {
  if (!view) {
    const y = await toDevice(y0, { format });
    return { y, destroy: () => y.destroy() };
  }
  const spanValues = new Float64Array(3 + 2 * y0.length).fill(0.5);
  y0.forEach((v, i) => { spanValues[3 + 2 * i] = v; });
  const span = await toDevice(spanValues, { format });
  return { y: viewOf(span, { offset: 3, length: y0.length, stride: 2 }), destroy: () => span.destroy() };
}

/**
 * The rows of y (at most 8, for the message) that are not finite or lie farther than `bound` from the exact
 * α·A·x + β·y_entry of the stored values (α·4 and β·2 integers).
 */
export function rowsOutsideBound(ops: Operands, m: number, n: number, alpha: number, beta: number, y: Float64Array, entry: Float64Array, bound: ArrayLike<number>): string[] {
  const xs = Array.from(ops.hx, scaled31);
  const al = BigInt(4 * alpha), be = BigInt(2 * beta);
  const bad: string[] = [];
  for (let i = 0; i < m && bad.length < 8; i++) {
    let s = 0n;
    if (alpha !== 0) for (let j = 0; j < n; j++) s += scaled31(ops.a(i, j)) * xs[j]!;
    const num = 2n * al * s + (beta === 0 ? 0n : be * scaled31(entry[i]!) * 2n ** 33n);
    const err = absoluteError(y[i]!, rational(num, 2n ** 65n));
    if (!Number.isFinite(y[i]!) || compareRational(err, exactOf(bound[i]!)) > 0) bad.push(`row ${i}: ${y[i]} bound ${bound[i]}`);
  }
  return bad;
}
