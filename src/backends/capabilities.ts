/**
 * The capability table (format × kernel × backend), generated from the format registry and the backends'
 * `supports` answers — never written by hand. docs/gpu.md holds a copy between markers, which a test keeps equal.
 * @module
 */
import { range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { findFormat, formatNames } from '../formats/common/registry.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { gpuBackend } from './webgpu-bridge/gpu-backend.js';
import type { KernelName } from './backend.js';

/** Every kernel, in the order the table lists them. */
export const KERNELS: readonly KernelName[] = ['dot', 'gemv', 'trsv', 'ellSpmv', 'axpy', 'waxpby', 'scal', 'nrm2', 'asum'];

/**
 * The capability table as Markdown: for each registered format whether it is a storage and an arithmetic on
 * each backend, then which kernels each backend runs (with f32 storage and arithmetic).
 * @returns two Markdown tables
 * @example
 * ```ts
 * console.log(capabilityTable());
 * ```
 */
export function capabilityTable(): string {
  const f32 = findFormat('f32')!;
  const f32Range = range(rowMajor<1>({ size: [1], storage: f32.storage! }));
  const f32Ar = f32.arithmetic as ArithmeticFormat;
  const yes = 'yes';
  const lines = ['| format | storage (cpu) | storage (gpu) | arithmetic (cpu) | arithmetic (gpu) |', '| --- | --- | --- | --- | --- |'];
  for (const name of formatNames()) {
    const f = findFormat(name)!;
    const storageGpu = f.storage
      ? gpuBackend.supports({ kernel: 'dot', operands: [['x', range(rowMajor<1>({ size: [1], storage: f.storage }))]], arithmetic: f32Ar }) ? 'no' : yes
      : '—';
    const arGpu = f.arithmetic ? (gpuBackend.supports({ kernel: 'dot', operands: [['x', f32Range]], arithmetic: f.arithmetic as ArithmeticFormat }) ? 'no' : yes) : '—';
    lines.push(`| ${name} | ${f.storage ? yes : '—'} | ${storageGpu} | ${f.arithmetic ? yes : '—'} | ${arGpu} |`);
  }
  lines.push('', '| kernel | cpu | gpu |', '| --- | --- | --- |');
  for (const kernel of KERNELS) {
    lines.push(`| ${kernel} | ${yes} | ${gpuBackend.supports({ kernel, operands: [['x', f32Range]], arithmetic: f32Ar }) ? 'no' : yes} |`);
  }
  return lines.join('\n');
}
