/**
 * ELL SpMV on the GPU: y ← α·A·x + β·y with A in column-major ELL (as in Ginkgo): entry k of row i at
 * i + k·stride, padding marked by column index −1. One thread per output word of y (two rows for 16-bit
 * formats): adjacent threads read adjacent entries of each ELL column (coalesced), gather x, and write y
 * in its storage format — one pass.
 *
 * @module
 */
import { matrixOverlapOperand, refuseResidentOverlap } from '../../src/backends/webgpu/resident-overlap.js';
import { checkSize, fail, ModprecError } from '../../src/core/errors.js';
import { checkArgumentsObject, checkNumber, outputComponents, withScalars } from '../../src/backends/webgpu/kernel-common.js';
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { hostEllSpmv } from '../../src/backends/webgpu/host-fallback.js';
import { gpuUpdate } from '../waxpby/update-webgpu.js';
import { bindExtent, bindingLimit, checkBufferSize, checkScaleBinding, columnRegion, createSpanBuffer, DeviceArray, moveScaleBase, runtimeOrFallback, scaleBlockOf, type ToDeviceOptions } from '../../src/backends/webgpu/device-array.js';
import { chainedEllSpmv, ellFitsOneBinding, ellOutputFits, ellWindowsX, valuesMatrix } from './ell-spmv-chain-webgpu.js';
import { finishArgs, finishBody, finishProgramOptions, finishThreads, scalarBindings } from '../../src/backends/webgpu/finish-pass.js';
import { gpuFormat } from '../../src/backends/webgpu/formats.js';
import { checkEllSlots } from '../../src/sparse/ell-matrix.js';
import { checkLength } from '../../src/sparse/sparse-checks.js';
import { elementIndex, allowFallback, arrayArgs, bindArray, memo, readKey, chooseArithmetic, commonRuntime, getPlan, kernelSource, objectId, runInfo, type GpuKernelOptions, type GpuRunInfo } from '../../src/backends/webgpu/kernel-common.js';
import { getProgram, submitPasses, type BoundArray } from '../../src/backends/webgpu/program.js';
import { aliasSnapshot, bindOldFromOutput, checkOwnedOutput, outputWindow, serialisedViewWrite, throughPackedOutput, writesLanes, writesInPlace } from '../../src/backends/webgpu/view-output.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import type { DeviceMatrix } from '../gemv/gemv-webgpu.js';
import type { GpuBuffer } from '../../src/backends/webgpu/webgpu-types.js';
import { checkGpuOptions } from '../../src/backends/backend.js';
import { checkResidentOptions } from '../../src/backends/webgpu/resident-options.js';
import { fieldOf, throughInterleaved, withMapped } from '../../src/backends/webgpu/dd-split-device.js';

/**
 * The parts of an ELL matrix (the core's `EllMatrix` has them).
 * @group GPU
 */
export interface EllParts {
  readonly rows: number;
  readonly cols: number;
  /** Entries per row (padded). */
  readonly width: number;
  /** Distance between entry k and k+1 of a row (≥ rows). */
  readonly stride: number;
  /** Column indices, −1 for padding; length exactly stride·width (as ellStructure requires). */
  readonly colIndex: Int32Array;
  /** Values; length exactly stride·width (as ellMatrix requires). */
  readonly values: ArrayLike<number>;
}

/**
 * An ELL matrix resident on the GPU.
 * @group GPU
 */
export interface DeviceEll {
  readonly rows: number;
  readonly cols: number;
  readonly width: number;
  readonly stride: number;
  /** Values in a GPU storage format: slot k of row i at i + k·stride, or, with `valuesLd`, a matrix view. */
  readonly values: DeviceArray;
  /**
   * Set for values uploaded as a matrix view ({@link deviceEllView}): slot k of row i is element
   * `values.offset + i·values.stride + k·valuesLd` of the span (any layout of the values range, a sub-range).
   */
  readonly valuesLd?: number;
  /** With `valuesLd`: the rows of the values matrix (rows or stride). */
  readonly valuesRows?: number;
  /** Column indices as 32-bit words (undefined when host-resident). */
  readonly colIndex: GpuBuffer | undefined;
  /** Host copy of the column indices (host-resident only). */
  readonly hostColIndex: Int32Array | undefined;
}

