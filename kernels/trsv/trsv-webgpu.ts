/**
 * TRSV on the GPU: solves op(A)·x = b for triangular column-major A, x overwriting b, on the device without
 * reading back. With 64-row blocks and A in one binding the solve after the block inversion is one dispatch
 * (./trsv-walker-source.ts: a walker workgroup and helper workgroups); otherwise it is blocked and chained as
 * described below.
 *
 * Once per matrix (cached), the inverses of the bs×bs diagonal blocks of op(A) are computed on the device
 * (bs passes, one row of every block's inverse per pass, all blocks and columns in parallel). A solve is
 * then one submit: b → the working residual r (in the arithmetic format), and for each block in
 * substitution order two passes — x_k = inv(op(A)_kk)·r_k (bs threads), then r_i −= op(A)_ik·x_k for the
 * rows still to solve (one thread per row, four independent accumulators) — and finally x converted to
 * its storage format. Multiplying by explicit block inverses is what makes the block solve parallel; its
 * error grows with the condition number of the diagonal blocks (not of A), a standard trade-off of GPU
 * triangular solvers. A row-major view runs as the other uplo and trans on its column-major transpose
 * (../gemv/transposed-device-matrix.ts): the same op(A), so the same bits, split in windows of its rows.
 *
 * @module
 */
import { matrixOverlapOperand, refuseResidentOverlap } from '../../src/backends/webgpu/resident-overlap.js';
import { checkSize, fail, ModprecError } from '../../src/core/errors.js';
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { convertIntoViewPass, convertPass } from '../../src/backends/webgpu/convert.js';
import { hostTrsv } from '../../src/backends/webgpu/host-fallback.js';
import { bindingLimit, bindingWindows, bufferView, checkBinding, createSpanBuffer, checkOperandBinding, checkScaleBinding, columnRegion, columnsPerRegion, DeviceArray, deviceView, moveScaleBase, windowOf, wordsPerElement } from '../../src/backends/webgpu/device-array.js';
import type { DeviceMatrix } from '../gemv/gemv-webgpu.js';
import { deviceMatrix } from '../gemv/gemv-webgpu.js';
import { checkArgumentsObject, allowFallback, arrayArgs, bindArray, memo, readKey, chooseArithmetic, commonRuntime, getPlan, kernelSource, objectId, runInfo, type GpuKernelOptions, type GpuRunInfo, type Plan } from '../../src/backends/webgpu/kernel-common.js';
import { getProgram, submitEncoded, submitPasses, type BoundArray, type Pass, type PassCache } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import type { GpuBuffer } from '../../src/backends/webgpu/webgpu-types.js';
import { checkOutputBinding, gatherView, outputWindow, serialisedViewWrite, throughPackedOutput, writesLanes, writesInPlace } from '../../src/backends/webgpu/view-output.js';
import { tuningGeneration, tuningKnob } from '../../src/backends/webgpu/tuning-knobs.js';
import { trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { transposedCopy } from './trsv-transposed-copy.js';
import { quadRowsHold, TRSV_HEADER_WORDS, TRSV_TILE, TRSV_WORKGROUP, walkerHolds, walkerSource } from './trsv-walker-source.js';
import { checkResidentOptions } from '../../src/backends/webgpu/resident-options.js';
import { REDO_WORKGROUP, storageOverflowBits, storageRoundTrip, substitutionHolds, substitutionRedoBindings, substitutionRedoSource, type RoundTripStorage, type StoreRounding } from './trsv-substitution-source.js';
import { splitRedoCheckSource, splitRedoWindowSource } from './trsv-split-redo-source.js';
import { LANES, LANE_WORKGROUP, laneFusedSource, laneSolveSource, laneUpdateSource } from './trsv-lanes-source.js';
import { headFarSource, OVERLAP_LANE_WIDTHS } from './trsv-lanes-overlap-source.js';
import { ddCopyWords, windowTermsOf, type WindowTerms } from './trsv-window-update-source.js';
import { readsTransposed, transposedDeviceMatrix } from '../gemv/transposed-device-matrix.js';
import { fieldOf, throughInterleaved, withMapped } from '../../src/backends/webgpu/dd-split-device.js';
import { scaledStorePasses, storesViewInWindows } from '../../src/backends/webgpu/scaled-store.js';
import { defaultGpuTrsvBlockSize, trsvBlockSize } from './trsv-block-size.js';

/**
 * Arguments of {@link gpuTrsv}.
 * @group GPU
 */
export interface GpuTrsvArgs {
  /** Square: column-major, or a matrix view (deviceMatrixView, toDeviceMatrix); only the triangle named by `uplo` is read. */
  readonly A: DeviceMatrix;
  /** Right-hand side on entry, solution on return (its storage format must be writable on the GPU). */
  readonly x: DeviceArray;
  /** `U` (upper, default, as the CPU's trsv) or `L`. */
  readonly uplo?: 'L' | 'U';
  /** `N` (default) or `T`. */
  readonly trans?: 'N' | 'T';
  /** `N` (default) or `U` (unit diagonal, not read). */
  readonly diag?: 'N' | 'U';
}

/**
 * Options of {@link gpuTrsv}.
 * @group GPU
 */
export interface GpuTrsvOptions extends GpuKernelOptions {
  /**
   * Diagonal block size: 64 (default: the solve runs in one dispatch, a walker workgroup and helper workgroups,
   * kernels/trsv/trsv-walker-source.ts, where A fits one storage binding and the arithmetic is binary32 or
   * float-float; double-double takes the blocked solve, by default with blocks of 256 rows up to 16384 rows: defaultGpuTrsvBlockSize),
   * 128 or 256 (blocked: two dispatches per block). The result is within the same trsvBound model either way.
   */
  readonly blockSize?: number;
}

/** Loads in flight per loop iteration of the block solve and update (block sizes are multiples of it). */
const TRSV_UNROLL = 16;

interface Shape {
  readonly n: number;
  readonly bs: number;
  readonly blocks: number;
  /** n rounded up to a multiple of bs (and of 64, for 256-byte binding offsets). */
  readonly np: number;
  readonly lowerOp: boolean;
  readonly trans: boolean;
  readonly unit: boolean;
}

/**
 * Index expression of op(A)(row, col): column-major with leading dimension lda, or for a matrix view
 * (deviceMatrixView: a row-major matrix, a sub-range) A(i, j) at AOff + i·AInc + j·lda (uniforms).
 */
function opIndex(shape: Shape, row: string, col: string, A: DeviceArray): string {
  const [i, j] = shape.trans ? [col, row] : [row, col];
  return A.isView ? `AOff + ${i} * AInc + ${j} * lda` : `${i} + ${j} * lda`;
}

function inverseRowSource(arithmetic: GpuArithmetic, A: DeviceArray, shape: Shape): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('A', A), ['Inv', 'Array'] as const, ['n', 'Integer'] as const, ['lda', 'Integer'] as const, ['bs', 'Integer'] as const, ['np', 'Integer'] as const, ['j', 'Integer'] as const, ['t0', 'Integer'] as const, ['aOff', 'Integer'] as const];
  const inv = arithmetic.words;
  const ra = A.format.emitRead('A', `${opIndex(shape, 'gi', 'gl', A)} - aOff`, 'a', arithmetic);
  const rv = inv.emitRead('Inv', 'l * np + tid', 'v', arithmetic);
  const rd = A.format.emitRead('A', `${opIndex(shape, 'gi', 'gi', A)} - aOff`, 'd', arithmetic);
  const [lo, hi] = shape.lowerOp ? ['c', 'j'] : ['j + 1', 'c + 1'];
  const one = arithmetic.literal(1);
  const zero = arithmetic.literal(0);
  // Thread tid = t0 + thread.x (a pass may cover a group of blocks); A is read through a window starting
  // aOff elements into the matrix.
  const body = [
    'const tid = this.thread.x + t0;',
    'const c = mpImod(tid, bs);',
    'const base = tid - c;',
    'const gi = base + j;',
    arithmetic.declareZero('acc'),
    `for (let l = ${lo}; l < ${hi}; l++) {`,
    'const gl = base + l;',
    'if (gi < n && gl < n) {',
    ra.code,
    rv.code,
    arithmetic.mulAdd('acc', ra.register, rv.register),
    '}',
    '}',
    `let rhs = ${zero};`,
    `if (j === c) { rhs = ${one}; }`,
    arithmetic.declareSub('t', arithmetic.register('rhs'), arithmetic.register('acc')),
  ];
  if (shape.unit) {
    body.push(`return ${arithmetic.returnValue('t')};`);
  } else {
    body.push(`let dd = ${one};`, 'if (gi < n) {', rd.code, arithmetic.assign('dd', rd.register), '}');
    body.push(arithmetic.declareDiv('q', arithmetic.register('t'), arithmetic.register('dd')), `return ${arithmetic.returnValue('q')};`);
  }
  return { source: kernelSource(args, body), args };
}

