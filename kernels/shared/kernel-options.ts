/**
 * Options every kernel takes, and the operand checks every kernel shares.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { asArithmetic, type FormatLike } from '../../src/formats/common/registry.js';
import type { Accumulation } from './accumulation.js';
import { Range } from '../../src/core/range.js';
import type { Dimensionality } from '../../accessors/accessor.js';
import { checkSize, fail } from '../../src/core/errors.js';
import { chooseBackend, type BackendName, type KernelName } from '../../src/backends/backend.js';

/**
 * Options common to all kernels.
 * @group Kernels
 */
export interface KernelOptions {
  /**
   * Arithmetic format to compute in (default: the most precise arithmetic among the operands — smallest unit roundoff,
   * then most significand bits; two different ones alike in both are `INVALID_FORMAT` naming this option).
   */
  arithmetic?: FormatLike;
  /** Summation strategy of reductions (default `recursive`). */
  accumulation?: string | Accumulation;
}

/**
 * The arithmetic a kernel computes in: the option, else the most precise operand arithmetic — the smallest unit
 * roundoff, then the most significand bits. By bits alone a tie went to the first operand: dot(x, y) of a dd and an
 * rns106 operand (106 bits each) computed in dd and dot(y, x) in rns106, and a user's 53-bit arithmetic against fp64
 * likewise; now the smaller u decides, and two arithmetics alike in both are a typed error asking for the option.
 * @throws {@link ModprecError} `INVALID_FORMAT` naming `options.arithmetic` when two operand arithmetics of different
 *   names have the same unit roundoff and significand bits
 */
export function chooseArithmetic(option: FormatLike | undefined, operands: readonly Range<any, any>[]): ArithmeticFormat {
  if (option !== undefined) return asArithmetic(option, 'options.arithmetic');
  let best = operands[0]!.accessor.arithmetic as ArithmeticFormat;
  for (const r of operands) {
    const a = r.accessor.arithmetic as ArithmeticFormat;
    if (a.unitRoundoff < best.unitRoundoff || (a.unitRoundoff === best.unitRoundoff && a.significandBits > best.significandBits)) best = a;
  }
  for (const r of operands) {
    const a = r.accessor.arithmetic as ArithmeticFormat;
    if (a.name !== best.name && a.unitRoundoff === best.unitRoundoff && a.significandBits === best.significandBits) {
      fail('INVALID_FORMAT', 'options.arithmetic', `must be given: the operands compute in ${best.name} and ${a.name}, equally precise`);
    }
  }
  return best;
}

/**
 * Checks that `value` is a range of dimensionality `dim` (and writable when `writable`).
 * @throws {@link ModprecError} `INVALID_OPTION` / `DIMENSION_MISMATCH` / `INVALID_STORAGE`
 */
export function checkRange<D extends Dimensionality>(name: string, value: unknown, dim: D, writable = false): Range<D, any> {
  if (!(value instanceof Range)) fail('INVALID_OPTION', name, 'must be a range (range(rowMajor(…)) etc.)', value);
  if (value.dimensionality !== dim) {
    fail('DIMENSION_MISMATCH', name, `must be a ${dim}-D range`, `${value.dimensionality}-D range`);
  }
  if (writable && !value.accessor.writable) fail('INVALID_STORAGE', name, 'must be writable (not made by toConst)');
  return value as Range<D, any>;
}

/** Checks a scalar coefficient (α, β): a finite or non-finite JS number. @throws {@link ModprecError} `INVALID_VALUE` */
export function checkScalar(name: string, value: unknown): number {
  if (typeof value !== 'number') fail('INVALID_VALUE', name, 'must be a number', value);
  return value;
}

/** Checks two lengths agree. @throws {@link ModprecError} `DIMENSION_MISMATCH` naming both */
export function checkSameLength(nameA: string, a: number, nameB: string, b: number): void {
  if (a !== b) fail('DIMENSION_MISMATCH', nameB, `must have length ${a} (the length of ${nameA})`, b);
}

