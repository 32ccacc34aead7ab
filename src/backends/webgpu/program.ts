/**
 * A compiled GPU program: a gpu.js kernel (JavaScript subset → WGSL by gpu.js's translator, extended by
 * ./gpujs-extensions.ts) whose compute pipeline modprec dispatches itself, on its own resident buffers,
 * several passes per command buffer. gpu.js's own `run()` would upload arguments and submit once per
 * call; recording passes directly keeps data on the device and multi-pass kernels in one submit.
 *
 * Programs are cached by their source and argument signature (the counterpart of a C++ template
 * instantiation): sizes are not part of the key — they arrive in the uniform parameters.
 *
 * @module
 */
import { fail, ModprecError } from '../../core/errors.js';
import { trackGpuWork, type GpuContext } from './backend.js';
import type { WorkgroupSettings } from './gpujs-extensions.js';
import { BufferUsage, type GpuBindGroupEntry, type GpuBuffer, type GpuComputePass } from './webgpu-types.js';
import { DD_LO_SUFFIX, PAIR_OUTPUT_ARGS, pairBindings } from './dd-split-bindings.js';
import { timestampWritesOf } from './gpu-timestamps.js';
import { openBatch } from './batched-submit.js';
import { appendCoalesced, coalescing, flushCoalesced } from './coalesced-submit.js';

/** Declared type of a kernel argument: a resident array, or an integer or float scalar. */
export type ArgType = 'Array' | 'Integer' | 'Float';

/** What a program is compiled from. */
export interface ProgramSpec {
  /** Kernel source in gpu.js's JavaScript subset: `function (a, b, …) { … return v; }`. */
  readonly source: string;
  /** Argument names in order with their types. */
  readonly args: readonly (readonly [string, ArgType])[];
  /** 1 (one f32 word per thread), 2 (a pair: `return [hi, lo]`) or 4 (`return [a, b, c, d]`). */
  readonly components: 1 | 2 | 4;
  /**
   * Workgroup size and workgroup arrays (gpujs-extensions.ts: `mpLocalId`, `mpShared…`, `mpBarrier`). A program
   * with them runs whole workgroups only: its thread count must be a multiple of the size.
   */
  readonly workgroup?: WorkgroupSettings;
  /**
   * Thread t writes its result at output unit `OutOff + t·OutInc` (a unit: the thread's `components` words) instead
   * of unit t: the program must declare the Integer arguments `OutOff` and `OutInc`. An elementwise kernel then
   * writes a strided view of its output's span in place (gpujs-extensions.ts, `applyStridedOutput`).
   */
  readonly stridedOutput?: boolean;
  /**
   * With `stridedOutput`, for a sub-word output view (`lanes` elements a word): thread t writes only the lane of its
   * word holding span element `OutOff + t·OutInc` (counted in elements), every other lane kept (gpujs-extensions.ts,
   * `applyLaneOutput`). The thread's result word holds its element in lane 0. `atomic` where two threads may write
   * lanes of one word (|OutInc| < lanes): the output binding is then read and written only through atomics.
   */
  readonly laneOutput?: false | { readonly lanes: 2 | 4; readonly atomic: boolean };
  /**
   * Array arguments read from the output binding instead of their own (an input that is the output view itself: each
   * thread reads only what it writes), without a copy (gpujs-extensions.ts, `applyInputsFromOutput`): their offset
   * uniforms count from the output binding's first element, and their own bindings are not read.
   */
  readonly readsOutput?: readonly string[];
  /**
   * The output is a dd pair store (dd or dd-split storage, 4 components): the program gets the Integer arguments
   * `OutDdS` and `OutDdL` (appended here, set at dispatch) and thread t's hi words go to word t·OutDdS of its output
   * binding, its lo words OutDdL further (gpujs-extensions.ts, `applyPairOutput`) — interleaved dd and a dd-split
   * buffer's two blocks written in place by the same program (dd-split-bindings.ts).
   */
  readonly pairOutput?: boolean;
  /**
   * A 4-component result stored as one 16-byte vector (gpujs-extensions.ts, `applyVectorOutput`) instead of four
   * words; no other output option. Each dispatch's output binding must hold 16 bytes per thread (checked).
   */
  readonly vectorOutput?: boolean;
}

