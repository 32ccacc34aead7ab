/**
 * DOT's `into` after a WebAssembly sum: the result register set from what the WebAssembly returned and stored into
 * the range by the JavaScript DOT's own store (kernels/dot/dot-cpu.ts: `emitStore` of the arithmetic's result, so a
 * double-double, fp32, scaled or integer `into` rounds as the JavaScript's does), and the double the kernel returns
 * (`emitToNumber` of the same register, taken before the store divides it by a scale). The sum itself is the WebAssembly's.
 * @module
 */
import type { ArithmeticFormat, Register } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';

/** Stores (hi, lo) — the result's pair, or a double with lo 0 — into `into`'s storage and returns the result as a double. */
export type DotIntoStore = (hi: number, lo: number, ...into: unknown[]) => number;

/**
 * The store of a WebAssembly DOT's result into `into`, for arithmetic `ar`.
 * @param pair - the result is a double-double sum (hi, lo): the `dd` accumulation's (converted to `ar` as its
 *   result is) or double-double arithmetic's; otherwise a double of `ar` (hi; lo unused)
 */
export function dotIntoStore(into: Accessor<1, any>, ar: ArithmeticFormat, pair: boolean): DotIntoStore {
  const oo = new Operand('r', into);
  const key = { kernel: 'dot-into', out: oo.signature(), ar: ar.name, pair };
  return compileProgram<DotIntoStore>(key, () => {
    const res = ar.register('res');
    const sum: Register = pair ? { kind: 'dd', names: ['hi', 'lo'] } : { kind: 'number', names: ['hi'] };
    // As the accumulations' emitResult: the pair converted to the arithmetic (106 bits; as is in dd arithmetic).
    const set = ar.emitConvert(res, sum, pair ? 106 : 53);
    const source = `return function dotInto(${['hi', 'lo', ...oo.params()].join(', ')}) {
${oo.emitDeclare(ar)}
${ar.emitDeclare(res)}
${set}
const dotResult = ${ar.emitToNumber(res)};
// The store divides res by a scale in place (a scaled float into): the double is taken before it.
${oo.emitStore(ar, res, oo.offset, into.scale ? oo.scaleOffset : undefined)}
return dotResult;
};`;
    return { source, helpers: mergeHelpers(oo.helpers(), ar.helpers) };
  });
}
