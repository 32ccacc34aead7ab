/**
 * What to plot, computed from the measurements in Node: each {@link FigureSpec} is one figure of the
 * page — a title, a plain-language caption and one or more charts (facets a reader picks from a list) —
 * and each {@link ChartSpec} is self-contained (x values, series with their colour and dash pattern,
 * axes), so the page script only hands it to uPlot. No chart has more than {@link MAX_SERIES} series,
 * and within a chart every series has its own colour and its own dash pattern.
 * @module
 */
import { distinct, paretoFront, seriesBy, seriesLabel, summaryPoint, type Point } from './aggregate.js';
import { STUDY_KERNELS, type Measurement } from '../study/types.js';

/** Most series one chart shows; more configurations are split over facets. */
export const MAX_SERIES = 8;

/**
 * Series colours (Okabe–Ito's colour-blind-safe set, yellow replaced by brown) and dash patterns, taken
 * in order: series i of a chart gets colour i and dash i, so no two series of a chart share either.
 */
export const PALETTE: readonly string[] = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#8C564B'];
/** Dash patterns ([] = solid), as canvas line dashes and SVG stroke-dasharray. */
export const DASHES: readonly (readonly number[])[] = [[], [10, 4], [2, 3], [12, 3, 3, 3], [5, 5], [1, 6], [16, 4, 2, 4, 2, 4], [7, 2]];

/** One series of a chart. */
export interface SeriesSpec {
  readonly label: string;
  /** y per x of the chart (null: no value there). */
  readonly values: readonly (number | null)[];
  /** Smallest and largest value over seeds at each x (drawn as a whisker), when the series is a median. */
  readonly low?: readonly (number | null)[];
  readonly high?: readonly (number | null)[];
  readonly color: string;
  readonly dash: readonly number[];
  /** Whether points are joined by a line (false: markers only). */
  readonly line: boolean;
  /** Marker diameter in pixels (0: none). */
  readonly marker: number;
}

/** A text drawn beside a point (configuration names on the error-against-speed chart). */
export interface PointLabel {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  readonly emphasis: boolean;
}

/** A chart. */
export interface ChartSpec {
  readonly id: string;
  /** Name of this facet in the figure's list ('' when the figure has one chart). */
  readonly facet: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xLog: boolean;
  readonly yLog: boolean;
  readonly xs: readonly number[];
  /** Names of categorical x positions 1…k, when the x axis is not numeric. */
  readonly categories?: readonly string[];
  readonly series: readonly SeriesSpec[];
  readonly labels?: readonly PointLabel[];
}

/** A figure: title, caption, and its charts (facets). */
export interface FigureSpec {
  readonly id: string;
  /** A kernel name, `roofline` or `precision`. */
  readonly section: string;
  readonly title: string;
  readonly caption: string;
  readonly charts: readonly ChartSpec[];
}

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
/** Display names of the kernels. */
export const KERNEL_TITLES: Readonly<Record<string, string>> = { dot: 'DOT', gemv: 'GEMV', trsv: 'TRSV', 'ell-spmv': 'ELL SpMV', waxpby: 'WAXPBY' };
const title = (k: string): string => KERNEL_TITLES[k] ?? k;
const SIZE_LABEL: Readonly<Record<string, string>> = { dot: 'vector length n', waxpby: 'vector length n', gemv: 'matrix order n', trsv: 'matrix order n', 'ell-spmv': 'rows' };
/** What a problem name means, in words. */
function problemWords(kernel: string, problem: string): string {
  const dist = (d: string): string => (d === 'uniform' ? 'uniform random values in [−1, 1]' : d === 'normal' ? 'normal random values' : d);
  if (kernel === 'trsv') {
    const [which, d] = problem.split('-');
    return `${which === 'upper' ? 'the upper factor U' : 'the unit lower factor L'} of the LU factorisation of a matrix of ${dist(d ?? '')}`;
  }
  if (kernel === 'ell-spmv') {
    return ({ 'laplacian-2d': 'the 2-D Laplacian', 'laplacian-3d': 'the 3-D Laplacian', banded: 'a random banded matrix' } as Record<string, string>)[problem] ?? `the matrix ${problem}`;
  }
  return dist(problem);
}

