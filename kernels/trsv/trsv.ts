/**
 * TRSV: solves op(A)·x = b in place through any accessors, in any arithmetic, with any accumulation.
 * @module
 */
import { chooseCpuBackend, orderedNumerics, wasmNumericsOf, type CpuBackendOption } from '../shared/cpu-backend.js';
import { wasmOrderedTrsv } from './trsv-ordered-wasm.js';
import { runWasm } from '../shared/run-wasm.js';
import { readMatrixTwin } from '../shared/scale-twin.js';
import { wasmTrsv, wasmTrsvCallRefusal } from './trsv-wasm.js';
import { wasmKahanTrsv } from './trsv-kahan-wasm.js';
import { solveOnX } from './trsv-dd-x-wasm.js';
import { wasmDdTrsv } from './trsv-dd-wasm.js';
import { wasmDdSumTrsv } from './trsv-dd-sum-wasm.js';
import { chooseBackend, isRnsArithmetic, prepareGpuCall, trsvOnGpu, type GpuKernelReport } from '../../src/backends/webgpu-bridge/gpu-dispatch.js';
import { rnsGpuBlockSize, trsvBlockSize, type TrsvGpuOptions } from './trsv-block-size.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { chooseArithmetic, type KernelOptions, chooseKernelBackend } from '../shared/kernel-options.js';
import { resolveAccumulationIn } from '../shared/accumulation.js';
import { checkTrsvArguments, type TrsvArguments } from './trsv-arguments.js';
import { trsvNeedsScratch, trsvProgram } from './trsv-cpu.js';
import { checkTrsvValues } from './trsv-pivots.js';
import { solveRestoringX } from './trsv-rns-overflow.js';
import { threadsOf } from '../shared/threads-option.js';
import { restoringOutput } from '../shared/output-restore.js';

let scratch = new Float64Array(0);

/** The partial sums of the column-oriented loop (grown on demand, reused across calls). */
function scratchOf(n: number): Float64Array {
  if (scratch.length < n) scratch = new Float64Array(n);
  return scratch;
}

/**
 * Solves op(A)·x = b for a triangular A, overwriting x (which holds b on entry) with the solution, as BLAS's
 * TRSV. Each xᵢ is computed in the arithmetic (one reduction through the accumulation strategy — bᵢ, then the
 * products in ascending column order for a lower op(A), descending for an upper one — and a division by the
 * diagonal) and written back rounded to x's storage before a later row reads it. The loop order follows A's
 * layout so that A is read contiguously (column-oriented for column-major A with trans 'N'); it does not change
 * the result (kernels/trsv/trsv-cpu.ts).
 * Only the `uplo` triangle of A is read, and not its diagonal when `diag = 'U'`. A zero diagonal gives
 * ±Inf/NaN as IEEE division does in fp64, fp32 and dd arithmetic; in an arithmetic without infinities (RNS) it
 * is refused before anything is written (`INVALID_VALUE` naming `A[i, i]`), as is a non-finite entry of the
 * triangle read. x must not share storage with A. An empty system returns at once.
 * @param args - `{ A, x, uplo, trans, diag }`, see {@link TrsvArguments}
 * @param options - arithmetic (default: the most precise of A's and x's), accumulation (default recursive)
 * @throws {@link ModprecError} `DIMENSION_MISMATCH` for a non-square A or a wrong length of x;
 *   `INVALID_STORAGE` for a read-only x; `INVALID_OPTION` for bad uplo/trans/diag or non-ranges;
 *   `INVALID_VALUE` in RNS arithmetic for a zero pivot or a non-finite entry read, or naming `x[i]` for an unknown
 *   that overflows x's storage (stored as ±∞) before a later row reads it back.
 *   `INVALID_VALUE` naming `x[i]` for an unknown that is NaN or ±∞ in an IEEE arithmetic where x is stored in RNS (which
 *   holds finite values only; the first in solve order): x is then put back as it was. Nothing is written when it throws.
 * @example
 * ```ts
 * import { range, vector, toArray, formats, reducedColMajor, trsv } from 'modprec';
 *
 * // U stored in fp32, solved in fp64 arithmetic, x in fp32 storage
 * const U = range(reducedColMajor({ size: [2, 2], storage: formats.f32, arithmetic: formats.f64 }));
 * U.set(0, 0, 2); U.set(0, 1, 1); U.set(1, 1, 4);
 * const x = vector([4, 8], { storage: formats.f32 });
 * trsv({ A: U, x, uplo: 'U', trans: 'N', diag: 'N' });   // x := U⁻¹x
 * toArray(x); // → Float64Array(2) [ 1, 2 ]
 * ```
 * @group Kernels
 */
export function trsv(args: TrsvArguments, options?: KernelOptions & { backend?: CpuBackendOption }): void;
/**
 * TRSV on the GPU (WebGPU through gpu.js; CPU fallback with a notice where no adapter exists, unless `strict`):
 * operands are uploaded in their storage formats, the result is written back through the output range. The GPU
 * solves through explicitly inverted diagonal blocks (`blockSize` rows: 64, 128 or 256; default 64, 256 in double-double): its error bound
 * is `trsvBound(args, options)` with the same options (`backend: 'gpu'`, the same `blockSize`), not the substitution
 * bound. With an RNS arithmetic the GPU solves by substitution as the CPU does (no `blockSize`; two roundings a row,
 * within the CPU's bound, which `trsvBound` then returns) and refuses an unknown that overflows x's storage as the CPU
 * does (`INVALID_VALUE` naming `x[i]`, x left as it was).
 * @returns a promise of the run report (backend, adapter, fallback reason, arithmetic)
 */
