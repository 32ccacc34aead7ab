/**
 * What the CPU side knows of a format's GPU part without loading it. A `backend: 'gpu'` call is checked at once,
 * before anything loads (src/backends/webgpu-bridge/gpu-backend.ts): whether each storage has a part, whether it is
 * block-scaled or writable, which arithmetics it reads into, and the arithmetic's name and error terms (TRSV's GPU
 * bound). A user's format answers from its own part (`StorageFormat.gpu`, `ArithmeticFormat.gpu`). The built-in
 * formats' parts are gpu.js source templates that only the GPU backend needs, so they load with it
 * (src/formats/gpu-parts.ts, imported by the webgpu modules) and a CPU-only bundle does not carry them; their facts
 * stay here, and their `gpu` property reads the part once the GPU backend has loaded (undefined before).
 * test/gpu/format-registry.test.ts checks the facts against the loaded parts.
 * @module
 */
import type { ArithmeticFormat, StorageFormat } from './format.js';
import type { GpuArithmeticName, GpuArithmeticPart, GpuReadTarget, GpuRegisterKind, GpuStoragePart } from './gpu-part.js';
import { fail } from '../../core/errors.js';

/** A storage format's GPU facts: the fields of its part that calls are checked against. */
export interface GpuStorageFacts {
  readonly name: string;
  readonly scaled: boolean;
  readonly writable: boolean;
  /** Throws the part's typed error where it does not read into `arithmetic` (its `emitRead` would refuse). */
  checkRead(arithmetic: GpuReadTarget): void;
}

/** An arithmetic's GPU facts: the fields of its part that calls and bounds use. */
export type GpuArithmeticFacts = Pick<GpuArithmeticPart, 'name' | 'readKinds' | 'divisionError' | 'valueBits'>;

/**
 * dd storage reads only into an arithmetic that computes from dd registers: any other would drop the low half.
 * @param arithmetic - the arithmetic the read feeds
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.arithmetic`
 */
export function checkDdRead(arithmetic: GpuReadTarget): void {
  if (!arithmetic.readKinds.includes('dd')) {
    fail('INVALID_OPTION', 'options.arithmetic', 'must be double-double (formats.dd) for dd storage on the GPU: another arithmetic would drop the low half', arithmetic.readKinds.join('/'));
  }
}

const readsAny = (_arithmetic: GpuReadTarget): void => {};
const storageFacts = (name: string, scaled: boolean, writable: boolean, checkRead: (arithmetic: GpuReadTarget) => void = readsAny): GpuStorageFacts => ({ name, scaled, writable, checkRead });
const arithmeticFacts = (name: GpuArithmeticName, readKinds: GpuRegisterKind[], divisionError: number, valueBits?: number): GpuArithmeticFacts =>
  ({ name, readKinds, divisionError, ...(valueBits === undefined ? {} : { valueBits }) });

/** The built-in storage formats' GPU facts (their parts: src/formats/<name>/*-gpu-words.ts). */
export const BUILTIN_STORAGE_GPU_FACTS = {
  f64: storageFacts('f64', false, true),
  f32: storageFacts('f32', false, true),
  f16: storageFacts('f16', false, true),
  bf16: storageFacts('bf16', false, true),
  // Block-scaled integer words (uploaded with toDevice(…, { format }); never written on the device).
  i8: storageFacts('i8', true, false),
  i16: storageFacts('i16', true, false),
  dd: storageFacts('dd', false, true, checkDdRead),
  // Hi block then lo block (dd-split-gpu-words.ts); kernels run on an interleaved copy made on the device.
  'dd-split': storageFacts('dd-split', false, true, checkDdRead),
} as const;

