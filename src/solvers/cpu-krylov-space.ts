/**
 * The Krylov space of the CPU: vectors are ranges of the solver's storage, every operation a CPU kernel call in the
 * solver's arithmetic, answered at once.
 * @module
 */
import { Range, range } from '../core/range.js';
import { rowMajor } from '../../accessors/row-major.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { nrm2 } from '../../kernels/nrm2/nrm2.js';
import { dot } from '../../kernels/dot/dot.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { toArray } from '../core/vectors.js';
import type { StorageFormat } from '../formats/common/format.js';
import type { LinearOperator } from './operator.js';
import { ownArithmetic, type ResolvedSolverOptions } from './solver-options.js';
import { asArithmetic, asStorage, f64 } from '../formats/common/registry.js';
import type { Preconditioner } from './jacobi.js';
import type { KrylovSpace } from './krylov-space.js';
import { KrylovBasis } from './krylov-basis.js';
import { readNonFiniteAsNaN } from './non-finite-reads.js';

/** The CPU space of a solve: ranges, kernels, `options.arithmetic`. */
export function cpuSpace(A: LinearOperator, options: ResolvedSolverOptions, M?: Preconditioner): KrylovSpace<Range<1, any>, Range<2, any>> {
  const { n, storage, arithmetic: ar } = options;
  const opts = { arithmetic: ar };
  const make = (): Range<1, any> => range(rowMajor<1, any>({ size: [n], storage, arithmetic: ar }));
  // b and true residuals: fp64 for a storage of doubles narrower than fp64 (f32, bf16, f16), else the storage itself
  const wide = storage.kind === 'number' ? asStorage(f64) : storage;
  const makeWide = (): Range<1, any> => range(rowMajor<1, any>({ size: [n], storage: wide, arithmetic: ar }));
  const copy = (src: Range<1, any>, dst: Range<1, any>): void => waxpby(1, src, 0, src, dst, opts);
  // The storage's own arithmetic holds its every value (fp64 for fp16 and bf16): a copy in it is the words.
  const exactOpts = { arithmetic: ownArithmetic(storage) };
  // True residuals in fp64 where the arithmetic is coarser (fp32, float-float, a user's): see KrylovSpace.wide. Float-
  // float (48 bits) read x rounded to its 48 bits: 'converged' to 1e-13 with a true residual of 0 that was 2·10⁻¹¹.
  const fp64 = asArithmetic(f64);
  const wideAr = ar.unitRoundoff > fp64.unitRoundoff ? fp64 : ar;
  const wideOpts = { arithmetic: wideAr };
  const wideCopy = (src: Range<1, any>, dst: Range<1, any>): void => waxpby(1, src, 0, src, dst, wideOpts);
  // An RNS arithmetic has no NaN or ±∞, while fp16, fp32 and fp64 vectors store an overflow as ±∞: such reads are NaN.
  return readNonFiniteAsNaN({
    n,
    make,
    makeWide,
    load(values, wide = false) {
      const v = wide ? makeWide() : make();
      // A b given as a range is copied in the residual's arithmetic: copied in fp32, b would be another system's.
      if (values instanceof Range) (wide ? wideCopy : copy)(values, v);
      else if (values !== undefined) for (let i = 0; i < n; i++) v.set(i, values[i]!);
      return v;
    },
    copy,
    copyExact: (src, dst) => waxpby(1, src, 0, src, dst, exactOpts),
    dot: (x, y) => dot(x, y, opts),
    norm: (x) => nrm2(x, opts),
    update: (alpha, x, beta, y, out) => waxpby(alpha, x, beta, y, out, opts),
    apply: (alpha, x, beta, y) => A.apply(alpha, x, beta, y, ar),
    precondition: (r, z) => M!.apply(r, z, ar),
    basis: (columns, basisStorage) => new KrylovBasis(n, columns, basisStorage as StorageFormat, ar),
    gemv: (alpha, Mx, x, beta, y, trans) => gemv({ alpha, A: Mx, x, beta, y, trans }, opts),
    small: (length) => range(rowMajor<1>({ size: [length] })),
    read: (v) => toArray(v),
    upload: (values) => range(rowMajor<1>({ size: [values.length], data: Float64Array.from(values) })),
    free: () => {},
    result: (x) => x,
    both: (a, b) => [a, b] as never,
    wide: wideAr === ar ? { copy, norm: (x) => nrm2(x, opts), apply: (alpha, x, beta, y) => A.apply(alpha, x, beta, y, ar) } : {
      copy: wideCopy,
      norm: (x) => nrm2(x, wideOpts),
      apply: (alpha, x, beta, y) => A.apply(alpha, x, beta, y, wideAr),
    },
  }, ar);
}
