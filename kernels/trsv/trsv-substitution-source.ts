/**
 * The GPU TRSV's IEEE path: plain substitution by one workgroup, for a solve whose block-inverse result holds a
 * non-finite value.
 *
 * The fast solves multiply by inverted diagonal blocks. That is not substitution once a value is not finite: an
 * inverse's structural zeros meet an infinite right-hand side (0·∞ = NaN), a zero pivot makes every entry of its
 * inverse row ±∞ or NaN, and an inverse entry can overflow where substitution does not. The CPU's IEEE result
 * (x = [−∞, ∞, 0.5] for U = [[2, 1, 1], [0, 0, 1], [0, 0, 2]], b = 1) then became NaN. Conversely, while x_k = Inv_k·r_k
 * is finite, every entry and right-hand side it depends on is finite, and so is substitution's (up to overflow at
 * the edge of the range). So the solves test what they compute — one bit test per row, no extra pass on the
 * one-dispatch path — and only when a value is non-finite the workgroup solves again by substitution, column by
 * column in substitution order: x_j = (b_j − Σ op(A)(j, i)·x_i) / op(A)(j, j), the products added in the CPU's
 * order, so ±∞ and NaN come out where the CPU's come out.
 * @module
 */
import type { GpuArithmetic } from '../../src/backends/webgpu/arithmetic.js';
import type { DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { arrayArgs, bindArray, elementIndex, kernelSource } from '../../src/backends/webgpu/kernel-common.js';
import type { WorkgroupSettings } from '../../src/backends/webgpu/gpujs-extensions.js';
import type { BoundArray } from '../../src/backends/webgpu/program.js';
import { bitsForNarrowing, single } from '../../src/formats/common/gpu-word-reads.js';
import { hostDefaultNaN } from '../../src/backends/webgpu/exact-division.js';
import { zeroSignLines } from './trsv-zero-sign-source.js';

/** The host's 0/0 as binary32 bits: a scaled f16/bf16 x's NaN quotients carry the CPU's sign (as the scaled float store's). */
const DEFAULT_NAN = hostDefaultNaN();

/** The bits of binary32's −0 (as a signed 32-bit integer). */
const NEGATIVE_ZERO_BITS = -2147483648;

/** binary32's exponent field: all ones for ±∞ and NaN. */
const EXPONENT_MASK = 2139095040;

/**
 * The bits of the smallest binary32 that x's storage rounds to ±∞, for storages whose range ends below binary32's
 * (f16: 65520, bf16: (2 − 2^-8)·2^127); undefined for the others (and for scaled storage). The CPU stores each x_i
 * before a later row reads it, so a row that overflows x's storage reaches the later rows as ±∞: where a computed x
 * reaches this, the solve redoes as for a non-finite x, and the redo stores ±∞ for it.
 * @param x - the solve's x
 * @returns the bits, or undefined
 */
export function storageOverflowBits(x: DeviceArray): number | undefined {
  if (x.rangeScale || x.format.scaled) return undefined;
  return x.format.name === 'f16' ? 0x477ff000 : x.format.name === 'bf16' ? 0x7f7f8000 : undefined;
}

/**
 * An unscaled storage of x in which storing a value of the arithmetic and reading it back is not the identity: fp16
 * and bf16 under every arithmetic, binary32 under float-float and double-double, binary64 under double-double (an f32 x
 * in f32 arithmetic, an ff x in ff, and an f64 x in f32 or ff — see {@link storageRoundTrip} — are not rounded between rows).
 */
export type RoundTripStorage = 'f16' | 'bf16' | 'f32' | 'f64';

/**
 * The storage x's values are rounded to between rows ({@link RoundTripStorage}), or undefined where storing x_j and
 * reading it back gives x_j again (or x is scaled: {@link StoreRounding}). The CPU stores each x_j in x's storage
 * before later rows read it back, so where this is defined the GPU's solve must do the same (always by substitution).
 * An f64 x in float-float arithmetic is not rounded between rows: binary64 holds every pair whose bits span at most 53
 * (what float-float's operations usually leave), so the CPU rounds only the others; replaying it would make every f64
 * solve in the default arithmetic a one-workgroup substitution (docs/gpu.md, TRSV).
 * @param x - the solve's x (or the right-hand side as stored: the same format)
 * @param arithmetic - the solve's arithmetic
 * @returns the storage, or undefined
 */
export function storageRoundTrip(x: DeviceArray, arithmetic: GpuArithmetic): RoundTripStorage | undefined {
  if (x.rangeScale || x.format.scaled) return undefined;
  const name = x.format.name;
  if (name === 'f16' || name === 'bf16') return name;
  // The GPU dd arithmetic's register (112 bits) rounds to binary64 (its reads of f64 words are exact).
  if (name === 'f64') return arithmetic.components === 4 ? 'f64' : undefined;
  return name === 'f32' && arithmetic.components > 1 ? 'f32' : undefined;
}

/**
 * Lines that round register `x` of the arithmetic to `storage` and read it back, as the CPU's store of x_j and the
 * later rows' load: the storage's own rounding (once: float-float and dd registers first rounded to odd in binary32, as
 * the final store's emitReturn does), then an exact read (fp16, bf16 and binary32 values are binary32 registers).
 * @param arithmetic - the arithmetic
 * @param storage - x's storage
 * @param x - the register (assignable)
 * @returns source lines (names prefixed `sbst`)
 */
export function roundTripLines(arithmetic: GpuArithmetic, storage: RoundTripStorage, x: string): string[] {
  const r = arithmetic.register(x);
  // binary64: the register's nearest double as its two words (as the final store's emitReturn), read back exactly.
  if (storage === 'f64') return [`const sbst = mpXfToF64Words(${x});`, arithmetic.assign(x, { kind: 'f64', name: 'sbst' })];
  const lines = storage === 'f32'
    // A pair with a zero tail is its head, −0 included (the CPU's ffRoundToOdd; hi + lo would give +0 for (−0, +0)).
    ? (r.kind === 'ff' ? [`let sbst = ${x}[0];`, `if (${x}[1] !== 0.0) { sbst = mpKeep(${x}[0] + ${x}[1]); }`] : [`const sbst = ${single(r)};`])
    : storage === 'bf16' ? [`const sbst = mpFloat(mpBf16(${bitsForNarrowing(r)}) << 16);`]
      : [`const sbstp = mpHalfPair(mpF16(${bitsForNarrowing(r)}));`, 'const sbst = sbstp[0];'];
  lines.push(arithmetic.assign(x, { kind: 'f32', name: 'sbst' }));
  // A float-float −0 read back keeps a −0 tail: the final store's hi + lo is then −0, the stored value.
  if (r.kind === 'ff') lines.push(`if (mpBits(sbst) === ${NEGATIVE_ZERO_BITS}) { ${x} = [sbst, sbst]; }`);
  return lines;
}

/** Invocations of the workgroup of {@link substitutionRedoSource}. */
export const REDO_WORKGROUP = 256;

/** Which variant: the order of substitution and how op(A)(i, j) is indexed. */
export interface SubstitutionShape {
  readonly lowerOp: boolean;
  readonly trans: boolean;
  readonly unit: boolean;
}

/** Where the lines keep their state: the workgroup arrays they use and how b is read. */
export interface SubstitutionPlace {
  /** Threads that own rows (row i belongs to thread i mod owners; local ids ≥ owners only wait at barriers). */
  readonly owners: number;
  /** Workgroup array (f32, ≥ 2·components) that hands x_j to every thread. */
  readonly broadcast: number;
  /** `let <dst> = …;` lines: b_i as a register of the arithmetic. */
  readB(i: string, dst: string): string[];
  /** {@link storageOverflowBits} of x. */
  readonly overflow?: number;
  /**
   * x is finally stored in a scaled integer storage ({@link StoreRounding}): each x_j is rounded to it before later rows
   * read it, as the CPU's store and read-back do — value/scale rounded once to the nearest integer (ties to even,
   * `mpQuantize64` on the fp64 scale), saturated to [−qmax, qtop], NaN → 0, then times the scale as the arithmetic
   * reads an fp64 (f32: its nearest binary32; ff: formats.ff's pair). Reads the scales' words `XS[2j]`, `XS[2j + 1]`
   * and the uniforms `qmax`, `qtop`.
   */
  readonly rounding?: ScaledRounding;
  /** x's unscaled storage rounds the arithmetic's values: each x_j is rounded to it before later rows read it ({@link roundTripLines}). */
  readonly storage?: RoundTripStorage;
  /**
   * Over a matrix split across bindings: only steps `s0` ≤ s < `s1` (names in scope), A bound from element `aOff`,
   * and the sums neither zeroed nor updated outside rows `rowLo` ≤ i < `rowHi` when op(A) = Aᵀ
   * (./trsv-split-redo-source.ts). Absent: every step, A whole, every row.
   */
  readonly window?: boolean;
}

/**
 * The scaled storage a GPU TRSV's x is written to (i8 or i16, or f16 or bf16, with fp64 scales, finite and non-zero):
 * the solve rounds each x_j to it before later rows read it, as the CPU does.
 */
export interface StoreRounding {
  /** Element i's scale (fp64, finite, non-zero), uploaded as its two IEEE words. */
  readonly scales: Float64Array;
  /** The largest integer stored (127, 32767); the smallest is −(qtop + 1). Unused for a floating-point storage. */
  readonly qtop: number;
  /** A scaled floating-point storage (f16, bf16) instead of an integer one. */
  readonly float?: 'f16' | 'bf16';
}

/**
 * How a substitution rounds x_j to a scaled storage: `integer` (i8, i16: the exact quotient rounded to an integer,
 * arguments XS, qmax, qtop), or a scaled f16/bf16 (the CPU's quotient value / scale in the arithmetic rounded to the
 * storage, arguments XS, Dn).
 */
export type ScaledRounding = 'integer' | 'f16' | 'bf16';

/**
 * Whether the solve can redo itself by substitution: registers of binary32 words (f32, float-float), whose exponent
 * bits tell a non-finite value, or an arithmetic with its own tests (dd: `specialTests`); others (RNS) keep the
 * block-inverse result.
 * @param arithmetic - the solve's arithmetic
 * @returns true for binary32, float-float and double-double
 */
export function substitutionHolds(arithmetic: GpuArithmetic): boolean {
  return arithmetic.components <= 2 || arithmetic.specialTests !== undefined;
}

/**
 * Source lines that run `then` where a word of register `name` is ±∞ or NaN (tested on its bits: a compiler may
 * assume NaN never compares unequal to itself).
 * @param arithmetic - the arithmetic (its word count)
 * @param name - the register
 * @param then - the statement
 * @returns the lines
 */
export function ifNonFinite(arithmetic: GpuArithmetic, name: string, then: string, overflow?: number): string[] {
  const c = arithmetic.components;
  const tests = arithmetic.specialTests;
  const lines = tests ? [`if (${tests.nonFinite(name)}) { ${then} }`] : Array.from({ length: c }, (_, k) => `if (mpAnd(mpBits(${c === 1 ? name : `${name}[${k}]`}), ${EXPONENT_MASK}) === ${EXPONENT_MASK}) { ${then} }`);
  if (overflow !== undefined) lines.push(`if (${magnitude(arithmetic, name)} >= mpFloat(${overflow})) { ${then} }`);
  return lines;
}

/** |register| as a binary32 expression that reaches a storage's overflow bound exactly where the register does. */
function magnitude(arithmetic: GpuArithmetic, name: string): string {
  return arithmetic.specialTests?.magnitude(name) ?? `Math.abs(${arithmetic.components === 1 ? name : `${name}[0]`})`;
}

/** Index expression of op(A)(row, col) in A's binding (column-major with leading dimension lda, or a view's AOff, AInc). */
export function opIndexOf(A: DeviceArray, shape: SubstitutionShape, row: string, col: string): string {
  const [i, j] = shape.trans ? [col, row] : [row, col];
  return A.isView ? `AOff + ${i} * AInc + ${j} * lda` : `${i} + ${j} * lda`;
}

/**
 * Lines that solve op(A)·x = b by substitution in one workgroup (uniform control flow: every invocation runs them),
 * x in `XAtomic` (the arithmetic's words per row; rows of a thread's own are the only ones it stores).
 * @param arithmetic - the arithmetic
 * @param A - the matrix (read whole: its binding holds it)
 * @param shape - the variant
 * @param place - owners, workgroup array, how b is read
 * @returns source lines (names prefixed `sb`); expects `l` (the local id), `n` and `lda` in scope
 */
export function substitutionLines(arithmetic: GpuArithmetic, A: DeviceArray, shape: SubstitutionShape, place: SubstitutionPlace): string[] {
  const c = arithmetic.components;
  const own = place.owners;
  const opIndex = (row: string, col: string): string => `${opIndexOf(A, shape, row, col)}${place.window ? ' - aOff' : ''}`;
  const window = place.window;
  const word = (name: string, k: number): string => (c === 1 ? name : `${name}[${k}]`);
  const load = (dst: string, i: string): string => `let ${dst} = ${c === 1 ? `mpFloat(mpAtomicLoad(XAtomic[(${i}) * ${c}]))` : `[${Array.from({ length: c }, (_, k) => `mpFloat(mpAtomicLoad(XAtomic[(${i}) * ${c} + ${k}]))`).join(', ')}]`};`;
  const store = (i: string, name: string): string[] => Array.from({ length: c }, (_, k) => `mpAtomicStore(XAtomic[(${i}) * ${c} + ${k}], mpBits(${word(name, k)}));`);
  const lines: string[] = [
    // The sums of a thread's own rows start at 0 + bᵢ, the CPU's first step (x is the sum until its row is solved;
    // 0 + (−0) is +0 there too); a window's start elsewhere (./trsv-split-redo-source.ts).
    ...(window ? [] : [`if (l < ${own}) {`, `for (let sbz = mpI32(l); sbz < n; sbz = sbz + ${own}) {`, ...sumStartLines(arithmetic, place.readB, 'sbz', 'sbstart'), ...store('sbz', 'sbstart'), '}', '}']),
    `for (let sbs = ${window ? 's0' : 'mpI32(0)'}; sbs < ${window ? 's1' : 'n'}; sbs = sbs + 1) {`,
    `const sbj = ${shape.lowerOp ? 'sbs' : 'n - 1 - sbs'};`,
    'const sbh = mpImod(sbs, 2);',
    `if (l < ${own} && mpImod(sbj, ${own}) === l) {`,
    load('sbsum', 'sbj'),
  ];
  let x = 'sbsum';
  if (!shape.unit) {
    const rd = A.format.emitRead('A', opIndex('sbj', 'sbj'), 'sbp', arithmetic);
    lines.push(`let sbd = ${arithmetic.literal(1)};`, rd.code, arithmetic.assign('sbd', rd.register), arithmetic.declareDiv('sbx', arithmetic.register('sbsum'), arithmetic.register('sbd')));
    x = 'sbx';
  }
  if (place.overflow !== undefined) {
    // What the CPU's store of x_j gives a later row: ±∞ from the storage's overflow (sign bit | all-ones exponent).
    const head = c === 1 ? x : `${x}[0]`;
    const inf = `mpFloat(mpXor(mpAnd(mpBits(${head}), -2147483648), ${EXPONENT_MASK}))`;
    const infinity = arithmetic.specialTests?.infinityOf(x) ?? (c === 1 ? inf : `[${inf}, 0.0]`);
    lines.push(`if (${magnitude(arithmetic, x)} >= mpFloat(${place.overflow})) {`, `${x} = ${infinity};`, '}');
  }
  if (place.rounding === 'integer') {
    // The CPU's store of x_j into its scaled integer (the exact value / fp64 scale rounded once: mpQuantize64, any
    // double, not only a binary32 — a binary32 stand-in for 0.1 rounds some near-ties the other way) and the read-back
    // of later rows.
    lines.push('const sbsl = mpBits(XS[2 * sbj]);', 'const sbsh = mpBits(XS[2 * sbj + 1]);',
      `let sbq = mpQuantize64([${c === 1 ? x : `${x}[0]`}, ${c === 1 ? '0.0' : `${x}[1]`}], sbsl, sbsh, qmax);`, 'if (sbq > qtop) { sbq = qtop; }',
      // q·s as the CPU's read of a scaled element: f32, one rounding of q times the scale's nearest binary32; ff, the
      // pair product of (q, 0) and formats.ff's pair of the scale.
      c === 1 ? `${x} = mpKeep(mpToFloat(sbq) * mpF64ToF32(sbsh, sbsl));` : `${x} = ffMul([mpToFloat(sbq), 0.0], mpF64(sbsh, sbsl));`);
  } else if (place.rounding !== undefined) {
    // A scaled f16/bf16 x: the CPU's store — the quotient x_j / scale in the arithmetic (the scaled float store's:
    // f32 mpDivRn by the scale's nearest binary32, ff ffDivRn by formats.ff's pair; Dn the host's NaN), rounded to the
    // storage — and the read-back stored × scale as range-scale.ts reads it (f32: times the pair's head; ff: ffMul).
    lines.push('const sbsl = mpBits(XS[2 * sbj]);', 'const sbsh = mpBits(XS[2 * sbj + 1]);', 'const sbss = mpF64(sbsh, sbsl);',
      c === 1 ? `let sbfq = mpDivRn(${x}, mpF64ToF32(sbsh, sbsl), Dn);` : `let sbfq = ffDivRn(${x}, sbss, Dn);`,
      ...roundTripLines(arithmetic, place.rounding, 'sbfq'),
      c === 1 ? `${x} = mpKeep(sbfq * sbss[0]);` : `${x} = ffMul(sbfq, sbss);`);
  }
  if (place.storage !== undefined) lines.push(...roundTripLines(arithmetic, place.storage, x));
  // The later rows add op(A)(i, j)·(−x_j), the CPU's (−tᵢⱼ)·xⱼ: the same value (rounding is symmetric); only a zero's
  // sign may differ (0 − (+0) = +0), which no sum sees — a sum from 0 + bᵢ is never −0.
  lines.push(...store('sbj', x), arithmetic.declareZero('sbz0'), arithmetic.declareSub('sbnx', arithmetic.register('sbz0'), arithmetic.register(x)),
    ...Array.from({ length: c }, (_, k) => `mpSharedSet(${place.broadcast}, sbh * ${c} + ${k}, ${word('sbnx', k)});`), '}');
  // Slots alternate: x_j is read before the barrier of step s + 1, written again only after it.
  lines.push('mpBarrier();', `let sbxj = ${c === 1 ? `mpShared(${place.broadcast}, sbh)` : `[${Array.from({ length: c }, (_, k) => `mpShared(${place.broadcast}, sbh * ${c} + ${k})`).join(', ')}]`};`);
  const ra = A.format.emitRead('A', opIndex('sbi', 'sbj'), 'sba', arithmetic);
  lines.push(`if (l < ${own}) {`, `for (let sbi = mpI32(l); sbi < n; sbi = sbi + ${own}) {`, `if (${shape.lowerOp ? 'sbi > sbj' : 'sbi < sbj'}${window && shape.trans ? ' && sbi >= rowLo && sbi < rowHi' : ''}) {`, ra.code, load('sbacc', 'sbi'), arithmetic.mulAdd('sbacc', ra.register, arithmetic.register('sbxj')), ...store('sbi', 'sbacc'), '}', '}', '}', '}');
  return lines;
}

/**
 * Lines that declare `dst` = 0 + b_i (the start of row i's sum, as the CPU's first step).
 * @param arithmetic - the arithmetic
 * @param readB - how b is read
 * @param i - the row
 * @param dst - the register to declare
 * @returns source lines
 */
export function sumStartLines(arithmetic: GpuArithmetic, readB: SubstitutionPlace['readB'], i: string, dst: string): string[] {
  const lines = [arithmetic.declareZero(dst), ...readB(i, `${dst}b`), arithmetic.add(dst, arithmetic.register(`${dst}b`))];
  // 0 + (−0) is +0, which a shader compiler may fold to −0 (0 + b → b): made explicit for binary32 registers.
  const c = arithmetic.components;
  if (c <= 2) lines.push(`if (mpBits(${c === 1 ? dst : `${dst}[0]`}) === ${NEGATIVE_ZERO_BITS}) { ${dst} = ${arithmetic.literal(0)}; }`);
  return lines;
}

/**
 * The blocked solve's last pass: one workgroup looks for a non-finite x and, where it finds one, solves again by
 * substitution (b read from x's storage, which the solve has not yet overwritten); with `rounding`, always. Where it
 * does not, an exactly-zero x_i takes substitution's sign (./trsv-zero-sign-source.ts).
 * @param arithmetic - the arithmetic
 * @param A - the matrix
 * @param B - the right-hand side as stored
 * @param shape - the variant
 * @param rounding - x is stored in a scaled integer storage ({@link SubstitutionPlace.rounding}): every solve is
 *   redone, each x_j rounded to it between rows (arguments XS, qmax, qtop)
 * @param storage - x's unscaled storage rounds the arithmetic's values ({@link storageRoundTrip}): every solve is redone,
 *   each x_j rounded to it between rows
 * @returns source, arguments and workgroup settings
 */
export function substitutionRedoSource(arithmetic: GpuArithmetic, A: DeviceArray, B: DeviceArray, shape: SubstitutionShape, rounding?: ScaledRounding, storage?: RoundTripStorage): { source: string; args: ReturnType<typeof arrayArgs>; workgroup: WorkgroupSettings } {
  const c = arithmetic.components;
  const args = [...arrayArgs('A', A), ...arrayArgs('B', B), ['XAtomic', 'Array'] as const, ['n', 'Integer'] as const, ['lda', 'Integer'] as const, ...scaledRoundingArgs(rounding)];
  const readB = (i: string, dst: string): string[] => {
    const rb = B.format.emitRead('B', elementIndex('B', B, i), `${dst}r`, arithmetic);
    return [rb.code, `let ${dst} = ${arithmetic.literal(0)};`, arithmetic.assign(dst, rb.register)];
  };
  const check = c === 1 ? 'mpFloat(mpAtomicLoad(XAtomic[i]))' : `[${Array.from({ length: c }, (_, k) => `mpFloat(mpAtomicLoad(XAtomic[i * ${c} + ${k}]))`).join(', ')}]`;
  const body = [
    'const l = mpLocalId();',
    // With rounding between rows every solve is redone: any row's rounding reaches the later rows.
    ...(rounding !== undefined || storage !== undefined ? ['if (l === 0) { mpSharedIntSet(0, 0, 1); }']
      : [`for (let i = mpI32(l); i < n; i = i + ${REDO_WORKGROUP}) {`, `let xi = ${check};`, ...ifNonFinite(arithmetic, 'xi', 'mpSharedIntSet(0, 0, 1);', storageOverflowBits(B)),
        // An exactly-zero x_i takes substitution's sign (row i is this thread's in the redo too).
        ...zeroSignLines(arithmetic, A, shape, 'i', { opIndex: (row, col) => opIndexOf(A, shape, row, col), redo: { statement: 'mpSharedIntSet(0, 0, 1);', ifNonFinite: (r, then) => ifNonFinite(arithmetic, r, then) } }), '}']),
    'if (mpSharedIntUniform(0, 0) !== 0) {',
    ...substitutionLines(arithmetic, A, shape, { owners: REDO_WORKGROUP, broadcast: 1, readB, overflow: storageOverflowBits(B), rounding, storage }),
    '}',
    arithmetic.declareZero('unused'), `return ${arithmetic.returnValue('unused')};`,
  ];
  return { source: kernelSource(args, body), args, workgroup: { workgroupSize: REDO_WORKGROUP, workgroupArrays: [{ type: 'i32', length: 1 }, { type: 'f32', length: 2 * c }] } };
}

/**
 * The arguments a substitution that rounds to a scaled integer storage reads ({@link SubstitutionPlace.rounding}): the
 * scales' words and the integer bounds.
 * @param rounding - whether it rounds so
 * @returns the arguments (none without rounding)
 */
export function scaledRoundingArgs(rounding: ScaledRounding | undefined): (readonly ['XS', 'Array'] | readonly ['qmax', 'Float'] | readonly ['qtop' | 'Dn', 'Integer'])[] {
  if (rounding === undefined) return [];
  return rounding === 'integer' ? [['XS', 'Array'] as const, ['qmax', 'Float'] as const, ['qtop', 'Integer'] as const] : [['XS', 'Array'] as const, ['Dn', 'Integer'] as const];
}

/**
 * Bindings of {@link substitutionRedoSource}'s pass.
 * @param A - the matrix
 * @param B - the right-hand side as stored
 * @param X - the solve's words (read, and rewritten where not finite)
 * @param n - rows
 * @param lda - A's leading dimension
 * @param rounding - with {@link substitutionRedoSource}'s `rounding`: x's fp64 scales (their words) and largest integer
 * @returns arrays and scalars
 */
export function substitutionRedoBindings(A: DeviceArray, B: DeviceArray, X: BoundArray, n: number, lda: number, rounding?: { scales: BoundArray; qtop: number; float?: 'f16' | 'bf16' }): { arrays: Record<string, BoundArray>; scalars: Record<string, number> } {
  const arrays: Record<string, BoundArray> = { XAtomic: X, ...(rounding ? { XS: rounding.scales } : {}) };
  const scaled: Record<string, number> = rounding === undefined ? {} : rounding.float ? { Dn: DEFAULT_NAN } : { qmax: rounding.qtop + 1, qtop: rounding.qtop };
  const scalars: Record<string, number> = { n, lda, ...scaled };
  bindArray('A', A, arrays, scalars);
  bindArray('B', B, arrays, scalars);
  return { arrays, scalars };
}
