/**
 * `backend: 'gpu'` with an RNS arithmetic (`arithmetic: rnsFormat(p)`): the kernels of gpu-dispatch.ts, run by the
 * resident RNS device kernels (`rnsGpu*`, src/formats/rns/gpu/). Operands stored in fp64, fp32, fp16 or bf16 go up as
 * their exact doubles, RNS-stored ones as their exact values (rounded once to p bits when their set is wider, as the
 * CPU's read rounds them), all in the device moduli set of the arithmetic's precision p. Results come back exactly
 * and are written as the CPU kernels write them: each value becomes a number of the arithmetic's CPU set (exact:
 * both hold p bits), exported to the output's storage by the arithmetic (`toKind`, one rounding), or returned as
 * a double (`toNumber`). The checks are the CPU kernels' own (`checkReadableIn`, `checkPivotsIn`), before anything
 * is uploaded or written. The device results are each one rounding of an exact sum (two for TRSV, NRM2), within
 * the CPU's a-priori bounds for the same arithmetic (docs/rns.md, "On the GPU").
 * @module
 */
import type { Range } from '../../core/range.js';
import type { ArithmeticFormat } from '../../formats/common/format.js';
import type { EllOperand } from '../../../kernels/ell-spmv/ell-operand.js';
import type { GpuDotResult } from '../../../kernels/dot/dot-webgpu.js';
import type { GpuAsumResult } from '../../../kernels/asum/asum-webgpu.js';
import type { GpuNrm2Result } from '../../../kernels/nrm2/nrm2-webgpu.js';
import type { GpuRunInfo } from '../webgpu/kernel-common.js';
import { checkReadableIn } from '../../../kernels/shared/kernel-options.js';
import { checkPivotsIn } from '../../../kernels/trsv/trsv-pivots.js';
import { codecWrites } from './codec-writes.js';
import { solveRestoringX } from '../../../kernels/trsv/trsv-rns-overflow.js';
import { onGpuOrCpu, type GpuCall } from './gpu-backend.js';
import { rnsDeviceSet, type RnsDeviceSet } from '../../formats/rns/gpu/device-set.js';
import { exactOfDouble, rnsToDevice, rnsZerosOnDevice, type RnsDeviceArray, type RnsExactValue } from '../../formats/rns/gpu/rns-device-array.js';
import { roundToPrecision } from '../../formats/rns/gpu/host-exact.js';
import { RnsNumber } from '../../formats/rns/rns-number-class.js';
import { rnsFromRational, rnsSignificand } from '../../formats/rns/convert-exact.js';
import { rnsGpuDot } from '../../../kernels/dot/dot-rns-webgpu.js';
import { rnsGpuAsum } from '../../../kernels/asum/asum-rns-webgpu.js';
import { rnsGpuNrm2 } from '../../../kernels/nrm2/nrm2-rns-webgpu.js';
import { rnsGpuGemv } from '../../../kernels/gemv/gemv-rns-webgpu.js';
import { rnsGpuTrsv } from '../../../kernels/trsv/trsv-rns-webgpu.js';
import { rnsEllToDevice, rnsGpuEllSpmv } from '../../../kernels/ell-spmv/ell-spmv-rns-webgpu.js';
import { rnsGpuScal, rnsGpuWaxpby } from '../../formats/rns/gpu/update-rns-webgpu.js';

type Report = GpuRunInfo;

/** The device set of the call's RNS arithmetic. */
function setOf(call: GpuCall): RnsDeviceSet {
  return rnsDeviceSet(call.arithmetic.significandBits);
}

/** The exact value of a stored element (a double, or an RNS number rounded to p bits if its set is wider). */
function exactOf(v: unknown, p: number): RnsExactValue {
  if (typeof v === 'number') return exactOfDouble(v);
  const z = v as RnsNumber;
  const X = rnsSignificand(z);
  return roundToPrecision({ sign: z.sign ? 1 : 0, X, exp: X === 0n ? 0 : z.exp }, p);
}

