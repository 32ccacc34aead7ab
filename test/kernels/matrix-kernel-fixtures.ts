/**
 * Operands for the matrix-kernel tests (GEMV, TRSV, ELL SpMV): ranges in every storage and layout, embedded in
 * larger buffers whose other elements hold sentinels (NaN, or 12345 for integers), the exact values they
 * represent, and checks that nothing outside a view changed.
 */
import fc from 'fast-check';
import { range, type Range } from '../../src/core/range.js';
import { span } from '../../src/core/span.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { strided } from '../../accessors/strided.js';
import { scaledReducedRowMajor, scaledReducedColMajor, fitScales } from '../../accessors/scaled-reduced.js';
import type { Accessor } from '../../accessors/accessor.js';
import { formats } from '../../src/formats/index.js';
import { exactOf } from '../../src/testing/exact.js';
import { type Rational, absRational, addRational, compareRational, mulRational, subRational, ZERO } from '../../src/testing/rational.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';

/** Storage of an operand: a float format, or int16 with scales ('i16s'). */
export type StorageName = 'f64' | 'f32' | 'f16' | 'bf16' | 'i16s';
export const STORAGES: readonly StorageName[] = ['f64', 'f32', 'f16', 'bf16', 'i16s'];
export type ArithmeticName = 'f64' | 'f32';

/** How a test matrix sits in memory. */
export interface MatrixSpec {
  storage: StorageName;
  /** row/col-major; 'strided': padded strides; 'negative': both strides negative. Scaled storage: row/col only. */
  layout: 'row' | 'col' | 'strided' | 'negative';
  /** View a sub-range of a larger buffer full of sentinels. */
  sub: boolean;
  /** For i16s: one scale per row (true) or per column (false). */
  scaleRows: boolean;
}

/** How a test vector sits in memory. */
export interface VectorSpec {
  storage: StorageName;
  /** Increment (negative walks backwards). */
  stride: number;
  sub: boolean;
}

export const matrixSpec: fc.Arbitrary<MatrixSpec> = fc.record({
  storage: fc.constantFrom(...STORAGES),
  layout: fc.constantFrom('row', 'col', 'strided', 'negative'),
  sub: fc.boolean(),
  scaleRows: fc.boolean(),
}).map((s) => (s.storage === 'i16s' && (s.layout === 'strided' || s.layout === 'negative') ? { ...s, layout: 'row' as const } : s));

export const vectorSpec: fc.Arbitrary<VectorSpec> = fc.record({
  storage: fc.constantFrom(...STORAGES),
  stride: fc.constantFrom(1, 1, 2, -1, -3),
  sub: fc.boolean(),
});

/** Values k·2^e with |k| ≤ 2^20, e in [−28, 0]: in [−1, 1], spread over binades, no underflow in fp32 products. */
export const value: fc.Arbitrary<number> = fc.tuple(fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), fc.integer({ min: 0, max: 8 }))
  .map(([k, e]) => k * 2 ** (-20 - e));

function formatOf(name: StorageName): (typeof formats)[keyof typeof formats] {
  return name === 'i16s' ? formats.i16 : formats[name];
}

/** Fills every raw element of a buffer with the sentinel of its storage. */
function fillSentinels(a: Accessor<any, any>): void {
  const data = a.data as { length: number; [k: number]: number };
  for (let k = 0; k < data.length; k++) {
    if (a.storage.isInteger) data[k] = 12345;
    else a.storage.encode(data as never, k, NaN as never);
  }
}

/** Writes values into a view (fitting the scales first for scaled storage). */
function fill<D extends 1 | 2>(a: Accessor<D, any>, values: (...idx: number[]) => number): void {
  if (a.scale) { fitScales(a, values); return; }
  const size = a.size as readonly number[];
  if (size.length === 1) for (let i = 0; i < size[0]!; i++) (a.set as (...x: number[]) => void)(i, values(i));
  else for (let i = 0; i < size[0]!; i++) for (let j = 0; j < size[1]!; j++) (a.set as (...x: number[]) => void)(i, j, values(i, j));
}

/** An m×n matrix range of the given spec holding `values` (rounded to the storage). */
export function buildMatrix(spec: MatrixSpec, m: number, n: number, values: (i: number, j: number) => number, arithmetic: ArithmeticName = 'f64'): Range<2> {
  const [M, N] = spec.sub ? [m + 3, n + 2] : [m, n];
  const common = { size: [M, N] as const, storage: formatOf(spec.storage), arithmetic: formats[arithmetic] };
  // Leading dimensions at least 1 even for empty matrices (BLAS's lda ≥ max(1, m)).
  const ldRow = Math.max(1, N), ldCol = Math.max(1, M);
  let parent: Accessor<2, number>;
  if (spec.storage === 'i16s') {
    const scaleMask = spec.scaleRows ? [true, false] : [false, true];
    parent = spec.layout === 'col' ? scaledReducedColMajor<2>({ ...common, scaleMask, stride: ldCol }) : scaledReducedRowMajor<2>({ ...common, scaleMask, stride: ldRow });
  } else if (spec.layout === 'row') parent = rowMajor<2>({ ...common, stride: N + 1 });
  else if (spec.layout === 'col') parent = colMajor<2>({ ...common, stride: M + 2 });
  else if (spec.layout === 'strided') parent = strided<2>({ ...common, strides: [2, 2 * ldCol + 1] });
  else parent = strided<2>({ ...common, strides: [-1, -ldCol] });
  fillSentinels(parent);
  const view = spec.sub ? parent.sub(span(2, 2 + m), span(1, 1 + n)) : parent;
  fill(view, values);
  return range(view);
}

