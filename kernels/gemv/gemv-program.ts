/**
 * GEMV program: generates and caches the specialised loops of y := α·A·x + β·y for one signature of
 * (A, x, y, arithmetic, accumulation, loop order, α case, β case). The host passes op(A) already transposed
 * (a view with swapped strides), so there is one form only.
 *
 * Two loop orders:
 * - `dot` (row-oriented): for each row i, one reduction over the row through the accumulation strategy,
 *   then combine with y. Reads A along its second stride: fast when rows are contiguous (row-major A).
 * - `axpy` (column-oriented): for each column j, t[i] := a_ij·x_j + t[i] for all i, in a scratch vector of
 *   doubles, then combine with y. Reads A along its first stride: fast when columns are contiguous.
 *   The partial sums live in a Float64Array, which holds any value of a `number`-kind arithmetic exactly,
 *   and every t[i] sees the same operations in the same order as the recursive reduction of the dot loop,
 *   so both orders give bit-identical results. It exists only for the recursive accumulation: a compensated
 *   or extended accumulation keeps state per reduction that the column order cannot carry.
 * @module
 */
import { declareRegister, type ArithmeticFormat } from '../../src/formats/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import type { Accumulation } from '../codegen/accumulation.js';
import { Operand } from '../codegen/operand.js';
import { compileProgram, mergeHelpers } from '../codegen/program-cache.js';
import { cursor, cursorLoop, declareCursor, loadAt, stepCursor, storeAt } from '../codegen/cursor.js';
import { COMBINE_REGISTERS, emitCoefficients, emitCombine, type CoefficientCase } from './coefficients.js';

/** Loop order of a GEMV specialisation (see the module comment). */
export type GemvLoop = 'dot' | 'axpy';

/**
 * A compiled GEMV: (m, n, ...A, ...x, ...y, alpha, beta, scratch) → nothing (y updated); for α = 0 the
 * operands A and x are left out: (m, n, ...y, alpha, beta).
 */
export type GemvFunction = (m: number, n: number, ...args: unknown[]) => void;

/** Everything a GEMV specialisation depends on. */
export interface GemvSpecialisation {
  /** op(A), m×n. */
  readonly A: Accessor<2, any>;
  /** The vector multiplied (length n). */
  readonly x: Accessor<1, any>;
  /** The vector updated (length m). */
  readonly y: Accessor<1, any>;
  /** Arithmetic of every operation. */
  readonly ar: ArithmeticFormat;
  /** Summation strategy of the row reductions (the dot order only). */
  readonly acc: Accumulation;
  /** Loop order. */
  readonly loop: GemvLoop;
  /** Special case of α. */
  readonly alpha: CoefficientCase;
  /** Special case of β. */
  readonly beta: CoefficientCase;
}

/** The compiled GEMV for this specialisation (built on first use); α = 0 gives {@link scaleYProgram}'s. */
export function gemvProgram(spec: GemvSpecialisation): GemvFunction {
  const { ar, acc, loop, alpha, beta } = spec;
  if (alpha === 'zero') return scaleYProgram(spec.y, ar, beta);
  const oA = new Operand('A', spec.A);
  const ox = new Operand('x', spec.x);
  const oy = new Operand('y', spec.y);
  const key = {
    kernel: 'gemv', loop, A: oA.signature(), x: ox.signature(), y: oy.signature(), ar: ar.name,
    acc: loop === 'dot' ? acc.name : null, alpha, beta,
  };
  return compileProgram<GemvFunction>(key, () => {
    const params = ['m', 'n', ...oA.params(), ...ox.params(), ...oy.params(), 'alpha', 'beta', 'scratch'];
    // Exact reads (fp64/fp32 storage under DD arithmetic) stay plain doubles: the arithmetic specialises its multiply-add.
    const registers = [oA.valueRegister(ar, 'av'), ox.valueRegister(ar, 'xv'), ...['tv', ...COMBINE_REGISTERS].map((r) => ar.register(r))];
    const declarations = [
      ...[oA, ox, oy].map((o) => o.emitDeclare(ar)),
      ...registers.map((r) => declareRegister(ar, r)),
      acc.emitDeclare('s', ar),
      emitCoefficients(ar, alpha, beta),
    ].join('\n');
    const body = loop === 'dot' ? dotLoop(oA, ox, oy, spec) : axpyLoop(oA, ox, oy, spec);
    const source = `return function gemv_${loop}(${params.join(', ')}) {
${declarations}
${body}
};`;
    return { source, helpers: mergeHelpers(oA.helpers(), ox.helpers(), oy.helpers(), ar.helpers, acc.helpers) };
  });
}

