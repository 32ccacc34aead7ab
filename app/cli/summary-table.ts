/**
 * The terminal summary: one line per kernel × configuration with its error and speed.
 * @module
 */
import { summaryRows } from '../report/aggregate.js';
import type { StudyResult } from '../study/types.js';

function sci(v: number | null): string {
  return v === null ? '—' : !Number.isFinite(v) ? String(v) : v === 0 ? '0' : v.toExponential(1);
}
function fixed(v: number | null, digits: number): string {
  return v === null ? '—' : v.toFixed(digits);
}

/** A plain-text table with aligned columns: the first `leftColumns` left-aligned (text), the rest right-aligned (numbers). */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], leftColumns = 2): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The summary of `result` as text. */
export function summaryTable(result: StudyResult): string {
  const rows = summaryRows(result.measurements).map((r) => [
    r.kernel, r.configuration, r.at, sci(r.error?.median ?? null), sci(r.bound), fixed(r.bytesPerElement, 0), fixed(r.gflops, 3), fixed(r.gbps, 2), fixed(r.speedup, 2), r.pareto ? 'yes' : '',
  ]);
  const table = rows.length === 0 ? '(no kernel measurements)' :
    textTable(['kernel', 'storage/arith', 'at', 'rel. error', 'bound', 'B/elem', 'GFLOP/s', 'GB/s', 'vs fp64', 'Pareto'], rows, 3);
  const lines = [
    ...result.skipped.map((s) => `skipped: ${s.part} — ${s.reason}${s.remedy ? ` (to include it: ${s.remedy})` : ''}`),
    ...result.notes.map((n) => `note: ${n}`),
  ];
  return lines.length === 0 ? table : `${table}\n${lines.join('\n')}`;
}
