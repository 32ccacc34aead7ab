/**
 * GEMV N in one dispatch with the reduction split inside a workgroup (the `gemvWorkgroupSplit` switch, issue 19 item 4):
 * a workgroup of W invocations holds B = ⌊W/S⌋ row groups times all S column chunks of the R-rows partial pass, so
 * every partial of its B·R rows is computed inside it. Invocation l takes row group wg·B + (l mod B) and chunk ⌊l/B⌋
 * (adjacent invocations: adjacent row groups of one column), runs the partial pass's own lines for that thread
 * (./gemv-row-group-source.ts), and leaves its R partials in workgroup memory; after a barrier, one invocation per
 * output word of y adds each of its rows' S partials in chunk order, applies α and β and stores y's word — what the
 * finish pass's thread does for that word (../../src/backends/webgpu/finish-pass.ts, finishBody), so y has the
 * two-pass default's bits. No partial buffer, no second dispatch, no atomics between workgroups (unlike
 * ./gemv-fused-finish-source.ts): nothing waits on another workgroup.
 *
 * y's words go through an atomic binding (`YAtomic`, y's next buffer: the finishing invocation's index is not its
 * output unit), as in the one-dispatch form with tickets. Needs S ≤ W.
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { finishArgs } from '../../src/backends/webgpu/finish-pass.js';
import { elementIndex, kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { ArgType, ProgramSpec } from '../../src/backends/webgpu/program.js';
import { fusedReturnExpression, type PartialRowsLines } from './gemv-fused-finish-source.js';

/**
 * Row groups per workgroup and workgroups for S chunks of G row groups in workgroups of W invocations: B ≤ W/S, so
 * that every (chunk, row group) has an invocation, and B·R ≤ W·epw, so that every word of the workgroup's B·R rows of
 * y has an invocation to finish it (with S < R/epw the first bound alone left rows unstored: the GPU GMRES of
 * docs/solvers.md broke down on them, session 19).
 * @param S - chunks (≤ W)
 * @param G - row groups
 * @param W - invocations per workgroup
 * @param R - rows per thread
 * @param epw - y's elements per word
 * @returns B (row groups a workgroup) and the workgroup count
 */
export function gemvWorkgroupSplitLayout(S: number, G: number, W: number, R = 1, epw = 1): { B: number; workgroups: number } {
  const B = Math.max(1, Math.min(Math.floor(W / S), Math.floor((W * epw) / R)));
  return { B, workgroups: Math.ceil(G / B) };
}

/**
 * Words of workgroup memory the program declares: every partial of a workgroup, W·R of the arithmetic's words at most.
 * @param W - invocations per workgroup
 * @param R - rows per thread
 * @param words - the arithmetic's words
 * @returns the length in 4-byte words
 */
export function gemvWorkgroupSplitMemory(W: number, R: number, words: number): number {
  return W * R * words;
}

/**
 * The program. Uniforms: the partial pass's (m, n, lda, chunk, G, …), S (chunks), B (row groups a workgroup), and the
 * finish pass's (rows, α, β, Yold when β ≠ 0); binding `YAtomic` (y's new words). Dispatch workgroups·W threads; the
 * program's own output is never stored.
 * @param arithmetic - the arithmetic
 * @param y - the output (packed)
 * @param readsY - whether β ≠ 0
 * @param R - rows per thread (a multiple of y's elements per word)
 * @param W - invocations per workgroup
 * @param partial - the partial pass's lines for a thread index
 * @returns the program spec
 */
