/**
 * What to plot, computed from the measurements in Node: each {@link PlotSpec} is a self-contained chart
 * (x values, one y series per configuration, axes, caption), so the page script only hands it to uPlot.
 * @module
 */
import { distinct, seriesBy, seriesLabel, type Point } from './aggregate.js';
import type { Measurement } from '../study/types.js';

/** One line (or set of points) of a chart. */
export interface SeriesSpec {
  readonly label: string;
  /** y per x of the chart (null: no value there). */
  readonly values: readonly (number | null)[];
  /** Draw markers only (categorical x) rather than lines. */
  readonly pointsOnly?: boolean;
  /** Dashed line (e.g. an upper bound). */
  readonly dashed?: boolean;
}

/** A chart. */
export interface PlotSpec {
  readonly id: string;
  readonly section: 'accuracy' | 'speed' | 'speedup' | 'roofline' | 'precision';
  readonly title: string;
  readonly caption: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xLog: boolean;
  readonly yLog: boolean;
  readonly xs: readonly number[];
  /** Names of categorical x positions 1…k (real matrices), when the x axis is not numeric. */
  readonly categories?: readonly string[];
  readonly series: readonly SeriesSpec[];
}

/** Aligns series of points on the union of their x values. */
function align(series: Map<string, Point[]>, positive: boolean): { xs: number[]; series: SeriesSpec[] } {
  const xs = [...new Set([...series.values()].flatMap((ps) => ps.map((p) => p.x)))].sort((a, b) => a - b);
  const keep = (y: number | null): number | null => (y === null || !Number.isFinite(y) || (positive && y <= 0) ? null : y);
  return {
    xs,
    series: [...series.entries()].map(([label, ps]) => {
      const at = new Map(ps.map((p) => [p.x, p.y]));
      return { label, values: xs.map((x) => keep(at.get(x) ?? null)) };
    }),
  };
}

function nonEmpty(p: PlotSpec): boolean {
  return p.xs.length > 0 && p.series.some((s) => s.values.some((v) => v !== null));
}

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const KERNEL_TITLES: Readonly<Record<string, string>> = { dot: 'DOT', gemv: 'GEMV', trsv: 'TRSV', 'ell-spmv': 'ELL SpMV', waxpby: 'WAXPBY' };
const title = (k: string): string => KERNEL_TITLES[k] ?? k;
const SIZE_LABEL: Readonly<Record<string, string>> = { dot: 'vector length n', waxpby: 'vector length n', gemv: 'matrix order n', trsv: 'matrix order n', 'ell-spmv': 'rows' };

/** Whether a problem is a real matrix (not a distribution or generated matrix). */
function isRealMatrix(kernel: string, problem: string): boolean {
  return kernel === 'ell-spmv' && !['laplacian-2d', 'laplacian-3d', 'banded'].includes(problem);
}

/** A categorical chart over real matrices: one x position per matrix. */
function categorical(rows: readonly Measurement[], field: (m: Measurement) => number | null, positive: boolean): { xs: number[]; categories: string[]; series: SeriesSpec[] } {
  const names = distinct(rows, (m) => m.problem);
  const at = new Map(names.map((n, i) => [n, i + 1]));
  const { xs, series } = align(seriesBy(rows, (m) => at.get(m.problem)!, field), positive);
  return { xs, categories: names, series: series.map((s) => ({ ...s, pointsOnly: true })) };
}

