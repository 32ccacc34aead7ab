/**
 * The `threads` option as the kernels see it: a pool made by `createThreadPool` (the `modprec/threads` entry),
 * to which a kernel hands its call once every argument and option is checked. The pool's code stays out of the
 * CPU bundle: the kernels only check the option's shape and call it.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accumulation } from './accumulation.js';
import type { EllOperand } from '../ell-spmv/ell-operand.js';
import { fail } from '../../src/core/errors.js';

/** What every split call carries: the resolved arithmetic, accumulation and CPU backend the parts run. */
interface SplitCommon {
  readonly arithmetic: ArithmeticFormat;
  readonly accumulation: Accumulation;
  /** The backend each part runs: `'js'` where the whole call would run the generated JavaScript, else the option. */
  readonly backend: 'cpu' | 'wasm' | 'js';
}

/**
 * A checked kernel call handed to a thread pool. The pool splits it into contiguous parts of its output (or, for
 * the reductions DOT and ASUM, of its operands) and runs the same kernel on each part.
 * @group Threads
 */
export type SplitCall = SplitCommon & (
  | { readonly kernel: 'dot'; readonly x: Range<1, any>; readonly y: Range<1, any> }
  | { readonly kernel: 'asum'; readonly x: Range<1, any> }
  | { readonly kernel: 'gemv'; readonly alpha: number; readonly A: Range<2, any>; readonly x: Range<1, any>; readonly beta: number; readonly y: Range<1, any>; readonly trans: 'N' | 'T'; readonly loop: string }
  | { readonly kernel: 'ellSpmv'; readonly alpha: number; readonly A: EllOperand; readonly x: Range<1, any>; readonly beta: number; readonly y: Range<1, any> }
  | { readonly kernel: 'axpy'; readonly alpha: number; readonly x: Range<1, any>; readonly y: Range<1, any> }
  | { readonly kernel: 'waxpby'; readonly alpha: number; readonly x: Range<1, any>; readonly beta: number; readonly y: Range<1, any>; readonly w: Range<1, any> }
  | { readonly kernel: 'scal'; readonly alpha: number; readonly x: Range<1, any> }
);

/**
 * What the `threads` option of the CPU kernels takes: a pool from `createThreadPool` (import it from
 * `modprec/threads`). Its {@link KernelThreads.threads} threads — the calling one included — each run a
 * contiguous part of the call.
 * @group Threads
 */
export interface KernelThreads {
  /** How many threads a call is split over, the calling thread included. */
  readonly threads: number;
  /**
   * Runs a checked call split over the pool (the kernels call this; users call the kernels).
   * @returns the reduction's value for DOT and ASUM, `undefined` for the others
   */
  runSplit(call: SplitCall): number | undefined;
  /**
   * Checks a call's options with this pool, whatever its sizes ({@link KernelThreads.checkSplit} starts with this).
   * @throws {@link modprec!ModprecError} what {@link KernelThreads.runSplit} throws for these options
   */
  checkOptions(kernel: SplitCall['kernel'], arithmetic: ArithmeticFormat, accumulation: Accumulation): void;
  /**
   * Checks a whole call with this pool, whatever its sizes (the kernels call this before a quick return, the bound
   * functions for the call they bound).
   * @throws {@link modprec!ModprecError} what {@link KernelThreads.runSplit} throws for this call before it runs
   */
  checkSplit(call: SplitCall): void;
}

/**
 * The options of the kernels that split over threads (DOT, ASUM, GEMV, ELL SpMV, AXPY, WAXPBY, SCAL).
 * @group Threads
 */
export interface ThreadsOption {
  /**
   * A pool from `createThreadPool` (`modprec/threads`): the call is split into contiguous parts run at once by the
   * pool's workers and the calling thread, which waits for them (Atomics.wait: Node's main thread, a Worker; not
   * a browser's main thread). Every operand must live in shared memory (`shared: true` on the factories). The
   * result depends only on the operands and the pool's thread count. See docs/guide.md, "Threads".
   */
  threads?: KernelThreads;
}

/**
 * The pool of `options.threads`, checked, or `undefined` when the option is absent.
 * @param kernel - the kernel, for messages; kernels that do not split pass their name to be refused
 * @param splits - whether this kernel splits over threads
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.threads` for something that is not a pool, or for a
 *   kernel that does not split
 */
export function threadsOf(options: object | undefined, kernel: string, splits = true): KernelThreads | undefined {
  const t = (options as { threads?: unknown } | undefined)?.threads;
  if (t === undefined) return undefined;
  const pool = t as KernelThreads;
  if (typeof t !== 'object' || t === null || typeof pool.runSplit !== 'function' || typeof pool.checkOptions !== 'function' || typeof pool.checkSplit !== 'function') {
    fail('INVALID_OPTION', 'options.threads', 'must be a pool from createThreadPool (modprec/threads)', t);
  }
  if (!splits) fail('INVALID_OPTION', 'options.threads', `${kernel} does not split over threads`);
  return t as KernelThreads;
}

/**
 * Hands a checked call to the pool: the kernel's operands and coefficients, with the resolved arithmetic and
 * accumulation, and the backend each part asks for — the generated JavaScript where the whole call chose it (so
 * no part takes WebAssembly alone), else the caller's option (whose automatic choice every thread makes alike).
 * @returns the value of DOT and ASUM, `undefined` for the others
 */
export function runSplit(
  threads: KernelThreads, kernel: SplitCall['kernel'], operands: object, arithmetic: ArithmeticFormat, accumulation: Accumulation,
  cpu: 'wasm' | 'js', requested: string,
): number | undefined {
  return threads.runSplit(splitCallOf(kernel, operands, arithmetic, accumulation, cpu, requested));
}

/**
 * Checks a call with `options.threads` as {@link runSplit} would, for a call that returns before it splits (empty
 * operands, α = 0): the pool's state, the options and the operands raise the same errors whatever the sizes.
 * @throws {@link ModprecError} what the pool throws for the call (see {@link KernelThreads.checkSplit})
 */
export function checkSplit(
  threads: KernelThreads, kernel: SplitCall['kernel'], operands: object, arithmetic: ArithmeticFormat, accumulation: Accumulation,
  cpu: 'wasm' | 'js', requested: string,
): void {
  threads.checkSplit(splitCallOf(kernel, operands, arithmetic, accumulation, cpu, requested));
}

/** The call handed to the pool; see {@link runSplit} for the backend each part asks for. */
function splitCallOf(kernel: SplitCall['kernel'], operands: object, arithmetic: ArithmeticFormat, accumulation: Accumulation, cpu: 'wasm' | 'js', requested: string): SplitCall {
  const backend = cpu === 'js' ? 'js' : requested === 'wasm' ? 'wasm' : 'cpu';
  return { kernel, ...operands, arithmetic, accumulation, backend } as SplitCall;
}
