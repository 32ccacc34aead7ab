/**
 * DOT in one dispatch (the `dotFusedFinish` switch, issue 19 item 4): the first pass, the tree passes after it
 * (../../src/backends/webgpu/workgroup-reduction.ts) and the store of the result, in one program of 256-invocation
 * workgroups, with the bits of the three-dispatch default.
 *
 * - Every thread t < T computes first-pass partial t (the default's lines, ./dot-webgpu.ts firstPassLines) and
 *   publishes it in slot t. Eight workgroups (2048 partials, one default tree workgroup's share) form a block.
 * - Each workgroup then takes a ticket on its block's counter; the one that draws the block's last ticket resets the
 *   counter and sums the block's 2048 partials exactly as tree pass 1's workgroup of that block does (8 per invocation
 *   in the order of k, then pairwise), publishes that sum in level-1 slot b and takes a ticket on the global counter.
 * - The block that draws the global last ticket resets that counter and sums the level-1 sums as tree pass 2 does,
 *   then stores the result. (With one block, its last workgroup's sum is the result.) Nothing waits on another
 *   workgroup: there is no spinning, so no forward-progress guarantee between workgroups is needed.
 *
 * Memory ordering. WGSL atomics are relaxed and storageBarrier orders storage accesses within one workgroup only, so
 * a workgroup that draws the last ticket has no guarantee that the other workgroups' partials, though stored before
 * their tickets, are visible to it. The program therefore never trusts that order; it only relies on (1) coherence
 * per location — each 32-bit word, written and read only through atomics, is seen as one of the values stored to it,
 * never older than one already seen — and (2) WebGPU's ordering between dispatches (everything one call stores is
 * visible to the next). Each slot word holds either this call's value or the sentinel 0xFFFFFFFF:
 * - slots come in two regions and a call (parity p from the host, alternating per call of a plan) writes region p and
 *   resets the same slots of region 1 − p to the sentinel. Region 1 − p was last written a call earlier, so by (2) no
 *   store to it is still pending: after this call every one of its words is the sentinel (a late store of this call
 *   to region p cannot land on a slot after its reset, as it could if one region were reset after being read);
 * - so a word of region p read in this call is, by (1), the sentinel or the value this call's owner stored.
 * A reader that finds the sentinel in any word of a partial recomputes the partial itself, with the same lines as its
 * owner (a first-pass partial from x and y; a level-1 sum from the block's partials, by the whole workgroup), so the
 * result has the same bits whatever became visible when — given that a compiler treats the second copy of the lines as
 * the first: their roundings are pinned (mpKeep, the fma forms), so neither copy can be contracted or rewritten. (A
 * partial whose value is that NaN pattern is recomputed too: the same bits again.) The counters need no such care: a ticket is a read-modify-write, so the workgroup that
 * reads members − 1 comes after every other increment of that call in the counter's order, and its reset to 0 comes
 * after them all. On hardware where atomics are coherent in a shared cache (the H100's L2) the recomputation should
 * not run; every one that does adds 1 to the miss counter (word 5), which the benchmark reads.
 *
 * The ticketed end (the global ticket, the last tree pass over published sums, their recomputation) is shared with the
 * one-ticket DOT of `dotWorkgroupFinish` (./dot-workgroup-finish-source.ts): {@link lastTicketFinish}.
 *
 * The atomic buffer's words: 0…3 the result (the arithmetic's words; the resident result is a view of them), 4 the
 * global counter, 5 the miss counter, 8… the block counters, then level-1 slots (2 regions × blocks × words), then
 * first-pass slots (2 regions × T × words).
 *
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import { kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { ArgType, ProgramSpec } from '../../src/backends/webgpu/program.js';
import { TREE_FAN_IN, TREE_WORKGROUP } from '../../src/backends/webgpu/workgroup-reduction.js';

/** The first pass's arguments and the lines leaving first-pass thread `thread`'s partial in `acc` (./dot-webgpu.ts). */
export type FirstPassLines = (thread: string) => { readonly args: readonly (readonly [string, ArgType])[]; readonly body: readonly string[] };

