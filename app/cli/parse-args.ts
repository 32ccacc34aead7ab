/**
 * Command-line parsing of `modprec study`: flags → validated {@link StudyOptions}. Every mistake is a
 * {@link UsageError} raised here, before any work starts.
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findFormat, formatNames } from '../modprec.js';
import {
  DEFAULT_SEEDS, DEFAULT_SIZES, DEFAULT_TIMING, QUICK_MATRICES, ROOFLINE_INTENSITIES, ROOFLINE_LENGTH, defaultConfigurations,
} from '../study/defaults.js';
import { STUDY_KERNELS, type BackendName, type Configuration, type SkippedPart, type StudyKernel, type StudyOptions } from '../study/types.js';
import { UsageError } from './usage-error.js';
import { GPU_ARITHMETIC_NAMES, GPU_STORAGES, gpuConfigurations, gpuPairRuns } from '../study/gpu-backend.js';

/** What the command line asks for. */
export type ParsedCommand =
  | { readonly command: 'help' }
  | { readonly command: 'version' }
  | {
    readonly command: 'study'; readonly options: StudyOptions; readonly out: string; readonly json: boolean;
    /** Parts left out by the flags' defaults (the GPU under `auto` on a machine without one). */
    readonly skipped: readonly SkippedPart[];
  };

/** Experiments that are not kernels but can be named in `--kernels`. */
const EXPERIMENTS = ['roofline', 'sweep', 'solvers'] as const;
/** What `--kernels` runs when not given. */
const DEFAULT_SELECTION = ['dot', 'gemv', 'trsv', 'ell-spmv', 'roofline', 'sweep', 'solvers'];
/** Arithmetics a GPU can run (WebGPU has no fp64): fp32 and float-float. */
export const GPU_ARITHMETICS: readonly string[] = GPU_ARITHMETIC_NAMES;
/** Flags that take a value. */
const VALUED = ['--kernels', '--formats', '--backend', '--sizes', '--seeds', '--out', '--matrices'] as const;
/** Flags without a value. */
const SWITCHES = ['--quick', '--full', '--json', '--help', '-h', '--version', '-V'] as const;

/** Whether `auto` should include the GPU (a cheap check; the device itself is opened before the study). */
export type GpuProbe = () => boolean;

function list(flag: string, value: string): string[] {
  const items = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (items.length === 0) throw new UsageError(`${flag} needs a comma-separated list, got "${value}"`);
  return items;
}

function positiveIntegers(flag: string, value: string, max: number): number[] {
  return list(flag, value).map((s) => {
    const n = Number(s);
    if (!/^\d+(e\d+)?$/i.test(s) || !Number.isSafeInteger(n) || n < 1 || n > max) {
      throw new UsageError(`${flag}: "${s}" is not an integer between 1 and ${max}`);
    }
    return n;
  });
}

/** Splits argv into flag → value, rejecting unknown flags, missing values and repeats. */
function collect(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if ((VALUED as readonly string[]).includes(name)) {
      const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (value.startsWith('--') && eq < 0)) throw new UsageError(`${name} needs a value (see --help)`);
      if (flags.has(name)) throw new UsageError(`${name} given twice`);
      flags.set(name, value);
    } else if ((SWITCHES as readonly string[]).includes(arg)) {
      flags.set(arg === '-h' ? '--help' : arg, '');
    } else {
      throw new UsageError(`unknown ${arg.startsWith('-') ? 'flag' : 'argument'} "${arg}" (see --help)`);
    }
  }
  return flags;
}

/** Whether `name` can store real data on the CPU (a registered storage format; integer ones are scaled). */
function cpuStorage(name: string): boolean {
  return findFormat(name)?.storage !== undefined;
}
/** Whether `name` is a CPU arithmetic. */
function cpuArithmetic(name: string): boolean {
  return findFormat(name)?.arithmetic !== undefined;
}

/**
 * Parses `--formats` into configurations: each storage/arithmetic pair on each backend that supports it.
 * A name must be known to the CPU registry or be a GPU format; a pair that no selected backend can run
 * is an error naming what is missing.
 */
