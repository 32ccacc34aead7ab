/**
 * Pieces shared by the GPU kernels: options, the run report every result carries, binding a resident
 * array's buffers to a program's arguments, float-float scalars, and plans (the uniform buffers, bind
 * groups and scratch buffers of one call shape, kept for the next call).
 *
 * @module
 */
import { fail, ModprecError } from '../../core/errors.js';
import { asArithmetic, findFormat, formatNames, type FormatLike } from '../../formats/common/registry.js';
import { gpuArithmeticPart, type GpuArithmetic, type GpuArithmeticName, type GpuRegister } from './arithmetic.js';
import type { GpuStorageFormat } from './formats.js';
import type { DeviceArray } from './device-array.js';
import type { ArgType, BoundArray, PassCache } from './program.js';
import type { GpuRuntime } from './runtime.js';
import type { GpuBuffer } from './webgpu-types.js';
import { gpuKernelSwitches, gpuKernelSwitchKey } from './kernel-switches.js';
import { checkIntegerOption } from '../../../kernels/shared/kernel-options.js';

/** Loads each thread of the streaming kernels issues before using them (memory-level parallelism). */
export const UNROLL = 8;

/**
 * Options every GPU kernel takes.
 * @group GPU
 */
export interface GpuKernelOptions {
  /**
   * Arithmetic: `formats.f32` or `formats.ff` (float-float), or their names. Default for resident arrays (which
   * carry no arithmetic of their own): `ff` when an operand is stored in f64 or ff, else `f32`. (The
   * `backend: 'gpu'` option of the kernels applies the CPU's rule to the ranges instead.)
   */
  readonly arithmetic?: GpuArithmeticName | { readonly name: string };
  /** Throw `BACKEND_UNAVAILABLE` instead of running the CPU fallback on host-resident operands. */
  readonly strict?: boolean;
}

/**
 * Checks a coefficient α or β: any number. NaN and ±∞ are accepted and propagate as IEEE arithmetic does — the
 * CPU kernels' rule (β = 0 still means y is not read, α = 0 that A and x are not).
 * @param name - the parameter
 * @param value - the value
 * @returns the number
 * @throws {@link modprec!ModprecError} `INVALID_VALUE` for a non-number
 * @example
 * ```ts
 * checkNumber('alpha', NaN); // NaN
 * ```
 */
export function checkNumber(name: string, value: unknown): number {
  if (typeof value !== 'number') fail('INVALID_VALUE', name, 'must be a number', value);
  return value;
}

/**
 * Allows the CPU fallback, or throws when the options are strict.
 * @param options - kernel options
 * @param reason - why the operands are on the host
 * @throws {@link modprec!ModprecError} `BACKEND_UNAVAILABLE` when `options.strict`
 */
export function allowFallback(options: GpuKernelOptions, reason: string): void {
  if (options.strict) throw new ModprecError('BACKEND_UNAVAILABLE', `the operands live on the host (no GPU: ${reason || 'unknown reason'}) and options.strict forbids the CPU fallback`, 'options.strict');
}

/**
 * Which backend ran a kernel, on which adapter, and why a fallback happened.
 * @group GPU
 */
export interface GpuRunInfo {
  /** `gpu` (WebGPU through gpu.js-compiled kernels) or `cpu` (the fallback). */
  readonly backend: 'gpu' | 'cpu';
  /** Adapter name and backend, e.g. `NVIDIA H100 (vulkan)`; '' on the CPU. */
  readonly adapter: string;
  /** Why the CPU ran it ('' when the GPU did). */
  readonly fallbackReason: string;
  /** Arithmetic used. */
  readonly arithmetic: GpuArithmeticName;
}

/**
 * The arithmetic for operands stored in `formats` (explicit choice wins).
 * @param options - kernel options
 * @param arrays - the operands
 * @returns the arithmetic
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` naming `options.arithmetic` for what names no arithmetic (as the
 *   CPU kernels), `INVALID_OPTION` for an arithmetic without a GPU part
 */