function solveBlockSource(arithmetic: GpuArithmetic): { source: string; args: [string, 'Array' | 'Integer'][] } {
  const args: [string, 'Array' | 'Integer'][] = [['Inv', 'Array'], ['R', 'Array'], ['np', 'Integer'], ['k0', 'Integer'], ['bs', 'Integer']];
  const f = arithmetic.words;
  const body = ['const row = this.thread.x * np + k0;'];
  for (let q = 0; q < 4; q++) body.push(arithmetic.declareZero(`s${q}`));
  // 16 loads in flight per iteration (the loop is latency-bound), four independent accumulators.
  body.push(`for (let l = mpI32(0); l < bs; l = l + ${TRSV_UNROLL}) {`);
  const uses: string[] = [];
  for (let q = 0; q < TRSV_UNROLL; q++) {
    const ri = f.emitRead('Inv', `row + l + ${q}`, `m${q}`, arithmetic);
    const rr = f.emitRead('R', `k0 + l + ${q}`, `r${q}`, arithmetic);
    body.push(ri.code, rr.code);
    uses.push(arithmetic.mulAdd(`s${q % 4}`, ri.register, rr.register));
  }
  body.push(...uses, '}');
  body.push(arithmetic.add('s0', arithmetic.register('s1')), arithmetic.add('s2', arithmetic.register('s3')), arithmetic.add('s0', arithmetic.register('s2')));
  body.push(`return ${arithmetic.returnValue('s0')};`);
  return { source: kernelSource(args, body), args };
}

function updateSource(arithmetic: GpuArithmetic, A: DeviceArray, shape: Shape): { source: string; args: ReturnType<typeof arrayArgs> } {
  const args = [...arrayArgs('A', A), ['R', 'Array'] as const, ['X', 'Array'] as const, ['n', 'Integer'] as const, ['lda', 'Integer'] as const, ['rowStart', 'Integer'] as const, ['k0', 'Integer'] as const, ['bs', 'Integer'] as const, ['aOff', 'Integer'] as const];
  const f = arithmetic.words;
  const zero = arithmetic.literal(0);
  const body = ['const g = rowStart + this.thread.x;'];
  for (let q = 0; q < 4; q++) body.push(arithmetic.declareZero(`s${q}`));
  body.push(`for (let l = mpI32(0); l < bs; l = l + ${TRSV_UNROLL}) {`);
  const uses: string[] = [];
  for (let q = 0; q < TRSV_UNROLL; q++) {
    const ra = A.format.emitRead('A', `${opIndex(shape, 'g', `col${q}`, A)} - aOff`, `a${q}`, arithmetic);
    const rx = f.emitRead('X', `col${q}`, `x${q}`, arithmetic);
    // Columns past n (the padding of the last block) contribute nothing (their reads are clamped in bounds).
    body.push(`const col${q} = k0 + l + ${q};`, ra.code, rx.code);
    uses.push(`if (col${q} < n) {`, arithmetic.mulAdd(`s${q % 4}`, ra.register, rx.register), '}');
  }
  body.push(...uses, '}');
  body.push(arithmetic.add('s0', arithmetic.register('s1')), arithmetic.add('s2', arithmetic.register('s3')), arithmetic.add('s0', arithmetic.register('s2')));
  const rr = f.emitRead('R', 'g', 'r', arithmetic);
  body.push(rr.code, arithmetic.declareSub('u', rr.register, arithmetic.register('s0')));
  // Rows past n stay zero, so padding never feeds NaN into a block solve.
  body.push(`if (g >= n) { u = ${zero}; }`, `return ${arithmetic.returnValue('u')};`);
  return { source: kernelSource(args, body), args };
}

function validate(args: GpuTrsvArgs, options: GpuTrsvOptions, rounding?: StoreRounding): Shape {
  const { A, x } = args;
  if (!A || typeof A !== 'object' || !(A.data instanceof DeviceArray)) fail('INVALID_STORAGE', 'A', 'must be a DeviceMatrix (see deviceMatrix)', A);
  // A view was checked against its span when made (deviceMatrixView); a plain array is checked here.
  if (!A.data.isView) deviceMatrix(A.data, A.rows, A.cols, A.ld);
  if (A.rows !== A.cols) fail('DIMENSION_MISMATCH', 'A', `must be square, got ${A.rows}×${A.cols}`);
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  if (x.length !== A.rows) fail('DIMENSION_MISMATCH', 'x', `must have length ${A.rows}`, x.length);
  if (!x.format.writable && !(rounding && storesScaled(x))) fail('INVALID_FORMAT', 'x', 'must be stored in a format kernels write on the GPU (f32, f16, bf16, f64, ff)', x.format.name);
  // A may exceed one storage binding (read through windows of whole columns); x is read whole.
  if (A.data.format.scaled) checkOperandBinding('A', A.data);
  checkScaleBinding('A', A.data);
  // x is solved through a packed array of its length (its work arrays; a view's twin where it is not solved in place:
  // solvesInPlace), which must fit one binding.
  checkOutputBinding('x', x, false);
  const uplo = args.uplo ?? 'U';
  const trans = args.trans ?? 'N';
  const diag = args.diag ?? 'N';
  if (uplo !== 'L' && uplo !== 'U') fail('INVALID_OPTION', 'uplo', "must be 'L' or 'U'", uplo);
  if (trans !== 'N' && trans !== 'T') fail('INVALID_OPTION', 'trans', "must be 'N' or 'T'", trans);
  if (diag !== 'N' && diag !== 'U') fail('INVALID_OPTION', 'diag', "must be 'N' or 'U'", diag);
  // trsv's own check with backend 'gpu' (INVALID_OPTION for any other value, null included): a NaN or a string was
  // INVALID_SIZE here, and null ran with the default.
  const bs = trsvBlockSize(options, 'gpu')!;
  const n = A.rows;
  const blocks = Math.ceil(n / bs);
  return { n, bs, blocks, np: Math.max(bs, blocks * bs), lowerOp: (uplo === 'L') === (trans === 'N'), trans: trans === 'T', unit: diag === 'U' };
}

/** `shape` with blocks of `bs` rows. */
function withBlockSize(shape: Shape, bs: number): Shape {
  const blocks = Math.ceil(shape.n / bs);
  return { ...shape, bs, blocks, np: Math.max(bs, blocks * bs) };
}

/** A binding of A: the whole matrix, or a window of whole columns starting aOff elements in. */
interface AWindow {
  readonly bound: BoundArray;
  readonly aOff: number;
}

/**
 * Columns of A one binding holds (with slack for aligning a window's start down to 128 elements), or
 * Infinity when A fits one binding.
 */
function columnsPerBinding(runtime: GpuRuntime, A: DeviceMatrix): number {
  const limit = bindingLimit(runtime);
  if (A.data.words * 4 <= limit) return Infinity;
  // A matrix view binds the part of its span a window's columns cover (columnRegion).
  if (A.data.isView) return columnsPerRegion(A, limit);
  const wpe = wordsPerElement(A.data);
  return Math.floor((limit - 128 * 4 * Math.max(1, wpe)) / (4 * wpe * A.ld));
}

/** The binding of columns [c0, c1) of A (the whole matrix when it fits one binding). */
function columnWindow(A: DeviceMatrix, perBinding: number, c0: number, c1: number): AWindow {
  if (perBinding === Infinity) return { bound: { buffer: A.data.buffer! }, aOff: 0 };
  if (A.data.isView) {
    const region = columnRegion(A, c0, c1);
    return { bound: region.bound, aOff: region.start };
  }
  // From a 256-byte boundary (8-bit elements: 256 of them).
  const step = Math.max(128, Math.ceil(64 / wordsPerElement(A.data)));
  const start = Math.floor((c0 * A.ld) / step) * step;
  const count = Math.min(A.data.length, c1 * A.ld) - start;
  return { bound: windowOf(A.data, { start, count }), aOff: start };
}

/**
 * The update passes of block k: rows [rowStart, rowEnd) of op(A) split so that the columns of A each
 * reads fit one binding (op(A) = A reads block column k; op(A) = Aᵀ reads A's columns = the updated rows,
 * split into runs of a multiple of 64 rows).
 */
