/**
 * Sums of many partial results in few dispatches (issue 19): a pass of 256-invocation workgroups where each
 * invocation adds {@link TREE_FAN_IN} partials (loads issued together) and the workgroup then adds its 256 sums
 * pairwise in workgroup memory (8 levels, one barrier each). 2^17 partials take two such passes instead of four
 * passes of 32 per thread; every dispatch costs a launch and a memory latency, a visible share of a 0.2–0.4 ms
 * DOT on the H100. The order is fixed, so results are reproducible run to run.
 *
 * Workgroup w's sum is thread w·256's output (the program writes one output per thread, as every gpu.js program),
 * so the next pass reads its partials with stride 256.
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from './arithmetic.js';
import { kernelSource } from './kernel-common.js';
import type { ArgType, ProgramSpec } from './program.js';
import type { GpuRuntime } from './runtime.js';
import { gpuKernelSwitches } from './kernel-switches.js';

/** Invocations per workgroup of a tree pass. */
export const TREE_WORKGROUP = 256;
/** Partials each invocation of a tree pass adds before the workgroup's pairwise sum. */
export const TREE_FAN_IN = 8;

/**
 * Whether tree passes run here: the device has 256-invocation workgroups (modprec asks for them where the adapter
 * has them), and the `tree` switch is on (./kernel-switches.ts; `MODPREC_GPU_TREE=0` turns it off, and the
 * benchmarks time the multi-pass reduction that way).
 * @param runtime - the runtime
 * @returns whether to use {@link treeReduceSpec}
 */
export function treeReduction(runtime: GpuRuntime): boolean {
  return gpuKernelSwitches().tree && runtime.context.adapter.limits.maxComputeInvocationsPerWorkgroup >= TREE_WORKGROUP;
}

/**
 * The passes a tree reduction of `count` partials takes: for each, its thread count (whole workgroups), the
 * partials it reads and their stride.
 * @param count - partials (≥ 2)
 * @returns the passes, in order; the last has one workgroup
 */
export function treePlan(count: number): { threads: number; count: number; stride: number }[] {
  const passes: { threads: number; count: number; stride: number }[] = [];
  let stride = 1;
  while (count > 1 || passes.length === 0) {
    const groups = Math.ceil(count / (TREE_WORKGROUP * TREE_FAN_IN));
    passes.push({ threads: groups * TREE_WORKGROUP, count, stride });
    count = groups;
    stride = TREE_WORKGROUP;
  }
  return passes;
}

/** Word k of register `name` as a binary32 expression. */
function word(arithmetic: GpuArithmetic, name: string, k: number): string {
  return arithmetic.components === 1 ? name : `${name}[${k}]`;
}

/**
 * The program of one tree pass in `arithmetic`: arguments P (the partials, the arithmetic's words), count and
 * stride (partial k at P[k·stride]).
 * @param arithmetic - the arithmetic
 * @returns the program spec
 */
export function treeReduceSpec(arithmetic: GpuArithmetic): ProgramSpec {
  const c = arithmetic.components;
  const args: (readonly [string, ArgType])[] = [['P', 'Array'], ['count', 'Integer'], ['stride', 'Integer']];
  const words = arithmetic.words;
  const body = ['const l = mpLocalId();', `const base = mpGroupId() * ${TREE_WORKGROUP * TREE_FAN_IN} + l;`, arithmetic.declareZero('acc')];
  // Loads first (clamped into range; out-of-range ones are not added), then the additions in the order of k.
  const regs: GpuRegister[] = [];
  for (let f = 0; f < TREE_FAN_IN; f++) {
    body.push(`const k${f} = base + ${f * TREE_WORKGROUP};`, `let c${f} = k${f};`, `if (c${f} >= count) { c${f} = count - 1; }`);
    const read = words.emitRead('P', `c${f} * stride`, `p${f}`, arithmetic);
    body.push(read.code);
    regs.push(read.register);
  }
  regs.forEach((r, f) => body.push(`if (k${f} < count) {`, arithmetic.add('acc', r), '}'));
  body.push(...workgroupPairwiseSum(arithmetic));
  body.push(`return ${arithmetic.returnValue('acc')};`);
  return {
    source: kernelSource(args, body),
    args,
    components: c,
    workgroup: { workgroupSize: TREE_WORKGROUP, workgroupArrays: [{ type: 'f32', length: TREE_WORKGROUP * c }] },
  };
}

/**
 * Lines adding the `acc` of a workgroup's {@link TREE_WORKGROUP} invocations pairwise in workgroup memory (array 0,
 * TREE_WORKGROUP·words long; `l` = `mpLocalId()` declared by the caller): at level s, invocation l < s adds the value
 * of l + s (written one level earlier); invocation 0 ends with the workgroup's sum. Every invocation reaches every
 * barrier.
 * @param arithmetic - the arithmetic of `acc`
 * @returns the lines
 */
export function workgroupPairwiseSum(arithmetic: GpuArithmetic): string[] {
  const c = arithmetic.components;
  const body: string[] = [];
  for (let k = 0; k < c; k++) body.push(`mpSharedSet(0, l * ${c} + ${k}, ${word(arithmetic, 'acc', k)});`);
  for (let s = TREE_WORKGROUP / 2; s >= 1; s /= 2) {
    body.push('mpBarrier();', `if (l < ${s}) {`);
    const other = Array.from({ length: c }, (_, k) => `mpShared(0, (l + ${s}) * ${c} + ${k})`);
    body.push(`const o${s} = ${c === 1 ? other[0] : `[${other.join(', ')}]`};`, arithmetic.add('acc', arithmetic.register(`o${s}`)));
    if (s > 1) for (let k = 0; k < c; k++) body.push(`mpSharedSet(0, l * ${c} + ${k}, ${word(arithmetic, 'acc', k)});`);
    body.push('}');
  }
  return body;
}
