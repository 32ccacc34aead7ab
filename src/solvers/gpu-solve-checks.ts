/**
 * What a solve with `backend: 'gpu'` needs, checked synchronously before any work, with the kernels' own refusals:
 * an arithmetic the GPU runs (f32, ff, dd, or RNS), vector and basis storages the GPU writes (for RNS: RNS formats of
 * at least the arithmetic's precision), a matrix whose storage it reads, and a matrix rather than a function (a
 * function operator runs on the host).
 * @module
 */
import { fail } from '../core/errors.js';
import { storageGpuFacts } from '../formats/common/gpu-facts.js';
import { range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { gpuBackend, isRnsArithmetic } from '../backends/webgpu-bridge/gpu-backend.js';
import type { Range } from '../core/range.js';
import type { StorageFormat } from '../formats/common/format.js';
import type { LinearOperator } from './operator.js';
import type { ResolvedSolverOptions } from './solver-options.js';

/**
 * Options of a solve on the GPU: `backend: 'gpu'` keeps the solver's vectors (and GMRES's basis) resident on the
 * device between iterations — only the scalars the algorithm needs (dot products, norms, GMRES's Gram–Schmidt
 * coefficients) come back — and returns a promise. The arithmetic must be one the GPU runs (`formats.f32`,
 * `formats.ff`, `formats.dd`, or an RNS format; the default, the storage's own, is f64 for fp64 vectors, which the
 * GPU refuses with a typed error naming `options.arithmetic`), the vector storage one the GPU writes (f64, f32, f16,
 * bf16, dd; with an RNS arithmetic an RNS format of at least its precision).
 * @group Solvers
 */
export interface GpuSolverOptions {
  /** `'gpu'`: run on WebGPU (where no adapter exists, the resident arrays stay on the host and the CPU kernels run, with a notice). */
  backend: 'gpu';
  /** Throw `BACKEND_UNAVAILABLE` instead of running on the host where no adapter exists. */
  strict?: boolean;
}

/**
 * Checks a GPU solve; returns `strict`.
 * @throws {@link ModprecError} `INVALID_OPTION` (arithmetic without a GPU part, a function operator, `strict`),
 *   `INVALID_FORMAT` (a storage the GPU cannot hold or write)
 */
export function checkGpuSolve(A: LinearOperator, o: ResolvedSolverOptions, options: { strict?: unknown }, extra: readonly (readonly [string, unknown])[]): boolean {
  if (options.strict !== undefined && typeof options.strict !== 'boolean') fail('INVALID_OPTION', 'options.strict', 'must be a boolean', options.strict);
  if (A.kind === 'function') fail('INVALID_OPTION', 'A', "must be a matrix (a dense range or an ELL matrix) for backend 'gpu': a function operator runs on the host (use backend 'cpu')");
  const probe = (storage: StorageFormat): Range<1, any> => range(rowMajor<1, any>({ size: [0], storage, arithmetic: o.arithmetic }));
  const operands: [string, Range<any, any>][] = [['options.storage', probe(o.storage)]];
  for (const [name, s] of extra) operands.push([name, probe(s as StorageFormat)]);
  operands.push(A.kind === 'dense' ? ['A', A.dense!] : ['A.values', A.ell!.values]);
  if (isRnsArithmetic(o.arithmetic)) {
    // Resident RNS vectors hold p bits in the arithmetic's moduli set: exactly what an RNS storage of ≥ p bits holds
    // on the CPU, but not what a narrower storage (f64, a smaller RNS set) would round each write to.
    const p = o.arithmetic.significandBits;
    for (const [name, r] of operands.slice(0, operands.length - 1)) {
      const st = r.accessor.storage;
      if (st.kind !== 'mp' || !/^rns\d+$/.test(st.name) || st.significandBits < p) {
        fail('INVALID_FORMAT', name, `is ${st.name}: with ${o.arithmetic.name} the GPU keeps the solver's vectors in RNS on the device, so their storage must be an RNS format of at least ${p} bits (e.g. formats.${o.arithmetic.name}); use backend 'cpu' to store them in ${st.name}`);
      }
    }
  }
  const refusal = gpuBackend.supports({ kernel: 'waxpby', operands, arithmetic: o.arithmetic });
  if (refusal) fail(refusal.code, refusal.parameter, refusal.reason);
  if (!isRnsArithmetic(o.arithmetic)) for (const [name, r] of operands.slice(0, operands.length - 1)) {
    const part = storageGpuFacts(r.accessor.storage);
    if (part && !part.writable) fail('INVALID_FORMAT', name, `is ${part.name}, whose GPU part is read-only: the GPU cannot write the solver's vectors in it`);
  }
  return options.strict === true;
}
