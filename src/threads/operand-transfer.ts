/**
 * Operands crossing to a worker: a range is sent as the plain description of its accessor (format names, shape,
 * strides, offset) plus its storage and scales, which must already live in shared memory — the worker then reads
 * and writes the caller's own bytes, with no copy. The worker rebuilds the accessor from its own format registry,
 * so only formats both sides know by the same name travel (the built-in ones; a format a user registered on the
 * calling thread does not exist in the worker).
 * @module
 */
import { Accessor, type Dimensionality, type LayoutName, type Tuple } from '../../accessors/accessor.js';
import { Range } from '../core/range.js';
import { fail } from '../core/errors.js';
import { inSharedMemory } from '../core/shared-memory.js';
import { findFormat } from '../formats/common/registry.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { accumulationNames, resolveAccumulation, type Accumulation } from '../../kernels/shared/accumulation.js';

/** An accessor as a message: everything but the formats is plain data; storage and scales are shared views. */
export interface OperandDescription {
  readonly storage: string;
  readonly arithmetic: string;
  readonly size: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
  readonly layout: LayoutName;
  readonly writable: boolean;
  readonly data: ArrayBufferView;
  readonly scale?: { readonly data: Float64Array; readonly offset: number; readonly strides: readonly number[]; readonly mask: readonly boolean[] };
}

/** The formats and accumulations a worker knows by name (what it reports when it starts). */
export interface WorkerRegistry {
  readonly formats: readonly string[];
  readonly accumulations: readonly string[];
}

/** What this thread's registry holds, as a worker reports it. */
export function registryNames(formatNames: readonly string[]): WorkerRegistry {
  return { formats: [...formatNames], accumulations: accumulationNames() };
}

/**
 * Checks that a worker can rebuild an arithmetic by name and gets the same one.
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `parameter`
 */
export function checkArithmeticKnown(parameter: string, ar: ArithmeticFormat, known: WorkerRegistry): void {
  if (!known.formats.includes(ar.name) || findFormat(ar.name)?.arithmetic !== ar) {
    fail('INVALID_FORMAT', parameter, `is not a built-in arithmetic the pool's workers know (${ar.name}): a call split over threads computes in built-in formats only`);
  }
}

/**
 * Checks that a worker can rebuild an accumulation by name.
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.accumulation`
 */
export function checkAccumulationKnown(acc: Accumulation, known: WorkerRegistry): void {
  if (!known.accumulations.includes(acc.name) || resolveAccumulation(acc.name) !== acc) {
    fail('INVALID_OPTION', 'options.accumulation', `is not an accumulation the pool's workers know (${acc.name}): a call split over threads sums with built-in accumulations only`);
  }
}

/**
 * The description of `r`'s accessor for a worker.
 * @param name - the operand's parameter name, for errors
 * @throws {@link ModprecError} `INVALID_STORAGE` naming the operand (or `<name>.scale`) when its storage or scales
 *   are not in shared memory; `INVALID_FORMAT` naming it when its storage or arithmetic is not a built-in format
 */
export function describeOperand(name: string, r: Range<any, any>, known: WorkerRegistry): OperandDescription {
  const a = r.accessor;
  if (!inSharedMemory(a.data)) {
    fail('INVALID_STORAGE', name, "must live in shared memory for options.threads (allocate it with { shared: true }, or view a typed array over a SharedArrayBuffer): a worker cannot see an ordinary ArrayBuffer, and modprec does not copy behind your back");
  }
  if (a.scale && !inSharedMemory(a.scale.data)) {
    fail('INVALID_STORAGE', `${name}.scale`, 'must live in shared memory for options.threads (a Float64Array over a SharedArrayBuffer)');
  }
  if (!known.formats.includes(a.storage.name) || findFormat(a.storage.name)?.storage !== a.storage) {
    fail('INVALID_FORMAT', name, `has a storage format the pool's workers do not know (${a.storage.name}): a call split over threads reads built-in formats only`);
  }
  checkArithmeticKnown(name, a.arithmetic as ArithmeticFormat, known);
  return {
    storage: a.storage.name, arithmetic: a.arithmetic.name, size: [...a.size], strides: [...a.strides], offset: a.offset,
    layout: a.layout, writable: a.writable, data: a.data as ArrayBufferView,
    ...(a.scale ? { scale: { data: a.scale.data, offset: a.scale.offset, strides: [...a.scale.strides], mask: [...a.scale.mask] } } : {}),
  };
}

/** The range a description stands for, over the same shared storage (in the worker). */
export function rebuildOperand(d: OperandDescription): Range<any, any> {
  return new Range(new Accessor({
    size: d.size as unknown as Tuple<Dimensionality>, strides: d.strides as unknown as Tuple<Dimensionality>, offset: d.offset,
    storage: findFormat(d.storage)!.storage!, arithmetic: findFormat(d.arithmetic)!.arithmetic as ArithmeticFormat,
    data: d.data, layout: d.layout, writable: d.writable, scale: d.scale,
  }));
}