function updateRanges(shape: Shape, A: DeviceMatrix, perBinding: number, k0: number): { rowStart: number; rowEnd: number; window: AWindow }[] {
  const rowStart = shape.lowerOp ? k0 + shape.bs : 0;
  const rowEnd = shape.lowerOp ? shape.np : k0;
  if (rowEnd <= rowStart) return [];
  if (!shape.trans) return [{ rowStart, rowEnd, window: columnWindow(A, perBinding, k0, Math.min(k0 + shape.bs, shape.n)) }];
  const step = perBinding === Infinity ? rowEnd - rowStart : Math.floor(perBinding / 64) * 64;
  const ranges = [];
  for (let a = rowStart; a < rowEnd; a += step) {
    const b = Math.min(rowEnd, a + step);
    ranges.push({ rowStart: a, rowEnd: b, window: columnWindow(A, perBinding, Math.min(a, shape.n - 1), Math.min(b, shape.n)) });
  }
  return ranges;
}

/** Passes of the substitution redo: one with A in one binding, else a check and one per window of A's columns. */
function redoPassCount(shape: Shape, perBinding: number): number {
  return perBinding === Infinity ? 1 : 1 + Math.ceil(shape.n / perBinding);
}

/** Blocks per inverse pass: all, or as many block columns as one binding holds. */
function blocksPerBinding(shape: Shape, perBinding: number): number {
  return perBinding === Infinity ? shape.blocks : Math.floor(perBinding / shape.bs);
}

/** The plan of A's block inverses: its inversion passes (built once), and what it last ran on. */
type InversePlan = Plan & {
  inversion?: Promise<{ pass: Pass; cache: PassCache }[]>;
  /** A's version the inverses hold. */
  version?: number;
  /** Counts the inversions run into this plan's buffer: a copy of the inverses made from an older one is stale. */
  generation?: number;
};

/**
 * The inverses of op(A)'s diagonal blocks for A's current contents, queued before anything the caller submits next.
 * Keyed by the buffers A binds, not by its contents: an A refilled in place (a range's upload kept across calls, an
 * in-place write) has them computed again by the same passes into the same buffers (issue 19, item 5) — the same
 * passes a fresh plan would run, so the same bits, non-finite inverses (a zero pivot) included. The check of A's
 * version and the inversion's submit follow each other with no await between: calls in flight together on one A
 * queue it once, before any of their solves.
 */
async function blockInverses(runtime: GpuRuntime, A: DeviceMatrix, shape: Shape, arithmetic: GpuArithmetic, perBinding: number, groupBlocks: number): Promise<{ inv: GpuBuffer; invKey: string; generation: number }> {
  const context = runtime.context;
  const { n, bs, blocks, np } = shape;
  const c = arithmetic.components;
  const groups = Math.ceil(blocks / groupBlocks);
  const invKey = `trsv-inv|${objectId(A.data)}|${bindingsKey(A.data)}|${A.data.offset}|${A.data.stride}|${n}|${A.ld}|${bs}|${shape.lowerOp}|${shape.trans}|${shape.unit}|${arithmetic.name}|${groupBlocks}`;
  const invPlan = getPlan(runtime, invKey, bs * groups, () => [createWordBuffer(context, bs * np * c), createWordBuffer(context, np * c)]) as InversePlan;
  const [inv, rowScratch] = invPlan.scratch as [GpuBuffer, GpuBuffer];
  invPlan.inversion ??= (async () => {
    const spec = inverseRowSource(arithmetic, A.data, shape);
    const program = await getProgram(context, { source: spec.source, args: spec.args, components: c });
    const passes: { pass: Pass; cache: PassCache }[] = [];
    for (let step = 0; step < bs; step++) {
      const j = shape.lowerOp ? step : bs - 1 - step;
      for (let g = 0; g < groups; g++) {
        // Group g: blocks [g·groupBlocks, …), i.e. threads t0 … t0 + count − 1 and the same columns of A.
        const t0 = g * groupBlocks * bs;
        const count = Math.min(np, (g + 1) * groupBlocks * bs) - t0;
        const w = columnWindow(A, perBinding, t0, Math.min(n, t0 + count));
        const arrays: Record<string, BoundArray> = { Inv: { buffer: inv } };
        const scalars: Record<string, number> = { n, lda: A.ld, bs, np, j, t0, aOff: w.aOff };
        bindArray('A', A.data, arrays, scalars);
        moveScaleBase('A', A.data, w.aOff, scalars);
        arrays.A = w.bound;
        passes.push({ pass: { program, arrays, scalars, output: { buffer: inv, offset: (j * np + t0) * 4 * c, size: count * 4 * c }, threads: count }, cache: invPlan.passes[step * groups + g]! });
      }
    }
    return passes;
  })();
  let passes;
  try {
    passes = await invPlan.inversion;
  } catch (e) {
    invPlan.inversion = undefined;
    throw e;
  }
  if (invPlan.version !== A.data.version) {
    invPlan.version = A.data.version;
    invPlan.generation = (invPlan.generation ?? 0) + 1;
    // A pass may not read and write one buffer: rows are written through a window and read whole,
    // which WebGPU also forbids in one pass, so each row goes through a scratch copy.
    encodeInverse(runtime, passes, inv, rowScratch);
  }
  return { inv, invKey, generation: invPlan.generation! };
}

async function trsvOnDevice(runtime: GpuRuntime, args: GpuTrsvArgs, shape: Shape, arithmetic: GpuArithmetic, rounding?: StoreRounding): Promise<void> {
  const { A, x } = args;
  const context = runtime.context;
  const { n, bs, blocks, np } = shape;
  const c = arithmetic.components;
  // Inverses of the diagonal blocks: a plan per matrix binding and variant, run again for new contents.
  const perBinding = columnsPerBinding(runtime, A);
  const groupBlocks = blocksPerBinding(shape, perBinding);
  if (groupBlocks < 1 || (shape.trans && perBinding < 64)) {
    throw new ModprecError('BACKEND_LIMIT', `invalid argument: A needs ${Math.max(bs, 64)} columns of ${A.ld} elements per storage binding, over this adapter's maxStorageBufferBindingSize of ${bindingLimit(runtime)} bytes`, 'maxStorageBufferBindingSize');
  }
  // Rounding x to its storage between rows, as the CPU's store and read-back of each x_j: a scaled integer x (f32 and ff
  // arithmetic), or an unscaled storage that rounds the arithmetic's values (storageRoundTrip: fp16, bf16; binary32
  // under ff or dd; f64 under dd). The substitution (one workgroup; over split bindings one pass per window of A) does it and gives
  // every row of x, so such a solve is the substitution alone: no block inverses, no blocked solve.
  const rounds = rounding !== undefined && arithmetic.components <= 2;
  // Double-double with the lanes switch: the lane-split blocked passes, and an f64 x kept in the register between rows
  // (rounded once at the end; trsvBound's block-inverse bound) instead of the one-workgroup substitution.
  const lanes = ddLanes(arithmetic);
  const roundTrip = substitutionHolds(arithmetic) ? storageRoundTrip(x, arithmetic) : undefined;
  const storage = lanes && roundTrip === 'f64' ? undefined : roundTrip;
  const substitutes = rounds || storage !== undefined;
  const { inv, invKey, generation } = substitutes
    ? { inv: undefined, invKey: `trsv-sub|${objectId(A.data)}|${bindingsKey(A.data)}|${A.data.offset}|${A.data.stride}|${n}|${A.ld}|${shape.lowerOp}|${shape.trans}|${shape.unit}|${arithmetic.name}|${perBinding}`, generation: 0 }
    : await (async () => {
      // The block inverses are bound whole (not windowed): bs·np registers of the arithmetic.
      checkBinding(runtime, bs * np * c, `the inverted ${bs}×${bs} diagonal blocks of A (${np} rows in ${arithmetic.name} arithmetic)`);
      return blockInverses(runtime, A, shape, arithmetic, perBinding, groupBlocks);
    })();
  // MODPREC_TRSV_ONE_DISPATCH=0 keeps the blocked solve (tests compare it with its own split-binding runs).
  if (inv && !storesScaled(x) && perBinding === Infinity && bs === TRSV_TILE && walkerHolds(arithmetic, A.data) && tuning('MODPREC_TRSV_ONE_DISPATCH', 1) !== 0) {
    await walkerSolve(runtime, args, shape, arithmetic, inv, invKey, generation);
    return;
  }
  // A gathered b and the final pass's windows depend on the binding limit (tests lower it): plans keep to one.
  const gathered = readsGatheredB(runtime, x);
  const key = `trsv|${invKey}|${objectId(x)}|${rounds ? 'rounds' : ''}|${gathered ? bindingLimit(runtime) : 0}|${lanes ? 'lanes' : ''}${ddLanesFused(arithmetic, perBinding) ? '|fused' : ''}|${ddOverlap(arithmetic, perBinding)}|${overlapFarLanes()}|${overlapSplit()}|${ddWindow(arithmetic, A.data, bs)?.variant.name ?? ''}`;
  const updates = updatesOf(shape, A, perBinding);
  // More passes and their unused output: the substitution redo where the result is not finite (one pass, or a
  // check and one per window of A: ./trsv-split-redo-source.ts); x's words keep one more for the redo's verdict.
  const plan = getPlan(runtime, key, 2 + blocks + updates + redoPassCount(shape, perBinding), () => [createWordBuffer(context, np * c), createWordBuffer(context, np * c), createWordBuffer(context, np * c + 1 + (ddWindow(arithmetic, A.data, bs) ? ddCopyWords(np) : 0)), swapsBuffer(x) ? createSpanBuffer(runtime, x) : createWordBuffer(context, 1), createWordBuffer(context, (lanes ? Math.max(REDO_WORKGROUP, np * LANES, ddOverlap(arithmetic, perBinding) === 0 ? 0 : bs * ddOverlap(arithmetic, perBinding) + np * overlapFarLanes()) : REDO_WORKGROUP) * c), gatherBuffer(runtime, x)]);
  const b = await rightHandSide(runtime, x, plan.scratch[5]!);
  if (rounds) {
    // The scales belong to this call: its pass list is built for it and not kept.
    const scales = createWordBuffer(context, 2 * n, new Uint32Array(rounding.scales.buffer, rounding.scales.byteOffset, 2 * n));
    const out = plan.scratch[3]!;
    try {
      submitPasses(context, await buildSolvePasses(runtime, args, b, shape, arithmetic, perBinding, plan.passes, plan.scratch, inv, out, { scales: { buffer: scales }, qtop: rounding.qtop, float: rounding.float }));
    } finally {
      void context.device.queue.onSubmittedWorkDone().then(() => scales.destroy());
    }
    plan.scratch[3] = x.buffer!;
    x.buffer = out;
    x.version++;
    return;
  }
  const out = plan.scratch[3]!;
  // The pass list depends only on the plan and on which buffer x currently has (it alternates with
  // `out`), so it is built once per state and replayed.
  const built = plan as typeof plan & { lists?: Map<unknown, { pass: Pass; cache?: PassCache }[]>; inv?: GpuBuffer };
  const lists = built.lists ??= new Map();
  // Lists bound to other inverses (their plan dropped and made again) are built again.
  if (built.inv !== inv) {
    lists.clear();
    built.inv = inv;
  }
  const state = listKey(x, out);
  let passes = lists.get(state);
  if (!passes) {
    passes = await buildSolvePasses(runtime, args, b, shape, arithmetic, perBinding, plan.passes, plan.scratch, inv, out, undefined, storage);
    rememberList(lists, state, passes);
  }
  submitPasses(context, passes);
  swapIn(plan.scratch, 3, x, out);
}