export function chooseArithmetic(options: GpuKernelOptions, arrays: readonly DeviceArray[]): GpuArithmetic {
  const option = options.arithmetic;
  // Default: the registered arithmetic meant for the widest operand (f32 up to binary32's 24 bits, else ff).
  if (option === undefined) return defaultGpuArithmetic(arrays.map((a) => a.format));
  // A format object (formats.ff, ffArithmetic, a user's arithmetic) or a registered name: its GPU part computes.
  const part = gpuArithmeticPart(option);
  if (!part) {
    // What names no arithmetic at all ('bogus', 3, formats.i8) is INVALID_FORMAT, as the CPU kernels say (asArithmetic);
    // only an arithmetic without a GPU part (f64, rns106) is the GPU's refusal.
    asArithmetic(option as FormatLike, 'options.arithmetic');
    const name = typeof option === 'object' && option !== null ? (option as { name?: unknown }).name : option;
    fail('INVALID_OPTION', 'options.arithmetic', "must be an arithmetic with a GPU part (ArithmeticFormat.gpu): formats.f32 or formats.ff (or 'f32', 'ff')", typeof name === 'string' ? name : option);
  }
  return part;
}

/**
 * All operands must live in the same place (all on one device, or all on the host).
 * @param named - operands by parameter name
 * @returns the shared runtime, or `undefined` when all are host-resident
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` for destroyed or mixed operands
 */
export function commonRuntime(named: Readonly<Record<string, DeviceArray>>, views: readonly string[] = []): GpuRuntime | undefined {
  let first: GpuRuntime | undefined;
  let seen = false;
  for (const name in named) {
    const a = named[name]!;
    if (!seen) {
      first = a.runtime;
      seen = true;
    }
    if (a.isView && !views.includes(name)) fail('INVALID_STORAGE', name, 'must be a whole array, not a strided view (this kernel reads it whole; copy the range packed first)');
    if (a.runtime !== first) fail('INVALID_STORAGE', name, 'must live where the other operands live (all on the GPU or all on the host)');
    if (a.runtime && !a.buffer) fail('INVALID_STORAGE', name, 'has been destroyed');
  }
  return first;
}

/**
 * Checks that a resident kernel's arguments are an object before any field is read (a null one threw a TypeError,
 * "Cannot destructure property 'A'"), as the CPU kernels check theirs.
 * @param args - the kernel's first argument
 * @param form - its fields, for the message (e.g. `'{ A, x, y, alpha, beta, trans }'`)
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `arguments`
 */
export function checkArgumentsObject(args: unknown, form: string): void {
  if (typeof args !== 'object' || args === null) fail('INVALID_OPTION', 'arguments', `must be an object ${form}`, args);
}

/**
 * Report of a run.
 * @param runtime - the runtime (undefined: CPU)
 * @param arithmetic - arithmetic used
 * @param reason - fallback reason
 * @returns the report
 */
export function runInfo(runtime: GpuRuntime | undefined, arithmetic: GpuArithmetic, reason: string): GpuRunInfo {
  if (runtime) return { backend: 'gpu', adapter: adapterLabel(runtime), fallbackReason: '', arithmetic: arithmetic.name };
  return { backend: 'cpu', adapter: '', fallbackReason: reason, arithmetic: arithmetic.name };
}

/** `name (backend)` of each runtime's adapter, built once (every GPU call reports it). */
const adapterLabels = new WeakMap<GpuRuntime, string>();
function adapterLabel(runtime: GpuRuntime): string {
  let label = adapterLabels.get(runtime);
  if (label === undefined) {
    label = `${runtime.context.adapter.name} (${runtime.context.adapter.backend})`;
    adapterLabels.set(runtime, label);
  }
  return label;
}

/**
 * Kernel argument declarations for reading array `name` in `array`'s format.
 * @param name - argument name
 * @param array - the operand
 * @returns the declarations
 */
export function arrayArgs(name: string, array: DeviceArray): (readonly [string, ArgType])[] {
  return [[name, 'Array'], ...array.format.readArgs(name), ...(array.isView ? [[`${name}Off`, 'Integer'] as const, [`${name}Inc`, 'Integer'] as const] : [])];
}

/**
 * The index expression of element `index` of operand `name`: itself for a plain array, `Off + index·Inc` (two
 * uniforms) for a strided view, so unit-stride arrays keep their specialised source.
 * @param name - argument name
 * @param array - the operand
 * @param index - integer expression
 * @returns the index expression
 * @example
 * ```ts
 * x.format.emitRead('X', elementIndex('X', x, 'k'), 'a', arithmetic);
 * ```
 */
