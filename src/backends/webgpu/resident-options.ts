/**
 * The options of the resident kernels (modprec/gpu), checked as `backend: 'gpu'` checks the same options of the
 * CPU kernels: one options object is valid or invalid alike on both, with the same code and parameter, and an option
 * the GPU does not implement is refused, never ignored (a resident `accumulation: 'kahan'` ran the GPU's blocked sum).
 * @module
 */
import { fail } from '../../core/errors.js';
import { checkGpuOptions, chooseBackend } from '../backend.js';
import { resolveAccumulation } from '../../../kernels/shared/accumulation.js';
import { asArithmetic, type FormatLike } from '../../formats/common/registry.js';
import { gpuArithmeticPart } from './arithmetic.js';
import { refuseOptionsNotTaken } from '../../../kernels/shared/kernel-options.js';

/** The resident kernels, by the name their options are checked under. */
export type ResidentCall = 'gpuDot' | 'gpuDotResident' | 'gpuGemv' | 'gpuTrsv' | 'gpuEllSpmv' | 'gpuUpdate' | 'gpuAsum' | 'gpuNrm2';

/**
 * The options beyond the common ones each resident kernel takes: DOT's and GEMV's tuning options, GEMV's `loop` and
 * TRSV's `blockSize` (DOT's `into` is refused by gpuDot itself, with its own reason).
 */
const RESIDENT_OPTIONS: Readonly<Record<ResidentCall, readonly string[]>> = {
  gpuDot: ['maxThreads', 'groupWidth', 'groups', 'chains', 'vectorLoads', 'into'],
  gpuDotResident: ['maxThreads', 'groupWidth', 'groups', 'chains', 'vectorLoads', 'into'],
  gpuGemv: ['targetThreads', 'chains', 'rowsPerThread', 'loop'], gpuTrsv: ['blockSize'],
  gpuEllSpmv: [], gpuUpdate: [], gpuAsum: [], gpuNrm2: [],
};

/**
 * Checks the options every resident kernel takes, in the order `backend: 'gpu'` checks them: `strict` a boolean,
 * `backend` `'gpu'` or omitted (the operands live on the device), no `threads`, `arithmetic` naming an arithmetic (its
 * GPU part is checked with the operands), and `accumulation` a known name, then refused unless omitted (the GPU sums
 * in its own fixed blocked order); then the options modprec knows that this kernel does not take are refused
 * (kernels/shared/kernel-options.ts refuseOptionsNotTaken: `gpuTrsv(…, { groups: 4 })` as `dot(…, { groups: 4 })`).
 * @param options - the kernel's options
 * @param call - the resident kernel
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options`, `options.strict`, `options.backend`,
 *   `options.threads`, `options.accumulation` or an option the kernel does not take; `INVALID_FORMAT` naming `options.arithmetic`
 * @example
 * ```ts
 * checkResidentOptions({ arithmetic: 'ff', strict: true }, 'gpuDot'); // passes
 * checkResidentOptions({ accumulation: 'kahan' }, 'gpuDot'); // throws INVALID_OPTION naming options.accumulation
 * ```
 */
export function checkResidentOptions(options: unknown, call: ResidentCall): void {
  checkGpuOptions(options);
  if (options === undefined) return;
  const o = options as { backend?: unknown; threads?: unknown; arithmetic?: unknown; accumulation?: unknown };
  // chooseBackend refuses an unknown backend, and threads with backend 'gpu', as the CPU kernels do.
  if (o.backend !== undefined && chooseBackend(o) !== 'gpu') fail('INVALID_OPTION', 'options.backend', "must be 'gpu' or omitted for the resident kernels (their operands live on the device)", o.backend);
  if (o.threads !== undefined) fail('INVALID_OPTION', 'options.threads', "is not for backend 'gpu'");
  // The CPU's order: an arithmetic that names none is refused before the accumulation (whether it has a GPU part is
  // asked later, by chooseArithmetic, as backend 'gpu' asks after the accumulation).
  // A GPU arithmetic part itself (ddGpuArithmeticWindowOf(K) and the other opt-in forms docs/double-double.md names)
  // is an arithmetic of the resident kernels, as chooseArithmetic takes it.
  if (o.arithmetic !== undefined && !gpuArithmeticPart(o.arithmetic)) asArithmetic(o.arithmetic as FormatLike, 'options.arithmetic');
  if (o.accumulation !== undefined) {
    resolveAccumulation(o.accumulation as string);
    fail('INVALID_OPTION', 'options.accumulation', "must be omitted for backend 'gpu': its reductions sum in one fixed blocked order (within the recursive bound)", o.accumulation);
  }
  refuseOptionsNotTaken(options, RESIDENT_OPTIONS[call], call);
}
