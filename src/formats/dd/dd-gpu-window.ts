/**
 * DOT's windowed multiply-adds for the GPU dd arithmetic (the CPU-side part: names, gpu.js types and the source a
 * kernel step emits; the WGSL and its proofs are in dd-gpu-window-wgsl.ts, loaded with the GPU runtime).
 *
 * A step's terms into one accumulator become: each term's code (its product's exponent, or 0 for a zero product, or
 * −1 for the slow path), the window's exponent E (their maximum), the window sum of the window terms (128-bit fixed
 * point, no rounding), one xf addition of the window into the accumulator, then the slow terms one by one.
 * @module
 */
import type { GpuPartRegister, GpuValueType } from '../common/gpu-part.js';
import { fail } from '../../core/errors.js';

/**
 * Kinds of register the windowed multiply-adds take (`dd` and `f64` reads; `f64x`, an f64 decoded once per GEMV call
 * by `mpDwOfF64` — the `ddGemvPredecodeX` switch — only as the right operand).
 */
export type WindowKind = 'dd' | 'f64' | 'f64x';

/**
 * The term form of a window: `wide` (dd-gpu-window-wgsl.ts: G built as a 128-bit integer, 53 limb products) or
 * `lean` (dd-gpu-window-lean-wgsl.ts: signed limbs straight from the words, 45 limb products, a cheaper term code).
 * Both share the window, its settle (the lean window counts in units twice as large) and the slow path.
 */
export type WindowForm = 'wide' | 'lean';

/**
 * Most terms of one window: K products < 2^124 each keep the 128-bit two's-complement sum below 2^127 for K ≤ 8
 * (and the window's error, < 3 units of 2^-120·max|a·b| per term, below 2^-115·Σ|a·b|: dd-gpu-window-wgsl.ts).
 */
export const MAX_WINDOW_TERMS = 8;

/**
 * Checks a window length: an integer from 1 to {@link MAX_WINDOW_TERMS} (every such K keeps the proof of
 * dd-gpu-window-wgsl.ts; fewer terms a window mean more settles, each one xf addition).
 * @param terms - terms a window
 * @returns terms
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` otherwise
 */
export function checkWindowTerms(terms: number): number {
  if (!Number.isInteger(terms) || terms < 1 || terms > MAX_WINDOW_TERMS) fail('INVALID_OPTION', 'windowTerms', `must be an integer from 1 to ${MAX_WINDOW_TERMS}`, terms);
  return terms;
}

const cap = (k: WindowKind): string => (k === 'dd' ? 'Dd' : k === 'f64' ? 'F64' : 'F64x');
const TYPE: Readonly<Record<WindowKind, GpuValueType>> = { dd: 'Array(4)', f64: 'Array(2)', f64x: 'Array(4)' };

/**
 * Names of the per-term functions for operand kinds a, b: the term's code, its window add, its slow path, the
 * slow path of a whole run of 2 … 8 terms of these kinds (one loop: see {@link windowSteps}) and the window's settle.
 * The lean form has its own code, add and settle (`mpDl…`); the slow paths are shared (a code of −1 means the same).
 * @param a - kind of a
 * @param b - kind of b
 * @param form - the term form (default `wide`)
 * @returns the WGSL function names
 */
export function windowNames(a: WindowKind, b: WindowKind, form: WindowForm = 'wide'): { exp: string; add: string; slow: string; slowRun: (terms: number) => string; settle: string } {
  const s = `${cap(a)}${cap(b)}`;
  const f = form === 'lean' ? 'mpDl' : 'mpDw';
  return { exp: `${f}Exp${s}`, add: `${f}Add${s}`, slow: `mpDwSlow${s}`, slowRun: (terms) => `mpDwSlowRun${terms}${s}`, settle: `${f}Settle` };
}

/**
 * gpu.js types of the window's WGSL functions.
 * @returns name → argument and return types
 */