export function elementIndex(name: string, array: DeviceArray, index: string): string {
  return array.isView ? `(${name}Off + (${index}) * ${name}Inc)` : index;
}

/**
 * Binds `array` (and its scales) to the arguments declared by {@link arrayArgs}.
 * @param name - argument name
 * @param array - the operand
 * @param arrays - array bindings to add to
 * @param scalars - scalar bindings to add to
 */
export function bindArray(name: string, array: DeviceArray, arrays: Record<string, BoundArray>, scalars: Record<string, number>): void {
  arrays[name] = { buffer: array.buffer! };
  if (array.isView) {
    scalars[`${name}Off`] = array.offset;
    scalars[`${name}Inc`] = array.stride;
  }
  if (array.format.scaled) {
    arrays[`${name}Scale`] = { buffer: array.scales! };
    scalars[`${name}Block`] = array.scaleBlock;
  }
  if (array.rangeScale) {
    arrays[`${name}Rs`] = { buffer: array.rangeScale.buffer };
    for (const [suffix, v] of Object.entries(array.rangeScale.scalars)) scalars[`${name}${suffix}`] = v;
  }
}

/**
 * Copies `source`'s scalars into `target` (an object spread, `{ ...a, k: v, ...b }`, builds its result through a slow
 * generic path: microseconds per warm call where a kernel merges a shape's and α's and β's uniforms).
 * @param target - the record to add to
 * @param source - the scalars to add
 * @returns target
 */
export function withScalars(target: Record<string, number>, source: Readonly<Record<string, number>>): Record<string, number> {
  for (const name in source) target[name] = source[name]!;
  return target;
}

/**
 * Words a thread returns for one element of `format` (its words per element: 1, 2 or 4; a thread of a 16-bit
 * format returns one word holding two elements).
 * @param format - a writable GPU storage part
 * @returns the program's components
 */
export function outputComponents(format: GpuStorageFormat): 1 | 2 | 4 {
  const w = format.wordsPerElement;
  if (w !== 1 && w !== 2 && w !== 4) throw new Error(`internal: ${format.name} has ${w} words per element`);
  return w;
}

/**
 * Significand bits a register must hold to take a stored element exactly: the format's own, plus binary32's 24 for
 * a scaled integer (an integer times a binary32 scale).
 * @param format - a GPU storage part
 * @returns the bits
 */
export function exactBits(format: GpuStorageFormat): number {
  return format.significandBits + (format.scaled ? 24 : 0);
}

/**
 * The default GPU arithmetic for operands stored in `formats`: among the registered GPU arithmetic parts with a
 * {@link GpuArithmeticPart.defaultUpToBits}, the one with the smallest bound at or above every operand's
 * significand bits (f32 for formats of up to 24 bits, ff above); the widest default where none covers them.
 * @param formats - the operands' storage parts
 * @returns the arithmetic
 */
export function defaultGpuArithmetic(formats: readonly GpuStorageFormat[], bits = (f: GpuStorageFormat): number => f.significandBits): GpuArithmetic {
  const need = Math.max(0, ...formats.map(bits));
  const parts = defaultParts();
  return parts.find((p) => p.defaultUpToBits! >= need) ?? parts[parts.length - 1]!;
}

/** Registered GPU arithmetic parts that are defaults, by increasing `defaultUpToBits` (registration order on ties). */
function defaultParts(): GpuArithmetic[] {
  const parts: GpuArithmetic[] = [];
  for (const name of formatNames()) {
    const part = findFormat(name)?.arithmetic?.gpu;
    if (part?.defaultUpToBits !== undefined && !parts.includes(part)) parts.push(part);
  }
  return parts.sort((a, b) => a.defaultUpToBits! - b.defaultUpToBits!);
}

/**
 * A double as a float-float pair (hi = nearest binary32, lo = nearest binary32 of the rest).
 * @param x - the value
 * @returns [hi, lo]
 */
export function floatPair(x: number): [number, number] {
  const hi = Math.fround(x);
  return [hi, Number.isFinite(hi) ? Math.fround(x - hi) : 0];
}

/** Ids for plan keys: one per resident array object. */
const arrayIds = new WeakMap<object, number>();
let nextId = 1;
/**
 * A stable id of `o` for plan keys.
 * @param o - an object
 * @returns its id
 */
