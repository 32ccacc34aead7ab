/**
 * DOT in one dispatch with one ticket a workgroup (the `dotWorkgroupFinish` switch, issue 19): the `dotFusedTree` first
 * pass and its one remaining tree pass in one program of 256-invocation workgroups, with `dotFusedTree`'s bits.
 *
 * - Every workgroup runs the first pass (./dot-webgpu.ts firstPassLines) and adds its 256 sums pairwise in workgroup
 *   memory, as `dotFusedTree`'s first pass does; invocation 0 publishes the workgroup's sum in slot wg.
 * - Each workgroup then takes one ticket on the global counter; the one that draws the last resets the counter, sums
 *   the W0 workgroup sums exactly as `dotFusedTree`'s tree pass (one pass: W0 ≤ 2048) and stores the result. Nobody
 *   waits on another workgroup.
 *
 * Memory ordering is the fused finish's (./dot-fused-finish-source.ts, whose ticketed end this reuses): every slot word
 * is written and read through atomics, slots come in two regions alternating per call (the `par` uniform), a call
 * writes region p and resets region 1 − p's slot to the sentinel, so a word read in region p is this call's value or the
 * sentinel. A workgroup sum read as the sentinel is recomputed by the whole last workgroup with the same lines as its
 * owner — that workgroup's first-pass lines for its 256 threads, then the same pairwise sum — so the result has the
 * same bits whatever became visible when. Each recomputation adds 1 to the miss counter (word {@link MISS_COUNTER}).
 * Against the fused finish, the end of the pass is one reduction (512 sums at 2^17 threads) behind W0 tickets, not two
 * behind 2^17 published partials; a miss costs a workgroup's share of the first pass instead of one thread's.
 *
 * The atomic buffer's words: 0 … 3 the result (the resident result is a view of them), 4 the global counter, 5 the
 * miss counter, 8 … the slots (2 regions × W0 × words).
 *
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import type { ArgType, ProgramSpec } from '../../src/backends/webgpu/program.js';
import { TREE_FAN_IN, TREE_WORKGROUP } from '../../src/backends/webgpu/workgroup-reduction.js';
import { atomicReset, atomicStore, lastTicketFinish, MISS_COUNTER, oneDispatchProgram, pairwise, type FirstPassLines } from './dot-fused-finish-source.js';

/** First word of the slots (words 0 … 7 as the fused finish's: result, global and miss counters). */
const SLOTS = 8;
/** Workgroups at most: their sums are one tree pass's (as `dotFusedTree`'s last pass). */
export const MAX_FINISH_WORKGROUPS = TREE_WORKGROUP * TREE_FAN_IN;

/**
 * Words of the atomic buffer for `workgroups` workgroup sums of `words` words each.
 * @param workgroups - workgroups of the first pass
 * @param words - words a sum (the arithmetic's)
 * @returns the buffer's length in words
 */
export function workgroupFinishWords(workgroups: number, words: number): number {
  return SLOTS + 2 * workgroups * words;
}

/**
 * The atomic buffer's first contents: counters 0, every slot the sentinel.
 * @param workgroups - workgroups of the first pass
 * @param words - words a sum
 * @returns the words
 */
export function workgroupFinishInitialWords(workgroups: number, words: number): Uint32Array {
  const data = new Uint32Array(workgroupFinishWords(workgroups, words));
  data.fill(0xffffffff, SLOTS);
  return data;
}

/**
 * The one-ticket DOT program: uniforms n and T (as the first pass; T = 256·W0), W0 (workgroups) and par (the call's
 * parity); the atomic buffer `PAtomic`. Its own output is never stored (bind a four-word stand-in).
 * @param arithmetic - the arithmetic (f32 or ff: one or two words)
 * @param firstPass - the first pass's lines for a thread index
 * @param oddUnpublished - odd workgroups leave their sums unpublished (tests: the last workgroup finds them missing
 *   through the sentinel itself, beside published ones, and recomputes them)
 * @returns the program spec
 */
export function workgroupFinishSpec(arithmetic: GpuArithmetic, firstPass: FirstPassLines, oddUnpublished: boolean): ProgramSpec {
  const c = arithmetic.components;
  const own = firstPass('this.thread.x');
  const args: (readonly [string, ArgType])[] = [...own.args, ['W0', 'Integer'], ['par', 'Integer'], ['PAtomic', 'Array']];
  const accWords = c === 1 ? 'acc' : `[${Array.from({ length: c }, (_, j) => `acc[${j}]`).join(', ')}]`;
  // Workgroup `index`'s sum again: the first-pass lines of its threads, then the pairwise sum (its owner's operations).
  const recompute = (index: string, p: string): string[] => [
    arithmetic.declareZero(`${p}a`),
    // One name for the thread: the first pass's lines take it into products unparenthesised.
    `const ${p}t = ${index} * ${TREE_WORKGROUP} + l;`,
    ...firstPass(`${p}t`).body,
    `${p}a = ${accWords};`,
    ...pairwise(arithmetic, p, false),
  ];
  const body: string[] = [
    'const l = mpLocalId();',
    'const wg = mpGroupId();',
    // Slot bases in units of sums: this call's region and the other.
    `const h0 = ${SLOTS / c} + par * W0;`,
    `const h1 = ${SLOTS / c} + (1 - par) * W0;`,
    // The first pass in a block of its own (the recomputation declares the same names), its sum carried out in `va`.
    arithmetic.declareZero('va'),
    'if (this.thread.x < T) {',
    ...own.body,
    `va = ${accWords};`,
    '}',
    ...pairwise(arithmetic, 'v', false),
    `if (l === 0) { ${oddUnpublished ? 'if (mpImod(wg, 2) === 0) { ' : ''}${atomicStore(arithmetic, '(h0 + wg)', 'va').join(' ')}${oddUnpublished ? ' }' : ''} ${atomicReset(c, '(h1 + wg)').join(' ')} }`,
    ...lastTicketFinish(arithmetic, { base: 'h0', count: 'W0' }, recompute, false),
  ];
  return oneDispatchProgram(args, body, c);
}
