/**
 * The one-dispatch GPU TRSV kernel (issue 19): one workgroup, the walker, solves the diagonal blocks in
 * substitution order; every other workgroup, a helper, sums the contributions of the already solved blocks to
 * one later row block, so that the walker finds most of each row block's sum ready.
 *
 * Blocks are TRSV_TILE = 64 rows; a workgroup has 256 invocations: thread l is row r = l mod 64 of a tile and
 * column quarter q = ⌊l/64⌋ (16 columns of each 64-column tile), so a warp reads 32 adjacent rows of a column.
 *
 * - The walker (the workgroup that takes ticket 0 of the call) for the block of step s: reads the helper's
 *   partial sum P of its rows, published for the blocks of steps 0 … s − 2, if complete (every word carries a
 *   check word, so a partial or stale P is recognised); adds the block of step s − 1 itself (all earlier blocks
 *   when P is not there), r = b − sum, x_s = Inv_s·r (the diagonal block's inverse, computed once per matrix),
 *   and publishes x_s.
 * - The helper of ticket t sums, for the block of step t + 1, the tiles of steps 0 … t − 1 as their x become
 *   published, and publishes P. It waits for an x block at most `spin` rounds; then it gives up and the walker
 *   does that block's sum itself.
 *
 * The walker never waits for anyone, so the solve finishes without any forward-progress guarantee between
 * workgroups (WebGPU gives none); the helpers only make it faster. Cross-workgroup data goes through atomics
 * only: word w is stored as (w, w ^ key) with a key that changes every call (from the ticket counter, which
 * grows by the workgroup count per call), so a reader that sees a consistent pair saw this call's word.
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { arrayArgs, kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { WorkgroupSettings } from '../../src/backends/webgpu/gpujs-extensions.js';

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
  return arithmetic.components === 1 ? '0.0' : `[${Array(arithmetic.components).fill('0.0').join(', ')}]`;
}

/**
 * Source and arguments of the walker/helper kernel for one variant, arithmetic and storage of A (whole-binding A).
 * @param arithmetic - the GPU arithmetic
 * @param A - the matrix's device array (its format and whether it is a view)
 * @param shape - the variant
 * @returns source, argument list and workgroup settings
 */