export function objectId(o: object): number {
  let id = arrayIds.get(o);
  if (id === undefined) {
    id = nextId++;
    arrayIds.set(o, id);
  }
  return id;
}

/** Uniform buffers, bind groups and scratch buffers of one call shape. */
export interface Plan {
  readonly passes: PassCache[];
  readonly scratch: GpuBuffer[];
}

/** A plan with the tick of its last use (the least recent goes first when there are too many). */
interface UsedPlan extends Plan {
  used: number;
}

const plans = new Map<string, UsedPlan>();
const MAX_PLANS = 64;
let tick = 0;

/**
 * The plan for `key`, created with `scratchWords` scratch buffers on first use (least recently used
 * plans are dropped beyond 64).
 * @param runtime - the runtime
 * @param key - the call shape
 * @param passCount - passes in the plan
 * @param create - makes the scratch buffers
 * @returns the plan
 */
export function getPlan(runtime: GpuRuntime, key: string, passCount: number, create: () => GpuBuffer[]): Plan {
  let plan = plans.get(key);
  if (plan) {
    // A use stamp, not a delete and re-insert into the map per call (which hashed the key twice more).
    plan.used = ++tick;
    while (plan.passes.length < passCount) plan.passes.push({});
    return plan;
  }
  plan = { passes: Array.from({ length: passCount }, () => ({})), scratch: create(), used: ++tick };
  plans.set(key, plan);
  if (plans.size > MAX_PLANS) {
    let oldKey: string | undefined;
    let old: UsedPlan | undefined;
    for (const [k, p] of plans) {
      if (!old || p.used < old.used) {
        oldKey = k;
        old = p;
      }
    }
    plans.delete(oldKey!);
    const doomed = old!;
    void runtime.context.device.queue.onSubmittedWorkDone().then(() => {
      doomed.scratch.forEach((b) => b.destroy());
      doomed.passes.forEach((p) => p.params?.destroy());
    });
  }
  return plan;
}

/**
 * Joins source lines into a gpu.js kernel function.
 * @param args - argument declarations
 * @param body - statements
 * @returns the source
 */
export function kernelSource(args: readonly (readonly [string, ArgType])[], body: readonly string[]): string {
  return `function (${args.map(([n]) => n).join(', ')}) {\n${body.join('\n')}\n}`;
}

/**
 * Source of `acc += a(k)·b(k)` for k = start, start+step, … < end, unrolled `unroll` times with all loads
 * of a group issued before its multiply-adds (more loads in flight per thread). With one chain the
 * additions keep the order of k, so results do not depend on the unrolling; with `chains` > 1 the terms of a
 * group go round-robin to that many accumulators, added into `acc` at the end (another fixed order).
 * @param arithmetic - the arithmetic
 * @param loop - `{ start, end, step }` integer expressions (step a name or literal)
 * @param unroll - loads per group
 * @param reads - for an index expression and a suffix, the code reading both operands and their registers
 * @param chains - independent accumulators (default 1)
 * @returns the lines
 */
export function accumulateLoop(
  arithmetic: GpuArithmetic,
  loop: { start: string; end: string; step: string },
  unroll: number,
  reads: (index: string, suffix: string) => { code: string; a: GpuRegister; b: GpuRegister },
  chains = 1,
): string[] {
  const acc = accumulatorChains(arithmetic, Math.min(chains, unroll));
  const lines = [...acc.declare, `let k = ${loop.start};`];
  if (unroll > 1) {
    lines.push(`while (k + ${unroll - 1} * ${loop.step} < ${loop.end}) {`);
    const regs: { a: GpuRegister; b: GpuRegister }[] = [];
    for (let q = 0; q < unroll; q++) {
      lines.push(`const k${q} = k + ${q} * ${loop.step};`);
      const r = reads(`k${q}`, `u${q}`);
      lines.push(r.code);
      regs.push(r);
    }
    lines.push(...mulAddGroup(arithmetic, regs.map((r, q) => ({ acc: acc.target(q), a: r.a, b: r.b }))));
    lines.push(`k = k + ${unroll} * ${loop.step};`, '}');
  }
  const r = reads('k', 'r');
  lines.push(`while (k < ${loop.end}) {`, r.code, arithmetic.mulAdd('acc', r.a, r.b), `k = k + ${loop.step};`, '}');
  lines.push(...acc.combine);
  return lines;
}