interface ParamsLayout {
  arrayArgs: { name: string; index: number; dimsOffset: number }[];
  scalarArgs: { name: string; index: number; offset: number; type: string }[];
  byteLength: number;
}

interface BuiltKernel {
  computePipeline: unknown;
  bindGroupLayout: unknown;
  paramsLayout: ParamsLayout;
  compiledSource: string;
  build(...args: unknown[]): Promise<void>;
}

/** A buffer window bound to one array argument (offsets in bytes, aligned to the adapter's minimum). */
export interface BoundArray {
  readonly buffer: GpuBuffer;
  /** Byte offset of the window (default 0). */
  readonly offset?: number;
  /** Byte size of the window (default: rest of the buffer). */
  readonly size?: number;
}

/** One dispatch of a program. */
export interface Pass {
  readonly program: Program;
  /** Array arguments, by name. */
  readonly arrays: Readonly<Record<string, BoundArray>>;
  /** Scalar arguments, by name. */
  readonly scalars: Readonly<Record<string, number>>;
  /** Where the threads' results go (thread t writes words t·components …). */
  readonly output: BoundArray;
  /** Number of threads. */
  readonly threads: number;
}

let debug = false;

/** The lowered storage-binding limit tests plan with (device-array.ts, setBindingLimitForTests), checked per binding. */
let testBindingLimit: number | undefined;

/** Buffers whose size does not grow with an operand (partial sums of a reduction): the check passes them. */
const boundedBuffers = new WeakSet<GpuBuffer>();

/**
 * Marks `buffer` as one whose size is bounded independently of the operands (a reduction's partial sums: at most
 * a few MiB), so the lowered-limit check of tests ({@link checkBindingsAgainst}) lets it be bound whole.
 * @param buffer - the buffer
 * @returns the buffer
 */
export function boundedScratch(buffer: GpuBuffer): GpuBuffer {
  boundedBuffers.add(buffer);
  return buffer;
}

/**
 * Makes every dispatch check that each of its storage bindings fits `bytes` (`undefined`: no check): with the limit
 * the kernels plan with lowered for a test, a binding over it is a kernel that did not split, and fails at once
 * instead of passing on an adapter whose real limit is larger. Set by device-array.ts's setBindingLimitForTests.
 * @param bytes - the limit, or undefined
 */
export function checkBindingsAgainst(bytes: number | undefined): void {
  testBindingLimit = bytes;
}

/**
 * Turns on printing of every newly compiled program's WGSL (as gpu.js generated it).
 * @param on - print or not
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `on` when it is not a boolean
 * @example
 * ```ts
 * import { setGpuKernelDebug, toDevice, gpuNrm2 } from 'modprec/gpu';
 *
 * setGpuKernelDebug(true); // print the WGSL of every program compiled from now on
 * await gpuNrm2(await toDevice([3, 4, 12], { format: 'f16' }), { arithmetic: 'f32' });
 * setGpuKernelDebug(false);
 * ```
 * @group GPU
 */
export function setGpuKernelDebug(on: boolean): void {
  // As setKernelDebug: setGpuKernelDebug('false') turned printing on.
  if (typeof on !== 'boolean') fail('INVALID_OPTION', 'on', 'must be a boolean', on);
  debug = on;
}

/** A compiled program and the metadata to bind and dispatch it. */
export class Program {
  /** The WGSL gpu.js generated (for inspection: `setGpuKernelDebug(true)` prints it). */
  readonly wgsl: string;
  private readonly kernel: BuiltKernel;
  readonly spec: ProgramSpec;
  /** Array arguments read as dd pairs (dd or dd-split): each has a companion `…DdLo` array (dd-split-bindings.ts). */
  private readonly pairReads: readonly string[];

  private constructor(kernel: BuiltKernel, spec: ProgramSpec) {
    this.kernel = kernel;
    this.spec = spec;
    this.wgsl = kernel.compiledSource;
    const arrays = new Set(spec.args.filter(([, t]) => t === 'Array').map(([n]) => n));
    this.pairReads = [...arrays].filter((n) => arrays.has(`${n}${DD_LO_SUFFIX}`));
  }

