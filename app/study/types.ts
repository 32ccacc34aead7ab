/**
 * The vocabulary of the study: what is measured (a {@link Measurement}, one per row of the raw results),
 * under which {@link Configuration}, and the metadata of a whole run ({@link StudyResult}).
 * @module
 */

/** Kernels the study knows how to drive. */
export type StudyKernel = 'dot' | 'gemv' | 'trsv' | 'ell-spmv' | 'waxpby';

/** All kernels, in the order the report shows them. */
export const STUDY_KERNELS: readonly StudyKernel[] = ['dot', 'gemv', 'trsv', 'ell-spmv', 'waxpby'];

/** Input value distributions of the accuracy experiments (seed 004, appendix). */
export type Distribution = 'uniform' | 'normal';

/** Where a kernel runs. */
export type BackendName = 'cpu' | 'gpu';

/** One storage × arithmetic × backend combination. */
export interface Configuration {
  /** Storage format name (as registered: `f64`, `f32`, `f16`, `bf16`, `dd`, …). */
  readonly storage: string;
  /** Arithmetic format name. */
  readonly arithmetic: string;
  /** Backend. */
  readonly backend: BackendName;
}

/** Which experiment a measurement belongs to (`bandwidth`: the GPU's copy, the memory ceiling of its roofline). */
export type ExperimentName = 'accuracy' | 'speed' | 'roofline' | 'precision' | 'solver' | 'convergence' | 'bandwidth';

/**
 * One measurement: one row of results.json / results.csv. Fields that do not apply are `null`
 * (e.g. `relativeError` of a speed row), never absent, so every row has the same columns.
 */
export interface Measurement {
  /** Experiment. */
  readonly experiment: ExperimentName;
  /** Kernel (`roofline` for the roofline benchmark, `mpfr-gemv` style names for the precision sweep). */
  readonly kernel: string;
  /** Storage format name. */
  readonly storage: string;
  /** Arithmetic format name. */
  readonly arithmetic: string;
  /** Backend name. */
  readonly backend: BackendName | string;
  /** Adapter or CPU model the measurement ran on. */
  readonly adapter: string;
  /** `plain` (hand-written loop over a typed array) or `accessor` (through the accessor); roofline only. */
  readonly variant: 'plain' | 'accessor';
  /** Problem: a distribution, a matrix name, or a generated matrix (`laplacian-2d`, …). */
  readonly problem: string;
  /** Problem size: vector length, matrix order, or rows of a sparse matrix. */
  readonly size: number;
  /** Stored nonzeros of a sparse matrix (null for dense problems). */
  readonly nnz: number | null;
  /** Seed of the random data (null when the problem is not random). */
  readonly seed: number | null;
  /** Norm-wise relative error against the exact result of the original (fp64) data. */
  readonly relativeError: number | null;
  /**
   * Norm-wise relative error against the exact result of the values as stored (what the kernel read):
   * the part of the error the arithmetic adds, without the storage rounding of the inputs.
   */
  readonly arithmeticError: number | null;
  /** A-priori forward error bound relative to the reference's norm, where the kernel provides one. */
  readonly bound: number | null;
  /** Median wall time of one call, seconds. */
  readonly seconds: number | null;
  /** Calls timed per sample × samples. */
  readonly repetitions: number | null;
  /** Bytes moved from and to memory per call (storage bytes of every element read or written once). */
  readonly bytes: number | null;
  /** Bytes one stored element takes (scales of integer storage not counted); null when unknown. */
  readonly bytesPerElement: number | null;
  /** Floating-point operations per call (conversions not counted, as in seed 004). */
  readonly flops: number | null;
  /** bytes / seconds / 1e9. */
  readonly gbps: number | null;
  /** flops / seconds / 1e9. */
  readonly gflops: number | null;
  /** Time of the fp64/fp64 configuration of the same kernel, problem and size divided by this time. */
  readonly speedup: number | null;
  /** Arithmetic intensity in FLOPs per value (roofline only). */
  readonly intensity: number | null;
  /** Precision in bits of the arithmetic (precision sweep; significand bits otherwise). */
  readonly precisionBits: number | null;
  /** −log2 of the relative error measured exactly against rationals (precision sweep: errors beyond the double range). */
  readonly accuracyBits: number | null;
  /** −log2 of the a-priori relative bound (precision sweep): the measured accuracyBits must be at least this. */
  readonly boundBits: number | null;
  /** Solver experiment: iterations a solve took (`solver` rows), or the iteration a residual belongs to (`convergence` rows). */
  readonly iterations: number | null;
}

