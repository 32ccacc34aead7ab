/**
 * ELL SpMV with operands over one storage binding: A's values and indices, the gathered x, or y (packed, or a view
 * written in place) larger than the adapter's `maxStorageBufferBindingSize`.
 *
 * Rows go in tiles (an even count each) whose y window, partial sums and a slot of A each fit one binding.
 * For a tile, a chain of passes carries each row's accumulator through a scratch buffer: pass j reads the sum the pass
 * before it left (exactly: one f32 word or one float-float pair), adds its entries with the same multiply-add as the
 * one-pass kernel, and writes it back; a last pass applies α and β and writes the tile's rows of y. A pass adds the
 * entries of a group of ELL slots (columns of the ELL layout) whose column index falls in a window of x. With x in one
 * binding a group holds as many slots as one binding of values and indices holds; with x in windows every group is one
 * slot and the windows of x go inside it. Either way each row's entries are added in slot order k = 0, 1, …, width − 1,
 * the order of the one-pass kernel, so the result has the same bits as the unsplit run.
 *
 * @module
 */
import { ModprecError } from '../../src/core/errors.js';
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { bindExtent, bindingLimit, bindingWindows, bindWindow, columnRegion, columnsPerRegion, createSpanBuffer, extentBytes, moveScaleBase, viewOf, windowOf, wordsPerElement, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { finishArgs, finishBody, finishProgramOptions, finishThreads, scalarBindings } from '../../src/backends/webgpu/finish-pass.js';
import { arrayArgs, bindArray, elementIndex, getPlan, kernelSource, memo, objectId, outputComponents, readKey } from '../../src/backends/webgpu/kernel-common.js';
import { getProgram, submitPasses, type ArgType, type BoundArray, type Pass, type PassCache } from '../../src/backends/webgpu/program.js';
import { aliasSnapshot, bindOldFromOutput, laneOutputOf, outputWindow, writesLanes } from '../../src/backends/webgpu/view-output.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import type { DeviceEll, GpuEllSpmvArgs } from './ell-spmv-webgpu.js';

/** A pass's rows and slots: rows [r0, r0 + rows), ELL slots [k0, k0 + count). */
interface Block {
  readonly r0: number;
  readonly rows: number;
  readonly k0: number;
  readonly count: number;
}

/**
 * Elements per step of a values or indices window's start: a 256-byte step of the values (at least 128, the windows'
 * granularity). Block-scaled values (i8, i16 of the resident API) start anywhere in a block: their scales bind from
 * the 64-scale (256-byte) boundary at or below the window's first block, and the read's scale offset says how far
 * (bindValues), so no window has to start a block.
 */
function alignment(array: DeviceArray): number {
  return Math.max(128, Math.ceil(64 / wordsPerElement(array)));
}

/**
 * Elements of A's values one binding holds: their words, and for block-scaled values their scales too — a run of n
 * elements reads ⌊(n − 1) / block⌋ + 2 scales at most, bound from up to 63 scales below its first and through the
 * scale of the last element of its last word (bindScales).
 */
function valueElements(A: DeviceEll, limit: number): number {
  const elements = Math.floor(limit / (4 * wordsPerElement(A.values)));
  return A.values.format.scaled ? Math.min(elements, A.values.scaleBlock * (Math.floor(limit / 4) - 66)) : elements;
}

/** Bytes of one binding of A's values such that their block scales (if any) fit one too (columnsPerRegion's limit). */
function valueLimit(A: DeviceEll, limit: number): number {
  return A.values.format.scaled ? Math.min(limit, Math.floor(valueElements(A, limit) * 4 * wordsPerElement(A.values))) : limit;
}

/** The values of A given as a matrix view, as a matrix (element (r, k): slot k of row r). */
export function valuesMatrix(A: DeviceEll): { data: DeviceArray; rows: number; ld: number } {
  return { data: A.values, rows: A.valuesRows ?? A.rows, ld: A.valuesLd! };
}

/**
 * Bytes of the one binding that holds all of A's values (the part of a matrix view's span the matrix covers; all the
 * words of block-scaled values, whose whole binding the one-pass kernel reads with their scales bound whole).
 */
function valueBytes(A: DeviceEll): number {
  if (A.valuesLd === undefined || A.width === 0 || A.values.format.scaled) return A.values.words * 4;
  return Math.min(A.values.words * 4, columnRegion(valuesMatrix(A), 0, A.width).bound.size);
}

/**
 * Whether A's values (a range-scaled matrix's scales, block-scaled values' scales included) and its indices each fit
 * one binding (then every pass binds them whole).
 */
export function ellFitsOneBinding(A: DeviceEll, limit: number): boolean {
  const scales = A.values.rangeScale?.buffer.size ?? (A.values.format.scaled ? A.values.scales!.size : 0);
  return valueBytes(A) <= limit && A.stride * A.width * 4 <= limit && scales <= limit;
}

/** Scales one binding of a range-scaled matrix's scales holds from the 32-scale (256-byte) boundary below its first. */
function scalesPerBinding(limit: number): number {
  return Math.floor(limit / 8) - 32;
}

/**
 * Where a range-scaled values matrix reads its scales (range-scale.ts): the scale index of span element p, and how
 * far it moves per row and per slot (an affine map on a row- or column-major range: scaleLayout refuses others).
 * `undefined` for values without per-element scales.
 */
function valueScales(A: DeviceEll): { q: (r: number, k: number) => number; perRow: number; perSlot: number } | undefined {
  const sc = A.values.rangeScale?.scalars;
  if (!sc || sc.Qm === undefined || A.valuesLd === undefined) return undefined;
  const [offset, rowStride] = A.values.isView ? [A.values.offset, A.values.stride] : [0, 1];
  const ld = A.valuesLd;
  const q = (r: number, k: number): number => {
    const d = offset + r * rowStride + k * ld - sc.Sb!;
    const a = Math.trunc(d / sc.Sm!);
    return sc.So! + a * sc.Qm! + Math.trunc((d - a * sc.Sm!) / sc.Sn!) * sc.Qn!;
  };
  return { q, perRow: Math.abs(q(1, 0) - q(0, 0)), perSlot: Math.abs(q(0, 1) - q(0, 0)) };
}

/** Whether x is read through windows: its extent (or a range-scaled x's scales) over one binding. */
export function ellWindowsX(x: DeviceArray, limit: number): boolean {
  return extentBytes(x) > limit || (x.rangeScale !== undefined && x.rangeScale.buffer.size > limit);
}

/** Bytes one binding of y takes per row of a tile, as the last pass binds it (in place: the view's stride in its span). */
function yBytesPerRow(y: DeviceArray, inPlace: boolean): number {
  const bytes = wordsPerElement(y) * 4;
  return inPlace ? bytes * Math.max(1, Math.abs(y.stride)) : bytes;
}

/** Whether y is bound whole by the one-pass kernel (its extent written in place, or its packed words). */
export function ellOutputFits(y: DeviceArray, inPlace: boolean, limit: number): boolean {
  const bytes = inPlace ? outputWindow(y, { start: 0, count: y.length }, writesLanes(y)).bound.size : y.words * 4;
  return bytes <= limit;
}

function limitError(what: string, limit: number): ModprecError {
  return new ModprecError('BACKEND_LIMIT', `invalid argument: ${what} per storage binding, over this adapter's maxStorageBufferBindingSize of ${limit} bytes`, 'maxStorageBufferBindingSize');
}

/**
 * Rows per tile: all rows, or a count whose y window (with 512 bytes of alignment slack), partial sums and (values over
 * one binding) one slot of values and indices each fit one binding — a multiple of the elements a word holds where the
 * last pass stores y a word at a time (a packed 16-bit y, or a view the word store takes), any count ≥ 1 otherwise.
 * One row always fits y: its window is one element from the 256-byte boundary below it, whatever y's stride.
 */
function tileRows(A: DeviceEll, y: DeviceArray, yOut: DeviceArray, inPlace: boolean, components: number, limit: number, valuesWhole: boolean): number {
  let most = Math.min(Math.floor(limit / (4 * components)), Math.max(1, Math.floor((limit - 512) / yBytesPerRow(y, inPlace))));
  if (!valuesWhole) {
    const step = alignment(A.values);
    // A window's first entry lies up to step − 1 entries above its binding's start.
    most = Math.min(most, Math.floor(limit / 4) - step);
    const elements = valueElements(A, limit) - step;
    const scales = valueScales(A);
    // One slot of the tile's rows reads (rows − 1)·perRow + 1 scales at most.
    if (scales && scales.perRow > 0) most = Math.min(most, Math.floor((scalesPerBinding(limit) - 1) / scales.perRow) + 1);
    if (A.valuesLd === undefined) most = Math.min(most, elements);
    else {
      // columnsPerRegion: (rows − 1)·|row stride| + 1 elements of a matrix view per column.
      const rowStride = A.values.isView ? Math.abs(A.values.stride) : 1;
      most = Math.min(most, Math.floor((elements - 1) / Math.max(1, rowStride)) + 1);
    }
  }
  if (most >= A.rows) return A.rows;
  // Stored a word at a time: each tile starts on a word.
  const unit = laneOutputOf(yOut) === false ? yOut.format.elementsPerWord : 1;
  const rows = most - (most % unit);
  if (rows < unit) throw limitError(`an ELL SpMV needs ${unit} row(s) of its partial sums and of one slot of A`, limit);
  return rows;
}

/** ELL slots one pass over `rows` rows reads with values and indices in windows. */
function slotsPerPass(A: DeviceEll, rows: number, limit: number): number {
  const step = alignment(A.values);
  const indices = Math.floor((Math.floor(limit / 4) - step - rows) / A.stride) + 1;
  if (A.valuesLd === undefined) {
    const values = Math.floor((valueElements(A, limit) - step - rows) / A.stride) + 1;
    return Math.max(1, Math.min(indices, values, A.width));
  }
  const scales = valueScales(A);
  // Slots whose scales, with the rows', fit a binding: (rows − 1)·perRow + (count − 1)·perSlot + 1 scales.
  const bySlots = scales && scales.perSlot > 0 ? Math.floor((scalesPerBinding(limit) - 1 - (rows - 1) * scales.perRow) / scales.perSlot) + 1 : A.width;
  return Math.max(1, Math.min(indices, columnsPerRegion({ data: A.values, rows, ld: A.valuesLd }, valueLimit(A, limit)), bySlots, A.width));
}

/**
 * Binds A's values and indices for block `b`: whole (`whole`: every index from the binding's start), or the windows its
 * entries cover (from 256-byte boundaries), with `off` / `VBase` moved to match (and block scales, bindScales).
 */
function bindValues(A: DeviceEll, b: Block, whole: boolean, limit: number, arrays: Record<string, BoundArray>, scalars: Record<string, number>): void {
  const first = b.k0 * A.stride + b.r0;
  const end = (b.k0 + b.count - 1) * A.stride + b.r0 + b.rows;
  const start = whole ? 0 : Math.floor(first / alignment(A.values)) * alignment(A.values);
  arrays.I = whole ? { buffer: A.colIndex! } : { buffer: A.colIndex!, offset: start * 4, size: (end - start) * 4 };
  scalars.off = first - start;
  let valuesStart = start;
  if (A.valuesLd === undefined) arrays.V = whole ? { buffer: A.values.buffer! } : windowOf(A.values, { start, count: end - start });
  else {
    const [offset, rowStride] = A.values.isView ? [A.values.offset, A.values.stride] : [0, 1];
    const rowsFrom = offset + b.r0 * rowStride;
    if (whole && A.values.words * 4 <= limit) {
      arrays.V = { buffer: A.values.buffer! };
      valuesStart = 0;
    } else {
      // The part of the span slots [k0, k0 + count) of rows [r0, r0 + rows) cover (all of them when whole).
      const tile = whole ? valuesMatrix(A) : { data: viewOf(A.values, { length: b.rows * A.width, offset: rowsFrom, stride: rowStride, alwaysView: true }), rows: b.rows, ld: A.valuesLd };
      const region = whole ? columnRegion(tile, 0, A.width) : columnRegion(tile, b.k0, b.k0 + b.count);
      arrays.V = region.bound;
      valuesStart = region.start;
    }
    Object.assign(scalars, { VBase: rowsFrom + b.k0 * A.valuesLd - valuesStart, VRow: rowStride, Vld: A.valuesLd });
  }
  if (A.values.format.scaled) bindScales(A.values, valuesStart, arrays.V!, arrays, scalars);
  if (A.values.rangeScale) {
    arrays.VRs = { buffer: A.values.rangeScale.buffer };
    for (const [suffix, v] of Object.entries(A.values.rangeScale.scalars)) scalars[`V${suffix}`] = v;
    const scales = whole ? undefined : valueScales(A);
    if (scales) {
      // The scales of the block's rows and slots: between its corners' (an affine map), bound from the 256-byte
      // boundary below the least, the scale offset moved to match.
      const corners = [[0, 0], [b.rows - 1, 0], [0, b.count - 1], [b.rows - 1, b.count - 1]].map(([r, k]) => scales.q(b.r0 + r!, b.k0 + k!));
      const base = Math.floor(Math.min(...corners) / 32) * 32;
      arrays.VRs = { buffer: A.values.rangeScale.buffer, offset: base * 8, size: (Math.max(...corners) - base + 1) * 8 };
      scalars.VSo = scalars.VSo! - base;
    }
    moveScaleBase('V', A.values, valuesStart, scalars);
  }
}

/**
 * The block scales of a binding of block-scaled values (`bound`, from span element `start`): span element e reads
 * scale ⌊e / block⌋, so the binding's element k reads ⌊(k + start) / block⌋. The scales bind from the 64-scale
 * (256-byte) boundary `s0` at or below ⌊start / block⌋ through the last element's, and the read's scale offset
 * `VScaleOff` = start − s0·block (≥ 0) makes ⌊(k + VScaleOff) / block⌋ the index in that binding — a window may start
 * anywhere in a block, and any block size fits (the values' scales bound whole: start 0, offset 0).
 */
function bindScales(values: DeviceArray, start: number, bound: BoundArray, arrays: Record<string, BoundArray>, scalars: Record<string, number>): void {
  const block = values.scaleBlock;
  scalars.VBlock = block;
  if (bound.offset === undefined && bound.size === undefined) {
    arrays.VScale = { buffer: values.scales! };
    scalars.VScaleOff = 0;
    return;
  }
  const s0 = Math.floor(Math.floor(start / block) / 64) * 64;
  // The binding's last element (its words may end inside a word past the span's last element).
  const last = Math.min(values.spanLength - 1, start + Math.floor(bound.size! / (4 * wordsPerElement(values))) - 1);
  const s1 = Math.min(Math.ceil(values.spanLength / block) - 1, Math.floor(last / block));
  arrays.VScale = { buffer: values.scales!, offset: s0 * 4, size: (s1 - s0 + 1) * 4 };
  scalars.VScaleOff = start - s0 * block;
}

/**
 * A link of the chain, thread per row of a tile: the row's sum so far (from P0; zero for the first link), plus the
 * entries of slots [0, K) of the block whose column lies in [c0, c1), x's window starting at column c0.
 */
function linkSource(arithmetic: GpuArithmetic, A: DeviceEll, x: DeviceArray, carries: boolean): { source: string; args: (readonly [string, ArgType])[] } {
  const matrix = A.valuesLd !== undefined;
  const scaled = A.values.format.scaled;
  const args = [['V', 'Array'] as const, ...A.values.format.readArgs('V'), ...(scaled ? [['VScaleOff', 'Integer'] as const] : []), ...(matrix ? (['VBase', 'VRow', 'Vld'] as const).map((n) => [n, 'Integer'] as const) : []),
    ['I', 'Array'] as const, ...arrayArgs('X', x), ...(carries ? [['P0', 'Array'] as const] : []),
    ...(['K', 'stride', 'off', 'rows', 'c0', 'c1'] as const).map((n) => [n, 'Integer'] as const)];
  const rv = A.values.format.emitRead('V', matrix ? 'VBase + r * VRow + k * Vld' : 'at', 'v', arithmetic, scaled ? 'VScaleOff' : undefined);
  const rx = x.format.emitRead('X', elementIndex('X', x, 'col - c0'), 'xv', arithmetic);
  const carry = carries ? arithmetic.words.emitRead('P0', 'r', 'p', arithmetic) : undefined;
  const body = [
    'const r = this.thread.x;',
    arithmetic.declareZero('acc'),
    'if (r < rows) {',
    // The sum so far, bit for bit (a word or a pair, as the link before wrote it).
    ...(carry ? [carry.code, arithmetic.assign('acc', carry.register)] : []),
    'for (let k = mpI32(0); k < K; k++) {',
    'const at = off + r + k * stride;',
    'const col = mpBits(I[at]);',
    // Padding (−1) lies below every window.
    'if (col >= c0) {',
    'if (col < c1) {',
    rv.code,
    rx.code,
    arithmetic.mulAdd('acc', rv.register, rx.register),
    '}',
    '}',
    '}',
    '}',
    `return ${arithmetic.returnValue('acc')};`,
  ];
  return { source: kernelSource(args, body), args };
}

/** The chain's last pass: y ← α·(the row's sum, as the last link left it) + β·y, for a tile's rows. */
function endSource(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean): { source: string; args: (readonly [string, ArgType])[] } {
  const args = [['P', 'Array'] as const, ...finishArgs(arithmetic, y, readsY, true)];
  const body = finishBody(arithmetic, y, readsY, (e) => {
    const read = arithmetic.words.emitRead('P', `r${e}`, `p${e}`, arithmetic);
    return [read.code, arithmetic.assign(`acc${e}`, read.register)];
  }, true);
  return { source: kernelSource(args, body), args };
}

/**
 * y ← α·A·x + β·y through chains of passes per tile of rows (see the module comment); y packed (written to a fresh
 * buffer that then replaces it) or a view written in place (`!y.coversSpan`).
 * @param runtime - the runtime of every operand
 * @param args - A, x, y (checked by gpuEllSpmv)
 * @param alpha - α (not 0)
 * @param beta - β
 * @param arithmetic - the arithmetic
 * @throws {@link modprec!ModprecError} `BACKEND_LIMIT` naming the limit when a tile's least rows (1, or a word of a
 *   16-bit y stored a word at a time) of the partial sums or of one slot of A exceed one binding, or when a
 *   block-scaled x is windowed (bindingWindows)
 */
export async function chainedEllSpmv(runtime: GpuRuntime, args: GpuEllSpmvArgs, alpha: number, beta: number, arithmetic: GpuArithmetic): Promise<void> {
  const { A, x, y } = args;
  const context = runtime.context;
  const limit = bindingLimit(runtime);
  const readsY = beta !== 0;
  const inPlace = !y.coversSpan;
  const c = arithmetic.components;
  const valuesWhole = ellFitsOneBinding(A, limit);
  // Every tile's rows of y go through a strided store (any first row): a packed y as a unit-stride view of itself.
  const yOut = inPlace ? y : viewOf(y, { length: y.length, offset: 0, stride: 1, alwaysView: true });
  // x a view: windows may start at any element (each binds the part of its span it covers), so a stride of any size splits.
  const xWindows = ellWindowsX(x, limit) ? bindingWindows([x], x.length, true) : [{ start: 0, count: x.length }];
  const tile = tileRows(A, y, yOut, inPlace, c, limit, valuesWhole);
  // With x in windows a link adds one slot, so that every row still adds its entries in slot order.
  const slots = xWindows.length > 1 ? 1 : valuesWhole ? A.width : slotsPerPass(A, tile, limit);
  const blocks: Block[][] = [];
  for (let r0 = 0; r0 < A.rows; r0 += tile) {
    const chain: Block[] = [];
    for (let k0 = 0; k0 < A.width; k0 += slots) chain.push({ r0, rows: Math.min(tile, A.rows - r0), k0, count: Math.min(slots, A.width - k0) });
    blocks.push(chain);
  }
  const passCount = blocks.length * (1 + blocks[0]!.length * xWindows.length);
  const key = `ellc|${objectId(A)}|${objectId(x)}|${objectId(y)}|${arithmetic.name}|${readsY}|${inPlace}|${limit}`;
  const plan = getPlan(runtime, key, passCount, () => [createWordBuffer(context, tile * c), createWordBuffer(context, tile * c), inPlace ? createWordBuffer(context, 1) : createSpanBuffer(runtime, y)]);
  const valuesKey = A.valuesLd === undefined ? readKey(A.values) : `${readKey(A.values)}@ld`;
  const programs = await Promise.all([false, true].map((carries) => {
    const spec = memo(`ellLink|${arithmetic.name}|${valuesKey}|${readKey(x)}|${carries}`, () => linkSource(arithmetic, A, x, carries));
    return getProgram(context, { source: spec.source, args: spec.args, components: c });
  }));
  const lanes = inPlace && writesLanes(y);
  const end = memo(`ellEnd|${arithmetic.name}|${readKey(yOut)}|${readsY}|${inPlace}${lanes ? '-lanes' : ''}`, () => endSource(arithmetic, yOut, readsY));
  const endProgram = await getProgram(context, { source: end.source, args: end.args, components: outputComponents(y.format), ...finishProgramOptions(yOut, readsY, true), readsOutput: inPlace && readsY ? ['Yold'] : [] });
  // x in y's span is read from a snapshot while y is written in place (gpuEllSpmv keeps A's values out of it).
  const fromX = inPlace ? aliasSnapshot(runtime, y, x) : undefined;
  const fresh = plan.scratch[2]!;
  const passes: { pass: Pass; cache: PassCache }[] = [];
  for (const chain of blocks) {
    let written = -1;
    for (const b of chain) {
      for (const w of xWindows) {
        const arrays: Record<string, BoundArray> = {};
        const scalars: Record<string, number> = { K: b.count, stride: A.stride, rows: b.rows, c0: w.start, c1: w.start + w.count };
        bindValues(A, b, valuesWhole, limit, arrays, scalars);
        if (xWindows.length > 1) {
          bindArray('X', x, arrays, scalars);
          bindWindow('X', x, w, arrays, scalars);
        } else bindExtent('X', x, arrays, scalars);
        if (fromX) arrays.X = { ...arrays.X!, buffer: fromX };
        if (written >= 0) arrays.P0 = { buffer: plan.scratch[written]!, size: tile * c * 4 };
        written = written === 0 ? 1 : 0;
        passes.push({ pass: { program: programs[arrays.P0 ? 1 : 0]!, arrays, scalars, output: { buffer: plan.scratch[written]!, size: tile * c * 4 }, threads: b.rows }, cache: plan.passes[passes.length]! });
      }
    }
    const { r0, rows } = chain[0]!;
    const arrays: Record<string, BoundArray> = { P: { buffer: plan.scratch[written]!, size: tile * c * 4 } };
    const scalars: Record<string, number> = { rows, ...scalarBindings(arithmetic, alpha, beta) };
    // A packed y is written through the same strided store into the fresh buffer (its twin in layout); its old values are
    // read from its own buffer.
    const o = outputWindow(yOut, { start: r0, count: rows }, lanes);
    Object.assign(scalars, o.scalars);
    const output: BoundArray = inPlace ? o.bound : { ...o.bound, buffer: fresh };
    if (readsY && inPlace) {
      bindOldFromOutput(y, o.bound, fresh, arrays, scalars);
      // The tile's first row is element r0 of y.
      scalars.YoldOff = scalars.YoldOff! + r0 * y.stride;
    } else if (readsY) {
      bindArray('Yold', yOut, arrays, scalars);
      bindWindow('Yold', yOut, { start: r0, count: rows }, arrays, scalars);
    }
    passes.push({ pass: { program: endProgram, arrays, scalars, output, threads: finishThreads(yOut, rows, true) }, cache: plan.passes[passes.length]! });
  }
  submitPasses(context, passes);
  if (!inPlace) {
    plan.scratch[2] = y.buffer!;
    y.buffer = fresh;
  }
  y.version++;
}