/**
 * Checks the structure of an ELL matrix as the CPU's ellStructure does (sizes, colIndex of exactly stride·width
 * indices, index range, padding rules), the names prefixed with `A.`, and returns its sizes.
 */
function checkEllParts(A: Omit<EllParts, 'values'>): { rows: number; cols: number; width: number; stride: number; entries: number } {
  // deviceEllView(undefined, …) threw a TypeError reading rows.
  if (typeof A !== 'object' || A === null) fail('INVALID_OPTION', 'A', 'must be an ELL structure { rows, cols, width, stride, colIndex }', A);
  const rows = checkSize('A.rows', A.rows);
  const cols = checkSize('A.cols', A.cols);
  const width = checkSize('A.width', A.width);
  const stride = checkSize('A.stride', A.stride);
  if (stride < rows) fail('INVALID_STRIDE', 'A.stride', `must be at least rows (${rows})`, stride);
  const entries = stride * width;
  if (entries > 2 ** 31 - 1) fail('INVALID_SIZE', 'A.stride', 'times A.width must be below 2^31 (32-bit indices on the GPU)', entries);
  if (!(A.colIndex instanceof Int32Array)) fail('INVALID_STORAGE', 'A.colIndex', 'must be an Int32Array', A.colIndex);
  // Exactly stride·width, as on the CPU: a longer array is a layout mistake, not spare room.
  checkLength('A.colIndex.length', A.colIndex.length, entries, 'stride * width');
  // The CPU's slot rules (ellStructure's): columns in range, padding last in a row, rows past `rows` padding only.
  checkEllSlots(A.colIndex, { rows, cols, width, stride }, 'A.colIndex');
  return { rows, cols, width, stride, entries };
}

/**
 * Uploads an ELL matrix (values rounded to the storage format, indices as 32-bit integers).
 * @param A - rows, cols, width, stride, colIndex, values
 * @param options - storage format of the values, scale block, strictness
 * @returns the resident matrix
 * @throws {@link modprec!ModprecError} `INVALID_SIZE`/`INVALID_STRIDE`/`INVALID_STORAGE` for inconsistent parts,
 *   `DIMENSION_MISMATCH` naming `A.colIndex.length` or `A.values.length` unless it is exactly stride·width,
 *   `INDEX_OUT_OF_RANGE` for a column index outside [−1, cols), `INVALID_VALUE` for an entry after padding in its row,
 *   an entry in a row at or beyond `rows`, or a nonzero value in a padding slot (the CPU's ellMatrix rules), or a
 *   value that is not a number (naming `A.values[k]`, as toDevice names `data[k]`), as {@link toDevice} otherwise
 * @example
 * ```ts
 * import { csrToEll, laplacianCsr } from 'modprec';
 * import { toDeviceEll } from 'modprec/gpu';
 *
 * const A = await toDeviceEll(csrToEll(laplacianCsr([64, 64])), { format: 'f32' });
 * A.rows; // → 4096
 * A.width; // → 5
 * ```
 * @group GPU
 */