export function walkerSource(arithmetic: GpuArithmetic, A: DeviceArray, shape: WalkerShape): { source: string; args: ReturnType<typeof arrayArgs>; workgroup: WorkgroupSettings } {
  const c = arithmetic.components;
  const T = TRSV_TILE;
  const args = [...arrayArgs('A', A), ['Inv', 'Array'] as const, ['R', 'Array'] as const, ['WAtomic', 'Array'] as const, ['XAtomic', 'Array'] as const,
    ['n', 'Integer'] as const, ['lda', 'Integer'] as const, ['np', 'Integer'] as const, ['blocks', 'Integer'] as const, ['gMask', 'Integer'] as const, ['spin', 'Integer'] as const, ['xBase', 'Integer'] as const];
  const words = arithmetic.words;
  const order = (step: string): string => (shape.lowerOp ? `(${step})` : `(blocks - 1 - (${step}))`);
  const opIndex = (row: string, col: string): string => {
    const [i, j] = shape.trans ? [col, row] : [row, col];
    return A.isView ? `AOff + ${i} * AInc + ${j} * lda` : `${i} + ${j} * lda`;
  };
  const pBase = TRSV_HEADER_WORDS;
  /** acc += Σ_u op(A)(row, j0 + u)·x_u over this thread's 16 columns, x_u read by `xWords(u, k)`. */
  const tile = (acc: string, j0: string, xWords: (u: string, k: number) => string, tag: string): string[] => {
    const lines: string[] = [];
    const uses: string[] = [];
    for (let u = 0; u < 16; u++) {
      const col = `col${tag}${u}`;
      const ra = A.format.emitRead('A', opIndex('row', col), `a${tag}${u}`, arithmetic);
      lines.push(`const ${col} = ${j0} + ${u};`, ra.code, fromWords(arithmetic, `x${tag}${u}`, Array.from({ length: c }, (_, k) => xWords(String(u), k))));
      const xr: GpuRegister = arithmetic.register(`x${tag}${u}`);
      uses.push(`if (row < n && ${col} < n) {`, arithmetic.mulAdd(acc, ra.register, xr), '}');
    }
    return [...lines, ...uses];
  };
  /** Stores register `name` into workgroup array 0 at slot l, barrier, then q = 0 threads sum the four quarters into `dst`. */
  const reduceQuarters = (name: string, dst: string, first?: GpuRegister): string[] => {
    const lines = Array.from({ length: c }, (_, k) => `mpSharedSet(0, l * ${c} + ${k}, ${word(arithmetic, name, k)});`);
    lines.push('mpBarrier();', 'if (q === 0) {');
    const part = (p: number): string[] => Array.from({ length: c }, (_, k) => `mpShared(0, (r + ${p * T}) * ${c} + ${k})`);
    if (first) {
      lines.push(`let ${dst} = ${first.name};`);
      for (let p = 0; p < 4; p++) lines.push(fromWords(arithmetic, `${dst}q${p}`, part(p)), arithmetic.add(dst, arithmetic.register(`${dst}q${p}`)));
    } else {
      lines.push(fromWords(arithmetic, dst, part(0)));
      for (let p = 1; p < 4; p++) lines.push(fromWords(arithmetic, `${dst}q${p}`, part(p)), arithmetic.add(dst, arithmetic.register(`${dst}q${p}`)));
    }
    return lines;
  };
  const tagged = (slot: string, k: number): [string, string] => [`WAtomic[${slot} * ${2 * c} + ${2 * k}]`, `WAtomic[${slot} * ${2 * c} + ${2 * k + 1}]`];
  const publish = (base: string, slot: string, name: string): string[] =>
    Array.from({ length: c }, (_, k) => {
      const [a, b] = tagged(`(${base} + ${slot})`, k);
      return `mpAtomicStore(${a}, mpBits(${word(arithmetic, name, k)})); mpAtomicStore(${b}, mpXor(mpBits(${word(arithmetic, name, k)}), key));`;
    });

  const body: string[] = [
    'const l = mpLocalId();',
    `const r = mpImod(l, ${T});`,
    `const q = mpIdiv(l, ${T});`,
    'if (l === 0) { mpSharedIntSet(1, 0, mpAtomicAdd(WAtomic[0], 1)); }',
    'const raw = mpSharedIntUniform(1, 0);',
    'const ticket = mpAnd(raw, gMask);',
    `const key = mpXor(raw - ticket, ${KEY_MIX});`,
    'if (ticket === 0) {',
    // ---- the walker ----
    'for (let step = mpI32(0); step < blocks; step = step + 1) {',
    `const k0 = ${order('step')} * ${T};`,
    'const row = k0 + r;',
    // Loads that do not depend on the previous block go first: the inverse's row part and b.
  ];
  for (let u = 0; u < 16; u++) body.push(words.emitRead('Inv', `r * np + k0 + q * 16 + ${u}`, `iv${u}`, arithmetic).code);
  const rb = words.emitRead('R', 'row', 'rb', arithmetic);
  body.push(rb.code);
  body.push('if (l === 0) { mpSharedIntSet(1, 1, 1); }', 'mpBarrier();');
  for (let k = 0; k < c; k++) body.push(`let pw${k} = mpI32(0);`);
  body.push('if (step >= 2 && q === 0) {');
  for (let k = 0; k < c; k++) {
    const [a, b] = tagged(`(${pBase / (2 * c)} + row)`, k);
    body.push(`const pa${k} = mpAtomicLoad(${a});`, `const pb${k} = mpAtomicLoad(${b});`, `if (mpXor(pa${k}, key) !== pb${k}) { mpSharedIntSet(1, 1, 0); }`, `pw${k} = pa${k};`);
  }
  body.push('}', 'const have = mpSharedIntUniform(1, 1);');
  body.push(arithmetic.declareZero('acc'));
  // Common path: P holds steps < s − 1; the walker adds step s − 1 from the x it kept in workgroup memory.
  body.push('if (have === 1) {', 'if (step >= 1) {', `const j0 = ${order('step - 1')} * ${T} + q * 16;`);
  body.push(...tile('acc', 'j0', (u, k) => `mpShared(2, (q * 16 + ${u}) * ${c} + ${k})`, 'h'));
  body.push('}', '} else {');
  // Fallback: no (complete) P: every earlier block, x read back from the plain x buffer.
  body.push('for (let s2 = mpI32(0); s2 < step; s2 = s2 + 1) {', `const j1 = ${order('s2')} * ${T} + q * 16;`);
  body.push(...tile('acc', 'j1', (u, k) => `mpFloat(mpAtomicLoad(XAtomic[(j1 + ${u}) * ${c} + ${k}]))`, 'f'));
  body.push('}', '}');
  // have === 1 with step < 2: P is zero (nothing published, nothing needed).
  body.push(fromWords(arithmetic, 'pv', Array.from({ length: c }, (_, k) => `mpFloat(pw${k})`)));
  body.push(...reduceQuarters('acc', 'sum', arithmetic.register('pv')));
  body.push(arithmetic.declareSub('rhs', rb.register, arithmetic.register('sum')));
  body.push(`if (row >= n) { rhs = ${zero(arithmetic)}; }`);
  for (let k = 0; k < c; k++) body.push(`mpSharedSet(3, r * ${c} + ${k}, ${word(arithmetic, 'rhs', k)});`);
  body.push('}', 'mpBarrier();');
  // x_s = Inv_s · rhs: each quarter 16 columns of its row, then the four summed.
  body.push(arithmetic.declareZero('y'));
  for (let u = 0; u < 16; u++) {
    body.push(fromWords(arithmetic, `rh${u}`, Array.from({ length: c }, (_, k) => `mpShared(3, (q * 16 + ${u}) * ${c} + ${k})`)));
    body.push(arithmetic.mulAdd('y', arithmetic.register(`iv${u}`), arithmetic.register(`rh${u}`)));
  }
  body.push(...reduceQuarters('y', 'xv'));
  for (let k = 0; k < c; k++) body.push(`mpSharedSet(2, r * ${c} + ${k}, ${word(arithmetic, 'xv', k)});`, `mpAtomicStore(XAtomic[row * ${c} + ${k}], mpBits(${word(arithmetic, 'xv', k)}));`);
  body.push(...publish('xBase', 'row', 'xv'));
  body.push('}', 'mpBarrier();', '}');
  // ---- the helpers ----
  body.push('} else {', 'const hs = ticket + 1;', 'if (hs < blocks) {', `const row = ${order('hs')} * ${T} + r;`, arithmetic.declareZero('acc'), 'let ok = 1.0;');
  body.push('for (let s2 = mpI32(0); s2 < hs - 1; s2 = s2 + 1) {', `const jb = ${order('s2')} * ${T};`, 'let mine = 0.0;', 'let done = 0.0;');
  body.push('for (let it = mpI32(0); it < spin; it = it + 1) {', 'if (l === 0) { mpSharedIntSet(1, 2, 0); }', 'mpBarrier();', `if (l < ${T} && mine < 0.5) {`);
  const checks: string[] = [];
  for (let k = 0; k < c; k++) {
    const [a, b] = tagged('(xBase + jb + l)', k);
    body.push(`const xa${k} = mpAtomicLoad(${a});`, `const xb${k} = mpAtomicLoad(${b});`);
    checks.push(`mpXor(xa${k}, key) === xb${k}`);
  }
  body.push(`if (${checks.join(' && ')}) {`, ...Array.from({ length: c }, (_, k) => `mpSharedSet(2, l * ${c} + ${k}, mpFloat(xa${k}));`), 'mine = 1.0;', '} else { mpSharedIntSet(1, 2, 1); }', '}');
  body.push('if (mpSharedIntUniform(1, 2) === 0) { done = 1.0; }', 'if (done > 0.5) { break; }', '}');
  body.push('if (done < 0.5) { ok = 0.0; break; }', 'const j2 = jb + q * 16;');
  body.push(...tile('acc', 'j2', (u, k) => `mpShared(2, (q * 16 + ${u}) * ${c} + ${k})`, 'p'));
  body.push('}', 'if (ok > 0.5) {', ...reduceQuarters('acc', 'part'), ...publish(`${pBase / (2 * c)}`, 'row', 'part'), '}', '}', '}', '}');
  body.push(arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`);
  const workgroup: WorkgroupSettings = {
    workgroupSize: TRSV_WORKGROUP,
    workgroupArrays: [{ type: 'f32', length: TRSV_WORKGROUP * c }, { type: 'i32', length: 4 }, { type: 'f32', length: T * c }, { type: 'f32', length: T * c }],
  };
  return { source: kernelSource(args, body), args, workgroup };
}
