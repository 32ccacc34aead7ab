/**
 * TRSV program: generates and caches the substitution loop for one signature of (T, x, arithmetic,
 * accumulation, lower/upper, unit diagonal, rows per block). T = op(A) comes as a view, so there are two forms
 * only: forward substitution (T lower) and backward substitution (T upper).
 *
 * Row i is one reduction through the accumulation strategy (so every strategy applies to it):
 *   s := bᵢ − Σ_{j off-diagonal} tᵢⱼ·xⱼ   (bᵢ first, then the products −tᵢⱼ·xⱼ in a fixed column order:
 *                                          ascending j forward, descending j backward — from the far end inward)
 *   xᵢ := s / tᵢᵢ                         (no division for a unit diagonal)
 * and xᵢ is written back (rounded to x's storage) before any later row reads it, as an in-place BLAS TRSV does.
 *
 * Loop order, chosen for the layout so that A is read contiguously (as BLAS picks row- or column-oriented
 * substitution): rows advance in blocks of R, each row in its own accumulator. A block first adds, column by
 * column, the products with the x's already solved outside it (one run of R consecutive elements of each column
 * of T), then solves its own small triangle row by row. Each row still sees bᵢ and then its products in the
 * column order above, so the result does not depend on R: R = {@link trsvRowBlock} where T's columns are
 * contiguous (column-major A with trans 'N', row-major with 'T'), R = 1 (plain row-oriented substitution, rows
 * read contiguously) otherwise — the same bits for both layouts. With the recursive accumulation in an arithmetic
 * of kind `number` (fp64, fp32), a contiguous-column T is solved fully column-oriented instead: the partial sums
 * of all rows live in a scratch Float64Array (which holds every value of such an arithmetic exactly), and once
 * xⱼ is solved, column j's products are added to every later row — A read in whole contiguous columns. Each
 * partial sum still sees bᵢ and then its products in the same column order, so the bits are again the same.
 * @module
 */
import type { ArithmeticFormat, Register } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import type { Accumulation } from '../shared/accumulation.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, cursorLoop, declareCursor, loadAt, stepCursor, storeAt, type Cursor } from '../../src/backends/cpu/cursor.js';

/** A compiled TRSV: (n, ...T, ...x, scratch) → nothing (x overwritten with the solution; scratch: n doubles). */
export type TrsvFunction = (n: number, ...args: unknown[]) => void;

/** Everything a TRSV specialisation depends on. */
export interface TrsvSpecialisation {
  /** op(A), n×n. */
  readonly T: Accessor<2, any>;
  /** Right-hand side on entry, solution on return (length n). */
  readonly x: Accessor<1, any>;
  /** Arithmetic of every operation. */
  readonly ar: ArithmeticFormat;
  /** Summation strategy of each row. */
  readonly acc: Accumulation;
  /** T lower triangular (forward substitution) or upper (backward). */
  readonly lower: boolean;
  /** Unit diagonal (not read). */
  readonly unit: boolean;
}

/**
 * Rows per block where T's columns are contiguous. Why 8 for doubles: 8 consecutive fp64 elements of a column
 * fill one 64-byte cache line, and 8 independent accumulators hide the add latency. Fewer for double-double
 * (4: four dd accumulators fit x86-64's 16 vector registers, as in GEMV) and more for multiple precision,
 * whose registers live in memory anyway (16, as GEMV's `dot-blocked`).
 */
export function trsvRowBlock(ar: ArithmeticFormat): number {
  return ar.kind === 'mp' ? 16 : ar.kind === 'number' ? 8 : 4;
}

/** Whether T is read column by column (its first stride, in storage elements, is the smaller one). */
export function columnsContiguous(T: Accessor<2, any>): boolean {
  return Math.abs(T.strides[0]!) < Math.abs(T.strides[1]!);
}

/** Whether the specialisation runs column-oriented over a scratch vector of partial sums (see the module comment). */
export function trsvNeedsScratch(spec: TrsvSpecialisation): boolean {
  return columnsContiguous(spec.T) && spec.acc.name === 'recursive' && spec.ar.kind === 'number';
}