/** Error vs size per kernel and problem (one chart each), plus the real matrices of ELL SpMV. */
function accuracyPlots(rows: readonly Measurement[]): PlotSpec[] {
  const acc = rows.filter((m) => m.experiment === 'accuracy');
  const out: PlotSpec[] = [];
  for (const kernel of distinct(acc, (m) => m.kernel)) {
    const k = acc.filter((m) => m.kernel === kernel);
    for (const problem of distinct(k, (m) => m.problem).filter((p) => !isRealMatrix(kernel, p))) {
      const { xs, series } = align(seriesBy(k.filter((m) => m.problem === problem), (m) => m.size, (m) => m.relativeError), true);
      out.push({
        id: `accuracy-${slug(kernel)}-${slug(problem)}`, section: 'accuracy', title: `${title(kernel)} — ${problem}: relative error vs size`,
        caption: 'Mean over seeds of ‖ŷ − y‖₂/‖y‖₂ against the double-double result of the fp64 inputs; one line per storage/arithmetic.',
        xLabel: SIZE_LABEL[kernel] ?? 'size', yLabel: 'relative error', xLog: true, yLog: true, xs, series,
      });
    }
    const real = k.filter((m) => isRealMatrix(kernel, m.problem));
    if (real.length > 0) {
      const c = categorical(real, (m) => m.relativeError, true);
      out.push({
        id: `accuracy-${slug(kernel)}-matrices`, section: 'accuracy', title: `${title(kernel)} — SuiteSparse matrices: relative error`,
        caption: 'Mean over seeds (random x) per matrix; one marker per storage/arithmetic.', xLabel: 'matrix', yLabel: 'relative error',
        xLog: false, yLog: true, ...c,
      });
    }
  }
  return out;
}

/**
 * Speed vs size and speed-up over fp64 per dense kernel (first problem); for ELL SpMV one marker per
 * matrix (generated ones at their largest size, then the real ones), as seed 004 Figure 13.
 */
function speedPlots(rows: readonly Measurement[]): PlotSpec[] {
  const spd = rows.filter((m) => m.experiment === 'speed');
  const out: PlotSpec[] = [];
  for (const kernel of distinct(spd, (m) => m.kernel)) {
    const k = spd.filter((m) => m.kernel === kernel);
    if (kernel === 'ell-spmv') {
      const g = categorical(k, (m) => m.gflops, true);
      out.push({
        id: `speed-${slug(kernel)}`, section: 'speed', title: `${title(kernel)}: GFLOP/s per matrix`,
        caption: 'Median over timing samples; generated matrices at the largest size, then the SuiteSparse matrices.',
        xLabel: 'matrix', yLabel: 'GFLOP/s', xLog: false, yLog: true, ...g,
      });
      const c = categorical(k, (m) => m.speedup, true);
      out.push({
        id: `speedup-${slug(kernel)}`, section: 'speedup', title: `${title(kernel)}: speed-up over fp64/fp64 per matrix`,
        caption: 'As seed 004 Figure 13: speed-up rather than FLOP/s, since sparse kernels differ little in FLOP/s.',
        xLabel: 'matrix', yLabel: 'speed-up', xLog: false, yLog: false, ...c,
      });
      continue;
    }
    const problem = distinct(k, (m) => m.problem)[0]!;
    const p = k.filter((m) => m.problem === problem);
    const g = align(seriesBy(p, (m) => m.size, (m) => m.gflops), true);
    out.push({
      id: `speed-${slug(kernel)}`, section: 'speed', title: `${title(kernel)} — ${problem}: GFLOP/s vs size`,
      caption: 'Median over timing samples; conversions between storage and arithmetic are not counted as FLOPs.',
      xLabel: SIZE_LABEL[kernel] ?? 'size', yLabel: 'GFLOP/s', xLog: true, yLog: true, ...g,
    });
    const s = align(seriesBy(p, (m) => m.size, (m) => m.speedup), true);
    out.push({
      id: `speedup-${slug(kernel)}`, section: 'speedup', title: `${title(kernel)} — ${problem}: speed-up over fp64/fp64`,
      caption: 'Time of the fp64/fp64 run divided by the time of each configuration (above 1: faster than fp64).',
      xLabel: SIZE_LABEL[kernel] ?? 'size', yLabel: 'speed-up', xLog: true, yLog: false, ...s,
    });
  }
  return out;
}

