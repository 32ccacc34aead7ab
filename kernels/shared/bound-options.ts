/**
 * The checks a bound function shares with its kernel: `backend`, `strict`, `threads`, `arithmetic` and
 * `accumulation`, the values the arithmetic must hold (RNS has no NaN or ±∞), what the backend cannot run and what the
 * pool refuses, by the same functions the kernel calls and in its order (options, then values, then capability), so
 * that a bound refuses exactly what its kernel refuses (same code, same parameter) before it computes anything — a
 * bound of a call that cannot run would promise nothing.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { chooseBackend, type BackendName, type KernelName, type Refusal } from '../../src/backends/backend.js';
import { prepareGpuCall, type GpuBackendOptions, type GpuCall } from '../../src/backends/webgpu-bridge/gpu-backend.js';
import { chooseArithmetic, PUBLIC_OPTIONS, refuseOptionsNotTaken, type KernelOptions } from './kernel-options.js';
import { recursiveAccumulation, resolveAccumulation, resolveAccumulationIn, type Accumulation } from './accumulation.js';
import { chooseCpuBackend, type CpuCall } from './cpu-backend.js';
import { checkSplit, threadsOf, type KernelThreads, type SplitCall, type ThreadsOption } from './threads-option.js';

/**
 * The options a bound function takes: its kernel's, `backend` and `strict` included, checked as the kernel checks them.
 * @group Kernels
 */
export interface BoundBackendOptions extends KernelOptions, ThreadsOption {
  /** The backend the kernel call ran on (`'gpu'`: the bound of the GPU's call, in the arithmetic it ran). */
  backend?: 'cpu' | 'wasm' | 'js' | 'gpu';
  /** As the kernel's `strict`: a boolean (`backend: 'gpu'`); what a bound can check is only its type. */
  strict?: boolean;
}

/** How a kernel checks a call: what its own code passes to the shared checks, and its own checks in between. */
export interface BoundCallSpec {
  readonly kernel: KernelName;
  /** The operands `backend: 'gpu'` validates, by parameter name; their arithmetics set the default arithmetic. */
  readonly operands: readonly (readonly [string, Range<any, any>])[];
  /** The operands the CPU backend choice sees, with whether the kernel writes them. */
  readonly cpuOperands: CpuCall['operands'];
  /** Element-wise kernels (AXPY, WAXPBY, SCAL) validate `accumulation` but have no reduction: recursive. */
  readonly elementwise?: boolean;
  /** The kernel's own checks right after the backend is chosen, on every backend (DOT's `into`). */
  readonly afterBackend?: () => void;
  /** The kernel's own checks before `prepareGpuCall` (GEMV's loop, TRSV's block size). */
  readonly beforeGpu?: () => void;
  /** The kernel's own checks after `prepareGpuCall` (DOT's `into`, TRSV's block size against the arithmetic). */
  readonly afterGpu?: (call: GpuCall) => void;
  /** The kernel's own checks before the arithmetic on the CPU backends (TRSV's block size). */
  readonly beforeCpu?: () => void;
  /** The kernel's own checks after the accumulation on the CPU backends, before its values (GEMV's loop). */
  readonly beforeValues?: (ar: ArithmeticFormat, acc: Accumulation) => void;
  /**
   * The kernel's checks of the coefficients and values it reads, in the call's arithmetic (an RNS one holds no NaN or
   * ±∞: `checkCoefficientsIn`, `checkReadableIn`) — the kernel's own function, run where the kernel runs it: after the
   * options and before what the backend cannot run (`prepareGpuCall`'s `checkData` on the GPU).
   */
  readonly values?: (ar: ArithmeticFormat) => void;
  /** The kernel's WebAssembly refusal for this call (a layout, GEMV's explicit loop), checked as the kernel checks it. */
  readonly wasmRefusal?: (ar: ArithmeticFormat, acc: Accumulation) => Refusal | undefined;
  /** The kernel's own checks of the pool against its other options, before the pool's own (DOT's `into`). */
  readonly beforeSplit?: (threads: KernelThreads) => void;
  /**
   * The operands and coefficients the kernel hands the pool (`{ x, y }` for DOT), once the options are checked: the
   * pool checks the call as the kernel's — its options, operands outside shared memory, formats its workers do not
   * know. Omitted by the kernels that do not split (NRM2, TRSV: they refuse a pool).
   */
  readonly split?: () => object;
}

