/**
 * The CPU benchmarks' bandwidth yardstick: the C STREAM dot (../shared/tools/stream.c), compiled on the machine with
 * gcc -O3 -march=native -fopenmp and run on one thread.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The STREAM binary: `STREAM_BIN` (one built elsewhere: a machine without gcc, such as the lent GPU host), else
 * `STREAM_C` or /work/shared/tools/stream.c compiled here.
 * @returns its path, or null where there is neither a binary nor a compiler
 */
export function compileStream(): string | null {
  if (process.env.STREAM_BIN) return existsSync(process.env.STREAM_BIN) ? process.env.STREAM_BIN : null;
  const source = process.env.STREAM_C ?? '/work/shared/tools/stream.c';
  if (!existsSync(source)) return null;
  const out = join(mkdtempSync(join(tmpdir(), 'modprec-stream-')), 'stream');
  try {
    execFileSync('gcc', ['-O3', '-march=native', '-fopenmp', source, '-o', out], { stdio: 'pipe' });
    return out;
  } catch {
    return null;
  }
}

/**
 * One STREAM run on one thread, 3 repetitions.
 * @param binary - from {@link compileStream}
 * @param n - the vectors' length
 * @returns the dot's median GB/s
 */
export function streamDot(binary: string, n: number): number {
  const text = execFileSync(binary, [String(n), '3'], { env: { ...process.env, OMP_NUM_THREADS: '1' } }).toString();
  const json = JSON.parse(text.slice(text.indexOf('{'))) as { kernels: { kernel: string; gbs_median: number }[] };
  return json.kernels.find((c) => c.kernel.startsWith('dot'))!.gbs_median;
}
