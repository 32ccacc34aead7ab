/**
 * GEMV N in one dispatch (the `gemvFusedFinish` switch, issue 19 item 4): the R-rows partial pass and the finish pass
 * (../../src/backends/webgpu/finish-pass.ts) in one program, with the two-pass default's bits.
 *
 * The partial pass's threads are laid out as chunk × padded row groups (thread ch·Gp + g, Gp = G rounded up to the
 * 64-invocation workgroup), so a workgroup holds 64 row groups of one chunk and a row block's S workgroups — one per
 * chunk — hold every partial of its rows. Each thread publishes its R partials (slots as the default's partial buffer:
 * chunk·G·R + row), then its workgroup takes a ticket on its row block's counter; the workgroup that draws the block's
 * last ticket resets the counter and, one invocation per row group, adds each row's S partials in chunk order, applies
 * α and β and stores y's words in y's format — what the finish pass's threads do for those rows. No workgroup waits for
 * another.
 *
 * Memory ordering: as the one-dispatch DOT (../dot/dot-fused-finish-source.ts): relaxed atomics give coherence per
 * word only, so partial slots come in two regions alternating per call (a parity uniform), each call resetting the
 * other region to the empty pattern; a word read is this call's value or the empty pattern, and a partial found empty
 * is recomputed by the reader with the partial pass's own lines (counted in word 5). y's words go through an atomic
 * binding too (the finishing workgroup is known only at run time, so they cannot be the program's own output) and are
 * read by later dispatches only.
 *
 * The atomic buffer's words: 5 the miss counter, 8… the row blocks' counters, then the partial slots (2 regions ×
 * S·G·R partials × the arithmetic's words) from a multiple of 4.
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { finishArgs } from '../../src/backends/webgpu/finish-pass.js';
import { elementIndex, kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { ArgType, ProgramSpec } from '../../src/backends/webgpu/program.js';

/** Invocations per workgroup: row groups per row block. */
export const GEMV_FUSED_WORKGROUP = 64;
/** Word of the miss counter. */
export const GEMV_FUSED_MISSES = 5;
/** First word of the row blocks' counters. */
const BLOCK_COUNTERS = 8;
/** The empty-slot pattern (as the i32 the atomics return). */
const SENTINEL = -1;
/** Partials of a row loaded before they are added (as the finish pass's default batch; the order does not depend on it). */
const BATCH = 8;

/** Where the words lie for S chunks of G row groups of R rows, partials of `words` words. */
export function gemvFusedLayout(S: number, G: number, R: number, words: number): { padded: number; blocks: number; slots: number; total: number } {
  const padded = Math.ceil(G / GEMV_FUSED_WORKGROUP) * GEMV_FUSED_WORKGROUP;
  const blocks = padded / GEMV_FUSED_WORKGROUP;
  const slots = Math.ceil((BLOCK_COUNTERS + blocks) / 4) * 4;
  return { padded, blocks, slots, total: slots + 2 * S * G * R * words };
}

/** The atomic buffer's first contents: counters 0, every slot empty. */
export function gemvFusedInitialWords(layout: { slots: number; total: number }): Uint32Array {
  const data = new Uint32Array(layout.total);
  data.fill(0xffffffff, layout.slots);
  return data;
}

/**
 * Whether y's format can be written by the one-dispatch form: its `emitReturn` ends in one `return <expression>;`
 * (the expression becomes y's words, stored through atomics).
 */
export function fusedReturnExpression(y: DeviceArray, values: readonly GpuRegister[]): { code: string; value: string } | undefined {
  const text = y.format.emitReturn(values);
  const match = /^([\s\S]*?)\breturn ([^;]*);\s*$/.exec(text);
  if (!match || match[1]!.includes('return')) return undefined;
  return { code: match[1]!, value: match[2]! };
}

/** The partial pass's arguments and its lines leaving thread `thread`'s R rows in acc0 … acc{R−1} (./gemv-row-group-source.ts). */
export type PartialRowsLines = (thread: string) => { readonly args: readonly (readonly [string, ArgType])[]; readonly body: readonly string[] };