/**
 * The compiled y := β·y of the α = 0 case of GEMV and ELL SpMV: (m, n, ...y, alpha, beta) → nothing.
 * β = 0 writes zeros without reading y.
 */
export function scaleYProgram(y: Accessor<1, any>, ar: ArithmeticFormat, beta: CoefficientCase): GemvFunction {
  const oy = new Operand('y', y);
  const key = { kernel: 'scale-y', y: oy.signature(), ar: ar.name, beta };
  return compileProgram<GemvFunction>(key, () => {
    const c = cursor(oy, 'y_c');
    const declarations = [
      oy.emitDeclare(ar),
      ...['tv', ...COMBINE_REGISTERS].map((r) => ar.emitDeclare(ar.register(r))),
      emitCoefficients(ar, 'zero', beta),
    ].join('\n');
    const source = `return function scale_y(${['m', 'n', ...oy.params(), 'alpha', 'beta'].join(', ')}) {
${declarations}
${declareCursor(c)}
for (let i = 0; i < m; i++, ${stepCursor(c, 0)}) {
${emitCombine(ar, ar.register('tv'), c, 'zero', beta)}
${storeAt(c, ar, ar.register('res'))}
}
};`;
    return { source, helpers: mergeHelpers(oy.helpers(), ar.helpers) };
  });
}

/** Row-oriented loop: one reduction per row through the accumulation strategy. */
function dotLoop(oA: Operand, ox: Operand, oy: Operand, spec: GemvSpecialisation): string {
  const { ar, acc } = spec;
  const row = cursor(oA, 'A_r');
  const a = cursor(oA, 'A_c');
  const x = cursor(ox, 'x_c');
  const y = cursor(oy, 'y_c');
  const av = oA.valueRegister(ar, 'av'), xv = ox.valueRegister(ar, 'xv'), tv = ar.register('tv');
  return `${declareCursor(row)} ${declareCursor(y)}
for (let i = 0; i < m; i++, ${stepCursor(row, 0)}, ${stepCursor(y, 0)}) {
${acc.emitReset('s', ar)}
${cursorLoop('j', 'n', [{ c: a, d: 1, from: row }, { c: x, d: 0 }], `${loadAt(a, ar, av)}
${loadAt(x, ar, xv)}
${acc.emitAddProduct('s', av, xv, ar)}`)}
${acc.emitResult(tv, 's', ar)}
${emitCombine(ar, tv, y, spec.alpha, spec.beta)}
${storeAt(y, ar, ar.register('res'))}
}`;
}

/** Column-oriented loop over a scratch Float64Array of partial sums (recursive accumulation, `number` kind only). */
function axpyLoop(oA: Operand, ox: Operand, oy: Operand, spec: GemvSpecialisation): string {
  const { ar } = spec;
  const col = cursor(oA, 'A_k');
  const a = cursor(oA, 'A_c');
  const x = cursor(ox, 'x_c');
  const y = cursor(oy, 'y_c');
  const [av, xv, tv] = ['av', 'xv', 'tv'].map((n) => ar.register(n)) as [ReturnType<typeof ar.register>, ReturnType<typeof ar.register>, ReturnType<typeof ar.register>];
  const t = tv.names[0]!;
  return `for (let i = 0; i < m; i++) scratch[i] = 0;
${declareCursor(col)} ${declareCursor(x)}
for (let j = 0; j < n; j++, ${stepCursor(col, 1)}, ${stepCursor(x, 0)}) {
${loadAt(x, ar, xv)}
${cursorLoop('i', 'm', [{ c: a, d: 0, from: col }], `${loadAt(a, ar, av)}
${t} = scratch[i];
${ar.emitFma(tv, av, xv, tv)}
scratch[i] = ${t};`)}
}
${declareCursor(y)}
for (let i = 0; i < m; i++, ${stepCursor(y, 0)}) {
${t} = scratch[i];
${emitCombine(ar, tv, y, spec.alpha, spec.beta)}
${storeAt(y, ar, ar.register('res'))}
}`;
}