/** Partials a block sums: one default tree workgroup's share. */
export const FUSED_BLOCK = TREE_WORKGROUP * TREE_FAN_IN;
/** First-pass workgroups per block. */
const BLOCK_WORKGROUPS = TREE_FAN_IN;
/** Word of the global counter. */
const GLOBAL_COUNTER = 4;
/** Word of the miss counter (recomputed partials, over all calls). */
export const MISS_COUNTER = 5;
/** First word of the block counters. */
const BLOCK_COUNTERS = 8;
/** The empty-slot pattern (as the i32 the atomics return). */
const SENTINEL = -1;
/** Blocks at most (level-1 sums of one workgroup, as the default's last tree pass). */
export const MAX_FUSED_BLOCKS = TREE_WORKGROUP * TREE_FAN_IN;

/** Where the fused DOT's words lie for T first-pass partials of `words` words each. */
export function fusedLayout(T: number, words: number): { blocks: number; workgroups: number; level1: number; level0: number; total: number } {
  const blocks = Math.ceil(T / FUSED_BLOCK);
  // A multiple of 4 words, so both slot bases are whole partials.
  const level1 = Math.ceil((BLOCK_COUNTERS + blocks) / 4) * 4;
  const level0 = level1 + 2 * blocks * words;
  return { blocks, workgroups: Math.ceil(T / TREE_WORKGROUP), level1, level0, total: level0 + 2 * T * words };
}

/** The atomic buffer's first contents: counters 0, every slot the sentinel. */
export function fusedInitialWords(T: number, words: number): Uint32Array {
  const layout = fusedLayout(T, words);
  const data = new Uint32Array(layout.total);
  data.fill(0xffffffff, layout.level1);
  return data;
}

/**
 * The one-dispatch DOT program: uniforms n and T (as the first pass), W0 (workgroups), G1 (blocks), L1 and L0 (the
 * slot bases of {@link fusedLayout}) and par (the call's parity); the atomic buffer `PAtomic`. Its own output is never
 * stored (bind a four-word stand-in).
 * @param arithmetic - the arithmetic (f32 or ff: one or two words)
 * @param firstPass - the first pass's lines for a thread index
 * @param recomputeAll - treat every published partial as missing (tests: runs the recomputation paths)
 * @returns the program spec
 */
export function fusedFinishSpec(arithmetic: GpuArithmetic, firstPass: FirstPassLines, recomputeAll: boolean): ProgramSpec {
  const c = arithmetic.components;
  const own = firstPass('this.thread.x');
  const args: (readonly [string, ArgType])[] = [...own.args, ['W0', 'Integer'], ['G1', 'Integer'], ['L1', 'Integer'], ['L0', 'Integer'], ['par', 'Integer'], ['PAtomic', 'Array']];
  const store = (slot: string, name: string): string[] => atomicStore(arithmetic, slot, name);
  const reset = (slot: string): string[] => atomicReset(c, slot);
  const body: string[] = [
    'const l = mpLocalId();',
    'const wg = mpGroupId();',
    `const blk = mpIdiv(wg, ${BLOCK_WORKGROUPS});`,
    // Slot bases in units of partials: this call's region and the other.
    'const s0 = mpIdiv(L0, ' + c + ') + par * T;',
    'const s1 = mpIdiv(L0, ' + c + ') + (1 - par) * T;',
    'const h0 = mpIdiv(L1, ' + c + ') + par * G1;',
    'const h1 = mpIdiv(L1, ' + c + ') + (1 - par) * G1;',
    'if (this.thread.x < T) {',
    ...own.body,
    ...store('(s0 + this.thread.x)', 'acc'),
    ...reset('(s1 + this.thread.x)'),
    '}',
    // Orders this workgroup's stores before its ticket for the other invocations of the workgroup (and, in practice,
    // before the ticket reaches the shared cache); correctness does not rest on it (module comment).
    'mpStorageBarrier();',
    `if (l === 0) { mpSharedIntSet(1, ${TREE_WORKGROUP}, mpAtomicAdd(PAtomic[${BLOCK_COUNTERS} + blk], 1)); }`,
    `const tk = mpSharedIntUniform(1, ${TREE_WORKGROUP});`,
    `const members = mpImin(W0 - blk * ${BLOCK_WORKGROUPS}, ${BLOCK_WORKGROUPS});`,
    'if (tk === members - 1) {',
    `if (l === 0) { mpAtomicStore(PAtomic[${BLOCK_COUNTERS} + blk], 0); }`,
    ...blockSum(arithmetic, 'blk', 'g', firstPass, recomputeAll),
    'if (G1 === 1) {',
    `if (l === 0) { ${store('0', 'ga').join(' ')} }`,
    '} else {',
    `if (l === 0) { ${[...store('(h0 + blk)', 'ga'), ...reset('(h1 + blk)')].join(' ')} }`,
    // The last block sums the level-1 sums as tree pass 2 does (a missing one recomputed from the block's partials).
    ...lastTicketFinish(arithmetic, { base: 'h0', count: 'G1' }, (index, p) => blockSum(arithmetic, index, p, firstPass, recomputeAll), recomputeAll),
    '}',
    '}',
  ];
  return oneDispatchProgram(args, body, c);
}

