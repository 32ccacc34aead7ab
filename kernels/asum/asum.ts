/**
 * ASUM: Σ|xᵢ|.
 * @module
 */
import type { Range } from '../../src/range.js';
import { checkRange, chooseArithmetic, checkReadableIn, type KernelOptions } from '../codegen/kernel-options.js';
import { resolveAccumulation } from '../codegen/accumulation.js';
import { vectorKernel, operandArgs } from '../codegen/vector-kernel.js';
import { loadVectorElement } from '../codegen/reduction-kernel.js';
import { chooseBackend, prepareGpuCall, type GpuBackendOptions } from '../backend/gpu-dispatch.js';

/**
 * The sum of magnitudes Σ|xᵢ| (the real BLAS ASUM), computed in the chosen arithmetic and accumulation.
 * @returns the sum rounded to a double (0 for an empty vector)
 * @throws {@link ModprecError} `INVALID_OPTION` for a non-range
 */
export function asum(x: Range<1, any>, options: KernelOptions & { backend?: 'cpu' | 'gpu'; strict?: boolean } = {}): number {
  checkRange('x', x, 1);
  // No WebGPU program yet: backend 'gpu' is validated as everywhere, then refused with a typed error.
  if (chooseBackend(options) === 'gpu') prepareGpuCall('asum', [['x', x]], options as GpuBackendOptions);
  const n = x.length();
  const ar = chooseArithmetic(options.arithmetic, [x]);
  checkReadableIn(ar, [['x', x]]);
  const acc = resolveAccumulation(options.accumulation);
  if (n === 0) return 0;
  const xv = ar.register('xv');
  const res = ar.register('res');
  const f = vectorKernel({
    kernel: 'asum', operands: [['x', x.accessor]], scalars: [], registers: ['xv', 'res'], ar, acc,
    body: (o) => `${loadVectorElement(o.x!, ar, xv)} ${ar.emitAbs(xv, xv)} ${acc.emitAdd('s', xv, ar)}`,
    epilogue: () => `${acc.emitResult(res, 's', ar)} return ${ar.emitToNumber(res)};`,
  });
  return f(n, ...operandArgs(x)) as number;
}
