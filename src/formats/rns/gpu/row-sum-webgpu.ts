/**
 * Row sums on device RNS arrays — the engine of DOT and GEMV (N and T): for r < R,
 *
 *     out_r = Σ_{j<N} P[r·rs + j·cs]·Q[j]  (+ β·Y[r]),
 *
 * each row one exact sum on its grid (grid.ts), rounded once. Four programs, then the rounding passes
 * (normalize-webgpu.ts): (1) thread per row and column chunk: the largest bit bound and the smallest exponent of
 * the chunk's non-zero terms; (2) thread per row: the same over the chunks and the β term, hence G; (3) thread
 * per row, chunk and modulus: the chunk's residue sum on the grid (adjacent threads read adjacent residues of
 * one element); (4) thread per row and modulus: the chunks' residues added, the β term, and ξ = |acc·w_i|_m for
 * the rounding. The column chunks make R·S·n threads, enough to fill a GPU for a single DOT.
 *
 * @module
 */
import { gpuKernelSwitches } from '../../../backends/webgpu/kernel-switches.js';
import { tuningKnob } from '../../../backends/webgpu/tuning-knobs.js';
import type { Pass, Program } from '../../../backends/webgpu/program.js';
import type { GpuRuntime } from '../../../backends/webgpu/runtime.js';
import type { GpuBuffer } from '../../../backends/webgpu/webgpu-types.js';
import { WORD_BIAS, type RnsDeviceSet } from './device-set.js';
import { absFactor, addTerm, bitBound, f64Factor, negFactor, oneFactor, gridExponent, rnsFactor, termInfo, termOf, termsLog2, type Factor } from './grid.js';
import { accumulatorProgram, programsOf, rnsProgramNames, scratchBuffer } from './rns-device-kernel.js';

const B = WORD_BIAS;

/**
 * What the row terms multiply: P stored as device RNS numbers or as fp64 words (read exactly into RNS), and Q
 * indexed by the column j or gathered through column indices Ci[kp] (ELL; ELL_PADDING slots are zero terms).
 */
export interface RowSumVariant {
  readonly beta: boolean;
  readonly p: 'rns' | 'f64';
  readonly gather: boolean;
  /** Q: device RNS numbers (default), or the constant 1 (out_r = Σ_j P[…], ASUM). */
  readonly q?: 'rns' | 'one';
  /** Terms |P|·Q instead of P·Q (ASUM). */
  readonly abs?: boolean;
  /** Terms −P·Q instead of P·Q (TRSV: b_i − Σ t_ij·x_j). */
  readonly neg?: boolean;
  /**
   * An exact zero is +0 (a sum started from +0, as the CPU's accumulators are: IEEE +0 + −0 = +0) instead of −0
   * when every term is −0.
   */
  readonly plusZero?: boolean;
}

/** The factors P and Q of a term, as the variant reads them. */
function rowFactors(set: RnsDeviceSet, v: RowSumVariant): { P: Factor; Q: Factor } {
  const P0 = v.p === 'f64' ? f64Factor('P', 'kp') : rnsFactor(set, 'P', 'LP', 'kp');
  return {
    P: v.abs ? absFactor(P0) : v.neg ? negFactor(P0) : P0,
    Q: v.q === 'one' ? oneFactor() : rnsFactor(set, 'Q', 'LQ', v.gather ? 'qj' : '(q0 + j)'),
  };
}

/** Source of the term (r, j): kp, the Q index, and the term's variables (suffix a). */
function rowTerm(set: RnsDeviceSet, v: RowSumVariant): { code: string; P: Factor; Q: Factor } {
  const { P, Q } = rowFactors(set, v);
  const gather = v.gather ? `let qj = mpBits(Ci[kp]) - ${B};\nlet pad = mpI32(0);\nif (qj < 0) { qj = 0; pad = 1; }` : '';
  return { code: `const kp = p0 + r * rs + j * cs;\n${gather}\n${termOf('a', P, Q)}${v.gather ? '\nif (pad !== 0) { za = 1; }' : ''}`, P, Q };
}
/** Bit bound standing for "no non-zero term". */
const NONE = -(2 ** 29) + 1;

