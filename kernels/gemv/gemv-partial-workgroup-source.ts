/**
 * GEMV N's R-rows partial pass in workgroups wider than gpu.js's 64 invocations (the `gemvPartialWorkgroup` switch,
 * issue 19 item 4): a workgroup of W invocations then reads W·R adjacent rows of each column it visits (4 KiB of an
 * fp32 column with W = 256 and R = 4, against 1 KiB), so fewer, longer runs of a column are open in memory at a time.
 *
 * A workgroup program runs whole workgroups, so the row groups are padded to Gp, a multiple of W: thread t takes
 * chunk ⌊t/Gp⌋ and row group g = t mod Gp, and its partials land at unit t (the finish pass reads them with the column
 * stride Gp·R). A padded group (g ≥ G) runs the pass's lines as a thread of a chunk past the last, whose column range is
 * empty: it reads nothing and its partials are never read. Every other thread runs the default's lines for its own
 * (chunk, row group), so y keeps the default's bits.
 *
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { ArgType } from '../../src/backends/webgpu/program.js';
import { partialNRowsLines } from './gemv-row-group-source.js';

/**
 * Row groups padded to whole workgroups of W invocations.
 * @param G - row groups
 * @param W - invocations per workgroup
 * @returns Gp
 */
export function paddedRowGroups(G: number, W: number): number {
  return Math.ceil(G / W) * W;
}

/**
 * The thread of the default layout (chunk·G + g) that padded thread `this.thread.x` runs: its own for g < G, else one of
 * chunk ≥ S (⌊g/G⌋·S chunks further), whose columns start past n.
 */
const DEFAULT_THREAD = '(mpIdiv(this.thread.x, Gp) * G + mpImod(this.thread.x, Gp) + mpIdiv(mpImod(this.thread.x, Gp), G) * mpIdiv(n + chunk - 1, chunk) * G)';

/**
 * Source of the padded R-rows pass (arguments: those of the default R-rows pass and Gp); a thread returns its R
 * partials as the default's does. For R·words ≤ 4 only (no thread storing its own partials).
 * @param arithmetic - the arithmetic
 * @param A - the matrix data
 * @param x - the vector
 * @param chains - accumulators per row
 * @param rows - R
 * @param run - the one-load read of a column's R rows, if any
 * @param prefetch - the gemvPrefetch switch
 * @param vectorX - x four columns a load
 * @param unroll - columns per step
 * @returns source and arguments
 */
export function partialNRowsPaddedSource(arithmetic: GpuArithmetic, A: DeviceArray, x: DeviceArray, chains: number, rows: number, run: 'octet' | 'vector' | 'pair' | undefined, prefetch: boolean, vectorX: boolean, unroll: number): { source: string; args: (readonly [string, ArgType])[] } {
  if (rows * arithmetic.components > 4) throw new Error('internal: the padded R-rows pass returns at most four words a thread');
  const { args, body } = partialNRowsLines(arithmetic, A, x, chains, rows, run, prefetch, vectorX, unroll, DEFAULT_THREAD);
  const lanes = Array.from({ length: rows }, (_, r) => (arithmetic.components === 1 ? [`acc${r}`] : Array.from({ length: arithmetic.components }, (_, w) => `acc${r}[${w}]`))).flat();
  body.push(`return ${lanes.length === 1 ? lanes[0] : `[${lanes.join(', ')}]`};`);
  const all: (readonly [string, ArgType])[] = [...args, ['Gp', 'Integer']];
  return { source: kernelSource(all, body), args: all };
}

let padded = 0;

/** Counts one call recorded with the padded pass (./gemv-webgpu.ts calls it; tests read {@link paddedPassCalls}). */
export function countPaddedPass(): void {
  padded++;
}

/**
 * How many GEMV N calls this process recorded with the padded, wider-workgroup partial pass: tests check that the
 * switch takes the path.
 * @returns the count
 */
export function paddedPassCalls(): number {
  return padded;
}