/**
 * A one-dispatch DOT's program (this file's and ./dot-workgroup-finish-source.ts's): `body` ends with no store of the
 * output (results go through PAtomic only, after the last barrier, so every barrier stays uniform), in 256-invocation
 * workgroups with the sums' and the indices' workgroup arrays.
 * @param args - the arguments
 * @param body - the lines before the output's non-store
 * @param c - the arithmetic's components
 * @returns the program spec
 */
export function oneDispatchProgram(args: readonly (readonly [string, ArgType])[], body: readonly string[], c: number): ProgramSpec {
  const lines = [...body, 'if (W0 > 0) { mpNoStore(); }', `return ${c === 1 ? '0.0' : '[0.0, 0.0]'};`];
  return {
    source: kernelSource(args as [string, ArgType][], lines),
    args: args as [string, ArgType][],
    components: c as 1 | 2,
    workgroup: { workgroupSize: TREE_WORKGROUP, workgroupArrays: [{ type: 'f32', length: TREE_WORKGROUP * c }, { type: 'i32', length: TREE_WORKGROUP + 2 }] },
  };
}

/**
 * Lines summing block `block`'s first-pass partials (slots s0 + k, k < T) as tree pass 1's workgroup of that block:
 * invocation l adds partials b·2048 + l + 256·f (f = 0 … 7, those below T, in that order), then the workgroup adds
 * pairwise; invocation 0 ends with the sum in `${p}a`. A partial read as the sentinel is recomputed by the reading
 * invocation with the first pass's own lines (one copy, in a loop over the eight).
 */
