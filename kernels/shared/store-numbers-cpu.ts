/**
 * The store of results computed in WebAssembly into an output the WebAssembly does not write itself (a scaled
 * range, fp16, bf16 or integer storage): a generated loop that takes each result as a value of the arithmetic
 * (fp64, fp32's binary32 values, or double-double arithmetic's pair) and stores it with the JavaScript kernels' own
 * store (`storeAt`: divided by the scale, an integer rounded once from the exact quotient, the storage's rounding) —
 * so the same bits as theirs, whatever the output's scales (one, or one per element: the cursor steps them).
 * @module
 */
import { declareRegister, type ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { cursor, declareCursor, stepCursor, storeAt } from '../../src/backends/cpu/cursor.js';

type StoreNumbers = (count: number, values: Float64Array, ...out: unknown[]) => void;

/** The compiled store for this output and arithmetic (double-double: values[2i], values[2i + 1] are result i's pair). */
function storeNumbersProgram(out: Accessor<1, any>, ar: ArithmeticFormat): StoreNumbers {
  const oo = new Operand('out', out);
  return compileProgram<StoreNumbers>({ kernel: 'store-numbers', out: oo.signature(), ar: ar.name }, () => {
    const c = cursor(oo, 'out_c'), v = ar.register('v');
    const set = ar.kind === 'dd' ? `${v.names[0]} = values[2 * i]; ${v.names[1]} = values[2 * i + 1];` : `${v.names[0]} = values[i];`;
    const source = `return function store_numbers(${['count', 'values', ...oo.params()].join(', ')}) {
${oo.emitDeclare(ar)}
${declareRegister(ar, v)}
${declareCursor(c)}
for (let i = 0; i < count; i++, ${stepCursor(c, 0)}) {
${set}
${storeAt(c, ar, v)}
}
};`;
    return { source, helpers: mergeHelpers(oo.helpers(), ar.helpers) };
  });
}

/**
 * Stores values[0 … count) into elements [from, from + count) of `out` as the JavaScript kernels in `ar` store a
 * result: numbers for fp64 and fp32 arithmetic, pairs (values[2k], values[2k + 1]) for double-double arithmetic.
 */
export function storeNumbers(out: Accessor<1, any>, from: number, count: number, values: Float64Array, ar: ArithmeticFormat): void {
  const part = out.sub({ begin: from, end: from + count }) as Accessor<1, any>;
  storeNumbersProgram(part, ar)(count, values, ...Operand.args(part));
}
