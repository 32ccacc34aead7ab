/**
 * The blocked GPU TRSV's two passes with each row's sum split over {@link LANES} lanes (`ddLanes` in
 * src/backends/webgpu/kernel-switches.ts; for double-double arithmetic, issue 18).
 *
 * The blocked solve's passes (./trsv-webgpu.ts) give every row one thread that runs bs multiply-adds in a chain: in
 * double-double (≈ 600 integer operations each) a block's two passes are then two chains of 64 multiply-adds on a few
 * thousand threads — latency, not throughput, and 2·n/64 of them in a row. Here a workgroup of 256 invocations holds
 * 16 rows × 16 lanes; lane p of a row sums the columns p, p + 16, p + 32, … of the block (bs/16 multiply-adds), and
 * the 16 lane sums are added pairwise in workgroup memory (4 levels, a fixed order). The chain a row waits for is
 * bs/16 + 4 operations instead of bs/4 + 3, and an update runs 16 times as many threads.
 *
 * Bound (kernels/trsv/trsv-gpu-bound.ts, steps 2 and 3): a term of a row's block sum meets at most bs/16 + 4 roundings
 * (its lane's chain and the tree), fewer than the s = bs/4 + 3 the bound takes for the four-accumulator passes — so
 * `trsvBound` with `backend: 'gpu'` holds unchanged. Another fixed order than the one-thread passes: other bits.
 *
 * Rows and x go through atomic words (`RAtomic`, `XAtomic`): a row's residual is read and rewritten by its lane 0
 * only, and the solve writes x_k's rows where the update passes read them as a plain array; the passes' own outputs
 * are unused.
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { arrayArgs, kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { WorkgroupSettings } from '../../src/backends/webgpu/gpujs-extensions.js';

/** Lanes per row (and rows per workgroup). */
export const LANES = 16;
/** Invocations of a workgroup: 16 rows × 16 lanes. */
export const LANE_WORKGROUP = LANES * LANES;

/** Which variant: the order of substitution and how op(A)(i, j) is indexed. */
export interface LaneShape {
  readonly lowerOp: boolean;
  readonly trans: boolean;
}

/** Word k of register `name`. */
function word(arithmetic: GpuArithmetic, name: string, k: number): string {
  return arithmetic.components === 1 ? name : `${name}[${k}]`;
}

/** `let dst = <the register whose words are the f32 expressions>;` */
function fromWords(arithmetic: GpuArithmetic, dst: string, words: readonly string[]): string {
  return `let ${dst} = ${arithmetic.components === 1 ? words[0] : `[${words.join(', ')}]`};`;
}

/**
 * Lines that leave in lane 0's `s` the sum of the 16 lanes' `s` of its row, added pairwise (lane p takes lane p + h
 * for h = 8, 4, 2, 1): every invocation runs them (barriers). `slot(lane)` is the local id of the row's given lane.
 */
function laneTree(arithmetic: GpuArithmetic, slot: (lane: string) => string, names: { lane: string; s: string; o: string } = { lane: 'lane', s: 's', o: 'o' }): string[] {
  const c = arithmetic.components;
  const { lane: ln, s: sum, o } = names;
  const put = (name: string): string[] => Array.from({ length: c }, (_, k) => `mpSharedSet(0, l * ${c} + ${k}, ${word(arithmetic, name, k)});`);
  const lines = [...put(sum), 'mpBarrier();'];
  for (const h of [8, 4, 2, 1]) {
    const other = Array.from({ length: c }, (_, k) => `mpShared(0, (${slot(`${ln} + ${h}`)}) * ${c} + ${k})`);
    lines.push(`if (${ln} < ${h}) {`, fromWords(arithmetic, `${o}${h}`, other), arithmetic.add(sum, arithmetic.register(`${o}${h}`)));
    // The last level's sum stays in lane 0's registers; the others are read by the next level after its barrier.
    if (h > 1) lines.push(...put(sum), '}', 'mpBarrier();');
    else lines.push('}');
  }
  return lines;
}

/** The workgroup settings of both passes: one f32 array holding a register per invocation. */
function laneWorkgroup(arithmetic: GpuArithmetic): WorkgroupSettings {
  return { workgroupSize: LANE_WORKGROUP, workgroupArrays: [{ type: 'f32', length: LANE_WORKGROUP * arithmetic.components }] };
}