export function windowFunctionTypes(): Record<string, { args: GpuValueType[]; returns: GpuValueType }> {
  const out: Record<string, { args: GpuValueType[]; returns: GpuValueType }> = {
    mpDwMax: { args: ['Integer', 'Integer'], returns: 'Integer' },
    mpDwSettle: { args: ['Array(4)', 'Array(4)', 'Integer'], returns: 'Array(4)' },
    mpDlSettle: { args: ['Array(4)', 'Array(4)', 'Integer'], returns: 'Array(4)' },
    mpDwOfF64: { args: ['Array(2)'], returns: 'Array(4)' },
    mpDwF64Of: { args: ['Array(4)'], returns: 'Array(2)' },
  };
  for (const a of ['dd', 'f64'] as const) {
    for (const b of ['dd', 'f64', 'f64x'] as const) {
      const n = windowNames(a, b);
      // The lean form has no decoded-x (f64x) terms.
      for (const m of b === 'f64x' ? [n] : [n, windowNames(a, b, 'lean')]) {
        out[m.exp] = { args: [TYPE[a], TYPE[b]], returns: 'Integer' };
        out[m.add] = { args: ['Array(4)', TYPE[a], TYPE[b], 'Integer', 'Integer'], returns: 'Array(4)' };
      }
      out[n.slow] = { args: ['Array(4)', TYPE[a], TYPE[b], 'Integer'], returns: 'Array(4)' };
      for (let k = 2; k <= MAX_WINDOW_TERMS; k++) out[n.slowRun(k)] = { args: ['Array(4)', ...Array.from({ length: k }, () => [TYPE[a], TYPE[b], 'Integer'] as const).flat()], returns: 'Array(4)' };
    }
  }
  return out;
}

const isWindowKind = (k: string): k is WindowKind => k === 'dd' || k === 'f64' || k === 'f64x';

/**
 * Source of one step's multiply-adds through windows: per accumulator (in order of first use), its terms in runs of
 * at most `windowTerms`, each run one window settled into the accumulator, then the run's slow terms. An
 * accumulator with an operand of another kind gets `plain` multiply-adds instead. With `slowLoop` (the default), a run
 * of two or more terms of one pair of kinds takes its slow terms in one call that loops over them (`mpDwSlowRun…`,
 * the same multiply-adds in the same order, so the same words): one inlined copy of the slow multiply-add per window
 * instead of one per term — a shader a third smaller or less, which is what llvmpipe's compile time follows; the GPU
 * takes the loop only when a term of the window is irregular.
 * @param terms - accumulator and operands of each term, in order
 * @param plain - the ordinary multiply-add
 * @param windowTerms - most terms a window (1 … {@link MAX_WINDOW_TERMS}, default the most)
 * @param slowLoop - one looping slow-path call per run (default) instead of one slow-path call per term
 * @param form - the term form (default `wide`)
 * @returns the lines
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` for a window length outside 1 … {@link MAX_WINDOW_TERMS}
 */
export function windowSteps(terms: readonly { acc: string; a: GpuPartRegister; b: GpuPartRegister }[], plain: (acc: string, a: GpuPartRegister, b: GpuPartRegister) => string, windowTerms: number = MAX_WINDOW_TERMS, slowLoop = true, form: WindowForm = 'wide'): string[] {
  const k = checkWindowTerms(windowTerms);
  const byAcc = new Map<string, { a: GpuPartRegister; b: GpuPartRegister }[]>();
  for (const t of terms) (byAcc.get(t.acc) ?? byAcc.set(t.acc, []).get(t.acc)!).push(t);
  const lines: string[] = [];
  for (const [acc, list] of byAcc) {
    // A decoded f64 (f64x) is a right operand only (GEMV's x).
    if (!list.every((t) => isWindowKind(t.a.kind) && t.a.kind !== 'f64x' && isWindowKind(t.b.kind))) {
      lines.push(...list.map((t) => plain(acc, t.a, t.b)));
      continue;
    }
    for (let s = 0; s < list.length; s += k) {
      const run = list.slice(s, s + k);
      const id = `${acc}w${run[0]!.a.name}`;
      const names = run.map((t) => windowNames(t.a.kind as WindowKind, t.b.kind as WindowKind, form));
      run.forEach((t, q) => lines.push(`const ${id}t${q} = ${names[q]!.exp}(${t.a.name}, ${t.b.name});`));
      const e = run.slice(1).reduce((m, _, q) => `mpDwMax(${m}, ${id}t${q + 1})`, `${id}t0`);
      lines.push(`const ${id}e = ${e};`, `let ${id}s = [0.0, 0.0, 0.0, 0.0];`);
      run.forEach((t, q) => lines.push(`${id}s = ${names[q]!.add}(${id}s, ${t.a.name}, ${t.b.name}, ${id}t${q}, ${id}e);`));
      lines.push(`${acc} = ${names[0]!.settle}(${acc}, ${id}s, ${id}e);`);
      const oneKind = run.every((t) => t.a.kind === run[0]!.a.kind && t.b.kind === run[0]!.b.kind);
      if (slowLoop && run.length > 1 && oneKind) {
        lines.push(`${acc} = ${names[0]!.slowRun(run.length)}(${acc}, ${run.map((t, q) => `${t.a.name}, ${t.b.name}, ${id}t${q}`).join(', ')});`);
      } else {
        run.forEach((t, q) => lines.push(`${acc} = ${names[q]!.slow}(${acc}, ${t.a.name}, ${t.b.name}, ${id}t${q});`));
      }
    }
  }
  return lines;
}
