/**
 * GEMV program: generates and caches the specialised loops of y := α·A·x + β·y for one signature of
 * (A, x, y, arithmetic, accumulation, loop order, α case, β case). The host passes op(A) already transposed
 * (a view with swapped strides), so there is one form only.
 *
 * Two loop orders:
 * - `dot` (row-oriented): for each row i, one reduction over the row through the accumulation strategy,
 *   then combine with y. Reads A along its second stride: fast when rows are contiguous (row-major A).
 * - `dot-blocked` (rows in blocks): the reductions of a few ({@link gemvRowBlock}) consecutive rows advance together,
 *   column by column, each in its own accumulator; leftover rows run the `dot` loop. Each row still adds its
 *   products in column order, so the result is bit-identical to `dot` for every accumulation, but A is read
 *   in runs of the block's rows: fast when columns are contiguous (column-major A) and the partial sums
 *   cannot live in a vector of doubles (double-double, RNS, compensated accumulations).
 * - `axpy` (column-oriented): for each column j, t[i] := a_ij·x_j + t[i] for all i, in a scratch vector of
 *   doubles, then combine with y. Reads A along its first stride: fast when columns are contiguous.
 *   The partial sums live in a Float64Array, which holds any value of a `number`-kind arithmetic exactly,
 *   and every t[i] sees the same operations in the same order as the recursive reduction of the dot loop,
 *   so both orders give bit-identical results. It exists only for the recursive accumulation: a compensated
 *   or extended accumulation keeps state per reduction that the column order cannot carry.
 * @module
 */