/** What the checked options decide: the backend asked for, the arithmetic and accumulation the call runs. */
export interface BoundCall {
  readonly backend: BackendName;
  readonly arithmetic: ArithmeticFormat;
  /** The accumulation the call sums with (`backend: 'gpu'`: recursive, whose bound covers its fixed blocked order). */
  readonly accumulation: Accumulation;
  /** The GPU call, for `backend: 'gpu'`. */
  readonly gpu?: GpuCall;
  /** The pool of `options.threads`, checked. */
  readonly threads?: KernelThreads;
}

/**
 * Checks a bound function's call (its arguments already checked) as its kernel checks it — options, values, then
 * what the backend or the pool cannot run — and returns what the options decide.
 * @param spec - the kernel and what it passes to the shared checks
 * @param options - the options the bound got (the kernel's)
 * @returns the backend, arithmetic, accumulation (and GPU call or pool) of the call the bound is for
 * @throws {@link ModprecError} what the kernel throws for this call: `INVALID_OPTION` naming `options`,
 *   `options.backend`, `options.strict`, `options.threads`, `options.accumulation` …, `INVALID_FORMAT` naming
 *   `options.arithmetic` or an operand the backend cannot take, `INVALID_VALUE` naming a value or coefficient the
 *   arithmetic cannot hold (`x[1]`, `alpha`), `INVALID_STORAGE` naming an operand outside the pool's shared memory
 */
export function checkBoundOptions(spec: BoundCallSpec, options: BoundBackendOptions | undefined): BoundCall {
  const backend = chooseBackend(options);
  // The options the kernel does not take are refused as the kernel refuses them (GEMV's loop passed to dotBound, …).
  refuseOptionsNotTaken(options, PUBLIC_OPTIONS[spec.kernel], `${spec.kernel}Bound`);
  spec.afterBackend?.();
  const o = (options ?? {}) as KernelOptions;
  if (backend === 'gpu') {
    spec.beforeGpu?.();
    const gpu = prepareGpuCall(spec.kernel, spec.operands, o as GpuBackendOptions, undefined, spec.values);
    spec.afterGpu?.(gpu);
    return { backend, arithmetic: gpu.arithmetic, accumulation: recursiveAccumulation, gpu };
  }
  spec.beforeCpu?.();
  const arithmetic = chooseArithmetic(o.arithmetic, spec.operands.map(([, r]) => r));
  let accumulation: Accumulation;
  if (spec.elementwise) {
    resolveAccumulation(o.accumulation);
    accumulation = recursiveAccumulation;
  } else {
    accumulation = resolveAccumulationIn(o.accumulation, arithmetic);
  }
  spec.beforeValues?.(arithmetic, accumulation);
  // Values before what a backend cannot run, as the kernels order them: an RNS call with a NaN in x is INVALID_VALUE
  // naming x[i] on every backend (the bound threw backend 'wasm''s refusal of RNS, and with 'js' checked nothing).
  spec.values?.(arithmetic);
  // Only `backend: 'wasm'` can be refused here ('cpu' falls back to the generated JavaScript, 'js' asks nothing).
  const cpu = chooseCpuBackend(backend, {
    kernel: spec.kernel, operands: spec.cpuOperands, arithmetic, accumulation, kernelRefusal: spec.wasmRefusal?.(arithmetic, accumulation),
  });
  const threads = threadsOf(options, spec.kernel, spec.split !== undefined);
  if (threads) {
    spec.beforeSplit?.(threads);
    // The pool's errors for the call are the kernel's too: its options (terminated; a reduction it cannot combine) and
    // its operands (outside shared memory: the kernel cannot run, so no bound is promised).
    checkSplit(threads, spec.kernel as SplitCall['kernel'], spec.split!(), arithmetic, accumulation, cpu, backend);
  }
  return { backend, arithmetic, accumulation, threads };
}
