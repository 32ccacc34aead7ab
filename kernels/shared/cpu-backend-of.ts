/**
 * The report of the CPU backend choice (`cpuBackendOf`): the same decision the kernels make, kernel-specific
 * WebAssembly limits included — GEMV's explicit loop and op(A)'s layout, TRSV's layout — which live with their
 * kernels (a separate file, so the shared choice in ./cpu-backend.ts imports no kernel).
 * @module
 */
import { Range } from '../../src/core/range.js';
import { fail } from '../../src/core/errors.js';
import { chooseBackend, type KernelName, type Refusal } from '../../src/backends/backend.js';
import { wasmCompilationBlocked } from '../../src/backends/wasm/wasm-runtime.js';
import { recursiveAccumulation, resolveAccumulation, type Accumulation } from './accumulation.js';
import { chooseArithmetic, PUBLIC_OPTIONS, refuseOptionsNotTaken, type KernelOptions } from './kernel-options.js';
import { automaticPrefersJs, ELEMENTWISE_KERNELS, wasmNumericsOf, wasmRefusal, type CpuCall } from './cpu-backend.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { operatorView } from '../gemv/transposed-view.js';
import { checkChoice } from '../gemv/gemv-arguments.js';
import { explicitLoopRefusal, wasmLoopRefusal } from '../gemv/gemv-loop-option.js';
import { wasmTrsvCallRefusal } from '../trsv/trsv-wasm.js';
import { EllOperand } from '../ell-spmv/ell-operand.js';
import { wasmEllRefusal } from '../ell-spmv/ell-spmv-wasm.js';