/**
 * For arithmetics that cannot hold NaN or ±∞ (kind `mp`: RNS), checks every value the kernel will read is finite,
 * so the kernel fails with a typed error before it writes anything rather than part-way through.
 * No-op for other arithmetics (they propagate NaN and ∞ as IEEE does).
 * @param ar - the kernel's arithmetic
 * @param reads - the operands the kernel will read, by parameter name
 * @throws {@link ModprecError} `INVALID_VALUE` naming the operand and the index of the first non-finite value
 */
export function checkReadableIn(ar: ArithmeticFormat, reads: readonly (readonly [string, Range<any, any>])[]): void {
  if (ar.kind !== 'mp') return;
  for (const [name, r] of reads) {
    const at = firstNonFinite(r);
    if (at) fail('INVALID_VALUE', `${name}[${at.index.join(', ')}]`, `must be finite for ${ar.name} arithmetic (it has no NaN or infinity)`, at.value);
  }
}

/**
 * The first element of a range (row-major order of indices) that is not finite, or undefined; multiple-precision
 * storages hold finite values by construction. A double-double is finite when both parts are: a raw pair with a
 * finite hi and a non-finite lo would otherwise fail in a conversion part-way through a kernel, naming its own `lo`.
 */
export function firstNonFinite(r: Range<any, any>): { index: number[]; value: number } | undefined {
  const a = r.accessor;
  const st = a.storage;
  if (st.kind === 'mp') return undefined;
  const size = a.size as readonly number[];
  if (size.some((s) => s === 0)) return undefined;
  const index = new Array<number>(size.length).fill(0);
  for (;;) {
    const v = st.decode(a.data as never, a.linearIndex(index));
    const pair = v as { hi: number; lo: number };
    const x = st.kind !== 'dd' ? (v as number) : Number.isFinite(pair.hi) ? pair.lo : pair.hi;
    if (!Number.isFinite(x)) return { index, value: x };
    let d = size.length - 1;
    while (d >= 0 && ++index[d]! === size[d]) index[d--] = 0;
    if (d < 0) return undefined;
  }
}

/**
 * For arithmetics that cannot hold NaN or ±∞ (kind `mp`: RNS), checks the coefficients a call multiplies by are
 * finite — on every backend, naming the coefficient (the CPU's conversion would name its own `value`, the GPU's a
 * kernel's `alpha` for a β it scales by), before anything is written. Callers pass only the coefficients the call
 * uses: none on a quick return (an empty product, α = 0 with β = 1, …), as IEEE arithmetics never read them there.
 * @param ar - the kernel's arithmetic
 * @param coefficients - the coefficients used, by parameter name
 * @throws {@link ModprecError} `INVALID_VALUE` naming the first non-finite coefficient
 */
export function checkCoefficientsIn(ar: ArithmeticFormat, coefficients: readonly (readonly [string, number])[]): void {
  if (ar.kind !== 'mp') return;
  for (const [name, c] of coefficients) {
    if (!Number.isFinite(c)) fail('INVALID_VALUE', name, `must be finite for ${ar.name} arithmetic (it has no NaN or infinity)`, c);
  }
}

/**
 * The GPU tuning options of the resident kernels (modprec/gpu), each with its value check — the one the resident
 * kernels run: DOT's first-pass shape (`maxThreads`, `groupWidth`, `groups`, `chains`, `vectorLoads`) and GEMV's
 * (`targetThreads`, `chains`, `rowsPerThread`; its arithmetic's own limit on the rows is checked by gpuGemv).
 */
export const GPU_TUNING_OPTIONS: Readonly<Record<string, (value: unknown) => void>> = {
  maxThreads: (v) => {
    if (checkSize('options.maxThreads', v) < 1) fail('INVALID_SIZE', 'options.maxThreads', 'must be at least 1', v);
  },
  groupWidth: (v) => {
    if (v !== 1 && v !== 2 && v !== 4) fail('INVALID_OPTION', 'options.groupWidth', 'must be 1, 2 or 4', v);
  },
  groups: (v) => checkIntegerOption('options.groups', v, 16),
  chains: (v) => checkIntegerOption('options.chains', v, 8),
  vectorLoads: (v) => {
    if (typeof v !== 'boolean') fail('INVALID_OPTION', 'options.vectorLoads', 'must be a boolean', v);
  },
  targetThreads: (v) => checkSize('options.targetThreads', v),
  rowsPerThread: (v) => {
    if (v !== 1 && v !== 2 && v !== 4) fail('INVALID_OPTION', 'options.rowsPerThread', 'must be 1, 2 or 4', v);
  },
};