/** Update passes of a blocked solve, over all blocks ({@link updateRanges}). */
function updatesOf(shape: Shape, A: DeviceMatrix, perBinding: number): number {
  let updates = 0;
  for (let k = 0; k < shape.blocks; k++) updates += updateRanges(shape, A, perBinding, k * shape.bs).length;
  return updates;
}

/**
 * Whether a blocked solve in this arithmetic takes the lane-split passes (./trsv-lanes-source.ts): double-double
 * arithmetic with the `ddLanes` switch on.
 */
function ddLanes(arithmetic: GpuArithmetic): boolean {
  return arithmetic.components === 4 && trsvKernelSwitches().ddLanes;
}

/** Whether the lane-split solve takes one fused dispatch a block (`ddLanesFused`; A in one binding). */
function ddLanesFused(arithmetic: GpuArithmetic, perBinding: number): boolean {
  return ddLanes(arithmetic) && trsvKernelSwitches().ddLanesFused && perBinding === Infinity;
}

/**
 * The lanes a row of the overlapped lane solve's near update and block solve (`ddOverlapLanes`; A in one binding), or 0
 * where it does not run.
 */
function ddOverlap(arithmetic: GpuArithmetic, perBinding: number): number {
  // setTrsvKernelSwitches and the environment admit only the lane counts of OVERLAP_LANE_WIDTHS (or 0).
  const W = trsvKernelSwitches().ddOverlapLanes;
  return ddLanes(arithmetic) && perBinding === Infinity && OVERLAP_LANE_WIDTHS.includes(W) ? W : 0;
}

/**
 * The overlapped lane solve's update terms in GEMV's window (`ddTrsvWindow`; ./trsv-window-update-source.ts, A read as dd
 * or f64), or undefined for the fused multiply-adds.
 */
function ddWindow(arithmetic: GpuArithmetic, A: DeviceArray, bs: number): WindowTerms | undefined {
  return trsvKernelSwitches().ddTrsvWindow ? windowTermsOf(arithmetic, A, bs) : undefined;
}

/** The lanes a row of the overlapped lane solve's far update (`ddOverlapFarLanes`: 16, 32, 64, 128 or 256). */
function overlapFarLanes(): number {
  const F = trsvKernelSwitches().ddOverlapFarLanes;
  return OVERLAP_LANE_WIDTHS.includes(F) ? F : LANES;
}

/** The percentage of a step's far rows the overlapped lane solve updates beside the near update (`MODPREC_TRSV_DD_OVERLAP_SPLIT`, default 50). */
function overlapSplit(): number {
  return Math.min(100, tuning('MODPREC_TRSV_DD_OVERLAP_SPLIT', 50));
}

/**
 * The passes of the overlapped lane solve (./trsv-lanes-overlap-source.ts), appended to `passes`: block 0 (in
 * substitution order) solved alone, then per block k two dispatches — the near update of its rows by x_p (p the block
 * before it), then its solve — each beside part of the far update by x_p of the rows after block k: the first
 * `MODPREC_TRSV_DD_OVERLAP_SPLIT` percent of those rows (default 50, in multiples of 16 rows: whole far workgroups for
 * any `ddOverlapFarLanes`) beside the near update,
 * the rest beside the solve. Every row's sum is the same wherever it runs (the same bits for any split). As many passes
 * as the lane solve's 2·blocks − 1 with A in one binding.
 */
async function overlapSolvePasses(runtime: GpuRuntime, args: GpuTrsvArgs, shape: Shape, arithmetic: GpuArithmetic, W: number, caches: PassCache[], r: GpuBuffer, inv: GpuBuffer, xw: GpuBuffer, unused: GpuBuffer, passes: { pass: Pass; cache?: PassCache }[]): Promise<void> {
  const { A } = args;
  const context = runtime.context;
  const { n, bs, blocks, np } = shape;
  const c = arithmetic.components;
  const F = overlapFarLanes();
  const window = ddWindow(arithmetic, A.data, bs);
  const variant = `${arithmetic.name}|${readKey(A.data)}|${A.data.isView}|${shape.lowerOp}|${shape.trans}|${W}|${F}|${window ? `window${bs}|${window.variant.name}` : ''}`;
  const program = async (head: 'solve' | 'near'): Promise<Pass['program']> => {
    const spec = memo(`trsvO${head}|${variant}`, () => headFarSource(arithmetic, A.data, shape, W, head, F, window));
    return getProgram(context, { source: spec.source, args: spec.args, components: c, workgroup: spec.workgroup });
  };
  const pNear = blocks > 1 ? await program('near') : undefined;
  const pSolve = await program('solve');
  const split = overlapSplit();
  // Workgroups of a block's head (256/W rows each).
  const headGroups = (bs * W) / LANE_WORKGROUP;
  const first = passes.length;
  const dispatch = (prog: Pass['program'], arrays: Record<string, BoundArray>, scalars: Record<string, number>, rows: number): void => {
    bindArray('A', A.data, arrays, scalars);
    moveScaleBase('A', A.data, 0, scalars);
    arrays.A = { buffer: A.data.buffer! };
    passes.push({ pass: { program: prog, arrays, scalars, output: { buffer: unused }, threads: headGroups * LANE_WORKGROUP + rows * F }, cache: caches[passes.length - first]! });
  };
  for (let step = 0; step < blocks; step++) {
    const k0 = (shape.lowerOp ? step : blocks - 1 - step) * bs;
    const p0 = shape.lowerOp ? k0 - bs : k0 + bs;
    // The rows after block k: [k0 + bs, np) (lower) or [0, k0) (upper), none far-updated at the first step; the near
    // dispatch takes the first `split` percent of them.
    const [rowStart, rowEnd] = step === 0 ? [0, 0] : shape.lowerOp ? [k0 + bs, np] : [0, k0];
    const mid = rowStart + Math.round(((rowEnd - rowStart) * split) / 100 / LANES) * LANES;
    const scalars = (from: number): Record<string, number> => ({ n, np, lda: A.ld, rowStart: from, p0, k0, bs, headGroups, aOff: 0 });
    if (step > 0) dispatch(pNear!, { RAtomic: { buffer: r }, XAtomic: { buffer: xw } }, scalars(rowStart), mid - rowStart);
    dispatch(pSolve, { Inv: { buffer: inv }, RAtomic: { buffer: r }, XAtomic: { buffer: xw } }, scalars(mid), rowEnd - mid);
  }
}

