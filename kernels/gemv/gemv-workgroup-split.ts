/**
 * Records GEMV N with the reduction split inside a workgroup (the `gemvWorkgroupSplit` switch; the program:
 * ./gemv-workgroup-split-source.ts): one dispatch, the two-pass default's bits, for a packed y in a plain format where
 * a workgroup holds every chunk (S ≤ W) — the caller (./gemv-webgpu.ts) checks the rest, as for the one-dispatch form
 * with tickets. The row pass's lines are the caller's: the arithmetic's, or with `gemvWorkgroupSplitExact` float-float's
 * exact 16-bit products (its partials the same float-float pairs, added here in the arithmetic).
 *
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { bindExtent, createSpanBuffer, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { scalarBindings } from '../../src/backends/webgpu/finish-pass.js';
import { bindArray, getPlan, memo, readKey, withScalars, type Plan } from '../../src/backends/webgpu/kernel-common.js';
import { gpuKernelSwitchKey } from '../../src/backends/webgpu/kernel-switches.js';
import { getProgram, submitPasses, type BoundArray } from '../../src/backends/webgpu/program.js';
import { createWordBuffer, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';
import type { PartialRowsLines } from './gemv-fused-finish-source.js';
import { gemvWorkgroupSplitLayout, gemvWorkgroupSplitMemory, gemvWorkgroupSplitSpec } from './gemv-workgroup-split-source.js';
import type { DeviceMatrix } from './gemv-webgpu.js';

let calls = 0;

/**
 * How many GEMV N calls this process ran in the workgroup-split form: tests check that the switch takes the path.
 * @returns the count
 */
export function gemvWorkgroupSplitCalls(): number {
  return calls;
}

/**
 * Whether the adapter runs the workgroup-split form of S chunks in workgroups of W invocations (R rows a thread, `words`
 * words a partial): S ≤ W, W invocations and the partials' workgroup memory within the adapter's limits.
 * @param runtime - the runtime
 * @param W - invocations per workgroup (the switch's value)
 * @param S - chunks
 * @param R - rows per thread
 * @param words - the arithmetic's words
 * @returns whether it fits
 */
export function gemvWorkgroupSplitFits(runtime: GpuRuntime, W: number, S: number, R: number, words: number): boolean {
  const limits = workgroupLimits(runtime);
  return S <= W && W <= limits.invocations && 4 * gemvWorkgroupSplitMemory(W, R, words) <= limits.memory;
}

/** Each device's workgroup limits, read once (a device's limits never change; each read is a call into Dawn). */
const deviceLimits = new WeakMap<object, { invocations: number; memory: number }>();
function workgroupLimits(runtime: GpuRuntime): { invocations: number; memory: number } {
  const device = runtime.context.device;
  let known = deviceLimits.get(device);
  if (!known) {
    // The device's own limits (at least WebGPU's core 256 invocations and 16 KiB where the adapter offers them).
    const limits = device.limits;
    const most = (name: string): number => limits[name] ?? 0;
    known = { invocations: Math.min(most('maxComputeInvocationsPerWorkgroup'), most('maxComputeWorkgroupSizeX')), memory: most('maxComputeWorkgroupStorageSize') };
    deviceLimits.set(device, known);
  }
  return known;
}

/**
 * What a plan's warm calls reuse: its spec (per setting of the kernel switches), the layout, and the argument records
 * refilled in place (nothing built per call). The plan's key holds A, x and y (their formats and layouts), the shape,
 * the arithmetic and β ≠ 0, which fix all of these; buffers and scalars are bound again every call (a buffer swapped by
 * a ping-pong, a range scale rewritten).
 */
interface SplitState {
  switches: string;
  spec: ReturnType<typeof gemvWorkgroupSplitSpec>;
  readonly layout: { B: number; workgroups: number };
  readonly arrays: Record<string, BoundArray>;
  readonly scalars: Record<string, number>;
  /** The names of the vector views of A and x that bind A's and x's buffers too (none: ''). */
  readonly aRun: string;
  readonly xVector: string;
}

const states = new WeakMap<Plan, SplitState>();

/**
 * Records the call: y's new words go to the plan's spare buffer, which then becomes y's (the two-pass form's ping-pong).
 * @param runtime - the runtime
 * @param key - the plan's key (operands, shape, form)
 * @param ops - A (packed, one binding), x and y (packed)
 * @param arithmetic - the arithmetic
 * @param shape - α, β, rows per thread R, workgroup size W, chunks, the partial pass's uniforms, the bindings its vector
 *   reads of A and x need, and the key of its lines
 * @param lines - the partial pass's lines for a thread index
 */
export async function gemvWorkgroupSplitN(runtime: GpuRuntime, key: string, ops: { A: DeviceMatrix; x: DeviceArray; y: DeviceArray }, arithmetic: GpuArithmetic, shape: { alpha: number; beta: number; R: number; W: number; splits: number; partialScalars: Record<string, number>; runSuffix: string | undefined; vectorX: boolean; specKey: string }, lines: PartialRowsLines): Promise<void> {
  const { A, x, y } = ops;
  const context = runtime.context;
  const readsY = shape.beta !== 0;
  // y's next buffer and a stand-in output the program never stores to.
  const plan = getPlan(runtime, key, 1, () => [createSpanBuffer(runtime, y), createWordBuffer(context, 4)]);
  const switches = gpuKernelSwitchKey();
  let state = states.get(plan);
  if (!state || state.switches !== switches) {
    const spec = memo(`gemvwgsplit|${arithmetic.name}|${readKey(A.data)}|${readKey(x)}|${readKey(y)}|${readsY}|${shape.W}|${shape.specKey}`, () => gemvWorkgroupSplitSpec(arithmetic, y, readsY, shape.R, shape.W, lines));
    const layout = gemvWorkgroupSplitLayout(shape.splits, shape.partialScalars.G!, shape.W, shape.R, y.format.elementsPerWord);
    state = { switches, spec, layout, arrays: {}, scalars: { ...shape.partialScalars, S: shape.splits, B: layout.B, rows: y.length }, aRun: shape.runSuffix ? `A${shape.runSuffix}` : '', xVector: shape.vectorX ? `X${x.format.vectorRead!.suffix}` : '' };
    states.set(plan, state);
  }
  const program = await getProgram(context, state.spec);
  const { arrays, scalars, layout } = state;
  withScalars(scalars, scalarBindings(arithmetic, shape.alpha, shape.beta));
  bindArray('A', A.data, arrays, scalars);
  bindExtent('X', x, arrays, scalars);
  if (state.aRun) arrays[state.aRun] = arrays.A!;
  if (state.xVector) arrays[state.xVector] = arrays.X!;
  if (readsY) bindArray('Yold', y, arrays, scalars);
  const out = plan.scratch[0]!;
  arrays.YAtomic = { buffer: out };
  submitPasses(context, [{ pass: { program, arrays, scalars, output: { buffer: plan.scratch[1]! }, threads: layout.workgroups * shape.W }, cache: plan.passes[0]! }]);
  calls++;
  plan.scratch[0] = y.buffer!;
  y.buffer = out;
  y.version++;
}
