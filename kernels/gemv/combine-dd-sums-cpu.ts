/**
 * The last step of a GEMV or ELL SpMV whose row sums were computed in double-double elsewhere (the WebAssembly
 * kernels): a generated loop that takes each row's sum as a pair and does what the JavaScript kernels do after
 * their reduction — the accumulation's result (double-double arithmetic keeps the pair; fp64 arithmetic with the
 * `dd` accumulation rounds hi + lo once), the combination with y of {@link emitCombine}, the store rounded to y's
 * storage. The same emitters, so the same roundings as the JavaScript kernels, bit for bit.
 * @module
 */
import { declareRegister, type ArithmeticFormat, type Register } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, stepCursor, storeAt } from '../../src/backends/cpu/cursor.js';
import { COMBINE_REGISTERS, emitCoefficients, emitCombine, type CoefficientCase } from './coefficients.js';

/** A compiled combination: (m, sums, ...y, alpha, beta), sums[2i] and sums[2i + 1] the high and low parts of row i. */
export type CombineDdSums = (m: number, sums: Float64Array, ...args: unknown[]) => void;

/** The compiled combination for this y, arithmetic (double-double, or fp64 with the dd accumulation) and α, β cases. */
export function combineDdSumsProgram(y: Accessor<1, any>, ar: ArithmeticFormat, alpha: Exclude<CoefficientCase, 'zero'>, beta: CoefficientCase): CombineDdSums {
  const oy = new Operand('y', y);
  const key = { kernel: 'combine-dd-sums', y: oy.signature(), ar: ar.name, alpha, beta };
  return compileProgram<CombineDdSums>(key, () => {
    const c = cursor(oy, 'y_c');
    const tv = ar.register('tv');
    const sum: Register = { kind: 'dd', names: ['sum_hi', 'sum_lo'] };
    const declarations = [
      oy.emitDeclare(ar),
      ...['tv', ...COMBINE_REGISTERS].map((r) => declareRegister(ar, ar.register(r))),
      'let sum_hi = 0, sum_lo = 0;',
      emitCoefficients(ar, alpha, beta),
    ].join('\n');
    // As the dd accumulation's and the recursive accumulation's emitResult: the pair itself in dd arithmetic,
    // one conversion (106 bits in) otherwise.
    const result = ar.kind === 'dd' ? ar.emitSet(tv, sum) : ar.emitConvert(tv, sum, 106);
    const source = `return function combine_dd_sums(${['m', 'sums', ...oy.params(), 'alpha', 'beta'].join(', ')}) {
${declarations}
${declareCursor(c)}
for (let i = 0; i < m; i++, ${stepCursor(c, 0)}) {
sum_hi = sums[2 * i]; sum_lo = sums[2 * i + 1];
${result}
${emitCombine(ar, tv, c, alpha, beta)}
${storeAt(c, ar, ar.register('res'))}
}
};`;
    return { source, helpers: mergeHelpers(oy.helpers(), ar.helpers) };
  });
}