function blockSum(arithmetic: GpuArithmetic, block: string, p: string, firstPass: FirstPassLines, recomputeAll: boolean): string[] {
  const c = arithmetic.components;
  const lines = [`const ${p}b = ${block} * ${FUSED_BLOCK} + l;`, arithmetic.declareZero(`${p}a`)];
  for (let f = 0; f < TREE_FAN_IN; f++) {
    const k = `${p}k${f}`, s = `${p}c${f}`;
    lines.push(`const ${k} = ${p}b + ${f * TREE_WORKGROUP};`, `let ${s} = ${k};`, `if (${s} >= T) { ${s} = T - 1; }`);
    const words = Array.from({ length: c }, (_, j) => `${p}w${f}x${j}`);
    words.forEach((wd, j) => lines.push(`const ${wd} = mpAtomicLoad(PAtomic[(s0 + ${s}) * ${c} + ${j}]);`));
    lines.push(`let ${p}p${f} = ${c === 1 ? `mpFloat(${words[0]})` : `[${words.map((wd) => `mpFloat(${wd})`).join(', ')}]`};`);
    lines.push(`let ${p}m${f} = 0;`, `if (${k} < T) {`, ...(recomputeAll ? [`${p}m${f} = 1;`] : words.map((wd) => `if (${wd} === ${SENTINEL}) { ${p}m${f} = 1; }`)), '}');
  }
  // The recomputation: one copy of the first pass's lines, for whichever of the eight partials is missing.
  lines.push(`for (let ${p}f = mpI32(0); ${p}f < ${TREE_FAN_IN}; ${p}f++) {`, `let ${p}need = 0;`, `let ${p}kk = mpI32(0);`);
  for (let f = 0; f < TREE_FAN_IN; f++) lines.push(`if (${p}f === ${f}) { ${p}need = ${p}m${f}; ${p}kk = ${p}c${f}; }`);
  lines.push(`if (${p}need > 0) {`, ...firstPass(`${p}kk`).body);
  const accWords = c === 1 ? 'acc' : `[${Array.from({ length: c }, (_, j) => `acc[${j}]`).join(', ')}]`;
  for (let f = 0; f < TREE_FAN_IN; f++) lines.push(`if (${p}f === ${f}) { ${p}p${f} = ${accWords}; }`);
  lines.push(`const ${p}mc = mpAtomicAdd(PAtomic[${MISS_COUNTER}], 1);`, '}', '}');
  for (let f = 0; f < TREE_FAN_IN; f++) lines.push(`if (${p}k${f} < T) {`, arithmetic.add(`${p}a`, arithmetic.register(`${p}p${f}`)), '}');
  lines.push(...pairwise(arithmetic, p, false));
  return lines;
}

/** Published sums in the atomic buffer: sum k (k < count) in slot base + k; both integer expressions. */
export interface SlotSums {
  readonly base: string;
  readonly count: string;
}

/**
 * Lines summing the `slots.count` published sums as one tree pass (../../src/backends/webgpu/workgroup-reduction.ts
 * treeReduceSpec, stride 1): invocation l adds sums l + 256·f (f = 0 … 7, those below the count), then pairwise;
 * invocation 0 ends with the sum in `${p}a` and, with `flag`, in `${p}f` whether any sum it depends on was read as the
 * sentinel.
 */
function slotTreePass(arithmetic: GpuArithmetic, p: string, slots: SlotSums, flag: boolean, recomputeAll: boolean): string[] {
  const c = arithmetic.components;
  const { base, count } = slots;
  const lines = [arithmetic.declareZero(`${p}a`), `let ${p}f = 0;`];
  for (let f = 0; f < TREE_FAN_IN; f++) {
    const k = `${p}k${f}`, s = `${p}c${f}`;
    lines.push(`const ${k} = l + ${f * TREE_WORKGROUP};`, `let ${s} = ${k};`, `if (${s} >= ${count}) { ${s} = ${count} - 1; }`);
    const words = Array.from({ length: c }, (_, j) => `${p}w${f}x${j}`);
    words.forEach((wd, j) => lines.push(`const ${wd} = mpAtomicLoad(PAtomic[(${base} + ${s}) * ${c} + ${j}]);`));
    lines.push(`const ${p}p${f} = ${c === 1 ? `mpFloat(${words[0]})` : `[${words.map((wd) => `mpFloat(${wd})`).join(', ')}]`};`);
    if (flag) lines.push(`if (${k} < ${count}) {`, ...(recomputeAll ? [`${p}f = 1;`] : words.map((wd) => `if (${wd} === ${SENTINEL}) { ${p}f = 1; }`)), '}');
  }
  for (let f = 0; f < TREE_FAN_IN; f++) lines.push(`if (${p}k${f} < ${count}) {`, arithmetic.add(`${p}a`, arithmetic.register(`${p}p${f}`)), '}');
  lines.push(...pairwise(arithmetic, p, flag));
  return lines;
}

/**
 * Lines recomputing, by the whole workgroup, sum `index` (an integer expression) of the published ones, leaving it in
 * `${p}a` at invocation 0 (every invocation reaches the same barriers).
 */