export async function toDeviceEll(A: EllParts, options: ToDeviceOptions = {}): Promise<DeviceEll> {
  // toDevice's options, checked as there (a null options threw a TypeError, scaleBlock 0 asked for Infinity scales).
  checkGpuOptions(options);
  if (typeof A !== 'object' || A === null) fail('INVALID_OPTION', 'A', 'must be an ELL matrix { rows, cols, width, stride, colIndex, values }', A);
  const { rows, cols, width, stride, entries } = checkEllParts(A);
  // The values as ellMatrix checks them (any array of numbers here): exactly stride·width of them.
  if (typeof A.values !== 'object' || A.values === null || typeof A.values.length !== 'number') fail('INVALID_STORAGE', 'A.values', 'must be an array of numbers', A.values);
  checkLength('A.values.length', A.values.length, entries, 'stride * width');
  const format = gpuFormat(options.format ?? 'f32', 'options.format');
  const scaleBlock = scaleBlockOf(options);
  // Numbers only, as toDevice and vector take them: '2' ran as 2, null as 0, undefined and {} as NaN, true as 1, and a
  // bigint threw a TypeError (a typed array of numbers needs no look).
  const numberView = ArrayBuffer.isView(A.values) && !(A.values instanceof BigInt64Array) && !(A.values instanceof BigUint64Array);
  if (!numberView) for (let k = 0; k < entries; k++) if (typeof A.values[k] !== 'number') fail('INVALID_VALUE', `A.values[${k}]`, 'must be a number', A.values[k]);
  // A padding slot's value must be 0, as ellMatrix requires on the CPU.
  for (let k = 0; k < entries; k++) {
    if (A.colIndex[k] === -1 && A.values[k] !== 0) fail('INVALID_VALUE', `A.values[${k}]`, 'must be 0 in a padding slot (colIndex = -1), as ellMatrix requires', A.values[k]);
  }
  const clean = Float64Array.from({ length: entries }, (_, k) => A.values[k]!);
  const encoded = format.encode(clean, 'A.values', scaleBlock);
  const { runtime, reason } = await runtimeOrFallback(options.strict);
  if (runtime) checkBufferSize(runtime, Math.max(1, entries), 'A.colIndex');
  const values = new DeviceArray(runtime, format, entries, scaleBlock, encoded, reason);
  const indexWords = entries > 0 ? new Uint32Array(A.colIndex.buffer, A.colIndex.byteOffset, entries) : new Uint32Array(1);
  return {
    rows,
    cols,
    width,
    stride,
    values,
    colIndex: runtime ? createWordBuffer(runtime.context, Math.max(1, entries), indexWords) : undefined,
    hostColIndex: runtime ? undefined : A.colIndex.slice(0, entries),
  };
}

/**
 * An ELL matrix whose values are a resident matrix (`toDeviceMatrix` of the values range: any layout, a sub-range,
 * read in place through its strides) and whose column indices go up as 32-bit words — no per-element work on the
 * host. Padding slots (index −1) are never read, whatever they hold.
 * @param structure - rows, cols, width, stride and column indices (as {@link toDeviceEll} checks them)
 * @param values - a `rows`×`width` or `stride`×`width` resident matrix: slot k of row i is its element (i, k)
 * @returns the resident ELL matrix (it owns `values.data`)
 * @throws {@link modprec!ModprecError} as {@link toDeviceEll}; `DIMENSION_MISMATCH` naming `values` when its size does not fit
 * @example
 * ```ts
 * import { csrToEll, laplacianCsr, ellFromMatrix } from 'modprec';
 * import { deviceEllView, toDeviceMatrix } from 'modprec/gpu';
 *
 * const E = ellFromMatrix(csrToEll(laplacianCsr([8])));
 * const A = await deviceEllView(E.structure, await toDeviceMatrix(E.values));
 * A.width; // → 3
 * ```
 * @group GPU
 */
export async function deviceEllView(structure: Omit<EllParts, 'values'>, values: DeviceMatrix): Promise<DeviceEll> {
  const parts = checkEllParts(structure);
  if (!values || !(values.data instanceof DeviceArray)) fail('INVALID_STORAGE', 'values', 'must be a DeviceMatrix (see toDeviceMatrix)', values);
  if ((values.rows !== parts.rows && values.rows !== parts.stride) || values.cols !== parts.width) {
    fail('DIMENSION_MISMATCH', 'values', `must be ${parts.rows}×${parts.width} or ${parts.stride}×${parts.width} (rows or stride × width)`, `${values.rows}×${values.cols}`);
  }
  const runtime = values.data.runtime;
  const entries = parts.stride * parts.width;
  if (runtime) checkBufferSize(runtime, Math.max(1, entries), 'A.colIndex');
  const indexWords = entries > 0 ? new Uint32Array(structure.colIndex.buffer, structure.colIndex.byteOffset, entries) : new Uint32Array(1);
  return {
    rows: parts.rows, cols: parts.cols, width: parts.width, stride: parts.stride, values: values.data, valuesLd: values.ld, valuesRows: values.rows,
    colIndex: runtime ? createWordBuffer(runtime.context, Math.max(1, entries), indexWords) : undefined,
    hostColIndex: runtime ? undefined : structure.colIndex.slice(0, entries),
  };
}