/**
 * The values of a range's elements (1-D: in order; 2-D: column-major m×n, `keep` false → +0), as doubles where the
 * storage holds numbers (the fast upload), else as exact values.
 */
export function valuesOf(r: Range<any, any>, p: number, keep?: (i: number, j: number) => boolean): Float64Array | RnsExactValue[] {
  const a = r.accessor;
  const st = a.storage;
  const [m, n] = a.dimensionality === 1 ? [a.size[0] as number, 1] : [a.size[0] as number, a.size[1] as number];
  const at = (i: number, j: number): unknown => st.decode(a.data as never, a.linearIndex(a.dimensionality === 1 ? [i] : [i, j]));
  if (st.kind === 'number') {
    const out = new Float64Array(m * n);
    for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) if (!keep || keep(i, j)) out[i + j * m] = at(i, j) as number;
    return out;
  }
  const zero: RnsExactValue = { sign: 0, X: 0n, exp: 0 };
  const out: RnsExactValue[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) out.push(!keep || keep(i, j) ? exactOf(at(i, j), p) : zero);
  return out;
}

async function upload(r: Range<any, any>, set: RnsDeviceSet, keep?: (i: number, j: number) => boolean): Promise<RnsDeviceArray> {
  return rnsToDevice(valuesOf(r, set.precision, keep), set);
}

/** An exact device value as a number of the arithmetic's CPU set (exact: both hold p bits). */
export function cpuNumber(ar: ArithmeticFormat, v: RnsExactValue): RnsNumber {
  const z = ar.fromNumber(0) as RnsNumber;
  const num = v.sign ? -v.X : v.X;
  if (v.X === 0n) rnsFromRational(z, 0n, 1n);
  else if (v.exp >= 0) rnsFromRational(z, num << BigInt(v.exp), 1n);
  else rnsFromRational(z, num, 1n << BigInt(-v.exp));
  if (v.X === 0n) z.sign = v.sign;
  return z;
}

/**
 * Signs of zero results as the CPU gives them. Its reductions (DOT, ASUM, NRM2, the row sums of GEMV and ELL SpMV)
 * accumulate from +0, so an exact zero sum is +0 there (IEEE: +0 + −0 = +0), and GEMV/SpMV then combine it as
 * α·t (β = 0) or α·t + β·y_i (kernels/gemv/coefficients.ts); the device's grid sums give −0 exactly when every term
 * is −0, the IEEE sign of a sum without a starting +0, which the elementwise kernels keep.
 * @param zeroSign - the sign an exact zero result of element i takes (default: the device's)
 */
export function writeValues(r: Range<1, any>, values: readonly RnsExactValue[], ar: ArithmeticFormat, zeroSign?: (i: number) => 0 | 1): void {
  const a = r.accessor;
  const st = a.storage;
  values.forEach((v, i) => {
    const w: RnsExactValue = zeroSign && v.X === 0n ? { sign: zeroSign(i), X: 0n, exp: 0 } : v;
    st.encode(a.data as never, a.linearIndex([i]), ar.toKind(st.kind, cpuNumber(ar, w), st.significandBits) as never);
  });
}

async function downloadInto(r: Range<1, any>, d: RnsDeviceArray, ar: ArithmeticFormat, zeroSign?: (i: number) => 0 | 1): Promise<void> {
  writeValues(r, await d.toExact(), ar, zeroSign);
}

const negative = (v: number): boolean => v < 0 || Object.is(v, -0);

/**
 * The CPU's sign of a zero y_i := α·t + β·y_i (α ≠ 0, t a sum from +0): α·t is a zero of α's sign when it is zero;
 * if β·y_i is not zero, a zero result is a cancellation (+0); else −0 only when both zeros are negative.
 */