/**
 * The block solves and updates of the lane-split blocked solve (./trsv-lanes-source.ts), appended to `passes`: per
 * block in substitution order x_k = Inv_k·r_k into `xw` (bs/16 workgroups), then r_i −= op(A)_ik·x_k in place in `r`
 * for the rows still to solve (16 rows a workgroup; over split bindings one pass per window, as the one-thread
 * passes). `caches` holds one cache per pass; `unused` takes the passes' unused outputs.
 */
async function laneSolvePasses(runtime: GpuRuntime, args: GpuTrsvArgs, shape: Shape, arithmetic: GpuArithmetic, perBinding: number, caches: PassCache[], r: GpuBuffer, inv: GpuBuffer, xw: GpuBuffer, unused: GpuBuffer, passes: { pass: Pass; cache?: PassCache }[]): Promise<void> {
  const W = ddOverlap(arithmetic, perBinding);
  if (W !== 0) return overlapSolvePasses(runtime, args, shape, arithmetic, W, caches, r, inv, xw, unused, passes);
  const { A } = args;
  const context = runtime.context;
  const { n, bs, blocks, np } = shape;
  const c = arithmetic.components;
  const solve = memo(`trsvLS|${arithmetic.name}`, () => laneSolveSource(arithmetic));
  const pSolve = await getProgram(context, { source: solve.source, args: solve.args, components: c, workgroup: solve.workgroup });
  const update = memo(`trsvLU|${arithmetic.name}|${readKey(A.data)}|${A.data.isView}|${shape.lowerOp}|${shape.trans}`, () => laneUpdateSource(arithmetic, A.data, shape));
  const pUpdate = await getProgram(context, { source: update.source, args: update.args, components: c, workgroup: update.workgroup });
  let slot = 0;
  if (ddLanesFused(arithmetic, perBinding)) {
    // Block 0 (in substitution order) alone, then per block one dispatch: x_{k−1}'s update fused with block k's solve.
    const fused = memo(`trsvLF|${arithmetic.name}|${readKey(A.data)}|${A.data.isView}|${shape.lowerOp}|${shape.trans}|${bs}`, () => laneFusedSource(arithmetic, A.data, shape, bs));
    const pFused = await getProgram(context, { source: fused.source, args: fused.args, components: c, workgroup: fused.workgroup });
    for (let step = 0; step < blocks; step++) {
      const k0 = (shape.lowerOp ? step : blocks - 1 - step) * bs;
      if (step === 0) {
        passes.push({ pass: { program: pSolve, arrays: { Inv: { buffer: inv }, R: { buffer: r }, XAtomic: { buffer: xw } }, scalars: { np, k0, bs }, output: { buffer: unused }, threads: bs * LANES }, cache: caches[slot++]! });
        continue;
      }
      const p0 = shape.lowerOp ? k0 - bs : k0 + bs;
      // The rows after block k: [k0 + bs, np) (lower) or [0, k0) (upper).
      const [rowStart, rowEnd] = shape.lowerOp ? [k0 + bs, np] : [0, k0];
      const arrays: Record<string, BoundArray> = { Inv: { buffer: inv }, RAtomic: { buffer: r }, XAtomic: { buffer: xw } };
      const scalars: Record<string, number> = { n, np, lda: A.ld, rowStart, p0, k0, aOff: 0 };
      bindArray('A', A.data, arrays, scalars);
      moveScaleBase('A', A.data, 0, scalars);
      arrays.A = { buffer: A.data.buffer! };
      passes.push({ pass: { program: pFused, arrays, scalars, output: { buffer: unused }, threads: (bs + rowEnd - rowStart) * LANES }, cache: caches[slot++]! });
    }
    return;
  }
  for (let step = 0; step < blocks; step++) {
    const k0 = (shape.lowerOp ? step : blocks - 1 - step) * bs;
    passes.push({ pass: { program: pSolve, arrays: { Inv: { buffer: inv }, R: { buffer: r }, XAtomic: { buffer: xw } }, scalars: { np, k0, bs }, output: { buffer: unused }, threads: bs * LANES }, cache: caches[slot++]! });
    for (const { rowStart, rowEnd, window } of updateRanges(shape, A, perBinding, k0)) {
      const arrays: Record<string, BoundArray> = { RAtomic: { buffer: r }, X: { buffer: xw } };
      const scalars: Record<string, number> = { n, lda: A.ld, rowStart, k0, bs, aOff: window.aOff };
      bindArray('A', A.data, arrays, scalars);
      moveScaleBase('A', A.data, window.aOff, scalars);
      arrays.A = window.bound;
      passes.push({ pass: { program: pUpdate, arrays, scalars, output: { buffer: unused }, threads: (rowEnd - rowStart) * LANES }, cache: caches[slot++]! });
    }
  }
}

/**
 * The passes of one solve: b → r, per block a solve and an update (without `inv`: none, the substitution solves), the
 * substitution redo, x → its storage format (b: as {@link rightHandSide}). With `rounding` or `storage` the substitution
 * always runs and rounds each x_j to x's storage between rows.
 */
async function buildSolvePasses(runtime: GpuRuntime, args: GpuTrsvArgs, b: DeviceArray, shape: Shape, arithmetic: GpuArithmetic, perBinding: number, caches: PassCache[], scratch: GpuBuffer[], inv: GpuBuffer | undefined, out: GpuBuffer, rounding?: { scales: BoundArray; qtop: number; float?: 'f16' | 'bf16' }, storage?: RoundTripStorage): Promise<{ pass: Pass; cache?: PassCache }[]> {
  const { A, x } = args;
  const context = runtime.context;
  const { n, bs, blocks, np } = shape;
  const c = arithmetic.components;
  const work = arithmetic.words;
  const [r0, r1, xw] = scratch as [GpuBuffer, GpuBuffer, GpuBuffer];
  const passes: { pass: Pass; cache?: PassCache }[] = [];
  let slot = 0;
  let current = r0;
  let next = r1;
  if (inv) passes.push({ pass: await convertPass(runtime, b, work, r0), cache: caches[slot++]! });
  if (inv && ddLanes(arithmetic)) {
    await laneSolvePasses(runtime, args, shape, arithmetic, perBinding, caches.slice(slot, slot + blocks + updatesOf(shape, A, perBinding)), r0, inv, xw, scratch[4]!, passes);
    slot += blocks + updatesOf(shape, A, perBinding);
  }
  const solve = memo(`trsvS|${arithmetic.name}`, () => solveBlockSource(arithmetic));
  const pSolve = inv && !ddLanes(arithmetic) && await getProgram(context, { source: solve.source, args: solve.args, components: c });
  const update = memo(`trsvU|${arithmetic.name}|${readKey(A.data)}|${shape.trans}`, () => updateSource(arithmetic, A.data, shape));
  const pUpdate = inv && !ddLanes(arithmetic) && await getProgram(context, { source: update.source, args: update.args, components: c });
  for (let step = 0; inv && pSolve && pUpdate && step < blocks; step++) {
    const k = shape.lowerOp ? step : blocks - 1 - step;
    const k0 = k * bs;
    passes.push({
      pass: { program: pSolve, arrays: { Inv: { buffer: inv }, R: { buffer: current } }, scalars: { np, k0, bs }, output: { buffer: xw, offset: k0 * 4 * c, size: bs * 4 * c }, threads: bs },
      cache: caches[slot++]!,
    });
    const ranges = updateRanges(shape, A, perBinding, k0);
    for (const { rowStart, rowEnd, window } of ranges) {
      const arrays: Record<string, BoundArray> = { R: { buffer: current }, X: { buffer: xw } };
      const scalars: Record<string, number> = { n, lda: A.ld, rowStart, k0, bs, aOff: window.aOff };
      bindArray('A', A.data, arrays, scalars);
      moveScaleBase('A', A.data, window.aOff, scalars);
      arrays.A = window.bound;
      passes.push({ pass: { program: pUpdate, arrays, scalars, output: { buffer: next, offset: rowStart * 4 * c, size: (rowEnd - rowStart) * 4 * c }, threads: rowEnd - rowStart }, cache: caches[slot++]! });
    }
    // The rows the update did not touch are finished; only the updated ones are read from `next`.
    if (ranges.length > 0) [current, next] = [next, current];
  }
  // x is still b here (the solve writes `out`, or a view x last): the redo reads b from it.
  const variant = `${arithmetic.name}|${readKey(A.data)}|${readKey(b)}|${b.isView}|${storageOverflowBits(b)}|${shape.lowerOp}|${shape.trans}|${shape.unit}|${rounding ? rounding.float ?? 'integer' : ''}|${storage ?? ''}`;
  if (substitutionHolds(arithmetic) && perBinding === Infinity) {
    const redo = memo(`trsvR|${variant}`, () => substitutionRedoSource(arithmetic, A.data, b, shape, rounding && (rounding.float ?? 'integer'), storage));
    const program = await getProgram(context, { source: redo.source, args: redo.args, components: c, workgroup: redo.workgroup });
    const { arrays, scalars } = substitutionRedoBindings(A.data, b, { buffer: xw }, n, A.ld, rounding);
    passes.push({ pass: { program, arrays, scalars, output: { buffer: scratch[4]! }, threads: REDO_WORKGROUP }, cache: caches[slot++]! });
  } else if (substitutionHolds(arithmetic)) {
    const check = memo(`trsvRC|${variant}`, () => splitRedoCheckSource(arithmetic, b, shape, rounding !== undefined || storage !== undefined));
    const pCheck = await getProgram(context, { source: check.source, args: check.args, components: c, workgroup: check.workgroup });
    const checkArrays: Record<string, BoundArray> = { XAtomic: { buffer: xw } };
    const checkScalars: Record<string, number> = { n, flagAt: np * c };
    bindArray('B', b, checkArrays, checkScalars);
    passes.push({ pass: { program: pCheck, arrays: checkArrays, scalars: checkScalars, output: { buffer: scratch[4]! }, threads: REDO_WORKGROUP }, cache: caches[slot++]! });
    const win = memo(`trsvRW|${variant}`, () => splitRedoWindowSource(arithmetic, A.data, b, shape, rounding && (rounding.float ?? 'integer'), storage));
    const pWindow = await getProgram(context, { source: win.source, args: win.args, components: c, workgroup: win.workgroup });
    for (let s0 = 0; s0 < n; s0 += perBinding) {
      const s1 = Math.min(n, s0 + perBinding);
      // Steps s0 … s1 − 1 solve (and, for op(A) = Aᵀ, own) columns [c0, c1) of A.
      const [c0, c1] = shape.lowerOp ? [s0, s1] : [n - s1, n - s0];
      const w = columnWindow(A, perBinding, c0, c1);
      const { arrays, scalars } = substitutionRedoBindings(A.data, b, { buffer: xw }, n, A.ld, rounding);
      moveScaleBase('A', A.data, w.aOff, scalars);
      arrays.A = w.bound;
      Object.assign(scalars, { aOff: w.aOff, s0, s1, rowLo: c0, rowHi: c1, flagAt: np * c });
      passes.push({ pass: { program: pWindow, arrays, scalars, output: { buffer: scratch[4]! }, threads: REDO_WORKGROUP }, cache: caches[slot++]! });
    }
  }
  // A scaled integer x in place: the CPU's scaled store of the solution into its span (the rounding solve's x_j are
  // already integers times their scales: the store gives those integers back).
  const solution = bufferView(runtime, xw, work, n);
  const last = storesScaled(x) ? await scaledStorePasses(x, solution, out) : rounding ? [await convertPass(runtime, solution, x.format, out)] : await finalPasses(runtime, solution, x, out);
  passes.push(...last.map((pass, k) => ({ pass, cache: k === 0 ? caches[slot]! : undefined })));
  return passes;
}

