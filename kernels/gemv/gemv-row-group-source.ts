/**
 * GEMV N's partial pass with R adjacent rows per thread (issue 19): thread (g, c) sums rows gR … gR + R − 1 over
 * column chunk c. Each loaded element of x then feeds R rows, a 16-bit matrix is read a 32-bit word (two rows) per
 * load instead of one 16-bit half per thread, and with R = 4 a format's vector read takes four rows in one 8- or
 * 16-byte load. The thread returns its R partials as one output of R·w words (w: the arithmetic's words), so they
 * land where R one-row threads would have put them and GEMV's finish pass reads them unchanged. Two rows of a packed
 * 16-bit matrix are one word, two of fp32 one 8-byte load (the formats' pair reads).
 *
 * @module
 */
import { GPU_TUNING_OPTIONS } from '../shared/kernel-options.js';
import { fail } from '../../src/core/errors.js';
import type { GpuArithmetic, GpuRegister } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { accumulatorChains, arrayArgs, elementIndex, kernelSource, mulAddGroup, UNROLL } from '../../src/backends/webgpu/kernel-common.js';
import type { ArgType } from '../../src/backends/webgpu/program.js';
import { pingPongSteps, prefetchedSteps } from '../shared/prefetched-steps.js';
import { gpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { longLazySteps } from '../shared/long-lazy-steps.js';

/**
 * The most rows a thread of GEMV N's partial pass can take in `arithmetic`: R·(its words) must fit a thread's
 * four-word output (in float-float with the `gemvFfFourRows` switch: 4 rows, stored by the thread itself — see
 * {@link storesOwnPartials}), and its register must be the plain variable the pass returns. Four-word registers (dd)
 * with a GEMV variant take the `ddGemvRows` switch's rows (1 unless set), stored by the thread itself; the pass settles
 * each row's value (its GEMV variant's `returnValue`) before the stores.
 * @param arithmetic - the arithmetic
 * @returns 1, 2 or 4
 */
export function maxRowsPerThread(arithmetic: GpuArithmetic): 1 | 2 | 4 {
  // Only where the partial pass runs a GEMV variant (dd's windows): the one-dispatch forms, which take the arithmetic
  // itself, then never see four-word rows.
  if (arithmetic.components === 4) return arithmetic.gemvVariant ? gpuKernelSwitches().ddGemvRows : 1;
  if (arithmetic.returnValue('acc') !== 'acc') return 1;
  if (arithmetic.components === 2) return gpuKernelSwitches().gemvFfFourRows ? 4 : 2;
  return arithmetic.components === 1 ? 4 : 1;
}

/**
 * Whether a thread of the R-rows pass stores its partials itself (the `gemvFfFourRows` switch): R rows of w words
 * each are more than the four words a thread returns.
 * @param arithmetic - the arithmetic
 * @param rows - rows per thread
 * @returns whether the pass writes through the atomic binding `PAtomic` instead of its output
 */
export function storesOwnPartials(arithmetic: GpuArithmetic, rows: number): boolean {
  return rows * arithmetic.components > 4;
}

/**
 * Validates GEMV's `rowsPerThread` option.
 * @param value - the option (undefined: the most the arithmetic allows)
 * @param arithmetic - the arithmetic
 * @returns 1, 2 or 4
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `options.rowsPerThread` for other values or more than
 *   the arithmetic allows
 */
export function checkRowsPerThread(value: unknown, arithmetic: GpuArithmetic): 1 | 2 | 4 {
  const most = maxRowsPerThread(arithmetic);
  if (value === undefined) return most;
  GPU_TUNING_OPTIONS.rowsPerThread!(value);
  const rows = value as 1 | 2 | 4;
  if (rows > most) fail('INVALID_OPTION', 'options.rowsPerThread', `must be at most ${most} in ${arithmetic.name} arithmetic (a thread returns at most four words)`, value);
  return rows;
}

/**
 * Which one-load read the R-rows pass uses for A's R rows of a column: the format's octet read for R = 8 (16-bit
 * formats, the `gemvEightRows` switch), its vector read for R = 4, its pair read for R = 2 — for a packed (not view, not scaled) matrix whose rows and lda are multiples of R, so every run
 * starts on a vector boundary; `undefined`: R scalar reads.
 * @param A - the matrix data
 * @param m - rows
 * @param lda - leading dimension
 * @param rows - rows per thread
 * @returns `'octet'`, `'vector'`, `'pair'` or undefined
 */
export function rowRunRead(A: DeviceArray, m: number, lda: number, rows: number): 'octet' | 'vector' | 'pair' | undefined {
  if (A.isView || A.rangeScale || A.format.scaled || m % rows !== 0 || lda % rows !== 0) return undefined;
  if (rows === 8 && A.format.octetRead) return 'octet';
  if (rows === 4 && A.format.vectorRead) return 'vector';
  if (rows === 2 && A.format.pairRead) return 'pair';
  return undefined;
}

/**
 * Source of the R-rows partial pass. Arguments: A (and its vector view when `vector`), X, m, n, lda, chunk and G (the
 * number of row groups, ⌈m/R⌉). Rows past m (a last group of an m that is not a multiple of R) read row m − 1
 * again; their partials are never read.
 * @param arithmetic - the arithmetic
 * @param A - the matrix data
 * @param x - the vector
 * @param chains - accumulators per row
 * @param rows - R
 * @param run - read the R rows with one octet, vector or pair load (see {@link rowRunRead}), or R scalar reads
 * @param prefetch - load each step's columns one step ahead (see ../shared/prefetched-steps.ts; registers of kind f32 or ff)
 * @param vectorX - read x four columns a load (its format's vector read; for a packed x and chunks that are multiples
 *   of 4, so that every step starts on a vector boundary — see {@link vectorXRead})
 * @param unroll - columns per step (4, 8 or 16; the `gemvUnroll` switch): the loads in flight per thread, and in
 *   float-float how often the lazy accumulators settle (another fixed order, within the same bound)
 * @returns source and arguments (with {@link storesOwnPartials}: also `PAtomic`, the partial buffer, which the thread
 *   writes word by word where R one-row threads would have written; its own output is then never stored)
 */
export function partialNRowsSource(arithmetic: GpuArithmetic, A: DeviceArray, x: DeviceArray, chains: number, rows: number, run: 'octet' | 'vector' | 'pair' | undefined, prefetch = false, vectorX = false, unroll = UNROLL): { source: string; args: (readonly [string, ArgType])[] } {
  const { args, body } = partialNRowsLines(arithmetic, A, x, chains, rows, run, prefetch, vectorX, unroll, 'this.thread.x');
  const own = storesOwnPartials(arithmetic, rows);
  const words = arithmetic.components;
  // A row's value: its accumulator, or (an arithmetic whose accumulator has more state, e.g. dd's long window) the
  // returnValue settled into a register first.
  const settled = Array.from({ length: rows }, (_, r) => arithmetic.returnValue(`acc${r}`) !== `acc${r}`);
  settled.forEach((s, r) => { if (s) body.push(`const acc${r}v = ${arithmetic.returnValue(`acc${r}`)};`); });
  const value = (r: number): string => (settled[r] ? `acc${r}v` : `acc${r}`);
  const lanes = Array.from({ length: rows }, (_, r) => (words === 1 ? [value(r)] : Array.from({ length: words }, (_, w) => `${value(r)}[${w}]`))).flat();
  if (own) {
    // Thread (g, c)'s rows gR … gR + R − 1 at partial units c·G·R + gR + r (what the finish pass reads, sc = G·R): word by
    // word, as bit patterns, through the atomic view of the partial buffer. Then no store of the thread's own output.
    body.push(`const pBase = (mpIdiv(this.thread.x, G) * G * ${rows} + i0) * ${words};`, ...lanes.map((lane, k) => `mpAtomicStore(PAtomic[pBase + ${k}], mpBits(${lane}));`));
    body.push('if (m > 0) { mpNoStore(); }', `return [${lanes.slice(0, 4).join(', ')}];`);
  } else {
    body.push(`return ${lanes.length === 1 ? lanes[0] : `[${lanes.join(', ')}]`};`);
  }
  return { source: kernelSource(args, body), args };
}

/**
 * The arguments of {@link partialNRowsSource} and its lines up to the R rows' partials in `acc0` … `acc{R−1}` for the
 * partial-pass thread `thread` (an integer expression): the one-dispatch GEMV N (./gemv-fused-finish-source.ts) runs
 * them for its own thread and again for a partial it must recompute — the same lines, so the same bits.
 * @returns the arguments and the lines
 */
export function partialNRowsLines(arithmetic: GpuArithmetic, A: DeviceArray, x: DeviceArray, chains: number, rows: number, run: 'octet' | 'vector' | 'pair' | undefined, prefetch: boolean, vectorX: boolean, unroll: number, thread: string): { args: (readonly [string, ArgType])[]; body: string[] } {
  const own = storesOwnPartials(arithmetic, rows);
  const vectorRead = run === 'octet' ? A.format.octetRead : run === 'vector' ? A.format.vectorRead : run === 'pair' ? A.format.pairRead : undefined;
  const xRead = vectorX && unroll % 4 === 0 ? x.format.vectorRead : undefined;
  const args: (readonly [string, ArgType])[] = [...arrayArgs('A', A), ...(vectorRead?.suffix ? [[`A${vectorRead.suffix}`, 'Array'] as const] : []), ...arrayArgs('X', x), ...(xRead ? [[`X${xRead.suffix}`, 'Array'] as const] : []), ['m', 'Integer'], ['n', 'Integer'], ['lda', 'Integer'], ['chunk', 'Integer'], ['G', 'Integer'], ...(own ? [['PAtomic', 'Array'] as const] : [])];
  const body = [`const i0 = mpImod(${thread}, G) * ${rows};`];
  for (let r = 1; r < rows; r++) body.push(`let i${r} = i0 + ${r};`, `if (i${r} >= m) { i${r} = m - 1; }`);
  body.push(`const j0 = mpIdiv(${thread}, G) * chunk;`, 'let j1 = j0 + chunk;', 'if (j1 > n) { j1 = n; }');
  const chainSets = Array.from({ length: rows }, (_, r) => {
    const c = accumulatorChains(arithmetic, Math.min(chains, unroll));
    // accumulatorChains names its extra accumulators acc1 …; each row gets its own by renaming.
    const rename = (s: string): string => s.replace(/\bacc(\d*)\b/g, (_m, d: string) => `acc${r}${d ? `c${d}` : ''}`);
    return { declare: c.declare.map(rename), target: (q: number) => rename(c.target(q)), combine: c.combine.map(rename) };
  });
  for (let r = 0; r < rows; r++) body.push(arithmetic.declareZero(`acc${r}`), ...chainSets[r]!.declare);
  const aIndex = (r: number, k: string): string => (A.isView ? `AOff + i${r} * AInc + ${k} * lda` : `i${r} + ${k} * lda`);
  // Column k's rows, with x_k read here or (xGiven) from a vector load of four columns.
  const readRows = (k: string, suffix: string, xGiven?: GpuRegister): { code: string[]; registers: GpuRegister[]; x: GpuRegister } => {
    const code: string[] = [];
    const rx = xGiven ? { code: '', register: xGiven } : x.format.emitRead('X', elementIndex('X', x, k), `b${suffix}`, arithmetic);
    code.push(rx.code);
    if (vectorRead) {
      const v = vectorRead.emit(`A${vectorRead.suffix}`, `i0 + ${k} * lda`, `a${suffix}r`, arithmetic);
      code.push(v.code);
      return { code, registers: v.registers, x: rx.register };
    }
    const registers: GpuRegister[] = [];
    for (let r = 0; r < rows; r++) {
      const ra = A.format.emitRead('A', aIndex(r, k), `a${suffix}r${r}`, arithmetic);
      code.push(ra.code);
      registers.push(ra.register);
    }
    return { code, registers, x: rx.register };
  };
  // Unrolled steps of `unroll` columns: every load first, then the multiply-adds (memory-level parallelism).
  // One step: `unroll` columns from counter k (names k<suffix><q>); with xRead, x comes four columns a load.
  const readStep = (k: string, suffix: string): { code: string[]; reads: { registers: GpuRegister[]; x: GpuRegister }[] } => {
    const code: string[] = [];
    let xs: GpuRegister[] = [];
    const reads = Array.from({ length: unroll }, (_, q) => {
      code.push(`const ${k}${suffix}${q} = ${k} + ${q};`);
      if (xRead && q % 4 === 0) {
        const v = xRead.emit(`X${xRead.suffix}`, `${k}${suffix}${q}`, `b${suffix}${q}v`, arithmetic);
        code.push(v.code);
        xs = v.registers;
      }
      const read = readRows(`${k}${suffix}${q}`, `${suffix}${q}`, xRead ? xs[q % 4] : undefined);
      code.push(...read.code);
      return read;
    });
    return { code, reads };
  };
  const step = readStep('k', 'u');
  const steps = step.reads;
  const terms: { acc: string; a: GpuRegister; b: GpuRegister }[] = [];
  steps.forEach((read, q) => read.registers.forEach((a, r) => terms.push({ acc: chainSets[r]!.target(q), a, b: read.x })));
  // Grouped by accumulator, each in the order of k (one row's terms never interleave with another's in one chain).
  terms.sort((s, t) => (s.acc < t.acc ? -1 : s.acc > t.acc ? 1 : 0));
  const registers = steps.flatMap((read) => [read.x, ...read.registers]);
  // ffLongLazy: the accumulators settle every few steps (../shared/long-lazy-steps.ts), and once after the loop.
  const long = longLazySteps(arithmetic, terms);
  const sums = long?.sums ?? mulAddGroup(arithmetic, terms);
  body.push(...(long?.declare ?? []));
  if (prefetch && registers.every((r) => r.kind === 'f32' || r.kind === 'ff')) {
    body.push('let k = j0;', ...(gpuKernelSwitches().prefetchPingPong ? pingPongSteps : prefetchedSteps)({ k: 'k', end: 'j1', span: `${unroll - 1}`, stride: `${unroll}`, registers, read: (k, suffix) => {
      const next = readStep(k, suffix);
      return { code: next.code, registers: next.reads.flatMap((read) => [read.x, ...read.registers]) };
    }, sums }));
  } else {
    body.push('let k = j0;', `while (k + ${unroll - 1} < j1) {`, ...step.code, ...sums, `k = k + ${unroll};`, '}');
  }
  body.push(...(long?.flush ?? []));
  const tail = readRows('k', 't');
  body.push('while (k < j1) {', ...tail.code, ...tail.registers.map((a, r) => arithmetic.mulAdd(`acc${r}`, a, tail.x)), 'k = k + 1;', '}');
  for (let r = 0; r < rows; r++) body.push(...chainSets[r]!.combine);
  return { args, body };
}

/**
 * Whether GEMV N's R-rows pass may read x four columns a load (the `gemvVectorX` switch): x packed, unscaled, with a
 * vector read, and every thread's first column (a multiple of the chunk) on a boundary of 4 (steps are 4, 8 or 16 columns).
 * @param x - the vector
 * @param chunk - columns per thread
 * @returns whether the vector read applies
 */
export function vectorXRead(x: DeviceArray, chunk: number): boolean {
  return !x.isView && !x.rangeScale && !x.format.scaled && x.format.vectorRead !== undefined && chunk % 4 === 0;
}
