/**
 * The resident API's CPU fallback (host-resident arrays, where no adapter exists) is the CPU backend: the
 * arrays' exact values become fp64 ranges and the CPU kernels run on them in the same arithmetic (`formats.f32`
 * or `formats.ff`, whose CPU implementation emulates the GPU's float-float algorithms). No kernel is written twice.
 * The output is computed into a range of its own storage format where the CPU has it (f32, f16, bf16, f64;
 * float-float results into double-double storage, which holds them exactly), so it is rounded once.
 * @module
 */
import { range, type Range } from '../../core/range.js';
import { colMajor } from '../../../accessors/col-major.js';
import { rowMajor } from '../../../accessors/row-major.js';
import { findFormat, formatNames } from '../../formats/common/registry.js';
import '../../formats/index.js';
import '../../formats/gpu-parts.js';
import { fail } from '../../core/errors.js';
import type { ArithmeticFormat, StorageFormat } from '../../formats/common/format.js';
import { ddStorage } from '../../formats/dd/dd-storage.js';
import type { GpuArithmetic } from './arithmetic.js';
import type { DeviceArray } from './device-array.js';
import { splicedHost } from './view-output.js';
import { hostKernels } from './host-kernels.js';

/**
 * The CPU arithmetic of a GPU arithmetic: the registered arithmetic format that carries the part (formats.f32 for
 * f32, formats.ff for ff), whose CPU kernels compute what the device computes.
 */
function cpuArithmetic(a: GpuArithmetic): ArithmeticFormat {
  for (const name of formatNames()) {
    const ar = findFormat(name)?.arithmetic;
    if (ar?.gpu === a) return ar;
  }
  return fail('INVALID_OPTION', 'options.arithmetic', 'must be a registered arithmetic (the CPU runs operands that are not on a device in the arithmetic carrying this GPU part)', a.name);
}

/**
 * Whether an array's words are the bytes of a CPU double-double storage (the dd part's elements: pairs hi, lo), so
 * the fallback reads and writes the pairs themselves rather than values rounded to doubles.
 */
function pairWords(a: DeviceArray): boolean {
  for (const name of formatNames()) {
    const st = findFormat(name)?.storage;
    if (st?.gpu === a.format) return st.kind === 'dd' && a.format.wordsPerElement === 4;
  }
  return false;
}

/** A dd array's exact pairs as a packed dd range: a vector, or a column-major matrix (views gathered). */
async function ddInput(a: DeviceArray, ar: ArithmeticFormat, shape?: { rows: number; cols: number; ld: number }): Promise<Range<any, any>> {
  const span = new Float64Array(Uint32Array.from((await a.encoded()).words).buffer);
  const rows = shape ? shape.rows : a.length;
  const cols = shape ? shape.cols : 1;
  const ld = shape ? shape.ld : 0;
  const data = new Float64Array(2 * Math.max(1, rows * cols));
  for (let j = 0; j < cols; j++) {
    for (let i = 0; i < rows; i++) {
      const k = a.isView ? a.offset + i * a.stride + j * ld : i + j * ld;
      data[2 * (i + j * rows)] = span[2 * k]!;
      data[2 * (i + j * rows) + 1] = span[2 * k + 1]!;
    }
  }
  if (!shape) return range(colMajor<1>({ size: [a.length], data, storage: ddStorage as StorageFormat, arithmetic: ar }));
  return range(colMajor<2>({ size: [rows, cols], stride: Math.max(1, rows), data, storage: ddStorage as StorageFormat, arithmetic: ar }));
}

/**
 * A resident array's exact values as an fp64 vector, or as a matrix: column-major with leading dimension ld, or —
 * for a matrix view (`deviceMatrixView`) — element (i, j) at `offset + i·stride + j·ld` of the span, gathered
 * into a packed column-major copy (the host fallback has no device to read the view from).
 */
