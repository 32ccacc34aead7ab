/**
 * GEMV on the GPU: y ← α·op(A)·x + β·y, A column-major (element (i, j) at i + j·lda).
 *
 * op(A) = A: thread (i, c) sums row i over column chunk c (adjacent threads read adjacent rows of one
 * column: coalesced); the reduction dimension is split into S chunks so that m·S threads fill the GPU.
 * op(A) = Aᵀ: W lanes per column j, lane l summing rows l, l+W, … (adjacent lanes read adjacent rows).
 * A second pass sums the S (or W) partials of each row in a fixed order, applies α and β, and writes y in
 * its storage format. Both passes go to the device in one submit. By default (the `gemvWorkgroupSplit` switch, since
 * session 20) GEMV N runs both in one dispatch where a workgroup holds all S chunks of its rows and y is packed
 * (./gemv-workgroup-split.ts): the same operations in the same order, so the same bits. A row-major view (rows its compact direction)
 * is the column-major Aᵀ of its span and runs as the other trans on it (./transposed-device-matrix.ts): its N
 * takes the T pass, its T the N pass, each reading adjacent elements in adjacent threads.
 *
 * @module
 */
import { matrixOverlapOperand, refuseResidentOverlap } from '../../src/backends/webgpu/resident-overlap.js';
import type { GpuBuffer } from '../../src/backends/webgpu/webgpu-types.js';
import { checkSize, fail, ModprecError } from '../../src/core/errors.js';
import { checkArgumentsObject, checkNumber } from '../../src/backends/webgpu/kernel-common.js';
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { hostGemv } from '../../src/backends/webgpu/host-fallback.js';
import { gpuUpdate } from '../waxpby/update-webgpu.js';
import { bindExtent, bindingLimit, bindWindow, checkExtentBinding, checkOperandBinding, checkScaleBinding, columnRegion, columnsPerRegion, createSpanBuffer, DeviceArray, extentBytes, moveScaleBase, toDeviceSpan, viewOf, windowOf, wordsPerElement, type RangeLike } from '../../src/backends/webgpu/device-array.js';
import { finishProgramOptions, finishThreads, partialsFinishSource, scalarBindings } from '../../src/backends/webgpu/finish-pass.js';
import { elementIndex, allowFallback, outputComponents, UNROLL, accumulateLoop, checkChains, arrayArgs, bindArray, memo, readKey, chooseArithmetic, commonRuntime, getPlan, kernelSource, objectId, runInfo, withScalars, type GpuKernelOptions, type GpuRunInfo } from '../../src/backends/webgpu/kernel-common.js';
import { boundedScratch, getProgram, submitPasses, type BoundArray, type Pass, type PassCache, type ProgramSpec } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, readWords, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { bindOldFromOutput, checkOutputBinding, outputWindow, serialisedViewWrite, throughPackedOutput, writesLanes, writesInPlace } from '../../src/backends/webgpu/view-output.js';
import { checkRowsPerThread, maxRowsPerThread, partialNRowsLines, partialNRowsSource, rowRunRead, storesOwnPartials, vectorXRead } from './gemv-row-group-source.js';
import { GEMV_FUSED_MISSES, gemvFusedFinishSpec, gemvFusedInitialWords, gemvFusedLayout, type PartialRowsLines } from './gemv-fused-finish-source.js';
import { checkResidentOptions } from '../../src/backends/webgpu/resident-options.js';
import { checkGpuLoop } from './gemv-loop-option.js';
import { gpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { readsTransposed, transposedDeviceMatrix } from './transposed-device-matrix.js';
import { gemvWorkgroupSplitFits, gemvWorkgroupSplitN } from './gemv-workgroup-split.js';
import { countPaddedPass, paddedRowGroups, partialNRowsPaddedSource } from './gemv-partial-workgroup-source.js';
import { fieldOf, throughInterleaved, withMapped } from '../../src/backends/webgpu/dd-split-device.js';
import { exactProductPass } from '../../src/backends/webgpu/ff-exact-products.js';
import { streamingPass } from '../../src/backends/webgpu/streaming-pass.js';

/**
 * A matrix resident on the GPU: packed column-major ({@link deviceMatrix}) or a strided view of a span
 * ({@link deviceMatrixView}, {@link toDeviceMatrix}).
 * @group GPU
 */
export interface DeviceMatrix {
  readonly rows: number;
  readonly cols: number;
  /** Column stride: the leading dimension (≥ rows) of a column-major matrix; any integer for a view. */
  readonly ld: number;
  /**
   * The elements: (i, j) is element i + j·ld of a column-major array; for a view, element
   * `data.offset + i·data.stride + j·ld` of the span (`data.stride` is the row stride).
   */
  readonly data: DeviceArray;
}

/**
 * Arguments of {@link gpuGemv}.
 * @group GPU
 */
export interface GpuGemvArgs {
  readonly A: DeviceMatrix;
  readonly x: DeviceArray;
  readonly y: DeviceArray;
  /** Default 1. */
  readonly alpha?: number;
  /** Default 0 (y is then not read). */
  readonly beta?: number;
  /** `N` (default) or `T`. */
  readonly trans?: 'N' | 'T';
}

/**
 * Options of {@link gpuGemv}.
 * @group GPU
 */
export interface GpuGemvOptions extends GpuKernelOptions {
  /**
   * Threads the partial pass aims for (default 2^18) at one row per thread; sets how far the reduction is split
   * (with {@link GpuGemvOptions.rowsPerThread} R, 1/R as many threads run the same split).
   */
  readonly targetThreads?: number;
  /**
   * Independent accumulators per thread of the partial pass (1 to 8; default 2 in float-float — 1 for the N pass over
   * a bf16 or f16 matrix, 2.5–3.5 % faster there on the H100, 2026-11-27 — and 1 in f32): shorter dependency chains,
   * which float-float needs on 32-bit matrices (3–5 % faster GEMV on the H100). Changes the (fixed) summation order.
   */
  readonly chains?: number;
  /**
   * Adjacent rows each thread of GEMV N's partial pass sums (1, 2 or 4; at most 4 / the arithmetic's words: default
   * 4 in f32, and 4 in float-float with the `gemvFfFourRows` switch of src/backends/webgpu/kernel-switches.ts (on by
   * default; its threads store their 8 words of partials themselves), else 2): one load of x feeds every row, and the R rows of a packed matrix with rows and lda
   * multiples of R come in one load (a vector load of four; two 16-bit rows are one word, two fp32 rows one 8-byte load). 1 is the one-row
   * pass. Ignored by the T pass — GEMV T, and GEMV N of a row-major view, which runs as T on its transpose (while GEMV
   * T of a row-major view runs the N pass and uses it) — and by a matrix split over storage bindings. The result does
   * not depend on it (the same columns go to the same accumulators in the same order).
   */
  readonly rowsPerThread?: 1 | 2 | 4;
}

/**
 * Makes a {@link DeviceMatrix} from a resident column-major array.
 * @param data - the elements
 * @param rows - rows
 * @param cols - columns
 * @param ld - leading dimension (default max(1, rows), the least it may be: a 0×n matrix has ld 1)
 * @returns the matrix
 * @throws {@link modprec!ModprecError} `INVALID_SIZE`, `INVALID_STRIDE`, `INVALID_STORAGE` when data is too short
 * @example
 * ```ts
 * import { toDevice, deviceMatrix } from 'modprec/gpu';
 *
 * // [[1, 2, 3], [4, 5, 6]], column-major
 * const A = deviceMatrix(await toDevice([1, 4, 2, 5, 3, 6], { format: 'f32' }), 2, 3);
 * A.ld; // → 2
 * ```
 * @group GPU
 */
export function deviceMatrix(data: DeviceArray, rows: number, cols: number, ld?: number): DeviceMatrix {
  checkSize('rows', rows);
  checkSize('cols', cols);
  // The default is computed after rows is checked: as a default parameter, Math.max(1, Symbol()) threw a TypeError.
  const lead = ld ?? Math.max(1, rows);
  checkSize('ld', lead);
  if (lead < Math.max(1, rows)) fail('INVALID_STRIDE', 'ld', `must be at least max(1, rows) = ${Math.max(1, rows)}`, lead);
  if (!(data instanceof DeviceArray)) fail('INVALID_STORAGE', 'data', 'must be a DeviceArray (see toDevice)', data);
  const needed = cols === 0 || rows === 0 ? 0 : (cols - 1) * lead + rows;   // an empty matrix has no element
  if (data.length < needed) fail('INVALID_STORAGE', 'data', `must hold (cols−1)·ld + rows = ${needed} elements`, data.length);
  if (needed > 2 ** 31 - 1) fail('INVALID_SIZE', 'data', 'must have fewer than 2^31 elements (32-bit indices on the GPU)', needed);
  return { rows, cols, ld: lead, data };
}

/**
 * A strided matrix view of `span` for GEMV: element (i, j) at span element offset + i·rowStride + j·colStride — a
 * row-major matrix (rowStride = its leading dimension, colStride = 1), a sub-range of either layout. What
 * {@link toDeviceMatrix} makes of a core 2-D range. GEMV and TRSV read matrix views (ELL values too, through deviceEllView);
 * a view whose rows are its compact direction (|colStride| < |rowStride|: row-major) they read as its column-major
 * transpose, split over storage bindings in windows of its rows.
 * @param span - the array holding the elements
 * @param shape - rows, cols, offset, rowStride, colStride (integers; strides may be negative)
 * @returns the matrix
 * @throws {@link modprec!ModprecError} `INVALID_SIZE` for bad sizes; `INVALID_STORAGE` when an element falls outside the span
 * @example
 * ```ts
 * import { toDevice, deviceMatrixView, gpuGemv } from 'modprec/gpu';
 *
 * // [[1, 2, 3], [4, 5, 6]], row-major
 * const A = deviceMatrixView(await toDevice([1, 2, 3, 4, 5, 6]), { rows: 2, cols: 3, offset: 0, rowStride: 3, colStride: 1 });
 * const x = await toDevice([1, 1, 1]), y = await toDevice([0, 0]);
 * await gpuGemv({ A, x, y });
 * await y.toHost(); // → Float64Array(2) [ 6, 15 ]
 * ```
 * @group GPU
 */
export function deviceMatrixView(span: DeviceArray, shape: { rows: number; cols: number; offset: number; rowStride: number; colStride: number }): DeviceMatrix {
  // deviceMatrixView(span, undefined) threw a TypeError destructuring the shape.
  if (typeof shape !== 'object' || shape === null) fail('INVALID_OPTION', 'shape', 'must be { rows, cols, offset, rowStride, colStride }', shape);
  const { rows, cols, offset, rowStride, colStride } = shape;
  checkSize('rows', rows);
  checkSize('cols', cols);
  if (!(span instanceof DeviceArray)) fail('INVALID_STORAGE', 'span', 'must be a DeviceArray (see toDevice)', span);
  for (const [name, v] of [['offset', offset], ['rowStride', rowStride], ['colStride', colStride]] as const) {
    if (!Number.isSafeInteger(v)) fail('INVALID_STRIDE', name, 'must be an integer', v);
  }
  if (rows > 0 && cols > 0) {
    const corners = [0, (rows - 1) * rowStride, (cols - 1) * colStride, (rows - 1) * rowStride + (cols - 1) * colStride].map((d) => offset + d);
    const lo = Math.min(...corners), hi = Math.max(...corners);
    if (lo < 0 || hi >= span.spanLength) fail('INVALID_STORAGE', 'span', `must hold elements ${lo}..${hi} of the matrix`, span.spanLength);
  }
  if (rows * cols > 2 ** 31 - 1) fail('INVALID_SIZE', 'span', 'must have fewer than 2^31 elements (32-bit indices on the GPU)', rows * cols);
  // Packed column-major only when the columns do not overlap; a single column's ld is never read (BLAS: max(1, rows)).
  const packed = offset === 0 && rowStride === 1 && (cols <= 1 || colStride >= Math.max(1, rows));
  if (packed) return { rows, cols, ld: cols <= 1 ? Math.max(1, rows) : colStride, data: span };
  // A view whose offset and stride are the matrix's offset and row stride; overlapping columns stay a view at offset 0.
  return { rows, cols, ld: colStride, data: viewOf(span, { length: rows * cols, offset, stride: rowStride, alwaysView: true }) };
}

/**
 * Uploads a core 2-D range (any layout: column- or row-major, a sub-range; unscaled f64, f32, f16 or bf16) as the
 * bytes of its storage span and returns it as a GEMV matrix view — no per-element work on the host.
 * @param A - the range
 * @param options - `strict`: throw instead of keeping the data on the host when there is no GPU
 * @returns the matrix
 * @throws {@link modprec!ModprecError} as {@link toDeviceSpan}
 * @example
 * ```ts
 * import { matrix, formats } from 'modprec';
 * import { toDevice, toDeviceMatrix, gpuGemv } from 'modprec/gpu';
 *
 * const A = await toDeviceMatrix(matrix(2, 3, (i, j) => 3 * i + j + 1, { storage: formats.f32 })); // [[1, 2, 3], [4, 5, 6]]
 * const x = await toDevice([1, 0, -1]), y = await toDevice([0, 0]);
 * await gpuGemv({ A, x, y }, { arithmetic: 'ff' });
 * await y.toHost(); // → Float64Array(2) [ -2, -2 ]
 * ```
 * @group GPU
 */
export async function toDeviceMatrix(A: RangeLike, options: { strict?: boolean } = {}): Promise<DeviceMatrix> {
  const { span, offset, strides } = await toDeviceSpan(A, options.strict);
  return deviceMatrixView(span, { rows: A.length(0), cols: A.length(1), offset, rowStride: strides[0]!, colStride: strides[1]! });
}

/**
 * Accumulators a thread where the call gives none: the arithmetic's default, but one for float-float's N pass over a
 * 16-bit matrix, which timed faster there (H100, 2026-11-27, GEMV N 8192: bf16 / f16 + ff, x fp32, 0.0773 / 0.0770 ms
 * with two, 0.0753 / 0.0749 with one; x in A's format 0.0772 / 0.0767 and 0.0755 / 0.0748; fp32 matrices time the same).
 */
function gemvDefaultChains(arithmetic: GpuArithmetic, A: DeviceArray, transPass: boolean): number {
  const sixteenBit = A.format.name === 'bf16' || A.format.name === 'f16';
  return arithmetic.name === 'ff' && !transPass && sixteenBit ? 1 : arithmetic.defaultChains;
}

/** Number of reduction chunks for an m×n GEMV N aiming at `target` threads. */
export function gemvSplit(m: number, n: number, target: number): { chunk: number; splits: number } {
  const wanted = Math.max(1, Math.min(n, Math.ceil(target / Math.max(1, m))));
  const chunk = Math.max(1, Math.ceil(n / wanted));
  return { chunk, splits: Math.max(1, Math.ceil(n / chunk)) };
}

/**
 * Binds the output of GEMV's finishing pass: a view of y written in place (its old values, when β ≠ 0, read from
 * its own binding, the plan's one-word `spare` standing in for Yold's), or the plan's `fresh` buffer with y's old
 * values bound as Yold.
 * @returns the output binding
 */
function bindFinishOutput(y: DeviceArray, rows: number, inPlace: boolean, readsY: boolean, fresh: GpuBuffer, arrays: Record<string, BoundArray>, scalars: Record<string, number>): BoundArray {
  if (inPlace) {
    const o = outputWindow(y, { start: 0, count: rows }, writesLanes(y));
    Object.assign(scalars, o.scalars);
    if (readsY) bindOldFromOutput(y, o.bound, fresh, arrays, scalars);
    return o.bound;
  }
  if (readsY) bindArray('Yold', y, arrays, scalars);
  return { buffer: fresh };
}

/** Lanes per column of a GEMV T with m rows and n columns aiming at `target` threads (a power of two ≤ 1024). */
export function gemvTLanes(m: number, n: number, target: number): number {
  let w = 1;
  while (w < 1024 && w * n < target && w < m) w *= 2;
  return w;
}

/**
 * Source of GEMV N's one-row partial pass. With `decodedX` (the `ddGemvDecodedX` switch), X is the pre-pass's output
 * (four words an element of x, packed) and its elements are registers of that kind; a decoding beside x
 * ({@link decodedBesideX}) keeps x's read and adds the pre-pass's words as XDec.
 */
function partialNSource(arithmetic: GpuArithmetic, A: DeviceArray, x: DeviceArray, chains: number, decodedX?: GpuArithmetic['gemvDecodedX']): { source: string; args: ReturnType<typeof arrayArgs> } {
  const xArgs: ReturnType<typeof arrayArgs> = decodedX && !decodedBesideX(decodedX) ? [['X', 'Array']] : [...arrayArgs('X', x), ...(decodedX ? [['XDec', 'Array'] as const] : [])];
  const args = [...arrayArgs('A', A), ...xArgs, ['m', 'Integer'] as const, ['n', 'Integer'] as const, ['lda', 'Integer'] as const, ['chunk', 'Integer'] as const];
  const body = [
    'const i = mpImod(this.thread.x, m);',
    'const j0 = mpIdiv(this.thread.x, m) * chunk;',
    'let j1 = j0 + chunk;',
    'if (j1 > n) { j1 = n; }',
    arithmetic.declareZero('acc'),
    ...accumulateLoop(arithmetic, { start: 'j0', end: 'j1', step: '1' }, UNROLL, (index, suffix) => {
      // A view (a row-major or strided matrix): element (i, j) at AOff + i·AInc + j·lda.
      const ra = A.format.emitRead('A', A.isView ? `AOff + i * AInc + ${index} * lda` : `i + ${index} * lda`, `a${suffix}`, arithmetic);
      const b = `b${suffix}`;
      const rx = decodedX
        ? decodedXRead(arithmetic, x, decodedX, index, b)
        : x.format.emitRead('X', elementIndex('X', x, index), b, arithmetic);
      return { code: `${ra.code} ${rx.code}`, a: ra.register, b: rx.register };
    }, chains),
    `return ${arithmetic.returnValue('acc')};`,
  ];
  return { source: kernelSource(args, body), args };
}

/**
 * Whether a decoding of x goes beside x's own read: a dd x_j (four words) keeps them for the slow path and the loop's
 * tail, its four decoded words bound as XDec (the `ddGemvDecodedXDd` switch); an f64 x_j's decoded words hold its own
 * two (the `ddGemvDecodedX` switch) and replace x.
 */
function decodedBesideX(d: NonNullable<GpuArithmetic['gemvDecodedX']>): boolean {
  return d.from === 'dd';
}

/** The read of x_j (element `index`) decoded by `d` into the register `b` (the pre-pass's words packed, four an element). */
function decodedXRead(arithmetic: GpuArithmetic, x: DeviceArray, d: NonNullable<GpuArithmetic['gemvDecodedX']>, index: string, b: string): { code: string; register: { kind: string; name: string } } {
  if (!decodedBesideX(d)) return { code: `const ${b}k = (${index}) * 4; const ${b} = [X[${b}k], X[${b}k + 1], X[${b}k + 2], X[${b}k + 3]];`, register: { kind: d.kind, name: b } };
  // x_j's own words in b, the decoded ones in bD (the arithmetic's decoded register: src/formats/dd/dd-gpu-gemv-long.ts).
  const own = x.format.emitRead('X', elementIndex('X', x, index), b, arithmetic);
  return { code: `${own.code} const ${b}Dk = (${index}) * 4; const ${b}D = [XDec[${b}Dk], XDec[${b}Dk + 1], XDec[${b}Dk + 2], XDec[${b}Dk + 3]];`, register: { kind: d.kind, name: b } };
}

/** Source of the pre-pass of `decodedX`: thread k writes the four words `decode` makes of x_k. */
function decodeXSource(arithmetic: GpuArithmetic, x: DeviceArray, decode: string): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = arrayArgs('X', x);
  const rx = x.format.emitRead('X', elementIndex('X', x, 'k'), 'b', arithmetic);
  return { source: kernelSource(args, ['const k = this.thread.x;', rx.code, `return ${decode}(${rx.register.name});`]), args };
}

