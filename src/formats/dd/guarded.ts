/**
 * The double-double operations exactly as the kernels compute them — the fast templates of ./dd-templates.ts with
 * their special-value repair — as plain functions, compiled on first use. Finite results have the bare algorithms'
 * bits (./add.ts, ./mul.ts, ./div.ts); where those turn ∞ · 2, ∞ / 3, 1 + ∞ or an overflowing product or quotient
 * into NaN, or lose a zero's sign, these give IEEE's answer in hi (lo 0), as every kernel does.
 * @module
 */
import { ddAddSource, ddAddNumberSource, ddSubSource, ddMulSource, ddDivSource, ddMulAccumulateSource, ddTwoProdAccumulateSource, ddTemplateHelpers, compileOnFirstUse, type DdPair } from './dd-templates.js';

/** One operation: writes [hi, lo] of a ∘ b into `out`. */
export type DdGuardedOperation = (out: Float64Array, ah: number, al: number, bh: number, bl: number) => void;

const operands = ['ah', 'al', 'bh', 'bl'];
const compile = (name: string, emit: (d: DdPair, a: DdPair, b: DdPair) => string): DdGuardedOperation =>
  compileOnFirstUse(name, operands, () => emit(['o$h', 'o$l'], ['ah', 'al'], ['bh', 'bl']), ddTemplateHelpers) as DdGuardedOperation;

/** a + b as the kernels add. */
export const ddGuardedAdd = compile('ddGuardedAdd', ddAddSource);
/** a − b as the kernels subtract. */
export const ddGuardedSub = compile('ddGuardedSub', ddSubSource);
/** a · b as the kernels multiply. */
export const ddGuardedMul = compile('ddGuardedMul', ddMulSource);
/** a / b as the kernels divide. */
export const ddGuardedDiv = compile('ddGuardedDiv', ddDivSource);

/**
 * a · b + c as the kernels' multiply-accumulate (`ddMulAccumulate`'s operations, a zero's sign and non-finite results
 * repaired as every template repairs them): writes [hi, lo] into `out`.
 */
export const ddGuardedMulAccumulate = compileOnFirstUse('ddGuardedMulAccumulate', ['ah', 'al', 'bh', 'bl', 'ch', 'cl'],
  () => ddMulAccumulateSource(['o$h', 'o$l'], ['ah', 'al'], ['bh', 'bl'], ['ch', 'cl']), ddTemplateHelpers) as
  (out: Float64Array, ah: number, al: number, bh: number, bl: number, ch: number, cl: number) => void;

/** a + x for a double x as the kernels add a term to a double-double sum (`ddAddNumber`'s template): writes [hi, lo] into `out`. */
export const ddGuardedAddNumber = compileOnFirstUse('ddGuardedAddNumber', ['ah', 'al', 'x'],
  () => ddAddNumberSource(['o$h', 'o$l'], ['ah', 'al'], 'x'), ddTemplateHelpers) as (out: Float64Array, ah: number, al: number, x: number) => void;

/** a · b + c for doubles a, b as the kernels' `dd` accumulation adds a product (`ddTwoProdAccumulate`'s template): writes [hi, lo] into `out`. */
export const ddGuardedTwoProdAccumulate = compileOnFirstUse('ddGuardedTwoProdAccumulate', ['a', 'b', 'ch', 'cl'],
  () => ddTwoProdAccumulateSource(['o$h', 'o$l'], 'a', 'b', ['ch', 'cl']), ddTemplateHelpers) as
  (out: Float64Array, a: number, b: number, ch: number, cl: number) => void;
