/**
 * The embedded study presets. `quick` is what `npm start` runs: small enough to finish, build included,
 * in under three minutes on a 2-core machine; `full` sweeps the sizes of the papers' figures as far as a
 * single CPU thread allows in reasonable time.
 * @module
 */
import { findFormat } from '../modprec.js';
import { arithmeticNames, studyStorageNames } from './library.js';
import type { Configuration, StudyKernel } from './types.js';

/** Size sweeps per kernel and mode. */
export const DEFAULT_SIZES: Readonly<Record<'quick' | 'full', Readonly<Record<StudyKernel, readonly number[]>>>> = {
  quick: {
    dot: [1e2, 1e3, 1e4, 1e5, 1e6],
    gemv: [32, 64, 128, 256, 512],
    trsv: [32, 64, 128, 256, 512],
    'ell-spmv': [1e3, 3e4],
    waxpby: [1e3, 1e4, 1e5],
  },
  full: {
    dot: [1e2, 1e3, 1e4, 1e5, 1e6, 4e6, 16e6],
    gemv: [64, 128, 256, 512, 1024, 2048, 4096],
    trsv: [64, 128, 256, 512, 1024, 2048],
    'ell-spmv': [1e3, 1e4, 1e5, 1e6],
    waxpby: [1e3, 1e4, 1e5, 1e6, 1e7],
  },
};

/** Seeds of the accuracy runs (the papers average over 10). */
export const DEFAULT_SEEDS: Readonly<Record<'quick' | 'full', readonly number[]>> = {
  quick: [1, 2, 3],
  full: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
};

/** Kernels a plain `modprec study` runs (WAXPBY belongs to the multiple-precision sweep). */
export const DEFAULT_KERNELS: readonly StudyKernel[] = ['dot', 'gemv', 'trsv', 'ell-spmv'];

/** Real matrices of the quick study (small ones, regular and irregular rows); full uses every file found. */
export const QUICK_MATRICES: readonly string[] = ['bcsstk01', 'arc130', 'west0479', 'gr_30_30', 'orsirr_1', '1138_bus'];

/** Arithmetic intensities (FLOPs per value) of the roofline sweep. */
export const ROOFLINE_INTENSITIES: Readonly<Record<'quick' | 'full', readonly number[]>> = {
  quick: [2, 8, 32, 128, 512],
  full: [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
};

/** Longest roofline arrays (the memory-bound end of the sweep; as large as the time budget allows). */
export const ROOFLINE_LENGTH: Readonly<Record<'quick' | 'full', number>> = { quick: 1 << 20, full: 1 << 24 };

/** FLOPs one roofline call may take: high intensities use shorter arrays so every point costs about the same. */
const ROOFLINE_FLOP_BUDGET: Readonly<Record<'quick' | 'full', number>> = { quick: 2 ** 25, full: 2 ** 29 };

/**
 * The array length of a roofline point: `longest` elements, fewer at high intensity so one call stays
 * within the mode's FLOP budget (there the loop is compute-bound and the array length does not matter),
 * never fewer than 2^14.
 */
export function rooflineLength(longest: number, intensity: number, mode: 'quick' | 'full'): number {
  return Math.max(Math.min(longest, 1 << 14), Math.min(longest, Math.floor(ROOFLINE_FLOP_BUDGET[mode] / intensity)));
}

/** Timing samples and minimum sample length per mode. */
export const DEFAULT_TIMING: Readonly<Record<'quick' | 'full', { samples: number; minSampleSeconds: number }>> = {
  quick: { samples: 5, minSampleSeconds: 0.01 },
  full: { samples: 9, minSampleSeconds: 0.05 },
};

/** Whether a registered format joins the standard sweep (kinds number and double-double; RNS goes to the precision sweep). */
function inStandardSweep(name: string): boolean {
  const f = findFormat(name);
  // Arithmetic-only formats (formats.ff, the GPU's float-float emulated on the CPU) are swept on the GPU backend.
  if (!f?.storage) return false;
  const kind = f?.storage?.kind ?? f?.arithmetic?.kind;
  return kind === 'number' || kind === 'dd';
}

/**
 * The CPU configurations of a mode. `full`: each registered storage format (integer ones scaled) with each
 * registered CPU arithmetic (double-double and others join when registered). `quick`: the pairs whose
 * arithmetic is at least as precise as the storage — the accessor's use case; a wider storage read
 * into a narrower arithmetic only shows the arithmetic's own error again. fp64/fp64 comes first: it is
 * the baseline of every speed-up.
 */
export function defaultConfigurations(mode: 'quick' | 'full' = 'full'): Configuration[] {
  const storages = studyStorageNames().filter(inStandardSweep);
  const arithmetics = arithmeticNames().filter(inStandardSweep);
  const bits = (n: string): number => findFormat(n)?.storage?.significandBits ?? findFormat(n)?.arithmetic?.significandBits ?? 0;
  const out: Configuration[] = [];
  for (const s of storages) {
    for (const a of arithmetics) {
      const arithmeticBits = findFormat(a)?.arithmetic?.significandBits ?? 0;
      if (mode === 'quick' && arithmeticBits < bits(s)) continue;
      out.push({ storage: s, arithmetic: a, backend: 'cpu' });
    }
  }
  out.sort((p, q) => rank(p) - rank(q));
  return out;
}

/** Baseline first, then by decreasing storage precision, then by decreasing arithmetic precision. */
function rank(c: Configuration): number {
  const bits = (n: string): number => findFormat(n)?.storage?.significandBits ?? findFormat(n)?.arithmetic?.significandBits ?? 0;
  if (c.storage === 'f64' && c.arithmetic === 'f64') return -1e9;
  return -bits(c.storage) * 1000 - bits(c.arithmetic);
}

/** The fp64/fp64 CPU configuration every speed-up refers to. */
export const BASELINE: Configuration = { storage: 'f64', arithmetic: 'f64', backend: 'cpu' };