/**
 * Rounds for which a helper waits for one block of x before leaving its row block to the walker (one block of x
 * comes per walker step, a few µs on an H100/H200, ~10–30 rounds; 256 leaves a wide margin and keeps helpers
 * that cannot run beside the walker — llvmpipe — from spinning long; the 2026-11-26 device figures used 4096);
 * `MODPREC_TRSV_SPIN` overrides it (tests set 0: no helper ever publishes, the walker does every sum itself).
 */
function helperSpin(): number {
  return tuning('MODPREC_TRSV_SPIN', 256);
}

/**
 * A tuning knob of the one-dispatch solve from the environment (benchmarks and tests), else its default: read once,
 * again after rereadTuningKnobs (src/backends/webgpu/tuning-knobs.ts).
 */
function tuning(name: string, fallback: number): number {
  return tuningKnob(name, fallback);
}

/**
 * Pass lists a plan keeps, one per state of x ({@link listKey}). Every kernel that writes x swaps its buffer with its
 * own plan's spare, so x cycles through one buffer more than the kernels writing it (TRSV alone: 2; an AXPY into x
 * before each solve: 3): with room for 2 the lists were rebuilt on every call of such a loop (issue 19, item 5).
 */
const KEPT_LISTS = 6;

/**
 * What a plan's pass list binds that changes between calls: x's buffer on entry (read) and the plan's spare (written,
 * then x's). Both, not x's buffer alone: x alternating between two plans' solves (two matrices, two arithmetics — a
 * range's upload kept across calls meets every TRSV plan of its shape) comes back to a plan holding another spare
 * than the list's — which then wrote the solution where x did not look, and x kept an older value.
 */
function listKey(x: DeviceArray, out: GpuBuffer): string {
  return `${objectId(x.buffer!)}|${objectId(out)}`;
}

/** Keeps `passes` for the state `key` ({@link listKey}), dropping the least recently built list beyond {@link KEPT_LISTS}. */
function rememberList<T>(lists: Map<unknown, T>, key: unknown, passes: T): void {
  if (lists.size >= KEPT_LISTS) lists.delete(lists.keys().next().value);
  lists.set(key, passes);
}

/**
 * The solve in three dispatches (b → r, the walker/helper kernel of ./trsv-walker-source.ts, x → its storage) for
 * a matrix in one binding and 64-row blocks.
 */
async function walkerSolve(runtime: GpuRuntime, args: GpuTrsvArgs, shape: Shape, arithmetic: GpuArithmetic, inv: GpuBuffer, invKey: string, generation: number): Promise<void> {
  const { A, x } = args;
  const context = runtime.context;
  const { n, blocks, np } = shape;
  const c = arithmetic.components;
  // Workgroups: the walker and a helper per row block from the third step on, rounded up to a power of two so
  // that each call's tickets start at a multiple of the count (the key of the published words).
  // D = MODPREC_TRSV_LEAD (default 1): the walker sums the last D blocks itself; pWait: its polls for a helper's sum.
  const lead = Math.max(1, tuning('MODPREC_TRSV_LEAD', 1));
  const groups = 2 ** Math.ceil(Math.log2(Math.max(1, blocks - lead)));
  const slots = TRSV_HEADER_WORDS / (2 * c);
  const chosen = trsvKernelSwitches();
  // A transposed solve on op(A)'s column-major copy (./trsv-transposed-copy.ts) is the N walker on that copy.
  const copy = chosen.transposedCopy && shape.trans ? await transposedCopy(runtime, A, shape, arithmetic, invKey, inv, generation) : undefined;
  const readA = copy ?? A.data;
  const lda = copy ? np : A.ld;
  const walkShape = copy ? { ...shape, trans: false } : shape;
  const rowLanes = chosen.rowLanes === 'transposed' ? walkShape.trans : chosen.rowLanes;
  // Quad rows only where the 16-byte reads hold (op(A) = Aᵀ, binary32 in a binding of its own, lda a multiple of 4).
  const forms = { ...chosen, rowLanes, quadRows: chosen.quadRows && rowLanes && quadRowsHold(readA, walkShape.trans, lda) };
  const formKey = [forms.columnInverse, forms.rowLanes, forms.lazyTiles, forms.earlyPoll, forms.ahead, forms.treeQuarters, forms.quadRows, copy !== undefined].map(Number).join('');
  // A gathered b and the final pass's windows depend on the binding limit (tests lower it): plans keep to one.
  const gathered = readsGatheredB(runtime, x);
  const key = `trsvW|${invKey}|${objectId(x)}|${lead}|${tuning('MODPREC_TRSV_CHAINS', 4)}|${formKey}|${gathered ? bindingLimit(runtime) : 0}`;
  const plan = getPlan(runtime, key, 3, () => [
    createWordBuffer(context, np * c),
    createWordBuffer(context, TRSV_HEADER_WORDS + 4 * np * c),
    createWordBuffer(context, np * c),
    createWordBuffer(context, groups * TRSV_WORKGROUP * c),
    // x's next buffer (a view solved in place needs none: one word stands in).
    x.coversSpan ? createSpanBuffer(runtime, x) : createWordBuffer(context, 1),
    gatherBuffer(runtime, x),
  ]);
  const [R, W, X, unused] = plan.scratch as [GpuBuffer, GpuBuffer, GpuBuffer, GpuBuffer];
  const b = await rightHandSide(runtime, x, plan.scratch[5]!);
  const out = plan.scratch[4]!;
  const work = arithmetic.words;
  const lists = (plan as typeof plan & { lists?: Map<unknown, { pass: Pass; cache?: PassCache }[]> }).lists ??= new Map();
  // The inverses' column copy is looked up on every call (its plan then stays recent and is not dropped while these
  // lists bind it); lists built before the knobs were re-read, or bound to other inverse buffers (a plan dropped and
  // made again), are built again.
  const invRead = forms.columnInverse ? await columnInverse(runtime, inv, invKey, np, arithmetic, generation) : inv;
  const built = plan as typeof plan & { knobs?: number; invRead?: GpuBuffer; aRead?: GpuBuffer };
  if (built.knobs !== tuningGeneration() || built.invRead !== invRead || built.aRead !== readA.buffer) {
    lists.clear();
    built.knobs = tuningGeneration();
    built.invRead = invRead;
    built.aRead = readA.buffer;
  }
  const state = listKey(x, out);
  let passes = lists.get(state);
  if (!passes) {
    const chains = tuning('MODPREC_TRSV_CHAINS', 4);
    const overflow = storageOverflowBits(x);
    const spec = memo(`trsvW|${arithmetic.name}|${readKey(readA)}|${walkShape.lowerOp}|${walkShape.trans}|${walkShape.unit}|${lead}|${chains}|${overflow}|${formKey}`, () => walkerSource(arithmetic, readA, walkShape, lead, chains, overflow, forms));
    const program = await getProgram(context, { source: spec.source, args: spec.args, components: c, workgroup: spec.workgroup });
    const arrays: Record<string, BoundArray> = { Inv: { buffer: invRead }, R: { buffer: R }, WAtomic: { buffer: W }, XAtomic: { buffer: X } };
    const scalars: Record<string, number> = { n, lda, np, blocks, gMask: groups - 1, spin: helperSpin(), pWait: tuning('MODPREC_TRSV_WAIT', 32), xBase: slots + np };
    bindArray('A', readA, arrays, scalars);
    // Quad rows read A through its vector view: the same binding.
    if (forms.quadRows) arrays.AQuad = arrays.A!;
    passes = [
      { pass: await convertPass(runtime, b, work, R), cache: plan.passes[0]! },
      { pass: { program, arrays, scalars, output: { buffer: unused }, threads: groups * TRSV_WORKGROUP }, cache: plan.passes[1]! },
      ...(await finalPasses(runtime, bufferView(runtime, X, work, n), x, out)).map((pass, k) => ({ pass, cache: k === 0 ? plan.passes[2]! : undefined })),
    ];
    rememberList(lists, state, passes);
  }
  submitPasses(context, passes);
  swapIn(plan.scratch, 4, x, out);
}

