/**
 * The multiple-precision sweep (seed 000 Table 5, seed 001 Fig. 3): GEMV and WAXPBY at increasing
 * precision — MPFR (gmp-wasm) at 106…1696 bits, and every registered multiple-precision format of the
 * library (double-double `dd`, RNS formats) as it lands. Reported as time and MFLOP/s at precision p.
 * @module
 */
import { colMajor, findFormat, formatNames, gemv, numberToRational, range, type Range, type Rational, rowMajor, waxpby } from '../modprec.js';
import type { MeasureContext } from './experiments.js';
import { accuracyBits, boundBits, exactElement, exactMatrixElement } from './exact-accuracy.js';
import { vectorOf, type ResolvedConfiguration } from './operands.js';
import { addRational, mulRational, ZERO } from './dyadic.js';
import { mpfrGemv, mpfrWaxpby, type MpfrLibrary, type MpfrRun } from './mpfr-engine.js';
import { measurement } from './measurement.js';
import { median, timeCall } from './timing.js';
import { resolveConfiguration } from './operands.js';
import { randomValues, studyRandom } from './random-data.js';
import type { StudyStep } from './plan.js';
import type { Measurement, SkippedPart, StudyOptions } from './types.js';

/** v/3 in the configuration's arithmetic (rounded to its precision), for a full-precision input. */
function third(config: ResolvedConfiguration, v: number): unknown {
  const ar = config.arithmeticFormat;
  return ar.div(ar.fromNumber(v), ar.fromNumber(3));
}

/** A packed vector of vᵢ/3, each rounded to the configuration's precision. */
export function fullPrecisionVector(config: ResolvedConfiguration, values: Float64Array): Range<1, any> {
  const r = range(rowMajor<1, any>({ size: [values.length], storage: config.storageFormat, arithmetic: config.arithmeticFormat }));
  for (let k = 0; k < values.length; k++) r.set(k, third(config, values[k]!));
  return r;
}

/** A packed column-major n×n matrix of aᵢⱼ/3, each rounded to the configuration's precision. */
export function fullPrecisionMatrix(config: ResolvedConfiguration, n: number, values: Float64Array): Range<2, any> {
  const r = range(colMajor<2, any>({ size: [n, n], storage: config.storageFormat, arithmetic: config.arithmeticFormat }));
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) r.set(i, j, third(config, values[i + j * n]!));
  return r;
}

/** The exact stored values of a vector. */
export function exactValues(r: Range<1, any>): Rational[] {
  return Array.from({ length: r.length() }, (_, k) => exactElement(r, k));
}

/**
 * log2 of ‖|A||x|‖₂ / ‖Ax‖₂ from per-output Σ|terms| and values (fp64; the ratio only scales the bound),
 * rounded up by a relative 2^-40 so the bound stays an upper bound.
 */
export function log2Condition(count: number, abs: (i: number) => number, value: (i: number) => number): number {
  let a = 0;
  let v = 0;
  for (let i = 0; i < count; i++) { a += abs(i) ** 2; v += value(i) ** 2; }
  return (Math.log2(a) - Math.log2(v)) / 2 + 2 ** -40;
}

/** Precisions of the MPFR runs, in bits (seed 000 Table 5). */
export const SWEEP_BITS: readonly number[] = [106, 212, 424, 848, 1696];

/** Problem sizes of the sweep: GEMV order and WAXPBY length. */
export const SWEEP_SIZES: Readonly<Record<'quick' | 'full', { gemv: number; waxpby: number }>> = {
  quick: { gemv: 64, waxpby: 4096 },
  full: { gemv: 300, waxpby: 100_000 },
};

/**
 * The sweep's WAXPBY case, w = 0.75·x − 1.3125·y: its exact values from the stored inputs and log2 of its condition.
 * @param xw - x as stored
 * @param yw - y as stored
 * @param wx - x's double values (for the condition)
 * @param wy - y's double values
 * @returns the exact results and log2 of Σ|terms| / |result|
 */