/** Styles series in order: series i gets colour i and dash i. */
function styled(series: readonly Omit<SeriesSpec, 'color' | 'dash'>[]): SeriesSpec[] {
  if (series.length > MAX_SERIES) throw new Error(`a chart with ${series.length} series (at most ${MAX_SERIES})`);
  return series.map((s, i) => ({ ...s, color: PALETTE[i]!, dash: DASHES[i]! }));
}

/** Aligns series of points on the union of their x values (log axes: non-positive values dropped). */
function align(points: Map<string, Point[]>, positive: boolean): { xs: number[]; series: Omit<SeriesSpec, 'color' | 'dash'>[] } {
  const xs = [...new Set([...points.values()].flatMap((ps) => ps.map((p) => p.x)))].sort((a, b) => a - b);
  const keep = (y: number | null | undefined): number | null => (y === null || y === undefined || !Number.isFinite(y) || (positive && y <= 0) ? null : y);
  return {
    xs,
    series: [...points.entries()].map(([label, ps]) => {
      const at = new Map(ps.map((p) => [p.x, p]));
      return {
        label, line: true, marker: 5,
        values: xs.map((x) => keep(at.get(x)?.y)),
        low: xs.map((x) => keep(at.get(x)?.low)),
        high: xs.map((x) => keep(at.get(x)?.high)),
      };
    }),
  };
}

/** Splits `items` into chunks of at most `size`, as evenly as possible. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const count = Math.max(1, Math.ceil(items.length / size));
  const per = Math.ceil(items.length / count);
  return Array.from({ length: count }, (_, i) => items.slice(i * per, (i + 1) * per)).filter((c) => c.length > 0);
}

/** The arithmetic (and backend) a configuration computes in: the facet key of the per-size charts. */
function arithmeticFacet(m: Measurement): string {
  return m.backend === 'cpu' ? `${m.arithmetic} arithmetic` : `${m.arithmetic} arithmetic on the ${m.backend.toUpperCase()}`;
}

/**
 * Charts of `rows` by arithmetic facet, at most {@link MAX_SERIES} configurations each.
 * @param build - makes the chart of one facet's rows
 */
function facetByArithmetic(rows: readonly Measurement[], idBase: string, build: (rows: Measurement[], id: string, facet: string) => ChartSpec | null): ChartSpec[] {
  const out: ChartSpec[] = [];
  for (const facet of distinct(rows, arithmeticFacet)) {
    const inFacet = rows.filter((m) => arithmeticFacet(m) === facet);
    const groups = chunks(distinct(inFacet, seriesLabel), MAX_SERIES);
    groups.forEach((labels, i) => {
      const name = groups.length > 1 ? `${facet} (${i + 1} of ${groups.length})` : facet;
      const chart = build(inFacet.filter((m) => labels.includes(seriesLabel(m))), `${idBase}-${slug(name)}`, name);
      if (chart) out.push(chart);
    });
  }
  return out;
}

const hasValues = (c: ChartSpec): boolean => c.xs.length > 0 && c.series.some((s) => s.values.some((v) => v !== null));