async function input(a: DeviceArray, ar: ArithmeticFormat, shape?: { rows: number; cols: number; ld: number }): Promise<Range<any, any>> {
  if (pairWords(a)) return ddInput(a, ar, shape);
  if (!shape) return range(colMajor<1>({ size: [a.length], data: await a.toHost(), storage: 'f64', arithmetic: ar }));
  const { rows, cols, ld } = shape;
  if (!a.isView) return range(colMajor<2>({ size: [rows, cols], stride: Math.max(1, ld), data: await a.toHost(), storage: 'f64', arithmetic: ar }));
  const span = a.format.decode(await a.encoded(), a.spanLength, a.scaleBlock);
  const data = new Float64Array(rows * cols);
  // Packed in the view's own orientation: the CPU kernel then walks it as it walks the caller's range (by rows or
  // by columns), so its summation order — and with WebAssembly's lanes, its bits — are those of the CPU backend.
  if (Math.abs(ld) < Math.abs(a.stride)) {
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) data[i * cols + j] = span[a.offset + i * a.stride + j * ld]!;
    return range(rowMajor<2>({ size: [rows, cols], stride: Math.max(1, cols), data, storage: 'f64', arithmetic: ar }));
  }
  for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) data[i + j * rows] = span[a.offset + i * a.stride + j * ld]!;
  return range(colMajor<2>({ size: [rows, cols], stride: Math.max(1, rows), data, storage: 'f64', arithmetic: ar }));
}

/**
 * The CPU storage a GPU-writable format's results are computed into: the registered storage carrying the GPU part
 * (f64, f32, f16, bf16), or double-double storage for an arithmetic's word layout (ff: dd holds a pair exactly).
 */
function outputStorage(part: DeviceArray['format']): StorageFormat {
  for (const name of formatNames()) {
    const st = findFormat(name)?.storage;
    if (st?.gpu === part) return st;
  }
  return ddStorage as StorageFormat;
}

/** The output array as a CPU range in its own storage (ff → dd), holding its current values. */
async function output(a: DeviceArray, ar: ArithmeticFormat): Promise<Range<1, any>> {
  if (pairWords(a)) return ddInput(a, ar);
  const storage = outputStorage(a.format);
  const r = range(colMajor<1>({ size: [a.length], storage, arithmetic: ar }));
  const values = await a.toHost();
  const acc = r.accessor;
  for (let i = 0; i < a.length; i++) acc.storage.encode(acc.data as never, acc.linearIndex([i]), (acc.storage.kind === 'dd' ? { hi: values[i]!, lo: 0 } : values[i]!) as never);
  return r;
}

/** Writes the CPU range's values back into the host-resident array's words (a view's: only its elements of the span). */
function store(a: DeviceArray, r: Range<1, any>): void {
  const acc = r.accessor;
  if (pairWords(a)) {
    // Each element's pair into its four words of the span (the rest of the span keeps its words).
    const words = Uint32Array.from(a.host!.words);
    const d = new Float64Array(words.buffer);
    for (let i = 0; i < a.length; i++) {
      const v = acc.storage.decode(acc.data as never, acc.linearIndex([i])) as { hi: number; lo: number };
      const k = a.isView ? a.offset + i * a.stride : i;
      d[2 * k] = v.hi;
      d[2 * k + 1] = v.lo;
    }
    a.host = { words };
    a.version++;
    return;
  }
  const values = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const v = acc.storage.decode(acc.data as never, acc.linearIndex([i])) as number | { hi: number; lo: number };
    values[i] = typeof v === 'number' ? v : v.hi + v.lo;
  }
  a.host = a.coversSpan ? a.format.encode(values, 'y', a.scaleBlock) : splicedHost(a, values);
  a.version++;
}

/**
 * DOT of host-resident arrays on the CPU backend.
 * @returns the value rounded to a double
 * @example
 * ```ts
 * await hostDot(x, y, gpuArithmetic('ff'));
 * ```
 */
export async function hostDot(x: DeviceArray, y: DeviceArray, arithmetic: GpuArithmetic): Promise<number> {
  const ar = cpuArithmetic(arithmetic);
  return hostKernels().dot(await input(x, ar), await input(y, ar), { arithmetic: ar });
}

/**
 * GEMV of host-resident arrays on the CPU backend (y updated in place).
 * @example
 * ```ts
 * await hostGemv({ A, x, y, alpha: 1, beta: 0, trans: 'N' }, gpuArithmetic('f32'));
 * ```
 */