function combineZeroSign(alpha: number, beta: number, y: Float64Array | RnsExactValue[] | undefined): (i: number) => 0 | 1 {
  return (i) => {
    if (!negative(alpha)) return 0;
    if (beta === 0) return 1;
    const yi = y![i]!;
    const [zero, sign] = typeof yi === 'number' ? [yi === 0, negative(yi) ? 1 : 0] : [yi.X === 0n, yi.sign];
    return zero && (sign ^ (negative(beta) ? 1 : 0)) === 1 ? 1 : 0;
  };
}

/** The one value of a device reduction, as the double the CPU kernel returns. */
async function scalarOf(d: RnsDeviceArray, ar: ArithmeticFormat): Promise<{ exact: RnsExactValue; value: number }> {
  const [got] = await d.toExact();
  const exact: RnsExactValue = got!.X === 0n ? { sign: 0, X: 0n, exp: 0 } : got!;
  return { exact, value: ar.toNumber(cpuNumber(ar, exact)) };
}

function free(...arrays: (RnsDeviceArray | undefined)[]): void {
  for (const a of arrays) a?.destroy();
}

/** DOT in RNS on the GPU (`into` receives the result rounded once to its storage, as on the CPU). */
export function rnsDotOnGpu(x: Range<1, any>, y: Range<1, any>, call: GpuCall, cpu: () => number, into?: Range<1, any>): Promise<GpuDotResult> {
  return onGpuOrCpu<GpuDotResult>(call, async (_g, report) => {
    const ar = call.arithmetic;
    checkReadableIn(ar, [['x', x], ['y', y]]);
    const set = setOf(call);
    const dx = await upload(x, set), dy = await upload(y, set);
    let s: RnsDeviceArray | undefined;
    try {
      s = await rnsGpuDot(dx, dy);
      const { exact, value } = await scalarOf(s, ar);
      // A user's storage that refuses the result: INVALID_VALUE naming options.into[0], as on the CPU (its other outputs
      // are RNS or built-in storage only, which take every exact value).
      if (into) codecWrites(into, 'options.into', ar, () => writeValues(into, [exact], ar));
      return { ...report, value };
    } finally {
      free(dx, dy, s);
    }
  }, () => ({ value: cpu() }));
}

/** ASUM or NRM2 in RNS on the GPU. */
export function rnsNormOnGpu(kind: 'asum' | 'nrm2', x: Range<1, any>, call: GpuCall, cpu: () => number): Promise<GpuAsumResult | GpuNrm2Result> {
  return onGpuOrCpu<GpuAsumResult>(call, async (_g, report) => {
    const ar = call.arithmetic;
    checkReadableIn(ar, [['x', x]]);
    if (x.length() === 0) return { ...report, value: 0 };
    const dx = await upload(x, setOf(call));
    let s: RnsDeviceArray | undefined;
    try {
      s = await (kind === 'asum' ? rnsGpuAsum(dx) : rnsGpuNrm2(dx));
      return { ...report, value: (await scalarOf(s, ar)).value };
    } finally {
      free(dx, s);
    }
  }, () => ({ value: cpu() }));
}

/** y := β·y (α = 0 or an empty product): β = 0 writes zeros without reading y. */
async function scaleOutput(y: Range<1, any>, beta: number, call: GpuCall): Promise<void> {
  if (beta === 1) return;
  const ar = call.arithmetic;
  if (beta === 0) { writeValues(y, new Array(y.length()).fill({ sign: 0, X: 0n, exp: 0 }), ar); return; }
  checkReadableIn(ar, [['y', y]]);
  const dy = await upload(y, setOf(call));
  try {
    await rnsGpuScal(beta, dy); // one product, with its IEEE sign when zero (the CPU's β·y)
    await downloadInto(y, dy, ar);
  } finally {
    free(dy);
  }
}