/** A fully resolved study request (the CLI's flags after validation). */
export interface StudyOptions {
  /** `quick` (small sizes, few samples) or `full`. */
  readonly mode: 'quick' | 'full';
  /** Kernels to run. */
  readonly kernels: readonly StudyKernel[];
  /** Configurations to run (baseline fp64/fp64 on the CPU always included for speed-ups). */
  readonly configurations: readonly Configuration[];
  /** Backends. */
  readonly backends: readonly BackendName[];
  /** Size sweep per kernel (the `--sizes` flag sets all of them). */
  readonly sizes: Readonly<Record<StudyKernel, readonly number[]>>;
  /** Seeds of the accuracy runs. */
  readonly seeds: readonly number[];
  /** Distributions of the accuracy runs. */
  readonly distributions: readonly Distribution[];
  /** Arithmetic intensities (FLOPs per value) of the roofline sweep; empty: no roofline. */
  readonly rooflineIntensities: readonly number[];
  /** Longest roofline array; high intensities use shorter arrays (compute-bound there anyway). */
  readonly rooflineLength: number;
  /** Whether to run the multiple-precision sweep. */
  readonly precisionSweep: boolean;
  /** Whether to run the solver experiment (CG and GMRES against vector/basis storage); absent: no. */
  readonly solvers?: boolean;
  /** Minimum seconds a timing sample lasts (calls are repeated until it does). */
  readonly minSampleSeconds: number;
  /** Timing samples per speed measurement (the median is reported). */
  readonly samples: number;
  /** Folder of the real Matrix Market matrices (null: generated matrices only). */
  readonly matrixFolder: string | null;
  /** Real matrices to use (file names without .mtx); empty: all found. */
  readonly matrices: readonly string[];
}

/** Metadata of a run, repeated in every CSV row. */
export interface RunInfo {
  /** Start time, ISO 8601. */
  readonly started: string;
  /** CPU model, core count, OS. */
  readonly machine: string;
  /** Node and package versions. */
  readonly versions: Readonly<Record<string, string>>;
  /** The command line. */
  readonly command: string;
  /** How the reference results were computed. */
  readonly reference: string;
}

/** A part of the study that did not run, and why — shown in the terminal before the study starts and in the report. */
export interface SkippedPart {
  /** What was left out, e.g. `GPU configurations`, `MPFR (precision sweep)`, `SuiteSparse matrices (ELL SpMV)`. */
  readonly part: string;
  /** Why, in plain words. */
  readonly reason: string;
  /** What to do to include it ('' when nothing can be done). */
  readonly remedy: string;
}

/** What a study produces. */
export interface StudyResult {
  /** Schema version of results.json. */
  readonly schema: 'modprec-study/1';
  /** Run metadata. */
  readonly run: RunInfo;
  /** The options the study ran with. */
  readonly options: StudyOptions;
  /** `complete`, or `interrupted` when Ctrl-C stopped it (the measurements so far are kept). */
  readonly status: 'complete' | 'interrupted';
  /** Parts of the study that did not run, and why (no GPU, no MPFR, no SuiteSparse matrices, …). */
  readonly skipped: readonly SkippedPart[];
  /** Other notes: the configurations run, the GPU adapter, steps or GPU rows that failed and why. */
  readonly notes: readonly string[];
  /** Every measurement. */
  readonly measurements: readonly Measurement[];
}

/** A configuration's short label, `storage/arithmetic` (Ginkgo writes Accessor⟨arithmetic, storage⟩). */
export function configurationLabel(c: { storage: string; arithmetic: string; backend?: string }): string {
  const base = `${c.storage}/${c.arithmetic}`;
  return c.backend && c.backend !== 'cpu' ? `${base}@${c.backend}` : base;
}