/**
 * The last passes of a solve: the solution (packed, in the arithmetic's words) into x's storage format — a view x in
 * place in its span (view-output.ts), in windows of its elements where its extent is over one binding; any other x into
 * `out`, which then replaces x's buffer ({@link swapIn}).
 */
async function finalPasses(runtime: GpuRuntime, solution: DeviceArray, x: DeviceArray, out: GpuBuffer): Promise<Pass[]> {
  if (x.coversSpan) return [await convertPass(runtime, solution, x.format, out)];
  if (outputWindow(x, { start: 0, count: x.length }, writesLanes(x)).bound.size <= bindingLimit(runtime)) return [await convertIntoViewPass(runtime, solution, x)];
  // Windows start on multiples of 128 elements (a word store's two elements stay together) and leave the slack of the
  // store's 256-byte-aligned binding; the solution is read from the window's first element.
  const passes: Pass[] = [];
  for (const w of bindingWindows([x], x.length)) passes.push(await convertIntoViewPass(runtime, deviceView(solution, w.start, w.count, 1), x, w));
  return passes;
}

/**
 * Whether the solve reads b from a packed copy of x's elements (their bits, gathered in windows before each solve:
 * view-output.ts, gatherView) instead of through the view: a view x whose span is over one binding — the first pass
 * and the substitution redo bind b whole (the redo reads any row in one workgroup). Same format, same bits: the same
 * values. The solution is still written into x's span in place (no twin, no scatter).
 */
function readsGatheredB(runtime: GpuRuntime, x: DeviceArray): boolean {
  return !x.coversSpan && x.buffer!.size > bindingLimit(runtime);
}

/** The plan's buffer for {@link rightHandSide}'s copy (a word where none is gathered). */
function gatherBuffer(runtime: GpuRuntime, x: DeviceArray): GpuBuffer {
  return createWordBuffer(runtime.context, readsGatheredB(runtime, x) ? Math.max(1, x.format.words(x.length)) : 1);
}

/**
 * Whether x is a view of a range-scaled i8 or i16 span (toDeviceScaledSpan) that a rounding solve writes in place: b read
 * through its scales, the solution stored by the scaled store's pass (src/backends/webgpu/scaled-store.ts) into a
 * buffer of the span's words that then becomes the span's ({@link swapsBuffer}).
 */
function storesScaled(x: DeviceArray): boolean {
  return x.rangeScale !== undefined && !x.format.writable && /^i(8|16)-words\*/.test(x.format.name);
}

/** Whether the solve's last pass writes a whole new buffer for x's storage (x covers its span, or {@link storesScaled}). */
function swapsBuffer(x: DeviceArray): boolean {
  return x.coversSpan || storesScaled(x);
}

/**
 * Whether {@link trsvRounding} solves the scaled integer view x in place ({@link storesScaled}): its span and scales
 * each fit one binding (b is read whole; the store pass windows itself, float-float pairs included). Else `backend: 'gpu'` solves a packed copy
 * in the arithmetic's words and stores it afterwards (the same bits).
 * @param x - the solve's x
 * @returns true where the in-place solve applies
 */
export function trsvStoresScaledInPlace(x: DeviceArray): boolean {
  if (!x.runtime || !storesScaled(x)) return false;
  const limit = bindingLimit(x.runtime);
  return x.buffer!.size <= limit && x.rangeScale!.buffer.size <= limit && storesViewInWindows(x, 2);
}

/** b as the solve reads it: x itself, or ({@link readsGatheredB}) its elements gathered now into `buffer`. */
async function rightHandSide(runtime: GpuRuntime, x: DeviceArray, buffer: GpuBuffer): Promise<DeviceArray> {
  if (!readsGatheredB(runtime, x)) return x;
  const b = bufferView(runtime, buffer, x.format, x.length);
  await gatherView(runtime, x, b);
  return b;
}

/** After the passes of {@link finalPasses}: a packed x takes `out` as its buffer (its old one becomes scratch[slot]). */
function swapIn(scratch: GpuBuffer[], slot: number, x: DeviceArray, out: GpuBuffer): void {
  if (swapsBuffer(x)) {
    scratch[slot] = x.buffer!;
    x.buffer = out;
  }
  x.version++;
}

/**
 * Whether TRSV solves the view x in place — reads b through the view (or a gathered copy of its elements:
 * {@link readsGatheredB}) and writes the solution into its elements of the span (in windows where its extent is over
 * one binding: {@link finalPasses}), with no packed twin: a view the strided or lane store writes (writesInPlace,
 * writesLanes: every view in a packed layout). Else through the twin, with the same bits.
 */
function solvesInPlace(x: DeviceArray): boolean {
  return !x.coversSpan && (writesInPlace(x) || writesLanes(x));
}

/**
 * The block inverses in column-major order (element (i, j) of block k at (64k + j)·64 + i), made from the row-major
 * ones and kept beside them: the one-dispatch solve's warps then read a column of a block's inverse at adjacent
 * addresses (the `columnInverse` switch of src/backends/webgpu/kernel-switches.ts). Made again by the same pass
 * whenever the inverses were ({@link blockInverses}' `generation`): the copy's check and submit have no await between
 * them, so it is queued after the inversion it copies and before the solve of every call that passed here.
 */
async function columnInverse(runtime: GpuRuntime, inv: GpuBuffer, invKey: string, np: number, arithmetic: GpuArithmetic, generation: number): Promise<GpuBuffer> {
  const context = runtime.context;
  const c = arithmetic.components;
  const plan = getPlan(runtime, `${invKey}|columns`, 1, () => [createWordBuffer(context, TRSV_TILE * np * c)]) as Plan & { copy?: Pass; copied?: { inv: GpuBuffer; generation: number } };
  const out = plan.scratch[0]!;
  // A copy pass bound to other inverses (their plan dropped and made again) is built again.
  if (plan.copy?.arrays.Inv!.buffer !== inv) {
    const spec = memo(`trsvIC|${arithmetic.name}`, () => columnInverseSource(arithmetic));
    const program = await getProgram(context, { source: spec.source, args: spec.args, components: c });
    plan.copy = { program, arrays: { Inv: { buffer: inv } }, scalars: { np }, output: { buffer: out }, threads: TRSV_TILE * np };
  }
  if (plan.copied?.inv !== inv || plan.copied.generation !== generation) {
    plan.copied = { inv, generation };
    submitPasses(context, [{ pass: plan.copy, cache: plan.passes[0]! }]);
  }
  return out;
}