/** The compiled TRSV for this specialisation (built on first use). */
export function trsvProgram(spec: TrsvSpecialisation): TrsvFunction {
  const oT = new Operand('A', spec.T);
  const ox = new Operand('x', spec.x);
  const { ar, acc, lower, unit } = spec;
  if (trsvNeedsScratch(spec)) return columnProgram(oT, ox, spec);
  const R = columnsContiguous(spec.T) ? trsvRowBlock(ar) : 1;
  const key = { kernel: 'trsv', lower, unit, rows: R, A: oT.signature(), x: ox.signature(), ar: ar.name, acc: acc.name };
  return compileProgram<TrsvFunction>(key, () => {
    const declarations = [
      oT.emitDeclare(ar), ox.emitDeclare(ar),
      ...REGISTER_NAMES.map((r) => ar.emitDeclare(ar.register(r))),
      ...accumulators(R).map((s) => acc.emitDeclare(s, ar)),
    ].join('\n');
    const blocks = R > 1
      ? `${blockLoop(oT, ox, spec, R)}\n${lower ? '' : `k += ${R - 1};`}\n${blockLoop(oT, ox, spec, 1)}`
      : blockLoop(oT, ox, spec, 1);
    const source = `return function trsv_${lower ? 'forward' : 'backward'}${unit ? '_unit' : ''}_rows${R}(${['n', ...oT.params(), ...ox.params()].join(', ')}) {
${declarations}
let k = ${lower ? '0' : `n - ${R}`};
${blocks}
};`;
    return { source, helpers: mergeHelpers(oT.helpers(), ox.helpers(), ar.helpers, acc.helpers) };
  });
}

const REGISTER_NAMES = ['bv', 'tv', 'nt', 'xv', 'res', 'dv', 'q'] as const;
type Registers = Record<(typeof REGISTER_NAMES)[number], Register>;

function registers(ar: ArithmeticFormat): Registers {
  const r = {} as Registers;
  for (const n of REGISTER_NAMES) r[n] = ar.register(n);
  return r;
}

/** Accumulator names, one per row of a block. */
const accumulators = (R: number): string[] => Array.from({ length: R }, (_, r) => `s${r}`);

/** Statements: a cursor named `name` at `from` moved by `by0` along dimension 0 and `by1` along dimension 1. */
function cursorAt(c: Cursor, from: Cursor | undefined, by0: string | number, by1: string | number): string {
  const steps = [[0, by0], [1, by1]].filter(([, by]) => by !== 0).map(([d, by]) => `${stepCursor(c, d as number, String(by))};`);
  return `${declareCursor(c, from)} ${steps.join(' ')}`;
}

/** Adds −tᵢⱼ·xⱼ (xⱼ already in `xv`) to accumulator `s` for the element of T under `a`. */
function subtractProduct(spec: TrsvSpecialisation, r: Registers, s: string, a: Cursor): string {
  const { ar, acc } = spec;
  return `${loadAt(a, ar, r.tv)} ${ar.emitNeg(r.nt, r.tv)}
${acc.emitAddProduct(s, r.nt, r.xv, ar)}`;
}

/**
 * `for` over blocks of R rows [k, k + R): forward while k + R ≤ n (k rising), backward while k ≥ 0 (k falling).
 * For R = 1 backward the loop continues from the row above the last block (the caller sets k).
 */
function blockLoop(oT: Operand, ox: Operand, spec: TrsvSpecialisation, R: number): string {
  const { ar, acc, lower, unit } = spec;
  const r = registers(ar);
  const s = accumulators(R);
  // Cursor names must not collide with the operands' parameters (A_d is A's buffer).
  const Tk = cursor(oT, 'A_row'), Td = cursor(oT, 'A_diag'), a = cursor(oT, 'A_col'), e = cursor(oT, 'A_el');
  const xk = cursor(ox, 'x_row'), xe = cursor(ox, 'x_el'), x = cursor(ox, 'x_col');
  // bᵢ of every row of the block into its accumulator.
  const init = s.map((name, i) => `{ ${cursorAt(xe, xk, i, 0)} ${loadAt(xe, ar, r.bv)} }
${acc.emitReset(name, ar)} ${acc.emitAdd(name, r.bv, ar)}`).join('\n');
  // The columns outside the block: ascending 0 … k−1 (forward), descending n−1 … k+R (backward).
  const column = s.map((name, i) => `${i > 0 ? `${stepCursor(e, 0)};\n` : ''}${subtractProduct(spec, r, name, e)}`).join('\n');
  const outside = lower
    ? `${cursorAt(a, Tk, 0, 0)} ${declareCursor(x)}
for (let j = 0; j < k; j++, ${stepCursor(a, 1)}, ${stepCursor(x, 0)}) {
${loadAt(x, ar, r.xv)}
${declareCursor(e, a)}
${column}
}`
    : `${cursorAt(a, Tk, 0, 'n - 1')} ${cursorAt(x, undefined, 'n - 1', 0)}
for (let j = n - 1; j >= k + ${R}; j--, ${stepCursor(a, 1, '-1')}, ${stepCursor(x, 0, '-1')}) {
${loadAt(x, ar, r.xv)}
${declareCursor(e, a)}
${column}
}`;
  // The block's own triangle, row by row: row i of the block adds its products with the block's solved x's
  // (columns in the same order), then divides by its diagonal and stores xₖ₊ᵢ.
  const rowOrder = Array.from({ length: R }, (_, i) => (lower ? i : R - 1 - i));
  const triangle = rowOrder.map((i) => {
    const columns = lower ? Array.from({ length: i }, (_, c) => c) : Array.from({ length: R - 1 - i }, (_, c) => R - 1 - c);
    const products = columns.map((c) => `{ ${cursorAt(x, xk, c, 0)} ${loadAt(x, ar, r.xv)} }
{ ${cursorAt(e, Td, i, c)}
${subtractProduct(spec, r, s[i]!, e)} }`).join('\n');
    const result = acc.emitResult(r.res, s[i]!, ar);
    const finish = unit
      ? result
      : `${result}\n{ ${cursorAt(e, Td, i, i)} ${loadAt(e, ar, r.dv)} } ${ar.emitDiv(r.q, r.res, r.dv)}`;
    return `${products}
${finish}
{ ${cursorAt(xe, xk, i, 0)} ${storeAt(xe, ar, unit ? r.res : r.q)} }`;
  }).join('\n');
  return `for (; ${lower ? `k + ${R} <= n` : 'k >= 0'}; k ${lower ? '+=' : '-='} ${R}) {
${cursorAt(Tk, undefined, 'k', 0)} ${cursorAt(Td, Tk, 0, 'k')} ${cursorAt(xk, undefined, 'k', 0)}
${init}
{
${outside}
}
${triangle}
}`;
}