/** GEMV in RNS on the GPU, with the CPU kernel's quick returns. */
export function rnsGemvOnGpu(args: { alpha: number; A: Range<2, any>; x: Range<1, any>; beta: number; y: Range<1, any>; trans: 'N' | 'T'; m: number; n: number }, call: GpuCall, cpu: () => void): Promise<Report> {
  return onGpuOrCpu<Report>(call, async (_g, report) => {
    const { alpha, A, x, beta, y, trans, m, n } = args;
    if (m === 0 || n === 0 || (alpha === 0 && beta === 1)) return report;
    if (alpha === 0) { await scaleOutput(y, beta, call); return report; }
    const ar = call.arithmetic;
    checkReadableIn(ar, [['A', A], ['x', x], ...(beta !== 0 ? [['y', y] as const] : [])]);
    const set = setOf(call);
    const dA = await upload(A, set), dx = await upload(x, set);
    const yv = beta !== 0 ? valuesOf(y, set.precision) : undefined;
    const dy = yv ? await rnsToDevice(yv, set) : rnsZerosOnDevice(dA.runtime, set, y.length());
    try {
      // m×n is op(A)'s shape; A itself went up column-major, A.length(0) rows.
      await rnsGpuGemv({ A: dA, m: A.length(0), n: A.length(1), lda: Math.max(1, A.length(0)), trans, x: dx, y: dy, alpha, beta });
      await downloadInto(y, dy, ar, combineZeroSign(alpha, beta, yv));
      return report;
    } finally {
      free(dA, dx, dy);
    }
  }, () => { cpu(); return {}; });
}

/**
 * TRSV in RNS on the GPU: A's unused triangle is neither read nor uploaded (+0 in its place). x goes up as RNS
 * numbers and stays in RNS until the solve ends (rounded to x's storage once, on the way down), where the CPU
 * rounds each x_j to x's storage before later rows read it: both are within trsvBound, but for an x stored
 * narrower than the arithmetic the bits may differ (as for the f32/ff GPU TRSV, which keeps its residual). An
 * unknown that overflows x's storage (±∞) before the last one solved is the CPU's `INVALID_VALUE` naming `x[k]`,
 * x left as it was (kernels/trsv/trsv-rns-overflow.ts).
 */
export function rnsTrsvOnGpu(args: { A: Range<2, any>; x: Range<1, any>; uplo: 'U' | 'L'; trans: 'N' | 'T'; diag: 'N' | 'U' }, call: GpuCall, cpu: () => void): Promise<Report> {
  return onGpuOrCpu<Report>(call, async (_g, report) => {
    const { A, x, uplo, trans, diag } = args;
    const ar = call.arithmetic;
    checkReadableIn(ar, [['x', x]]);
    checkPivotsIn(ar, A, uplo === 'U', diag === 'U');
    const n = A.length(0);
    if (n === 0) return report;
    const set = setOf(call);
    const inTriangle = (i: number, j: number): boolean => (uplo === 'U' ? j >= i : j <= i) && !(diag === 'U' && i === j);
    const dA = await upload(A, set, inTriangle), dx = await upload(x, set);
    try {
      await rnsGpuTrsv({ A: dA, n, x: dx, uplo, trans, diag });
      const solution = await dx.toExact();
      // An unknown beyond x's storage that a later row reads back is the CPU's error, with x's bits as they were.
      solveRestoringX(x, (uplo === 'L') !== (trans === 'T'), ar, () => writeValues(x, solution, ar));
      return report;
    } finally {
      free(dA, dx);
    }
  }, () => { cpu(); return {}; });
}

/**
 * The stride·width slot values of an ELL matrix for {@link rnsEllToDevice}: fp64 values where its storage holds
 * numbers (read exactly by the kernel), else a device RNS array. Slot k of row i at i + k·stride; padding slots (and
 * rows of the stride beyond the values) hold +0.
 */
export async function ellValuesFor(A: EllOperand, set: RnsDeviceSet): Promise<Float64Array | RnsDeviceArray> {
  const { width, stride, colIndex } = A.structure;
  const vr = A.values.length(0);
  const used = valuesOf(A.values, set.precision, (i, k) => colIndex[i + k * stride]! >= 0);
  if (used instanceof Float64Array) {
    const slots = new Float64Array(stride * width);
    for (let k = 0; k < width; k++) for (let i = 0; i < vr; i++) slots[i + k * stride] = used[i + k * vr]!;
    return slots;
  }
  const slots: RnsExactValue[] = Array.from({ length: stride * width }, () => ({ sign: 0 as const, X: 0n, exp: 0 }));
  for (let k = 0; k < width; k++) for (let i = 0; i < vr; i++) slots[i + k * stride] = used[i + k * vr]!;
  return rnsToDevice(slots, set);
}

