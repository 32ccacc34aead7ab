/**
 * GEMV's long window for f64·f64 terms, the CPU-side part (the WGSL and its proof: dd-gpu-gemv-long-wgsl.ts): the
 * gpu.js types of its functions, the accumulator's extra state and the source a partial-pass step emits.
 *
 * An accumulator `acc` of this form is three registers: the 112-bit register `acc` itself (slow terms, terms of other
 * kinds, the loop's tail), the window `accW` (four words) and its anchor `accF` (an integer). Its value is acc plus
 * the window, which {@link longWindowValue} settles.
 * @module
 */
import type { GpuPartRegister, GpuValueType } from '../common/gpu-part.js';
import { windowNames } from './dd-gpu-window.js';

/**
 * gpu.js types of the long window's WGSL functions.
 * @returns name → argument and return types
 */
export function longWindowFunctionTypes(): Record<string, { args: GpuValueType[]; returns: GpuValueType }> {
  return {
    mpDgCode: { args: ['Array(2)', 'Array(2)'], returns: 'Integer' },
    mpDgNoExp: { args: [], returns: 'Integer' },
    mpDgSpill: { args: ['Array(4)', 'Array(4)', 'Integer'], returns: 'Array(4)' },
    mpDgKept: { args: ['Array(4)'], returns: 'Array(4)' },
    mpDgRebase: { args: ['Array(4)', 'Integer', 'Integer'], returns: 'Array(4)' },
    mpDgSettle: { args: ['Array(4)', 'Array(4)', 'Integer'], returns: 'Array(4)' },
    mpDgAdd: { args: ['Array(4)', 'Array(2)', 'Array(2)', 'Integer', 'Integer'], returns: 'Array(4)' },
  };
}

/**
 * Declaration of an accumulator of this form: the register, an empty window and its anchor.
 * @param dst - the accumulator's name
 * @returns the lines
 */
export function declareLongAccumulator(dst: string): string {
  return `let ${dst} = [0.0, 0.0, 0.0, 0.0]; let ${dst}W = [0.0, 0.0, 0.0, 0.0]; let ${dst}F = mpDgNoExp();`;
}

/**
 * The value of an accumulator of this form as one 112-bit register expression: its register plus its window.
 * @param acc - the accumulator's name
 * @returns the expression
 */
export function longWindowValue(acc: string): string {
  return `mpDgSettle(${acc}, ${acc}W, ${acc}F)`;
}

/**
 * Source of one step's f64·f64 terms into one accumulator (at most 8: the window's headroom argument): their codes, the
 * headroom check, the re-anchoring, the window adds, then the step's slow terms into the register in term order (one
 * looping call, dd-gpu-window-wgsl.ts's `mpDwSlowRun…`, for two or more terms).
 * @param acc - the accumulator
 * @param run - the terms' operands (f64 registers)
 * @returns the lines
 */
export function longWindowStep(acc: string, run: readonly { a: GpuPartRegister; b: GpuPartRegister }[]): string[] {
  const id = `${acc}g${run[0]!.a.name}`;
  const lines = run.map((t, q) => `const ${id}t${q} = mpDgCode(${t.a.name}, ${t.b.name});`);
  const e = run.slice(1).reduce((m, _, q) => `mpDwMax(${m}, ${id}t${q + 1})`, `${id}t0`);
  lines.push(
    `const ${id}e = ${e};`,
    `${acc} = mpDgSpill(${acc}, ${acc}W, ${acc}F);`,
    `${acc}W = mpDgKept(${acc}W);`,
    `${acc}W = mpDgRebase(${acc}W, ${acc}F, ${id}e);`,
    `${acc}F = mpDwMax(${acc}F, ${id}e);`,
  );
  run.forEach((t, q) => lines.push(`${acc}W = mpDgAdd(${acc}W, ${t.a.name}, ${t.b.name}, ${id}t${q}, ${acc}F);`));
  const names = windowNames('f64', 'f64');
  if (run.length > 1) lines.push(`${acc} = ${names.slowRun(run.length)}(${acc}, ${run.map((t, q) => `${t.a.name}, ${t.b.name}, ${id}t${q}`).join(', ')});`);
  else lines.push(`${acc} = ${names.slow}(${acc}, ${run[0]!.a.name}, ${run[0]!.b.name}, ${id}t0);`);
  return lines;
}
