/**
 * Cursors: pointer-walking positions into an operand for generated loops. A cursor is a storage position
 * variable plus, for scaled accessors, a scale position variable; loops step them by the strides instead
 * of multiplying an index by a stride per element. Shared by the matrix kernels (GEMV, TRSV, ELL SpMV).
 * @module
 */
import type { ArithmeticFormat, Register } from '../../formats/common/format.js';
import type { Operand } from './operand.js';

/** A position in an operand held in generated variables `<name>` (storage) and `<name>_q` (scale). */
export interface Cursor {
  /** The operand walked. */
  readonly operand: Operand;
  /** Variable holding the storage position. */
  readonly position: string;
  /** Variable holding the scale position, or `null` when the operand is not scaled. */
  readonly scalePosition: string | null;
}

/**
 * A cursor named `name` over `operand` (no code: see {@link declareCursor}); its scale position, for scaled
 * accessors, is named `scaleName` (default `<name>_q`).
 */
export function cursor(operand: Operand, name: string, scaleName = `${name}_q`): Cursor {
  return { operand, position: name, scalePosition: operand.accessor.scale ? scaleName : null };
}

/** Statement declaring the cursor at the operand's origin, or at another cursor's position when `from` is given. */
export function declareCursor(c: Cursor, from?: Cursor): string {
  const o = c.operand;
  const p = `let ${c.position} = ${from ? from.position : o.offset};`;
  if (!c.scalePosition) return p;
  return `${p} let ${c.scalePosition} = ${from ? from.scalePosition! : o.scaleOffset};`;
}

/** Statement setting the cursor to another cursor's position (both over the same operand). */
export function assignCursor(c: Cursor, from: Cursor): string {
  const p = `${c.position} = ${from.position};`;
  return c.scalePosition ? `${p} ${c.scalePosition} = ${from.scalePosition!};` : p;
}

/**
 * Expressions (comma-separated, for a `for` update clause) stepping the cursor `by` (an expression, default
 * 1) elements along dimension `d`. The scale position moves only if dimension `d` indexes the scale.
 */
export function stepCursor(c: Cursor, d: number, by?: string): string {
  const o = c.operand;
  const times = (stride: string): string => (by === undefined ? stride : `(${by}) * ${stride}`);
  const p = `${c.position} += ${times(o.stride(d))}`;
  if (!c.scalePosition || !o.accessor.scale!.mask[d]) return p;
  return `${p}, ${c.scalePosition} += ${times(o.scaleStride(d))}`;
}

/** Statements loading the element under the cursor into `dst` (a register of `ar`): decode, scale, convert. */
export function loadAt(c: Cursor, ar: ArithmeticFormat, dst: Register): string {
  return c.operand.emitLoad(ar, dst, c.position, c.scalePosition ?? undefined);
}

/** Statements storing `src` (a register of `ar`; clobbered when scaled) at the cursor, rounding to the storage. */
export function storeAt(c: Cursor, ar: ArithmeticFormat, src: Register): string {
  return c.operand.emitStore(ar, src, c.position, c.scalePosition ?? undefined);
}

/** A cursor walked along dimension `d` by a loop, starting at `from` (or the operand's origin). */
export interface Walk {
  /** The cursor. */
  readonly c: Cursor;
  /** The dimension it walks. */
  readonly d: number;
  /** Where it starts (another cursor over the same operand); default the operand's origin. */
  readonly from?: Cursor;
}

/**
 * A loop `for (index = 0; index < count; …)` over cursors. When every walked stride is 1 at run time (and
 * nothing is scaled), the cursors step by the constant 1: V8 then proves the index arithmetic cannot overflow
 * and the loop runs as fast as a hand-written `x[i]` loop (bench/zero-cost.ts; a step by a run-time stride
 * costs ~20 %). Otherwise the cursors step by their strides.
 */
export function cursorLoop(index: string, count: string, walks: readonly Walk[], body: string): string {
  const declare = walks.map((w) => declareCursor(w.c, w.from)).join(' ');
  const strided = `${declare}
for (let ${index} = 0; ${index} < ${count}; ${index}++, ${walks.map((w) => stepCursor(w.c, w.d)).join(', ')}) {
${body}
}`;
  if (walks.length === 0 || walks.some((w) => w.c.scalePosition)) return strided;
  const unit = walks.map((w) => `${w.c.operand.stride(w.d)} === 1`).join(' && ');
  return `if (${unit}) {
${declare}
for (let ${index} = 0; ${index} < ${count}; ${index}++, ${walks.map((w) => `${w.c.position}++`).join(', ')}) {
${body}
}
} else {
${strided}
}`;
}
