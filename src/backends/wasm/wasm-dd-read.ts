/**
 * How the WebAssembly kernels that sum in double-double read an operand, as the JavaScript kernels' load does
 * (src/backends/cpu/operand.ts, emitLoad): as exact doubles, as double-double storage's own pairs, or — a scaled
 * operand in double-double arithmetic — as the pair the arithmetic's product of the value by (s, 0) gives.
 * @module
 */
import type { Accessor } from '../../../accessors/accessor.js';
import { V128, op, SIMD } from './wasm-encoder.js';
import { load2, type WasmLocals, type WasmOperand } from './wasm-function.js';
import { ddPairHalf, ddScaledRead, ddScaledReadScratch, ddScaledReadSetup } from './wasm-dd-steps.js';

/**
 * How an operand is read: `number` — exact doubles (fp64 arithmetic's read; a scaled operand is multiplied by its scale
 * in fp64, one rounding, as the JavaScript's fp64 product, by {@link load2}); `pairs` — double-double storage's own
 * pairs (double-double arithmetic); `scaled-pairs` — a scaled operand in double-double arithmetic: each value (double-
 * double storage: its pair) times the scale as the arithmetic's product ({@link ddScaledRead}), a pair.
 */
export type DdRead = 'number' | 'pairs' | 'scaled-pairs';

/** How double-double sums read `a` in double-double arithmetic (`ddArithmetic`) or fp64 arithmetic. */
export function ddReadOf(a: Accessor<any, any>, ddArithmetic: boolean): DdRead {
  if (ddArithmetic && a.scale) return 'scaled-pairs';
  return ddArithmetic && a.storage.kind === 'dd' ? 'pairs' : 'number';
}

/** Whether {@link operandLocals} must multiply the operand by its scale in load2 (fp64 arithmetic's scaled read). */
export function scalesInLoad(a: Accessor<any, any>, read: DdRead): boolean {
  return !!a.scale && read === 'number';
}

/** A reader of one operand's step of 8 elements, pair k (elements 2k, 2k + 1). */
export interface DdReader {
  /** Instructions run once before the loop (after the operand's own set-up). */
  readonly setup: readonly number[];
  /**
   * Instructions setting local `hiInto` to the values (high parts) of pair k and, when `loInto` is given, `loInto`
   * to their low parts (zeros for exact doubles). `scaled-pairs` and `pairs` need `loInto`.
   */
  read(k: number, hiInto: number, loInto?: number): number[];
}

/**
 * The reader of operand `x` (its locals from operandLocals with {@link scalesInLoad}); allocates what
 * `scaled-pairs` needs (the scale's splat from x's scale parameter, {@link ddScaledReadScratch}).
 */
export function ddReader(l: WasmLocals, x: WasmOperand, read: DdRead): DdReader {
  const pair = (k: number, hiInto: number, loInto: number): number[] => [
    ...ddPairHalf(x.pointer, 32 * k, false), ...op.set(hiInto), ...ddPairHalf(x.pointer, 32 * k, true), ...op.set(loInto),
  ];
  if (read === 'pairs') return { setup: [], read: (k, hiInto, loInto) => pair(k, hiInto, loInto!) };
  if (read === 'number') {
    return {
      setup: [],
      read: (k, hiInto, loInto) => [...load2(x, k), ...op.set(hiInto), ...(loInto === undefined ? [] : [...op.f64(0), ...op.simd(SIMD.f64x2Splat), ...op.set(loInto)])],
    };
  }
  const scale = l.local(V128);
  const sr = ddScaledReadScratch(l, scale);
  const ddStorage = x.storage.words === 2;
  return {
    setup: [...op.get(x.scaleParam), ...op.simd(SIMD.f64x2Splat), ...op.set(scale), ...ddScaledReadSetup(sr)],
    read: (k, hiInto, loInto) => (ddStorage
      ? [...pair(k, hiInto, loInto!), ...ddScaledRead(sr, hiInto, loInto!, hiInto, loInto!)]
      : [...load2(x, k), ...op.set(hiInto), ...ddScaledRead(sr, hiInto, undefined, hiInto, loInto!)]),
  };
}