/** The error-against-speed chart of a kernel at its summary point, with the Pareto front marked. */
function paretoFigure(rows: readonly Measurement[], kernel: string): FigureSpec | null {
  const at = summaryPoint(rows, kernel);
  if (!at) return null;
  const here = rows.filter((m) => m.kernel === kernel && m.problem === at.problem && m.size === at.size);
  const errors = seriesBy(here.filter((m) => m.experiment === 'accuracy'), () => 0, (m) => m.relativeError);
  const points = here.filter((m) => m.experiment === 'speed' && m.gflops !== null && m.gflops > 0).flatMap((m) => {
    const e = errors.get(seriesLabel(m))?.[0];
    return e?.y !== null && e?.y !== undefined && e.y > 0 ? [{ label: seriesLabel(m), x: m.gflops!, y: e.y, low: e.low ?? null, high: e.high ?? null }] : [];
  });
  if (points.length === 0) return null;
  const front = paretoFront(points);
  const xs = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  const column = (onFront: boolean, f: (p: typeof points[number]) => number | null): (number | null)[] =>
    xs.map((x) => { const p = points.find((q) => q.x === x && front.has(q.label) === onFront); return p ? f(p) : null; });
  const chart: ChartSpec = {
    id: `${slug(kernel)}-pareto`, facet: '', xLabel: 'speed (GFLOP/s, higher is better)', yLabel: 'relative error (lower is better)',
    xLog: true, yLog: true, xs,
    series: styled([
      { label: 'Pareto front (best trade-offs)', line: true, marker: 9, values: column(true, (p) => p.y), low: column(true, (p) => p.low), high: column(true, (p) => p.high) },
      { label: 'other configurations', line: false, marker: 6, values: column(false, (p) => p.y), low: column(false, (p) => p.low), high: column(false, (p) => p.high) },
    ]),
    labels: points.map((p) => ({ x: p.x, y: p.y, text: p.label, emphasis: front.has(p.label) })),
  };
  const seeds = new Set(here.filter((m) => m.experiment === 'accuracy').map((m) => m.seed)).size;
  return {
    id: `${slug(kernel)}-pareto`, section: kernel, title: `${title(kernel)}: error against speed — which format to choose`,
    caption: `${title(kernel)} on ${problemWords(kernel, at.problem)}, ${SIZE_LABEL[kernel] ?? 'size'} = ${at.size}. Each point is one storage/arithmetic ` +
      `configuration: further right is faster, lower is more accurate (median error over ${seeds} random inputs; the whisker spans the smallest to the largest). ` +
      'The configurations joined by the line form the Pareto front: for each of them no other configuration is both faster and more accurate. ' +
      'Choose along the front the fastest configuration whose error you can accept; a configuration off the front is beaten on both counts by one on it. Labels that would overlap are left out; the summary table lists every configuration.',
    charts: [chart],
  };
}

/** Measured error (median, min–max over seeds) beside the a-priori bound, one position per configuration. */
function boundFigure(rows: readonly Measurement[], kernel: string): FigureSpec | null {
  const at = summaryPoint(rows, kernel);
  if (!at) return null;
  const acc = rows.filter((m) => m.kernel === kernel && m.experiment === 'accuracy' && m.problem === at.problem);
  const size = Math.max(...acc.map((m) => m.size));
  const here = acc.filter((m) => m.size === size);
  if (here.length === 0) return null;
  const labels = distinct(here, seriesLabel);
  const byLabel = (field: (m: Measurement) => number | null) => seriesBy(here, (m) => labels.indexOf(seriesLabel(m)) + 1, field, () => 'all').get('all') ?? [];
  const measured = byLabel((m) => m.relativeError);
  const bounds = seriesBy(here, (m) => labels.indexOf(seriesLabel(m)) + 1, (m) => m.bound, () => 'all').get('all') ?? [];
  const xs = labels.map((_, i) => i + 1);
  const at_ = (ps: readonly Point[], f: (p: Point) => number | null | undefined) => xs.map((x) => { const v = ps.find((p) => p.x === x); const y = v ? f(v) : null; return y !== null && y !== undefined && Number.isFinite(y) && y > 0 ? y : null; });
  const withBound = bounds.some((p) => p.high !== null && p.high !== undefined && Number.isFinite(p.high));
  const series = [
    { label: 'measured error (median; whisker: min–max over seeds)', line: false, marker: 8, values: at_(measured, (p) => p.y), low: at_(measured, (p) => p.low), high: at_(measured, (p) => p.high) },
    ...(withBound ? [{ label: 'a-priori bound (never exceeded)', line: false, marker: 8, values: at_(bounds, (p) => p.high) }] : []),
  ];
  return {
    id: `${slug(kernel)}-bound`, section: kernel, title: `${title(kernel)}: measured error and its a-priori bound, per configuration`,
    caption: `${title(kernel)} on ${problemWords(kernel, at.problem)}, ${SIZE_LABEL[kernel] ?? 'size'} = ${size}. ` +
      (withBound
        ? 'For each configuration, the error measured against an exact reference and the worst case the library guarantees before running (its a-priori bound, the largest over the seeds). A measured point above its bound would be a bug; a large gap means the bound is pessimistic for such data. An error of exactly 0 has no point on the logarithmic axis (the table lists it).'
        : 'For each configuration, the error measured against an exact reference. This kernel has no a-priori bound independent of the data here (a triangular solve\'s error depends on the condition number of the matrix).'),
    charts: [{ id: `${slug(kernel)}-bound`, facet: '', xLabel: 'configuration (storage/arithmetic)', yLabel: 'relative error', xLog: false, yLog: true, xs, categories: labels, series: styled(series) }],
  };
}

