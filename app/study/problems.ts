/**
 * Which problems each kernel is studied on: the distributions × sizes of the dense kernels, the LU
 * factors of TRSV, the generated and real matrices of ELL SpMV. A kernel the library does not export yet
 * yields no problems and a note saying so.
 * @module
 */
import type { KernelCase } from './kernel-case.js';
import { dotCase } from './cases/dot-case.js';
import { gemvCase } from './cases/gemv-case.js';
import { waxpbyCase } from './cases/waxpby-case.js';
import { trsvCase, TRSV_PROBLEMS } from './cases/trsv-case.js';
import { ellProblems } from './cases/ell-case.js';
import type { StudyKernel, StudyOptions } from './types.js';

/** One problem of a kernel: a size and a generator of seeded instances. */
export interface ProblemSpec {
  readonly kernel: StudyKernel;
  readonly problem: string;
  readonly size: number;
  /** Whether instances differ by seed (real matrices with random x do; all current problems do). */
  readonly seeded: boolean;
  /** Whether the speed experiment runs on this problem too. */
  readonly speed: boolean;
  /** FLOPs of one call, for time estimates. */
  readonly flops: number;
  /** Values the operands hold (each written into every configuration's storage), for time estimates. */
  readonly values: number;
  /** FLOPs of building one instance (the LU factorisation of TRSV), for time estimates. */
  readonly setupFlops: number;
  /** Problems with the same set-up key share their set-up per seed (TRSV's upper and lower share one LU). */
  readonly setupKey?: string;
  /** Builds the instance of `seed`. */
  make(seed: number): KernelCase;
}

/** The problems of `kernel` under `options`, or a reason why there are none. */
export function kernelProblems(kernel: StudyKernel, options: StudyOptions): { problems: ProblemSpec[]; unavailable?: string } {
  const sizes = options.sizes[kernel];
  const dists = options.distributions;
  const dense = (make: (n: number, d: typeof dists[number], seed: number) => KernelCase, flops: (n: number) => number, values: (n: number) => number): ProblemSpec[] =>
    dists.flatMap((d, di) => sizes.map((n) => ({
      kernel, problem: d, size: n, seeded: true, speed: di === 0, flops: flops(n), values: values(n), setupFlops: 0,
      make: (seed: number) => make(n, d, seed),
    })));
  switch (kernel) {
    case 'dot': return { problems: dense(dotCase, (n) => 2 * n, (n) => 2 * n) };
    case 'waxpby': return { problems: dense(waxpbyCase, (n) => 3 * n, (n) => 3 * n) };
    case 'gemv':
      return { problems: dense(gemvCase, (n) => 2 * n * n, (n) => n * n + 2 * n) };
    case 'trsv': {
      return {
        problems: dists.flatMap((d, di) => sizes.flatMap((n) => TRSV_PROBLEMS.map((p, pi) => ({
          kernel, problem: `${p}-${d}`, size: n, seeded: true, speed: pi === 0 && di === 0, setupKey: `${d}|${n}`,
          // The LU factorisation (2n³/3 FLOPs) is the set-up; the solve itself is n² FLOPs.
          flops: n * n, values: n * n + n, setupFlops: (2 * n * n * n) / 3, make: (seed: number) => trsvCase(n, p, d, seed),
        })))),
      };
    }
    case 'ell-spmv': {
      return { problems: ellProblems(sizes, options) };
    }
  }
}
