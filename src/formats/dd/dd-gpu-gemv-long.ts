/**
 * GEMV's long window for f64·f64 terms (and, with the `ddGemvLongDd` switch, terms with a dd operand), the CPU-side
 * part (the WGSL and its proof: dd-gpu-gemv-long-wgsl.ts): the gpu.js types of its functions, the accumulator's extra
 * state and the source a partial-pass step emits.
 *
 * An accumulator `acc` of this form is three registers: the 112-bit register `acc` itself (slow terms, terms of other
 * kinds, the loop's tail), the window `accW` (four words) and its anchor `accF` (an integer). Its value is acc plus
 * the window, which {@link longWindowValue} settles.
 * @module
 */
import type { GpuPartRegister, GpuValueType } from '../common/gpu-part.js';
import { windowNames } from './dd-gpu-window.js';

/** The register holding the shared limbs of the f64 register `b`. */
const sharedLimbs = (b: string): string => `${b}L`;

/**
 * The f64 right operands of a step's f64·f64 terms that two or more accumulators share (x_j of R rows a thread), and
 * the lines that compute their limbs once (`mpDgLimbs`).
 * @param list - the step's terms
 * @returns the shared registers' names and the lines
 */
export function sharedLimbsLines(list: readonly { acc: string; a: GpuPartRegister; b: GpuPartRegister }[]): { shared: Set<string>; lines: string[] } {
  const users = new Map<string, Set<string>>();
  for (const t of list) if (t.a.kind === 'f64' && t.b.kind === 'f64') (users.get(t.b.name) ?? users.set(t.b.name, new Set()).get(t.b.name)!).add(t.acc);
  const shared = new Set([...users].filter(([, accs]) => accs.size > 1).map(([b]) => b));
  return { shared, lines: [...shared].map((b) => `const ${sharedLimbs(b)} = mpDgLimbs(${b});`) };
}

/** Kinds of register the long window takes (a decoded f64x is the per-step window's only). */
export type LongKind = 'dd' | 'f64';

const cap = (k: LongKind): string => (k === 'dd' ? 'Dd' : 'F64');

/**
 * Name of the long window's add of a term with a dd operand (a of kind `a`, b of kind `b`; not both f64: that is
 * `mpDgAdd`), defined in dd-gpu-gemv-long-wgsl.ts.
 * @param a - a's kind
 * @param b - b's kind
 * @returns the WGSL function's name
 */
export function longDdAddName(a: LongKind, b: LongKind): string {
  return `mpDgAdd${cap(a)}${cap(b)}`;
}

/** Kind of the register of an x_j in dd decoded once a call (the `ddGemvDecodedXDd` switch): x_j's own dd words in `name`, its decoded words in {@link decodedWords}. */
export const DECODED_DD = 'ddx';

/**
 * The register holding the decoded words (`mpDgDecodeDd`) of the decoded-dd register `b`.
 * @param b - the register's name
 * @returns the name of its decoded words
 */
export const decodedWords = (b: string): string => `${b}D`;

/**
 * Names of the long window's code and add of a term a·x_j with x_j in dd decoded once a call (a of kind `a`), defined
 * in dd-gpu-gemv-decoded-dd-wgsl.ts.
 * @param a - a's kind
 * @returns the WGSL functions' names
 */
export function decodedDdNames(a: LongKind): { exp: string; add: string } {
  return { exp: `mpDgExp${cap(a)}Dx`, add: `mpDgAdd${cap(a)}Dx` };
}

/**
 * gpu.js types of the decoded dd x's functions (the `ddGemvDecodedXDd` switch; a part of their own): the pre-pass's
 * decoding, the term codes and adds.
 * @returns name → argument and return types
 */
export function decodedDdFunctionTypes(): Record<string, { args: GpuValueType[]; returns: GpuValueType }> {
  const out: Record<string, { args: GpuValueType[]; returns: GpuValueType }> = { mpDgDecodeDd: { args: ['Array(4)'], returns: 'Array(4)' } };
  for (const a of ['dd', 'f64'] as const) {
    const n = decodedDdNames(a);
    const ta: GpuValueType = a === 'dd' ? 'Array(4)' : 'Array(2)';
    out[n.exp] = { args: [ta, 'Array(4)'], returns: 'Integer' };
    out[n.add] = { args: ['Array(4)', ta, 'Array(4)', 'Array(4)', 'Integer', 'Integer'], returns: 'Array(4)' };
  }
  return out;
}

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
 * gpu.js types of the f64·f64 add with x's limbs shared by R rows a thread (the `ddGemvRows` switch; a part of their own).
 * @returns name → argument and return types
 */
export function longRowsWindowFunctionTypes(): Record<string, { args: GpuValueType[]; returns: GpuValueType }> {
  return {
    mpDgLimbs: { args: ['Array(2)'], returns: 'Array(4)' },
    mpDgAddShared: { args: ['Array(4)', 'Array(2)', 'Array(2)', 'Array(4)', 'Integer', 'Integer'], returns: 'Array(4)' },
  };
}

/**
 * gpu.js types of the long window's adds of terms with a dd operand (the `ddGemvLongDd` switch; a part of their own).
 * @returns name → argument and return types
 */
