/**
 * The one-dispatch GPU TRSV kernel (issue 19): one workgroup, the walker, solves the diagonal blocks in
 * substitution order; every other workgroup, a helper, sums the contributions of the already solved blocks to
 * one later row block, so that the walker finds most of each row block's sum ready.
 *
 * Blocks are TRSV_TILE = 64 rows; a workgroup has 256 invocations: thread l is row r = l mod 64 of a tile and
 * column quarter q = ⌊l/64⌋ (16 columns of each 64-column tile), so a warp reads 32 adjacent rows of a column.
 *
 * - The walker (the workgroup that takes ticket 0 of the call), for the block of step s: reads the helper's
 *   partial sum P of its rows over steps 0 … s − D − 1 (every word carries a check word, so a partial or stale P
 *   is recognised), polling it at most `pWait` rounds; adds the tiles of steps s − D … s − 1 itself (their loads
 *   are issued first, their x kept in workgroup memory) — and every earlier tile too when P did not come —
 *   then r = b − sum, x_s = Inv_s·r (the diagonal block's inverse, computed once per matrix), publishes x_s.
 * - The helper of ticket t sums, for the block of step t + D, the tiles of steps 0 … t − 1 as their x become
 *   published, and publishes P. It waits for an x block at most `spin` rounds; then it gives up and the walker
 *   does that row block's sum itself.
 *
 * The walker waits for nobody beyond a bounded poll, so the solve finishes without any forward-progress guarantee between
 * workgroups (WebGPU gives none); the helpers only make it faster. Cross-workgroup data goes through atomics
 * only: word w is stored as (w, w ^ key) with a key that changes every call (from the ticket counter, which
 * grows by the workgroup count per call), so a reader that sees a consistent pair saw this call's word. (Keys
 * repeat after 2^32 tickets, i.e. 2^32/G calls of one plan; a helper's sum left unpublished for exactly that
 * many calls and then found consistent is the one case this check cannot tell apart.)
 *
 * @module
 */
import { fail } from '../../src/core/errors.js';
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { arrayArgs, kernelSource, lazyAccumulation, mulAddGroup } from '../../src/backends/webgpu/kernel-common.js';
import type { WorkgroupSettings } from '../../src/backends/webgpu/gpujs-extensions.js';
import { ifNonFinite, substitutionLines } from './trsv-substitution-source.js';
import { zeroSignLines } from './trsv-zero-sign-source.js';

/** Rows of a diagonal block and of a tile. */
export const TRSV_TILE = 64;
/** Invocations per workgroup: 64 rows × 4 column quarters. */
export const TRSV_WORKGROUP = 256;
/** Words before the published partial sums in the atomic buffer (the ticket counter is word 0). */
export const TRSV_HEADER_WORDS = 64;
/** The key's constant: odd, so key = (call's first ticket) XOR it is never 0 (tickets of a call start at multiples of the power-of-two workgroup count). */
const KEY_MIX = 1540483477;

/** Which variant: the order of substitution and how op(A)(i, j) is indexed. */
export interface WalkerShape {
  readonly lowerOp: boolean;
  readonly trans: boolean;
  /** Unit diagonal (the substitution path does not divide). */
  readonly unit: boolean;
}

/** Word k of a register as an f32 expression. */
function word(arithmetic: GpuArithmetic, name: string, k: number): string {
  return arithmetic.components === 1 ? name : `${name}[${k}]`;
}

/** `let dst = <register from the f32 word expressions>;` */
function fromWords(arithmetic: GpuArithmetic, dst: string, words: readonly string[]): string {
  return `let ${dst} = ${arithmetic.components === 1 ? words[0] : `[${words.join(', ')}]`};`;
}

function zero(arithmetic: GpuArithmetic): string {
  return arithmetic.literal(0);
}

/**
 * Whether the one-dispatch solve holds this arithmetic and A's reads: registers of binary32 or float-float width
 * (what its workgroup arrays and loop-carried registers were written and measured for) whose reads come as binary32
 * or the arithmetic's own kind. Other arithmetics (double-double) take the blocked solve.
 * @param arithmetic - the solve's GPU arithmetic
 * @param A - the matrix's storage
 * @returns true when {@link walkerSource} can build the solve
 */
export function walkerHolds(arithmetic: GpuArithmetic, A: DeviceArray): boolean {
  if (arithmetic.components > 2) return false;
  const own = arithmetic.register('z').kind;
  const kind = A.format.emitRead('A', '0', 'probe', arithmetic).register.kind;
  return kind === 'f32' || kind === own;
}