/**
 * The one-dispatch GEMV N program. Uniforms: the partial pass's (m, n, lda, chunk, G, …), S (chunks), Gp (padded row
 * groups), L0 (first slot word), par (the call's parity), and the finish pass's (rows, α, β, Yold when β ≠ 0); bindings
 * `PAtomic` (counters and slots) and `YAtomic` (y's new words). Dispatch Gp·S threads; the own output is never stored.
 * @param arithmetic - the arithmetic
 * @param y - the output (packed)
 * @param readsY - whether β ≠ 0
 * @param R - rows per thread (even)
 * @param partial - the partial pass's lines for a thread index
 * @param recomputeAll - treat every published partial as missing (tests)
 * @returns the program spec
 */
export function gemvFusedFinishSpec(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, R: number, partial: PartialRowsLines, recomputeAll: boolean): ProgramSpec {
  const c = arithmetic.components;
  const own = partial('(ch * G + gg)');
  const args: (readonly [string, ArgType])[] = [...own.args, ['S', 'Integer'], ['Gp', 'Integer'], ['L0', 'Integer'], ['par', 'Integer'], ...finishArgs(arithmetic, y, readsY), ['PAtomic', 'Array'], ['YAtomic', 'Array']];
  const w = (name: string, k: number): string => (c === 1 ? name : `${name}[${k}]`);
  const slot = (base: string, chunk: string, r: number, k: number): string => `PAtomic[(${base} + ${chunk} * G * ${R} + gg * ${R} + ${r}) * ${c} + ${k}]`;
  const body: string[] = [
    'const l = mpLocalId();',
    'const wg = mpGroupId();',
    `const nb = mpIdiv(Gp, ${GEMV_FUSED_WORKGROUP});`,
    'const ch = mpIdiv(wg, nb);',
    'const blk = mpImod(wg, nb);',
    `const gg = blk * ${GEMV_FUSED_WORKGROUP} + l;`,
    `const s0 = mpIdiv(L0, ${c}) + par * S * G * ${R};`,
    `const s1 = mpIdiv(L0, ${c}) + (1 - par) * S * G * ${R};`,
    'if (gg < G) {',
    ...own.body,
  ];
  for (let r = 0; r < R; r++) for (let k = 0; k < c; k++) body.push(`mpAtomicStore(${slot('s0', 'ch', r, k)}, mpBits(${w(`acc${r}`, k)}));`, `mpAtomicStore(${slot('s1', 'ch', r, k)}, ${SENTINEL});`);
  body.push(
    '}',
    // Orders the workgroup's stores before its ticket within the workgroup (and in practice in the shared cache);
    // correctness does not rest on it (module comment).
    'mpStorageBarrier();',
    `if (l === 0) { mpSharedIntSet(0, 0, mpAtomicAdd(PAtomic[${BLOCK_COUNTERS} + blk], 1)); }`,
    'const tk = mpSharedIntUniform(0, 0);',
    'if (tk === S - 1) {',
    `if (l === 0) { mpAtomicStore(PAtomic[${BLOCK_COUNTERS} + blk], 0); }`,
    'mpStorageBarrier();',
    'if (gg < G) {',
    ...finishRows(arithmetic, y, readsY, R, partial, slot, recomputeAll),
    '}',
    '}',
    'if (m > 0) { mpNoStore(); }',
    'return 0.0;',
  );
  return {
    source: kernelSource(args, body),
    args,
    components: 1,
    workgroup: { workgroupSize: GEMV_FUSED_WORKGROUP, workgroupArrays: [{ type: 'i32', length: 2 }] },
  };
}

/**
 * Lines of the finishing invocation of row group gg: each of its R rows' S partials added in chunk order (batches of
 * {@link BATCH} loads, a missing chunk's partials recomputed with the partial pass's lines), then α·sum (+ β·y_old), 0
 * past the last row, y's words stored — as the finish pass's threads (finish-pass.ts, finishBody) for these rows.
 */
