/**
 * A kernel case: one problem instance (fp64 inputs and their double-double reference) that can be bound
 * to any configuration and then run, timed and checked. The per-kernel files under cases/ build them.
 * @module
 */
import type { DdVector } from './relative-error.js';
import { referencePrecision, type ReferencePrecision } from './reference.js';
import type { ResolvedConfiguration } from './operands.js';
import { largestScale, storedValues, type IntegerLayout } from './operands.js';
import type { Configuration, StudyKernel } from './types.js';
import type { GpuRun, GpuStudy } from './gpu-backend.js';
import { integerRoundingTerms, productSumBound, roundingTerms, type OutputTerms } from './a-priori-bound.js';

/** A case bound to one configuration: operands allocated and filled, ready to run. */
export interface BoundCase {
  /** Runs the kernel once (restoring any operand it overwrites in place first). */
  run(): void;
  /** The result of the last run (double-double pairs: exact for fp64 and double-double outputs). */
  result(): DdVector;
}

/** A case bound to one GPU configuration: operands resident on the device. */
export interface GpuBoundCase {
  /** Runs the kernel once (asynchronously; may return before the device has finished). */
  run(): Promise<GpuRun>;
  /** Waits until the device has finished the calls so far (reads the output back). */
  sync(): Promise<void>;
  /** The result of the last run, read back. */
  result(): Promise<DdVector>;
  /** Frees the device buffers. */
  dispose(): void;
}

/** One problem instance of a kernel. */
export interface KernelCase {
  readonly kernel: StudyKernel;
  /** Distribution or matrix name. */
  readonly problem: string;
  readonly size: number;
  readonly nnz: number | null;
  readonly seed: number | null;
  /** Floating-point operations of one call. */
  readonly flops: number;
  /** Values read or written once per call (times the storage's bytes per element gives the traffic). */
  readonly values: number;
  /** Bytes of index data read per call (ELL column indices). */
  readonly indexBytes: number;
  /** Reference result of the fp64 inputs, in `precision` (default double-double; see app/study/reference.ts). */
  reference(precision?: ReferencePrecision): DdVector;
  /**
   * Reference result of the inputs as configuration `config` keeps them (its storage, its scales), in the
   * precision `config` is checked against; null for a double-double configuration over a storage that rounds
   * the inputs (that would take a wide reference per storage; its `arithmeticError` is left empty).
   */
  storedReference(config: ResolvedConfiguration): DdVector | null;
  /** Allocates and fills the operands in the configuration's formats. */
  bind(config: ResolvedConfiguration): BoundCase;
  /** A-priori norm-wise relative error bound of the kernel in `config` (null when the kernel has none; ∞ when an input overflows the storage). */
  bound(config: ResolvedConfiguration): number | null;
  /** Uploads the operands to the GPU in the configuration's formats; absent when the GPU has no such kernel. */
  bindGpu?(gpu: GpuStudy, config: Configuration): Promise<GpuBoundCase>;
}

/** What a kernel file gives {@link makeCase}. */
export interface CaseSpec {
  kernel: StudyKernel;
  problem: string;
  size: number;
  nnz?: number | null;
  seed: number | null;
  flops: number;
  values: number;
  indexBytes?: number;
  /** The fp64 inputs that a storage format rounds. */
  inputs: readonly Float64Array[];
  /** How each input is laid out when the storage is a scaled integer format (default `'vector'`). */
  integerLayouts?: readonly IntegerLayout[];
  /** The reference result for given inputs (the originals, or the originals rounded to a storage), in `precision`. */
  referenceOf(inputs: readonly Float64Array[], precision: ReferencePrecision): DdVector;
  bind(config: ResolvedConfiguration): BoundCase;
  /**
   * Per-output terms of a product-sum kernel (see {@link productSumBound}), given the reference; absent
   * for kernels without such a bound (TRSV).
   */
  outputTerms?(reference: DdVector): OutputTerms[];
  /** Whether the result is written to an operand in the storage format (not returned as a number). */
  resultStored: boolean;
  bindGpu?(gpu: GpuStudy, config: Configuration): Promise<GpuBoundCase>;
}

/** A {@link KernelCase} whose references are computed once per storage format and cached. */
export function makeCase(spec: CaseSpec): KernelCase {
  const cache = new Map<string, DdVector>();
  let terms: OutputTerms[] | undefined;
  const referenceFor = (key: string, inputs: () => readonly Float64Array[], precision: ReferencePrecision): DdVector => {
    let r = cache.get(`${precision}|${key}`);
    if (!r) {
      r = spec.referenceOf(inputs(), precision);
      cache.set(`${precision}|${key}`, r);
    }
    return r;
  };
  const overflowCache = new Map<string, boolean>();
  const overflows = (config: ResolvedConfiguration): boolean => {
    let o = overflowCache.get(config.storageFormat.name);
    if (o === undefined) {
      const layouts = spec.integerLayouts ?? [];
      o = spec.inputs.some((a, i) => storedValues(config, a, layouts[i] ?? 'vector').some((v) => !Number.isFinite(v)));
      overflowCache.set(config.storageFormat.name, o);
    }
    return o;
  };
  return {
    kernel: spec.kernel, problem: spec.problem, size: spec.size, nnz: spec.nnz ?? null, seed: spec.seed,
    flops: spec.flops, values: spec.values, indexBytes: spec.indexBytes ?? 0,
    reference: (precision = 'dd') => referenceFor('', () => spec.inputs, precision),
    storedReference: (config) => {
      const layouts = spec.integerLayouts ?? [];
      const precision = referencePrecision(config.arithmeticFormat.significandBits);
      const st = config.storageFormat;
      // A storage holding every double keeps the inputs as they are: its stored reference is the reference.
      if (!st.isInteger && (st.kind !== 'number' || st.significandBits >= 53)) return referenceFor('', () => spec.inputs, precision);
      // The wide (RNS) reference costs 10–100× the double-double one: computed once per case, not per storage.
      if (precision === 'wide') return null;
      // Integer storage: the stored values depend on the arithmetic too (outputs are kept in its format).
      const key = st.isInteger ? `${config.storage}/${config.arithmetic}` : st.name;
      return referenceFor(key, () => spec.inputs.map((a, i) => storedValues(config, a, layouts[i] ?? 'vector')), precision);
    },
    bind: spec.bind,
    ...(spec.bindGpu ? { bindGpu: spec.bindGpu } : {}),
    bound: (config) => {
      if (!spec.outputTerms) return null;
      // A value beyond the storage's range is stored as ±∞: no finite bound holds (scaled integers never overflow).
      if (!config.storageFormat.isInteger && overflows(config)) return Infinity;
      terms ??= spec.outputTerms(referenceFor('', () => spec.inputs, 'dd'));
      const rounding = config.storageFormat.isInteger
        ? integerRoundingTerms(config.arithmeticFormat, largestScale(config, spec.inputs, spec.integerLayouts ?? []))
        : roundingTerms(config.storageFormat, config.arithmeticFormat, spec.resultStored);
      return productSumBound(terms, rounding);
    },
  };
}