let decodedXPasses = 0;

/**
 * How many pre-passes decoding GEMV N's x (the `ddGemvDecodedX` switch) this process has submitted: tests check that
 * the switch takes the path.
 * @returns the count
 */
export function gemvDecodedXPassCount(): number {
  return decodedXPasses;
}

/**
 * The decoding GEMV N's x takes once per call in `arithmetic` (its `gemvDecodedX`, under the `ddGemvDecodedX` switch),
 * where x reads into the kind it decodes from; else undefined.
 */
function xDecoding(arithmetic: GpuArithmetic, x: DeviceArray): GpuArithmetic['gemvDecodedX'] {
  const d = arithmetic.gemvDecodedX;
  // A decoding beside x (a dd x) comes with its own switch, ddGemvDecodedXDd, which picks the arithmetic's GEMV variant.
  if (!d || !(decodedBesideX(d) || gpuKernelSwitches().ddGemvDecodedX) || x.format.scaled) return undefined;
  return x.format.emitRead('X', '0', 'b', arithmetic).register.kind === d.from ? d : undefined;
}

/** Source of GEMV T's partial pass; with `decodedX` (a decoding beside x, the `ddGemvDecodedXDd` switch) x_j's decoded words come from XDec. */
function partialTSource(arithmetic: GpuArithmetic, A: DeviceArray, x: DeviceArray, chains: number, decodedX?: GpuArithmetic['gemvDecodedX']): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('A', A), ...arrayArgs('X', x), ...(decodedX ? [['XDec', 'Array'] as const] : []), ['m', 'Integer'] as const, ['lda', 'Integer'] as const, ['W', 'Integer'] as const];
  const body = [
    'const base = mpIdiv(this.thread.x, W) * lda;',
    'const lane = mpImod(this.thread.x, W);',
    arithmetic.declareZero('acc'),
    ...accumulateLoop(arithmetic, { start: 'lane', end: 'm', step: 'W' }, UNROLL, (index, suffix) => {
      const ra = A.format.emitRead('A', A.isView ? `AOff + base + ${index} * AInc` : `base + ${index}`, `a${suffix}`, arithmetic);
      const rx = decodedX ? decodedXRead(arithmetic, x, decodedX, index, `b${suffix}`) : x.format.emitRead('X', elementIndex('X', x, index), `b${suffix}`, arithmetic);
      return { code: `${ra.code} ${rx.code}`, a: ra.register, b: rx.register };
    }, chains),
    `return ${arithmetic.returnValue('acc')};`,
  ];
  return { source: kernelSource(args, body), args };
}