/** Error against size, one facet per arithmetic. */
function errorBySizeFigure(rows: readonly Measurement[], kernel: string): FigureSpec | null {
  const at = summaryPoint(rows, kernel);
  if (!at) return null;
  const acc = rows.filter((m) => m.kernel === kernel && m.experiment === 'accuracy' && m.problem === at.problem);
  if (distinct(acc, (m) => m.size).length < 2) return null;
  const charts = facetByArithmetic(acc, `${slug(kernel)}-error`, (r, id, facet) => {
    const a = align(seriesBy(r, (m) => m.size, (m) => m.relativeError), true);
    const c: ChartSpec = { id, facet, xLabel: SIZE_LABEL[kernel] ?? 'size', yLabel: 'relative error', xLog: true, yLog: true, xs: a.xs, series: styled(a.series) };
    return hasValues(c) ? c : null;
  });
  if (charts.length === 0) return null;
  return {
    id: `${slug(kernel)}-error`, section: kernel, title: `${title(kernel)}: how the error grows with the size`,
    caption: `${title(kernel)} on ${problemWords(kernel, at.problem)}. One chart per arithmetic (pick it in the list), one line per storage format: ` +
      'the median error over the random inputs, the whisker from the smallest to the largest. Storage rounding sets a floor about the storage\'s precision; ' +
      'what the arithmetic adds grows with the size. A narrow storage read into a wide arithmetic keeps the narrow storage\'s floor but not the narrow arithmetic\'s growth.',
    charts,
  };
}

/** Speed-up over fp64/fp64 against size (dense kernels) or per matrix (ELL SpMV), one facet per arithmetic. */
function speedFigure(rows: readonly Measurement[], kernel: string): FigureSpec | null {
  const spd = rows.filter((m) => m.kernel === kernel && m.experiment === 'speed');
  if (spd.length === 0) return null;
  const sparse = kernel === 'ell-spmv';
  const problems = distinct(spd, (m) => m.problem);
  const p0 = problems[0]!;
  const scope = sparse ? spd : spd.filter((m) => m.problem === p0);
  const charts = facetByArithmetic(scope, `${slug(kernel)}-speedup`, (r, id, facet) => {
    if (sparse) {
      const a = align(seriesBy(r, (m) => problems.indexOf(m.problem) + 1, (m) => m.speedup), true);
      const c: ChartSpec = { id, facet, xLabel: 'matrix', yLabel: 'speed-up over fp64/fp64', xLog: false, yLog: false, xs: a.xs, categories: problems,
        series: styled(a.series.map((s) => ({ ...s, line: false, marker: 8 }))) };
      return hasValues(c) ? c : null;
    }
    const a = align(seriesBy(r, (m) => m.size, (m) => m.speedup), true);
    const c: ChartSpec = { id, facet, xLabel: SIZE_LABEL[kernel] ?? 'size', yLabel: 'speed-up over fp64/fp64', xLog: true, yLog: false, xs: a.xs, series: styled(a.series) };
    return hasValues(c) ? c : null;
  });
  if (charts.length === 0) return null;
  return {
    id: `${slug(kernel)}-speedup`, section: kernel, title: `${title(kernel)}: speed-up over fp64 storage and arithmetic`,
    caption: (sparse ? `${title(kernel)} per matrix (generated ones at their largest size, then the real ones). ` : `${title(kernel)} on ${problemWords(kernel, p0)}. `) +
      'How many times faster than fp64/fp64 on the same problem (median of the timing samples): above 1 the configuration is faster. ' +
      'One chart per arithmetic, one line per storage. These kernels are limited by memory traffic, so narrower storage should pay off once the data outgrows the caches.',
    charts,
  };
}

