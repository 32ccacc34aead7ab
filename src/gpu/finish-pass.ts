/**
 * The last pass of GEMV and the body of ELL SpMV: y ← α·r + β·y per element, written in y's storage
 * format, one thread per output word (two elements per word for 16-bit formats). y is written to a fresh
 * buffer (WebGPU forbids reading and writing one binding in a pass) that then becomes y's buffer.
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from './arithmetic.js';
import type { DeviceArray } from './device-array.js';
import { arrayArgs, floatPair } from './kernel-common.js';
import type { ArgType } from './program.js';

/** Scalars α and β as the finish code reads them. */
export function scalarBindings(alpha: number, beta: number): Record<string, number> {
  const [alphaHi, alphaLo] = floatPair(alpha);
  const [betaHi, betaLo] = floatPair(beta);
  return { alphaHi, alphaLo, betaHi, betaLo };
}

/** Arguments the finish code adds (y's old value only when β ≠ 0). */
export function finishArgs(y: DeviceArray, readsY: boolean): (readonly [string, ArgType])[] {
  return [...(readsY ? arrayArgs('Yold', y) : []), ['rows', 'Integer'], ['alphaHi', 'Float'], ['alphaLo', 'Float'], ['betaHi', 'Float'], ['betaLo', 'Float']];
}

/**
 * Source lines that compute, for each element e of this thread's output word, row `r{e}` =
 * thread·epw + e, call `rowSum(e)` to accumulate it into `acc{e}`, apply α and β, and return the word.
 * @param arithmetic - the arithmetic
 * @param y - the output operand (its format decides elements per word)
 * @param readsY - whether β ≠ 0
 * @param rowSum - source accumulating row `r{e}` into `acc{e}`
 * @returns the lines
 */
export function finishBody(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, rowSum: (e: number) => string[]): string[] {
  const epw = y.format.elementsPerWord;
  const lines: string[] = [];
  lines.push(arithmetic.name === 'ff' ? 'const al = [alphaHi, alphaLo];' : 'const al = alphaHi;');
  if (readsY) lines.push(arithmetic.name === 'ff' ? 'const be = [betaHi, betaLo];' : 'const be = betaHi;');
  const results: GpuRegister[] = [];
  for (let e = 0; e < epw; e++) {
    lines.push(`const r${e} = this.thread.x * ${epw} + ${e};`);
    lines.push(arithmetic.declareZero(`acc${e}`));
    lines.push(...rowSum(e));
    const acc = arithmetic.register(`acc${e}`);
    lines.push(arithmetic.declareMul(`u${e}`, acc, arithmetic.register('al')));
    if (readsY) {
      const read = y.format.emitRead('Yold', `r${e}`, `yo${e}`, arithmetic);
      lines.push(read.code);
      lines.push(arithmetic.declareMul(`w${e}`, read.register, arithmetic.register('be')));
      lines.push(arithmetic.add(`u${e}`, arithmetic.register(`w${e}`)));
    }
    // Elements past the end (the second half of a last word) are stored as zero.
    lines.push(`if (r${e} >= rows) { u${e} = ${arithmetic.name === 'ff' ? '[0.0, 0.0]' : '0.0'}; }`);
    results.push(arithmetic.register(`u${e}`));
  }
  lines.push(y.format.emitReturn(results));
  return lines;
}
