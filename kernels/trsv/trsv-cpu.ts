/**
 * TRSV program: generates and caches the substitution loop for one signature of (T, x, arithmetic,
 * accumulation, lower/upper, unit diagonal). T = op(A) comes as a view, so there are two forms only:
 * forward substitution (T lower) and backward substitution (T upper).
 *
 * Row i (row-oriented, so the accumulation strategy applies to each row):
 *   s := bᵢ − Σ_{j off-diagonal} tᵢⱼ·xⱼ   (one reduction: bᵢ, then the products −tᵢⱼ·xⱼ)
 *   xᵢ := s / tᵢᵢ                         (no division for a unit diagonal)
 * and xᵢ is written back (rounded to x's storage) before row i + 1 reads it, as an in-place BLAS TRSV does.
 * @module
 */
import type { ArithmeticFormat, Register } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import type { Accumulation } from '../shared/accumulation.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, loadAt, stepCursor, storeAt } from '../../src/backends/cpu/cursor.js';

/** A compiled TRSV: (n, ...T, ...x) → nothing (x overwritten with the solution). */
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

/** The compiled TRSV for this specialisation (built on first use). */
export function trsvProgram(spec: TrsvSpecialisation): TrsvFunction {
  const oT = new Operand('A', spec.T);
  const ox = new Operand('x', spec.x);
  const { ar, acc, lower, unit } = spec;
  const key = { kernel: 'trsv', lower, unit, A: oT.signature(), x: ox.signature(), ar: ar.name, acc: acc.name };
  return compileProgram<TrsvFunction>(key, () => {
    const names = ['bv', 'tv', 'nt', 'xv', 'res', 'dv', 'q'];
    const declarations = [
      oT.emitDeclare(ar), ox.emitDeclare(ar),
      ...names.map((r) => ar.emitDeclare(ar.register(r))),
      acc.emitDeclare('s', ar),
    ].join('\n');
    const source = `return function trsv_${lower ? 'forward' : 'backward'}${unit ? '_unit' : ''}(${['n', ...oT.params(), ...ox.params()].join(', ')}) {
${declarations}
${lower ? forward(oT, ox, spec) : backward(oT, ox, spec)}
};`;
    return { source, helpers: mergeHelpers(oT.helpers(), ox.helpers(), ar.helpers, acc.helpers) };
  });
}

type Registers = Record<'bv' | 'tv' | 'nt' | 'xv' | 'res' | 'dv' | 'q', Register>;

function registers(ar: ArithmeticFormat): Registers {
  const r = {} as Registers;
  for (const n of ['bv', 'tv', 'nt', 'xv', 'res', 'dv', 'q'] as const) r[n] = ar.register(n);
  return r;
}

/** Adds −tᵢⱼ·xⱼ for the element under the two cursors. */
function subtractProduct(spec: TrsvSpecialisation, r: Registers, a: ReturnType<typeof cursor>, x: ReturnType<typeof cursor>): string {
  const { ar, acc } = spec;
  return `${loadAt(a, ar, r.tv)} ${ar.emitNeg(r.nt, r.tv)}
${loadAt(x, ar, r.xv)}
${acc.emitAddProduct('s', r.nt, r.xv, ar)}`;
}

/** Divides the row's sum by the diagonal element under `a` (unless unit) and stores it under `xi`. */
function finishRow(spec: TrsvSpecialisation, r: Registers, a: ReturnType<typeof cursor>, xi: ReturnType<typeof cursor>): string {
  const { ar, acc, unit } = spec;
  const result = acc.emitResult(r.res, 's', ar);
  if (unit) return `${result}\n${storeAt(xi, ar, r.res)}`;
  return `${result}\n${loadAt(a, ar, r.dv)} ${ar.emitDiv(r.q, r.res, r.dv)}\n${storeAt(xi, ar, r.q)}`;
}

/** T lower: rows 0 … n−1, each summing j = 0 … i−1; the column cursor ends on the diagonal. */
function forward(oT: Operand, ox: Operand, spec: TrsvSpecialisation): string {
  const { ar, acc } = spec;
  const r = registers(ar);
  const row = cursor(oT, 'A_r'), a = cursor(oT, 'A_c'), xi = cursor(ox, 'x_i'), x = cursor(ox, 'x_c');
  return `${declareCursor(row)} ${declareCursor(xi)}
for (let i = 0; i < n; i++, ${stepCursor(row, 0)}, ${stepCursor(xi, 0)}) {
${acc.emitReset('s', ar)}
${loadAt(xi, ar, r.bv)} ${acc.emitAdd('s', r.bv, ar)}
${declareCursor(a, row)} ${declareCursor(x)}
for (let j = 0; j < i; j++, ${stepCursor(a, 1)}, ${stepCursor(x, 0)}) {
${subtractProduct(spec, r, a, x)}
}
${finishRow(spec, r, a, xi)}
}`;
}

/** T upper: rows n−1 … 0, each reading the diagonal, then summing j = i+1 … n−1. */
function backward(oT: Operand, ox: Operand, spec: TrsvSpecialisation): string {
  const { ar, acc } = spec;
  const r = registers(ar);
  const row = cursor(oT, 'A_r'), a = cursor(oT, 'A_c'), d = cursor(oT, 'A_g'), xi = cursor(ox, 'x_i'), x = cursor(ox, 'x_c');
  return `${declareCursor(row)} ${stepCursor(row, 0, 'n - 1')};
${declareCursor(xi)} ${stepCursor(xi, 0, 'n - 1')};
for (let i = n - 1; i >= 0; i--, ${stepCursor(row, 0, '-1')}, ${stepCursor(xi, 0, '-1')}) {
${acc.emitReset('s', ar)}
${loadAt(xi, ar, r.bv)} ${acc.emitAdd('s', r.bv, ar)}
${declareCursor(d, row)} ${stepCursor(d, 1, 'i')};
${declareCursor(a, d)} ${declareCursor(x, xi)}
for (let j = i + 1; j < n; j++) {
${stepCursor(a, 1)}; ${stepCursor(x, 0)};
${subtractProduct(spec, r, a, x)}
}
${finishRow(spec, r, d, xi)}
}`;
}