function parseFormats(value: string, backends: readonly BackendName[]): Configuration[] {
  const known = [...new Set([...formatNames(), ...(backends.includes('gpu') ? [...GPU_STORAGES, ...GPU_ARITHMETIC_NAMES] : [])])];
  const checkName = (name: string): void => {
    if (!known.includes(name)) throw new UsageError(`--formats: unknown format "${name}" (registered: ${known.join(', ')})`);
  };
  const pairs: Array<[string, string]> = [];
  const bare: string[] = [];
  for (const item of list('--formats', value)) {
    const parts = item.split('/');
    if (parts.length === 2 && parts[0] && parts[1]) {
      checkName(parts[0]);
      checkName(parts[1]);
      pairs.push([parts[0], parts[1]]);
    } else if (parts.length === 1) {
      checkName(item);
      bare.push(item);
    } else {
      throw new UsageError(`--formats: "${item}" is neither a format name nor storage/arithmetic`);
    }
  }
  const storageOk = (n: string): boolean => (backends.includes('cpu') && cpuStorage(n)) || (backends.includes('gpu') && GPU_STORAGES.includes(n));
  const arithmeticOk = (n: string): boolean => (backends.includes('cpu') && cpuArithmetic(n)) || (backends.includes('gpu') && GPU_ARITHMETIC_NAMES.includes(n));
  for (const [s, a] of pairs) {
    if (!storageOk(s)) {
      throw new UsageError(`--formats: "${s}" is not a storage format of the selected backend`);
    }
    if (!arithmeticOk(a)) {
      const cpu = formatNames().filter(cpuArithmetic);
      throw new UsageError(backends.includes('gpu') && !backends.includes('cpu')
        ? `--backend gpu: ${a} arithmetic is not available on the GPU (WebGPU has no fp64: ff and dd are built from binary32 and integer words); GPU arithmetics: ${GPU_ARITHMETIC_NAMES.join(', ')}`
        : `--formats: "${a}" has no CPU arithmetic; use it as storage, e.g. ${a}/f32 (arithmetics: ${cpu.join(', ')})`);
    }
  }
  // Scaled integers are read in number or double-double arithmetic (GPU-only arithmetic names pass).
  const integerReadable = (s: string, a: string): boolean => {
    const kind = findFormat(a)?.arithmetic?.kind;
    return !findFormat(s)?.storage?.isInteger || kind === undefined || kind === 'number' || kind === 'dd';
  };
  for (const [s, a] of pairs) {
    if (!integerReadable(s, a)) throw new UsageError(`--formats: scaled integer storage "${s}" is read in fp32, fp64 or double-double arithmetic, not ${a}`);
  }
  for (const s of bare.filter(storageOk)) for (const a of bare.filter(arithmeticOk)) if (integerReadable(s, a)) pairs.push([s, a]);
  if (pairs.length === 0) {
    throw new UsageError(`--formats: ${bare.join(', ')} make no storage/arithmetic pair (add an arithmetic such as f64 or f32)`);
  }
  const seen = new Set<string>();
  const out: Configuration[] = [];
  for (const backend of backends) {
    for (const [storage, arithmetic] of pairs) {
      const runs = backend === 'cpu' ? cpuStorage(storage) && cpuArithmetic(arithmetic) : gpuPairRuns(storage, arithmetic);
      const key = `${storage}/${arithmetic}@${backend}`;
      if (!runs || seen.has(key)) continue;
      seen.add(key);
      out.push({ storage, arithmetic, backend });
    }
  }
  return out;
}

/**
 * The default folder of real matrices: ../shared/matrices next to the package root, else the copy bundled with the
 * tests (test/fixtures/matrices), if either is present.
 */
export function defaultMatrixFolder(packageRoot: string): string | null {
  const candidates = [resolve(packageRoot, '..', 'shared', 'matrices'), resolve(packageRoot, 'test', 'fixtures', 'matrices')];
  return candidates.find((folder) => existsSync(folder)) ?? null;
}

/**
 * Parses the arguments after the program name.
 * @param argv - e.g. `['study', '--quick']`
 * @param context - the package root (for the default matrix folder) and the GPU probe
 * @returns the help request or the validated study request
 * @throws {@link UsageError} for unknown flags, bad values, and impossible combinations
 */