/** Thread t writes element t of the column-major inverses: row t mod 64 of column ⌊t/64⌋ (of all blocks' columns). */
function columnInverseSource(arithmetic: GpuArithmetic): { source: string; args: [string, 'Array' | 'Integer'][] } {
  const args: [string, 'Array' | 'Integer'][] = [['Inv', 'Array'], ['np', 'Integer']];
  const rd = arithmetic.words.emitRead('Inv', `mpImod(t, ${TRSV_TILE}) * np + mpIdiv(t, ${TRSV_TILE})`, 'v', arithmetic);
  const body = ['const t = this.thread.x;', rd.code, arithmetic.declareZero('w'), arithmetic.assign('w', rd.register), `return ${arithmetic.returnValue('w')};`];
  return { source: kernelSource(args, body), args };
}

/** Runs the inverse passes, row by row through `scratch` (a pass cannot read what it writes); queue order puts them before the solve. */
function encodeInverse(runtime: GpuRuntime, passes: { pass: Pass; cache: PassCache }[], inv: GpuBuffer, scratch: GpuBuffer): void {
  const context = runtime.context;
  submitEncoded(context, (encoder) => {
    for (const { pass, cache } of passes) {
      const computePass = encoder.beginComputePass();
      pass.program.encode(context, computePass, { ...pass, output: { buffer: scratch } }, cache);
      computePass.end();
      encoder.copyBufferToBuffer(scratch, 0, inv, pass.output.offset!, pass.output.size!);
    }
  });
}

/**
 * What A's bindings are made of: its buffer, its scales' and its range scale's buffer and uniforms. A kernel writing A
 * gives it a new buffer (new passes); a refill keeps them (the same passes, run again).
 */
function bindingsKey(A: DeviceArray): string {
  const rs = A.rangeScale;
  return `${objectId(A.buffer!)}|${A.scales ? objectId(A.scales) : ''}|${rs ? `${objectId(rs.buffer)}${JSON.stringify(rs.scalars)}` : ''}`;
}

/**
 * Solves op(A)·x = b on the GPU (x holds b on entry and the solution on return), blocked and chained on
 * the device; on the CPU for host-resident operands. Where x's storage rounds the arithmetic's values (f16, bf16; f32
 * under ff or dd; f64 under dd), each x_j is rounded to it before later rows read it, as on the CPU: such a solve is a substitution
 * in one workgroup (docs/gpu.md, TRSV).
 *
 * @param args - A (square; column-major, or a matrix view: row-major, a sub-range), x (a strided view too), uplo, trans, diag
 * @param options - arithmetic (`f32` or `ff`), diagonal block size
 * @returns the run report
 * @throws {@link modprec!ModprecError} `DIMENSION_MISMATCH` for a non-square A or a wrong length of x;
 *   `INVALID_OPTION` for bad uplo/trans/diag/blockSize; `INVALID_FORMAT` when x's format cannot be written
 *   on the GPU; `INVALID_STORAGE` for non-resident or mixed operands
 * @example
 * ```ts
 * import { toDevice, deviceMatrix, gpuTrsv } from 'modprec/gpu';
 *
 * // L = [[2, 0], [1, 4]] column-major; x holds b = [2, 9]
 * const A = deviceMatrix(await toDevice([2, 1, 0, 4]), 2, 2);
 * const x = await toDevice([2, 9]);
 * await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'ff' });
 * await x.toHost(); // → Float64Array(2) [ 1, 2 ]
 * ```
 * @group GPU
 */
export async function gpuTrsv(args: GpuTrsvArgs, options: GpuTrsvOptions = {}): Promise<GpuRunInfo> {
  checkArgumentsObject(args, '{ A, x, uplo, trans, diag }');
  return trsvRounding(args, options);
}

/**
 * {@link gpuTrsv} whose x is finally stored in a scaled integer, f16 or bf16 storage (`backend: 'gpu'` TRSV with such an x): each
 * x_j is rounded to that storage before later rows read it, as the CPU's substitution stores x_j and reads it back —
 * so a row that saturates, or rounds, reaches the later rows as the CPU's does. In f32 and float-float arithmetic (the
 * substitution of ./trsv-substitution-source.ts: one workgroup, or one pass per window of a matrix split across
 * bindings); in double-double x stays in the arithmetic between rows and is rounded once at the end. An unscaled x
 * whose storage rounds the arithmetic's values (f16, bf16; f32 under ff or dd; f64 under dd unless the `ddLanes` switch is on) is
 * rounded between rows by every solve, with or without `rounding`.
 * @param args - as {@link gpuTrsv}'s
 * @param options - as {@link gpuTrsv}'s
 * @param rounding - x's storage: element i's fp64 scale, and the largest integer or the floating-point storage
 * @returns the run report
 */
export async function trsvRounding(args: GpuTrsvArgs, options: GpuTrsvOptions, rounding?: StoreRounding): Promise<GpuRunInfo> {
  // An x overlapping A is refused as the CPU refuses it (before the dd-split copies hide the sharing).
  refuseResidentOverlap('x', args?.x, [['A', matrixOverlapOperand(args?.A)]]);
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  // x is written in its blocks in place when packed; a view of a span goes through the packed twin and its scatter
  // (view-output.ts), which move interleaved pairs: through the interleaved copy.
  return throughInterleaved([fieldOf(fieldOf(args, 'A'), 'data'), fieldOf(args, 'x')], fieldOf(args, 'x'), (dd) => trsvRoundingOf(args && { ...withMapped(args, 'x', dd), A: withMapped(args.A, 'data', dd) }, options, rounding), false, (x) => x.coversSpan);
}

/** {@link trsvRounding} on operands in the kernels' layouts. */
async function trsvRoundingOf(args: GpuTrsvArgs, options: GpuTrsvOptions, rounding?: StoreRounding): Promise<GpuRunInfo> {
  checkResidentOptions(options, 'gpuTrsv');
  const validated = validate(args, options, rounding);
  const { A, x } = args;
  const arithmetic = chooseArithmetic(options, [A.data, x]);
  // Double-double's default blocks are bigger (defaultGpuTrsvBlockSize: fewer dispatches in a row).
  const shape = options.blockSize === undefined ? withBlockSize(validated, defaultGpuTrsvBlockSize(arithmetic.name === 'dd', validated.n)) : validated;
  const runtime = commonRuntime({ A: A.data, x }, ['A', 'x']);
  if (!runtime) {
    allowFallback(options, x.fallbackReason);
    await hostTrsv({ A, x, uplo: args.uplo ?? 'U', trans: shape.trans ? 'T' : 'N', diag: shape.unit ? 'U' : 'N' }, arithmetic);
    return runInfo(undefined, arithmetic, x.fallbackReason);
  }
  // A row-major view runs as the other uplo and trans on its transpose (the same op(A), element for element: the
  // same block inverses and sums, bit for bit), whose column windows are A's rows — whatever the binding limit.
  const transposed = readsTransposed(A);
  const run = transposed ? { ...args, A: transposedDeviceMatrix(A), uplo: args.uplo === 'L' ? 'U' as const : 'L' as const, trans: shape.trans ? 'N' as const : 'T' as const } : args;
  const kernelShape = transposed ? { ...shape, trans: !shape.trans } : shape;
  // x a view: solved in place (b read through the view, the solution stored into its elements: solvesInPlace), or on
  // its packed twin (holding b), whose elements then go into x's span. A scaled integer view (storesScaled) is solved
  // in place too: b read through its scales, the solution stored by the scaled store.
  if (shape.n === 0) return runInfo(runtime, arithmetic, '');
  if (rounding !== undefined && storesScaled(x)) {
    // Its store rounds f32 words and float-float pairs (dd's register words are no storage format: `backend: 'gpu'`
    // stores a dd solution after the solve instead).
    if (arithmetic.components > 2) fail('INVALID_OPTION', 'options.arithmetic', 'must be f32 or ff for a scaled integer x solved in place', arithmetic.name);
    if (!trsvStoresScaledInPlace(x)) throw new ModprecError('BACKEND_LIMIT', `invalid argument: x is a scaled integer view whose span or scales exceed this adapter's maxStorageBufferBindingSize of ${bindingLimit(runtime)} bytes`, 'maxStorageBufferBindingSize');
    await serialisedViewWrite(x, () => trsvOnDevice(runtime, run, kernelShape, arithmetic, rounding));
  } else if (rounding === undefined && solvesInPlace(x)) await serialisedViewWrite(x, () => trsvOnDevice(runtime, run, kernelShape, arithmetic));
  else await throughPackedOutput(runtime, x, true, (packed) => trsvOnDevice(runtime, { ...run, x: packed }, kernelShape, arithmetic, rounding));
  return runInfo(runtime, arithmetic, '');
}