export function waxpbyReference(xw: Range<1, any>, yw: Range<1, any>, wx: Float64Array, wy: Float64Array): { exact: Rational[]; log2Ratio: number } {
  const xq = exactValues(xw), yq = exactValues(yw);
  const exact = xq.map((xi, i) => addRational(mulRational(numberToRational(0.75), xi), mulRational(numberToRational(-1.3125), yq[i]!)));
  return { exact, log2Ratio: log2Condition(xq.length, (i) => Math.abs(0.75 * wx[i]!) + Math.abs(1.3125 * wy[i]!), (i) => 0.75 * wx[i]! - 1.3125 * wy[i]!) };
}

/**
 * The sweep's GEMV case, y = A·x (n × n, column-major): its exact values from the stored inputs and log2 of its condition.
 * @param A - the matrix as stored
 * @param xg - x as stored
 * @param a - A's double values (for the condition)
 * @param x - x's double values
 * @returns the exact results and log2 of the worst row's Σ|terms| / |result|
 */
export function gemvReference(A: Range<2, any>, xg: Range<1, any>, a: Float64Array, x: Float64Array): { exact: Rational[]; log2Ratio: number } {
  const n = xg.length();
  const Aq = Array.from({ length: n * n }, (_, k) => exactMatrixElement(A, k % n, Math.floor(k / n)));
  const xgq = exactValues(xg);
  const exact = Array.from({ length: n }, (_, i) => {
    let s: Rational = ZERO;
    for (let j = 0; j < n; j++) s = addRational(s, mulRational(Aq[i + j * n]!, xgq[j]!));
    return s;
  });
  const absRow = (i: number): number => { let s = 0; for (let j = 0; j < n; j++) s += Math.abs(a[i + j * n]! * x[j]!); return s; };
  const rowValue = (i: number): number => { let s = 0; for (let j = 0; j < n; j++) s += a[i + j * n]! * x[j]!; return s; };
  return { exact, log2Ratio: log2Condition(n, absRow, rowValue) };
}

/** Registered formats beyond fp64 usable as both storage and arithmetic (double-double, RNS, …). */
export function multiplePrecisionFormats(): string[] {
  return formatNames().filter((n) => {
    const f = findFormat(n);
    return f?.storage && f.arithmetic && f.arithmetic.significandBits > 53;
  });
}

/** Seconds of untimed MPFR runs before each timing. */
const MPFR_WARM_UP = 0.2;

function mpfrRow(kernel: 'gemv' | 'waxpby', bits: number, size: number, flops: number, seconds: number[], ctx: MeasureContext): Measurement {
  const t = median(seconds);
  return measurement({
    experiment: 'precision', kernel, storage: `mpfr${bits}`, arithmetic: `mpfr${bits}`, backend: 'cpu', adapter: ctx.adapter,
    problem: 'uniform', size, seed: 1, seconds: t, repetitions: seconds.length, flops, gflops: flops / t / 1e9, precisionBits: bits,
  });
}

/**
 * Times `make()` runs: a fresh context per sample, so temporaries never pile up. Untimed runs first, for
 * at least {@link MPFR_WARM_UP} seconds: WebAssembly and the JS wrapper start in slower tiers and take
 * thousands of calls to be optimised (without this, the first precision looks several times slower).
 */
function timeMpfr(make: () => MpfrRun, samples: number): number[] {
  const warmUntil = performance.now() + MPFR_WARM_UP * 1000;
  do {
    const warm = make();
    warm.run();
    warm.dispose();
  } while (performance.now() < warmUntil);
  const seconds: number[] = [];
  for (let s = 0; s < samples; s++) {
    const r = make();
    const t0 = performance.now();
    r.run();
    seconds.push((performance.now() - t0) / 1000);
    if (!Number.isFinite(r.first())) throw new Error('MPFR run produced a non-finite value');
    r.dispose();
  }
  return seconds;
}

/**
 * The sweep's steps: MPFR's only when gmp-wasm loaded (otherwise a skipped part says so, and no MPFR step
 * is planned), then the library's formats.
 * @param notes - receives a line when no multiple-precision format is registered
 * @param skipped - receives MPFR when `mpfr` is undefined
 * @param mpfr - the loaded gmp-wasm, or undefined when it is not installed
 */