/**
 * Column-oriented substitution over `scratch` (recursive accumulation, kind `number`): t := b (as 0 + bᵢ, the
 * recursive sum's first step), then for each column j in the row order (ascending forward, descending backward)
 * xⱼ := tⱼ / tⱼⱼ, stored and read back as later rows read it, and tᵢ := −tᵢⱼ·xⱼ + tᵢ for the rows not yet solved.
 */
function columnProgram(oT: Operand, ox: Operand, spec: TrsvSpecialisation): TrsvFunction {
  const { ar, lower, unit } = spec;
  const key = { kernel: 'trsv', lower, unit, rows: 'columns', A: oT.signature(), x: ox.signature(), ar: ar.name, acc: 'recursive' };
  return compileProgram<TrsvFunction>(key, () => {
    const r = registers(ar);
    const t = r.res.names[0]!;
    const x = cursor(ox, 'x_col'), xj = cursor(ox, 'x_row');
    const col = cursor(oT, 'A_col'), dg = cursor(oT, 'A_diag'), below = cursor(oT, 'A_below'), a = cursor(oT, 'A_el');
    const declarations = [oT.emitDeclare(ar), ox.emitDeclare(ar), ...REGISTER_NAMES.map((n) => ar.emitDeclare(ar.register(n)))].join('\n');
    const addProduct = (row: string): string => `${loadAt(a, ar, r.tv)} ${ar.emitNeg(r.nt, r.tv)}
${t} = scratch[${row}]; ${ar.emitFma(r.res, r.nt, r.xv, r.res)} scratch[${row}] = ${t};`;
    // Forward: column j updates rows j+1 … n−1 (below the diagonal); backward: rows 0 … j−1 (above it).
    const update = lower
      ? `${cursorAt(below, dg, 1, 0)}\n${cursorLoop('i', 'n - j - 1', [{ c: a, d: 0, from: below }], addProduct('j + 1 + i'))}`
      : cursorLoop('i', 'j', [{ c: a, d: 0, from: col }], addProduct('i'));
    const source = `return function trsv_${lower ? 'forward' : 'backward'}${unit ? '_unit' : ''}_columns(${['n', ...oT.params(), ...ox.params(), 'scratch'].join(', ')}) {
${declarations}
${cursorLoop('i', 'n', [{ c: x, d: 0 }], `${loadAt(x, ar, r.bv)} ${t} = 0; ${ar.emitAdd(r.res, r.res, r.bv)} scratch[i] = ${t};`)}
for (let step = 0; step < n; step++) {
const j = ${lower ? 'step' : 'n - 1 - step'};
${cursorAt(xj, undefined, 'j', 0)} ${cursorAt(col, undefined, 0, 'j')} ${cursorAt(dg, col, 'j', 0)}
${t} = scratch[j];
${unit ? storeAt(xj, ar, r.res) : `${loadAt(dg, ar, r.dv)} ${ar.emitDiv(r.q, r.res, r.dv)} ${storeAt(xj, ar, r.q)}`}
${loadAt(xj, ar, r.xv)}
${update}
}
};`;
    return { source, helpers: mergeHelpers(oT.helpers(), ox.helpers(), ar.helpers) };
  });
}