function finishRows(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, R: number, partial: PartialRowsLines, slot: (base: string, chunk: string, r: number, k: number) => string, recomputeAll: boolean): string[] {
  const c = arithmetic.components;
  const lines = [arithmetic.scalar.declare('al', 'alpha')];
  if (readsY) lines.push(arithmetic.scalar.declare('be', 'beta'));
  for (let r = 0; r < R; r++) lines.push(arithmetic.declareZero(`fs${r}`));
  lines.push('let cb = mpI32(0);', 'while (cb < S) {');
  for (let q = 0; q < BATCH; q++) {
    lines.push(`let cq${q} = cb + ${q};`, `if (cq${q} >= S) { cq${q} = S - 1; }`, `let mq${q} = ${recomputeAll ? 1 : 0};`);
    for (let r = 0; r < R; r++) {
      const words = Array.from({ length: c }, (_, k) => `fw${q}r${r}x${k}`);
      words.forEach((wd, k) => lines.push(`const ${wd} = mpAtomicLoad(${slot('s0', `cq${q}`, r, k)});`, `if (${wd} === ${SENTINEL}) { mq${q} = 1; }`));
      lines.push(`let fp${q}r${r} = ${c === 1 ? `mpFloat(${words[0]})` : `[${words.map((wd) => `mpFloat(${wd})`).join(', ')}]`};`);
    }
  }
  // One copy of the partial pass's lines, for whichever chunk of the batch is missing.
  lines.push(`for (let fq = mpI32(0); fq < ${BATCH}; fq++) {`, 'let fneed = 0;', 'let fk = mpI32(0);');
  for (let q = 0; q < BATCH; q++) lines.push(`if (fq === ${q}) { fneed = mq${q}; fk = cq${q}; }`);
  lines.push('if (fneed > 0) {', ...partial('(fk * G + gg)').body);
  for (let q = 0; q < BATCH; q++) {
    const assign = Array.from({ length: R }, (_, r) => `fp${q}r${r} = ${c === 1 ? `acc${r}` : `[${Array.from({ length: c }, (_, k) => `acc${r}[${k}]`).join(', ')}]`};`);
    lines.push(`if (fq === ${q}) { ${assign.join(' ')} }`);
  }
  lines.push(`const fmc = mpAtomicAdd(PAtomic[${GEMV_FUSED_MISSES}], 1);`, '}', '}');
  for (let q = 0; q < BATCH; q++) {
    lines.push(`if (cb + ${q} < S) {`);
    for (let r = 0; r < R; r++) lines.push(arithmetic.add(`fs${r}`, arithmetic.register(`fp${q}r${r}`)));
    lines.push('}');
  }
  lines.push(`cb = cb + ${BATCH};`, '}');
  // α and β per row, as finishBody; rows past the last are stored as 0.
  const results: GpuRegister[] = [];
  for (let r = 0; r < R; r++) {
    lines.push(`const yr${r} = gg * ${R} + ${r};`);
    lines.push(arithmetic.declareMul(`fu${r}`, arithmetic.register(`fs${r}`), arithmetic.register('al')));
    if (readsY) {
      const read = y.format.emitRead('Yold', elementIndex('Yold', y, `yr${r}`), `fyo${r}`, arithmetic);
      lines.push(read.code, arithmetic.declareMul(`fv${r}`, read.register, arithmetic.register('be')), arithmetic.add(`fu${r}`, arithmetic.register(`fv${r}`)));
    }
    lines.push(`if (yr${r} >= rows) { fu${r} = ${arithmetic.literal(0)}; }`);
    results.push(arithmetic.register(`fu${r}`));
  }
  // y's words: elementsPerWord rows a word (R is a multiple of it), each word's `words` output words through YAtomic.
  const epw = y.format.elementsPerWord;
  const out = y.format.wordsPerElement >= 1 ? y.format.wordsPerElement : 1;
  for (let j = 0; j < R / epw; j++) {
    const ret = fusedReturnExpression(y, results.slice(j * epw, (j + 1) * epw));
    if (!ret) throw new Error(`internal: ${y.format.name}'s emitReturn is not one return statement`);
    const word = `(gg * ${R / epw} + ${j})`;
    lines.push(`if (${word} * ${epw} < rows) {`, ret.code, `const fy${j} = ${ret.value};`);
    for (let k = 0; k < out; k++) lines.push(`mpAtomicStore(YAtomic[${word} * ${out} + ${k}], mpBits(${out === 1 ? `fy${j}` : `fy${j}[${k}]`}));`);
    lines.push('}');
  }
  return lines;
}
