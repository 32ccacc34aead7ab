/**
 * The lane-split TRSV with the far update beside the next block solve (`ddOverlapLanes` in
 * src/backends/webgpu/kernel-switches.ts; issue 18 item 4).
 *
 * The lane solve (./trsv-lanes-source.ts) runs per block k a solve x_k = Inv_k·r_k and then one update of every later
 * row by x_k; the next solve waits for the whole update, though it needs only block k + 1's rows of it. Here the update
 * by x_p (p the block solved last) is split: the near update (block k's rows only) and the far update (the rows after
 * block k). A step is two dispatches, the near update and then block k's solve, and the far update runs beside both
 * (part of its rows in each: kernels/trsv/trsv-webgpu.ts) — the head's workgroups first, the far update's after them.
 * A block then costs a near and a solve chain, beside the far update's integer throughput, instead of a solve chain
 * plus the whole update.
 *
 * The near update and the solve split a row's sum over W lanes (16 … 256; W = 16 is the lane solve's layout, hence
 * its sums in its order and its bits): lane p takes the block's columns p, p + W, …, and the W lane sums are added
 * pairwise in workgroup memory (log2 W levels). The far update splits a row's sum over F lanes the same way (F = 16: the
 * lane update's layout and order; 32 by default since session 21; `ddOverlapFarLanes` picks 16 … 256). Its chain, bs/F multiply-adds and
 * log2 F additions, runs in both dispatches of a step: with F = 16 it outlasts a short head's.
 * Every row still meets the updates of the blocks in substitution order, each as one sum subtracted from its
 * residual. A term meets at most bs/W + log2 W ≤ bs/4 + 3 roundings for W ≥ 16 (and F's likewise), so `trsvBound` with
 * `backend: 'gpu'` (kernels/trsv/trsv-gpu-bound.ts, steps 2 and 3) holds unchanged.
 *
 * With `ddTrsvWindow` the near and far updates sum a lane's terms in GEMV's window instead of the fused multiply-adds, on
 * x's dd pairs (./trsv-window-update-source.ts: its bound, within the same trsvBound).
 *
 * Rows and x go through atomic words (`RAtomic`, `XAtomic`): in the joint dispatch the solve reads block k's residuals
 * and writes x_k while the far update reads x_p and rewrites later rows — one binding each, disjoint words. Each
 * workgroup of it first copies the block vector it reads (r_k or x_p) into workgroup memory.
 * @module
 */
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { arrayArgs, kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { WorkgroupSettings } from '../../src/backends/webgpu/gpujs-extensions.js';
import { LANES, LANE_WORKGROUP, type LaneShape } from './trsv-lanes-source.js';
import { stageDdLines, storeDdCopyLines, windowLaneSum, type WindowTerms } from './trsv-window-update-source.js';

/** The lane counts a row's sum may be split over in the near update and the solve (a power of two, 16 … 256). */
export const OVERLAP_LANE_WIDTHS: readonly number[] = [16, 32, 64, 128, 256];

/** Word k of register `name`. */
function word(arithmetic: GpuArithmetic, name: string, k: number): string {
  return arithmetic.components === 1 ? name : `${name}[${k}]`;
}

/** `let dst = <the register whose words are the f32 expressions>;` */
function fromWords(arithmetic: GpuArithmetic, dst: string, words: readonly string[]): string {
  return `let ${dst} = ${arithmetic.components === 1 ? words[0] : `[${words.join(', ')}]`};`;
}

/** The f32 words of element `element` of an atomic array. */
function atomicWords(arithmetic: GpuArithmetic, array: string, element: string): string[] {
  const c = arithmetic.components;
  return Array.from({ length: c }, (_, k) => `mpFloat(mpAtomicLoad(${array}[(${element}) * ${c} + ${k}]))`);
}

/**
 * Lines leaving in lane 0's `s` the sum of the W lanes' `s` of its row, added pairwise (lane p takes lane p + h for
 * h = W/2, …, 1: for W = 16 the lane solve's tree). Every invocation runs them (barriers); `slot(lane)` is the local id
 * of the row's given lane.
 */
function wideTree(arithmetic: GpuArithmetic, W: number, slot: (lane: string) => string, ln: string, sum: string, o: string): string[] {
  const c = arithmetic.components;
  const put = (name: string): string[] => Array.from({ length: c }, (_, k) => `mpSharedSet(0, l * ${c} + ${k}, ${word(arithmetic, name, k)});`);
  const lines = [...put(sum), 'mpBarrier();'];
  for (let h = W / 2; h >= 1; h /= 2) {
    const other = Array.from({ length: c }, (_, k) => `mpShared(0, (${slot(`${ln} + ${h}`)}) * ${c} + ${k})`);
    lines.push(`if (${ln} < ${h}) {`, fromWords(arithmetic, `${o}${h}`, other), arithmetic.add(sum, arithmetic.register(`${o}${h}`)));
    // The last level's sum stays in lane 0's registers; the others are read by the next level after its barrier.
    if (h > 1) lines.push(...put(sum), '}', 'mpBarrier();');
    else lines.push('}');
  }
  return lines;
}

/** Index of op(A)(row, col) in A's binding (which starts aOff elements in). */
function opIndexOf(A: DeviceArray, shape: LaneShape): (row: string, col: string) => string {
  return (row, col) => {
    const [i, j] = shape.trans ? [col, row] : [row, col];
    return `${A.isView ? `AOff + ${i} * AInc + ${j} * lda` : `${i} + ${j} * lda`} - aOff`;
  };
}

/**
 * The update layout of W lanes a row, 256/W rows a workgroup: for op(A) = A adjacent invocations are adjacent rows
 * (lanes slow: a warp reads runs of a column), for Aᵀ adjacent lanes of a row (lanes fast) — for W = 16 the lane
 * update's layout.
 */
function updateLayout(W: number, trans: boolean): { rowOf: string; laneOf: string; slot: (ln: string) => (lane: string) => string } {
  const rows = LANE_WORKGROUP / W;
  return trans
    ? { rowOf: `mpIdiv(l, ${W})`, laneOf: `mpImod(l, ${W})`, slot: (ln) => (lane) => `l - ${ln} + ${lane}` }
    : { rowOf: `mpImod(l, ${rows})`, laneOf: `mpIdiv(l, ${rows})`, slot: () => (lane) => `mpImod(l, ${rows}) + (${lane}) * ${rows}` };
}

/**
 * Lines leaving in lane 0 of row `g` (lane `ln`) its residual minus the update by the block of x from column p0 in
 * `u` (zero for rows from n on): lane p sums columns p0 + p, p0 + p + W, … in order, then the W-lane tree. x_col is
 * read by `readX(col, name)` (code and register), the residual from RAtomic.
 */
function updateRow(arithmetic: GpuArithmetic, A: DeviceArray, shape: LaneShape, W: number, names: { g: string; ln: string; z: string }, readX: (col: string, name: string) => { code: string; register: GpuRegister }, window?: WindowTerms): string[] {
  const { g, ln, z } = names;
  const opIndex = opIndexOf(A, shape);
  const ra = A.format.emitRead('A', opIndex(g, `c${z}`), `a${z}`, arithmetic);
  const rx = readX(`c${z}`, `x${z}`);
  // With the window form (./trsv-window-update-source.ts) the lane's terms are summed in GEMV's window instead.
  const lines = window ? windowLaneSum(window, arithmetic, A, opIndex, { g, ln, W, z }) : [arithmetic.declareZero(`s${z}`), `for (let e${z} = ${ln}; e${z} < bs; e${z} = e${z} + ${W}) {`, `const c${z} = p0 + e${z};`,
    // Columns past n (the last block's padding) and rows past n contribute nothing (and read nothing).
    `if (c${z} < n && ${g} < n) {`, ra.code, rx.code, arithmetic.mulAdd(`s${z}`, ra.register, rx.register), '}', '}'];
  lines.push(...wideTree(arithmetic, W, updateLayout(W, shape.trans).slot(ln), ln, `s${z}`, `o${z}`));
  return lines.concat(`if (${ln} === 0) {`, fromWords(arithmetic, `r${z}`, atomicWords(arithmetic, 'RAtomic', g)),
    arithmetic.declareSub(`u${z}`, arithmetic.register(`r${z}`), arithmetic.register(`s${z}`)), `if (${g} >= n) { u${z} = ${arithmetic.literal(0)}; }`,
    ...Array.from({ length: arithmetic.components }, (_, k) => `mpAtomicStore(RAtomic[${g} * ${arithmetic.components} + ${k}], mpBits(${word(arithmetic, `u${z}`, k)}));`), '}');
}

/**
 * One dispatch of a step: workgroups below `headGroups` (= bs·W/256, 256/W rows each, W lanes a row) run the head — block
 * k's solve x_k = Inv_k·r_k (lane p the inverse's entries (i, p + We): adjacent lanes adjacent words of the row-major
 * inverse), or the near update of block k's rows by x_p — and the others apply x_p's update to rows rowStart … in place,
 * 256/F a workgroup, F lanes a row (the far update; rowStart … may be empty; F = 16: the lane update's layout).
 * @param arithmetic - the arithmetic
 * @param A - the matrix (format, view)
 * @param shape - the variant
 * @param W - the head's lanes a row (one of {@link OVERLAP_LANE_WIDTHS})
 * @param head - `solve` or `near`
 * @param F - the far update's lanes a row (one of {@link OVERLAP_LANE_WIDTHS}; 256/F rows a workgroup; `ddOverlapFarLanes`):
 *   16 the lane update's layout and order (`ddOverlapFarLanes`' default is 32)
 * @param window - the updates' terms in GEMV's window (`ddTrsvWindow`, ./trsv-window-update-source.ts: the solve stores
 *   x_k's dd pairs beside it, the updates stage x_p's; the block size then fixed in the source), or undefined for the
 *   fused multiply-adds
 * @returns source, arguments and workgroup settings (uniforms n, np, lda, rowStart, p0, k0, bs, headGroups, aOff; Inv only for the solve)
 */
export function headFarSource(arithmetic: GpuArithmetic, A: DeviceArray, shape: LaneShape, W: number, head: 'solve' | 'near', F: number = LANES, window?: WindowTerms): { source: string; args: ReturnType<typeof arrayArgs>; workgroup: WorkgroupSettings } {
  const args = [...(head === 'solve' ? [['Inv', 'Array'] as const] : []), ...arrayArgs('A', A), ['RAtomic', 'Array'] as const, ['XAtomic', 'Array'] as const, ['n', 'Integer'] as const,
    ['np', 'Integer'] as const, ['lda', 'Integer'] as const, ['rowStart', 'Integer'] as const, ['p0', 'Integer'] as const, ['k0', 'Integer'] as const,
    ['bs', 'Integer'] as const, ['headGroups', 'Integer'] as const, ['aOff', 'Integer'] as const];
  const c = arithmetic.components;
  const rm = arithmetic.words.emitRead('Inv', 'i * np + k0 + e', 'm', arithmetic);
  // The block vector both sides read bs times a workgroup (r_k, x_p) is loaded once into workgroup array 1: plain
  // loads in the chains, as in the lane passes (the same values).
  const stage = (array: string, from: string): string[] => [`for (let t = l; t < bs * ${c}; t = t + ${LANE_WORKGROUP}) {`, `mpSharedSet(1, t, mpFloat(mpAtomicLoad(${array}[${from} * ${c} + t])));`, '}', 'mpBarrier();'];
  /** x_col from the staged x_p (workgroup array 1). */
  const sharedX = (col: string, name: string): { code: string; register: GpuRegister } => ({ code: fromWords(arithmetic, name, Array.from({ length: c }, (_, k) => `mpShared(1, (${col} - p0) * ${c} + ${k})`)), register: arithmetic.register(name) });
  /** x_p into workgroup array 1: its registers, or (the window form) dd pairs. */
  const stageX = (): string[] => (window ? stageDdLines('XAtomic', 'p0') : stage('XAtomic', 'p0'));
  const body = ['const l = mpLocalId();', 'const w = mpGroupId();', 'if (w < headGroups) {'];
  if (head === 'solve') {
    body.push(
      `const lanev = mpImod(l, ${W});`,
      `const i = w * ${LANE_WORKGROUP / W} + mpIdiv(l, ${W});`,
      ...stage('RAtomic', 'k0'),
      arithmetic.declareZero('sv'),
      `for (let e = lanev; e < bs; e = e + ${W}) {`,
      rm.code,
      fromWords(arithmetic, 'rv', Array.from({ length: c }, (_, k) => `mpShared(1, e * ${c} + ${k})`)),
      arithmetic.mulAdd('sv', rm.register, arithmetic.register('rv')),
      '}',
      ...wideTree(arithmetic, W, (lane) => `l - lanev + ${lane}`, 'lanev', 'sv', 'ov'),
      'if (lanev === 0) {', ...Array.from({ length: c }, (_, k) => `mpAtomicStore(XAtomic[(k0 + i) * ${c} + ${k}], mpBits(${word(arithmetic, 'sv', k)}));`),
      // The window form's updates read x_k as dd pairs: stored beside it.
      ...(window ? storeDdCopyLines('XAtomic', 'sv', 'k0 + i') : []), '}',
    );
  } else {
    const near = updateLayout(W, shape.trans);
    body.push(`const lane = ${near.laneOf};`, `const g = k0 + w * ${LANE_WORKGROUP / W} + ${near.rowOf};`, ...stageX(),
      ...updateRow(arithmetic, A, shape, W, { g: 'g', ln: 'lane', z: '' }, sharedX, window));
  }
  const { rowOf, laneOf } = updateLayout(F, shape.trans);
  body.push('} else {', `const lanen = ${laneOf};`, `const gn = rowStart + (w - headGroups) * ${LANE_WORKGROUP / F} + ${rowOf};`, ...stageX(),
    ...updateRow(arithmetic, A, shape, F, { g: 'gn', ln: 'lanen', z: 'n' }, sharedX, window), '}');
  body.push(arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`);
  // Array 0: the lane trees; array 1: r_k or x_p (bs ≤ 256 registers).
  return { source: kernelSource(args, body), args, workgroup: { workgroupSize: LANE_WORKGROUP, workgroupArrays: [{ type: 'f32', length: LANE_WORKGROUP * c }, { type: 'f32', length: 256 * c }] } };
}