export function trsv(args: TrsvArguments, options: TrsvGpuOptions): Promise<GpuKernelReport>;
export function trsv(args: TrsvArguments, options: (KernelOptions & { backend?: CpuBackendOption }) | TrsvGpuOptions = {}): void | Promise<GpuKernelReport> {
  const { A, x, T, lower, unit, n } = checkTrsvArguments(args);
  if (chooseKernelBackend('trsv', options) === 'gpu') {
    trsvBlockSize(options, 'gpu');
    const call = prepareGpuCall('trsv', [['A', A], ['x', x]], options as TrsvGpuOptions, undefined, (ar) => {
      // An option before the values, as on the CPU (whose blockSize refusal comes first).
      if (isRnsArithmetic(ar)) rnsGpuBlockSize(options);
      checkTrsvValues(ar, A, x, (args.uplo ?? 'U') === 'U', unit);
    });
    const blockSize = trsvBlockSize(options, 'gpu', call.gpuArithmetic === 'dd', n)!;
    return trsvOnGpu({ A, x, uplo: args.uplo ?? 'U', trans: args.trans ?? 'N', diag: unit ? 'U' : 'N', blockSize }, call, () => trsv(args, { arithmetic: call.arithmetic }));
  }
  trsvBlockSize(options, 'cpu');
  options = options as KernelOptions;
  const ar = chooseArithmetic(options.arithmetic, [A, x]);
  // Options, then values (then what a backend cannot run): the order of every backend.
  const acc = resolveAccumulationIn(options.accumulation, ar);
  checkTrsvValues(ar, A, x, (args.uplo ?? 'U') === 'U', unit);
  const requested = chooseBackend(options);
  const cpu = chooseCpuBackend(requested, {
    kernel: 'trsv', operands: [['A', A, 'read'], ['x', x, 'write']], arithmetic: ar, accumulation: acc,
    kernelRefusal: wasmTrsvCallRefusal(T, ar, acc),
  });
  // Each unknown waits on the previous ones: a substitution does not split into independent parts.
  threadsOf(options, 'trsv', false);
  if (n === 0) return;
  if (cpu === 'wasm') {
    const numerics = wasmNumericsOf(ar, acc);
    const lanes = numerics === 'f32' || numerics === 'kahan-f32' ? 'f32' : 'f64';
    const ordered = orderedNumerics(numerics);
    // Scales per row, column or element of A outside double-double: an unscaled twin of the JavaScript's reads
    // (double-double stages each column as it reads it, kernels/trsv/trsv-scaled-a.ts).
    const Tw = numerics === 'dd' ? T : readMatrixTwin(T, numerics, false);
    if (numerics === 'dd' && ar.kind === 'dd') {
      // Double-double arithmetic: the JavaScript's bits.
      if (runWasm(requested, () => wasmDdTrsv(T, x.accessor, n, lower, unit, acc.name === 'dd', ar))) return;
    } else if (numerics === 'dd') {
      // fp64 arithmetic with the dd accumulation: the JavaScript's bits.
      if (runWasm(requested, () => solveOnX(x.accessor, n, 'f64', ar, (xa, stored) => { wasmDdSumTrsv(T, xa, n, lower, unit, stored); return true; }))) return;
    } else if (ordered) {
      // A non-finite row sum leaves x untouched and is recomputed by the JavaScript kernel.
      let done = false;
      if (runWasm(requested, () => { done = solveOnX(x.accessor, n, ordered.arithmetic, ar, (xa, stored) => wasmOrderedTrsv(Tw, xa, n, lower, unit, ordered.accumulation, ordered.arithmetic, stored)); }) && done) return;
    } else if (numerics === 'kahan-f64' || numerics === 'kahan-f32') {
      // A non-finite row-oriented solve leaves x untouched and is recomputed by the JavaScript kernel.
      let done = false;
      if (runWasm(requested, () => { done = solveOnX(x.accessor, n, lanes, ar, (xa, stored) => wasmKahanTrsv(Tw, xa, n, lower, unit, lanes, stored)); }) && done) return;
    } else if (runWasm(requested, () => solveOnX(x.accessor, n, lanes, ar, (xa, stored) => { wasmTrsv(Tw, xa, n, lower, unit, lanes, stored); return true; }))) return;
  }
  const spec = { T, x: x.accessor, ar, acc, lower, unit };
  const solve = (): void => trsvProgram(spec)(n, ...Operand.args(T), ...Operand.args(x.accessor), trsvNeedsScratch(spec) ? scratchOf(n) : undefined);
  // RNS has no ±∞: an unknown that overflows x's storage cannot be read back by the rows after it.
  // An RNS x cannot hold a NaN or ±∞ unknown of an IEEE arithmetic, a user's storage may refuse one: x is put back
  // and the unknown named (kernels/shared/output-restore.ts).
  restoringOutput(x, 'x', ar, ar.kind === 'mp' ? () => solveRestoringX(x, lower, ar, solve) : solve);
}
