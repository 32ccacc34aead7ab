/**
 * The last pass of GEMV and the body of ELL SpMV: y ← α·r + β·y per element, written in y's storage
 * format, one thread per output word (two elements per word for 16-bit formats). A packed y is written to a fresh
 * buffer (WebGPU forbids reading and writing one binding in a pass) that then becomes y's buffer; a view y is written
 * in place in its span (`inPlace`: a strided-output program, its old values read from a snapshot; view-output.ts).
 *
 * @module
 */
import type { GpuArithmetic, GpuRegister } from './arithmetic.js';
import type { DeviceArray } from './device-array.js';
import { isDdPairFormat } from './dd-split-bindings.js';
import { arrayArgs, elementIndex, kernelSource, memo, readKey } from './kernel-common.js';
import type { ArgType } from './program.js';
import { laneOutputOf, laneValues, writesLanes, type LaneOutput } from './view-output.js';
import { gpuKernelSwitches } from './kernel-switches.js';

/** The last scalars made per arithmetic: calls in a loop repeat α and β, and building them cost microseconds. */
const lastScalars = new WeakMap<GpuArithmetic, { alpha: number; beta: number; values: Readonly<Record<string, number>> }>();

/**
 * Scalars α and β as the arithmetic's finish code reads them (the same frozen object while α and β repeat: callers
 * copy it into their own scalars).
 */
export function scalarBindings(arithmetic: GpuArithmetic, alpha: number, beta: number): Readonly<Record<string, number>> {
  const last = lastScalars.get(arithmetic);
  // Object.is: −0 and +0 make different words, and NaN repeats as NaN.
  if (last && Object.is(last.alpha, alpha) && Object.is(last.beta, beta)) return last.values;
  const values = Object.freeze({ ...arithmetic.scalar.values('alpha', alpha), ...arithmetic.scalar.values('beta', beta) });
  lastScalars.set(arithmetic, { alpha, beta, values });
  return values;
}

/**
 * Arguments the finish code adds (y's old value only when β ≠ 0; with `inPlace`, the `OutOff`/`OutInc` of a program
 * writing the view y in place: view-output.ts, outputWindow).
 */