/** The built-in arithmetics' GPU facts (their parts: src/formats/<name>/*-gpu-arithmetic.ts). */
export const BUILTIN_ARITHMETIC_GPU_FACTS = {
  f32: arithmeticFacts('f32', ['f32'], 5 * 2 ** -24, 24),
  ff: arithmeticFacts('ff', ['f32', 'ff'], 4 * 2 ** -48),
  dd: arithmeticFacts('dd', ['f32', 'ff', 'f64', 'dd'], 2 ** -110),
} as const;

/** A built-in format's facts and, once the GPU backend has loaded it, its part. */
interface BuiltinGpu<P, F> {
  readonly facts: F;
  part?: P;
}

const builtinStorages = new WeakMap<StorageFormat<any, any>, BuiltinGpu<GpuStoragePart, GpuStorageFacts>>();
const builtinArithmetics = new WeakMap<ArithmeticFormat<any>, BuiltinGpu<GpuArithmeticPart, GpuArithmeticFacts>>();

/** Makes `format.gpu` a getter of the part `builtin` will hold (the object must not be frozen yet). */
function gpuGetter<P>(format: object, builtin: BuiltinGpu<P, unknown>): void {
  Object.defineProperty(format, 'gpu', { get: () => builtin.part, enumerable: true });
}

/**
 * Declares a built-in storage format's GPU facts; its `gpu` then reads the part {@link provideGpuStoragePart} gives.
 * @returns `format`
 */
export function builtinGpuStorage<S extends StorageFormat<any, any>>(format: S, facts: GpuStorageFacts): S {
  const builtin: BuiltinGpu<GpuStoragePart, GpuStorageFacts> = { facts };
  builtinStorages.set(format, builtin);
  gpuGetter(format, builtin);
  return format;
}

/**
 * Declares a built-in arithmetic's GPU facts; its `gpu` then reads the part {@link provideGpuArithmeticPart} gives.
 * @returns `format`
 */
export function builtinGpuArithmetic<A extends ArithmeticFormat<any>>(format: A, facts: GpuArithmeticFacts): A {
  const builtin: BuiltinGpu<GpuArithmeticPart, GpuArithmeticFacts> = { facts };
  builtinArithmetics.set(format, builtin);
  gpuGetter(format, builtin);
  return format;
}

/** Gives a built-in storage format its GPU part (src/formats/gpu-parts.ts, when the GPU backend loads). */
export function provideGpuStoragePart(format: StorageFormat<any, any>, part: GpuStoragePart): void {
  const builtin = builtinStorages.get(format);
  if (!builtin) throw new Error(`internal: ${format.name} is not a built-in storage format with GPU facts`);
  builtin.part = part;
}

/** Gives a built-in arithmetic its GPU part (src/formats/gpu-parts.ts, when the GPU backend loads). */
export function provideGpuArithmeticPart(format: ArithmeticFormat<any>, part: GpuArithmeticPart): void {
  const builtin = builtinArithmetics.get(format);
  if (!builtin) throw new Error(`internal: ${format.name} is not a built-in arithmetic with GPU facts`);
  builtin.part = part;
}

/**
 * The GPU facts of a storage format: a built-in's declared ones, else those of its own part.
 * @returns `undefined` when it has no GPU part
 */
export function storageGpuFacts(st: StorageFormat<any, any>): GpuStorageFacts | undefined {
  const builtin = builtinStorages.get(st);
  if (builtin) return builtin.facts;
  const part = st.gpu;
  if (!part) return undefined;
  return {
    name: part.name, scaled: part.scaled, writable: part.writable,
    // The part's own refusal, asked with a throwaway register.
    checkRead: (arithmetic) => { part.emitRead('probe', '0', 'probe', arithmetic); },
  };
}

/**
 * The GPU facts of an arithmetic: a built-in's declared ones, else its own part (which has every field).
 * @returns `undefined` when it has no GPU part
 */
export function arithmeticGpuFacts(ar: ArithmeticFormat<any>): GpuArithmeticFacts | undefined {
  return builtinArithmetics.get(ar)?.facts ?? ar.gpu;
}
