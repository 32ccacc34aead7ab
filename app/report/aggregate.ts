/**
 * Aggregation shared by the terminal summary and the HTML report: means over seeds, grouping by kernel,
 * problem and configuration.
 * @module
 */
import { configurationLabel, type Measurement } from '../study/types.js';

/** Label of the configuration (and loop variant for the roofline) of a measurement. */
export function seriesLabel(m: Measurement): string {
  if (m.experiment === 'roofline') return m.variant === 'plain' ? `plain ${m.storage}` : `accessor ${m.storage}/${m.arithmetic}`;
  return configurationLabel(m);
}

/** The arithmetic mean of the finite values (null when there are none). */
export function mean(values: readonly (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

/** A point of a series: x and the mean of a field over the rows at that x. */
export interface Point {
  readonly x: number;
  readonly y: number | null;
}

/** Rows grouped by series label, each series' points sorted by x with `field` averaged over rows sharing x. */
export function seriesBy(rows: readonly Measurement[], x: (m: Measurement) => number | null, field: (m: Measurement) => number | null): Map<string, Point[]> {
  const groups = new Map<string, Map<number, (number | null)[]>>();
  for (const m of rows) {
    const xv = x(m);
    if (xv === null || !Number.isFinite(xv)) continue;
    const label = seriesLabel(m);
    let g = groups.get(label);
    if (!g) groups.set(label, (g = new Map()));
    let bucket = g.get(xv);
    if (!bucket) g.set(xv, (bucket = []));
    bucket.push(field(m));
  }
  const out = new Map<string, Point[]>();
  for (const [label, g] of groups) {
    out.set(label, [...g.entries()].sort((a, b) => a[0] - b[0]).map(([xv, ys]) => ({ x: xv, y: mean(ys) })));
  }
  return out;
}

/** Distinct values of `key` in first-seen order. */
export function distinct<T>(rows: readonly Measurement[], key: (m: Measurement) => T): T[] {
  const seen = new Set<T>();
  for (const m of rows) seen.add(key(m));
  return [...seen];
}

/** One line of the summary: a kernel's configuration at the largest size measured. */
export interface SummaryRow {
  readonly kernel: string;
  readonly configuration: string;
  /** Problem and size the figures are taken at. */
  readonly at: string;
  readonly relativeError: number | null;
  readonly arithmeticError: number | null;
  readonly gflops: number | null;
  readonly gbps: number | null;
  readonly speedup: number | null;
}

/**
 * Per kernel and configuration: the mean errors at the largest size of the first problem, and the speed
 * at the largest size timed.
 */
export function summaryRows(rows: readonly Measurement[]): SummaryRow[] {
  const out: SummaryRow[] = [];
  const kernels = distinct(rows.filter((m) => m.experiment === 'accuracy' || m.experiment === 'speed'), (m) => m.kernel);
  for (const kernel of kernels) {
    const acc = rows.filter((m) => m.kernel === kernel && m.experiment === 'accuracy');
    const spd = rows.filter((m) => m.kernel === kernel && m.experiment === 'speed');
    const problem = acc[0]?.problem ?? spd[0]?.problem;
    const accP = acc.filter((m) => m.problem === problem);
    const spdP = spd.filter((m) => m.problem === problem);
    const nAcc = Math.max(...accP.map((m) => m.size), -Infinity);
    const nSpd = Math.max(...spdP.map((m) => m.size), -Infinity);
    for (const label of distinct([...acc, ...spd], seriesLabel)) {
      const a = accP.filter((m) => m.size === nAcc && seriesLabel(m) === label);
      const s = spdP.find((m) => m.size === nSpd && seriesLabel(m) === label);
      out.push({
        kernel, configuration: label, at: `${problem} n=${Number.isFinite(nAcc) ? nAcc : nSpd}`,
        relativeError: mean(a.map((m) => m.relativeError)), arithmeticError: mean(a.map((m) => m.arithmeticError)),
        gflops: s?.gflops ?? null, gbps: s?.gbps ?? null, speedup: s?.speedup ?? null,
      });
    }
  }
  return out;
}