/** x's and y's lengths against op(A)'s columns and rows (DIMENSION_MISMATCH naming x, then y). */
function checkGemvLengths(A: { rows: number; cols: number }, x: DeviceArray, y: DeviceArray, trans: boolean): void {
  const inner = trans ? A.rows : A.cols;
  const outer = trans ? A.cols : A.rows;
  if (x.length !== inner) fail('DIMENSION_MISMATCH', 'x', `must have length ${inner} (${trans ? 'rows' : 'columns'} of A)`, x.length);
  if (y.length !== outer) fail('DIMENSION_MISMATCH', 'y', `must have length ${outer} (${trans ? 'columns' : 'rows'} of A)`, y.length);
}

function validate(args: GpuGemvArgs): { trans: boolean; kernelTrans: boolean; alpha: number; beta: number } {
  const { A, x, y } = args;
  if (!A || typeof A !== 'object' || !(A.data instanceof DeviceArray)) fail('INVALID_STORAGE', 'A', 'must be a DeviceMatrix (see deviceMatrix)', A);
  // A view was checked against its span when made (deviceMatrixView); a plain array is checked here.
  if (!A.data.isView) deviceMatrix(A.data, A.rows, A.cols, A.ld);
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  if (!(y instanceof DeviceArray)) fail('INVALID_STORAGE', 'y', 'must be a DeviceArray (see toDevice)', y);
  const t = args.trans ?? 'N';
  if (t !== 'N' && t !== 'T') fail('INVALID_OPTION', 'trans', "must be 'N' or 'T'", t);
  const trans = t === 'T';
  checkGemvLengths(A, x, y, trans);
  if (!y.format.writable) fail('INVALID_FORMAT', 'y', 'must be stored in a format kernels write on the GPU (f32, f16, bf16, f64, ff)', y.format.name);
  if (x === y) fail('INVALID_STORAGE', 'y', 'must not be the same array as x');
  // A may exceed one storage binding (it is then read in column windows), and so may x of GEMV N (its
  // windows follow A's columns) and x of GEMV T (tiles of rows × columns of A, gemvTiledT); y is read whole by the
  // last pass. Block-scaled integers are never windowed (their scales are bound whole, indexed by absolute position).
  // A row-major A runs as the other trans on Aᵀ (transposed-device-matrix.ts): that trans says how x is read.
  const kernelTrans = trans !== readsTransposed(A);
  if (A.data.format.scaled) checkOperandBinding('A', A.data);
  if (x.format.scaled || (kernelTrans && A.data.format.scaled)) checkExtentBinding('x', x);
  checkScaleBinding('A', A.data);
  checkOutputBinding('y', y);
  return { trans, kernelTrans, alpha: checkNumber('alpha', args.alpha ?? 1), beta: checkNumber('beta', args.beta ?? 0) };
}