/** The kernels {@link cpuBackendOf} knows. */
const KERNEL_NAMES: readonly KernelName[] = ['dot', 'gemv', 'trsv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'nrm2', 'asum'];

/**
 * What {@link cpuBackendOf} reads besides the kernels' common options: GEMV's `loop` option, and GEMV's and TRSV's
 * `trans` argument (op(A)'s layout decides what WebAssembly reads).
 * @group Kernels
 */
export interface CpuBackendOfOptions extends KernelOptions {
  /** The backend asked for (`'cpu'`, the default, `'wasm'` or `'js'`). */
  backend?: unknown;
  /** GEMV's `loop` (an explicit loop is the generated JavaScript's). */
  loop?: unknown;
  /** GEMV's and TRSV's `trans` argument (default `'N'`). */
  trans?: 'N' | 'T';
}

/**
 * The refusal of GEMV's and TRSV's own WebAssembly limits (op(A)'s layout, GEMV's explicit loop), as the kernels
 * compute it; none for a call without its matrix A among the operands.
 */
function kernelRefusalOf(kernel: KernelName, operands: Readonly<Record<string, Range<any, any>>>, options: CpuBackendOfOptions, ar: ArithmeticFormat, acc: Accumulation): Refusal | undefined {
  if (kernel !== 'gemv' && kernel !== 'trsv') return undefined;
  const trans = checkChoice('options.trans', options.trans, ['N', 'T'] as const, 'N');
  const A = operands.A;
  if (kernel === 'gemv') {
    // The loop is checked as GEMV checks it, with or without A.
    return A?.dimensionality === 2 ? wasmLoopRefusal(options.loop, operatorView(A.accessor, trans), acc) : explicitLoopRefusal(options.loop);
  }
  return A && A.dimensionality === 2 ? wasmTrsvCallRefusal(operatorView(A.accessor, trans), ar, acc) : undefined;
}

/**
 * Which CPU backend runs `kernel` on these operands with these options, and why not WebAssembly when it is the
 * generated JavaScript: the automatic choice the kernels make, reported — GEMV's and TRSV's layout limits and GEMV's
 * explicit `loop` included (pass A as operand `A`, and `trans` where op(A) is Aᵀ), and ELL SpMV's values (pass its
 * ELL operand as `A`). Until session 28 those were left out: a GEMV whose A has no unit stride was reported `'wasm'`
 * where the kernel runs the generated JavaScript.
 * @param kernel - the kernel's name
 * @param operands - the operands by parameter name; the last one of `writes` is written
 * @param options - the kernel's options (arithmetic, accumulation, backend; GEMV's loop), and GEMV's or TRSV's trans
 * @throws {@link ModprecError} `INVALID_OPTION` naming `kernel` (unknown), `operands` (not an object, or empty) or
 *   `operands.<name>` (not a range),
 *   `writes`, or an option, as the kernels do
 * @example
 * ```ts
 * import { vector, formats, cpuBackendOf } from 'modprec';
 *
 * const x = vector([1, 2, 3], { storage: formats.f32 });
 * cpuBackendOf('dot', { x, y: x }).backend; // 'wasm' where WebAssembly SIMD runs, else 'js'
 * cpuBackendOf('dot', { x, y: x }, { arithmetic: formats.dd, accumulation: 'pairwise' }).backend; // → 'js'
 * ```
 * @group Kernels
 */
export function cpuBackendOf(
  kernel: KernelName, operands: Readonly<Record<string, Range<any, any> | EllOperand>>, options: CpuBackendOfOptions = {}, writes: readonly string[] = [],
): { backend: 'wasm' | 'js'; reason?: string } {
  // Checked before the answer: an unknown kernel or a missing operand crashed later with a TypeError, or was reported.
  if (!KERNEL_NAMES.includes(kernel)) fail('INVALID_OPTION', 'kernel', `must be one of ${KERNEL_NAMES.join(', ')}`, kernel);
  if (typeof operands !== 'object' || operands === null) fail('INVALID_OPTION', 'operands', 'must be an object of ranges by parameter name', operands);
  for (const [name, r] of Object.entries(operands)) {
    // ELL SpMV's A is its operand (values and structure), as the kernel takes it.
    if (!(r instanceof Range) && !(kernel === 'ellSpmv' && name === 'A' && r instanceof EllOperand)) fail('INVALID_OPTION', `operands.${name}`, kernel === 'ellSpmv' && name === 'A' ? 'must be an ELL operand (ellOperand, ellFromMatrix)' : 'must be a range', r);
  }
  // No operand left the arithmetic to choose from nothing: a TypeError reading the first range's accessor.
  if (Object.keys(operands).length === 0) fail('INVALID_OPTION', 'operands', 'must name at least one range', operands);
  if (!Array.isArray(writes) || writes.some((w) => typeof w !== 'string')) fail('INVALID_OPTION', 'writes', 'must be an array of operand names', writes);
  const requested = chooseBackend(options);
  // The options the kernel does not take are refused as the kernel refuses them (GEMV's loop asked of dot, …).
  refuseOptionsNotTaken(options, PUBLIC_OPTIONS[kernel], kernel);
  if (requested === 'js') return { backend: 'js', reason: "backend: 'js' was asked for" };
  if (wasmCompilationBlocked()) return { backend: 'js', reason: "Content-Security-Policy: the page forbids compiling WebAssembly (no 'wasm-unsafe-eval')" };
  // ELL SpMV's A: its values set the arithmetic with x and y, and are asked about by the kernel's own refusal.
  const ell = kernel === 'ellSpmv' && operands.A instanceof EllOperand ? operands.A : undefined;
  const ranged = Object.entries(operands).filter((e): e is [string, Range<any, any>] => e[1] instanceof Range);
  const ranges = [...(ell ? [ell.values] : []), ...ranged.map(([, r]) => r)];
  const accumulation = resolveAccumulation(options.accumulation);
  const arithmetic = chooseArithmetic(options.arithmetic, ranges);
  // The element-wise kernels validate the option but have no reduction to order: they run as recursive (see axpy.ts).
  const acc = ELEMENTWISE_KERNELS.has(kernel) ? recursiveAccumulation : accumulation;
  const call: CpuCall = {
    kernel, arithmetic, accumulation: acc,
    operands: ranged.map(([name, r]) => [name, r, writes.includes(name) ? 'write' : 'read'] as const),
    kernelRefusal: ell ? wasmEllRefusal(ell.values.accessor, ell.structure.rows) : kernelRefusalOf(kernel, Object.fromEntries(ranged), options, arithmetic, acc),
  };
  if (ell && requested === 'cpu') {
    // The kernel's own automatic choice (ell-spmv.ts): values scaled per slot, or double-double values in fp32
    // arithmetic, are read into a twin by a JavaScript pass as long as the JavaScript kernel's own.
    const numerics = wasmNumericsOf(arithmetic, acc);
    const values = ell.values.accessor;
    if (values.scale?.mask[1] === true || ((numerics === 'f32' || numerics === 'kahan-f32') && values.storage.kind === 'dd')) {
      return { backend: 'js', reason: 'A.values: values scaled per slot (or double-double values in f32 arithmetic) are read through a JavaScript pass as long as the JavaScript kernel, so the automatic choice keeps it there' };
    }
  }
  const why = wasmRefusal(call);
  if (why) return { backend: 'js', reason: `${why.parameter}: ${why.reason}` };
  const prefers = requested === 'cpu' ? automaticPrefersJs(call) : undefined;
  return prefers ? { backend: 'js', reason: prefers } : { backend: 'wasm' };
}