/**
 * The block solve x_k = Inv_k·r_k: workgroup w takes rows 16w … 16w + 15 of the block (bs/16 workgroups), lane p of
 * row i the inverse's entries (i, p + 16e) — adjacent lanes read adjacent words of the row-major inverse.
 * @param arithmetic - the arithmetic
 * @returns source, arguments and workgroup settings (uniforms np, k0, bs; x_k written to XAtomic)
 */
export function laneSolveSource(arithmetic: GpuArithmetic): { source: string; args: [string, 'Array' | 'Integer'][]; workgroup: WorkgroupSettings } {
  const args: [string, 'Array' | 'Integer'][] = [['Inv', 'Array'], ['R', 'Array'], ['XAtomic', 'Array'], ['np', 'Integer'], ['k0', 'Integer'], ['bs', 'Integer']];
  const c = arithmetic.components;
  const f = arithmetic.words;
  const body = [
    'const l = mpLocalId();',
    `const lane = mpImod(l, ${LANES});`,
    `const i = mpGroupId() * ${LANES} + mpIdiv(l, ${LANES});`,
    arithmetic.declareZero('s'),
    `for (let e = mpI32(0); e < bs; e = e + ${4 * LANES}) {`,
  ];
  const reads: string[] = [];
  const uses: string[] = [];
  for (let q = 0; q < 4; q++) {
    const rm = f.emitRead('Inv', `i * np + k0 + e + lane + ${q * LANES}`, `m${q}`, arithmetic);
    const rr = f.emitRead('R', `k0 + e + lane + ${q * LANES}`, `r${q}`, arithmetic);
    reads.push(rm.code, rr.code);
    uses.push(arithmetic.mulAdd('s', rm.register, rr.register));
  }
  body.push(...reads, ...uses, '}', ...laneTree(arithmetic, (lane) => `l - lane + ${lane}`));
  body.push('if (lane === 0) {', ...Array.from({ length: c }, (_, k) => `mpAtomicStore(XAtomic[(k0 + i) * ${c} + ${k}], mpBits(${word(arithmetic, 's', k)}));`), '}');
  body.push(arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`);
  return { source: kernelSource(args, body), args, workgroup: laneWorkgroup(arithmetic) };
}

/**
 * The update r_i −= Σ_{j in block k} op(A)(i, j)·x_j for rows rowStart … (16 a workgroup): lane p of row i takes
 * columns k0 + p + 16e. For op(A) = A a warp holds 16 adjacent rows (lanes slow: adjacent invocations read adjacent
 * entries of a column), for op(A) = Aᵀ 16 adjacent columns of a row (lanes fast). Rows from n on are set to zero, so
 * padding never feeds NaN into a block solve.
 * @param arithmetic - the arithmetic
 * @param A - the matrix (format, view)
 * @param shape - the variant
 * @returns source, arguments and workgroup settings (uniforms n, lda, rowStart, k0, bs, aOff; A bound from element aOff)
 */
export function laneUpdateSource(arithmetic: GpuArithmetic, A: DeviceArray, shape: LaneShape): { source: string; args: ReturnType<typeof arrayArgs>; workgroup: WorkgroupSettings } {
  const args = [...arrayArgs('A', A), ['RAtomic', 'Array'] as const, ['X', 'Array'] as const, ['n', 'Integer'] as const, ['lda', 'Integer'] as const,
    ['rowStart', 'Integer'] as const, ['k0', 'Integer'] as const, ['bs', 'Integer'] as const, ['aOff', 'Integer'] as const];
  const c = arithmetic.components;
  const f = arithmetic.words;
  const opIndex = (row: string, col: string): string => {
    const [i, j] = shape.trans ? [col, row] : [row, col];
    return `${A.isView ? `AOff + ${i} * AInc + ${j} * lda` : `${i} + ${j} * lda`} - aOff`;
  };
  // Row-fast for op(A) = A (column-major: a warp reads 16 adjacent rows of two columns), lane-fast for Aᵀ.
  const [rowOf, laneOf, slot] = shape.trans
    ? [`mpIdiv(l, ${LANES})`, `mpImod(l, ${LANES})`, (lane: string) => `l - lane + ${lane}`]
    : [`mpImod(l, ${LANES})`, `mpIdiv(l, ${LANES})`, (lane: string) => `mpImod(l, ${LANES}) + (${lane}) * ${LANES}`];
  const body = [
    'const l = mpLocalId();',
    `const lane = ${laneOf};`,
    `const g = rowStart + mpGroupId() * ${LANES} + ${rowOf};`,
    arithmetic.declareZero('s'),
    `for (let e = mpI32(0); e < bs; e = e + ${4 * LANES}) {`,
  ];
  for (let q = 0; q < 4; q++) {
    const ra = A.format.emitRead('A', opIndex('g', `col${q}`), `a${q}`, arithmetic);
    const rx = f.emitRead('X', `col${q}`, `x${q}`, arithmetic);
    // Columns past n (the last block's padding) and rows past n contribute nothing (and read nothing).
    body.push(`const col${q} = k0 + e + lane + ${q * LANES};`, `if (col${q} < n && g < n) {`, ra.code, rx.code, arithmetic.mulAdd('s', ra.register, rx.register), '}');
  }
  body.push('}', ...laneTree(arithmetic, slot));
  const load = Array.from({ length: c }, (_, k) => `mpFloat(mpAtomicLoad(RAtomic[g * ${c} + ${k}]))`);
  body.push('if (lane === 0) {', fromWords(arithmetic, 'r', load), arithmetic.declareSub('u', arithmetic.register('r'), arithmetic.register('s')),
    `if (g >= n) { u = ${arithmetic.literal(0)}; }`,
    ...Array.from({ length: c }, (_, k) => `mpAtomicStore(RAtomic[g * ${c} + ${k}], mpBits(${word(arithmetic, 'u', k)}));`), '}');
  body.push(arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`);
  return { source: kernelSource(args, body), args, workgroup: laneWorkgroup(arithmetic) };
}

/**
 * One dispatch a block (`ddLanesFused` in src/backends/webgpu/kernel-switches.ts): the update from the previous block's
 * x_p (columns p0 … p0 + bs − 1) fused with block k's solve. The first bs/16 workgroups ("heads") each apply x_p's
 * update to all bs rows of block k (4 rows an invocation, interleaved), keeping the residuals in workgroup memory (R
 * is not written for them), then solve
 * their 16 rows of x_k = Inv_k·r_k into XAtomic; the other workgroups apply x_p's update to rows rowStart … (16 a
 * workgroup, in place in RAtomic) — the rows of the blocks after k. Every head repeats block k's update (workgroups do
 * not wait on each other: WebGPU promises no forward progress between them); ordering between blocks is by dispatch.
 *
 * Each row's sum has the order of {@link laneUpdateSource} (lane p: columns p0 + p + 16e, then the pairwise lane tree),
 * and the solve that of {@link laneSolveSource}: the same bits as the unfused lane passes, and the same bound.
 * @param arithmetic - the arithmetic
 * @param A - the matrix (format, view)
 * @param shape - the variant
 * @param bs - the block size (64, 128 or 256: it sizes the heads' workgroup array)
 * @returns source, arguments and workgroup settings (uniforms n, np, lda, rowStart, p0, k0, aOff; A bound from element aOff)
 */
export function laneFusedSource(arithmetic: GpuArithmetic, A: DeviceArray, shape: LaneShape, bs: number): { source: string; args: ReturnType<typeof arrayArgs>; workgroup: WorkgroupSettings } {
  const args = [['Inv', 'Array'] as const, ...arrayArgs('A', A), ['RAtomic', 'Array'] as const, ['XAtomic', 'Array'] as const, ['n', 'Integer'] as const,
    ['np', 'Integer'] as const, ['lda', 'Integer'] as const, ['rowStart', 'Integer'] as const, ['p0', 'Integer'] as const, ['k0', 'Integer'] as const,
    ['aOff', 'Integer'] as const];
  const c = arithmetic.components;
  const f = arithmetic.words;
  const heads = bs / LANES;
  const opIndex = (row: string, col: string): string => {
    const [i, j] = shape.trans ? [col, row] : [row, col];
    return `${A.isView ? `AOff + ${i} * AInc + ${j} * lda` : `${i} + ${j} * lda`} - aOff`;
  };
  // The update's layout (laneUpdateSource): row-fast for op(A) = A, lane-fast for Aᵀ.
  const rowOf = shape.trans ? `mpIdiv(l, ${LANES})` : `mpImod(l, ${LANES})`;
  const laneOf = shape.trans ? `mpImod(l, ${LANES})` : `mpIdiv(l, ${LANES})`;
  const slotOf = (ln: string) => (lane: string): string => (shape.trans ? `l - ${ln} + ${lane}` : `mpImod(l, ${LANES}) + (${lane}) * ${LANES}`);
  const atomicWords = (array: string, element: string): string[] => Array.from({ length: c }, (_, k) => `mpFloat(mpAtomicLoad(${array}[(${element}) * ${c} + ${k}]))`);
  /** Lines leaving in lane 0 of row `g${z}` its residual r − (x_p's update) in `u${z}` (zero for rows from n on); names carry the suffix z. */
  const updateRow = (z: string): string[] => {
    const lines = [arithmetic.declareZero(`s${z}`), `for (let e${z} = mpI32(0); e${z} < ${bs}; e${z} = e${z} + ${4 * LANES}) {`];
    for (let q = 0; q < 4; q++) {
      const ra = A.format.emitRead('A', opIndex(`g${z}`, `c${z}${q}`), `a${z}${q}`, arithmetic);
      lines.push(`const c${z}${q} = p0 + e${z} + lane${z} + ${q * LANES};`, `if (c${z}${q} < n && g${z} < n) {`, ra.code,
        fromWords(arithmetic, `x${z}${q}`, atomicWords('XAtomic', `c${z}${q}`)), arithmetic.mulAdd(`s${z}`, ra.register, arithmetic.register(`x${z}${q}`)), '}');
    }
    lines.push('}', ...laneTree(arithmetic, slotOf(`lane${z}`), { lane: `lane${z}`, s: `s${z}`, o: `o${z}` }));
    return lines.concat(`if (lane${z} === 0) {`, fromWords(arithmetic, `r${z}`, atomicWords('RAtomic', `g${z}`)),
      arithmetic.declareSub(`u${z}`, arithmetic.register(`r${z}`), arithmetic.register(`s${z}`)), `if (g${z} >= n) { u${z} = ${arithmetic.literal(0)}; }`);
  };
  /**
   * The heads' update of block k's rows into workgroup array 1 (row t of the block at t·c), 64 rows a pass: invocation
   * (row ρ, lane p) runs lane p of rows ρ, ρ + 16, ρ + 32, ρ + 48 of the pass as four interleaved chains (each the
   * columns p0 + p + 16e in order, as one update lane) and their four lane trees level by level. A tree level keeps only
   * the lanes h … 2h − 1 in workgroup array 0 (8 slots a row: 4 × 16 rows × 8 × c words, 8 KiB in dd), read by lanes
   * 0 … h − 1: lane p adds lane p + h, the update's pairwise order.
   */
  function headUpdate(): string[] {
    const J = 4;
    const slotOf8 = (j: number, m: string, k: number): string => `((${j * LANES} + rowh) * 8 + ${m}) * ${c} + ${k}`;
    const lines = [`const laneh = ${laneOf};`, `const rowh = ${rowOf};`, `for (let t = mpI32(0); t < ${bs}; t = t + ${J * LANES}) {`];
    for (let j = 0; j < J; j++) lines.push(`const gh${j} = k0 + t + ${j * LANES} + rowh;`, arithmetic.declareZero(`sh${j}`));
    lines.push(`for (let eh = mpI32(0); eh < ${bs}; eh = eh + ${4 * LANES}) {`);
    for (let q = 0; q < 4; q++) {
      lines.push(`const ch${q} = p0 + eh + laneh + ${q * LANES};`, `if (ch${q} < n) {`, fromWords(arithmetic, `xh${q}`, atomicWords('XAtomic', `ch${q}`)));
      for (let j = 0; j < J; j++) {
        const ra = A.format.emitRead('A', opIndex(`gh${j}`, `ch${q}`), `ah${j}${q}`, arithmetic);
        lines.push(`if (gh${j} < n) {`, ra.code, arithmetic.mulAdd(`sh${j}`, ra.register, arithmetic.register(`xh${q}`)), '}');
      }
      lines.push('}');
    }
    lines.push('}');
    for (const h of [8, 4, 2, 1]) {
      lines.push(`if (laneh >= ${h} && laneh < ${2 * h}) {`);
      for (let j = 0; j < J; j++) lines.push(...Array.from({ length: c }, (_, k) => `mpSharedSet(0, ${slotOf8(j, `laneh - ${h}`, k)}, ${word(arithmetic, `sh${j}`, k)});`));
      lines.push('}', 'mpBarrier();', `if (laneh < ${h}) {`);
      for (let j = 0; j < J; j++) {
        lines.push(fromWords(arithmetic, `oh${j}${h}`, Array.from({ length: c }, (_, k) => `mpShared(0, ${slotOf8(j, 'laneh', k)})`)), arithmetic.add(`sh${j}`, arithmetic.register(`oh${j}${h}`)));
      }
      lines.push('}', 'mpBarrier();');
    }
    lines.push('if (laneh === 0) {');
    for (let j = 0; j < J; j++) {
      lines.push(fromWords(arithmetic, `rh${j}`, atomicWords('RAtomic', `gh${j}`)), arithmetic.declareSub(`uh${j}`, arithmetic.register(`rh${j}`), arithmetic.register(`sh${j}`)),
        `if (gh${j} >= n) { uh${j} = ${arithmetic.literal(0)}; }`,
        ...Array.from({ length: c }, (_, k) => `mpSharedSet(1, (gh${j} - k0) * ${c} + ${k}, ${word(arithmetic, `uh${j}`, k)});`));
    }
    // The residuals are read by the solve after this barrier.
    return lines.concat('}', '}', 'mpBarrier();');
  }
  const body = [
    'const l = mpLocalId();',
    'const w = mpGroupId();',
    `if (w < ${heads}) {`,
    ...headUpdate(),
    // The solve of rows 16w … 16w + 15 of the block, as laneSolveSource with r_k from workgroup memory.
    `const lanev = mpImod(l, ${LANES});`,
    `const i = w * ${LANES} + mpIdiv(l, ${LANES});`,
    arithmetic.declareZero('sv'),
    `for (let e = mpI32(0); e < ${bs}; e = e + ${4 * LANES}) {`,
  ];
  const reads: string[] = [];
  const uses: string[] = [];
  for (let q = 0; q < 4; q++) {
    const rm = f.emitRead('Inv', `i * np + k0 + e + lanev + ${q * LANES}`, `m${q}`, arithmetic);
    reads.push(rm.code, fromWords(arithmetic, `rv${q}`, Array.from({ length: c }, (_, k) => `mpShared(1, (e + lanev + ${q * LANES}) * ${c} + ${k})`)));
    uses.push(arithmetic.mulAdd('sv', rm.register, arithmetic.register(`rv${q}`)));
  }
  body.push(...reads, ...uses, '}', ...laneTree(arithmetic, (lane) => `l - lanev + ${lane}`, { lane: 'lanev', s: 'sv', o: 'ov' }));
  body.push('if (lanev === 0) {', ...Array.from({ length: c }, (_, k) => `mpAtomicStore(XAtomic[(k0 + i) * ${c} + ${k}], mpBits(${word(arithmetic, 'sv', k)}));`), '}');
  // The other workgroups: rows rowStart + 16(w − heads) … of the blocks after k, in place.
  body.push('} else {', `const lanen = ${laneOf};`, `const gn = rowStart + (w - ${heads}) * ${LANES} + ${rowOf};`, ...updateRow('n'),
    ...Array.from({ length: c }, (_, k) => `mpAtomicStore(RAtomic[gn * ${c} + ${k}], mpBits(${word(arithmetic, 'un', k)}));`), '}', '}');
  body.push(arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`);
  // Array 0: the lane trees (the others' 256 registers, the heads' 4 × 16 × 8 slots: 8 KiB in dd); array 1: block k's
  // residuals (4 KiB at bs = 256).
  const workgroup = { workgroupSize: LANE_WORKGROUP, workgroupArrays: [{ type: 'f32' as const, length: 2 * LANE_WORKGROUP * c }, { type: 'f32' as const, length: bs * c }] };
  return { source: kernelSource(args, body), args, workgroup };
}
