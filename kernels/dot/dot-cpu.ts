/**
 * DOT program: generates and caches the specialised loop for one (x, y, arithmetic, accumulation, out) signature.
 * The loop runs without the arithmetic's rare-case guards first and again with them only when the result is
 * not finite (src/backends/cpu/guards.ts): a DOT is a sum of products, so non-finite intermediates always reach
 * the result as long as the accumulation says so.
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accessor } from '../../accessors/accessor.js';
import type { Accumulation } from '../shared/accumulation.js';
import { Operand } from '../../src/backends/cpu/operand.js';
import { compileProgram, mergeHelpers } from '../../src/backends/cpu/program-cache.js';
import { declareAll, loadVectorElement, vectorLoop } from '../../src/backends/cpu/reduction-kernel.js';
import { unguardedFirst } from '../../src/backends/cpu/guards.js';

/** Signature of a compiled DOT: (n, ...x, ...y, ...out?) → the result rounded to a double. */
export type DotFunction = (n: number, ...args: unknown[]) => number;

/** The compiled DOT for these operands (built on first use). */
export function dotProgram(
  x: Accessor<1, any>, y: Accessor<1, any>, out: Accessor<1, any> | undefined,
  ar: ArithmeticFormat, acc: Accumulation,
): DotFunction {
  const ox = new Operand('x', x);
  const oy = new Operand('y', y);
  const oo = out ? new Operand('r', out) : undefined;
  const key = { kernel: 'dot', x: ox.signature(), y: oy.signature(), out: oo?.signature() ?? null, ar: ar.name, acc: acc.name };
  return compileProgram<DotFunction>(key, () => {
    // Exact reads (fp64/fp32 storage under DD arithmetic) stay plain doubles: the arithmetic specialises its multiply-add.
    const xv = ox.valueRegister(ar, 'xv');
    const yv = oy.valueRegister(ar, 'yv');
    const res = ar.register('res');
    const params = ['n', ...ox.params(), ...oy.params(), ...(oo?.params() ?? [])];
    const body = [
      loadVectorElement(ox, ar, xv),
      loadVectorElement(oy, ar, yv),
      acc.emitAddProduct('s', xv, yv, ar),
    ].join('\n');
    const source = `return function dot(${params.join(', ')}) {
${declareAll(ar, acc, 's', [xv, yv, res], oo ? [ox, oy, oo] : [ox, oy])}
${unguardedFirst((b) => vectorLoop([ox, oy], b), body, acc.emitResult(res, 's', ar), ar.emitToNumber(res), acc.emitReset('s', ar), acc.propagatesNonFinite === true)}
const dotResult = ${ar.emitToNumber(res)};
${oo ? `// The store divides res by a scale in place (a scaled float into): the double is taken before it.
${oo.emitStore(ar, res, oo.offset, oo.accessor.scale ? oo.scaleOffset : undefined)}` : ''}
return dotResult;
};`;
    return { source, helpers: mergeHelpers(ox.helpers(), oy.helpers(), oo?.helpers() ?? {}, ar.helpers, acc.helpers) };
  });
}