export async function hostGemv(args: { A: { rows: number; cols: number; ld: number; data: DeviceArray }; x: DeviceArray; y: DeviceArray; alpha: number; beta: number; trans: 'N' | 'T' }, arithmetic: GpuArithmetic): Promise<void> {
  const ar = cpuArithmetic(arithmetic);
  const y = await output(args.y, ar);
  hostKernels().gemv({ alpha: args.alpha, A: await input(args.A.data, ar, args.A), x: await input(args.x, ar), beta: args.beta, y, trans: args.trans }, { arithmetic: ar });
  store(args.y, y);
}

/**
 * TRSV of host-resident arrays on the CPU backend (x updated in place).
 * @example
 * ```ts
 * await hostTrsv({ A, x, uplo: 'U', trans: 'N', diag: 'N' }, gpuArithmetic('ff'));
 * ```
 */
export async function hostTrsv(args: { A: { rows: number; cols: number; ld: number; data: DeviceArray }; x: DeviceArray; uplo: 'U' | 'L'; trans: 'N' | 'T'; diag: 'N' | 'U' }, arithmetic: GpuArithmetic): Promise<void> {
  const ar = cpuArithmetic(arithmetic);
  const x = await output(args.x, ar);
  hostKernels().trsv({ A: await input(args.A.data, ar, args.A), x, uplo: args.uplo, trans: args.trans, diag: args.diag }, { arithmetic: ar });
  store(args.x, x);
}

/**
 * ELL SpMV of host-resident arrays on the CPU backend (y updated in place).
 * @example
 * ```ts
 * await hostEllSpmv({ rows, cols, width, stride, colIndex, values, x, y, alpha: 1, beta: 0 }, gpuArithmetic('ff'));
 * ```
 */
export async function hostEllSpmv(args: { rows: number; cols: number; width: number; stride: number; colIndex: Int32Array; values: DeviceArray; valuesLd?: number; valuesRows?: number; x: DeviceArray; y: DeviceArray; alpha: number; beta: number }, arithmetic: GpuArithmetic): Promise<void> {
  const ar = cpuArithmetic(arithmetic);
  const y = await output(args.y, ar);
  // Values uploaded as a matrix view hold the rows (or stride) × width matrix at their own strides.
  const rows = args.valuesRows ?? args.stride;
  const values = await input(args.values, ar, { rows, cols: args.width, ld: args.valuesLd ?? args.stride });
  const A = hostKernels().ellOperand({ rows: args.rows, cols: args.cols, width: args.width, stride: args.stride, colIndex: args.colIndex }, values);
  hostKernels().ellSpmv({ alpha: args.alpha, A, x: await input(args.x, ar), beta: args.beta, y }, { arithmetic: ar });
  store(args.y, y);
}

/**
 * out := α·x + β·y of host-resident arrays on the CPU backend (WAXPBY; a zero coefficient's vector is not read).
 * @example
 * ```ts
 * await hostUpdate({ alpha: 2, x, beta: 1, y, out: y }, gpuArithmetic('f32'));
 * ```
 */
export async function hostUpdate(args: { alpha: number; x?: DeviceArray; beta: number; y?: DeviceArray; out: DeviceArray }, arithmetic: GpuArithmetic): Promise<void> {
  const ar = cpuArithmetic(arithmetic);
  const out = await output(args.out, ar);
  // A vector whose coefficient is 0 is not read: any range of the right length stands in for it.
  const x = args.x ? await input(args.x, ar) : out;
  const y = args.y ? await input(args.y, ar) : out;
  hostKernels().waxpby(args.alpha, x, args.beta, y, out, { arithmetic: ar });
  store(args.out, out);
}

/**
 * Σ|x_k| of a host-resident array on the CPU backend.
 * @returns the value rounded to a double
 * @example
 * ```ts
 * await hostAsum(x, gpuArithmetic('ff'));
 * ```
 */
export async function hostAsum(x: DeviceArray, arithmetic: GpuArithmetic): Promise<number> {
  const ar = cpuArithmetic(arithmetic);
  return hostKernels().asum(await input(x, ar), { arithmetic: ar });
}

/**
 * ‖x‖₂ of a host-resident array on the CPU backend.
 * @returns the value rounded to a double
 * @example
 * ```ts
 * await hostNrm2(x, gpuArithmetic('f32'));
 * ```
 */
export async function hostNrm2(x: DeviceArray, arithmetic: GpuArithmetic): Promise<number> {
  const ar = cpuArithmetic(arithmetic);
  return hostKernels().nrm2(await input(x, ar), { arithmetic: ar });
}