const SHAPE_ARGS = [['R', 'Integer'], ['N', 'Integer'], ['S', 'Integer'], ['chunk', 'Integer'], ['rs', 'Integer'], ['cs', 'Integer'], ['LP', 'Integer'], ['LQ', 'Integer'], ['LY', 'Integer'], ['nu', 'Integer'], ['p0', 'Integer'], ['q0', 'Integer'], ['y0', 'Integer'], ['rf', 'Integer']] as const;

/** Combines a term's info into (any, etop, fmin, nz). */
const FOLD = (id: string): string => `if (z${id} === 0) { if (any === 0 || top${id} > etop) { etop = top${id}; } if (any === 0 || f${id} < fmin) { fmin = f${id}; } any = 1; } else { if (s${id} === 0) { nz = 0; } }`;

function chunkRangeSource(set: RnsDeviceSet, v: RowSumVariant): string {
  return `function (P, Q, Ci, R, N, S, chunk, rs, cs, LP, LQ, LY, nu, p0, q0, y0, rf) {
const t = this.thread.x;
let r = mpIdiv(t, S);
let c = t - r * S;
if (rf !== 0) { c = mpIdiv(t, R); r = t - c * R; }
const j0 = c * chunk;
let j1 = j0 + chunk;
if (j1 > N) { j1 = N; }
let any = mpI32(0);
let etop = mpI32(0);
let fmin = mpI32(0);
let nz = mpI32(1);
for (let j = j0; j < j1; j++) {
  ${rowTerm(set, v).code}
  ${FOLD('a')}
}
if (any === 0) { return [mpFloat(${NONE + B}), mpFloat(nz + ${B})]; }
return [mpFloat(etop + ${B}), mpFloat(fmin + ${B})];
}`;
}

/** Thread per row: the chunks' ranges and the β term folded into one (same encoding as a chunk's). */
function rowRangeSource(set: RnsDeviceSet, beta: boolean): string {
  return `function (Ra, Sc, Y, R, N, S, chunk, rs, cs, LP, LQ, LY, nu, p0, q0, y0, rf) {
const r = this.thread.x;
let any = mpI32(0);
let etop = mpI32(0);
let fmin = mpI32(0);
let nz = mpI32(1);
for (let c = mpI32(0); c < S; c++) {
  let rc = r * S + c;
  if (rf !== 0) { rc = c * R + r; }
  const w0 = mpBits(Ra[2 * rc]) - ${B};
  const w1 = mpBits(Ra[2 * rc + 1]) - ${B};
  if (w0 === ${NONE}) { if (w1 === 0) { nz = 0; } }
  else { if (any === 0 || w0 > etop) { etop = w0; } if (any === 0 || w1 < fmin) { fmin = w1; } any = 1; }
}
${beta ? `${termInfo(set, 'b', 'Sc', '1', '0', 'Y', 'LY', '(y0 + r)')}\n${FOLD('b')}` : ''}
if (any === 0) { return [mpFloat(${NONE + B}), mpFloat(nz + ${B})]; }
return [mpFloat(etop + ${B}), mpFloat(fmin + ${B})];
}`;
}

/** Declares any, etop, fmin, nz and G of row r from the row ranges. */
function rowGrid(set: RnsDeviceSet): string {
  return `const v0 = mpBits(Rr[2 * r]) - ${B};
const v1 = mpBits(Rr[2 * r + 1]) - ${B};
let any = mpI32(1);
let etop = v0;
let fmin = v1;
let nz = mpI32(0);
if (v0 === ${NONE}) { any = 0; nz = v1; }
${gridExponent(set, 'nu')}`;
}

/** Thread per term (r, j): −1 when the term is zero or below the grid, else 2·(f − G) + sign. */
function codesSource(set: RnsDeviceSet, v: RowSumVariant): string {
  return `function (P, Q, Ci, Rr, R, N, S, chunk, rs, cs, LP, LQ, LY, nu, p0, q0, y0, rf) {
const t = this.thread.x;
let r = mpIdiv(t, N);
let j = t - r * N;
if (rf !== 0) { j = mpIdiv(t, R); r = t - j * R; }
${rowGrid(set)}
${rowTerm(set, v).code}
if (any === 0 || za !== 0 || fa < G) { return mpFloat(${B - 1}); }
return mpFloat(2 * (fa - G) + sa + ${B});
}`;
}