export function finishArgs(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, inPlace = false): (readonly [string, ArgType])[] {
  return [...(readsY ? arrayArgs('Yold', y) : []), ['rows', 'Integer'], ...arithmetic.scalar.args('alpha'), ...arithmetic.scalar.args('beta'),
    ...(inPlace ? [['OutOff', 'Integer'] as const, ['OutInc', 'Integer'] as const] : [])];
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
export function finishBody(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, rowSum: (e: number) => string[], inPlace = false): string[] {
  // A sub-word view written in place off the word store (any offset and stride): one element a thread, its bits in lane
  // 0 of the returned word (the program's lane store keeps the word's other lanes: program.ts, laneOutput).
  const lanes = inPlace && writesLanes(y);
  const epw = lanes ? 1 : y.format.elementsPerWord;
  const lines: string[] = [];
  // The store goes to unit OutOff + t·OutInc (applyStridedOutput); gpu.js keeps only arguments the source names.
  if (inPlace) lines.push('const outUnit = OutOff + this.thread.x * OutInc;');
  lines.push(arithmetic.scalar.declare('al', 'alpha'));
  if (readsY) lines.push(arithmetic.scalar.declare('be', 'beta'));
  const results: GpuRegister[] = [];
  for (let e = 0; e < epw; e++) {
    lines.push(`const r${e} = this.thread.x * ${epw} + ${e};`);
    lines.push(arithmetic.declareZero(`acc${e}`));
    lines.push(...rowSum(e));
    const acc = arithmetic.register(`acc${e}`);
    lines.push(arithmetic.declareMul(`u${e}`, acc, arithmetic.register('al')));
    if (readsY) {
      const read = y.format.emitRead('Yold', elementIndex('Yold', y, `r${e}`), `yo${e}`, arithmetic);
      lines.push(read.code);
      lines.push(arithmetic.declareMul(`w${e}`, read.register, arithmetic.register('be')));
      lines.push(arithmetic.add(`u${e}`, arithmetic.register(`w${e}`)));
    }
    // Elements past the end (the last lanes of a last word) are stored as zero.
    lines.push(`if (r${e} >= rows) { u${e} = ${arithmetic.literal(0)}; }`);
    results.push(arithmetic.register(`u${e}`));
  }
  lines.push(y.format.emitReturn(lanes ? laneValues(y.format.elementsPerWord, results[0]!) : results));
  return lines;
}

/**
 * The program options of a pass whose body is {@link finishBody}: a view y written in place gets the strided store (the
 * lane store for a sub-word view the word store does not take) and, when its old values are read, reads them from its own
 * output binding ({@link bindOldFromOutput}: each thread reads only what it writes); a dd pair y gets the pair store
 * (dd-split-bindings.ts: a dd-split y's two blocks written in place).
 * @param y - the output
 * @param readsY - whether β ≠ 0
 * @param inPlace - whether y is written in place
 * @returns the ProgramSpec fields
 */
export function finishProgramOptions(y: DeviceArray, readsY: boolean, inPlace: boolean): { stridedOutput: boolean; laneOutput: LaneOutput | false; readsOutput: readonly string[]; pairOutput: boolean } {
  return { stridedOutput: inPlace, laneOutput: laneOutputOf(y, inPlace), readsOutput: inPlace && readsY ? ['Yold'] : [], pairOutput: isDdPairFormat(y.format) };
}

/**
 * Threads of a pass whose body is {@link finishBody} over `rows` rows of y: one per output word, or one per element for a
 * lane store.
 * @param y - the output
 * @param rows - the rows
 * @param inPlace - whether y is written in place
 * @returns the thread count
 */
export function finishThreads(y: DeviceArray, rows: number, inPlace: boolean): number {
  return inPlace && writesLanes(y) ? rows : Math.ceil(rows / y.format.elementsPerWord);
}

/**
 * A last pass summing, for each output row r, the S partials P[r·sr + c·sc] (c = 0 … S−1, in that order),
 * then applying α and β and writing y (GEMV's second pass; ELL SpMV's when its matrix is split over
 * storage bindings).
 * @param arithmetic - the arithmetic (and the partials' format)
 * @param y - the output operand
 * @param readsY - whether β ≠ 0
 * @param inPlace - whether y is a view written in place (a strided store; a lane store for a sub-word view the word store does not take)
 * @param grouped - G groups of S partials per row (uniforms G and sg: P[r·sr + g·sg + c·sc]), summed group after group
 * @returns source and arguments (memoised per arithmetic, y's format, β ≠ 0 and the two flags)
 */
export function partialsFinishSource(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, inPlace = false, grouped = false): { source: string; args: (readonly [string, ArgType])[] } {
  return memo(`partialsF|${arithmetic.name}|${readKey(y)}|${readsY}${inPlace ? `|in-place${writesLanes(y) ? '-lanes' : ''}` : ''}${grouped ? '|grouped' : ''}`, () => makePartialsFinishSource(arithmetic, y, readsY, inPlace, grouped));
}

/**
 * `grouped`: G groups of S partials, group g of row r at P[r·sr + g·sg + c·sc] (GEMV T with x over one binding: a
 * group per window of rows), summed group after group in order. Without it the source is the one-group pass.
 */
function makePartialsFinishSource(arithmetic: GpuArithmetic, y: DeviceArray, readsY: boolean, inPlace: boolean, grouped: boolean): { source: string; args: (readonly [string, ArgType])[] } {
  const args = [['P', 'Array'] as const, ['S', 'Integer'] as const, ['sr', 'Integer'] as const, ['sc', 'Integer'] as const,
    ...(grouped ? [['G', 'Integer'] as const, ['sg', 'Integer'] as const] : []), ...finishArgs(arithmetic, y, readsY, inPlace)];
  const partial = arithmetic.words;
  // B partials (the gemvFinishBatch switch; 8 by default) loaded before they are added (in order, so the result does
  // not depend on B): one at a time, the loop waits a memory latency per partial.
  const batch = gpuKernelSwitches().gemvFinishBatch;
  const body = finishBody(arithmetic, y, readsY, (e) => {
    const base = grouped ? `gb${e}` : `r${e} * sr`;
    const lines = grouped ? [`for (let g${e} = mpI32(0); g${e} < G; g${e}++) {`, `const gb${e} = r${e} * sr + g${e} * sg;`] : [];
    lines.push(`let c${e} = mpI32(0);`, `while (c${e} + ${batch - 1} < S) {`);
    const regs = [];
    for (let q = 0; q < batch; q++) {
      const read = partial.emitRead('P', `${base} + (c${e} + ${q}) * sc`, `p${e}u${q}`, arithmetic);
      lines.push(read.code);
      regs.push(read.register);
    }
    regs.forEach((r) => lines.push(arithmetic.add(`acc${e}`, r)));
    const tail = partial.emitRead('P', `${base} + c${e} * sc`, `p${e}`, arithmetic);
    lines.push(`c${e} = c${e} + ${batch};`, '}', `while (c${e} < S) {`, tail.code, arithmetic.add(`acc${e}`, tail.register), `c${e} = c${e} + 1;`, '}');
    if (grouped) lines.push('}');
    return lines;
  }, inPlace);
  return { source: kernelSource(args, body), args };
}