/**
 * Forms of the solve under test (issue 19; src/backends/webgpu/kernel-switches.ts, `TrsvKernelSwitches`). All off
 * is the form measured before; `columnInverse`, `earlyPoll` and `ahead` change where values come from and when they
 * are loaded, not the operations on them (same bits); `rowLanes`, `lazyTiles` and `treeQuarters` change which terms a thread sums
 * and how (same trsvBound).
 */
export interface WalkerForms {
  /** `Inv` is the column-major copy of the block inverses: element (i, j) of block k at (64k + j)·64 + i. */
  readonly columnInverse?: boolean;
  /**
   * In the sums of A's tiles (walker and helpers), thread l is row ⌊l/4⌋ over columns 4u + (l mod 4) of a tile, instead
   * of row l mod 64 over columns 16⌊l/64⌋ + u (the inverse product keeps the latter).
   */
  readonly rowLanes?: boolean;
  /** Float-float tile sums through `mulAddGroup` (lazy, settled), with out-of-range terms zeroed instead of skipped. */
  readonly lazyTiles?: boolean;
  /** The walker's loads of P go out at the top of a step and are checked after its tile, at the reduction's barrier. */
  readonly earlyPoll?: boolean;
  /** The walker's loads of A's tile, the inverse's row and b for step s + 2 go out at the end of step s. */
  readonly ahead?: boolean;
  /** A row's four quarters summed as (q0 + q1) + (q2 + q3) (then added to P), instead of one after another. */
  readonly treeQuarters?: boolean;
  /**
   * With row lanes, where {@link quadRowsHold}: lane p of a row takes columns 16v + 4p + e (v, e < 4) of a tile and reads
   * each run of four in one 16-byte load, so the four lanes of a row read 64 adjacent bytes a load (whole sectors)
   * instead of 16, with a quarter of the load instructions.
   */
  readonly quadRows?: boolean;
}

/**
 * Whether the tile sums can read op(A)'s rows four entries a load ({@link WalkerForms}`.quadRows`): op(A) = Aᵀ (a row
 * of op(A) is a column of A, adjacent in memory), A binary32 in a whole binding of its own (no view, no scales), and
 * lda a multiple of 4 (every run of four starts on a 16-byte boundary, since tiles start at multiples of 64).
 * @param A - the matrix's device array
 * @param trans - op(A) = Aᵀ
 * @param lda - A's leading dimension
 * @returns true when the 16-byte reads hold
 */
export function quadRowsHold(A: DeviceArray, trans: boolean, lda: number): boolean {
  return trans && !A.isView && !A.format.scaled && !A.rangeScale && A.format.name === 'f32' && A.format.vectorRead?.suffix === 'Quad' && lda % 4 === 0;
}

/**
 * Source and arguments of the walker/helper kernel for one variant, arithmetic and storage of A (whole-binding A).
 * @param arithmetic - the GPU arithmetic
 * @param A - the matrix's device array (its format and whether it is a view)
 * @param shape - the variant
 * @param lead - D: the walker sums the last D solved blocks itself, helpers everything before them
 * @param chains - independent accumulators per thread (1, 2, 4, 8 or 16) for each 16-column part
 * @param overflow - storageOverflowBits of x (./trsv-substitution-source.ts), where x's storage overflows below binary32
 * @param forms - the forms under test ({@link WalkerForms}; none: the measured default)
 * @returns source, argument list and workgroup settings
 */