/** Terms a partial-sum thread takes per loop step: their loads are issued together (see {@link partialSource}). */
const UNROLL = 4;

/**
 * Source of the term j + u of a partial-sum thread, branch-free: every load is made (a padding or below-grid term
 * reads a valid element and is then masked), so the loads of the {@link UNROLL} terms of a step are independent
 * and in flight together — a thread's loop is otherwise one memory latency per term.
 */
function partialTerm(set: RnsDeviceSet, v: RowSumVariant, u: string): string {
  const o = set.offsets, n = set.size;
  const P = v.p === 'f64' ? f64Factor('P', `kp${u}`) : rnsFactor(set, 'P', 'LP', `kp${u}`);
  const Q = v.q === 'one' ? oneFactor() : rnsFactor(set, 'Q', 'LQ', v.gather ? `qj${u}` : `(q0 + j${u})`);
  return `const j${u} = j + ${u};
let cd${u} = r * N + j${u};
if (rf !== 0) { cd${u} = j${u} * R + r; }
const code${u} = mpBits(Cd[cd${u}]) - ${B};
const kp${u} = p0 + r * rs + j${u} * cs;
${v.gather ? `const qj${u} = mpImax(mpBits(Ci[kp${u}]) - ${B}, 0);` : ''}
${P.decl(`a${u}`)}
const p2${u} = mpBits(Tb[${o.pow2} + (mpImax(code${u}, 0) >> 1) * ${n} + i]);`;
}

/**
 * Source adding term u (declared by {@link partialTerm}) to the unreduced halves hi, lo (`rnsFoldSteps` on): v =
 * t·w with t = |P·Q|_m and w = p2 or m − p2 (≡ −p2; in [1, m) since p2 = |2^d|_m ≠ 0 for an odd m), 0 for a
 * padding or below-grid term — so v ≡ ±P·Q·2^(f − G) (mod m) and 0 ≤ v < m² < 2^32 (as an i32 it may wrap: its
 * halves are taken by shift and mask). hi += ⌊v/2^16⌋, lo += v mod 2^16: each adds below 2^16, and
 * hi·2^16 + lo ≡ Σ v (mod m); {@link partialFold} reduces them before either reaches 2^31 (MAX_RNS_FOLD_STEPS).
 */
function lazyPartialAdd(set: RnsDeviceSet, v: RowSumVariant, u: string): string {
  const P = v.p === 'f64' ? f64Factor('P', `kp${u}`) : rnsFactor(set, 'P', 'LP', `kp${u}`);
  const Q = v.q === 'one' ? oneFactor() : rnsFactor(set, 'Q', 'LQ', v.gather ? `qj${u}` : `(q0 + j${u})`);
  return `const t${u} = mpMulModR(${P.residue(`a${u}`)}, ${Q.residue(`b${u}`)}, m, rm);
let w${u} = p2${u};
if ((code${u} & 1) !== 0) { w${u} = m - w${u}; }
if (code${u} < 0) { w${u} = 0; }
const v${u} = t${u} * w${u};
hi = hi + ((v${u} >> 16) & 65535);
lo = lo + (v${u} & 65535);`;
}

/**
 * Source adding term u to the unreduced sums h2, h1, h0 (`rnsFoldSplit`): pq = P·Q < m² < 2^32 unreduced (i32,
 * may wrap) and w as in {@link lazyPartialAdd}; with pq = ph·2^16 + pl (halves < 2^16), ph·w and pl·w are below
 * 2^32, and their halves go to h2 (weight 2^32: ⌊ph·w/2^16⌋), h1 (2^16: ph·w mod 2^16 + ⌊pl·w/2^16⌋, < 2^17) and
 * h0 (1: pl·w mod 2^16). So h2·2^32 + h1·2^16 + h0 ≡ Σ ±P·Q·2^(f − G) (mod m), with no float conversion per term.
 */