export function longDdWindowFunctionTypes(): Record<string, { args: GpuValueType[]; returns: GpuValueType }> {
  return {
    [longDdAddName('dd', 'dd')]: { args: ['Array(4)', 'Array(4)', 'Array(4)', 'Integer', 'Integer'], returns: 'Array(4)' },
    [longDdAddName('dd', 'f64')]: { args: ['Array(4)', 'Array(4)', 'Array(2)', 'Integer', 'Integer'], returns: 'Array(4)' },
    [longDdAddName('f64', 'dd')]: { args: ['Array(4)', 'Array(2)', 'Array(4)', 'Integer', 'Integer'], returns: 'Array(4)' },
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
 * Whether a step's terms all have one pair of kinds that the long window takes: f64·f64, and with `dd` also dd·dd,
 * dd·f64 and f64·dd (the `ddGemvLongDd` switch).
 * @param run - the step's terms
 * @param dd - whether terms with a dd operand are taken
 * @returns whether {@link longWindowStep} takes the step
 */
export function longWindowTakes(run: readonly { a: GpuPartRegister; b: GpuPartRegister }[], dd: boolean): boolean {
  if (run.length === 0) return false;
  const [a, b] = [run[0]!.a.kind, run[0]!.b.kind];
  const ok = (k: string): k is LongKind => k === 'f64' || (dd && k === 'dd');
  // A decoded dd x_j (ddGemvDecodedXDd) is a right operand only.
  return ok(a) && (ok(b) || (dd && b === DECODED_DD)) && run.every((t) => t.a.kind === a && t.b.kind === b);
}

/**
 * Source of one step's terms into one accumulator (at most 8: the window's headroom argument; one pair of kinds, see
 * {@link longWindowTakes}): their codes, the headroom check, the re-anchoring, the window adds, then the step's slow
 * terms into the register in term order (one looping call, dd-gpu-window-wgsl.ts's `mpDwSlowRun…`, for two or more
 * terms). f64·f64 terms take `mpDgCode` and the exact product (`mpDgAdd`), terms with a dd operand the lean code
 * (`mpDlExp…`) and the lean product (`mpDgAdd<A><B>`), in the same window.
 * @param acc - the accumulator
 * @param run - the terms' operands (f64 or dd registers; b may be a decoded dd x_j, kind {@link DECODED_DD}: its code
 *   and add then read its decoded words, `mpDgExp<A>Dx` and `mpDgAdd<A>Dx`, the same values)
 * @param shared - f64 right operands whose limbs {@link sharedLimbsLines} declared (x_j of R rows a thread): their
 *   f64·f64 terms take `mpDgAddShared` with those limbs — the same words as `mpDgAdd`
 * @returns the lines
 */
export function longWindowStep(acc: string, run: readonly { a: GpuPartRegister; b: GpuPartRegister }[], shared: ReadonlySet<string> = new Set()): string[] {
  const id = `${acc}g${run[0]!.a.name}`;
  const ka = run[0]!.a.kind as LongKind;
  // x_j decoded once a call: x's code and limbs from its decoded words (the same values), its own words for the rest.
  const decoded = run[0]!.b.kind === DECODED_DD;
  const kb: LongKind = decoded ? 'dd' : (run[0]!.b.kind as LongKind);
  const exact = ka === 'f64' && kb === 'f64';
  const code = decoded ? decodedDdNames(ka).exp : exact ? 'mpDgCode' : windowNames(ka, kb, 'lean').exp;
  const add = decoded ? decodedDdNames(ka).add : exact ? 'mpDgAdd' : longDdAddName(ka, kb);
  const codeArg = (b: string): string => (decoded ? decodedWords(b) : b);
  const addArgs = (b: string): string => (decoded ? `${b}, ${decodedWords(b)}` : b);
  const lines = run.map((t, q) => `const ${id}t${q} = ${code}(${t.a.name}, ${codeArg(t.b.name)});`);
  const e = run.slice(1).reduce((m, _, q) => `mpDwMax(${m}, ${id}t${q + 1})`, `${id}t0`);
  lines.push(
    `const ${id}e = ${e};`,
    `${acc} = mpDgSpill(${acc}, ${acc}W, ${acc}F);`,
    `${acc}W = mpDgKept(${acc}W);`,
    `${acc}W = mpDgRebase(${acc}W, ${acc}F, ${id}e);`,
    `${acc}F = mpDwMax(${acc}F, ${id}e);`,
  );
  run.forEach((t, q) => lines.push(exact && shared.has(t.b.name)
    ? `${acc}W = mpDgAddShared(${acc}W, ${t.a.name}, ${t.b.name}, ${sharedLimbs(t.b.name)}, ${id}t${q}, ${acc}F);`
    : `${acc}W = ${add}(${acc}W, ${t.a.name}, ${addArgs(t.b.name)}, ${id}t${q}, ${acc}F);`));
  const names = windowNames(ka, kb);
  if (run.length > 1) lines.push(`${acc} = ${names.slowRun(run.length)}(${acc}, ${run.map((t, q) => `${t.a.name}, ${t.b.name}, ${id}t${q}`).join(', ')});`);
  else lines.push(`${acc} = ${names.slow}(${acc}, ${run[0]!.a.name}, ${run[0]!.b.name}, ${id}t0);`);
  return lines;
}
