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

/**
 * Checks the options every resident kernel takes, in the order `backend: 'gpu'` checks them: `strict` a boolean,
 * `backend` `'gpu'` or omitted (the operands live on the device), no `threads`, `arithmetic` naming an arithmetic (its
 * GPU part is checked with the operands), and `accumulation` a known name, then refused unless omitted (the GPU sums
 * in its own fixed blocked order).
 * @param options - the kernel's options
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options`, `options.strict`, `options.backend`,
 *   `options.threads` or `options.accumulation`; `INVALID_FORMAT` naming `options.arithmetic`
 * @example
 * ```ts
 * checkResidentOptions({ arithmetic: 'ff', strict: true }); // passes
 * checkResidentOptions({ accumulation: 'kahan' }); // throws INVALID_OPTION naming options.accumulation
 * ```
 */
export function checkResidentOptions(options: unknown): void {
  checkGpuOptions(options);
  if (options === undefined) return;
  const o = options as { backend?: unknown; threads?: unknown; arithmetic?: unknown; accumulation?: unknown };
  // chooseBackend refuses an unknown backend, and threads with backend 'gpu', as the CPU kernels do.
  if (o.backend !== undefined && chooseBackend(o) !== 'gpu') fail('INVALID_OPTION', 'options.backend', "must be 'gpu' or omitted for the resident kernels (their operands live on the device)", o.backend);
  if (o.threads !== undefined) fail('INVALID_OPTION', 'options.threads', "is not for backend 'gpu'");
  // The CPU's order: an arithmetic that names none is refused before the accumulation (whether it has a GPU part is
  // asked later, by chooseArithmetic, as backend 'gpu' asks after the accumulation).
  if (o.arithmetic !== undefined) asArithmetic(o.arithmetic as FormatLike, 'options.arithmetic');
  if (o.accumulation !== undefined) {
    resolveAccumulation(o.accumulation as string);
    fail('INVALID_OPTION', 'options.accumulation', "must be omitted for backend 'gpu': its reductions sum in one fixed blocked order (within the recursive bound)", o.accumulation);
  }
}