/** ELL SpMV in RNS on the GPU: number-stored values go up as fp64 (read exactly by the kernel), RNS ones as numbers. */
export function rnsEllSpmvOnGpu(args: { alpha: number; A: EllOperand; x: Range<1, any>; beta: number; y: Range<1, any> }, call: GpuCall, cpu: () => void): Promise<Report> {
  return onGpuOrCpu<Report>(call, async (_g, report) => {
    const { alpha, A, x, beta, y } = args;
    const { rows, cols, width, stride, colIndex } = A.structure;
    if (rows === 0 || (alpha === 0 && beta === 1)) return report;
    if (alpha === 0 || cols === 0 || width === 0) { await scaleOutput(y, beta, call); return report; }
    const ar = call.arithmetic;
    checkReadableIn(ar, [['A.values', A.values], ['x', x], ...(beta !== 0 ? [['y', y] as const] : [])]);
    const set = setOf(call);
    const dx = await upload(x, set);
    const values = await ellValuesFor(A, set);
    const yv = beta !== 0 ? valuesOf(y, set.precision) : undefined;
    const dy = yv ? await rnsToDevice(yv, set) : rnsZerosOnDevice(dx.runtime, set, y.length());
    const dA = await rnsEllToDevice({ rows, cols, width, stride, colIndex }, values, dx);
    try {
      await rnsGpuEllSpmv({ A: dA, x: dx, y: dy, alpha, beta });
      await downloadInto(y, dy, ar, combineZeroSign(alpha, beta, yv));
      return report;
    } finally {
      free(dx, dy, values instanceof Float64Array ? undefined : values);
      dA.colIndex.destroy();
      if (dA.values.kind === 'f64') dA.values.buffer.destroy();
    }
  }, () => { cpu(); return {}; });
}

/** out := α·x + β·y in RNS on the GPU (a zero coefficient's vector is not read; SCAL passes no y). */
export function rnsUpdateOnGpu(args: { alpha: number; x: Range<1, any>; beta: number; y?: Range<1, any>; out: Range<1, any> }, call: GpuCall, cpu: () => void): Promise<Report> {
  return onGpuOrCpu<Report>(call, async (_g, report) => {
    const { alpha, x, beta, y, out } = args;
    const n = out.length();
    if (n === 0) return report;
    const ar = call.arithmetic;
    const readsY = y !== undefined && beta !== 0;
    checkReadableIn(ar, [...(alpha !== 0 ? [['x', x] as const] : []), ...(readsY ? [['y', y] as const] : [])]);
    if (alpha === 0 && !readsY) {
      writeValues(out, new Array(n).fill({ sign: 0, X: 0n, exp: 0 }), ar);
      return report;
    }
    const set = setOf(call);
    const dx = alpha !== 0 ? await upload(x, set) : undefined;
    const dy = readsY ? await upload(y, set) : undefined;
    try {
      // One term alone is a product, with its own sign even when zero (α·(−0) = −0 for α > 0), as on the CPU,
      // where the vector of a zero coefficient is not read: scaled in place (the uploads are copies).
      if (dx && dy) {
        await rnsGpuWaxpby(alpha, dx, beta, dy, dx);
      } else {
        await rnsGpuScal(dx ? alpha : beta, (dx ?? dy)!);
      }
      // (The CPU's α = 0 path adds β·y to +0: its zeros are +0.)
      await downloadInto(out, (dx ?? dy)!, ar, dx ? undefined : () => 0);
      return report;
    } finally {
      free(dx, dy);
    }
  }, () => { cpu(); return {}; });
}