import { declareRegister, type ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import type { Accumulation } from '../shared/accumulation.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, cursorLoop, declareCursor, loadAt, stepCursor, storeAt, type Cursor } from '../../src/backends/cpu/cursor.js';
import { COMBINE_REGISTERS, emitCoefficients, emitCombine, type CoefficientCase } from './coefficients.js';

/** Loop order of a GEMV specialisation (see the module comment). */
export type GemvLoop = 'dot' | 'dot-blocked' | 'axpy';

/** The values `options.loop` of GEMV (and of its bound) accepts. */
export const GEMV_LOOP_CHOICES = ['auto', 'dot', 'dot-blocked', 'axpy'] as const;

/**
 * Rows per block of the `dot-blocked` loop for an arithmetic. Why 4: with column-major A it reads 4 consecutive
 * elements per column, and four double-double accumulators still fit x86-64's 16 vector registers. Why 16 for
 * multiple precision (kind `mp`): its registers live in memory anyway, and each column step of a column-major
 * mp_array touches new cache lines and pages in every field array (residues, sign, exponent, eval), so more rows
 * share each miss. Measured (2-core VM, 2026-11-22, column-major A, trans 'N'): RNS 424 bits n = 1000, row by
 * row 378 ns per element, 4 rows 287, 8 rows 275, 16 rows 261; fp64 data in DD arithmetic n = 2000, 11.3 → 9.7 ns
 * with 4 rows (8: the same).
 */
export function gemvRowBlock(ar: ArithmeticFormat): number {
  return ar.kind === 'mp' ? 16 : 4;
}

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
  /** Summation strategy of the row reductions (the dot orders; axpy is recursive only). */
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
    acc: loop === 'axpy' ? null : acc.name, alpha, beta,
  };
  return compileProgram<GemvFunction>(key, () => {
    const params = ['m', 'n', ...oA.params(), ...ox.params(), ...oy.params(), 'alpha', 'beta', 'scratch'];
    // Exact reads (fp64/fp32 storage under DD arithmetic) stay plain doubles: the arithmetic specialises its multiply-add.
    const registers = [oA.valueRegister(ar, 'av'), ox.valueRegister(ar, 'xv'), ...['tv', ...COMBINE_REGISTERS].map((r) => ar.register(r))];
    const declarations = [
      ...[oA, ox, oy].map((o) => o.emitDeclare(ar)),
      ...registers.map((r) => declareRegister(ar, r)),
      acc.emitDeclare('s', ar),
      ...(loop === 'dot-blocked' ? blockBases(ar).map((b) => acc.emitDeclare(b, ar)) : []),
      emitCoefficients(ar, alpha, beta),
    ].join('\n');
    const body = loop === 'dot' ? dotLoop(oA, ox, oy, spec) : loop === 'dot-blocked' ? blockedDotLoop(oA, ox, oy, spec) : axpyLoop(oA, ox, oy, spec);
    const source = `return function gemv_${loop.replace('-', '_')}(${params.join(', ')}) {
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
  const row = cursor(oA, 'A_r');
  const y = cursor(oy, 'y_c');
  return `${declareCursor(row)} ${declareCursor(y)}
${rowLoop('let i = 0', row, y, ox, spec)}`;
}

/**
 * `for (init; i < m; …)` over rows with the cursors `row` (start of the row in A) and `y`: one reduction per
 * row (accumulator `s`), combined with y and stored.
 */
function rowLoop(init: string, row: Cursor, y: Cursor, ox: Operand, spec: GemvSpecialisation): string {
  const { ar, acc } = spec;
  const oA = row.operand;
  const a = cursor(oA, 'A_c');
  const x = cursor(ox, 'x_c');
  const av = oA.valueRegister(ar, 'av'), xv = ox.valueRegister(ar, 'xv'), tv = ar.register('tv');
  return `for (${init}; i < m; i++, ${stepCursor(row, 0)}, ${stepCursor(y, 0)}) {
${acc.emitReset('s', ar)}
${cursorLoop('j', 'n', [{ c: a, d: 1, from: row }, { c: x, d: 0 }], `${loadAt(a, ar, av)}
${loadAt(x, ar, xv)}
${acc.emitAddProduct('s', av, xv, ar)}`)}
${acc.emitResult(tv, 's', ar)}
${emitCombine(ar, tv, y, spec.alpha, spec.beta)}
${storeAt(y, ar, ar.register('res'))}
}`;
}

/** Accumulator names of the `dot-blocked` loop, one per row of a block. */
const blockBases = (ar: ArithmeticFormat): string[] => Array.from({ length: gemvRowBlock(ar) }, (_, r) => `s${r}`);

/** Rows in blocks of {@link gemvRowBlock} rows, advanced column by column; the leftover rows as in `dot`. */
function blockedDotLoop(oA: Operand, ox: Operand, oy: Operand, spec: GemvSpecialisation): string {
  const { ar, acc } = spec;
  const row = cursor(oA, 'A_r');
  const y = cursor(oy, 'y_c');
  const a = cursor(oA, 'A_c');
  const ab = cursor(oA, 'A_b');
  const x = cursor(ox, 'x_c');
  const av = oA.valueRegister(ar, 'av'), xv = ox.valueRegister(ar, 'xv'), tv = ar.register('tv');
  const bases = blockBases(ar);
  const R = bases.length;
  // x_j is loaded once per column and shared by the block's rows: a multiply-add leaves its operands' values as
  // they were (the Accumulation contract).
  const column = `${loadAt(x, ar, xv)}\n` + bases.map((b, r) => `${r > 0 ? `${stepCursor(ab, 0)};\n` : ''}${loadAt(ab, ar, av)}
${acc.emitAddProduct(b, av, xv, ar)}`).join('\n');
  const results = bases.map((b) => `${acc.emitResult(tv, b, ar)}
${emitCombine(ar, tv, y, spec.alpha, spec.beta)}
${storeAt(y, ar, ar.register('res'))}
${stepCursor(y, 0)};`).join('\n');
  return `${declareCursor(row)} ${declareCursor(y)}
let i = 0;
for (; i + ${R} <= m; i += ${R}, ${stepCursor(row, 0, String(R))}) {
${bases.map((b) => acc.emitReset(b, ar)).join('\n')}
${cursorLoop('j', 'n', [{ c: a, d: 1, from: row }, { c: x, d: 0 }], `${declareCursor(ab, a)}
${column}`)}
${results}
}
${rowLoop('', row, y, ox, spec)}`;
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