/**
 * @internal Writes the column indices of `structure` into `A`'s (an earlier {@link deviceEllView} of the same rows,
 * cols, width and stride), checked as deviceEllView checks them: the reuse of a call's ELL matrix by the next call of
 * its shape (src/backends/webgpu-bridge/gpu-runs.ts), whose plans are keyed by the matrix.
 * @param A - the resident matrix, on the device
 * @param structure - rows, cols, width, stride and the new column indices
 */
export function refillEllIndices(A: DeviceEll, structure: Omit<EllParts, 'values'>): void {
  const { entries } = checkEllParts(structure);
  if (entries > 0) A.values.runtime!.context.device.queue.writeBuffer(A.colIndex!, 0, new Uint32Array(structure.colIndex.buffer, structure.colIndex.byteOffset, entries));
}

/**
 * Arguments of {@link gpuEllSpmv}.
 * @group GPU
 */
export interface GpuEllSpmvArgs {
  readonly A: DeviceEll;
  readonly x: DeviceArray;
  readonly y: DeviceArray;
  /** Default 1. */
  readonly alpha?: number;
  /** Default 0 (y is then not read). */
  readonly beta?: number;
}

/** Index of slot k of row r in the values: `at` (i + k·stride) for packed values, else through the view's uniforms. */
function valueIndex(A: DeviceEll, at: string, r: string, k: string): string {
  if (A.valuesLd === undefined) return at;
  return `${A.values.isView ? `VOff + ${r} * VInc` : r} + ${k} * Vld`;
}

/** The values' read key (packed, or a matrix view with its own strides). */
function valuesKey(A: DeviceEll): string {
  return A.valuesLd === undefined ? readKey(A.values) : `${readKey(A.values)}@ld`;
}

function spmvSource(arithmetic: GpuArithmetic, A: DeviceEll, x: DeviceArray, y: DeviceArray, readsY: boolean, inPlace: boolean): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('V', A.values), ...(A.valuesLd === undefined ? [] : [['Vld', 'Integer'] as const]), ['I', 'Array'] as const, ...arrayArgs('X', x), ['K', 'Integer'] as const, ['stride', 'Integer'] as const, ...finishArgs(arithmetic, y, readsY, inPlace)];
  const body = finishBody(arithmetic, y, readsY, (e) => {
    const rv = A.values.format.emitRead('V', valueIndex(A, `at${e}`, `r${e}`, `k${e}`), `v${e}`, arithmetic);
    const rx = x.format.emitRead('X', elementIndex('X', x, `col${e}`), `xv${e}`, arithmetic);
    return [
      `for (let k${e} = mpI32(0); k${e} < K; k${e}++) {`,
      `const at${e} = r${e} + k${e} * stride;`,
      `const col${e} = mpBits(I[at${e}]);`,
      `if (col${e} >= 0) {`,
      rv.code,
      rx.code,
      arithmetic.mulAdd(`acc${e}`, rv.register, rx.register),
      '}',
      '}',
    ];
  }, inPlace);
  return { source: kernelSource(args, body), args };
}

/**
 * The output binding of the pass writing y, and its old values' binding when β ≠ 0: a packed y goes to `fresh` (which
 * then replaces it); a view is written in place (view-output.ts: outputWindow, its old values from a snapshot).
 */