function splitPartialAdd(set: RnsDeviceSet, v: RowSumVariant, u: string): string {
  const P = v.p === 'f64' ? f64Factor('P', `kp${u}`) : rnsFactor(set, 'P', 'LP', `kp${u}`);
  const Q = v.q === 'one' ? oneFactor() : rnsFactor(set, 'Q', 'LQ', v.gather ? `qj${u}` : `(q0 + j${u})`);
  return `const pq${u} = ${P.residue(`a${u}`)} * ${Q.residue(`b${u}`)};
let w${u} = p2${u};
if ((code${u} & 1) !== 0) { w${u} = m - w${u}; }
if (code${u} < 0) { w${u} = 0; }
const ph${u} = ((pq${u} >> 16) & 65535) * w${u};
const pl${u} = (pq${u} & 65535) * w${u};
h2 = h2 + ((ph${u} >> 16) & 65535);
h1 = h1 + (ph${u} & 65535) + ((pl${u} >> 16) & 65535);
h0 = h0 + (pl${u} & 65535);`;
}

/** Source folding h2, h1, h0 into acc (as {@link partialFold}; r32 = |2^32|_m, each sum reduced first), then zeroing them. */
const splitFold = `acc = acc + mpMulModR(mpMulModR(h2, 1, m, rm), r32, m, rm);
if (acc >= m) { acc = acc - m; }
acc = acc + mpMulModR(mpMulModR(h1, 1, m, rm), p16, m, rm);
if (acc >= m) { acc = acc - m; }
acc = acc + mpMulModR(h0, 1, m, rm);
if (acc >= m) { acc = acc - m; }
h2 = 0;
h1 = 0;
h0 = 0;`;

/**
 * Source folding the halves into acc: acc += |hi·2^16 + lo|_m with p16 = |2^16|_m (hi, lo < 2^31: one
 * `mpMulModR(·, 1)` each makes them residues, and |hi|_m·p16 < m² < 2^32), then hi = lo = 0.
 */
const partialFold = `acc = acc + mpMulModR(mpMulModR(hi, 1, m, rm), p16, m, rm);
if (acc >= m) { acc = acc - m; }
acc = acc + mpMulModR(lo, 1, m, rm);
if (acc >= m) { acc = acc - m; }
hi = 0;
lo = 0;`;

/** Source adding term u (declared by {@link partialTerm}) to acc: ±|P·Q·2^(f − G)|_m, or nothing when its code is −1. */
function partialAdd(set: RnsDeviceSet, v: RowSumVariant, u: string): string {
  const P = v.p === 'f64' ? f64Factor('P', `kp${u}`) : rnsFactor(set, 'P', 'LP', `kp${u}`);
  const Q = v.q === 'one' ? oneFactor() : rnsFactor(set, 'Q', 'LQ', v.gather ? `qj${u}` : `(q0 + j${u})`);
  return `let ra${u} = mpMulModR(mpMulModR(${P.residue(`a${u}`)}, ${Q.residue(`b${u}`)}, m, rm), p2${u}, m, rm);
if ((code${u} & 1) !== 0 && ra${u} !== 0) { ra${u} = m - ra${u}; }
if (code${u} < 0) { ra${u} = 0; }
acc = acc + ra${u};
if (acc >= m) { acc = acc - m; }`;
}

/**
 * Thread per row, chunk and modulus: the chunk's terms on the grid, from their codes — the per-term work (fields,
 * exponents, the grid test) is done once per term by the codes pass, not once per modulus. Terms go {@link UNROLL}
 * at a time (loads first, then the arithmetic), the rest one by one; the sum does not depend on it (exact).
 */
