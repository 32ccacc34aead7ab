/**
 * TRSV in WebAssembly (fp64 or fp32 arithmetic) with an x the WebAssembly does not write itself — a scaled range
 * (one scale), fp16, bf16 or integer storage. The JavaScript kernel stores each xᵢ into x (its storage's rounding:
 * divided by the scale, an integer rounded once from the exact quotient) and the later rows read it back; so here
 * the solve runs on an fp64 twin of x holding each bᵢ as the JavaScript arithmetic reads it, and each solved xᵢ
 * goes through the JavaScript kernels' own store and read (`storeAt`, `loadAt` of src/backends/cpu/cursor.ts) into
 * a scratch copy of x's storage, the read-back value replacing it in the twin. The later rows read what the
 * JavaScript kernel reads: the same bits. The scratch's raw elements are copied into x only when the solve
 * succeeds (a solver that gives up leaves x untouched for the JavaScript kernel).
 * @module
 */
import { Accessor } from '../../accessors/accessor.js';
import { declareRegister, type ArithmeticFormat } from '../../src/formats/common/format.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, loadAt, stepCursor, storeAt } from '../../src/backends/cpu/cursor.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';

/** Stores the solved xᵢ = q as the JavaScript kernel stores it; returns the value later rows read back. */
export type StoredX = (i: number, q: number) => number;

/** Whether x is stored as the WebAssembly TRSVs write it themselves (unscaled f64 or f32 storage). */
export function writesXItself(x: Accessor<1, any>): boolean {
  const name = x.storage.name;
  return (name === 'f64' || name === 'f32') && findFormat(name)?.storage === x.storage && !x.scale;
}

type ReadAll = (n: number, values: Float64Array, ...x: unknown[]) => void;
type RoundTrip = (i: number, q: number, ...x: unknown[]) => number;

/** The compiled read of every element as `ar` reads it (fp32: the binary32 value). */
function readProgram(x: Accessor<1, any>, ar: ArithmeticFormat): ReadAll {
  const ox = new Operand('x', x);
  return compileProgram<ReadAll>({ kernel: 'trsv-x-read', x: ox.signature(), ar: ar.name }, () => {
    const c = cursor(ox, 'x_c'), v = ar.register('v');
    const source = `return function trsv_x_read(${['n', 'values', ...ox.params()].join(', ')}) {
${ox.emitDeclare(ar)}
${declareRegister(ar, v)}
${declareCursor(c)}
for (let i = 0; i < n; i++, ${stepCursor(c, 0)}) {
${loadAt(c, ar, v)}
values[i] = ${v.names[0]};
}
};`;
    return { source, helpers: mergeHelpers(ox.helpers(), ar.helpers) };
  });
}

/** The compiled store of q into element i, then its read, as the JavaScript TRSV stores and reads xᵢ. */
function roundTripProgram(x: Accessor<1, any>, ar: ArithmeticFormat): RoundTrip {
  const ox = new Operand('x', x);
  return compileProgram<RoundTrip>({ kernel: 'trsv-x-round-trip', x: ox.signature(), ar: ar.name }, () => {
    const c = cursor(ox, 'x_c'), v = ar.register('v');
    const source = `return function trsv_x_round_trip(${['i', 'q', ...ox.params()].join(', ')}) {
${ox.emitDeclare(ar)}
${declareRegister(ar, v)}
${declareCursor(c)} ${stepCursor(c, 0, 'i')};
${v.names[0]} = q;
${storeAt(c, ar, v)}
${loadAt(c, ar, v)}
return ${v.names[0]};
};`;
    return { source, helpers: mergeHelpers(ox.helpers(), ar.helpers) };
  });
}

/**
 * Runs `solve` on an fp64 twin of x (bᵢ as `ar` reads them) with the store of x's storage (see the module comment);
 * when it returns true, x takes the stored solution. Returns what `solve` returned.
 */
export function solveOnStoredX(x: Accessor<1, any>, n: number, ar: ArithmeticFormat, solve: (twin: Accessor<1, any>, stored: StoredX) => boolean): boolean {
  const values = new Float64Array(n);
  readProgram(x, ar)(n, values, ...Operand.args(x));
  // x's scales as the scratch's (unit stride): one scale, or one per element (index i's at offset + i·strides[0]).
  const scale = x.scale && { data: x.scale.data, offset: x.scale.offset, strides: [x.scale.strides[0]!], mask: [...x.scale.mask] };
  // The scratch: x's storage and scale, unit stride, the raw elements copied into x at the end.
  const scratch = new Accessor<1, any>({
    size: [n], strides: [1], offset: 0, storage: x.storage, arithmetic: x.arithmetic, data: x.storage.allocate(n), layout: 'strided', scale,
  });
  const roundTrip = roundTripProgram(scratch, ar), args = Operand.args(scratch);
  const twin = { data: values, storage: findFormat('f64')!.storage, offset: 0, strides: [1] } as unknown as Accessor<1, any>;
  if (!solve(twin, (i, q) => roundTrip(i, q, ...args))) return false;
  copyRaw(scratch.data, x.data, n, x.offset, x.strides[0] as number, x.storage.wordsPerElement ?? 1);
  return true;
}

type Words = { [k: number]: number };

/** Copies n raw elements of `words` words each (a split double-double: its hi and lo arrays) from `from` (unit stride) into `to` at offset, stride. */
function copyRaw(from: unknown, to: unknown, n: number, offset: number, stride: number, words: number): void {
  const pairs: [Words, Words][] = from instanceof DdSplitArray ? [[from.hi, (to as DdSplitArray).hi], [from.lo, (to as DdSplitArray).lo]] : [[from as Words, to as Words]];
  for (const [src, dst] of pairs) {
    for (let i = 0, p = offset; i < n; i++, p += stride) for (let w = 0; w < words; w++) dst[words * p + w] = src[words * i + w]!;
  }
}