function finishOutput(runtime: GpuRuntime, y: DeviceArray, readsY: boolean, inPlace: boolean, fresh: GpuBuffer, arrays: Record<string, BoundArray>, scalars: Record<string, number>): BoundArray {
  if (!inPlace) {
    if (readsY) bindArray('Yold', y, arrays, scalars);
    return { buffer: fresh };
  }
  const o = outputWindow(y, { start: 0, count: y.length }, writesLanes(y));
  Object.assign(scalars, o.scalars);
  // y's old values from its own binding (the plan's one-word `fresh` stands in for Yold's).
  if (readsY) bindOldFromOutput(y, o.bound, fresh, arrays, scalars);
  return o.bound;
}

async function spmvOnDevice(runtime: GpuRuntime, args: GpuEllSpmvArgs, alpha: number, beta: number, arithmetic: GpuArithmetic): Promise<void> {
  const { A, x, y } = args;
  const context = runtime.context;
  if (A.rows === 0) return;
  const limit = bindingLimit(runtime);
  const readsY = beta !== 0;
  const inPlace = !y.coversSpan;
  // Values (the part of a matrix view's span the matrix covers), indices, x's extent or y over one binding: chains of
  // passes over tiles of rows, with the same bits (ell-spmv-chain-webgpu.ts).
  if (!ellFitsOneBinding(A, limit) || ellWindowsX(x, limit) || !ellOutputFits(y, inPlace, limit)) {
    return chainedEllSpmv(runtime, args, alpha, beta, arithmetic);
  }
  const key = `ell|${objectId(A)}|${objectId(x)}|${objectId(y)}|${arithmetic.name}|${readsY}|${inPlace}`;
  const plan = getPlan(runtime, key, 1, () => [inPlace ? createWordBuffer(context, 1) : createSpanBuffer(runtime, y)]);
  const spec = memo(`ell|${arithmetic.name}|${valuesKey(A)}|${readKey(x)}|${readKey(y)}|${readsY}|${inPlace}${inPlace && writesLanes(y) ? '-lanes' : ''}`, () => spmvSource(arithmetic, A, x, y, readsY, inPlace));
  const program = await getProgram(context, { source: spec.source, args: spec.args, components: outputComponents(y.format), ...finishProgramOptions(y, readsY, inPlace) });
  const arrays: Record<string, BoundArray> = { I: { buffer: A.colIndex! } };
  const scalars = withScalars({ K: A.width, stride: A.stride, rows: A.rows }, scalarBindings(arithmetic, alpha, beta));
  bindArray('V', A.values, arrays, scalars);
  if (A.valuesLd !== undefined) scalars.Vld = A.valuesLd;
  if (A.valuesLd !== undefined && A.values.isView && A.values.words * 4 > limit) {
    // A values view of a span over one binding: the part of the span the matrix covers, VOff moved to match.
    const region = columnRegion(valuesMatrix(A), 0, A.width);
    arrays.V = region.bound;
    scalars.VOff = A.values.offset - region.start;
    moveScaleBase('V', A.values, region.start, scalars);
  }
  bindExtent('X', x, arrays, scalars);
  // x in y's span is read from a snapshot while y is written in place (the caller keeps A's values out of it).
  const fromX = inPlace ? aliasSnapshot(runtime, y, x) : undefined;
  if (fromX) arrays.X = { ...arrays.X!, buffer: fromX };
  const out = plan.scratch[0]!;
  const output = finishOutput(runtime, y, readsY, inPlace, out, arrays, scalars);
  submitPasses(context, [{ pass: { program, arrays, scalars, output, threads: finishThreads(y, A.rows, inPlace) }, cache: plan.passes[0]! }]);
  if (!inPlace) {
    plan.scratch[0] = y.buffer!;
    y.buffer = out;
  }
  y.version++;
}

