/**
 * results.csv: one row per measurement, the run's machine and versions repeated on every row so a row
 * read alone still says where it was measured.
 * @module
 */
import type { Measurement, StudyResult } from '../study/types.js';

/** Measurement columns, in CSV order. */
export const MEASUREMENT_COLUMNS: readonly (keyof Measurement)[] = [
  'experiment', 'kernel', 'storage', 'arithmetic', 'backend', 'adapter', 'variant', 'problem', 'size', 'nnz', 'seed',
  'relativeError', 'arithmeticError', 'bound', 'seconds', 'repetitions', 'bytes', 'bytesPerElement', 'flops', 'gbps', 'gflops', 'speedup',
  'intensity', 'precisionBits', 'accuracyBits', 'boundBits', 'iterations',
];

/** A CSV field: quoted when it holds a comma, quote or line break (RFC 4180). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : String(value)) : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV text of `result`. */
export function resultsCsv(result: StudyResult): string {
  const versionKeys = Object.keys(result.run.versions).sort();
  const header = ['started', 'machine', ...versionKeys.map((k) => `version_${k}`), ...MEASUREMENT_COLUMNS];
  const fixed = [result.run.started, result.run.machine, ...versionKeys.map((k) => result.run.versions[k])];
  const lines = [header.join(',')];
  for (const m of result.measurements) lines.push([...fixed, ...MEASUREMENT_COLUMNS.map((c) => m[c])].map(csvField).join(','));
  return lines.join('\n') + '\n';
}