export function walkerSource(arithmetic: GpuArithmetic, A: DeviceArray, shape: WalkerShape, lead = 1, chains = 4, overflow?: number, forms: WalkerForms = {}): { source: string; args: ReturnType<typeof arrayArgs>; workgroup: WorkgroupSettings } {
  const c = arithmetic.components;
  const T = TRSV_TILE;
  const rowLanes = forms.rowLanes === true;
  // Runs of four adjacent columns a load (quadRowsHold is the caller's check of lda; the rest is checked again here).
  const quad = rowLanes && forms.quadRows === true && shape.trans && !A.isView && A.format.name === 'f32' && A.format.vectorRead?.suffix === 'Quad' ? A.format.vectorRead : undefined;
  const args = [...arrayArgs('A', A), ...(quad ? [['AQuad', 'Array'] as const] : []), ['Inv', 'Array'] as const, ['R', 'Array'] as const, ['WAtomic', 'Array'] as const, ['XAtomic', 'Array'] as const,
    ['n', 'Integer'] as const, ['lda', 'Integer'] as const, ['np', 'Integer'] as const, ['blocks', 'Integer'] as const, ['gMask', 'Integer'] as const, ['spin', 'Integer'] as const, ['pWait', 'Integer'] as const, ['xBase', 'Integer'] as const];
  const words = arithmetic.words;
  const order = (step: string): string => (shape.lowerOp ? `(${step})` : `(blocks - 1 - (${step}))`);
  const opIndex = (row: string, col: string): string => {
    const [i, j] = shape.trans ? [col, row] : [row, col];
    return A.isView ? `AOff + ${i} * AInc + ${j} * lda` : `${i} + ${j} * lda`;
  };
  const pBase = TRSV_HEADER_WORDS;
  // Two numberings of the threads: (r, q) in the sums of A's tiles, row r over the columns col(u) of quarter q
  // (row lanes: 4 adjacent lanes per row, else 64 adjacent rows per quarter), and (ri, qi) in the inverse product,
  // always 64 adjacent rows per quarter (the inverse's copy by columns is read down a column).
  /** Column, within a tile, of this thread's term u in a tile sum. */
  const col = (u: number | string): string => {
    if (!quad) return rowLanes ? `(${u} * 4 + q)` : `(q * 16 + ${u})`;
    // Term u = 4v + e: column 16v + 4q + e (u is always a literal here).
    const uu = Number(u);
    return `(${16 * (uu >> 2) + (uu & 3)} + q * 4)`;
  };
  /**
   * This thread's 16 entries of op(A) in row `row`, tile columns from `base`: lines and registers (a<prefix><u>),
   * one load each or, with quad rows, one 16-byte load per run of four.
   */
  const rowReads = (row: string, base: string, prefix: string): { lines: string[]; registers: GpuRegister[] } => {
    const lines: string[] = [];
    const registers: GpuRegister[] = [];
    for (let u = 0; u < 16; u++) {
      if (quad) {
        if (u % 4 !== 0) continue;
        const v = quad.emit('AQuad', opIndex(row, `(${base} + ${col(u)})`), `${prefix}q${u >> 2}x`, arithmetic);
        lines.push(v.code);
        registers.push(...v.registers);
      } else {
        const ra = A.format.emitRead('A', opIndex(row, `(${base} + ${col(u)})`), `${prefix}${u}`, arithmetic);
        lines.push(ra.code);
        registers.push(ra.register);
      }
    }
    return { lines, registers };
  };
  /** Column, within a block, of this thread's term u in the inverse product. */
  const colI = (u: number | string): string => `(qi * 16 + ${u})`;
  /** Where a row's quarter p sits in workgroup array 0 (each thread stores its own at slot l), per numbering. */
  const partSlot = (p: number, phase: 'tile' | 'inverse'): string => (rowLanes && phase === 'tile' ? `(r * 4 + ${p})` : phase === 'tile' ? `(r + ${p * T})` : `(ri + ${p * T})`);
  /** Element (row ri, column colI(u)) of the inverse of the block starting at ks. */
  const invIndex = (ks: string, u: number): string => (forms.columnInverse ? `(${ks} + ${colI(u)}) * ${T} + ri` : `ri * np + ${ks} + ${colI(u)}`);
  const lazy = forms.lazyTiles === true && arithmetic.lazyMulAdd !== undefined && arithmetic.settle !== undefined && arithmetic.lazyTerms !== undefined && lazyAccumulation();
  // A zero of a register kind reads produce: binary32, or the arithmetic's own kind.
  const zeroOf = (kind: GpuRegister['kind']): string => (kind === 'f32' ? '0.0' : kind === arithmetic.register('z').kind ? arithmetic.literal(0) : fail('INVALID_FORMAT', 'A', `reads into register kind ${kind}, which the one-dispatch TRSV cannot hold`));
  /** Independent accumulators `${name}0 …` (shorter dependency chains; combined pairwise at the end). */
  const declareChains = (name: string): string[] => Array.from({ length: chains }, (_, k) => arithmetic.declareZero(`${name}${k}`));
  const combineChains = (name: string): string[] => {
    const lines: string[] = [];
    for (let width = 1; width < chains; width *= 2) for (let k = 0; k + width < chains; k += 2 * width) lines.push(arithmetic.add(`${name}${k}`, arithmetic.register(`${name}${k + width}`)));
    return lines;
  };
  /**
   * Loads of this thread's 16 entries of op(A) in row `row`, tile columns from `base` (registers a<tag>0 …; with
   * lazy tiles, copies g<tag>0 … that are zero outside the matrix, so the group needs no per-term test).
   */
  const tileLoads = (base: string, tag: string): { lines: string[]; registers: GpuRegister[] } => {
    const reads = rowReads('row', base, `a${tag}`);
    if (!lazy) return reads;
    const lines = [...reads.lines];
    const registers: GpuRegister[] = [];
    reads.registers.forEach((ra, u) => {
      lines.push(`let g${tag}${u} = ${zeroOf(ra.kind)};`, `if (row < n && ${base} + ${col(u)} < n) { g${tag}${u} = ${ra.name}; }`);
      registers.push({ kind: ra.kind, name: `g${tag}${u}` });
    });
    return { lines, registers };
  };
  /**
   * acc0 … += Σ_u a_u·x_u (term u into chain u mod `chains`), x_u read by `xWords(u, k)`: columns past n skipped,
   * or (lazy tiles) their a_u already zero.
   */
  const tileUses = (base: string, registers: GpuRegister[], xWords: (u: string, k: number) => string, tag: string): string[] => {
    const lines: string[] = [];
    const terms: { acc: string; a: GpuRegister; b: GpuRegister }[] = [];
    registers.forEach((ra, u) => {
      lines.push(fromWords(arithmetic, `x${tag}${u}`, Array.from({ length: c }, (_, k) => xWords(String(u), k))));
      if (lazy) terms.push({ acc: `acc${u % chains}`, a: ra, b: arithmetic.register(`x${tag}${u}`) });
      else lines.push(`if (row < n && ${base} + ${col(u)} < n) {`, arithmetic.mulAdd(`acc${u % chains}`, ra, arithmetic.register(`x${tag}${u}`)), '}');
    });
    if (lazy) lines.push(...mulAddGroup(arithmetic, terms));
    return lines;
  };
  const tile = (base: string, xWords: (u: string, k: number) => string, tag: string): string[] => {
    const loads = tileLoads(base, tag);
    return [...loads.lines, ...tileUses(base, loads.registers, xWords, tag)];
  };
  /** Stores register `name` into workgroup array 0 at slot l. */
  const storeQuarter = (name: string): string[] => Array.from({ length: c }, (_, k) => `mpSharedSet(0, l * ${c} + ${k}, ${word(arithmetic, name, k)});`);
  /** Opens `if (q === 0) {` (`qi` in the inverse product) and sums the four quarters of the row (after `first`, if given) into `dst` (in order, or pairwise). */
  const sumQuarters = (dst: string, first?: GpuRegister, phase: 'tile' | 'inverse' = 'tile'): string[] => {
    const lines = [phase === 'tile' ? 'if (q === 0) {' : 'if (qi === 0) {'];
    const part = (p: number): string[] => Array.from({ length: c }, (_, k) => `mpShared(0, ${partSlot(p, phase)} * ${c} + ${k})`);
    if (forms.treeQuarters) {
      for (let p = 0; p < 4; p++) lines.push(fromWords(arithmetic, `${dst}q${p}`, part(p)));
      lines.push(arithmetic.add(`${dst}q0`, arithmetic.register(`${dst}q1`)), arithmetic.add(`${dst}q2`, arithmetic.register(`${dst}q3`)), arithmetic.add(`${dst}q0`, arithmetic.register(`${dst}q2`)));
      if (first) lines.push(`let ${dst} = ${first.name};`, arithmetic.add(dst, arithmetic.register(`${dst}q0`)));
      else lines.push(`let ${dst} = ${dst}q0;`);
    } else if (first) {
      lines.push(`let ${dst} = ${first.name};`);
      for (let p = 0; p < 4; p++) lines.push(fromWords(arithmetic, `${dst}q${p}`, part(p)), arithmetic.add(dst, arithmetic.register(`${dst}q${p}`)));
    } else {
      lines.push(fromWords(arithmetic, dst, part(0)));
      for (let p = 1; p < 4; p++) lines.push(fromWords(arithmetic, `${dst}q${p}`, part(p)), arithmetic.add(dst, arithmetic.register(`${dst}q${p}`)));
    }
    return lines;
  };
  /** Stores register `name` into workgroup array 0 at slot l, barrier, then q = 0 threads sum the four quarters into `dst`. */
  const reduceQuarters = (name: string, dst: string, first?: GpuRegister, phase: 'tile' | 'inverse' = 'tile'): string[] => [...storeQuarter(name), 'mpBarrier();', ...sumQuarters(dst, first, phase)];
  const tagged = (slot: string, k: number): [string, string] => [`WAtomic[${slot} * ${2 * c} + ${2 * k}]`, `WAtomic[${slot} * ${2 * c} + ${2 * k + 1}]`];
  const publish = (base: string, slot: string, name: string): string[] =>
    Array.from({ length: c }, (_, k) => {
      const [a, b] = tagged(`(${base} + ${slot})`, k);
      return `mpAtomicStore(${a}, mpBits(${word(arithmetic, name, k)})); mpAtomicStore(${b}, mpXor(mpBits(${word(arithmetic, name, k)}), key));`;
    });

  const ring = (slot: string, u: string, k: number): string => `mpShared(4, ((${slot}) * ${T} + ${col(u)}) * ${c} + ${k})`;
  const body: string[] = [
    'const l = mpLocalId();',
    rowLanes ? 'const r = mpIdiv(l, 4);' : `const r = mpImod(l, ${T});`,
    rowLanes ? 'const q = mpImod(l, 4);' : `const q = mpIdiv(l, ${T});`,
    rowLanes ? `const ri = mpImod(l, ${T});` : 'const ri = r;',
    rowLanes ? `const qi = mpIdiv(l, ${T});` : 'const qi = q;',
    'if (l === 0) { mpSharedIntSet(1, 0, mpAtomicAdd(WAtomic[0], 1)); }',
    'const raw = mpSharedIntUniform(1, 0);',
    'const ticket = mpAnd(raw, gMask);',
    `const key = mpXor(raw - ticket, ${KEY_MIX});`,
    'if (ticket === 0) {',
    // ---- the walker ----
    'let pr = mpI32(0);',
  ];
  // Software pipelining: what step s needs and does not depend on earlier steps — its row part of the inverse,
  // b, and the tiles of steps s − D … s − 1 — is loaded at the end of step s − 1 (with `ahead`, of step s − 2, and
  // carried a step in the w… registers) into loop-carried registers, so the loads are in flight while earlier steps
  // finish (a load issued in the same step tends to be sunk to its use).
  const invKind = words.emitRead('Inv', '0', 'probe', arithmetic).register.kind;
  const aKind = A.format.emitRead('A', '0', 'probe', arithmetic).register.kind;
  const stages = forms.ahead ? ['p', 'w'] : ['p'];
  for (const st of stages) {
    for (let u = 0; u < 16; u++) body.push(`let ${st}iv${u} = ${zeroOf(invKind)};`);
    body.push(`let ${st}rb = ${zeroOf(invKind)};`);
    for (let t = 1; t <= lead; t++) for (let u = 0; u < 16; u++) body.push(`let ${st}a${t}x${u} = ${zeroOf(aKind)};`);
  }
  const prefetch = (stepExpr: string, tag: string, st: string): string[] => {
    const lines = [`const ks${tag} = ${order(stepExpr)} * ${T};`, `const rs${tag} = ks${tag} + r;`];
    for (let u = 0; u < 16; u++) {
      const rd = words.emitRead('Inv', invIndex(`ks${tag}`, u), `niv${tag}${u}`, arithmetic);
      lines.push(rd.code, `${st}iv${u} = ${rd.register.name};`);
    }
    const rr = words.emitRead('R', `rs${tag}`, `nrb${tag}`, arithmetic);
    lines.push(rr.code, `${st}rb = ${rr.register.name};`);
    for (let t = 1; t <= lead; t++) {
      lines.push(`const js${tag}${t} = ${order(`mpImax(${stepExpr} - ${t}, 0)`)} * ${T};`);
      const reads = rowReads(`rs${tag}`, `js${tag}${t}`, `na${tag}${t}x`);
      lines.push(...reads.lines);
      reads.registers.forEach((ra, u) => lines.push(`${st}a${t}x${u} = ${ra.name};`, `if (rs${tag} >= n || js${tag}${t} + ${col(u)} >= n) { ${st}a${t}x${u} = ${zeroOf(aKind)}; }`));
    }
    return lines;
  };
  body.push(...prefetch('0', 'z', 'p'));
  if (forms.ahead) body.push(...prefetch('mpImin(1, blocks - 1)', 'y', 'w'));
  body.push(
    'for (let step = mpI32(0); step < blocks; step = step + 1) {',
    `const k0 = ${order('step')} * ${T};`,
    'const row = k0 + r;',
    'const rowI = k0 + ri;',
  );
  const prefetched: GpuRegister[][] = [];
  for (let t = 1; t <= lead; t++) {
    body.push(`const jt${t} = ${order(`mpImax(step - ${t}, 0)`)} * ${T};`);
    prefetched.push(Array.from({ length: 16 }, (_, u) => ({ kind: aKind, name: `pa${t}x${u}` })));
  }
  for (let k = 0; k < c; k++) body.push(`let pw${k} = mpI32(0);`);
  /** The walker's own tiles (steps s − D … s − 1), x from the ring. */
  const ownTiles = (): string[] => {
    const lines: string[] = [];
    for (let t = 1; t <= lead; t++) {
      lines.push(`if (step >= ${t}) {`, `const ring${t} = mpImod(step - ${t}, ${lead});`);
      lines.push(...tileUses(`jt${t}`, prefetched[t - 1]!, (u, k) => ring(`ring${t}`, u, k), `t${t}`));
      lines.push('}');
    }
    return lines;
  };
  /** Every earlier tile (no complete P), x read back from the plain x buffer. */
  const fallbackTiles = (): string[] => [
    `for (let s2 = mpI32(0); s2 < step - ${lead}; s2 = s2 + 1) {`,
    `const j1 = ${order('s2')} * ${T};`,
    ...tile('j1', (u, k) => `mpFloat(mpAtomicLoad(XAtomic[(j1 + ${col(u)}) * ${c} + ${k}]))`, 'f'),
    '}',
  ];
  /** One poll of P: q = 0 threads load and check their row's words; flags rotate over three slots so one barrier (the uniform load) per round suffices. */
  const pollRound = (): string[] => {
    const lines = ['const slot = 4 + mpImod(pr, 3);', 'if (q === 0) {'];
    for (let k = 0; k < c; k++) {
      const [a, b] = tagged(`(${pBase / (2 * c)} + row)`, k);
      lines.push(`const pa${k} = mpAtomicLoad(${a});`, `const pb${k} = mpAtomicLoad(${b});`, `if (mpXor(pa${k}, key) !== pb${k}) { mpSharedIntSet(1, slot, 1); }`, `pw${k} = pa${k};`);
    }
    lines.push('}', 'const bad = mpSharedIntUniform(1, slot);', 'if (l === 0) { mpSharedIntSet(1, 4 + mpImod(pr + 2, 3), 0); }', 'pr = pr + 1;');
    return lines;
  };
  /**
   * No complete P: the walker computes it itself exactly as the helper does — the same tiles into the same chains,
   * combined and reduced over the quarters in the same order — and takes it as the helper's words. The solve then
   * adds its own tiles and P as when P comes, so its bits do not depend on whether a helper was in time.
   */
  const ownP = (): string[] => [
    ...Array.from({ length: chains }, (_, k) => `acc${k} = ${arithmetic.literal(0)};`), ...fallbackTiles(), ...combineChains('acc'),
    ...reduceQuarters('acc0', 'fp'), ...Array.from({ length: c }, (_, k) => `pw${k} = mpBits(${word(arithmetic, 'fp', k)});`), '}', 'mpBarrier();',
    ...Array.from({ length: chains }, (_, k) => `acc${k} = ${arithmetic.literal(0)};`),
  ];
  const pv = fromWords(arithmetic, 'pv', Array.from({ length: c }, (_, k) => `mpFloat(pw${k})`));
  if (!forms.earlyPoll) {
    // P (the helper's sum over steps < s − D): polled at most pWait rounds.
    body.push('let have = 1.0;', `if (step > ${lead}) {`, 'have = 0.0;', 'for (let it = mpI32(0); it < pWait; it = it + 1) {', ...pollRound(), 'if (bad === 0) { have = 1.0; break; }', '}');
    // Early steps: the uniform load is the barrier that orders this step's workgroup-memory use after the last one's.
    body.push('} else {', 'if (mpSharedIntUniform(1, 7) !== 0) { have = 1.0; }', '}');
    body.push(...declareChains('acc'));
    // No complete P: the walker makes it as the helper would (ownP; the last poll's words, which some rows may have
    // read, are replaced).
    body.push('if (have < 0.5) {', ...ownP(), '}');
    body.push(...ownTiles(), ...combineChains('acc'));
    // Steps ≤ D: P is zero (pw stays 0).
    body.push(pv, ...reduceQuarters('acc0', 'sum', arithmetic.register('pv')));
  } else {
    // The barrier that orders this step's workgroup-memory use (and the ring's x) after the last step's; then P's
    // first poll is issued and checked only after the walker's own tile, at the quarters' barrier (a uniform load).
    body.push('mpBarrier();');
    for (let k = 0; k < c; k++) body.push(`let ea${k} = mpI32(0);`, `let eb${k} = mpI32(0);`);
    body.push(`if (q === 0 && step > ${lead}) {`);
    for (let k = 0; k < c; k++) {
      const [a, b] = tagged(`(${pBase / (2 * c)} + row)`, k);
      body.push(`ea${k} = mpAtomicLoad(${a});`, `eb${k} = mpAtomicLoad(${b});`);
    }
    body.push('}', ...declareChains('acc'), ...ownTiles(), ...combineChains('acc'), ...storeQuarter('acc0'));
    body.push('const slot0 = 4 + mpImod(pr, 3);', `if (q === 0 && step > ${lead}) {`);
    for (let k = 0; k < c; k++) body.push(`if (pWait < 1 || mpXor(ea${k}, key) !== eb${k}) { mpSharedIntSet(1, slot0, 1); }`, `pw${k} = ea${k};`);
    body.push('}', 'const bad0 = mpSharedIntUniform(1, slot0);', 'if (l === 0) { mpSharedIntSet(1, 4 + mpImod(pr + 2, 3), 0); }', 'pr = pr + 1;');
    // No complete P at the first poll: up to pWait − 1 more; then P made as the helper makes it (ownP) and the own
    // tiles again, their quarters stored again.
    body.push('if (bad0 !== 0) {', 'let have = 0.0;', 'for (let it = mpI32(1); it < pWait; it = it + 1) {', ...pollRound(), 'if (bad === 0) { have = 1.0; break; }', '}');
    body.push('if (have < 0.5) {', ...ownP(), ...ownTiles(), ...combineChains('acc'), ...storeQuarter('acc0'), 'mpBarrier();', '}', '}');
    body.push(pv, ...sumQuarters('sum', arithmetic.register('pv')));
  }
  body.push(arithmetic.declareSub('rhs', arithmetic.register('prb'), arithmetic.register('sum')));
  body.push(`if (row >= n) { rhs = ${zero(arithmetic)}; }`);
  for (let k = 0; k < c; k++) body.push(`mpSharedSet(3, r * ${c} + ${k}, ${word(arithmetic, 'rhs', k)});`);
  body.push('}', 'mpBarrier();');
  // x_s = Inv_s · rhs: each quarter 16 columns of its row in `chains` chains, then the four summed (numbering ri, qi).
  body.push(...declareChains('y'));
  // The 16 terms go out as one group: lazily accumulated where the arithmetic has that (mulAddGroup).
  const inverseTerms: { acc: string; a: GpuRegister; b: GpuRegister }[] = [];
  for (let u = 0; u < 16; u++) {
    body.push(fromWords(arithmetic, `rh${u}`, Array.from({ length: c }, (_, k) => `mpShared(3, ${colI(u)} * ${c} + ${k})`)));
    inverseTerms.push({ acc: `y${u % chains}`, a: { kind: invKind, name: `piv${u}` }, b: arithmetic.register(`rh${u}`) });
  }
  body.push(...mulAddGroup(arithmetic, inverseTerms));
  body.push(...combineChains('y'));
  body.push(...reduceQuarters('y0', 'xv', undefined, 'inverse'));
  for (let k = 0; k < c; k++) body.push(`mpSharedSet(4, (mpImod(step, ${lead}) * ${T} + ri) * ${c} + ${k}, ${word(arithmetic, 'xv', k)});`, `mpAtomicStore(XAtomic[rowI * ${c} + ${k}], mpBits(${word(arithmetic, 'xv', k)}));`);
  body.push(...publish('xBase', 'rowI', 'xv'));
  // A non-finite x is where multiplying by the inverse stops being substitution (./trsv-substitution-source.ts):
  // marked here (a bit test), acted on once after the walk.
  body.push('if (rowI < n) {', ...ifNonFinite(arithmetic, 'xv', 'mpSharedIntSet(1, 3, 1);', overflow), '}');
  body.push('}');
  // The next step's loads (after the product consumed piv: every thread is past its last use of them).
  if (forms.ahead) {
    for (let u = 0; u < 16; u++) body.push(`piv${u} = wiv${u};`);
    body.push('prb = wrb;');
    for (let t = 1; t <= lead; t++) for (let u = 0; u < 16; u++) body.push(`pa${t}x${u} = wa${t}x${u};`);
    body.push(...prefetch('mpImin(step + 2, blocks - 1)', 'n', 'w'));
  } else body.push(...prefetch('mpImin(step + 1, blocks - 1)', 'n', 'p'));
  body.push('}');
  // Rows are owned as in the walk (row ri by thread qi = 0 of it: local id ri), so each x word is stored by one thread only.
  const readB = (i: string, dst: string): string[] => {
    const rb = words.emitRead('R', i, `${dst}r`, arithmetic);
    return [rb.code, `let ${dst} = ${arithmetic.literal(0)};`, arithmetic.assign(dst, rb.register)];
  };
  // An exactly-zero x_i takes substitution's sign (./trsv-zero-sign-source.ts), by the thread that stored it.
  const zeroSign = zeroSignLines(arithmetic, A, shape, 'zr', { opIndex, redo: { statement: 'mpSharedIntSet(1, 3, 1);', ifNonFinite: (r, then) => ifNonFinite(arithmetic, r, then) } });
  body.push(`if (l < ${T}) {`, `for (let zr = mpI32(l); zr < n; zr = zr + ${T}) {`, ...zeroSign, '}', '}');
  body.push('if (mpSharedIntUniform(1, 3) !== 0) {', ...substitutionLines(arithmetic, A, shape, { owners: T, broadcast: 3, readB, overflow }), '}');
  // ---- the helpers ----
  body.push('} else {', `const hs = ticket + ${lead};`, 'if (hs < blocks) {', `const row = ${order('hs')} * ${T} + r;`, ...declareChains('acc'), 'let ok = 1.0;');
  body.push(`for (let s2 = mpI32(0); s2 < hs - ${lead}; s2 = s2 + 1) {`, `const jb = ${order('s2')} * ${T};`, 'let mine = 0.0;', 'let done = 0.0;');
  // The tile's loads go out before the wait for its x.
  const helperTile = tileLoads('jb', 'p');
  body.push(...helperTile.lines);
  body.push('for (let it = mpI32(0); it < spin; it = it + 1) {', 'if (l === 0) { mpSharedIntSet(1, 2, 0); }', 'mpBarrier();', `if (l < ${T} && mine < 0.5) {`);
  const checks: string[] = [];
  for (let k = 0; k < c; k++) {
    const [a, b] = tagged('(xBase + jb + l)', k);
    body.push(`const xa${k} = mpAtomicLoad(${a});`, `const xb${k} = mpAtomicLoad(${b});`);
    checks.push(`mpXor(xa${k}, key) === xb${k}`);
  }
  body.push(`if (${checks.join(' && ')}) {`, ...Array.from({ length: c }, (_, k) => `mpSharedSet(2, l * ${c} + ${k}, mpFloat(xa${k}));`), 'mine = 1.0;', '} else { mpSharedIntSet(1, 2, 1); }', '}');
  body.push('if (mpSharedIntUniform(1, 2) === 0) { done = 1.0; }', 'if (done > 0.5) { break; }', '}');
  body.push('if (done < 0.5) { ok = 0.0; break; }');
  body.push(...tileUses('jb', helperTile.registers, (u, k) => `mpShared(2, ${col(u)} * ${c} + ${k})`, 'p'));
  body.push('}', ...combineChains('acc'), 'if (ok > 0.5) {', ...reduceQuarters('acc0', 'part'), ...publish(`${pBase / (2 * c)}`, 'row', 'part'), '}', '}', '}', '}');
  body.push(arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`);
  const workgroup: WorkgroupSettings = {
    workgroupSize: TRSV_WORKGROUP,
    workgroupArrays: [{ type: 'f32', length: TRSV_WORKGROUP * c }, { type: 'i32', length: 8 }, { type: 'f32', length: T * c }, { type: 'f32', length: T * c }, { type: 'f32', length: lead * T * c }],
  };
  return { source: kernelSource(args, body), args, workgroup };
}