/**
 * y ← α·A·x + β·y for a resident ELL matrix, on the GPU (on the CPU for host-resident operands).
 *
 * @param args - A (from {@link toDeviceEll}), x, y, α (default 1), β (default 0)
 * @param options - arithmetic (`f32` or `ff`)
 * @returns the run report (y is updated in place on the device)
 * @throws {@link modprec!ModprecError} `DIMENSION_MISMATCH` for inconsistent sizes; `INVALID_STORAGE` for
 *   non-resident or mixed operands or x = y; `INVALID_FORMAT` when y's format cannot be written on the GPU;
 *   `INVALID_VALUE` for non-finite α, β; `BACKEND_LIMIT` naming `maxStorageBufferBindingSize` for what cannot be split
 *   over storage bindings (docs/gpu.md, Limits: A, x and y are split, with the unsplit run's bits)
 * @example
 * ```ts
 * import { laplacianEll } from 'modprec';
 * import { toDevice, toDeviceEll, deviceZeros, gpuEllSpmv } from 'modprec/gpu';
 *
 * const A = await toDeviceEll(laplacianEll([4]), { format: 'f32' }); // tridiag(-1, 2, -1)
 * const x = await toDevice([1, 2, 3, 4]), y = await deviceZeros(4);
 * await gpuEllSpmv({ A, x, y }, { arithmetic: 'ff' });
 * await y.toHost(); // → Float64Array(4) [ 0, 0, 0, 5 ]
 * ```
 * @group GPU
 */
export async function gpuEllSpmv(args: GpuEllSpmvArgs, options: GpuKernelOptions = {}): Promise<GpuRunInfo> {
  checkArgumentsObject(args, '{ A, x, y, alpha, beta }');
  // Lengths before overlap, in the CPU's order (x = y of the wrong length is DIMENSION_MISMATCH naming x).
  const { A, x, y } = args;
  if (A && typeof A === 'object' && Number.isInteger(A.rows) && Number.isInteger(A.cols) && x instanceof DeviceArray && y instanceof DeviceArray) checkEllLengths(A, x, y);
  // An output overlapping an input is refused as the CPU refuses it (before the dd-split copies hide the sharing).
  refuseResidentOverlap('y', args.y, [['A.values', matrixOverlapOperand(args.A, true)], ['x', args.x]]);
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  return throughInterleaved([fieldOf(fieldOf(args, 'A'), 'values'), fieldOf(args, 'x'), fieldOf(args, 'y')], fieldOf(args, 'y'), (dd) => gpuEllSpmvOf(args && { ...withMapped(withMapped(args, 'x', dd), 'y', dd), A: withMapped(args.A, 'values', dd) }, options));
}

/** x's and y's lengths against A's columns and rows (DIMENSION_MISMATCH naming x, then y). */
function checkEllLengths(A: { rows: number; cols: number }, x: DeviceArray, y: DeviceArray): void {
  if (x.length !== A.cols) fail('DIMENSION_MISMATCH', 'x', `must have length ${A.cols} (columns of A)`, x.length);
  if (y.length !== A.rows) fail('DIMENSION_MISMATCH', 'y', `must have length ${A.rows} (rows of A)`, y.length);
}

/** Whether A's values are a packed range-scaled array whose scales exceed one storage binding. */
function packedScalesOverBinding(A: DeviceEll): boolean {
  const rs = A.values.rangeScale;
  return A.valuesLd === undefined && rs !== undefined && A.values.runtime !== undefined && rs.buffer.size > bindingLimit(A.values.runtime);
}