/** The experimental roofline: GFLOP/s against arithmetic intensity. */
function rooflineFigure(rows: readonly Measurement[]): FigureSpec | null {
  const r = rows.filter((m) => m.experiment === 'roofline');
  if (r.length === 0) return null;
  const a = align(seriesBy(r, (m) => m.intensity, (m) => m.gflops), true);
  return {
    id: 'roofline', section: 'roofline', title: 'Experimental roofline: what the accessor costs',
    caption: 'Each value is read once, updated k times in registers and written once (2k FLOPs per value). "plain" loops read typed arrays directly; ' +
      '"accessor" loops read and write through the storage format\'s codec as every modprec kernel does. The gap between "plain f64" and "accessor f64/f64" is the accessor\'s own cost (ideally none); ' +
      'fp32 storage with fp64 arithmetic should run like fp32 while memory limits the loop (left) and like fp64 once arithmetic does (right).',
    charts: [{ id: 'roofline', facet: '', xLabel: 'arithmetic intensity (FLOPs per value)', yLabel: 'GFLOP/s', xLog: true, yLog: true, xs: a.xs, series: styled(a.series.map(({ low: _l, high: _h, ...s }) => s)) }],
  };
}

/**
 * The GPU roofline: each GPU kernel in each storage format at its largest measured size, GFLOP/s against FLOPs per
 * byte of storage it moves, under the device's streaming read rate measured in the same run (a line of slope one: a
 * point on it is memory-bound). One chart per arithmetic, one series per kernel.
 */
