/**
 * Writes the report folder: results.json (the whole {@link StudyResult}), results.csv (one row per
 * measurement) and index.html (the self-contained page).
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsCsv } from './csv.js';
import { renderReport } from './html.js';
import { loadChartAssets } from './uplot-assets.js';
import type { StudyResult } from '../study/types.js';

/** Paths of the files written. */
export interface ReportFiles {
  readonly json: string;
  readonly csv: string;
  readonly html: string;
}

/** JSON of a result; non-finite numbers (an overflowed error) become strings so nothing is lost. */
export function resultJson(result: StudyResult): string {
  return JSON.stringify(result, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)) + '\n';
}

/**
 * Writes the three files into `folder` (created if needed).
 * @returns their paths
 */
export function writeReport(folder: string, result: StudyResult): ReportFiles {
  mkdirSync(folder, { recursive: true });
  const files = { json: join(folder, 'results.json'), csv: join(folder, 'results.csv'), html: join(folder, 'index.html') };
  writeFileSync(files.json, resultJson(result));
  writeFileSync(files.csv, resultsCsv(result));
  writeFileSync(files.html, renderReport(result, loadChartAssets()));
  return files;
}