export function parseArgs(argv: readonly string[], context: { packageRoot: string; gpuAvailable: GpuProbe }): ParsedCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version' || command === '-V' || command === 'version') return { command: 'version' };
  if (command !== 'study') throw new UsageError(`unknown command "${command}": the command is "study" (see --help)`);
  const flags = collect(rest);
  if (flags.has('--help')) return { command: 'help' };
  if (flags.has('--version') || flags.has('-V')) return { command: 'version' };
  if (flags.has('--quick') && flags.has('--full')) throw new UsageError('--quick and --full exclude each other');
  const mode = flags.has('--full') ? 'full' : 'quick';

  const selection = list('--kernels', flags.get('--kernels') ?? DEFAULT_SELECTION.join(','));
  for (const k of selection) {
    if (!(STUDY_KERNELS as readonly string[]).includes(k) && !(EXPERIMENTS as readonly string[]).includes(k)) {
      throw new UsageError(`--kernels: unknown kernel "${k}" (choose from ${[...STUDY_KERNELS, ...EXPERIMENTS].join(', ')})`);
    }
  }
  const kernels = STUDY_KERNELS.filter((k) => selection.includes(k));

  const backendFlag = flags.get('--backend') ?? 'auto';
  if (!['cpu', 'gpu', 'auto'].includes(backendFlag)) throw new UsageError(`--backend: "${backendFlag}" is not one of cpu, gpu, auto`);
  const gpu = context.gpuAvailable();
  const backends: BackendName[] = backendFlag === 'cpu' ? ['cpu'] : backendFlag === 'gpu' ? ['gpu'] : gpu ? ['cpu', 'gpu'] : ['cpu'];
  const skipped: SkippedPart[] = [];
  if (backendFlag === 'auto' && !gpu) {
    skipped.push({
      part: 'GPU configurations', reason: 'this machine shows no GPU device (/dev/nvidia0, /dev/dri/renderD128 or /dev/dxg)',
      remedy: 'run on a machine with a GPU, or pass --backend gpu to try a software WebGPU adapter (its timings say nothing about GPUs)',
    });
  }
  const configurations = flags.has('--formats')
    ? parseFormats(flags.get('--formats')!, backends)
    : [...(backends.includes('cpu') ? defaultConfigurations(mode) : []), ...(backends.includes('gpu') ? gpuConfigurations(mode) : [])];

  const sizesFlag = flags.get('--sizes');
  const custom = sizesFlag === undefined ? undefined : positiveIntegers('--sizes', sizesFlag, 1e8);
  const sizes = Object.fromEntries(STUDY_KERNELS.map((k) => [k, custom ?? DEFAULT_SIZES[mode][k]])) as Record<StudyKernel, readonly number[]>;
  if (custom) {
    const tooBig = custom.find((n) => n > 8192);
    if (tooBig && kernels.some((k) => k === 'gemv' || k === 'trsv')) {
      throw new UsageError(`--sizes: ${tooBig} is too large for dense GEMV/TRSV (n² values; at most 8192) — run those kernels with smaller sizes`);
    }
  }

  const seedsFlag = flags.get('--seeds');
  let seeds: number[] = [...DEFAULT_SEEDS[mode]];
  if (seedsFlag !== undefined) {
    seeds = seedsFlag.includes(',') ? positiveIntegers('--seeds', seedsFlag, 2 ** 31) : Array.from({ length: positiveIntegers('--seeds', seedsFlag, 1000)[0]! }, (_, i) => i + 1);
  }

  let matrixFolder = defaultMatrixFolder(context.packageRoot);
  if (flags.has('--matrices')) {
    const dir = resolve(flags.get('--matrices')!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--matrices: "${dir}" is not a folder`);
    matrixFolder = dir;
  }

  const out = resolve(flags.get('--out') ?? join(process.cwd(), 'report'));
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out: "${out}" exists and is not a folder`);
  if (kernels.length === 0 && !selection.includes('roofline') && !selection.includes('sweep') && !selection.includes('solvers')) {
    throw new UsageError('--kernels selects nothing to run');
  }
  const timing = DEFAULT_TIMING[mode];
  const options: StudyOptions = {
    mode, kernels, configurations, backends, sizes, seeds, distributions: ['uniform', 'normal'],
    rooflineIntensities: selection.includes('roofline') ? ROOFLINE_INTENSITIES[mode] : [],
    rooflineLength: ROOFLINE_LENGTH[mode],
    precisionSweep: selection.includes('sweep'),
    solvers: selection.includes('solvers'),
    minSampleSeconds: timing.minSampleSeconds, samples: timing.samples,
    matrixFolder, matrices: mode === 'quick' ? QUICK_MATRICES : [],
  };
  return { command: 'study', options, out, json: flags.has('--json'), skipped };
}