function gpuRooflineFigure(rows: readonly Measurement[]): FigureSpec | null {
  const copy = rows.filter((m) => m.experiment === 'bandwidth' && m.backend === 'gpu' && m.gbps !== null && m.gbps > 0);
  const speed = rows.filter((m) => m.experiment === 'speed' && m.backend === 'gpu' && m.gflops !== null && m.gflops > 0 && m.bytes !== null && m.bytes > 0 && m.flops !== null);
  if (copy.length === 0 || speed.length === 0) return null;
  const ceiling = Math.max(...copy.map((m) => m.gbps!));
  const charts: ChartSpec[] = [];
  for (const arithmetic of distinct(speed, (m) => m.arithmetic)) {
    const here = speed.filter((m) => m.arithmetic === arithmetic);
    // Per kernel and storage, the largest size (the least fixed cost per call); equal intensities in one kernel
    // (f16 and bf16 move the same bytes) share a point: the faster one, labelled with both names.
    const points = new Map<string, Map<number, { y: number; names: string[] }>>();
    for (const kernel of distinct(here, (m) => m.kernel)) {
      const ofKernel = here.filter((m) => m.kernel === kernel);
      const at = new Map<number, { y: number; names: string[] }>();
      for (const storage of distinct(ofKernel, (m) => m.storage)) {
        const ofStorage = ofKernel.filter((m) => m.storage === storage);
        const largest = Math.max(...ofStorage.map((m) => m.size));
        const m = ofStorage.filter((r) => r.size === largest).reduce((a, b) => (b.gflops! > a.gflops! ? b : a));
        const x = m.flops! / m.bytes!;
        const p = at.get(x);
        at.set(x, p ? { y: Math.max(p.y, m.gflops!), names: [...p.names, storage] } : { y: m.gflops!, names: [storage] });
      }
      points.set(title(kernel), at);
    }
    const kernels = [...points.keys()].slice(0, MAX_SERIES - 1);
    const xs = [...new Set(kernels.flatMap((k) => [...points.get(k)!.keys()]))].sort((a, b) => a - b);
    const series = styled([
      { label: `streaming read ${ceiling.toFixed(0)} GB/s × intensity`, line: true, marker: 0, values: xs.map((x) => ceiling * x) },
      ...kernels.map((k) => ({ label: k, line: false, marker: 7, values: xs.map((x) => points.get(k)!.get(x)?.y ?? null) })),
    ]);
    const labels = kernels.flatMap((k) => [...points.get(k)!].map(([x, p]) => ({ x, y: p.y, text: `${k} ${p.names.join('/')}`, emphasis: false })));
    charts.push({ id: `gpu-roofline-${slug(arithmetic)}`, facet: `${arithmetic} arithmetic on the GPU`, xLabel: 'arithmetic intensity (FLOPs per byte of storage moved)',
      yLabel: 'GFLOP/s', xLog: true, yLog: true, xs, series, labels });
  }
  return {
    id: 'gpu-roofline', section: 'roofline', title: 'GPU roofline: what bounds each kernel on the GPU',
    caption: `Each point is one GPU kernel with one storage format, at the largest size measured: FLOPs per byte of storage it must move (x) and GFLOP/s reached (y). ` +
      `The line is the device's streaming read rate — ${ceiling.toFixed(0)} GB/s, the f32 DOT of two long resident vectors measured in this run — times the intensity: a point on the line runs at memory speed ` +
      '(kernels that also write, or read in a less regular order, sit somewhat below it even when memory-bound); ' +
      'a point below it is held back by something else — the arithmetic (the integer-emulated double-double, the float-float error-free transformations), ' +
      'latency (TRSV solves block after block; any kernel at a size where the host\'s cost of a call or the read-back of its result dominates), or a kernel that reads less efficiently than a copy. Narrow storage moves right (fewer bytes per FLOP). One chart per arithmetic.',
    charts,
  };
}

