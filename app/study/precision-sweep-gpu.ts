/**
 * The precision sweep's GPU RNS rows: the same WAXPBY and GEMV problems as precision-sweep.ts (full-precision
 * inputs, the exact reference from the stored inputs), run with `backend: 'gpu'` and each registered RNS format as
 * the arithmetic — the public API's route to the RNS device kernels — next to MPFR, double-double and CPU RNS.
 * A call uploads its operands, runs, and writes back through the ranges, so a row's time includes those
 * transfers and the host's exact encoding (the resident `rnsGpu*` functions of `modprec/gpu`, which
 * bench/gpu/rns-gpu.ts times, skip them).
 * @module
 */
import { gemv, waxpby, type Rational } from '../modprec.js';
import type { MeasureContext } from './experiments.js';
import { accuracyBits, boundBits, exactElement } from './exact-accuracy.js';
import { vectorOf, resolveConfiguration } from './operands.js';
import { measurement } from './measurement.js';
import { timeCallAsync } from './timing.js';
import { randomValues, studyRandom } from './random-data.js';
import { fullPrecisionMatrix, fullPrecisionVector, gemvReference, multiplePrecisionFormats, SWEEP_SIZES, waxpbyReference } from './precision-sweep.js';
import type { StudyStep } from './plan.js';
import type { GpuStudy } from './gpu-backend.js';
import type { Measurement, StudyOptions } from './types.js';

/** The registered RNS formats (`rns<p>`) of the sweep. */
function rnsFormats(): string[] {
  return multiplePrecisionFormats().filter((n) => /^rns\d+$/.test(n));
}

/**
 * The GPU RNS steps: one per RNS format, only when a GPU was opened (otherwise none, and a note says why). A
 * software adapter in a quick study runs the two lowest precisions only (it emulates the GPU on the CPU, and the
 * quick study must stay short).
 * @param notes - receives a line when no adapter runs them, or when formats are left out
 * @param gpu - the opened GPU, or undefined
 * @param sizes - GEMV order and WAXPBY length (default: the sweep's for the mode)
 * @param names - the RNS formats to run (default: every registered one)
 */
export function gpuRnsSweepSteps(options: StudyOptions, ctx: MeasureContext, notes: string[], gpu: GpuStudy | undefined,
  sizes = SWEEP_SIZES[options.mode], names = rnsFormats()): StudyStep[] {
  if (!gpu) {
    notes.push('Precision sweep: no GPU opened (no GPU configuration selected, or no adapter), so no GPU RNS rows.');
    return [];
  }
  if (gpu.software && options.mode === 'quick' && names.length > 2) {
    notes.push(`Precision sweep: a software adapter runs GPU RNS at ${names.slice(0, 2).join(', ')} only in a quick study.`);
    names = names.slice(0, 2);
  }
  const { gemv: n, waxpby: m } = sizes;
  const samples = Math.max(1, Math.min(options.samples, 3));
  const a = randomValues(n * n, 'uniform', studyRandom(1, 0));
  const x = randomValues(n, 'uniform', studyRandom(1, 1));
  const wx = randomValues(m, 'uniform', studyRandom(1, 1));
  const wy = randomValues(m, 'uniform', studyRandom(1, 2));
  return names.map((name) => ({
    label: `precision sweep ${name} on the GPU`,
    estimate: 0.5,
    run: async () => {
      const config = resolveConfiguration({ storage: name, arithmetic: name, backend: 'cpu' });
      const p = config.arithmeticFormat.significandBits;
      const gpuOptions = { backend: 'gpu' as const, arithmetic: config.arithmeticFormat, strict: true };
      const rows: Measurement[] = [];
      const row = async (kernel: 'gemv' | 'waxpby', size: number, flops: number, run: () => Promise<unknown>, out: Parameters<typeof exactElement>[0],
        exact: Rational[], terms: number, log2Ratio: number): Promise<Measurement> => {
        const t = await timeCallAsync(run, async () => {}, { samples, minSampleSeconds: options.minSampleSeconds, maxSeconds: 10 });
        await run();
        const bits = accuracyBits(Array.from({ length: exact.length }, (_, k) => exactElement(out, k)), exact);
        return measurement({
          experiment: 'precision', kernel, storage: name, arithmetic: name, backend: 'gpu', adapter: gpu.adapter,
          problem: 'uniform', size, seed: 1, seconds: t.seconds, repetitions: t.repetitions, flops,
          gflops: flops / t.seconds / 1e9, precisionBits: p,
          relativeError: Number.isFinite(bits) ? 2 ** -bits : 0, accuracyBits: bits, boundBits: boundBits(p, terms, log2Ratio),
        });
      };
      const xw = fullPrecisionVector(config, wx), yw = fullPrecisionVector(config, wy), ww = vectorOf(config, new Float64Array(m));
      const w = waxpbyReference(xw, yw, wx, wy);
      rows.push(await row('waxpby', m, 3 * m, () => waxpby(0.75, xw, -1.3125, yw, ww, gpuOptions), ww, w.exact, 2, w.log2Ratio));
      const A = fullPrecisionMatrix(config, n, a), xg = fullPrecisionVector(config, x), yg = vectorOf(config, new Float64Array(n));
      const g = gemvReference(A, xg, a, x);
      rows.push(await row('gemv', n, 2 * n * n, () => gemv({ alpha: 1, A, x: xg, beta: 0, y: yg, trans: 'N' }, gpuOptions), yg, g.exact, n, g.log2Ratio));
      return rows;
    },
  }));
}