function partialSource(set: RnsDeviceSet, v: RowSumVariant, foldSteps: number, split: boolean): string {
  const n = set.size, o = set.offsets;
  const us = Array.from({ length: UNROLL }, (_, u) => String(u));
  const lazy = foldSteps > 0;
  split = split && lazy;
  const add = split ? splitPartialAdd : lazy ? lazyPartialAdd : partialAdd;
  const fold = split ? splitFold : partialFold;
  const sums = split ? 'let h2 = mpI32(0);\nlet h1 = mpI32(0);\nlet h0 = mpI32(0);' : 'let hi = mpI32(0);\nlet lo = mpI32(0);';
  return `function (P, Q, Ci, Cd, Tb, R, N, S, chunk, rs, cs, LP, LQ, LY, nu, p0, q0, y0, rf) {
const t = this.thread.x;
const rc = mpIdiv(t, ${n});
const i = t - rc * ${n};
const r = mpIdiv(rc, S);
const c = rc - r * S;
const m = mpBits(Tb[${o.moduli} + i]);
const rm = Tb[${o.inverse} + i];
${v.p === 'f64' || split ? `const r32 = mpBits(Tb[${o.pow16} + 2 * ${n} + i]);` : ''}
${lazy ? `const p16 = mpBits(Tb[${o.pow16} + ${n} + i]);
${sums}
let steps = mpI32(0);` : ''}
let acc = mpI32(0);
const j0 = c * chunk;
let j1 = j0 + chunk;
if (j1 > N) { j1 = N; }
let j = j0;
while (j + ${UNROLL - 1} < j1) {
${us.map((u) => partialTerm(set, v, u)).join('\n')}
${us.map((u) => add(set, v, u)).join('\n')}
j = j + ${UNROLL};
${lazy ? `steps = steps + 1;
if (steps === ${foldSteps}) {
${fold}
steps = 0;
}` : ''}
}
while (j < j1) {
${partialTerm(set, v, '0')}
${add(set, v, '0')}
j = j + 1;
}
${lazy ? fold : ''}
return mpFloat(acc + ${B});
}`;
}

function combineSource(set: RnsDeviceSet, beta: boolean, plusZero: boolean): string {
  const n = set.size;
  return `function (Pa, Rr, Sc, Y, Tb, R, N, S, chunk, rs, cs, LP, LQ, LY, nu, p0, q0, y0, rf) {
const t = this.thread.x;
let r = mpI32(0);
let i = mpI32(0);
if (t < ${n} * R) { r = mpIdiv(t, ${n}); i = t - r * ${n}; } else { r = mpImod(t - ${n} * R, R); i = ${n} + mpIdiv(t - ${n} * R, R); }
${rowGrid(set)}
${beta ? termInfo(set, 'b', 'Sc', '1', '0', 'Y', 'LY', '(y0 + r)') : ''}
if (i < ${n}) {
  if (any === 0) { return mpFloat(${B}); }
  const m = mpBits(Tb[${set.offsets.moduli} + i]);
  const rm = Tb[${set.offsets.inverse} + i];
  let acc = mpI32(0);
  let c = mpI32(0);
  // Four partials per step, loaded together (one latency per step, not per partial).
  while (c + 3 < S) {
    const q0w = mpBits(Pa[(r * S + c) * ${n} + i]) - ${B};
    const q1w = mpBits(Pa[(r * S + c + 1) * ${n} + i]) - ${B};
    const q2w = mpBits(Pa[(r * S + c + 2) * ${n} + i]) - ${B};
    const q3w = mpBits(Pa[(r * S + c + 3) * ${n} + i]) - ${B};
    acc = acc + q0w;
    if (acc >= m) { acc = acc - m; }
    acc = acc + q1w;
    if (acc >= m) { acc = acc - m; }
    acc = acc + q2w;
    if (acc >= m) { acc = acc - m; }
    acc = acc + q3w;
    if (acc >= m) { acc = acc - m; }
    c = c + 4;
  }
  while (c < S) {
    acc = acc + mpBits(Pa[(r * S + c) * ${n} + i]) - ${B};
    if (acc >= m) { acc = acc - m; }
    c = c + 1;
  }
  ${beta ? addTerm(set, 'b', 'Sc', '0', 'Y', '(y0 + r)') : ''}
  return mpFloat(acc + ${B});
}
if (i === ${n}) { return mpFloat(G + ${B}); }
if (i === ${n + 2}) { return mpFloat(${bitBound(set, 'nu')} + ${B}); }
${plusZero ? '' : `if (any === 0 && nz !== 0) { return mpFloat(1 + ${B}); }`}
return mpFloat(${B});
}`;
}