export function gemvWorkgroupSplitSpec(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, R: number, W: number, partial: PartialRowsLines): ProgramSpec {
  const c = arithmetic.components;
  const own = partial('(s * G + gg)');
  // A thread of the partial pass that would store its own partials (gemvFfFourRows) declares the partial buffer; here
  // the partials stay in workgroup memory, so that binding is not needed.
  const partialArgs = own.args.filter(([name]) => name !== 'PAtomic');
  const args: (readonly [string, ArgType])[] = [...partialArgs, ['S', 'Integer'], ['B', 'Integer'], ...finishArgs(arithmetic, y, readsY), ['YAtomic', 'Array']];
  const word = (name: string, k: number): string => (c === 1 ? name : `${name}[${k}]`);
  // Partial (chunk s, local row q) at word (s·B·R + q)·c + k: local row q = b·R + r of row group b.
  const body: string[] = [
    'const l = mpLocalId();',
    'const wg = mpGroupId();',
    'const s = mpIdiv(l, B);',
    'const gg = wg * B + mpImod(l, B);',
    'if (s < S && gg < G) {',
    ...own.body,
  ];
  for (let r = 0; r < R; r++) for (let k = 0; k < c; k++) body.push(`mpSharedSet(0, ((s * B + mpImod(l, B)) * ${R} + ${r}) * ${c} + ${k}, ${word(`acc${r}`, k)});`);
  body.push('}', 'mpBarrier();', ...finishWord(arithmetic, y, readsY, R), 'if (m > 0) { mpNoStore(); }', 'return 0.0;');
  return {
    source: kernelSource(args, body),
    args,
    components: 1,
    workgroup: { workgroupSize: W, workgroupArrays: [{ type: 'f32', length: gemvWorkgroupSplitMemory(W, R, c) }] },
  };
}

/**
 * Lines of the invocation that finishes local word l of its workgroup's B·R rows: each of the word's rows gets its S
 * partials added in chunk order from zero, then α·sum (+ β·y_old), 0 past the last row, and the word stored.
 */
function finishWord(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, R: number): string[] {
  const c = arithmetic.components;
  const epw = y.format.elementsPerWord;
  const out = y.format.wordsPerElement >= 1 ? y.format.wordsPerElement : 1;
  // The workgroup's first row is a multiple of R, so of epw: its words start at (wg·B·R)/epw.
  const lines = [
    `const fw = mpIdiv(wg * B * ${R}, ${epw}) + l;`,
    `if (l * ${epw} < B * ${R} && mpIdiv(wg * B * ${R} + l * ${epw}, ${R}) < G && fw * ${epw} < rows) {`,
    arithmetic.scalar.declare('al', 'alpha'),
  ];
  if (readsY) lines.push(arithmetic.scalar.declare('be', 'beta'));
  const results: GpuRegister[] = [];
  for (let e = 0; e < epw; e++) {
    const q = `(l * ${epw} + ${e})`;
    const value = Array.from({ length: c }, (_, k) => `mpShared(0, (fc${e} * B * ${R} + ${q}) * ${c} + ${k})`);
    lines.push(
      `const yr${e} = fw * ${epw} + ${e};`,
      arithmetic.declareZero(`fs${e}`),
      `for (let fc${e} = mpI32(0); fc${e} < S; fc${e}++) {`,
      `const fp${e} = ${c === 1 ? value[0] : `[${value.join(', ')}]`};`,
      arithmetic.add(`fs${e}`, arithmetic.register(`fp${e}`)),
      '}',
      arithmetic.declareMul(`fu${e}`, arithmetic.register(`fs${e}`), arithmetic.register('al')),
    );
    if (readsY) {
      const read = y.format.emitRead('Yold', elementIndex('Yold', y, `yr${e}`), `fyo${e}`, arithmetic);
      lines.push(read.code, arithmetic.declareMul(`fv${e}`, read.register, arithmetic.register('be')), arithmetic.add(`fu${e}`, arithmetic.register(`fv${e}`)));
    }
    lines.push(`if (yr${e} >= rows) { fu${e} = ${arithmetic.literal(0)}; }`);
    results.push(arithmetic.register(`fu${e}`));
  }
  const ret = fusedReturnExpression(y, results);
  if (!ret) throw new Error(`internal: ${y.format.name}'s emitReturn is not one return statement`);
  lines.push(ret.code, `const fy = ${ret.value};`);
  for (let k = 0; k < out; k++) lines.push(`mpAtomicStore(YAtomic[fw * ${out} + ${k}], mpBits(${out === 1 ? 'fy' : `fy[${k}]`}));`);
  lines.push('}');
  return lines;
}
