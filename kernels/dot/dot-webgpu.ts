/**
 * DOT on the GPU: Σ x_k·y_k by a multi-pass reduction in a fixed order. Pass 1 runs T threads, thread t
 * accumulating runs of w adjacent elements wt … wt + w − 1, then w·T further on (coalesced across threads;
 * see {@link DEFAULT_SHAPE}); each further pass sums {@link REDUCE_FAN_IN} partials per thread; the last runs one thread.
 * T depends only on n and the options, so the result is bit-for-bit the same from run to run.
 *
 * @module
 */
import { fail } from '../../src/core/errors.js';
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import { hostDot } from '../../src/backends/webgpu/host-fallback.js';
import { bindingLimit, bindingWindows, bindWindow, bufferView, DeviceArray, splitBindings } from '../../src/backends/webgpu/device-array.js';
import type { VectorRead } from '../../src/backends/webgpu/formats.js';
import type { GpuDotOperands } from '../../src/formats/common/gpu-part.js';
import { elementIndex, allowFallback, UNROLL, accumulatorChains, mulAddGroup, checkChains, arrayArgs, bindArray, memo, readKey, chooseArithmetic, commonRuntime, getPlan, kernelSource, objectId, runInfo, withScalars, type GpuKernelOptions, type GpuRunInfo } from '../../src/backends/webgpu/kernel-common.js';
import { boundedScratch, getProgram, submitPasses, type BoundArray, type Pass, type PassCache, type ProgramSpec } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import { TREE_WORKGROUP, treePlan, treeReduceSpec, treeReduction, workgroupPairwiseSum } from '../../src/backends/webgpu/workgroup-reduction.js';
import { checkResidentOptions } from '../../src/backends/webgpu/resident-options.js';
import { checkIntegerOption, GPU_TUNING_OPTIONS } from '../shared/kernel-options.js';
import { throughInterleaved } from '../../src/backends/webgpu/dd-split-device.js';
import { gpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { pingPongSteps, prefetchedSteps } from '../shared/prefetched-steps.js';
import { longLazySteps } from '../shared/long-lazy-steps.js';
import { exactProductPass } from '../../src/backends/webgpu/ff-exact-products.js';
import { streamingPass } from '../../src/backends/webgpu/streaming-pass.js';
import { FUSED_BLOCK, fusedFinishSpec, fusedInitialWords, fusedLayout, MAX_FUSED_BLOCKS, type FirstPassLines } from './dot-fused-finish-source.js';
import { MAX_FINISH_WORKGROUPS, workgroupFinishInitialWords, workgroupFinishSpec, workgroupFinishWords } from './dot-workgroup-finish-source.js';

/**
 * Result of {@link gpuDot}: the value (float-float read back exactly as a double) and the run report.
 * @group GPU
 */
export interface GpuDotResult extends GpuRunInfo {
  readonly value: number;
}

/**
 * The default first pass, chosen on the H100 (bench/gpu/gpu-h100.ts, docs/performance.md): 2^17 threads,
 * each reading runs of 4 adjacent elements (one vector load per operand), 2 runs per step, into 2
 * accumulators — DOT n = 2^27 fp32 + float-float 0.39 ms (92 % of the copy bandwidth); 2^15 threads are
 * 20 % slower, one element per step 3 % slower in fp32 and 25 % with 16-bit storage.
 * @group GPU
 */
export const DEFAULT_SHAPE = { maxThreads: 2 ** 17, groupWidth: 4, groups: 2, chains: 2 } as const;

/**
 * Options of {@link gpuDot} and {@link gpuDotResident}.
 * @group GPU
 */
export interface GpuDotOptions extends GpuKernelOptions {
  /**
   * Most threads of the first pass (default 2^17); each takes at least 64 elements. The result depends on
   * it (it fixes the summation order), so keep it fixed where runs must agree bit for bit.
   */
  readonly maxThreads?: number;
  /**
   * Adjacent elements each first-pass thread reads per run (1, 2 or 4; default 4): a tuning knob for
   * memory-bound GPUs. Like `maxThreads` it fixes the summation order.
   */
  readonly groupWidth?: 1 | 2 | 4;
  /**
   * Runs per loop step of a first-pass thread (1 to 16; default 2, or the arithmetic's own for the operands' storage:
   * dd 4 for f64·f64, in its long window): loads in flight.
   */
  readonly groups?: number;
  /**
   * Independent accumulators per first-pass thread (1 to 8; default 2, or the arithmetic's own: dd 1), combined in a
   * fixed order.
   */
  readonly chains?: number;
  /**
   * Read runs of four adjacent elements with vector loads (default true; f32, f16, bf16, f64 and ff
   * storage): 16- or 8-byte accesses instead of gpu.js's 4-byte ones. The result does not depend on it.
   */
  readonly vectorLoads?: boolean;
}

/** Threads of the first pass for n elements (≥ 64 elements per thread, at most `maxThreads`, default 2^17). */
export function firstPassThreads(n: number, maxThreads = DEFAULT_SHAPE.maxThreads): number {
  return Math.max(1, Math.min(maxThreads, Math.ceil(n / 64)));
}

/**
 * Partials each thread of a reduction pass sums. A pass costs about one memory latency per 8 partials of a
 * thread (its loads go out 8 at a time): 256 per thread made the two passes after the first cost ~0.07 ms
 * on the H100, 15 % of a DOT of 2^27 elements; 32 per thread take four short passes instead.
 */
export const REDUCE_FAN_IN = 32;

function reducePlan(count: number): number[] {
  const sizes: number[] = [];
  while (count > 1) {
    count = count <= REDUCE_FAN_IN ? 1 : Math.ceil(count / REDUCE_FAN_IN);
    sizes.push(count);
  }
  return sizes;
}

/**
 * The first pass, with runs of `width` adjacent elements per thread (thread t takes w·t … w·t + w − 1, then the
 * same run T·w further on), `groups` runs per loop step, summed into `chains` independent accumulators
 * (combined in a fixed order at the end): runs of four read with one vector load per operand where the
 * format has one (gpu.js alone emits 4-byte loads, which compilers do not merge), and shorter dependency
 * chains between one step's loads and the next. (Width 1, 8 runs and
 * one accumulator is the plain strided loop t, t + T, ….) `fused`: the pass runs in workgroups of TREE_WORKGROUP
 * invocations that add their sums pairwise at the end, so the partials are one per workgroup (every TREE_WORKGROUP-th
 * output).
 */
function partialSource(arithmetic: GpuArithmetic, x: DeviceArray, y: DeviceArray, shape: GroupShape, fused = false): { source: string; args: ReturnType<typeof arrayArgs> } {
  const { args, body } = firstPassLines(arithmetic, x, y, shape, 'this.thread.x');
  // Fused (dotFusedTree): the workgroup adds its invocations' sums pairwise; invocation 0 returns the workgroup's.
  if (fused) body.push('const l = mpLocalId();', ...workgroupPairwiseSum(arithmetic));
  body.push(`return ${arithmetic.returnValue('acc')};`);
  return { source: kernelSource(args, body), args };
}

/**
 * The first pass's arguments and the lines leaving first-pass thread `thread`'s partial in `acc` (the body of
 * {@link partialSource} without its return; the fused finish, ./dot-fused-finish-source.ts, runs them for its own
 * thread and again for a partial it must recompute — the same lines, so the same bits).
 * @param thread - an integer expression: the first-pass thread whose partial the lines compute
 * @returns the arguments and the lines
 */
export function firstPassLines(arithmetic: GpuArithmetic, x: DeviceArray, y: DeviceArray, shape: GroupShape, thread: string): { args: ReturnType<typeof arrayArgs>; body: string[] } {
  const { width, groups, chains } = shape;
  const vx = vectorReadOf(x, shape);
  const vy = vectorReadOf(y, shape);
  const args = [...arrayArgs('X', x), ...arrayArgs('Y', y), ['n', 'Integer'] as const, ['T', 'Integer'] as const];
  if (vx) args.push([`X${vx.suffix}`, 'Array']);
  if (vy) args.push([`Y${vy.suffix}`, 'Array']);
  const acc = accumulatorChains(arithmetic, chains);
  // Runs of one step RS apart: S = T·w (grid-strided), or 64·w within the workgroup's contiguous block (dotBlockRuns).
  const RS = shape.blockRuns ? `${64 * width}` : 'S';
  const start = shape.blockRuns ? `mpIdiv(${thread}, 64) * ${64 * width * groups} + mpImod(${thread}, 64) * ${width}` : `${thread} * ${width}`;
  const body = [arithmetic.declareZero('acc'), ...acc.declare, `const S = T * ${width};`, `let k = ${start};`];
  // One step's loads at counter `k`, registers named with `suffix`: `groups` runs of `width` elements, S apart.
  const readStep = (k: string, suffix: string): { code: string[]; registers: { a: GpuRegister; b: GpuRegister }[] } => {
    const code: string[] = [];
    const registers: { a: GpuRegister; b: GpuRegister }[] = [];
    for (let g = 0; g < groups; g++) {
      // Vector loads read the run's four elements at once; the order of the multiply-adds is unchanged, so
      // the result is bit-for-bit the one of scalar loads.
      const kg = `${k}${g}g${suffix}`;
      code.push(`const ${kg} = ${k} + ${g} * ${RS};`);
      const qx = vx?.emit(`X${vx.suffix}`, kg, `a${g}x${suffix}`, arithmetic);
      const qy = vy?.emit(`Y${vy.suffix}`, kg, `b${g}x${suffix}`, arithmetic);
      if (qx) code.push(qx.code);
      if (qy) code.push(qy.code);
      for (let j = 0; j < width; j++) {
        const q = `${g}x${j}${suffix}`;
        code.push(`const ${k}${q} = ${kg} + ${j};`);
        const rx = qx ? { code: '', register: qx.registers[j]! } : x.format.emitRead('X', elementIndex('X', x, `${k}${q}`), `a${q}`, arithmetic);
        const ry = qy ? { code: '', register: qy.registers[j]! } : y.format.emitRead('Y', elementIndex('Y', y, `${k}${q}`), `b${q}`, arithmetic);
        code.push(`${rx.code} ${ry.code}`);
        registers.push({ a: rx.register, b: ry.register });
      }
    }
    return { code, registers };
  };
  const step = readStep('k', '');
  const terms = step.registers.map((r, q) => ({ acc: acc.target(q), a: r.a, b: r.b }));
  // ffLongLazy: the accumulators settle every few steps (../shared/long-lazy-steps.ts), and once after the loop.
  const long = longLazySteps(arithmetic, terms);
  const sums = long?.sums ?? mulAddGroup(arithmetic, terms);
  body.push(...(long?.declare ?? []));
  const span = `${groups - 1} * ${RS} + ${width - 1}`;
  const carried = step.registers.flatMap((r) => [r.a, r.b]);
  if (shape.prefetch && carried.every((r) => r.kind === 'f32' || r.kind === 'ff')) {
    body.push(...(gpuKernelSwitches().prefetchPingPong ? pingPongSteps : prefetchedSteps)({ k: 'k', end: 'n', span, stride: `${groups} * S`, registers: carried, sums, read: (k, suffix) => {
      const next = readStep(k, suffix);
      return { code: next.code, registers: next.registers.flatMap((r) => [r.a, r.b]) };
    } }));
  } else {
    body.push(`while (k + ${span} < n) {`, ...step.code, ...sums, `k = k + ${groups} * S;`, '}');
  }
  // The tail: the runs left of a last, partial step (block runs: this thread's `groups` runs of it, no further).
  body.push(...(long?.flush ?? []), ...(shape.blockRuns ? ['let kr = 0;', `while (k < n && kr < ${groups}) {`] : ['while (k < n) {']));
  for (let j = 0; j < width; j++) {
    const rx = x.format.emitRead('X', elementIndex('X', x, `kt${j}`), `at${j}`, arithmetic);
    const ry = y.format.emitRead('Y', elementIndex('Y', y, `kt${j}`), `bt${j}`, arithmetic);
    body.push(`const kt${j} = k + ${j};`, `if (kt${j} < n) {`, `${rx.code} ${ry.code}`, arithmetic.mulAdd('acc', rx.register, ry.register), '}');
  }
  body.push(shape.blockRuns ? `k = k + ${RS}; kr = kr + 1;` : 'k = k + S;', '}', ...acc.combine);
  return { args, body };
}

/** Shape of a grouped first pass: adjacent elements per run, runs per loop step, accumulators, vector loads. */
export interface GroupShape {
  readonly width: number;
  readonly groups: number;
  readonly chains: number;
  readonly vectorLoads: boolean;
  /** Load each step one step ahead (the `dotPrefetch` switch, ../shared/prefetched-steps.ts). */
  readonly prefetch: boolean;
  /** Sum each workgroup's partials in the first pass (the `dotFusedTree` switch, or `dotWorkgroupFinish` where it falls back). */
  readonly fusedTree: boolean;
  /** Each workgroup's runs of a step as one contiguous block (the `dotBlockRuns` switch; T a multiple of 64). */
  readonly blockRuns: boolean;
}

/** The vector read of `array`'s format when the shape reads runs of four with vector loads. */
function vectorReadOf(array: DeviceArray, shape: GroupShape): VectorRead | undefined {
  // A strided view reads element by element (its elements are not adjacent words). Runs of eight (dotOctetRuns): the
  // format's 16-byte octet read.
  if (!shape.vectorLoads || array.isView) return undefined;
  return shape.width === 4 ? array.format.vectorRead : shape.width === 8 ? array.format.octetRead : undefined;
}

/**
 * Whether DOT's first pass reads runs of eight elements of `x` and `y` (the `dotOctetRuns` switch): both packed
 * (not views), unscaled, with a 16-byte octet read (bf16, fp16), over one storage binding, in the default runs of four
 * with vector loads (not `dotBlockRuns`).
 * @param x - one operand
 * @param y - the other
 * @param shape - the requested shape
 * @param windows - storage-binding windows of the operands
 * @returns whether the runs take eight elements
 */
function octetRuns(x: DeviceArray, y: DeviceArray, shape: GroupShape, windows: number): boolean {
  const packed = (a: DeviceArray): boolean => !a.isView && !a.rangeScale && !a.format.scaled && a.format.octetRead !== undefined;
  return gpuKernelSwitches().dotOctetRuns && windows === 1 && shape.width === 4 && shape.vectorLoads && !shape.blockRuns && packed(x) && packed(y);
}

/** Binds the vector argument of `array` (when the shape uses one) to the binding of its scalar argument. */
function bindVector(name: string, array: DeviceArray, shape: GroupShape, arrays: Record<string, BoundArray>): void {
  const v = vectorReadOf(array, shape);
  if (v) arrays[`${name}${v.suffix}`] = arrays[name]!;
}

/**
 * The source of a pass summing `count` partials, thread t taking t, t+T, … (in `arithmetic`).
 * @param arithmetic - the arithmetic
 * @returns source and arguments
 */
export function reduceProgramSpec(arithmetic: GpuArithmetic): { source: string; args: [string, 'Array' | 'Integer'][] } {
  const args: [string, 'Array' | 'Integer'][] = [['P', 'Array'], ['count', 'Integer'], ['T', 'Integer']];
  const format = arithmetic.words;
  // Eight loads before their additions (one chain, in the order of k: the result does not depend on it).
  const body = [arithmetic.declareZero('acc'), 'let k = this.thread.x;', `while (k + ${UNROLL - 1} * T < count) {`];
  const regs: GpuRegister[] = [];
  for (let q = 0; q < UNROLL; q++) {
    const read = format.emitRead('P', `k + ${q} * T`, `p${q}`, arithmetic);
    body.push(read.code);
    regs.push(read.register);
  }
  regs.forEach((r) => body.push(arithmetic.add('acc', r)));
  const tail = format.emitRead('P', 'k', 'pt', arithmetic);
  body.push(`k = k + ${UNROLL} * T;`, '}', 'while (k < count) {', tail.code, arithmetic.add('acc', tail.register), 'k = k + T;', '}', `return ${arithmetic.returnValue('acc')};`);
  return { source: kernelSource(args, body), args };
}

let blockRunCalls = 0;
let octetRunCalls = 0;
let workgroupFinishCalls = 0;

/**
 * How many DOT calls this process ran in one dispatch with one ticket a workgroup (the `dotWorkgroupFinish` switch):
 * tests check that the switch takes the path.
 * @returns the count
 */
export function dotWorkgroupFinishCalls(): number {
  return workgroupFinishCalls;
}

/**
 * How many DOT calls this process ran with runs of eight (the `dotOctetRuns` switch): tests check that the switch takes the path.
 * @returns the count
 */
export function dotOctetRunCalls(): number {
  return octetRunCalls;
}

/**
 * How many DOT calls this process ran with block runs (the `dotBlockRuns` switch): tests check that the switch takes the path.
 * @returns the count
 */
export function dotBlockRunCalls(): number {
  return blockRunCalls;
}

/**
 * Records the DOT passes; the result (one element in `ff` or `f32` format) is the plan's last buffer.
 * @returns the result buffer holder
 */
async function dotOnDevice(runtime: GpuRuntime, x: DeviceArray, y: DeviceArray, arithmetic: GpuArithmetic, maxThreads: number, requested: GroupShape): Promise<DeviceArray> {
  const n = x.length;
  const context = runtime.context;
  const c = arithmetic.components;
  // Arrays over one storage binding are read through windows, each summed by its own first pass.
  const windows = bindingWindows([x, y], n);
  const split = splitBindings([x, y]);
  const perWindow = windows.length === 1 ? firstPassThreads(n, maxThreads) : Math.ceil(firstPassThreads(n, maxThreads) / 64) * 64;
  // Block runs tile each step with whole 64-thread blocks: one window of a multiple of 64 threads, else the default runs.
  const blocks = requested.blockRuns && !(windows.length === 1 && perWindow % 64 === 0) ? { ...requested, blockRuns: false } : requested;
  // dotOctetRuns: runs of eight 16-bit elements, one 16-byte load an operand (another fixed order, the same bound).
  const octet = octetRuns(x, y, blocks, windows.length);
  if (octet) octetRunCalls++;
  const shape = octet ? { ...blocks, width: 8 } : blocks;
  const shapeKey = `${shape.width}.${shape.groups}.${shape.chains}.${shape.vectorLoads ? 'v' : 's'}${shape.prefetch ? 'p' : ''}${shape.blockRuns ? 'b' : ''}`;
  if (shape.blockRuns) blockRunCalls++;
  const first = perWindow * windows.length;
  // The partials are summed by tree passes (workgroup memory, two dispatches for 2^17 partials) where the device
  // has them, else by passes of REDUCE_FAN_IN per thread.
  const tree = first > 1 && c <= 2 && treeReduction(runtime);
  const { dotFusedFinish, dotWorkgroupFinish } = gpuKernelSwitches();
  // dotWorkgroupFinish: dotFusedTree's first pass and its one tree pass in one dispatch (./dot-workgroup-finish-source.ts),
  // for one binding and 2 to MAX_FINISH_WORKGROUPS whole workgroups; dotFusedTree's bits, and its path elsewhere.
  const workgroups = first / TREE_WORKGROUP;
  if (tree && dotWorkgroupFinish && windows.length === 1 && !arithmetic.dotVariant && Number.isInteger(workgroups) && workgroups > 1 && workgroups <= MAX_FINISH_WORKGROUPS && workgroupFinishWords(workgroups, c) * 4 <= bindingLimit(runtime)) {
    workgroupFinishCalls++;
    return workgroupFinishDot(runtime, x, y, arithmetic, workgroups, shape, `${maxThreads}|${shapeKey}`);
  }
  // dotFusedFinish: the tree passes inside the first pass's dispatch (./dot-fused-finish-source.ts), where its one
  // binding and block count allow; the same bits. (Under dotWorkgroupFinish, whose bits are dotFusedTree's, it stays off.)
  if (tree && dotFusedFinish && !dotWorkgroupFinish && windows.length === 1 && !arithmetic.dotVariant && Math.ceil(first / FUSED_BLOCK) <= MAX_FUSED_BLOCKS && fusedLayout(first, c).total * 4 <= bindingLimit(runtime)) {
    return fusedFinishDot(runtime, x, y, arithmetic, first, shape, `${maxThreads}|${shapeKey}`);
  }
  // dotFusedTree: the first pass adds each workgroup's sums itself (one tree pass fewer), where it has whole workgroups.
  const fused = tree && shape.fusedTree && windows.length === 1 && first % TREE_WORKGROUP === 0 && first > TREE_WORKGROUP;
  const treePasses = fused ? treePlan(first / TREE_WORKGROUP).map((p, i) => (i === 0 ? { ...p, stride: TREE_WORKGROUP } : p)) : tree ? treePlan(first) : [];
  const sizes = tree ? treePasses.map((p) => p.threads) : reducePlan(first);
  const counts = [first, ...sizes];
  const key = `dot|${objectId(x)}|${objectId(y)}|${n}|${arithmetic.name}|${maxThreads}|${shapeKey}|${fused ? 'fused' : tree ? 'tree' : 'passes'}`;
  const plan = getPlan(runtime, key, windows.length + sizes.length, () => counts.map((t) => boundedScratch(createWordBuffer(context, t * c))));
  // ffExactProducts: 16-bit operands' lazy terms without TwoProd (src/backends/webgpu/ff-exact-products.ts).
  // ffFoldedProducts / ffLeanSettle: float-float's cheaper lazy terms and settles (src/formats/ff/ff-folded-products.ts,
  // ff-lean-settle.ts), the exact 16-bit products taken before the folded ones.
  const firstPass = exactProductPass(streamingPass(arithmetic.dotVariant?.(operandsOf(x, y)) ?? arithmetic), x, y);
  const partial = memo(`dot1|${firstPass.name}|${readKey(x)}|${readKey(y)}|${shapeKey}|${fused}`, () => partialSource(firstPass, x, y, shape, fused));
  const p1 = await getProgram(context, { source: partial.source, args: partial.args, components: c, ...(fused ? { workgroup: { workgroupSize: TREE_WORKGROUP, workgroupArrays: [{ type: 'f32' as const, length: TREE_WORKGROUP * c }] } } : {}) });
  const reduce = tree ? memo(`dottree|${arithmetic.name}`, () => treeReduceSpec(arithmetic)) : memo(`dotr|${arithmetic.name}`, () => reduceProgramSpec(arithmetic));
  const pr = await getProgram(context, tree ? (reduce as ProgramSpec) : { source: reduce.source, args: reduce.args, components: c });
  const passes: { pass: Pass; cache: PassCache }[] = [];
  windows.forEach((w, k) => {
    const arrays: Record<string, BoundArray> = {};
    const scalars: Record<string, number> = { n: w.count, T: perWindow };
    bindArray('X', x, arrays, scalars);
    bindArray('Y', y, arrays, scalars);
    if (split) {
      bindWindow('X', x, w, arrays, scalars);
      bindWindow('Y', y, w, arrays, scalars);
    }
    bindVector('X', x, shape, arrays);
    bindVector('Y', y, shape, arrays);
    const output = windows.length > 1 ? { buffer: plan.scratch[0]!, offset: k * perWindow * c * 4, size: perWindow * c * 4 } : { buffer: plan.scratch[0]! };
    passes.push({ pass: { program: p1, arrays, scalars, output, threads: perWindow }, cache: plan.passes[k]! });
  });
  for (let s = 1; s < counts.length; s++) {
    const scalars: Record<string, number> = tree ? { count: treePasses[s - 1]!.count, stride: treePasses[s - 1]!.stride } : { count: counts[s - 1]!, T: counts[s]! };
    passes.push({
      pass: { program: pr, arrays: { P: { buffer: plan.scratch[s - 1]! } }, scalars, output: { buffer: plan.scratch[s]! }, threads: counts[s]! },
      cache: plan.passes[windows.length + s - 1]!,
    });
  }
  submitPasses(context, passes);
  // A view of the plan's last buffer as a one-element array (not owned: do not destroy).
  return bufferView(runtime, plan.scratch[counts.length - 1]!, arithmetic.words, 1);
}

/** The call parity of each one-dispatch plan (which of its two slot regions the next call writes). */
const fusedParity = new WeakMap<object, number>();

/** The first pass's lines for a thread index, in the arithmetic's first-pass form (the one-dispatch programs). */
function firstPassOf(arithmetic: GpuArithmetic, x: DeviceArray, y: DeviceArray, shape: GroupShape): FirstPassLines {
  const pass = exactProductPass(streamingPass(arithmetic), x, y);
  return (t) => firstPassLines(pass, x, y, shape, t);
}

/**
 * Records the one-dispatch DOT (the `dotFusedFinish` switch) of `first` first-pass partials; the result is the first
 * element of the plan's atomic buffer.
 * @returns a view of the result
 */
async function fusedFinishDot(runtime: GpuRuntime, x: DeviceArray, y: DeviceArray, arithmetic: GpuArithmetic, first: number, shape: GroupShape, shapeKey: string): Promise<DeviceArray> {
  const c = arithmetic.components;
  const recompute = gpuKernelSwitches().fusedFinishRecompute;
  const layout = fusedLayout(first, c);
  const spec = memo(`dotfused|${arithmetic.name}|${readKey(x)}|${readKey(y)}|${shapeKey}|${recompute}`, () => fusedFinishSpec(arithmetic, firstPassOf(arithmetic, x, y, shape), recompute));
  const scalars = { T: first, W0: layout.workgroups, G1: layout.blocks, L1: layout.level1, L0: layout.level0 };
  return ticketedDot(runtime, x, y, arithmetic, shape, { key: `dotfused|${objectId(x)}|${objectId(y)}|${x.length}|${arithmetic.name}|${shapeKey}`, words: () => fusedInitialWords(first, c), spec, scalars, threads: layout.workgroups * TREE_WORKGROUP });
}

/**
 * Records the one-ticket DOT (the `dotWorkgroupFinish` switch) of `workgroups` first-pass workgroups; the result is the
 * first element of the plan's atomic buffer.
 * @returns a view of the result
 */
async function workgroupFinishDot(runtime: GpuRuntime, x: DeviceArray, y: DeviceArray, arithmetic: GpuArithmetic, workgroups: number, shape: GroupShape, shapeKey: string): Promise<DeviceArray> {
  const c = arithmetic.components;
  const recompute = gpuKernelSwitches().fusedFinishRecompute;
  const spec = memo(`dotwgfinish|${arithmetic.name}|${readKey(x)}|${readKey(y)}|${shapeKey}|${recompute}`, () => workgroupFinishSpec(arithmetic, firstPassOf(arithmetic, x, y, shape), recompute));
  const threads = workgroups * TREE_WORKGROUP;
  return ticketedDot(runtime, x, y, arithmetic, shape, { key: `dotwgfinish|${objectId(x)}|${objectId(y)}|${x.length}|${arithmetic.name}|${shapeKey}`, words: () => workgroupFinishInitialWords(workgroups, c), spec, scalars: { T: threads, W0: workgroups }, threads });
}

/**
 * Records a one-dispatch DOT program over x and y: its plan (under `form.key`) holds the atomic buffer (first contents
 * `form.words()`) and a four-word stand-in output the program never stores to; the uniform `par` alternates per call
 * of the plan (which slot region the call writes). The result is the atomic buffer's first element.
 * @returns a view of the result
 */
async function ticketedDot(runtime: GpuRuntime, x: DeviceArray, y: DeviceArray, arithmetic: GpuArithmetic, shape: GroupShape, form: { key: string; words: () => Uint32Array; spec: ProgramSpec; scalars: Record<string, number>; threads: number }): Promise<DeviceArray> {
  const context = runtime.context;
  const plan = getPlan(runtime, form.key, 2, () => {
    const words = form.words();
    return [createWordBuffer(context, words.length, words), createWordBuffer(context, 4)];
  });
  const program = await getProgram(context, form.spec);
  const parity = fusedParity.get(plan) ?? 0;
  fusedParity.set(plan, 1 - parity);
  const arrays: Record<string, BoundArray> = {};
  const scalars = withScalars({ n: x.length }, form.scalars);
  scalars.par = parity;
  bindArray('X', x, arrays, scalars);
  bindArray('Y', y, arrays, scalars);
  bindVector('X', x, shape, arrays);
  bindVector('Y', y, shape, arrays);
  arrays.PAtomic = { buffer: plan.scratch[0]! };
  // A pass cache per parity: the two forms of the call differ only in `par`.
  submitPasses(context, [{ pass: { program, arrays, scalars, output: { buffer: plan.scratch[1]! }, threads: form.threads }, cache: plan.passes[parity]! }]);
  return bufferView(runtime, plan.scratch[0]!, arithmetic.words, 1);
}

/** The first-pass thread limit of `options` (default 2^17). @throws {@link modprec!ModprecError} `INVALID_SIZE` unless a positive integer */
function maxThreadsOf(options: GpuDotOptions): number {
  if (options.maxThreads === undefined) return DEFAULT_SHAPE.maxThreads;
  // The check every call runs on this option (kernels/shared/kernel-options.ts), the public kernels' refusal included.
  GPU_TUNING_OPTIONS.maxThreads!(options.maxThreads);
  return options.maxThreads;
}

/**
 * The first-pass shape of `options` ({@link DEFAULT_SHAPE} when no width is given; with a width, 8 / width runs
 * and 1 accumulator unless set).
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` for a width other than 1, 2, 4, groups outside 1…16 or chains outside 1…8
 */
function groupShapeOf(options: GpuDotOptions, arithmetic: GpuArithmetic, operands: GpuDotOperands): GroupShape {
  // null is a value (refused), not an omitted option: the public kernels check it so (kernel-options.ts).
  const width = options.groupWidth === undefined ? DEFAULT_SHAPE.groupWidth : options.groupWidth;
  GPU_TUNING_OPTIONS.groupWidth!(width);
  // The arithmetic's own defaults for these operands (dd: 1 chain, its lean windows of eight or the long window; 4 runs
  // for f64·f64 in the long window) where the call leaves the shape to DOT.
  const groups = options.groups !== undefined ? options.groups : (options.groupWidth === undefined ? arithmetic.dotGroups?.(operands) ?? DEFAULT_SHAPE.groups : Math.max(1, UNROLL / width));
  checkIntegerOption('options.groups', groups, 16);
  const chains = checkChains(options.chains, options.groupWidth === undefined ? arithmetic.dotChains?.(operands) ?? DEFAULT_SHAPE.chains : 1);
  const vectorLoads = options.vectorLoads === undefined ? true : options.vectorLoads;
  GPU_TUNING_OPTIONS.vectorLoads!(vectorLoads);
  const { dotPrefetch, dotFusedTree, dotWorkgroupFinish, dotBlockRuns } = gpuKernelSwitches();
  // dotWorkgroupFinish has dotFusedTree's bits, and takes its path where it does not apply.
  return { width, groups, chains, vectorLoads, prefetch: dotPrefetch, fusedTree: dotFusedTree || dotWorkgroupFinish, blockRuns: dotBlockRuns };
}

/** The operands' storage formats, which an arithmetic's DOT form may depend on (dd: the long window for f64 storage). */
function operandsOf(x: DeviceArray, y: DeviceArray): GpuDotOperands {
  return { x: x.format.name, y: y.format.name };
}

function validate(x: DeviceArray, y: DeviceArray): void {
  if (!(x instanceof DeviceArray)) fail('INVALID_STORAGE', 'x', 'must be a DeviceArray (see toDevice)', x);
  if (!(y instanceof DeviceArray)) fail('INVALID_STORAGE', 'y', 'must be a DeviceArray (see toDevice)', y);
  if (x.length !== y.length) fail('DIMENSION_MISMATCH', 'y', `must have the length of x (${x.length})`, y.length);
}

/**
 * Dot product of two resident arrays on the GPU (the CPU when they are host-resident).
 *
 * @param x - first operand
 * @param y - second operand, same length
 * @param options - arithmetic (`f32` or `ff`), first-pass threads
 * @returns the value and which backend/adapter ran it
 * @throws {@link modprec!ModprecError} `DIMENSION_MISMATCH` for different lengths; `INVALID_STORAGE` for non-resident or mixed operands
 * @example
 * ```ts
 * import { toDevice, gpuDot } from 'modprec/gpu';
 *
 * const x = await toDevice([1, 2, 3], { format: 'f32' });
 * const { value, backend, adapter } = await gpuDot(x, x, { arithmetic: 'ff' });
 * value; // → 14
 * console.log(backend, adapter); // 'gpu' and the adapter's name, or 'cpu' and '' where there is none
 * ```
 * @group GPU
 */
export async function gpuDot(x: DeviceArray, y: DeviceArray, options: GpuDotOptions = {}): Promise<GpuDotResult> {
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  return throughInterleaved([x, y], undefined, (dd) => gpuDotOf(dd(x), dd(y), options));
}

/**
 * DOT's `into` belongs to `dot(x, y, { backend: 'gpu', into })`, which writes a range; the resident calls return the
 * value (gpuDot) or a device array (gpuDotResident), so an `into` there would be ignored: refused instead.
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options.into`
 */
function refuseInto(options: GpuDotOptions): void {
  const into = (options as { into?: unknown }).into;
  if (into !== undefined) fail('INVALID_OPTION', 'options.into', "is not an option of gpuDot or gpuDotResident (gpuDotResident returns the result on the device; dot(x, y, { backend: 'gpu', into }) writes a range)", into);
}

/** gpuDot on operands in the kernels' layouts. */
async function gpuDotOf(x: DeviceArray, y: DeviceArray, options: GpuDotOptions): Promise<GpuDotResult> {
  checkResidentOptions(options, 'gpuDot');
  refuseInto(options);
  validate(x, y);
  const maxThreads = maxThreadsOf(options);
  const arithmetic = chooseArithmetic(options, [x, y]);
  const shape = groupShapeOf(options, arithmetic, operandsOf(x, y));
  const runtime = commonRuntime({ x, y }, ['x', 'y']);
  if (!runtime) {
    allowFallback(options, x.fallbackReason);
    const value = await hostDot(x, y, arithmetic);
    return { value, ...runInfo(undefined, arithmetic, x.fallbackReason) };
  }
  const result = await dotOnDevice(runtime, x, y, arithmetic, maxThreads, shape);
  const [value] = await result.toHost();
  return { value: value!, ...runInfo(runtime, arithmetic, '') };
}

/**
 * Dot product left on the device (no read back): for chaining and for timing many resident runs.
 * The returned one-element array is a view of the kernel's own result buffer: the next DOT on the same operands
 * overwrites it (copy it with `gpuConvert` to keep it), and destroying it releases only the view — the buffer
 * stays the kernel's.
 * @param x - first operand
 * @param y - second operand
 * @param options - arithmetic
 * @returns the one-element result array and the run report
 * @throws {@link modprec!ModprecError} as {@link gpuDot}; `BACKEND_UNAVAILABLE` for host-resident operands
 * @example
 * ```ts
 * import { toDevice, gpuDotResident } from 'modprec/gpu';
 *
 * const x = await toDevice([1, 2, 3]), y = await toDevice([4, 5, 6]);
 * // The result stays on the device, so this needs an adapter (host-resident operands: BACKEND_UNAVAILABLE).
 * const { result } = await gpuDotResident(x, y, { arithmetic: 'ff' });
 * await result.toHost(); // → Float64Array(1) [ 32 ]
 * ```
 * @group GPU
 */
export async function gpuDotResident(x: DeviceArray, y: DeviceArray, options: GpuDotOptions = {}): Promise<{ result: DeviceArray; info: GpuRunInfo }> {
  // A dd-split operand runs on its interleaved dd copy (dd-split-device.ts).
  return throughInterleaved([x, y], undefined, (dd) => gpuDotResidentOf(dd(x), dd(y), options));
}

/** gpuDotResident on operands in the kernels' layouts. */
async function gpuDotResidentOf(x: DeviceArray, y: DeviceArray, options: GpuDotOptions): Promise<{ result: DeviceArray; info: GpuRunInfo }> {
  checkResidentOptions(options, 'gpuDotResident');
  refuseInto(options);
  validate(x, y);
  const maxThreads = maxThreadsOf(options);
  const arithmetic = chooseArithmetic(options, [x, y]);
  const shape = groupShapeOf(options, arithmetic, operandsOf(x, y));
  const runtime = commonRuntime({ x, y }, ['x', 'y']);
  if (!runtime) fail('BACKEND_UNAVAILABLE', 'x', 'must live on a GPU for a resident result');
  // A view of the plan's last buffer (no copy, no allocation: the resident API is the fast one); destroying it lets go
  // of the view only, so the plan's later DOTs keep their buffer.
  return { result: await dotOnDevice(runtime, x, y, arithmetic, maxThreads, shape), info: runInfo(runtime, arithmetic, '') };
}