/** The four programs of a row sum. */
export interface RowSumPrograms {
  readonly ranges: Program;
  readonly rowRanges: Program;
  readonly codes: Program;
  readonly partials: Program;
  readonly combine: Program;
}

/**
 * The programs for `set`, with or without the β term.
 * @param runtime - the runtime
 * @param set - the GPU moduli set
 * @param beta - whether rows add β·Y[r]
 * @returns the programs
 */
export function rowSumPrograms(runtime: GpuRuntime, set: RnsDeviceSet, variant: RowSumVariant): Promise<RowSumPrograms> {
  const key = `row sum ${gpuKernelSwitches().rnsFoldSteps} ${gpuKernelSwitches().rnsFoldSplit} ${variant.beta} ${variant.p} ${variant.gather} ${variant.q ?? 'rns'} ${variant.abs === true} ${variant.neg === true} ${variant.plusZero === true}`;
  return programsOf(runtime, set, key, () => makeRowSumPrograms(runtime, set, variant));
}

async function makeRowSumPrograms(runtime: GpuRuntime, set: RnsDeviceSet, variant: RowSumVariant): Promise<RowSumPrograms> {
  const beta = variant.beta;
  const { rnsFoldSteps: foldSteps, rnsFoldSplit: split } = gpuKernelSwitches();
  const shape = SHAPE_ARGS.map(([a, b]) => [a, b] as [string, 'Integer']);
  const [ranges, rowRanges, codes, partials, combine] = await Promise.all([
    accumulatorProgram(runtime, { source: chunkRangeSource(set, variant), args: [['P', 'Array'], ['Q', 'Array'], ['Ci', 'Array'], ...shape], components: 2 }),
    accumulatorProgram(runtime, { source: rowRangeSource(set, beta), args: [['Ra', 'Array'], ['Sc', 'Array'], ['Y', 'Array'], ...shape], components: 2 }),
    accumulatorProgram(runtime, { source: codesSource(set, variant), args: [['P', 'Array'], ['Q', 'Array'], ['Ci', 'Array'], ['Rr', 'Array'], ...shape], components: 1 }),
    accumulatorProgram(runtime, { source: partialSource(set, variant, foldSteps, split), args: [['P', 'Array'], ['Q', 'Array'], ['Ci', 'Array'], ['Cd', 'Array'], ['Tb', 'Array'], ...shape], components: 1 }),
    accumulatorProgram(runtime, { source: combineSource(set, beta, variant.plusZero === true), args: [['Pa', 'Array'], ['Rr', 'Array'], ['Sc', 'Array'], ['Y', 'Array'], ['Tb', 'Array'], ...shape], components: 1 }),
  ]);
  const names: [Program, string][] = [[ranges, 'row sum: chunk ranges'], [rowRanges, 'row sum: row ranges'], [codes, 'row sum: term codes'], [partials, 'row sum: partial residues'], [combine, 'row sum: combine']];
  names.forEach(([program, name]) => rnsProgramNames.set(program, name));
  return { ranges, rowRanges, codes, partials, combine };
}

/** Shape of one row sum. */
export interface RowSumShape {
  readonly R: number;
  readonly N: number;
  readonly rs: number;
  readonly cs: number;
  readonly LP: number;
  readonly LQ: number;
  readonly LY: number;
  /** Index of P's element (0, 0) (default 0): term (r, j) reads P[p0 + r·rs + j·cs]. */
  readonly p0?: number;
  /** Index of Q's element 0 (default 0): term (r, j) reads Q[q0 + j] (not with gathered columns). */
  readonly q0?: number;
  /** Index of Y's element 0 (default 0): row r's β term reads Y[y0 + r]. */
  readonly y0?: number;
  /** Whether rows add β·Y[r]. */
  readonly beta: boolean;
}


/**
 * The passes filling the accumulator `acc` of R rows.
 * @returns the passes
 */