  /**
   * Compiles `spec` with gpu.js (no cache; use {@link getProgram}).
   * @param context - the GPU context
   * @param spec - source and argument types
   * @returns the compiled program
   */
  static async compile(context: GpuContext, spec: ProgramSpec): Promise<Program> {
    const argumentTypes: Record<string, string> = {};
    const representatives: unknown[] = [];
    // A dd pair store's placement uniforms (dd-split-bindings.ts), appended to the kernel's own arguments.
    const pairArgs = spec.pairOutput ? PAIR_OUTPUT_ARGS : [];
    // gpu.js keeps only the arguments the source uses: one statement uses them (the stores, rewritten later, read them).
    const source = spec.pairOutput ? spec.source.replace(/^function \(([^)]*)\) \{/, (_, a: string) => `function (${[a, ...pairArgs.map(([n]) => n)].filter((n) => n.trim() !== '').join(', ')}) {\nconst mpOutDd = OutDdS + OutDdL;`) : spec.source;
    for (const [name, type] of [...spec.args, ...pairArgs]) {
      argumentTypes[name] = type === 'Array' ? 'WebGPUBuffer' : type === 'Integer' ? 'Integer' : 'Float';
      // Stand-ins: gpu.js only needs their types here; sizes come per dispatch in the params.
      representatives.push(type === 'Array' ? { type: 'WebGPUBuffer', output: [1], componentCount: 1 } : type === 'Integer' ? 1 : 0.5);
    }
    const shortcut = context.gpujs.createKernel(source, {
      output: [1],
      pipeline: true,
      argumentTypes,
      returnType: spec.components === 1 ? 'Number' : `Array(${spec.components})`,
      strictIntegers: true,
      // Loops run to their own runtime bounds; gpu.js's guard counter must never cut one short.
      loopMaxIterations: 2147483647,
      tactic: 'precision',
    });
    const kernel = shortcut.kernel as BuiltKernel & { mpWorkgroup?: WorkgroupSettings; mpWgsl?: string; mpStridedOutput?: boolean; mpLaneOutput?: { lanes: 2 | 4; atomic: boolean }; mpReadsOutput?: readonly string[]; mpPairOutput?: boolean; mpVectorOutput?: boolean };
    if (spec.workgroup) kernel.mpWorkgroup = spec.workgroup;
    if (spec.stridedOutput) kernel.mpStridedOutput = true;
    if (spec.laneOutput) kernel.mpLaneOutput = spec.laneOutput;
    if (spec.pairOutput) kernel.mpPairOutput = true;
    if (spec.vectorOutput) {
      if (spec.components !== 4 || spec.stridedOutput || spec.laneOutput || spec.pairOutput || spec.readsOutput?.length) throw new Error('internal: a vector output is a plain 4-component store');
      kernel.mpVectorOutput = true;
    }
    // A dd pair read from the output binding reads its lo words there too (dd-split-bindings.ts).
    if (spec.readsOutput?.length) kernel.mpReadsOutput = spec.readsOutput.flatMap((n) => (spec.args.some(([a]) => a === `${n}${DD_LO_SUFFIX}`) ? [n, `${n}${DD_LO_SUFFIX}`] : [n]));
    try {
      await trackGpuWork(kernel.build(...representatives));
      if (kernel.mpWgsl !== undefined) await trackGpuWork(buildWithAtomics(context, kernel, kernel.mpWgsl));
    } catch (e) {
      throw new ModprecError('BACKEND_UNAVAILABLE', `gpu.js could not compile a kernel: ${(e as Error).message}`, 'kernel');
    }
    if (debug) console.log(`--- modprec GPU program (WGSL generated by gpu.js) ---\n${kernel.compiledSource}`);
    return new Program(kernel, spec);
  }

