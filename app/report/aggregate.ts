/**
 * Aggregation shared by the terminal summary and the HTML report: medians and spreads over seeds, the
 * point each kernel is summarised at, and the Pareto front of error against speed.
 * @module
 */
import { configurationLabel, type Measurement } from '../study/types.js';

/** Label of the configuration (and loop variant for the roofline) of a measurement. */
export function seriesLabel(m: Measurement): string {
  if (m.experiment === 'roofline') return m.variant === 'plain' ? `plain ${m.storage}` : `accessor ${m.storage}/${m.arithmetic}`;
  return configurationLabel(m);
}

/** The finite values of a list. */
function finite(values: readonly (number | null)[]): number[] {
  return values.filter((x): x is number => x !== null && Number.isFinite(x));
}

/** The arithmetic mean of the finite values (null when there are none). */
export function mean(values: readonly (number | null)[]): number | null {
  const v = finite(values);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

/** Median, smallest and largest of the finite values (null when there are none). */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** How many values (seeds) it summarises. */
  readonly count: number;
}

/** The {@link Spread} of the finite values, or null when there are none. */
export function spread(values: readonly (number | null)[]): Spread | null {
  const v = finite(values).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  const median = v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  return { median, min: v[0]!, max: v[v.length - 1]!, count: v.length };
}

/** A point of a series: x, and the spread of a field over the rows at that x (over seeds). */
export interface Point {
  readonly x: number;
  readonly y: number | null;
  readonly low?: number | null;
  readonly high?: number | null;
}

/** Rows grouped by series label, each series' points sorted by x: the median of `field` over rows sharing x, with min and max. */
export function seriesBy(rows: readonly Measurement[], x: (m: Measurement) => number | null, field: (m: Measurement) => number | null,
  label: (m: Measurement) => string = seriesLabel): Map<string, Point[]> {
  const groups = new Map<string, Map<number, (number | null)[]>>();
  for (const m of rows) {
    const xv = x(m);
    if (xv === null || !Number.isFinite(xv)) continue;
    const key = label(m);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Map()));
    let bucket = g.get(xv);
    if (!bucket) g.set(xv, (bucket = []));
    bucket.push(field(m));
  }
  const out = new Map<string, Point[]>();
  for (const [key, g] of groups) {
    out.set(key, [...g.entries()].sort((a, b) => a[0] - b[0]).map(([xv, ys]) => {
      const s = spread(ys);
      return { x: xv, y: s?.median ?? null, low: s?.min ?? null, high: s?.max ?? null };
    }));
  }
  return out;
}

/** Distinct values of `key` in first-seen order. */
export function distinct<T>(rows: readonly Measurement[], key: (m: Measurement) => T): T[] {
  const seen = new Set<T>();
  for (const m of rows) seen.add(key(m));
  return [...seen];
}

/** Where a kernel is summarised: the problem and size its speed was measured at (else its largest accuracy size). */
export interface SummaryPoint {
  readonly problem: string;
  readonly size: number;
}

/** The summary point of `kernel`: the first timed problem at its largest timed size, else the first problem's largest size. */
export function summaryPoint(rows: readonly Measurement[], kernel: string): SummaryPoint | null {
  const speed = rows.filter((m) => m.kernel === kernel && m.experiment === 'speed');
  const pool = speed.length > 0 ? speed : rows.filter((m) => m.kernel === kernel && m.experiment === 'accuracy');
  if (pool.length === 0) return null;
  const problem = pool[0]!.problem;
  return { problem, size: Math.max(...pool.filter((m) => m.problem === problem).map((m) => m.size)) };
}

/** One line of the summary: a kernel's configuration at its summary point. */
export interface SummaryRow {
  readonly kernel: string;
  readonly configuration: string;
  readonly storage: string;
  readonly arithmetic: string;
  readonly backend: string;
  /** Problem and size the figures are taken at. */
  readonly at: string;
  /** Relative error over seeds (median, min, max). */
  readonly error: Spread | null;
  /** The a-priori bound (largest over seeds: each seed's data gives its own bound). */
  readonly bound: number | null;
  readonly arithmeticError: number | null;
  readonly bytesPerElement: number | null;
  /** 1 − bytesPerElement / 8: the memory saved against fp64 storage. */
  readonly memorySaved: number | null;
  readonly gflops: number | null;
  readonly gbps: number | null;
  readonly speedup: number | null;
  /** On the Pareto front of error against speed (no other configuration both faster and more accurate). */
  readonly pareto: boolean;
}

/** The labels on the Pareto front of `points` (x larger is better, y smaller is better). */
export function paretoFront(points: readonly { label: string; x: number; y: number }[]): Set<string> {
  const front = new Set<string>();
  for (const p of points) {
    const dominated = points.some((q) => q !== p && q.x >= p.x && q.y <= p.y && (q.x > p.x || q.y < p.y));
    if (!dominated) front.add(p.label);
  }
  return front;
}

/** Per kernel and configuration: errors over seeds, bound, memory and speed at the kernel's {@link summaryPoint}. */
export function summaryRows(rows: readonly Measurement[]): SummaryRow[] {
  const out: SummaryRow[] = [];
  const kernels = distinct(rows.filter((m) => m.experiment === 'accuracy' || m.experiment === 'speed'), (m) => m.kernel);
  for (const kernel of kernels) {
    const at = summaryPoint(rows, kernel)!;
    const here = rows.filter((m) => m.kernel === kernel && m.problem === at.problem && m.size === at.size);
    const acc = here.filter((m) => m.experiment === 'accuracy');
    const spd = here.filter((m) => m.experiment === 'speed');
    const labels = distinct(rows.filter((m) => m.kernel === kernel && (m.experiment === 'accuracy' || m.experiment === 'speed')), seriesLabel);
    const partial = labels.map((label) => {
      const a = acc.filter((m) => seriesLabel(m) === label);
      const s = spd.find((m) => seriesLabel(m) === label);
      const any = a[0] ?? s ?? rows.find((m) => m.kernel === kernel && seriesLabel(m) === label)!;
      const bounds = finite(a.map((m) => m.bound));
      const bpe = any.bytesPerElement ?? s?.bytesPerElement ?? null;
      return {
        kernel, configuration: label, storage: any.storage, arithmetic: any.arithmetic, backend: String(any.backend),
        at: `${at.problem} n=${at.size}`, error: spread(a.map((m) => m.relativeError)),
        bound: bounds.length === 0 ? null : Math.max(...bounds), arithmeticError: mean(a.map((m) => m.arithmeticError)),
        bytesPerElement: bpe, memorySaved: bpe === null ? null : 1 - bpe / 8,
        gflops: s?.gflops ?? null, gbps: s?.gbps ?? null, speedup: s?.speedup ?? null,
      };
    });
    const front = paretoFront(partial.filter((r) => r.gflops !== null && r.error !== null)
      .map((r) => ({ label: r.configuration, x: r.gflops!, y: r.error!.median })));
    out.push(...partial.map((r) => ({ ...r, pareto: front.has(r.configuration) })));
  }
  return out;
}