/**
 * A vector range of the given spec holding `values`. For i16s, `headroom` is the largest magnitude a kernel may
 * later write (integer storage saturates beyond its scale's range, which the error bounds exclude).
 */
export function buildVector(spec: VectorSpec, values: ArrayLike<number>, arithmetic: ArithmeticName = 'f64', headroom = 0): Range<1> {
  const n = values.length;
  const N = spec.sub ? n + 3 : n;
  const common = { size: [N] as const, storage: formatOf(spec.storage), arithmetic: formats[arithmetic], stride: spec.stride };
  const parent = spec.storage === 'i16s' ? scaledReducedRowMajor<1>({ ...common, scaleMask: [false] }) : rowMajor<1>(common);
  fillSentinels(parent);
  const view = spec.sub ? parent.sub(span(1, 1 + n)) : parent;
  fill(view, (i) => values[i]!);
  if (view.scale && n > 0 && headroom / 32000 > view.readScale(0)) {
    view.writeScale(0, headroom / 32000);
    for (let i = 0; i < n; i++) view.set(i, values[i]!);
  }
  return range(view);
}

/** The exact value an element represents: stored × scale. */
function exactAt(a: Accessor<any, any>, idx: readonly number[]): Rational {
  const v = exactOf(a.storage.decode(a.data as never, a.linearIndex(idx)) as number);
  return a.scale ? mulRational(v, exactOf(a.scale.data[a.scaleIndex(idx)]!)) : v;
}

/** Exact represented value of matrix element (i, j). */
export function exactElement(r: Range<2, any>, i: number, j: number): Rational {
  return exactAt(r.accessor, [i, j]);
}

/** Exact represented values of a matrix, [i][j]. */
export function exactMatrix(r: Range<2, any>): Rational[][] {
  const a = r.accessor;
  return Array.from({ length: a.size[0] }, (_, i) => Array.from({ length: a.size[1] }, (_, j) => exactAt(a, [i, j])));
}

/** Exact represented values of a vector. */
export function exactVector(r: Range<1, any>): Rational[] {
  const a = r.accessor;
  return Array.from({ length: a.size[0] }, (_, i) => exactAt(a, [i]));
}

/** Represented values of a vector rounded to doubles (NaN kept). */
export function vectorValues(r: Range<1, any>): number[] {
  const a = r.accessor;
  return Array.from({ length: a.size[0] }, (_, i) => {
    const v = a.storage.decode(a.data as never, a.linearIndex([i])) as number;
    return a.scale ? v * a.scale.data[a.scaleIndex([i])]! : v;
  });
}

/** Σ aₖ·bₖ exactly. */
export function exactDotOf(a: readonly Rational[], b: readonly Rational[]): Rational {
  let s = ZERO;
  for (let k = 0; k < a.length; k++) s = addRational(s, mulRational(a[k]!, b[k]!));
  return s;
}

/** |computed − exact| ≤ bound, decided exactly. */
export function withinBound(computed: Rational, exact: Rational, bound: number): boolean {
  if (!(bound >= 0)) return false;
  if (bound === Infinity) return true;
  return compareRational(absRational(subRational(computed, exact)), exactOf(bound)) <= 0;
}

/** |computed − exact| rounded to a double (for messages and mean errors). */
export function errorOf(computed: Rational, exact: Rational): number {
  return roundRationalToDouble(absRational(subRational(computed, exact)));
}

/** A copy of an operand's raw buffer and scales, to check later that the kernel left them alone. */
export interface Snapshot { data: number[]; scale: number[] | null }

export function snapshot(r: Range<any, any>): Snapshot {
  const a = r.accessor;
  return { data: Array.from(a.data as ArrayLike<number>), scale: a.scale ? Array.from(a.scale.data) : null };
}

/**
 * Positions of the raw buffer that changed since the snapshot and lie outside `allowed` (positions a kernel
 * may write); also any changed scale. Empty when the operand is untouched outside its view.
 */
export function changedOutside(r: Range<any, any>, before: Snapshot, allowed: ReadonlySet<number> = new Set()): string[] {
  const a = r.accessor;
  const now = a.data as ArrayLike<number>;
  const bad: string[] = [];
  for (let k = 0; k < now.length; k++) if (!allowed.has(k) && !Object.is(now[k], before.data[k])) bad.push(`data[${k}]`);
  if (before.scale) a.scale!.data.forEach((s, k) => { if (!Object.is(s, before.scale![k])) bad.push(`scale[${k}]`); });
  return bad;
}

/** Storage positions of a vector view. */
export function positionsOf(r: Range<1, any>): Set<number> {
  const a = r.accessor;
  return new Set(Array.from({ length: a.size[0] }, (_, i) => a.linearIndex([i])));
}