/** The experimental roofline: GFLOP/s vs intensity, log-log. */
function rooflinePlots(rows: readonly Measurement[]): PlotSpec[] {
  const r = rows.filter((m) => m.experiment === 'roofline');
  if (r.length === 0) return [];
  const g = align(seriesBy(r, (m) => m.intensity, (m) => m.gflops), true);
  return [{
    id: 'roofline', section: 'roofline', title: 'Experimental roofline: GFLOP/s vs arithmetic intensity',
    caption: 'Each value read once, k multiply-adds in registers, written once (2k FLOPs/value). "plain" loops over typed arrays; "accessor" loops are generated through the accessor.',
    xLabel: 'arithmetic intensity (FLOPs/value)', yLabel: 'GFLOP/s', xLog: true, yLog: true, ...g,
  }];
}

/** The multiple-precision sweep: MFLOP/s vs precision, one line per engine and kernel. */
function precisionPlots(rows: readonly Measurement[]): PlotSpec[] {
  const p = rows.filter((m) => m.experiment === 'precision');
  if (p.length === 0) return [];
  // One line per number system and kernel: MPFR, and each family of library formats (rns106…rns1696 → rns).
  const engine = (m: Measurement): string => `${m.storage.startsWith('mpfr') ? 'MPFR' : m.storage.replace(/\d{3,}$/, '')} ${title(m.kernel)}`;
  const groups = new Map<string, Point[]>();
  for (const m of p) {
    if (m.gflops === null || m.precisionBits === null) continue;
    const key = engine(m);
    groups.set(key, [...(groups.get(key) ?? []), { x: m.precisionBits, y: m.gflops * 1000 }]);
  }
  for (const [k, v] of groups) groups.set(k, v.sort((a, b) => a.x - b.x));
  const a = align(groups, true);
  const out: PlotSpec[] = [];
  // Accuracy in bits (exact, beyond the double range) beside the a-priori bound, per format family and kernel.
  const measured = p.filter((m) => m.accuracyBits !== null && m.boundBits !== null);
  if (measured.length > 0) {
    const finite = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null);
    const bits = new Map<string, Point[]>();
    const add = (key: string, x: number, y: number | null): void => { bits.set(key, [...(bits.get(key) ?? []), { x, y }]); };
    // Bits lost = precision − correct bits: small numbers that show the measured–bound gap at every p.
    const lost = (v: number | null, p: number): number | null => (finite(v) === null ? null : p - v!);
    for (const m of measured) {
      add(`${engine(m)} measured`, m.precisionBits!, lost(m.accuracyBits, m.precisionBits!));
      add(`${engine(m)} bound`, m.precisionBits!, lost(m.boundBits, m.precisionBits!));
    }
    for (const [k, v] of bits) bits.set(k, v.sort((x, y) => x.x - y.x));
    const b = align(bits, false);
    out.push({
      id: 'precision-accuracy', section: 'precision', title: 'Multiple-precision sweep: bits lost vs precision',
      caption: 'p − (−log2 relative error): the error measured exactly against rationals (inputs u/3 rounded to the format), beside the a-priori bound γ_k(2^(1−p))·cond + 2^(1−p) (dashed). The measured line must stay at or below its bound.',
      xLabel: 'precision (bits)', yLabel: 'bits lost', xLog: true, yLog: false, xs: b.xs,
      series: b.series.map((s) => ({ ...s, dashed: s.label.endsWith('bound') })),
    });
  }
  return [...out, {
    id: 'precision-sweep', section: 'precision', title: 'Multiple-precision sweep: MFLOP/s vs precision',
    caption: 'MFLOP/s at precision p (operations counted as in seed 001). MPFR via gmp-wasm; the library\'s formats as registered (fp64, double-double, RNS at each precision).',
    xLabel: 'precision (bits)', yLabel: 'MFLOP/s', xLog: true, yLog: true, ...a,
  }];
}

/** Every chart of the report, in page order; charts without any value are left out. */
export function plotSpecs(rows: readonly Measurement[]): PlotSpec[] {
  return [...accuracyPlots(rows), ...speedPlots(rows), ...rooflinePlots(rows), ...precisionPlots(rows)].filter(nonEmpty);
}

export { seriesLabel };
