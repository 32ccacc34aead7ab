/**
 * Shared output for benchmarks: each benchmark writes its raw figures to `bench/results/<name>.json`
 * and replaces its own section of `docs/performance.md` (between `<!-- bench:<name> -->` and
 * `<!-- /bench:<name> -->`), so benchmarks never overwrite each other's tables.
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

/** Project root, found from this file's location in `bench/` or `dist/bench/`. */
export const projectRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
})();

/** One line naming the machine a figure was measured on. */
export function machineDescription(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${cpu.trim()}, ${os.cpus().length} cores, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

/** Today's date as YYYY-MM-DD (UTC). */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Writes `bench/results/<name>.json` with the machine and date added. Returns the path. */
export function writeResults(name: string, data: unknown): string {
  const file = join(projectRoot, 'bench', 'results', `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ name, date: today(), machine: machineDescription(), data }, null, 2) + '\n');
  return file;
}

/** Renders rows as a Markdown table; numbers are printed as given (format them before). */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Replaces (or appends) the section `<name>` of docs/performance.md with `markdown`. */
export function writePerformanceSection(name: string, markdown: string): void {
  const file = join(projectRoot, 'docs', 'performance.md');
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, text);
}

/** Median of the timings (ms) of `reps` calls of `fn`, after `warmup` untimed calls. */
export function medianTime(fn: () => unknown, reps = 7, warmup = 2): number {
  for (let i = 0; i < warmup; i++) fn();
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1]!;
}