/** The multiple-precision sweep: bits lost against the bound, and MFLOP/s, per kernel. */
function precisionFigures(rows: readonly Measurement[]): FigureSpec[] {
  const p = rows.filter((m) => m.experiment === 'precision');
  if (p.length === 0) return [];
  // One line per number system and backend: MPFR, and each family of library formats (rns106…rns1696 → rns; on the GPU: rns (GPU)).
  const engine = (m: Measurement): string => (m.storage.startsWith('mpfr') ? 'MPFR' : m.storage.replace(/\d{3,}$/, '') + (m.backend === 'gpu' ? ' (GPU)' : ''));
  const kernels = distinct(p, (m) => m.kernel);
  const out: FigureSpec[] = [];
  const measured = p.filter((m) => m.accuracyBits !== null && m.boundBits !== null);
  const bitCharts = kernels.flatMap((k) => {
    const rowsK = measured.filter((m) => m.kernel === k);
    if (rowsK.length === 0) return [];
    const lost = (v: number | null, bits: number): number | null => (v !== null && Number.isFinite(v) ? bits - v : null);
    const points = new Map<string, Point[]>();
    const add = (key: string, x: number, y: number | null): void => { points.set(key, [...(points.get(key) ?? []), { x, y }]); };
    for (const m of rowsK) {
      add(`${engine(m)} measured`, m.precisionBits!, lost(m.accuracyBits, m.precisionBits!));
      add(`${engine(m)} bound`, m.precisionBits!, lost(m.boundBits, m.precisionBits!));
    }
    for (const [key, v] of points) points.set(key, v.sort((a, b) => a.x - b.x));
    return chunks([...points.keys()], MAX_SERIES).map((keys, i, all) => {
      const a = align(new Map(keys.map((key) => [key, points.get(key)!])), false);
      const name = all.length > 1 ? `${title(k)} (${i + 1} of ${all.length})` : title(k);
      return { id: `precision-bits-${slug(name)}`, facet: name, xLabel: 'precision p (bits)', yLabel: 'bits lost', xLog: true, yLog: false, xs: a.xs,
        series: styled(a.series.map(({ low: _l, high: _h, ...s }) => s)) } satisfies ChartSpec;
    });
  });
  if (bitCharts.length > 0) {
    out.push({
      id: 'precision-bits', section: 'precision', title: 'Multiple precision: bits lost, measured and guaranteed',
      caption: 'How many of the p bits of the format the result loses: measured exactly against rational arithmetic (inputs u/3 rounded to the format), ' +
        'beside the a-priori bound γ_k(2^(1−p))·cond + 2^(1−p). Each "measured" line must stay at or below its "bound" line. One chart per kernel.',
      charts: bitCharts,
    });
  }
  const speedCharts = kernels.flatMap((k) => {
    const pts = new Map<string, Point[]>();
    for (const m of p.filter((r) => r.kernel === k && r.gflops !== null && r.precisionBits !== null)) {
      pts.set(engine(m), [...(pts.get(engine(m)) ?? []), { x: m.precisionBits!, y: m.gflops! * 1000 }]);
    }
    if (pts.size === 0) return [];
    for (const [key, v] of pts) pts.set(key, v.sort((a, b) => a.x - b.x));
    return chunks([...pts.keys()], MAX_SERIES).map((keys, i, all) => {
      const a = align(new Map(keys.map((key) => [key, pts.get(key)!])), true);
      const name = all.length > 1 ? `${title(k)} (${i + 1} of ${all.length})` : title(k);
      return { id: `precision-speed-${slug(name)}`, facet: name, xLabel: 'precision p (bits)', yLabel: 'MFLOP/s', xLog: true, yLog: true, xs: a.xs,
        series: styled(a.series.map(({ low: _l, high: _h, ...s }) => s)) } satisfies ChartSpec;
    });
  });
  if (speedCharts.length > 0) {
    out.push({
      id: 'precision-speed', section: 'precision', title: 'Multiple precision: throughput against precision',
      caption: 'Millions of operations per second at precision p: GNU MPFR (through gmp-wasm, when installed) and the library\'s own formats (fp64, double-double, RNS). ' +
        'Higher is better; the cost of a wider format should grow slowly with its bits. One chart per kernel.',
      charts: speedCharts,
    });
  }
  return out;
}

/** Every figure of the report, in page order: per kernel (error against speed, error and bound, error against size, speed-up), then the rooflines (CPU, GPU) and precision. */
export function figureSpecs(rows: readonly Measurement[]): FigureSpec[] {
  const kernels = STUDY_KERNELS.filter((k) => rows.some((m) => m.kernel === k));
  const perKernel = kernels.flatMap((k) => [paretoFigure(rows, k), boundFigure(rows, k), errorBySizeFigure(rows, k), speedFigure(rows, k)]);
  return [...perKernel, rooflineFigure(rows), gpuRooflineFigure(rows), ...precisionFigures(rows)].filter((f): f is FigureSpec => f !== null && f.charts.length > 0);
}

/** All charts of `figures`, in page order. */
export function chartsOf(figures: readonly FigureSpec[]): ChartSpec[] {
  return figures.flatMap((f) => f.charts);
}

export { seriesLabel };