/** Checks an option is an integer from 1 to `most`. @throws {@link ModprecError} `INVALID_OPTION` naming it */
export function checkIntegerOption(name: string, value: unknown, most: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > most) fail('INVALID_OPTION', name, `must be an integer from 1 to ${most}`, value);
  return value;
}

/**
 * Where each option beyond the common ones (`arithmetic`, `accumulation`, `backend`, `strict`, `threads`) is taken:
 * DOT's `into`, GEMV's `loop`, TRSV's `blockSize`, and the resident kernels' tuning options.
 */
const OPTION_OWNERS: Readonly<Record<string, string>> = {
  into: "DOT's (dot)", loop: "GEMV's (gemv, gpuGemv)", blockSize: "TRSV's (trsv, gpuTrsv)",
  maxThreads: 'a tuning option of the resident gpuDot and gpuDotResident', groupWidth: 'a tuning option of the resident gpuDot and gpuDotResident',
  groups: 'a tuning option of the resident gpuDot and gpuDotResident', vectorLoads: 'a tuning option of the resident gpuDot and gpuDotResident',
  chains: 'a tuning option of the resident gpuDot, gpuDotResident and gpuGemv',
  targetThreads: 'a tuning option of the resident gpuGemv', rowsPerThread: 'a tuning option of the resident gpuGemv',
};

/** The options beyond the common ones each public kernel (on every backend) and its bound function take. */
export const PUBLIC_OPTIONS: Readonly<Record<KernelName, readonly string[]>> = {
  dot: ['into'], gemv: ['loop'], trsv: ['blockSize'], ellSpmv: [], axpy: [], waxpby: [], scal: [], nrm2: [], asum: [],
};

/**
 * One rule for every option modprec knows, on every call: an option a call does not take (a resident kernel's tuning
 * option passed to a public kernel on any backend, GEMV's `loop` passed to DOT, DOT's `into` passed to ASUM, …) is
 * refused — its value checked first, as the call that takes it checks it, so a bad value is the same error there and
 * here — never ignored. Options modprec does not know are not read (an options object may carry the caller's own).
 * @param options - the call's options (checked to be an object or omitted by the caller's backend choice)
 * @param taken - the options beyond the common ones that this call takes
 * @param call - the call's name, for the message
 * @throws {@link ModprecError} the value check's error, else `INVALID_OPTION` naming `options.<key>`
 * @example
 * ```ts
 * refuseOptionsNotTaken({ groups: 4 }, ['into'], 'dot'); // throws INVALID_OPTION naming options.groups
 * ```
 */
export function refuseOptionsNotTaken(options: unknown, taken: readonly string[], call: string): void {
  if (typeof options !== 'object' || options === null) return;
  for (const key in OPTION_OWNERS) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined || taken.includes(key)) continue;
    GPU_TUNING_OPTIONS[key]?.(value);
    fail('INVALID_OPTION', `options.${key}`, `is not an option of ${call}: it is ${OPTION_OWNERS[key]}`, value);
  }
}

/**
 * The backend a public kernel's `options` name ({@link chooseBackend}), after refusing the options this kernel does
 * not take ({@link refuseOptionsNotTaken}) — on every backend alike, before anything is read or written.
 * @param kernel - the kernel
 * @param options - its options
 * @returns the backend
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options`, `options.backend`, `options.strict`, `options.threads`
 *   or an option the kernel does not take; `INVALID_SIZE` for a bad `maxThreads` or `targetThreads`
 * @example
 * ```ts
 * chooseKernelBackend('dot', { backend: 'js' }); // 'js'
 * ```
 */
export function chooseKernelBackend(kernel: KernelName, options: unknown): BackendName {
  const backend = chooseBackend(options as { backend?: unknown } | undefined);
  refuseOptionsNotTaken(options, PUBLIC_OPTIONS[kernel], kernel);
  return backend;
}