export type RecomputeSum = (index: string, p: string) => string[];

/**
 * The end of a ticketed reduction, run by every workgroup once it has published its sum: a ticket on the global counter;
 * the workgroup that draws the last one (count − 1) resets the counter, sums the published sums as one tree pass
 * ({@link slotTreePass}) and stores the result in words 0 … c − 1. Where any sum it depends on was read as the sentinel
 * (or `recomputeAll`), it recomputes each sum still missing with `recompute`, publishes it (counting a miss), and sums
 * again — the same bits. The lines close every block they open.
 * @param arithmetic - the arithmetic (one or two words)
 * @param slots - the published sums
 * @param recompute - the lines recomputing one of them
 * @param recomputeAll - treat every published sum as missing (tests)
 * @returns the lines
 */
export function lastTicketFinish(arithmetic: GpuArithmetic, slots: SlotSums, recompute: RecomputeSum, recomputeAll: boolean): string[] {
  const c = arithmetic.components;
  const { base, count } = slots;
  return [
    // Orders this workgroup's stores before its ticket for its other invocations (in practice also before the ticket
    // reaches the shared cache); correctness does not rest on it (module comment).
    'mpStorageBarrier();',
    `if (l === 0) { mpSharedIntSet(1, ${TREE_WORKGROUP + 1}, mpAtomicAdd(PAtomic[${GLOBAL_COUNTER}], 1)); }`,
    `const gt = mpSharedIntUniform(1, ${TREE_WORKGROUP + 1});`,
    `if (gt === ${count} - 1) {`,
    `if (l === 0) { mpAtomicStore(PAtomic[${GLOBAL_COUNTER}], 0); }`,
    // The tree pass, carrying whether any sum read was the sentinel.
    ...slotTreePass(arithmetic, 'e', slots, true, recomputeAll),
    `if (l === 0) { mpSharedIntSet(1, ${TREE_WORKGROUP}, ef); }`,
    `const bad = mpSharedIntUniform(1, ${TREE_WORKGROUP});`,
    'if (bad === 0) {',
    `if (l === 0) { ${atomicStore(arithmetic, '0', 'ea').join(' ')} }`,
    '} else {',
    // Recompute each sum still missing (the whole workgroup per sum), largest index first, store it, then sum again: the
    // workgroup looks for the missing ones together (one round of loads and a max), so the loop runs once per recomputed
    // sum, not once per sum; the storage barrier makes invocation 0's stores visible to the rest of this workgroup.
    ...lastMissing(c, slots, count, 'r', recomputeAll),
    'let miss = rx;',
    'while (miss > 0) {',
    'const rg = miss - 1;',
    ...recompute('rg', 'q'),
    `if (l === 0) { ${atomicStore(arithmetic, `(${base} + rg)`, 'qa').join(' ')} const qm = mpAtomicAdd(PAtomic[${MISS_COUNTER}], 1); }`,
    'mpStorageBarrier();',
    ...lastMissing(c, { base, count }, 'rg', 'u', recomputeAll),
    'miss = ux;',
    '}',
    'mpStorageBarrier();',
    ...slotTreePass(arithmetic, 'z', slots, false, false),
    `if (l === 0) { ${atomicStore(arithmetic, '0', 'za').join(' ')} }`,
    '}',
    '}',
  ];
}

/**
 * Lines finding, by the whole workgroup, 1 + the largest index k < `below` whose published sum (slot base + k) reads as
 * the sentinel (any, with `recomputeAll`), or 0 for none, into `${p}x` — the same in every invocation. Invocation l
 * reads the sums l + 256·f, as in {@link slotTreePass}; a max over the workgroup follows (workgroup array 1).
 */