/**
 * Whether streaming loops use their arithmetic's lazy multiply-adds ({@link GpuArithmetic.lazyMulAdd}): the `lazy`
 * switch of ./kernel-switches.ts (on unless `MODPREC_GPU_LAZY=0`; generated sources are memoised per setting).
 * @returns the setting
 */
export function lazyAccumulation(): boolean {
  return gpuKernelSwitches().lazy;
}

/**
 * Source of one unrolled step's multiply-adds `acc += a·b`, in the order given: lazy ones where the arithmetic
 * has them (and {@link lazyAccumulation} allows), each accumulator settled after at most `lazyTerms` of them and at
 * the end of the step; plain `mulAdd`s otherwise. Either way every accumulator is a settled value afterwards.
 * @param arithmetic - the arithmetic
 * @param terms - accumulator and operand registers of each term
 * @returns the lines
 */
export function mulAddGroup(arithmetic: GpuArithmetic, terms: readonly { acc: string; a: GpuRegister; b: GpuRegister }[]): string[] {
  const { lazyMulAdd, settle, lazyTerms, mulAddSteps } = arithmetic;
  if (mulAddSteps) return mulAddSteps(terms);
  if (!lazyMulAdd || !settle || !lazyTerms || !lazyAccumulation()) return terms.map((t) => arithmetic.mulAdd(t.acc, t.a, t.b));
  const lines: string[] = [];
  const pending = new Map<string, number>();
  for (const t of terms) {
    const count = pending.get(t.acc) ?? 0;
    if (count === lazyTerms) {
      lines.push(settle(t.acc));
      pending.set(t.acc, 0);
    }
    lines.push(lazyMulAdd(t.acc, t.a, t.b));
    pending.set(t.acc, (pending.get(t.acc) ?? 0) + 1);
  }
  for (const [acc, count] of pending) if (count > 0) lines.push(settle(acc));
  return lines;
}

/**
 * Independent accumulators for a reduction loop: `acc` (the caller's) plus acc1 … acc{chains−1}, declared
 * here. Term q goes to `target(q)` (round robin); `combine` adds the extra ones into acc in a fixed order —
 * shorter dependency chains, the same result every run.
 * @param arithmetic - the arithmetic
 * @param chains - accumulators in all (≥ 1)
 * @returns declarations, the target of term q, and the combining statements
 */
export function accumulatorChains(arithmetic: GpuArithmetic, chains: number): { declare: string[]; target: (q: number) => string; combine: string[] } {
  const extra = Array.from({ length: Math.max(0, chains - 1) }, (_, c) => `acc${c + 1}`);
  return {
    declare: extra.map((a) => arithmetic.declareZero(a)),
    target: (q) => (q % chains === 0 ? 'acc' : extra[(q % chains) - 1]!),
    combine: extra.map((a) => arithmetic.add('acc', arithmetic.register(a))),
  };
}

/**
 * Validates a kernel's accumulator-count option.
 * @param value - the option (undefined: `fallback`)
 * @param fallback - the default
 * @returns an integer from 1 to 8
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options.chains` otherwise
 */
export function checkChains(value: unknown, fallback: number): number {
  // The check every call runs on this option (kernels/shared/kernel-options.ts), the public kernels' refusal included.
  // null is a value (refused), not an omitted option, as every call checks it.
  return checkIntegerOption('options.chains', value === undefined ? fallback : value, 8);
}

/** Generated sources, one table per setting of the kernel switches (sources depend on them too). */
const specsBySwitches = new Map<string, Map<string, unknown>>();
/**
 * Memoises generated kernel source by a short key (generating the source costs more than a dispatch).
 * @param key - everything the source depends on
 * @param make - builds the source
 * @returns the cached value
 */
export function memo<T>(key: string, make: () => T): T {
  const switches = gpuKernelSwitchKey();
  let specs = specsBySwitches.get(switches);
  if (!specs) specsBySwitches.set(switches, (specs = new Map()));
  let v = specs.get(key) as T | undefined;
  if (v === undefined) {
    v = make();
    specs.set(key, v);
  }
  return v;
}

/**
 * Cache key of how `array` is read (format; integer formats add nothing else to the source).
 * @param array - the operand
 * @returns the key part
 */
export function readKey(array: DeviceArray): string {
  return array.isView ? `${array.format.name}@view` : array.format.name;
}
