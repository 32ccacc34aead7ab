/**
 * The last step of a GEMV or ELL SpMV whose row sums the WebAssembly kernels computed in fp64 or fp32 arithmetic,
 * for an output y that is not a plain f64 or f32 array (double-double, interleaved or split): a generated loop that
 * takes each row's sum as a number and does what the JavaScript kernels do after their reduction — the
 * combination with y of {@link emitCombine} and the store rounded to y's storage. The same emitters as the
 * JavaScript kernels, so the same bits (the twin of combine-dd-sums-cpu.ts for sums that are numbers).
 * @module
 */
import { declareRegister, type ArithmeticFormat, type Register } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, stepCursor, storeAt } from '../../src/backends/cpu/cursor.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { COMBINE_REGISTERS, coefficientCase, emitCoefficients, emitCombine, type CoefficientCase } from './coefficients.js';

/** A compiled combination: (m, sums, ...y, alpha, beta), sums[i] the sum of row i in the arithmetic. */
type CombineSums = (m: number, sums: Float64Array | Float32Array, ...args: unknown[]) => void;

/** Whether y is stored as the plain typed array of the arithmetic's results (unscaled built-in f64 or f32), which the fast combinations write directly. */
export function plainOutput(y: Accessor<1, any>): boolean {
  const name = y.storage.name;
  return !y.scale && (name === 'f64' || name === 'f32') && findFormat(name)?.storage === y.storage;
}

/** The compiled combination for this y, arithmetic (f64 or f32) and α, β cases. */
function combineSumsProgram(y: Accessor<1, any>, ar: ArithmeticFormat, alpha: CoefficientCase, beta: CoefficientCase): CombineSums {
  const oy = new Operand('y', y);
  const key = { kernel: 'combine-sums', y: oy.signature(), ar: ar.name, alpha, beta };
  return compileProgram<CombineSums>(key, () => {
    const c = cursor(oy, 'y_c');
    const tv = ar.register('tv');
    const sum: Register = { kind: 'number', names: ['sum'] };
    const declarations = [
      oy.emitDeclare(ar),
      ...['tv', ...COMBINE_REGISTERS].map((r) => declareRegister(ar, ar.register(r))),
      'let sum = 0;',
      emitCoefficients(ar, alpha, beta),
    ].join('\n');
    const source = `return function combine_sums(${['m', 'sums', ...oy.params(), 'alpha', 'beta'].join(', ')}) {
${declarations}
${declareCursor(c)}
for (let i = 0; i < m; i++, ${stepCursor(c, 0)}) {
sum = sums[i];
${ar.emitSet(tv, sum)}
${emitCombine(ar, tv, c, alpha, beta)}
${storeAt(c, ar, ar.register('res'))}
}
};`;
    return { source, helpers: mergeHelpers(oy.helpers(), ar.helpers) };
  });
}

/**
 * yᵢ := α·tᵢ + β·yᵢ for i < m in fp64 or fp32 arithmetic (`lanes`), through the generated combination: for
 * outputs that are not {@link plainOutput}.
 */
export function combineSumsInto(alpha: number, t: Float64Array | Float32Array, beta: number, y: Accessor<1, any>, m: number, lanes: 'f64' | 'f32'): void {
  const ar = findFormat(lanes)!.arithmetic!;
  combineSumsProgram(y, ar, coefficientCase(alpha), coefficientCase(beta))(m, t, ...Operand.args(y), alpha, beta);
}