async function gemvOnDevice(runtime: GpuRuntime, args: GpuGemvArgs, trans: boolean, alpha: number, beta: number, arithmetic: GpuArithmetic, target: number, chains: number, rowsPerThread: number): Promise<void> {
  const { y } = args;
  let { A, x } = args;
  const context = runtime.context;
  const m = A.rows;
  const n = A.cols;
  const rows = y.length;
  const c = arithmetic.components;
  const readsY = beta !== 0;
  let threads: number;
  let splits: number;
  let sr: number;
  let sc: number;
  let partialScalars: Record<string, number>;
  // The two-pass form's partial program, looked up only where that form runs (not on the one-dispatch forms' calls).
  let partialSpecOf: () => { source: string; args: ProgramSpec['args'] };
  // The R-rows pass's lines for a thread index (the one-dispatch form, gemvFusedFinish, runs them).
  let rowLines: PartialRowsLines | undefined;
  // The partial pass runs in the arithmetic's GEMV variant (dd: windowed multiply-adds, within the same bound).
  const basePass = arithmetic.gemvVariant?.() ?? arithmetic;
  // ffFoldedProducts / ffLeanSettle: float-float's cheaper lazy terms and settles (src/formats/ff/ff-folded-products.ts,
  // ff-lean-settle.ts); ffExactProducts: a 16-bit matrix and vector's lazy terms without TwoProd
  // (src/backends/webgpu/ff-exact-products.ts), taken before the folded ones.
  const streamPass = streamingPass(basePass);
  const rowPass = exactProductPass(streamPass, A.data, x);
  let decoding: GpuArithmetic['gemvDecodedX'];
  // A over one storage binding is read in windows of whole columns: for T a multiple of 128 columns (its partials'
  // bindings start on 256-byte boundaries); N keeps the unsplit chunks inside windows and pads the partial rows to 64.
  const limit = bindingLimit(runtime);
  // x of T over one binding: tiles of rows × columns (the unsplit and column-windowed paths below are unchanged).
  if (trans && extentBytes(x) > limit) return gemvTiledT(runtime, { ...args, A, x }, alpha, beta, arithmetic, target, chains);
  // x is read whole (GEMV T) or in A's column windows (N) through the part of its span it covers (a view: its extent).
  // A matrix view binds the part of its span its columns cover (columnRegion): all of them, or windows of them.
  const aBytes = A.data.isView ? columnRegion(A, 0, n).bound.size : A.data.words * 4;
  const windowed = aBytes > limit || (!trans && extentBytes(x) > limit);
  if (windowed && !trans) {
    // Split GEMV N reads A and x as views (offset 0, stride 1: the same elements), whose windows start anywhere (each
    // binding from the 256-byte boundary below, the offset uniform moved): windows of whole unsplit chunks, the same sums.
    if (!A.data.isView) A = { ...A, data: viewOf(A.data, { length: m * n, offset: 0, stride: 1, alwaysView: true }) };
    if (!x.isView) x = viewOf(x, { length: x.length, offset: 0, stride: 1, alwaysView: true });
  } else if (windowed && !A.data.isView && (128 * A.ld * wordsPerElement(A.data) * 4) % 256 !== 0) {
    // Split GEMV T of a packed matrix whose 128-column windows would not start on 256-byte boundaries (8-bit elements,
    // an odd ld): read as a view, its windows bound from the boundary below (the same columns, the same sums).
    A = { ...A, data: viewOf(A.data, { length: m * n, offset: 0, stride: 1, alwaysView: true }) };
  }
  const aView = A.data.isView;
  // gemvEightRows (rowsPerThread 8, only from the switch): a packed 16-bit matrix with rows and lda multiples of 8; else the default.
  const R = trans || windowed ? 1 : rowsPerThread === 8 && rowRunRead(A.data, m, A.ld, 8) !== 'octet' ? checkRowsPerThread(undefined, arithmetic) : rowsPerThread;
  // R rows of partials over a thread's four output words (gemvFfFourRows): the thread stores them through PAtomic.
  const own = storesOwnPartials(arithmetic, R);
  let rowKey = '';
  // Invocations per workgroup of the partial pass where the gemvPartialWorkgroup switch widens it (else gpu.js's 64).
  let partialWorkgroup: number | undefined;
  if (!trans && R > 1) {
    // R rows per thread: G row groups; thread t = chunk·G + g returns rows gR … gR + R − 1, i.e. partial rows padded
    // to G·R. The chunks are those of one row per thread, so the summation order (and the result) does not change.
    const G = Math.ceil(m / R);
    const split = gemvSplit(m, n, target);
    splits = split.splits;
    threads = G * splits;
    [sr, sc] = [1, G * R];
    partialScalars = { m, n, lda: A.ld, chunk: split.chunk, G };
    const run = rowRunRead(A.data, m, A.ld, R);
    const vx = gpuKernelSwitches().gemvVectorX && vectorXRead(x, split.chunk);
    const { gemvPrefetch, gemvUnroll } = gpuKernelSwitches();
    rowKey = `${R}${run ?? 'scalar'}|${gemvUnroll}${vx ? '|vx' : ''}${own ? '|own' : ''}`;
    // The switches key memo's tables, so the source follows gemvPrefetch.
    partialSpecOf = () => memo(`gemvNR|${rowPass.name}|${readKey(A.data)}|${readKey(x)}|${chains}|${rowKey}`, () => partialNRowsSource(rowPass, A.data, x, chains, R, run, gemvPrefetch, vx, gemvUnroll));
    const data = A.data;
    rowLines = (t) => partialNRowsLines(rowPass, data, x, chains, R, run, gemvPrefetch, vx, gemvUnroll, t);
    // gemvPartialWorkgroup: wider workgroups, the row groups padded to them (./gemv-partial-workgroup-source.ts); the same bits.
    const wide = gpuKernelSwitches().gemvPartialWorkgroup;
    const Gp = paddedRowGroups(G, wide);
    // One row of workgroups (a second would dispatch whole workgroups past the threads, which nothing stops storing).
    if (wide > 64 && !own && (Gp * splits) / wide <= runtime.context.adapter.limits.maxComputeWorkgroupsPerDimension) {
      threads = Gp * splits;
      sc = Gp * R;
      partialScalars.Gp = Gp;
      partialWorkgroup = wide;
      rowKey += `|wg${wide}`;
      partialSpecOf = () => memo(`gemvNRwg|${rowPass.name}|${readKey(A.data)}|${readKey(x)}|${chains}|${rowKey}`, () => partialNRowsPaddedSource(rowPass, data, x, chains, R, run, gemvPrefetch, vx, gemvUnroll));
    }
  } else if (!trans) {
    const split = gemvSplit(m, n, target);
    splits = split.splits;
    threads = m * splits;
    [sr, sc] = [1, m];
    partialScalars = { m, n, lda: A.ld, chunk: split.chunk };
    // Column windows bind x in windows: they read it as it is.
    decoding = windowed ? undefined : xDecoding(rowPass, x);
    const xDecoded = decoding;
    partialSpecOf = () => memo(`gemvN|${rowPass.name}|${readKey(A.data)}|${readKey(x)}|${chains}|${xDecoded?.kind ?? ''}`, () => partialNSource(rowPass, A.data, x, chains, xDecoded));
  } else {
    splits = gemvTLanes(m, n, target);
    threads = n * splits;
    [sr, sc] = [splits, 1];
    partialScalars = { m, lda: A.ld, W: splits };
    // A dd x decoded once a call (ddGemvDecodedXDd) where A is over one binding: every column's lanes read x_j's words.
    const d = windowed ? undefined : xDecoding(rowPass, x);
    decoding = d && decodedBesideX(d) ? d : undefined;
    const xDecoded = decoding;
    partialSpecOf = () => memo(`gemvT|${rowPass.name}|${readKey(A.data)}|${readKey(x)}|${chains}|${xDecoded?.kind ?? ''}`, () => partialTSource(rowPass, A.data, x, chains, xDecoded));
  }
  let mp = m;
  let columnWindows = [{ start: 0, count: n }];
  if (windowed) {
    if (A.data.format.scaled || x.format.scaled) throw new ModprecError('BACKEND_LIMIT', `invalid argument: ${A.data.format.scaled ? 'A' : 'x'} is stored in a scaled integer format, which cannot be split over storage bindings, and another operand exceeds maxStorageBufferBindingSize (${limit} bytes)`, 'maxStorageBufferBindingSize');
    // A window of w elements of a view x covers (w − 1)·|stride| + 1 of its span, from up to 128 elements below its first.
    const xElements = Math.floor(limit / (4 * wordsPerElement(x)));
    const xCols = x.isView ? Math.floor((xElements - 129) / Math.abs(x.stride)) + 1 : xElements;
    const maxCols = Math.min(aView ? columnsPerRegion(A, limit) : Math.floor(limit / (4 * A.ld * wordsPerElement(A.data))), trans ? Infinity : xCols);
    if (maxCols < 128) throw new ModprecError('BACKEND_LIMIT', `invalid argument: A needs 128 columns of ${aView ? `its rows' span (${A.rows} rows of stride ${A.data.stride}) and column stride ${A.ld}` : `${A.ld} elements`} per storage binding, over this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
    let width = Math.floor(maxCols / 128) * 128;
    if (!trans) {
      // The unsplit chunk where a window holds one (the unsplit run's bits), else windows as wide as a binding allows.
      const chunk = partialScalars.chunk! <= maxCols ? partialScalars.chunk! : maxCols;
      width = Math.floor(maxCols / chunk) * chunk;
      mp = Math.ceil(m / 64) * 64;
      partialScalars.chunk = chunk;
      splits = Math.ceil(n / chunk);
      threads = mp * splits;
      [sr, sc] = [1, mp];
    }
    columnWindows = [];
    for (let start = 0; start < n; start += width) columnWindows.push({ start, count: Math.min(width, n - start) });
  }
  // A view y (view-output.ts, writesInPlace) is written in place by the last pass; a packed y ping-pongs.
  const inPlace = !y.coversSpan;
  // gemvFusedFinish: the finish pass inside the partial pass's dispatch (./gemv-fused-finish-source.ts) for a packed y
  // in a plain format, A and x over one binding; the same bits.
  if (rowLines && basePass === arithmetic && gpuKernelSwitches().gemvFusedFinish && !windowed && !(aView && A.data.words * 4 > limit) && !own && !inPlace && rows > 0 && threads > 0 && FUSED_Y_FORMATS.has(y.format.name) && R % y.format.elementsPerWord === 0
    && gemvFusedLayout(splits, Math.ceil(m / R), R, arithmetic.components).total * 4 <= limit) {
    const fusedKey = `gemvfused|${objectId(args.A.data)}|${A.data.offset}|${A.data.stride}|${objectId(args.x)}|${objectId(y)}|${m}|${n}|${A.ld}|${arithmetic.name}|${readsY}|${target}|${chains}|${rowKey}`;
    const runRead = rowKey.includes('vector') ? A.data.format.vectorRead : rowKey.includes('pair') ? A.data.format.pairRead : undefined;
    await gemvFusedN(runtime, fusedKey, { A, x, y }, arithmetic, { alpha, beta, R, splits, partialScalars, runSuffix: runRead?.suffix, vectorX: rowKey.includes('|vx'), specKey: `${chains}|${rowKey}` }, rowLines);
    return;
  }
  // gemvWorkgroupSplit: every chunk of a row block inside one workgroup, reduced in workgroup memory (./gemv-workgroup-split.ts);
  // the same bits, where a workgroup holds all S chunks. With gemvWorkgroupSplitExact also the exact 16-bit products'
  // row pass (rowPass: the arithmetic with other lazy terms, the same float-float partials the finish adds).
  const W = gpuKernelSwitches().gemvWorkgroupSplit;
  // (The folded terms and lean settle are the arithmetic's own row pass with other lazy terms, as the exact products.)
  const splitPass = basePass === arithmetic && (rowPass === streamPass || gpuKernelSwitches().gemvWorkgroupSplitExact);
  if (W > 0 && rowLines && splitPass && !windowed && !(aView && A.data.words * 4 > limit) && !inPlace && rows > 0 && threads > 0 && FUSED_Y_FORMATS.has(y.format.name) && R % y.format.elementsPerWord === 0 && gemvWorkgroupSplitFits(runtime, W, splits, R, arithmetic.components)) {
    const splitKey = `gemvwgsplit|${objectId(args.A.data)}|${A.data.offset}|${A.data.stride}|${objectId(args.x)}|${objectId(y)}|${m}|${n}|${A.ld}|${arithmetic.name}|${readsY}|${target}|${chains}|${rowKey}|${W}`;
    const runRead = rowKey.includes('octet') ? A.data.format.octetRead : rowKey.includes('vector') ? A.data.format.vectorRead : rowKey.includes('pair') ? A.data.format.pairRead : undefined;
    await gemvWorkgroupSplitN(runtime, splitKey, { A, x, y }, arithmetic, { alpha, beta, R, W, splits, partialScalars, runSuffix: runRead?.suffix, vectorX: rowKey.includes('|vx'), specKey: `${chains}|${rowKey}` }, rowLines);
    return;
  }
  // The partials (R rows a thread, c words each) are bound whole by the finish pass: a split target
  // (options.targetThreads) that would make them pass one storage binding aims at half as many threads, until they fit
  // (the result stays a fixed function of the call); a y whose own partials cannot fit is a typed error, never a
  // dispatch that Dawn rejects while y stays as it was.
  // (The adapter's own limit: the partials are the kernel's scratch, which a limit lowered for tests does not bound.)
  const scratchLimit = runtime.context.adapter.limits.maxStorageBufferBindingSize;
  if (Math.max(1, threads) * c * R * 4 > scratchLimit) {
    if (target > 1) return gemvOnDevice(runtime, args, trans, alpha, beta, arithmetic, Math.floor(target / 2), chains, rowsPerThread);
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: GEMV's partial sums of ${trans ? n : m} rows in ${arithmetic.name} need ${Math.max(1, threads) * c * R * 4} bytes, over this adapter's maxStorageBufferBindingSize of ${scratchLimit} bytes`, 'maxStorageBufferBindingSize');
  }
  // The caller's arrays key the plan (a split N's views of them are made per call); the windows set its passes and scratch.
  const key = `gemv|${trans ? 'T' : 'N'}|${objectId(args.A.data)}|${A.data.offset}|${A.data.stride}|${objectId(args.x)}|${objectId(y)}|${m}|${n}|${A.ld}|${arithmetic.name}|${readsY}|${target}|${chains}|${rowKey}|${inPlace}|${columnWindows.length}|${threads}`;
  // decoding: one more pass (x → four words an element) and its buffer, after the others.
  const decodedAt = own ? 3 : 2;
  const plan = getPlan(runtime, `${key}|${decoding?.kind ?? ''}`, 2 + columnWindows.length + (decoding ? 1 : 0), () => [boundedScratch(createWordBuffer(context, Math.max(1, threads) * c * R)), inPlace ? createWordBuffer(context, 1) : createSpanBuffer(runtime, y), ...(own ? [createWordBuffer(context, 4)] : []), ...(decoding ? [createWordBuffer(context, 4 * Math.max(1, x.length))] : [])]);
  const partialSpec = partialSpecOf();
  const p1 = await getProgram(context, { source: partialSpec.source, args: partialSpec.args, components: Math.min(4, c * R) as 1 | 2 | 4, ...(partialWorkgroup ? { workgroup: { workgroupSize: partialWorkgroup, workgroupArrays: [] } } : {}) });
  if (partialWorkgroup) countPaddedPass();
  const decodeSpec = decoding && memo(`gemvDX|${rowPass.name}|${readKey(x)}|${decoding.decode}`, () => decodeXSource(rowPass, x, decoding!.decode));
  const p0 = decodeSpec && await getProgram(context, { source: decodeSpec.source, args: decodeSpec.args, components: 4 });
  const finish = partialsFinishSource(arithmetic, y, readsY, inPlace);
  const p2 = await getProgram(context, { source: finish.source, args: finish.args, components: outputComponents(y.format), ...finishProgramOptions(y, readsY, inPlace) });
  const arrays2: Record<string, BoundArray> = { P: { buffer: plan.scratch[0]! } };
  const scalars2 = withScalars({ S: splits, sr, sc, rows }, scalarBindings(arithmetic, alpha, beta));
  const output = bindFinishOutput(y, rows, inPlace, readsY, plan.scratch[1]!, arrays2, scalars2);
  const out = plan.scratch[1]!;
  const passes: { pass: Pass; cache: PassCache }[] = [];
  if (p0 && threads > 0 && rows > 0) {
    const arrays0: Record<string, BoundArray> = {};
    const scalars0: Record<string, number> = {};
    bindExtent('X', x, arrays0, scalars0);
    passes.push({ pass: { program: p0, arrays: arrays0, scalars: scalars0, output: { buffer: plan.scratch[decodedAt]! }, threads: x.length }, cache: plan.passes[2 + columnWindows.length]! });
    decodedXPasses++;
  }
  if (threads > 0 && rows > 0) {
    columnWindows.forEach((w, k) => {
      const arrays1: Record<string, BoundArray> = {};
      const scalars1 = withScalars({}, partialScalars);
      bindArray('A', A.data, arrays1, scalars1);
      // x decoded (the pre-pass's words, packed) or x itself, or both (a decoding beside x: the decoded words as XDec).
      if (p0 && !decodedBesideX(decoding!)) arrays1.X = { buffer: plan.scratch[decodedAt]! };
      else bindExtent('X', x, arrays1, scalars1);
      if (p0 && decodedBesideX(decoding!)) arrays1.XDec = { buffer: plan.scratch[decodedAt]! };
      if (aView && (windowed || A.data.words * 4 > limit)) {
        // Columns [w.start, w.start + w.count) of the view: AOff moves to the region's first element.
        const region = columnRegion(A, w.start, w.start + w.count);
        arrays1.A = region.bound;
        scalars1.AOff = A.data.offset + w.start * A.ld - region.start;
        moveScaleBase('A', A.data, region.start, scalars1);
      }
      // The vector view of A (R rows read in one load) is the same binding.
      const runRead = rowKey.includes('octet') ? A.data.format.octetRead : rowKey.includes('vector') ? A.data.format.vectorRead : rowKey.includes('pair') ? A.data.format.pairRead : undefined;
      if (runRead?.suffix) arrays1[`A${runRead.suffix}`] = arrays1.A!;
      // x read four columns a load (gemvVectorX): its vector view is the same binding.
      if (rowKey.includes('|vx')) arrays1[`X${x.format.vectorRead!.suffix}`] = arrays1.X!;
      if (own) arrays1.PAtomic = { buffer: plan.scratch[0]! };
      if (!windowed) {
        // A thread that stores its own partials never writes its output: a four-word stand-in binding.
        passes.push({ pass: { program: p1, arrays: arrays1, scalars: scalars1, output: { buffer: plan.scratch[own ? 2 : 0]! }, threads }, cache: plan.passes[0]! });
        return;
      }
      if (!aView) {
        arrays1.A = windowOf(A.data, { start: w.start * A.ld, count: Math.min(w.count * A.ld, A.data.length - w.start * A.ld) });
        moveScaleBase('A', A.data, w.start * A.ld, scalars1);
      }
      if (!trans) {
        // Rows padded to mp: chunk c of this window lands at P[(c0 + c)·mp + i], a 256-byte-aligned window.
        const chunk = partialScalars.chunk!;
        const c0 = w.start / chunk;
        const s = Math.ceil(w.count / chunk);
        bindWindow('X', x, w, arrays1, scalars1);
        Object.assign(scalars1, { m: mp, n: w.count });
        passes.push({ pass: { program: p1, arrays: arrays1, scalars: scalars1, output: { buffer: plan.scratch[0]!, offset: c0 * mp * c * 4, size: s * mp * c * 4 }, threads: mp * s }, cache: plan.passes[2 + k]! });
      } else {
        passes.push({ pass: { program: p1, arrays: arrays1, scalars: scalars1, output: { buffer: plan.scratch[0]!, offset: w.start * splits * c * 4, size: w.count * splits * c * 4 }, threads: w.count * splits }, cache: plan.passes[2 + k]! });
      }
    });
  }
  passes.push({ pass: { program: p2, arrays: arrays2, scalars: scalars2, output, threads: finishThreads(y, rows, inPlace) }, cache: plan.passes[1]! });
  if (rows === 0) return;
  if (threads === 0) {
    // n = 0: op(A)·x is empty; the partial buffer must read as zeros.
    context.device.queue.writeBuffer(plan.scratch[0]!, 0, new Uint32Array(Math.max(1, rows * c)));
    scalars2.S = 1;
    scalars2.sc = 0;
    scalars2.sr = 0;
  }
  submitPasses(context, passes);
  if (!inPlace) {
    // Ping-pong: the old y buffer becomes the plan's spare for the next call.
    plan.scratch[1] = y.buffer!;
    y.buffer = out;
  }
  y.version++;
}

/** y formats the one-dispatch GEMV N writes (each format's store is one return expression). */
const FUSED_Y_FORMATS = new Set(['f32', 'f16', 'bf16', 'ff', 'f64']);

/** The call parity of each one-dispatch GEMV N plan (which of its two slot regions the next call writes). */
const fusedParity = new WeakMap<object, number>();

/** The atomic buffer of the latest one-dispatch GEMV N call (for {@link lastGemvFusedMisses}). */
let lastFused: { runtime: GpuRuntime; buffer: GpuBuffer } | undefined;

/**
 * The miss counter of the latest one-dispatch GEMV N call's plan: how many partials its calls so far had to recompute
 * (kernels/gemv/gemv-fused-finish-source.ts). For benchmarks, read right after a call (while its plan is held).
 * @returns the count, or undefined when no such call ran
 */
export async function lastGemvFusedMisses(): Promise<number | undefined> {
  if (!lastFused) return undefined;
  return (await readWords(lastFused.runtime.context, lastFused.buffer, 1, GEMV_FUSED_MISSES))[0]!;
}

/**
 * Records the one-dispatch GEMV N (the `gemvFusedFinish` switch): a packed y's new words go to the plan's spare buffer,
 * which then becomes y's (the two-pass form's ping-pong).
 */
async function gemvFusedN(runtime: GpuRuntime, key: string, ops: { A: DeviceMatrix; x: DeviceArray; y: DeviceArray }, arithmetic: GpuArithmetic, shape: { alpha: number; beta: number; R: number; splits: number; partialScalars: Record<string, number>; runSuffix: string | undefined; vectorX: boolean; specKey: string }, lines: PartialRowsLines): Promise<void> {
  const { A, x, y } = ops;
  const context = runtime.context;
  const c = arithmetic.components;
  const readsY = shape.beta !== 0;
  const rows = y.length;
  const layout = gemvFusedLayout(shape.splits, shape.partialScalars.G!, shape.R, c);
  const recompute = gpuKernelSwitches().fusedFinishRecompute;
  // The atomic buffer (counters 0, slots empty), y's next buffer, and a stand-in output the program never stores to.
  const plan = getPlan(runtime, key, 2, () => [createWordBuffer(context, layout.total, gemvFusedInitialWords(layout)), createSpanBuffer(runtime, y), createWordBuffer(context, 4)]);
  const spec = memo(`gemvfused|${arithmetic.name}|${readKey(A.data)}|${readKey(x)}|${readKey(y)}|${readsY}|${shape.specKey}|${recompute}`, () => gemvFusedFinishSpec(arithmetic, y, readsY, shape.R, lines, recompute));
  const program = await getProgram(context, spec);
  const parity = fusedParity.get(plan) ?? 0;
  fusedParity.set(plan, 1 - parity);
  const arrays: Record<string, BoundArray> = {};
  // The layout's S, Gp, L0 over the partial pass's own (its Gp, with gemvPartialWorkgroup, is not this form's).
  const scalars = withScalars(withScalars({}, shape.partialScalars), { S: shape.splits, Gp: layout.padded, L0: layout.slots, par: parity, rows });
  withScalars(scalars, scalarBindings(arithmetic, shape.alpha, shape.beta));
  bindArray('A', A.data, arrays, scalars);
  bindExtent('X', x, arrays, scalars);
  if (shape.runSuffix) arrays[`A${shape.runSuffix}`] = arrays.A!;
  if (shape.vectorX) arrays[`X${x.format.vectorRead!.suffix}`] = arrays.X!;
  if (readsY) bindArray('Yold', y, arrays, scalars);
  const out = plan.scratch[1]!;
  arrays.PAtomic = { buffer: plan.scratch[0]! };
  arrays.YAtomic = { buffer: out };
  // A pass cache per parity: the two forms of the call differ only in `par`.
  submitPasses(context, [{ pass: { program, arrays, scalars, output: { buffer: plan.scratch[2]! }, threads: layout.padded * shape.splits }, cache: plan.passes[parity]! }]);
  lastFused = { runtime, buffer: plan.scratch[0]! };
  plan.scratch[1] = y.buffer!;
  y.buffer = out;
  y.version++;
}

/**
 * GEMV T (the kernel's op, after a row-major view's transposition) whose x does not fit one storage binding: A is read in
 * tiles of rows × columns — a window of rows as large as one binding holds of x's span and of A's rows, then as many
 * columns of those rows as a binding holds — x in the same windows of rows. Each tile's W lanes per column write their
 * partials into their own group (row window k, column j: P[(k·n + j)·W + l], 256-byte aligned with W ≥ 64), and the
 * last pass sums group after group (partialsFinishSource, grouped): another fixed summation order than the unsplit run,
 * within the same bound (every order of a sum is).
 */
async function gemvTiledT(runtime: GpuRuntime, args: GpuGemvArgs, alpha: number, beta: number, arithmetic: GpuArithmetic, target: number, chains: number): Promise<void> {
  const { y } = args;
  const context = runtime.context;
  const limit = bindingLimit(runtime);
  const m = args.A.rows, n = args.A.cols;
  const c = arithmetic.components;
  const readsY = beta !== 0;
  if (args.A.data.format.scaled || args.x.format.scaled) throw new ModprecError('BACKEND_LIMIT', `invalid argument: x needs ${extentBytes(args.x)} bytes, over this adapter's maxStorageBufferBindingSize of ${limit} bytes, and ${args.A.data.format.scaled ? 'A' : 'x'} is stored in a block-scaled integer format, which cannot be split`, 'maxStorageBufferBindingSize');
  // Views (offset and stride uniforms), so that a tile's bindings may start anywhere (from the 256-byte boundary below).
  const data = args.A.data.isView ? args.A.data : viewOf(args.A.data, { length: m * n, offset: 0, stride: 1, alwaysView: true });
  const A = { ...args.A, data };
  const x = args.x.isView ? args.x : viewOf(args.x, { length: args.x.length, offset: 0, stride: 1, alwaysView: true });
  // Rows per window: what one binding holds of x's span (and of its per-element scales) and of a column of A.
  const slack = (a: DeviceArray) => Math.max(128, Math.ceil(64 / wordsPerElement(a)));
  const elements = (a: DeviceArray) => Math.floor(limit / (4 * wordsPerElement(a))) - slack(a) - 1;
  const q = Math.abs(x.rangeScale?.scalars.Qm ?? 0);
  const rowsPer = Math.min(Math.floor(elements(x) / Math.abs(x.stride)) + 1, Math.floor(elements(data) / Math.max(1, Math.abs(data.stride))) + 1, q === 0 ? Infinity : Math.floor((limit / 8 - 33) / q) + 1);
  if (rowsPer < 1) throw new ModprecError('BACKEND_LIMIT', `invalid argument: x (stride ${x.stride}) or A (row stride ${data.stride}) spans more than maxStorageBufferBindingSize (${limit} bytes) between two elements`, 'maxStorageBufferBindingSize');
  const W = Math.max(64, gemvTLanes(Math.min(m, rowsPer), n, target));
  const tiles: { k: number; r0: number; rows: number; c0: number; c1: number }[] = [];
  const groups = Math.ceil(m / rowsPer);
  for (let k = 0; k < groups; k++) {
    const r0 = k * rowsPer, rows = Math.min(rowsPer, m - r0);
    const sub = { rows, ld: A.ld, data: viewOf(data, { length: rows * n, offset: data.offset + r0 * data.stride, stride: data.stride, alwaysView: true }) };
    const cols = columnsPerRegion(sub, limit);
    if (cols < 1) throw new ModprecError('BACKEND_LIMIT', `invalid argument: A needs one column of ${rows} rows per storage binding, over this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
    for (let c0 = 0; c0 < n; c0 += cols) tiles.push({ k, r0, rows, c0, c1: Math.min(n, c0 + cols) });
  }
  const inPlace = !y.coversSpan;
  const key = `gemvTiled|${objectId(args.A.data)}|${data.offset}|${data.stride}|${objectId(args.x)}|${objectId(y)}|${m}|${n}|${A.ld}|${arithmetic.name}|${readsY}|${target}|${chains}|${inPlace}|${tiles.length}|${W}`;
  const plan = getPlan(runtime, key, 1 + tiles.length, () => [boundedScratch(createWordBuffer(context, groups * n * W * c)), inPlace ? createWordBuffer(context, 1) : createSpanBuffer(runtime, y)]);
  const rowPass = exactProductPass(streamingPass(arithmetic.gemvVariant?.() ?? arithmetic), data, x);
  const partialSpec = memo(`gemvT|${rowPass.name}|${readKey(data)}|${readKey(x)}|${chains}`, () => partialTSource(rowPass, data, x, chains));
  const p1 = await getProgram(context, { source: partialSpec.source, args: partialSpec.args, components: c as 1 | 2 | 4 });
  const finish = partialsFinishSource(arithmetic, y, readsY, inPlace, true);
  const p2 = await getProgram(context, { source: finish.source, args: finish.args, components: outputComponents(y.format), ...finishProgramOptions(y, readsY, inPlace) });
  const passes: { pass: Pass; cache: PassCache }[] = tiles.map((t, i) => {
    const arrays: Record<string, BoundArray> = {};
    const scalars: Record<string, number> = { m: t.rows, lda: A.ld, W };
    bindArray('A', data, arrays, scalars);
    const first = data.offset + t.r0 * data.stride;
    const region = columnRegion({ rows: t.rows, ld: A.ld, data: viewOf(data, { length: t.rows * n, offset: first, stride: data.stride, alwaysView: true }) }, t.c0, t.c1);
    arrays.A = region.bound;
    scalars.AOff = first + t.c0 * A.ld - region.start;
    moveScaleBase('A', data, region.start, scalars);
    bindArray('X', x, arrays, scalars);
    bindWindow('X', x, { start: t.r0, count: t.rows }, arrays, scalars);
    const units = (t.k * n + t.c0) * W;
    return { pass: { program: p1, arrays, scalars, output: { buffer: plan.scratch[0]!, offset: units * c * 4, size: (t.c1 - t.c0) * W * c * 4 }, threads: (t.c1 - t.c0) * W }, cache: plan.passes[1 + i]! };
  });
  const arrays2: Record<string, BoundArray> = { P: { buffer: plan.scratch[0]! } };
  const scalars2 = withScalars({ S: W, sr: W, sc: 1, G: groups, sg: n * W, rows: n }, scalarBindings(arithmetic, alpha, beta));
  const output = bindFinishOutput(y, n, inPlace, readsY, plan.scratch[1]!, arrays2, scalars2);
  const out = plan.scratch[1]!;
  passes.push({ pass: { program: p2, arrays: arrays2, scalars: scalars2, output, threads: finishThreads(y, n, inPlace) }, cache: plan.passes[0]! });
  submitPasses(context, passes);
  if (!inPlace) {
    plan.scratch[1] = y.buffer!;
    y.buffer = out;
  }
  y.version++;
}

/**
 * y ← α·op(A)·x + β·y on the GPU (on the CPU for host-resident operands). y is updated in place on the
 * device (nothing is read back); the result says which backend ran it.
 *
 * @param args - A (column-major, resident), x, y, α (default 1), β (default 0), trans (`N` or `T`)
 * @param options - arithmetic (`f32` or `ff`), split target
 * @returns the run report
 * @throws {@link modprec!ModprecError} `DIMENSION_MISMATCH` for inconsistent sizes; `INVALID_STORAGE` for
 *   non-resident, destroyed or mixed operands or x = y; `INVALID_FORMAT` when y's format cannot be written
 *   on the GPU; `INVALID_VALUE` for non-finite α, β; `INVALID_OPTION` for a bad trans
 * @example
 * ```ts
 * import { toDevice, deviceMatrix, gpuGemv } from 'modprec/gpu';
 *
 * // [[1, 2, 3], [4, 5, 6]] stored in bf16, column-major
 * const A = deviceMatrix(await toDevice([1, 4, 2, 5, 3, 6], { format: 'bf16' }), 2, 3);
 * const x = await toDevice([1, 1, 1]), y = await toDevice([1, 1]);
 * await gpuGemv({ A, x, y, alpha: 2, beta: -1 }, { arithmetic: 'ff' });
 * await y.toHost(); // → Float64Array(2) [ 11, 29 ]
 * ```
 * @group GPU
 */
export async function gpuGemv(args: GpuGemvArgs, options: GpuGemvOptions = {}): Promise<GpuRunInfo> {
  checkArgumentsObject(args, '{ A, x, y, alpha, beta, trans }');
  // Lengths before overlap, in the CPU's order: gemv with a 2×3 A and x = y of length 2 is DIMENSION_MISMATCH naming x.
  const { A, x, y } = args;
  if (A && typeof A === 'object' && A.data instanceof DeviceArray && x instanceof DeviceArray && y instanceof DeviceArray && (args.trans === undefined || args.trans === 'N' || args.trans === 'T')) {
    checkGemvLengths(A, x, y, args.trans === 'T');
  }
  // An output overlapping an input is refused as the CPU refuses it (before the dd-split copies hide the sharing).
  refuseResidentOverlap('y', args.y, [['A', matrixOverlapOperand(args.A)], ['x', args.x]]);
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  return throughInterleaved([fieldOf(fieldOf(args, 'A'), 'data'), fieldOf(args, 'x'), fieldOf(args, 'y')], fieldOf(args, 'y'), (dd) => {
    const mapped = withMapped(withMapped(args, 'x', dd), 'y', dd);
    const A = withMapped(args.A, 'data', dd);
    // The caller's arguments as they are where no operand is dd-split (no copy of them per call).
    return gpuGemvOf(mapped === args && A === args.A ? args : { ...mapped, A }, options);
  });
}

/** gpuGemv on operands in the kernels' layouts. */
async function gpuGemvOf(args: GpuGemvArgs, options: GpuGemvOptions): Promise<GpuRunInfo> {
  checkResidentOptions(options, 'gpuGemv');
  // GEMV's loop order, as backend 'gpu' checks it: 'auto' or omitted (the GPU's order is its own), never ignored.
  const loop = (options as { loop?: unknown }).loop;
  if (loop !== undefined) checkGpuLoop(loop);
  const { trans, kernelTrans, alpha, beta } = validate(args);
  const arithmetic = chooseArithmetic(options, [args.A.data, args.x, args.y]);
  const target = checkSize('options.targetThreads', options.targetThreads === undefined ? 2 ** 18 : options.targetThreads);
  const chains = checkChains(options.chains, gemvDefaultChains(arithmetic, args.A.data, kernelTrans));
  // gemvEightRows: eight rows a thread where the option leaves the choice, the arithmetic takes several rows (f32, ff)
  // and the matrix allows one load of eight (gemvOnDevice).
  const rowsPerThread = gpuKernelSwitches().gemvEightRows && options.rowsPerThread === undefined && maxRowsPerThread(arithmetic) > 1 ? 8 : checkRowsPerThread(options.rowsPerThread, arithmetic);
  const runtime = commonRuntime({ A: args.A.data, x: args.x, y: args.y }, ['A', 'x', 'y']);
  if (!runtime) {
    allowFallback(options, args.y.fallbackReason);
    await hostGemv({ A: args.A, x: args.x, y: args.y, alpha, beta, trans: trans ? 'T' : 'N' }, arithmetic);
    return runInfo(undefined, arithmetic, args.y.fallbackReason);
  }
  // The CPU kernel's rules: an empty op(A), or α = 0 and β = 1, leave y untouched; α = 0 reads neither A nor x.
  if (args.A.rows === 0 || args.A.cols === 0 || (alpha === 0 && beta === 1)) return runInfo(runtime, arithmetic, '');
  if (alpha === 0) {
    await gpuUpdate({ alpha: beta, x: args.y, beta: 0, out: args.y }, { arithmetic: arithmetic.name });
    return runInfo(runtime, arithmetic, '');
  }
  // y a view: written in place by the last pass (writesInPlace: word stores; writesLanes: 8- or 16-bit lane stores, where
  // the view's extent fits one binding); else the kernel writes its packed twin (holding y's old values when β ≠ 0),
  // then y's span (the scatter goes in chunks of the extent).
  // A view whose rows are its compact direction (row-major) runs as the other trans on its transpose, whatever the limit.
  const A = kernelTrans === trans ? args.A : transposedDeviceMatrix(args.A);
  const run = (y: DeviceArray) => gemvOnDevice(runtime, { ...args, A, y }, kernelTrans, alpha, beta, arithmetic, Math.max(1, target), chains, rowsPerThread);
  if (writesInPlace(args.y) || (writesLanes(args.y) && outputWindow(args.y, { start: 0, count: args.y.length }, true).bound.size <= bindingLimit(runtime))) await serialisedViewWrite(args.y, () => run(args.y));
  else await throughPackedOutput(runtime, args.y, beta !== 0, run);
  return runInfo(runtime, arithmetic, '');
}
