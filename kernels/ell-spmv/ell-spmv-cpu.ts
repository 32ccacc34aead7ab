/**
 * ELL SpMV program: generates and caches y := α·A·x + β·y for one signature of (values, x, y, arithmetic,
 * accumulation, α case, β case). One reduction per row, through the accumulation strategy, over the row's
 * slots in order, stopping at the first padding slot (padding comes last in a validated ELL row).
 * @module
 */
import { declareRegister, type ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import type { Accumulation } from '../shared/accumulation.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, loadAt, stepCursor, storeAt } from '../../src/backends/cpu/cursor.js';
import { COMBINE_REGISTERS, emitCoefficients, emitCombine, type CoefficientCase } from '../gemv/coefficients.js';

/** A compiled ELL SpMV: (rows, width, stride, colIndex, ...values, ...x, ...y, alpha, beta) → nothing. */
export type EllSpmvFunction = (rows: number, width: number, stride: number, colIndex: Int32Array, ...args: unknown[]) => void;

/** Everything an ELL SpMV specialisation depends on. */
export interface EllSpmvSpecialisation {
  /** Values: element (i, k) is slot k of row i. */
  readonly values: Accessor<2, any>;
  /** The vector multiplied (gathered by column index). */
  readonly x: Accessor<1, any>;
  /** The vector updated. */
  readonly y: Accessor<1, any>;
  /** Arithmetic of every operation. */
  readonly ar: ArithmeticFormat;
  /** Summation strategy of each row. */
  readonly acc: Accumulation;
  /** α's case; never 'zero' (the host runs y := β·y then). */
  readonly alpha: Exclude<CoefficientCase, 'zero'>;
  readonly beta: CoefficientCase;
}

/** The compiled ELL SpMV for this specialisation (built on first use). */
export function ellSpmvProgram(spec: EllSpmvSpecialisation): EllSpmvFunction {
  const ov = new Operand('V', spec.values);
  const ox = new Operand('x', spec.x);
  const oy = new Operand('y', spec.y);
  const { ar, acc, alpha, beta } = spec;
  // A unit x stride (the usual case) saves a multiplication in the gather.
  const unitX = spec.x.strides[0] === 1;
  const key = {
    kernel: 'ell-spmv', V: ov.signature(), x: ox.signature(), y: oy.signature(), unitX, ar: ar.name, acc: acc.name, alpha, beta,
  };
  return compileProgram<EllSpmvFunction>(key, () => {
    // Exact reads (fp64/fp32 storage under DD arithmetic) stay plain doubles: the arithmetic specialises its multiply-add.
    const vv = ov.valueRegister(ar, 'vv'), xv = ox.valueRegister(ar, 'xv'), tv = ar.register('tv');
    const row = cursor(ov, 'V_r'), v = cursor(ov, 'V_c'), y = cursor(oy, 'y_c');
    const xScale = spec.x.scale;
    const xPos = unitX ? `${ox.offset} + col` : `${ox.offset} + col * ${ox.stride(0)}`;
    const xScalePos = xScale ? (xScale.mask[0] ? `${ox.scaleOffset} + col * ${ox.scaleStride(0)}` : ox.scaleOffset) : undefined;
    const params = ['rows', 'width', 'stride', 'colIndex', ...ov.params(), ...ox.params(), ...oy.params(), 'alpha', 'beta'];
    const declarations = [
      ...[ov, ox, oy].map((o) => o.emitDeclare(ar)),
      ...[vv, xv, ...['tv', ...COMBINE_REGISTERS].map((r) => ar.register(r))].map((r) => declareRegister(ar, r)),
      acc.emitDeclare('s', ar),
      emitCoefficients(ar, alpha, beta),
    ].join('\n');
    const source = `return function ell_spmv(${params.join(', ')}) {
${declarations}
${declareCursor(row)} ${declareCursor(y)}
for (let i = 0; i < rows; i++, ${stepCursor(row, 0)}, ${stepCursor(y, 0)}) {
${acc.emitReset('s', ar)}
${declareCursor(v, row)}
for (let k = 0, p = i; k < width; k++, p += stride, ${stepCursor(v, 1)}) {
const col = colIndex[p];
if (col < 0) break;
${loadAt(v, ar, vv)}
${ox.emitLoad(ar, xv, xPos, xScalePos)}
${acc.emitAddProduct('s', vv, xv, ar)}
}
${acc.emitResult(tv, 's', ar)}
${emitCombine(ar, tv, y, alpha, beta)}
${storeAt(y, ar, ar.register('res'))}
}
};`;
    return { source, helpers: mergeHelpers(ov.helpers(), ox.helpers(), oy.helpers(), ar.helpers, acc.helpers) };
  });
}