/** gpuEllSpmv on operands in the kernels' layouts. */
async function gpuEllSpmvOf(args: GpuEllSpmvArgs, options: GpuKernelOptions): Promise<GpuRunInfo> {
  checkResidentOptions(options, 'gpuEllSpmv');
  const { A, x, y } = args;
  if (!A || typeof A !== 'object' || !(A.values instanceof DeviceArray)) fail('INVALID_STORAGE', 'A', 'must be a DeviceEll (see toDeviceEll)', A);
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  if (!(y instanceof DeviceArray)) fail('INVALID_STORAGE', 'y', 'must be a DeviceArray (see toDevice)', y);
  checkEllLengths(A, x, y);
  if (!y.format.writable) fail('INVALID_FORMAT', 'y', 'must be stored in a format kernels write on the GPU (f32, f16, bf16, f64, ff)', y.format.name);
  if (x === y) fail('INVALID_STORAGE', 'y', 'must not be the same array as x');
  // A packed range-scaled values array whose scales exceed a binding is read as the stride × width column-major matrix
  // it is (slot k of row i at i + k·stride either way: the same elements, the same reads, the same order of sums),
  // whose scales the chain windows with each block of rows and slots.
  if (packedScalesOverBinding(A)) return gpuEllSpmvOf({ ...args, A: { ...A, valuesLd: A.stride, valuesRows: A.stride } }, options);
  // Conversely, block-scaled values given as a matrix view in the packed layout (a whole array, column-major at leading
  // dimension stride) are the packed values, element for element: read so (the same reads, windows of whole runs of entries).
  if (A.values.format.scaled && A.valuesLd === A.stride && !A.values.isView) return gpuEllSpmvOf({ ...args, A: { ...A, valuesLd: undefined, valuesRows: undefined } }, options);
  // A's values and indices, x and y may each exceed one storage binding (ell-spmv-chain-webgpu.ts: tiles of rows,
  // windows of x), a range-scaled values matrix's scales too.
  if (A.valuesLd === undefined) checkScaleBinding('A.values', A.values);
  checkOwnedOutput('y', y);
  const alpha = checkNumber('alpha', args.alpha ?? 1);
  const beta = checkNumber('beta', args.beta ?? 0);
  const arithmetic = chooseArithmetic(options, [A.values, x, y]);
  const runtime = commonRuntime({ 'A.values': A.values, x, y }, [...(A.valuesLd === undefined ? [] : ['A.values']), 'x', 'y']);
  if (!runtime) {
    allowFallback(options, y.fallbackReason);
    await hostEllSpmv({ rows: A.rows, cols: A.cols, width: A.width, stride: A.stride, colIndex: A.hostColIndex!, values: A.values, valuesLd: A.valuesLd, valuesRows: A.valuesRows, x, y, alpha, beta }, arithmetic);
    return runInfo(undefined, arithmetic, y.fallbackReason);
  }
  if (!A.colIndex) throw new ModprecError('INVALID_STORAGE', 'invalid argument: A.colIndex has been destroyed', 'A.colIndex');
  // The CPU kernel's rules: no rows, or α = 0 and β = 1, return at once; α = 0 (or no columns or slots) computes
  // y := β·y without reading A or x.
  if (A.rows === 0 || (alpha === 0 && beta === 1)) return runInfo(runtime, arithmetic, '');
  if (alpha === 0 || A.cols === 0 || A.width === 0) {
    await gpuUpdate({ alpha: beta, x: y, beta: 0, out: y }, { arithmetic: arithmetic.name });
    return runInfo(runtime, arithmetic, '');
  }
  // A block-scaled x's scales are bound whole (its words always fit: toDevice checks them), and 4 bytes a block
  // exceed a binding its words fit where scaleBlock is below 4 (i8) or 2 (i16).
  if (x.format.scaled && x.scales!.size > bindingLimit(runtime)) {
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: x is stored in ${x.format.name} with scaleBlock ${x.scaleBlock}, whose ${x.scales!.size} bytes of block scales (bound whole) exceed this adapter's maxStorageBufferBindingSize of ${bindingLimit(runtime)} bytes`, 'maxStorageBufferBindingSize');
  }
  // y a view: written in place (writesInPlace: word stores; writesLanes: 8- or 16-bit lane stores) where A's values are not in its
  // span (they are read in the same pass and would need a snapshot of a matrix view); else the kernel writes its
  // packed twin (holding y's old values when β ≠ 0), then y's span.
  if ((writesInPlace(y) || writesLanes(y)) && A.values.buffer !== y.buffer) await serialisedViewWrite(y, () => spmvOnDevice(runtime, args, alpha, beta, arithmetic));
  else await throughPackedOutput(runtime, y, beta !== 0, (packed) => spmvOnDevice(runtime, { ...args, y: packed }, alpha, beta, arithmetic));
  return runInfo(runtime, arithmetic, '');
}