export function precisionSweepSteps(options: StudyOptions, ctx: MeasureContext, notes: string[], skipped: SkippedPart[], mpfr: MpfrLibrary | undefined): StudyStep[] {
  const { gemv: n, waxpby: m } = SWEEP_SIZES[options.mode];
  const samples = Math.max(1, Math.min(options.samples, 3));
  const steps: StudyStep[] = [];
  const a = randomValues(n * n, 'uniform', studyRandom(1, 0));
  const x = randomValues(n, 'uniform', studyRandom(1, 1));
  const wx = randomValues(m, 'uniform', studyRandom(1, 1));
  const wy = randomValues(m, 'uniform', studyRandom(1, 2));
  if (!mpfr) {
    skipped.push({
      part: 'MPFR in the multiple-precision sweep', reason: 'the optional package gmp-wasm (GNU MPFR compiled to WebAssembly) is not installed',
      remedy: 'npm install gmp-wasm, then run the study again; the sweep still shows the library\'s own formats',
    });
  }
  for (const bits of mpfr ? SWEEP_BITS : []) {
    const lib = mpfr!;
    steps.push({
      label: `precision sweep MPFR ${bits} bits`,
      estimate: samples * (n * n + 3 * m) * 4e-6 + 0.05,
      run: () => {
        return [
          mpfrRow('gemv', bits, n, 2 * n * n, timeMpfr(() => mpfrGemv(lib, bits, n, a, x), samples), ctx),
          mpfrRow('waxpby', bits, m, 3 * m, timeMpfr(() => mpfrWaxpby(lib, bits, 0.75, wx, -1.3125, wy), samples), ctx),
        ];
      },
    });
  }
  const formats = ['f64', ...multiplePrecisionFormats()];
  if (formats.length === 1) notes.push('Precision sweep: no multiple-precision format (double-double, RNS) is registered yet; fp64 and MPFR only.');
  for (const name of formats) {
    steps.push({
      label: `precision sweep ${name}`,
      estimate: 0.3,
      run: () => {
        const config = resolveConfiguration({ storage: name, arithmetic: name, backend: 'cpu' });
        const p = config.arithmeticFormat.significandBits;
        const rows: Measurement[] = [];
        const row = (kernel: 'gemv' | 'waxpby', size: number, flops: number, run: () => void, out: Range<1, any>,
          exact: Rational[], terms: number, log2Ratio: number): Measurement => {
          const t = timeCall(run, { samples, minSampleSeconds: options.minSampleSeconds });
          run();
          const computed = Array.from({ length: exact.length }, (_, k) => exactElement(out, k));
          const bits = accuracyBits(computed, exact);
          return measurement({
            experiment: 'precision', kernel, storage: name, arithmetic: name, backend: 'cpu', adapter: ctx.adapter,
            problem: 'uniform', size, seed: 1, seconds: t.seconds, repetitions: t.repetitions, flops,
            gflops: flops / t.seconds / 1e9, precisionBits: p,
            relativeError: Number.isFinite(bits) ? 2 ** -bits : 0, accuracyBits: bits, boundBits: boundBits(p, terms, log2Ratio),
          });
        };
        // Inputs carry the format's full precision (u/3 rounded to p bits: a double input would make most
        // multiple-precision results exact); the exact reference is formed from the stored inputs.
        const xw = fullPrecisionVector(config, wx);
        const yw = fullPrecisionVector(config, wy);
        const ww = vectorOf(config, new Float64Array(m));
        const options_ = { arithmetic: config.arithmeticFormat };
        const w = waxpbyReference(xw, yw, wx, wy);
        rows.push(row('waxpby', m, 3 * m, () => waxpby(0.75, xw, -1.3125, yw, ww, options_), ww, w.exact, 2, w.log2Ratio));
        {
          const A = fullPrecisionMatrix(config, n, a);
          const xg = fullPrecisionVector(config, x);
          const yg = vectorOf(config, new Float64Array(n));
          const g = gemvReference(A, xg, a, x);
          rows.push(row('gemv', n, 2 * n * n, () => gemv({ alpha: 1, A, x: xg, beta: 0, y: yg, trans: 'N' }, options_), yg, g.exact, n, g.log2Ratio));
        }
        return rows;
      },
    });
  }
  return steps;
}