export function rowSumPasses(runtime: GpuRuntime, set: RnsDeviceSet, programs: RowSumPrograms, shape: RowSumShape, P: GpuBuffer, Q: GpuBuffer, Sc: GpuBuffer, Y: GpuBuffer, table: GpuBuffer, acc: GpuBuffer, Ci: GpuBuffer = table): Pass[] {
  const n = set.size;
  // Enough column chunks for ~2^19 residue threads (2^MODPREC_GPU_RNS_ROW_THREADS, 10 … 24, for benchmarks: the sums
  // are exact, so any chunking gives the same words), each chunk at least 16 columns. 2^18 … 2^21 timed alike on the
  // H100 once the GPU had warmed up (docs/rns.md, 2026-11-27).
  // (At most 1024: the row-range and combine threads walk the chunks one by one.)
  const target = 2 ** Math.min(24, Math.max(10, tuningKnob('MODPREC_GPU_RNS_ROW_THREADS', 19)));
  const S = Math.max(1, Math.min(Math.ceil(target / (shape.R * n)), Math.ceil(shape.N / 16), 1024));
  const chunk = Math.max(1, Math.ceil(shape.N / S));
  const nu = termsLog2(shape.N + (shape.beta ? 1 : 0));
  // Row-fast thread order where P's rows are its contiguous direction (GEMV N, ELL): adjacent threads of the
  // per-term passes then read adjacent elements of P (and write adjacent codes); column-fast otherwise (GEMV T, DOT).
  const rf = shape.R > 1 && Math.abs(shape.rs) < Math.abs(shape.cs) ? 1 : 0;
  const scalars = { R: shape.R, N: shape.N, S, chunk, rs: shape.rs, cs: shape.cs, LP: shape.LP, LQ: shape.LQ, LY: shape.LY, nu, p0: shape.p0 ?? 0, q0: shape.q0 ?? 0, y0: shape.y0 ?? 0, rf };
  // The range passes (largest bit bound, smallest exponent) chunk the columns on their own: one field read per term
  // and thread makes their loop latency-bound, so they take chunks of 16 columns, enough for ~2^17 threads (at most
  // 1024 per row: the row-range thread walks them), where the partial sums' ~2^19 residue threads leave few chunks
  // (GEMV at 1696 bits: 2 chunks of 500 columns, 2000 threads). The grid does not depend on the chunking.
  const Sr = Math.max(S, Math.min(Math.ceil(shape.N / 16), Math.ceil(2 ** 17 / shape.R), 1024));
  const rangeScalars = { ...scalars, S: Sr, chunk: Math.max(1, Math.ceil(shape.N / Sr)) };
  const ranges = scratchBuffer(runtime, 'row-ranges', 2 * shape.R * Sr);
  const rows = scratchBuffer(runtime, 'row-range', 2 * shape.R);
  const partials = scratchBuffer(runtime, 'row-partials', shape.R * S * n);
  const codes = scratchBuffer(runtime, 'row-codes', shape.R * shape.N);
  return [
    { program: programs.ranges, arrays: { P: { buffer: P }, Q: { buffer: Q }, Ci: { buffer: Ci } }, scalars: rangeScalars, output: { buffer: ranges }, threads: shape.R * Sr },
    { program: programs.rowRanges, arrays: { Ra: { buffer: ranges }, Sc: { buffer: Sc }, Y: { buffer: Y } }, scalars: rangeScalars, output: { buffer: rows }, threads: shape.R },
    { program: programs.codes, arrays: { P: { buffer: P }, Q: { buffer: Q }, Ci: { buffer: Ci }, Rr: { buffer: rows } }, scalars, output: { buffer: codes }, threads: shape.R * shape.N },
    { program: programs.partials, arrays: { P: { buffer: P }, Q: { buffer: Q }, Ci: { buffer: Ci }, Cd: { buffer: codes }, Tb: { buffer: table } }, scalars, output: { buffer: partials }, threads: shape.R * S * n },
    { program: programs.combine, arrays: { Pa: { buffer: partials }, Rr: { buffer: rows }, Sc: { buffer: Sc }, Y: { buffer: Y }, Tb: { buffer: table } }, scalars, output: { buffer: acc }, threads: shape.R * (n + 3) },
  ];
}