function lastMissing(words: number, slots: SlotSums, below: string, p: string, recomputeAll: boolean): string[] {
  // The previous users of array 1 are done once every invocation is here.
  const lines = ['mpBarrier();', `let ${p}m = mpI32(0);`];
  for (let f = 0; f < TREE_FAN_IN; f++) {
    const k = `${p}k${f}`;
    const read = Array.from({ length: words }, (_, j) => `${p}w${f}x${j}`);
    lines.push(`const ${k} = l + ${f * TREE_WORKGROUP};`, `if (${k} < ${below}) {`, ...read.map((wd, j) => `const ${wd} = mpAtomicLoad(PAtomic[(${slots.base} + ${k}) * ${words} + ${j}]);`));
    // k grows with f, so the last missing one found is this invocation's largest.
    lines.push(...(recomputeAll ? [`${p}m = ${k} + 1;`] : read.map((wd) => `if (${wd} === ${SENTINEL}) { ${p}m = ${k} + 1; }`)), '}');
  }
  lines.push(`mpSharedIntSet(1, l, ${p}m);`);
  for (let s = TREE_WORKGROUP / 2; s >= 1; s /= 2) lines.push('mpBarrier();', `if (l < ${s}) {`, `${p}m = mpImax(${p}m, mpSharedInt(1, l + ${s}));`, `mpSharedIntSet(1, l, ${p}m);`, '}');
  lines.push(`const ${p}x = mpSharedIntUniform(1, 0);`);
  return lines;
}

/**
 * Lines storing register `name`'s words (its bits) in partial slot `slot` of the atomic buffer (words slot·c … slot·c + c − 1).
 * @param arithmetic - the register's arithmetic
 * @param slot - an integer expression
 * @param name - the register
 * @returns the lines
 */
export function atomicStore(arithmetic: GpuArithmetic, slot: string, name: string): string[] {
  const c = arithmetic.components;
  return Array.from({ length: c }, (_, k) => `mpAtomicStore(PAtomic[${slot} * ${c} + ${k}], mpBits(${c === 1 ? name : `${name}[${k}]`}));`);
}

/**
 * Lines setting partial slot `slot`'s `words` words to the sentinel.
 * @param words - words a partial
 * @param slot - an integer expression
 * @returns the lines
 */
export function atomicReset(words: number, slot: string): string[] {
  return Array.from({ length: words }, (_, k) => `mpAtomicStore(PAtomic[${slot} * ${words} + ${k}], ${SENTINEL});`);
}

/**
 * The workgroup's pairwise sum of `${p}a` (as workgroupPairwiseSum: at level s, invocation l < s adds l + s's value),
 * with `flag` also the largest `${p}f` (0 or 1) through workgroup array 1. Every invocation reaches every barrier.
 * @param arithmetic - the arithmetic of `${p}a`
 * @param p - the prefix of the sum's names
 * @param flag - carry the flag too
 * @returns the lines
 */
export function pairwise(arithmetic: GpuArithmetic, p: string, flag: boolean): string[] {
  const c = arithmetic.components;
  const w = (k: number): string => (c === 1 ? `${p}a` : `${p}a[${k}]`);
  const put = (): string[] => [...Array.from({ length: c }, (_, k) => `mpSharedSet(0, l * ${c} + ${k}, ${w(k)});`), ...(flag ? [`mpSharedIntSet(1, l, ${p}f);`] : [])];
  // The previous user of the arrays (a ticket's slot, an earlier sum) is done once every invocation is here.
  const lines = ['mpBarrier();', ...put()];
  for (let s = TREE_WORKGROUP / 2; s >= 1; s /= 2) {
    lines.push('mpBarrier();', `if (l < ${s}) {`);
    const other = Array.from({ length: c }, (_, k) => `mpShared(0, (l + ${s}) * ${c} + ${k})`);
    lines.push(`const ${p}o${s} = ${c === 1 ? other[0] : `[${other.join(', ')}]`};`, arithmetic.add(`${p}a`, arithmetic.register(`${p}o${s}`)));
    if (flag) lines.push(`${p}f = mpImax(${p}f, mpSharedInt(1, l + ${s}));`);
    if (s > 1) lines.push(...put());
    lines.push('}');
  }
  return lines;
}