  /**
   * Records this dispatch into `computePass` (WebGPU makes every dispatch its own synchronisation scope,
   * so dispatches of one compute pass see each other's writes in order).
   * @param context - the GPU context
   * @param computePass - the compute pass encoder
   * @param pass - buffers, scalars and thread count
   * @param cache - where the uniform buffer and bind group of this pass may be cached (one per plan step)
   */
  encode(context: GpuContext, computePass: GpuComputePass, pass: Pass, cache?: PassCache): void {
    const recorded = cache?.recorded;
    if (recorded && recorded.pass === pass) {
      // The very same pass object as last time: parameters and bindings are unchanged.
      computePass.setPipeline(this.kernel.computePipeline);
      computePass.setBindGroup(0, recorded.group);
      computePass.dispatchWorkgroups(recorded.groupsX, recorded.groupsY);
      return;
    }
    const device = context.device;
    const layout = this.kernel.paramsLayout;
    const limits = context.adapter.limits;
    const workgroup = this.spec.workgroup?.workgroupSize ?? 64; // gpu.js's 1-D workgroup size unless the program sets one
    if (this.spec.workgroup && pass.threads % workgroup !== 0) throw new Error(`internal: a workgroup program needs whole workgroups (${pass.threads} threads)`);
    let groupsX = Math.max(1, Math.ceil(pass.threads / workgroup));
    let groupsY = 1;
    const maxGroups = limits.maxComputeWorkgroupsPerDimension;
    if (groupsX > maxGroups) {
      groupsY = Math.ceil(groupsX / maxGroups);
      groupsX = Math.ceil(groupsX / groupsY);
    }
    if (groupsY > maxGroups) {
      throw new ModprecError('BACKEND_LIMIT', `a pass needs ${pass.threads} threads, over the adapter's maxComputeWorkgroupsPerDimension (${maxGroups})²·${workgroup}`, 'maxComputeWorkgroupsPerDimension');
    }
    if (cache && cache.owner !== this) {
      // A plan step last recorded by another program (a kernel switch changed its source, say): its uniform words,
      // bind groups (made for another layout) and perhaps its uniform buffer do not fit this one.
      if (cache.params && cache.params.size !== layout.byteLength) {
        pendingDestroy.push(cache.params);
        cache.params = undefined;
      }
      cache.uniform = undefined;
      cache.written = undefined;
      cache.groups = undefined;
      cache.recorded = undefined;
      cache.owner = this;
    }
    const uniform = cache?.uniform ?? uniformWords(layout.byteLength);
    if (cache) cache.uniform = uniform;
    const { words, i32, f32 } = uniform;
    words[0] = pass.threads;
    words[1] = 1;
    words[2] = 1;
    words[3] = groupsX * workgroup;
    // dd pair reads: the lo words' binding and placement; a dd-split operand's hi and lo blocks (dd-split-bindings.ts).
    // dd pair stores: the output binding and the pairs' placement (a dd-split output's two blocks in place).
    const { arrays, scalars, output } = this.pairReads.length > 0 || this.spec.pairOutput ? pairBindings(pass, this.pairReads, this.spec.readsOutput, this.spec.pairOutput === true) : pass;
    if (testBindingLimit !== undefined) {
      for (const [name, bound] of [...Object.entries(arrays), ['output', output] as const]) {
        const bytes = bound.size ?? bound.buffer.size - (bound.offset ?? 0);
        if (bytes > testBindingLimit && !boundedBuffers.has(bound.buffer)) throw new Error(`internal: binding ${name} of ${bytes} bytes exceeds the lowered binding limit of ${testBindingLimit} bytes`);
      }
    }
    if (this.spec.vectorOutput && (output.size ?? bufferSize(output.buffer) - (output.offset ?? 0)) < 16 * pass.threads) {
      throw new Error(`internal: a vector-output pass of ${pass.threads} threads needs ${16 * pass.threads} bytes of output binding`);
    }
    for (const record of layout.arrayArgs) {
      const bound = arrays[record.name];
      if (!bound) throw new Error(`internal: array argument ${record.name} not bound`);
      const length = (bound.size ?? bufferSize(bound.buffer) - (bound.offset ?? 0)) / 4;
      const base = record.dimsOffset / 4;
      words[base] = length;
      words[base + 1] = 1;
      words[base + 2] = 1;
      words[base + 3] = length;
    }
    for (const record of layout.scalarArgs) {
      const value = scalars[record.name];
      if (value === undefined) throw new Error(`internal: scalar argument ${record.name} not set`);
      if (record.type === 'Integer') i32[record.offset / 4] = value;
      else f32[record.offset / 4] = value;
    }
    let params = cache?.params;
    if (!params) {
      params = device.createBuffer({ size: layout.byteLength, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
      if (cache) cache.params = params;
      else pendingDestroy.push(params);
    }
    // Repeated calls of a cached plan usually carry the same parameters: skip the upload then.
    if (!cache?.written || !sameWords(cache.written, words)) {
      device.queue.writeBuffer(params, 0, words);
      if (cache) cache.written = words.slice();
    }
    // Bind groups are looked up by the identity of the bound buffers and their windows (no key string per call); a
    // destroyed buffer is never bound again, so a new buffer — a new object — never finds a stale group.
    // (A loop, not `find` with closures: nothing is allocated on the warm path.)
    const arrayArgs = layout.arrayArgs;
    const count = arrayArgs.length + 1;
    let group: unknown;
    const groups = cache?.groups;
    if (groups) {
      for (let g = 0; g < groups.length && group === undefined; g++) if (sameBindings(groups[g]!, arrays, arrayArgs, output)) group = groups[g]!.group;
    }
    if (group === undefined) {
      const entries: GpuBindGroupEntry[] = [{ binding: 0, resource: { buffer: params } }];
      for (let k = 0; k < count; k++) entries.push({ binding: 1 + k, resource: window(boundAt(arrays, arrayArgs, output, k)) });
      group = device.createBindGroup({ layout: this.kernel.bindGroupLayout, entries });
      if (cache) {
        cache.groups ??= [];
        // Ping-pong outputs alternate between two bindings; a few entries cover every plan.
        if (cache.groups.length >= 4) cache.groups.shift();
        cache.groups.push(bindingsOf(arrays, arrayArgs, output, group));
      }
    }
    if (cache) {
      // One record per plan step, updated in place.
      const r = cache.recorded;
      if (r) {
        r.pass = pass;
        r.group = group;
        r.groupsX = groupsX;
        r.groupsY = groupsY;
      } else cache.recorded = { pass, group, groupsX, groupsY };
    }
    computePass.setPipeline(this.kernel.computePipeline);
    computePass.setBindGroup(0, group);
    computePass.dispatchWorkgroups(groupsX, groupsY);
  }
}

/**
 * Builds a program whose WGSL has atomic (read-write) array arguments: gpu.js built a stub against its own
 * layout (every array argument read-only); here the real module gets a layout with those bindings read-write.
 */
async function buildWithAtomics(context: GpuContext, kernel: BuiltKernel, wgsl: string): Promise<void> {
  const device = context.device as unknown as {
    createShaderModule(d: { code: string }): { getCompilationInfo(): Promise<{ messages: { type: string; lineNum: number; linePos: number; message: string }[] }> };
    createBindGroupLayout(d: object): unknown;
    createPipelineLayout(d: object): unknown;
    createComputePipeline(d: object): unknown;
    pushErrorScope(f: string): void;
    popErrorScope(): Promise<{ message: string } | null>;
  };
  const module = device.createShaderModule({ code: wgsl });
  const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  if (errors.length > 0) throw new Error(`WGSL: ${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; ')}\n${wgsl}`);
  const atomic = new Set(kernel.paramsLayout.arrayArgs.filter((a) => a.name.endsWith('Atomic')).map((a) => a.index));
  const entries: object[] = [{ binding: 0, visibility: 4, buffer: { type: 'uniform' } }];
  kernel.paramsLayout.arrayArgs.forEach((a, k) => entries.push({ binding: 1 + k, visibility: 4, buffer: { type: atomic.has(a.index) ? 'storage' : 'read-only-storage' } }));
  entries.push({ binding: 1 + kernel.paramsLayout.arrayArgs.length, visibility: 4, buffer: { type: 'storage' } });
  const bindGroupLayout = device.createBindGroupLayout({ entries });
  device.pushErrorScope('validation');
  const computePipeline = device.createComputePipeline({ layout: device.createPipelineLayout({ bindGroupLayouts: [bindGroupLayout] }), compute: { module, entryPoint: 'main' } });
  const error = await device.popErrorScope();
  if (error) throw new Error(`compute pipeline: ${error.message}\n${wgsl}`);
  kernel.bindGroupLayout = bindGroupLayout;
  kernel.computePipeline = computePipeline;
  kernel.compiledSource = wgsl;
}

/** Uniform buffer and bind group of one plan step, reused from call to call. */
export interface PassCache {
  /** The program whose uniforms and bind groups these are. */
  owner?: Program;
  params?: GpuBuffer;
  /** The uniform words being assembled, with their integer and float views (kept: no allocation per call). */
  uniform?: UniformWords;
  /** Bind groups made for this step, with the buffers and windows they bind (the last few). */
  groups?: CachedBindings[];
  /** The parameter words last uploaded. */
  written?: Uint32Array;
  /** The last pass recorded with this cache, for replaying an identical pass cheaply. */
  recorded?: { pass: Pass; group: unknown; groupsX: number; groupsY: number };
}

/** One uniform block as words, seen as unsigned, signed and float words. */
export interface UniformWords {
  readonly words: Uint32Array;
  readonly i32: Int32Array;
  readonly f32: Float32Array;
}

function uniformWords(bytes: number): UniformWords {
  const words = new Uint32Array(bytes / 4);
  return { words, i32: new Int32Array(words.buffer), f32: new Float32Array(words.buffer) };
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** A bind group and what it binds: binding k's buffer, byte offset and size (-1: the rest of the buffer). */
export interface CachedBindings {
  readonly buffers: readonly GpuBuffer[];
  readonly windows: readonly number[];
  readonly group: unknown;
}

/** Binding k of a dispatch: array argument k, or the output after them. */
function boundAt(arrays: Readonly<Record<string, BoundArray>>, arrayArgs: ParamsLayout['arrayArgs'], output: BoundArray, k: number): BoundArray {
  return k < arrayArgs.length ? arrays[arrayArgs[k]!.name]! : output;
}

function sameBindings(cached: CachedBindings, arrays: Readonly<Record<string, BoundArray>>, arrayArgs: ParamsLayout['arrayArgs'], output: BoundArray): boolean {
  const count = arrayArgs.length + 1;
  for (let k = 0; k < count; k++) {
    const b = boundAt(arrays, arrayArgs, output, k);
    if (cached.buffers[k] !== b.buffer || cached.windows[2 * k] !== (b.offset ?? 0) || cached.windows[2 * k + 1] !== (b.size ?? -1)) return false;
  }
  return true;
}

function bindingsOf(arrays: Readonly<Record<string, BoundArray>>, arrayArgs: ParamsLayout['arrayArgs'], output: BoundArray, group: unknown): CachedBindings {
  const buffers: GpuBuffer[] = [];
  const windows: number[] = [];
  for (let k = 0; k < arrayArgs.length + 1; k++) {
    const b = boundAt(arrays, arrayArgs, output, k);
    buffers.push(b.buffer);
    windows.push(b.offset ?? 0, b.size ?? -1);
  }
  return { buffers, windows, group };
}

/** Byte sizes of buffers, read once each: `buffer.size` is a call into Dawn (about 0.2 µs in Node), a WeakMap look-up ten times less. A buffer's size never changes. */
const bufferSizes = new WeakMap<GpuBuffer, number>();
function bufferSize(buffer: GpuBuffer): number {
  let size = bufferSizes.get(buffer);
  if (size === undefined) {
    size = buffer.size;
    bufferSizes.set(buffer, size);
  }
  return size;
}

function window(bound: BoundArray): GpuBindGroupEntry['resource'] {
  const resource: GpuBindGroupEntry['resource'] = { buffer: bound.buffer };
  if (bound.offset !== undefined) resource.offset = bound.offset;
  if (bound.size !== undefined) resource.size = bound.size;
  return resource;
}

/** `MODPREC_GPU_SERIALIZE=1` (a diagnostic), read once: a `process.env` read per submit costs microseconds of host time. */
const SERIALIZE_PASSES = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.MODPREC_GPU_SERIALIZE === '1';
function serializePasses(): boolean {
  return SERIALIZE_PASSES;
}

/** Where a submit happens, for {@link setSubmitProbe}: entering submitPasses, just before and just after `queue.submit`. */
export type SubmitPhase = 'encode' | 'submit' | 'submitted';

let submitProbe: ((phase: SubmitPhase) => void) | undefined;

/**
 * Calls `probe` at each phase of every {@link submitPasses} (bench/gpu/host-cost.ts times the host's share of a call
 * with it: from the call to `submit`, and `queue.submit` itself); `undefined` removes it. One branch per submit when unset.
 * @param probe - the callback, or undefined
 */
export function setSubmitProbe(probe: ((phase: SubmitPhase) => void) | undefined): void {
  submitProbe = probe;
}

/** Uniform buffers of uncached passes, destroyed after the submit that used them completes. */
const pendingDestroy: GpuBuffer[] = [];

const programs = new Map<string, Promise<Program>>();

/** The program last returned for a spec's argument list, with that spec (its fields are compared on the next call). */
interface KnownProgram {
  readonly program: Promise<Program>;
  spec: ProgramSpec;
}

const bySpec = new WeakMap<object, KnownProgram>();

/** The options that make two specs of the same source and arguments different programs (the program cache's key). */
function optionsKey(spec: ProgramSpec): string {
  return `${spec.components}|${spec.workgroup ? JSON.stringify(spec.workgroup) : ''}|${spec.stridedOutput ? 'strided' : ''}${spec.laneOutput ? `|lanes${spec.laneOutput.lanes}${spec.laneOutput.atomic ? '-atomic' : ''}` : ''}${spec.pairOutput ? '|pair' : ''}|${spec.readsOutput?.join(',') ?? ''}${spec.vectorOutput ? '|vector' : ''}`;
}

/**
 * Whether `a` and `b` give the same {@link optionsKey} and source, compared field by field: no string is built for the
 * warm call of a kernel that makes its spec literal anew each time (only a workgroup object that is not the same one
 * is compared through its JSON, as the key does).
 */
function sameProgram(a: ProgramSpec, b: ProgramSpec): boolean {
  if (a === b) return true;
  if (a.source !== b.source || a.components !== b.components || !a.stridedOutput !== !b.stridedOutput || !a.pairOutput !== !b.pairOutput || !a.vectorOutput !== !b.vectorOutput) return false;
  if (a.workgroup !== b.workgroup && (!a.workgroup || !b.workgroup || JSON.stringify(a.workgroup) !== JSON.stringify(b.workgroup))) return false;
  const la = a.laneOutput, lb = b.laneOutput;
  if (la !== lb && (!la || !lb || la.lanes !== lb.lanes || !la.atomic !== !lb.atomic)) return false;
  const ra = a.readsOutput, rb = b.readsOutput;
  if (ra === rb) return true;
  // The key joins the names with commas: an absent list and an empty one are the same key.
  if ((ra?.length ?? 0) !== (rb?.length ?? 0)) return false;
  for (let k = 0; k < (ra?.length ?? 0); k++) if (ra![k] !== rb![k]) return false;
  return true;
}

/**
 * The cached program for `spec`, compiling it on first use.
 * @param context - the GPU context
 * @param spec - source and argument types
 * @returns the program
 */
export function getProgram(context: GpuContext, spec: ProgramSpec): Promise<Program> {
  // Warm calls pass the same (memoised) argument list: the program last returned for it, when nothing else differs.
  const known = bySpec.get(spec.args);
  if (known && sameProgram(known.spec, spec)) {
    known.spec = spec;
    return known.program;
  }
  // The same arguments and source with other output options (a strided store, old values read from the output) are
  // another program.
  const key = `${optionsKey(spec)}|${spec.args.map(([n, t]) => `${n}:${t}`).join(',')}|${spec.source}`;
  let p = programs.get(key);
  if (!p) {
    p = Program.compile(context, spec);
    programs.set(key, p);
    p.catch(() => programs.delete(key));
  }
  bySpec.set(spec.args, { program: p, spec });
  return p;
}

/**
 * Every program compiled so far with its gpu.js source and the WGSL gpu.js generated (for inspection).
 * @returns source and WGSL pairs
 */
export async function compiledPrograms(): Promise<{ source: string; wgsl: string }[]> {
  const settled = await Promise.allSettled(programs.values());
  return settled.flatMap((s) => (s.status === 'fulfilled' ? [{ source: s.value.spec.source, wgsl: s.value.wgsl }] : []));
}

/** Number of programs compiled so far (for tests of the cache). */
export function compiledProgramCount(): number {
  return programs.size;
}

/**
 * Submits what `record` writes into a new command encoder, seen by {@link setSubmitProbe} as {@link submitPasses} is:
 * for a kernel whose passes need more than dispatches in one compute pass (TRSV's block inversion copies a row
 * between passes).
 * @param context - the GPU context
 * @param record - records the commands
 */
export function submitEncoded(context: GpuContext, record: (encoder: ReturnType<GpuContext['device']['createCommandEncoder']>) => void): void {
  const probe = submitProbe;
  if (probe) probe('encode');
  const encoder = context.device.createCommandEncoder();
  record(encoder);
  const commands = encoder.finish();
  if (probe) probe('submit');
  context.device.queue.submit([commands]);
  if (probe) probe('submitted');
}

/**
 * Records `passes` into one command buffer and submits it.
 * @param context - the GPU context
 * @param passes - the passes with their optional caches, in order
 */
export function submitPasses(context: GpuContext, passes: readonly { pass: Pass; cache?: PassCache }[]): void {
  const probe = submitProbe;
  if (probe) probe('encode');
  // Diagnostics (MODPREC_GPU_TIMESTAMPS, gpu-timestamps.ts) and a benchmark's batched submit (batched-submit.ts).
  const stamps = timestampWritesOf(context, passes.length);
  const batch = openBatch(context);
  // Calls held by the coalesced submit (coalesced-submit.ts, on by default) go first: these modes submit on their own.
  if (stamps || batch || serializePasses()) flushCoalesced(context);
  if (serializePasses()) {
    if (stamps || batch) throw new Error('MODPREC_GPU_SERIALIZE does not combine with GPU timestamps or a batched submit');
    // Diagnostic mode: one submit per pass.
    for (const { pass, cache } of passes) {
      const encoder = context.device.createCommandEncoder();
      const computePass = encoder.beginComputePass();
      pass.program.encode(context, computePass, pass, cache);
      computePass.end();
      context.device.queue.submit([encoder.finish()]);
    }
  } else if (stamps || batch) {
    // Each call's dispatches in one compute pass (each in its own with per-dispatch stamps), into the batch's encoder.
    const encoder = batch?.encoder ?? context.device.createCommandEncoder();
    const perDispatch = stamps !== undefined && stamps.length > 1;
    let computePass = encoder.beginComputePass(stamps ? { timestampWrites: stamps[0] } : undefined);
    passes.forEach(({ pass, cache }, k) => {
      if (perDispatch && k > 0) {
        computePass.end();
        computePass = encoder.beginComputePass({ timestampWrites: stamps[k] });
      }
      pass.program.encode(context, computePass, pass, cache);
      if (batch) {
        // What the batch's passes bind: a later queue write into one of them is refused (batched-submit.ts).
        for (const bound of Object.values(pass.arrays)) batch.bound.add(bound.buffer);
        batch.bound.add(pass.output.buffer);
        if (cache?.params) batch.bound.add(cache.params);
      }
    });
    computePass.end();
    if (batch) {
      batch.calls++;
      batch.doomed.push(...pendingDestroy.splice(0));
      return;
    }
    const commands = encoder.finish();
    if (probe) probe('submit');
    context.device.queue.submit([commands]);
    if (probe) probe('submitted');
  } else {
    // All dispatches in one compute pass of one command buffer.
    const encoder = context.device.createCommandEncoder();
    const computePass = encoder.beginComputePass();
    for (const { pass, cache } of passes) pass.program.encode(context, computePass, pass, cache);
    computePass.end();
    const commands = encoder.finish();
    if (probe) probe('submit');
    // Coalesced submits (MODPREC_GPU_COALESCE, K = 4 by default): the command buffer may share a later submit with the next calls.
    if (coalescing(context)) appendCoalesced(context, commands, boundBuffers(passes), pendingDestroy.length > 0 ? pendingDestroy.splice(0) : NONE);
    else context.device.queue.submit([commands]);
    if (probe) probe('submitted');
  }
  if (pendingDestroy.length > 0) {
    const doomed = pendingDestroy.splice(0);
    void context.device.queue.onSubmittedWorkDone().then(() => doomed.forEach((b) => b.destroy()));
  }
}

/** No buffers (appendCoalesced only reads its lists). */
const NONE: readonly GpuBuffer[] = [];

/** The list {@link boundBuffers} fills, reused: appendCoalesced copies it into its own set before returning. */
const boundScratch: GpuBuffer[] = [];

/** The buffers `passes` bind (after encoding: a plan step's uniform buffer is then known), in a list reused by the next call. */
function boundBuffers(passes: readonly { pass: Pass; cache?: PassCache }[]): GpuBuffer[] {
  const out = boundScratch;
  out.length = 0;
  for (const { pass, cache } of passes) {
    for (const name in pass.arrays) out.push(pass.arrays[name]!.buffer);
    out.push(pass.output.buffer);
    if (cache?.params) out.push(cache.params);
  }
  return out;
}
