/**
 * Building blocks of the a-priori forward error bounds: how many roundings a kernel's data path adds on top
 * of the arithmetic's own (Higham's γ_n counting), and the output's storage rounding.
 *
 * Summation order and backends. The bounds of a reduction count, per term, the roundings on its way into the
 * result. For the recursive accumulation that is γ_n·Σ|terms| for ANY order of adding n terms — a sum tree of n
 * leaves puts each term under at most n − 1 additions (Higham, Accuracy and Stability, §4.2) — so one bound
 * covers the generated JavaScript (left to right), the WebAssembly kernels (eight interleaved partial sums in
 * SIMD lanes, then a fixed tree: kernels/dot/dot-wasm.ts; in fp32 arithmetic the same order in binary32) and
 * worker splits alike. The WebAssembly kernels do not
 * fuse multiply-adds (each product is rounded, as in the JavaScript kernels), so the product roundings counted
 * here are the ones they make. Sums in double-double (double-double arithmetic, the `dd` accumulation) run in
 * WebAssembly too: GEMV reading op(A) by columns and ELL SpMV in the JavaScript's order and steps (the same bits);
 * DOT and GEMV reading op(A) by rows in eight double-double lanes joined by a fixed tree, where a term passes
 * through at most ⌈n/8⌉ steps (⌈n/8⌉ − 1 with exact-double factors, whose first step is exact) and 3 joins
 * (joins with an empty lane are exact), each within the unit roundoff the dd bounds use, never more than the
 * roundings they count per term — ⌈n/2⌉ (+ 1 in dd arithmetic) for the dd accumulation, n for dd arithmetic with
 * the recursive one (kernels/dot/dot-dd-wasm.ts) — so the same bounds hold. The other compensated and extended accumulations run on the generated JavaScript only,
 * in its order. The GPU's orders have their own bounds where they differ (TRSV's block inverse).
 * @module
 */
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { Range } from '../../src/core/range.js';
import { fail } from '../../src/core/errors.js';
import type { Accessor } from '../../accessors/accessor.js';
import type { StorageFormat } from '../../src/formats/common/format.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { numberOfKind } from '../../src/formats/f64/f64-arithmetic.js';
import { gamma } from './accumulation.js';
import { readRoundings as accessorReadRoundings } from './accessor-rounding.js';

/**
 * Relative roundings one read of `r` makes in `ar` (the storage conversion and the scale product, not the scale's own conversion: see elementReadRoundings).
 * @example
 * ```ts
 * import { vector, formats, asArithmetic, readRoundings } from 'modprec';
 *
 * const x = vector([1, 2]);   // fp64 storage
 * readRoundings(x, asArithmetic(formats.f32)); // → 1
 * readRoundings(x, asArithmetic(formats.f64)); // → 0
 * ```
 * @group Kernels
 */
export function readRoundings(r: Range<any, any>, ar: ArithmeticFormat): number {
  checkTermArguments(r, ar);
  return accessorReadRoundings(r.accessor, ar) - (r.accessor.scale && ar.significandBits < 53 ? 1 : 0);
}

/**
 * Relative rounding of a write to `r`'s storage (0 when the storage holds every arithmetic value exactly).
 * Integer storage has an absolute error instead (half the scale): see {@link writeAbsoluteError}.
 * @example
 * ```ts
 * import { vector, formats, asArithmetic, writeRelativeError } from 'modprec';
 *
 * const y = vector(2, { storage: formats.f16, arithmetic: formats.f64 });
 * writeRelativeError(y, asArithmetic(formats.f64)); // → 0.00048828125
 * ```
 * @group Kernels
 */
export function writeRelativeError(r: Range<any, any>, ar: ArithmeticFormat): number {
  checkTermArguments(r, ar);
  const st = r.accessor.storage;
  if (st.isInteger) return 0;
  return st.significandBits >= ar.significandBits && (st.kind === ar.kind || ar.kind === 'number') ? 0 : st.unitRoundoff;
}

/**
 * Absolute error of a write to element `index` of an integer-scaled range (half a quantum), else 0.
 * @example
 * ```ts
 * import { range, formats, scaledReducedRowMajor, writeAbsoluteError } from 'modprec';
 *
 * const y = range(scaledReducedRowMajor<1>({ size: [2], storage: formats.i8, arithmetic: formats.f64, scaleMask: [true] }));
 * y.writeScale(1, 0.25);
 * writeAbsoluteError(y, [1]); // → 0.125
 * ```
 * @group Kernels
 */
export function writeAbsoluteError(r: Range<any, any>, index: readonly number[]): number {
  checkTermArguments(r);
  if (!Array.isArray(index)) fail('INDEX_OUT_OF_RANGE', 'index', `must be an array of ${r.dimensionality} indices`, index);
  const a = r.accessor;
  if (!a.storage.isInteger) return 0;
  return 0.5 * Math.abs(a.readScale(...index));
}

/**
 * The public bound terms' arguments: a range, and an arithmetic format object (as `asArithmetic` returns); undefined or
 * a plain value crashed them with TypeErrors.
 * @throws {@link ModprecError} `INVALID_OPTION` naming `r`, `INVALID_FORMAT` naming `ar`
 */
function checkTermArguments(r: unknown, ar?: unknown): void {
  if (!(r instanceof Range)) fail('INVALID_OPTION', 'r', 'must be a range (vector(…), range(rowMajor(…)) etc.)', r);
  if (arguments.length > 1 && (typeof ar !== 'object' || ar === null || typeof (ar as ArithmeticFormat).significandBits !== 'number')) {
    fail('INVALID_FORMAT', 'ar', 'must be an arithmetic format (asArithmetic(formats.f64) etc.)', ar);
  }
}

/** Σ|fᵢ|·|gᵢ| over the values a range holds (rounded to doubles), rounded upward by a safe margin. */
export function absProductSum(n: number, f: (i: number) => number, g: (i: number) => number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.abs(f(i) * g(i));
  // The fp64 evaluation of this sum has relative error ≤ γ_n(2^-53); add it so the bound stays an upper bound.
  return s * (1 + 2 * (n + 2) * 2 ** -53);
}

/** Smallest positive double: the floor for every underflow unit below. */
const TINY = 2 ** -1074;
/** Relative margin that covers the fp64 evaluation of a bound (a few dozen roundings of 2^-53 each). */
export const EVALUATION_MARGIN = 1 + 2 ** -40;

/** Exponent range facts of a format that the bounds need. */
export interface UnderflowAndOverflow {
  /** η: the largest absolute error of one rounding into the subnormal range (half the smallest subnormal). */
  readonly eta: number;
  /** Largest finite magnitude. */
  readonly max: number;
  /**
   * The largest absolute error, over 2, of reading a value that rounds into the format: η, or for an arithmetic on
   * binary32 words (fp32, float-float) 2^-126 — a GPU reads an f64 value below 2^-126 as ±0 there (docs/gpu.md), and
   * the bounds serve every backend.
   */
  readonly readEta: number;
  /**
   * The largest absolute error of one operation of an arithmetic, on every backend: fl(x ∘ y) = (x ∘ y)(1 + δ) + η with
   * |η| ≤ opEta (Higham's model with underflow). η where results keep subnormals; for an arithmetic on binary32 words
   * a GPU may flush results (and operands) below 2^-126 to ±0 (WGSL allows it), so 2^-126 for fp32 and
   * {@link FF_FLUSH_OPERATIONS}·2^-126 for float-float, whose operations are sequences of binary32 operations.
   */
  readonly opEta: number;
}

/**
 * Binary32 operations counted per float-float operation for its underflow term on a flushing device. With a fused
 * fma (TwoProd = a product and an fma: the H100, llvmpipe) every float-float operation of src/backends/webgpu/
 * arithmetic.ts takes at most 32 (the accurate addition 20, a multiply-add 22, the division 32); each flushed result
 * is off by < 2^-126, and the pair algorithms pass such a change on through additions and error-free transformations
 * (factor ≤ 1 + 2^-20): their products take the operation's operands, never a flushed intermediate — but for the
 * division's correction, divided by the divisor's head again, which the bounds that divide count (λ(|d| + 1)).
 * Without a fused fma, Dekker's split of an operand below 2^-113 may flush its low part, an error up to 2^-126 times
 * the other factor: not covered (docs/gpu.md, "What the bounds cover on a GPU").
 */
export const FF_FLUSH_OPERATIONS = 32;

function largestExponent(maxValue: number): number {
  let e = Math.floor(Math.log2(maxValue));
  if (2 ** e > maxValue) e--;
  return e;
}

/**
 * η and the largest value of a floating-point storage format with IEEE-style exponents
 * (emin = 1 − emax): η = 2^(emin − p), never below the smallest double (a pair format: p of one word), or the
 * format's declared {@link StorageFormat.underflowError}.
 * @param st - a storage format (its maxValue and significandBits)
 * @returns η and the largest finite magnitude
 */
export function storageLimits(st: StorageFormat): UnderflowAndOverflow {
  const emax = largestExponent(st.maxValue);
  // A pair format (kind 'dd': ff's two binary32 words) rounds its tail on its word's subnormal grid (see arithmeticLimits).
  const gridBits = st.kind === 'dd' ? Math.ceil(st.significandBits / 2) : st.significandBits;
  // A format that declares its underflow (no subnormals, a smallest magnitude tiny values round to) is taken at its word.
  const eta = st.underflowError ?? Math.max(2 ** (1 - emax - gridBits), TINY);
  return { eta, max: st.maxValue, readEta: eta, opEta: eta };
}

/**
 * η and the largest value of an arithmetic, taken from the storage codec registered under the same name
 * (fp32: 2^-150 and ≈ 3.4e38); fp64's (2^-1074, Number.MAX_VALUE) for an arithmetic with no such codec.
 * A pair arithmetic (kind `'dd'`: float-float, double-double) rounds its tail on its word's subnormal grid, so its η is
 * the word's (half the significand bits each); float-float, which has no storage codec, takes binary32's range: η = 2^-150
 * and max ≈ 3.4e38 (fp64's limits, which it got before, let a bf16 DOT near 2^-120 miss its bound).
 * @param ar - an arithmetic format
 * @returns η and the largest finite magnitude
 */
export function arithmeticLimits(ar: ArithmeticFormat): UnderflowAndOverflow {
  // Float-float has no CPU storage codec of its own: its words are binary32's, and so are its exponent limits.
  const st = findFormat(ar.name)?.storage ?? (ar.kind === 'dd' && Math.ceil(ar.significandBits / 2) === 24 ? findFormat('f32')?.storage : undefined);
  if (!st) return { eta: TINY, max: Number.MAX_VALUE, readEta: TINY, opEta: TINY };
  const emax = largestExponent(st.maxValue);
  const gridBits = ar.kind === 'dd' ? Math.ceil(ar.significandBits / 2) : ar.significandBits;
  const eta = st.underflowError ?? Math.max(2 ** (1 - emax - gridBits), TINY);
  // Binary32 words: a read may flush a value below 2^-126 to ±0 on the GPU (error below 2^-126 = 2·2^-127; 2^-126 keeps a margin).
  if (emax !== 127) return { eta, max: st.maxValue, readEta: eta, opEta: eta };
  // A GPU may flush binary32 results and operands below 2^-126 (float-float: each of its word operations).
  const flush = 2 ** -126 * (ar.kind === 'dd' ? FF_FLUSH_OPERATIONS : 1);
  return { eta, max: st.maxValue, readEta: Math.max(eta, 2 ** -126), opEta: Math.max(eta, flush) };
}

/**
 * 1 where a stored magnitude v may be flushed to ±0 by a read into the arithmetic although no rounding is counted for
 * it: 0 < v < readEta, i.e. a binary32 subnormal (f32 or bf16 storage) read into f32 or float-float, which a GPU may
 * flush (an error below 2^-126 ≤ 2·readEta, times what it multiplies); else 0. Taken as one more read rounding.
 * @param v - a stored magnitude
 * @param readEta - the arithmetic's {@link UnderflowAndOverflow.readEta}
 * @returns 0 or 1
 */
export function flushableRead(v: number, readEta: number): number {
  return v > 0 && v < readEta ? 1 : 0;
}

/**
 * Roundings a read of element i of `r` takes in arithmetic `ar`: {@link readRoundings} (the storage →
 * arithmetic conversion and the scale product) plus the conversion of the fp64 scale itself into `ar`,
 * which readRoundings does not count (fp32 arithmetic rounds a scale such as 0.1/32767 before multiplying).
 * @param r - a 1-D range
 * @param ar - the kernel's arithmetic
 * @param i - the element
 * @returns how many roundings (each |δ| ≤ u) the read applies
 */
export function elementReadRoundings(r: Range<1, any>, ar: ArithmeticFormat, i: number): number {
  const scale = r.accessor.scale ? r.readScale(i) : undefined;
  return readRoundings(r, ar) + (scale !== undefined && !exactIn(ar, scale) ? 1 : 0);
}

/**
 * Absolute error a scaled read of element i of `r` takes where one of its two conversions into `ar` underflows.
 * The read is fl(q)·fl(s) (q the stored value, s its scale). A scale below the arithmetic's smallest normal (fp32
 * arithmetic reading an fp64 scale such as 1e-40/32767) converts as fl(s) = s(1 + δ) + ε with |ε| ≤ η (the read's η,
 * 2^-126 for binary32 words, which may flush s to ±0), so the read carries q·ε: η·|q|. Likewise a stored value below
 * it (fp64 storage holding 2^-220 under a scale of 2^120, read into fp32: fl(q) = 0) carries ε·s: η·|s| — the
 * represented value q·s may be far above the arithmetic's underflow threshold. Each is doubled for the scale
 * product's rounding. These come on top of the relative δ that {@link elementReadRoundings} counts; 0 for unscaled
 * reads and for conversions that are exact or stay normal.
 * @param r - a 1-D range
 * @param ar - the kernel's arithmetic
 * @param i - the element
 * @returns the absolute error bound (∞ when q is not finite)
 */
export function scaleUnderflowError(r: Range<1, any>, ar: ArithmeticFormat, i: number): number {
  return scaleUnderflowErrorAt(r.accessor, ar, [i]);
}

/**
 * {@link scaleUnderflowError} for the element at `index` of any accessor (a matrix's, an ELL operand's values).
 * @param a - the accessor read
 * @param ar - the kernel's arithmetic
 * @param index - the element
 * @returns the absolute error bound of the read (0 when unscaled, ∞ when the stored value is not finite)
 */
export function scaleUnderflowErrorAt(a: Accessor<any, any>, ar: ArithmeticFormat, index: readonly number[]): number {
  if (!a.scale) return 0;
  const s = a.scale.data[a.scaleIndex(index as any)]!;
  const q = Math.abs(numberOfKind(a.storage.kind, a.storage.decode(a.data as never, a.linearIndex(index as any))));
  // The error is the read's η: binary32 words (fp32 on the GPU, float-float also on the CPU) flush a value below
  // 2^-126 to ±0, even one they hold exactly (a binary32 subnormal q).
  const scaleErr = scaleConversionUnderflows(ar, s), storedErr = storedConversionUnderflows(ar, q);
  if (!scaleErr && !storedErr) return 0;
  const { readEta } = arithmeticLimits(ar);
  const error = (scaleErr ? readEta * q : 0) + (storedErr ? readEta * Math.abs(s) : 0) + (scaleErr && storedErr ? readEta * readEta : 0);
  return 2 * error * (1 + 2 ** -50);
}

/**
 * Whether converting a stored magnitude q (before its scale) into `ar` may err absolutely: q is below the
 * arithmetic's normal range and either rounds there (fp64 2^-220 into fp32) or is one a binary32-word arithmetic
 * may flush (below its read η, 2^-126).
 */
function storedConversionUnderflows(ar: ArithmeticFormat, q: number): boolean {
  if (!(q > 0) || !Number.isFinite(q)) return false;
  const { eta, readEta } = arithmeticLimits(ar);
  return q < eta * 2 ** ar.significandBits && (!exactIn(ar, q) || q < readEta);
}

/**
 * Extra relative error of a scaled floating-point write whose scale s converts into the arithmetic's subnormal range
 * (fp32 arithmetic writing under a scale of 1e-40): the write stores q = t / fl(s), and fl(s) = s(1 + δ) with
 * |δ| ≤ ε = η/|s|, far above u — an fp32 GEMV stored 1.2858067e-32 for 1.2857997e-32 (5.4e-6 relative) under
 * 1e-40. The stored q·s is t/(1 + δ): ε/(1 − ε) more. η is the arithmetic's own where it keeps subnormals (fp32: the
 * GPU's scaled store rounds the scale to the nearest binary32, subnormals included, docs/gpu.md "Scaled ranges"), the
 * read's η for float-float, whose conversion flushes a scale below 2^-126 on every backend.
 * @param w - the output's accessor
 * @param ar - the kernel's arithmetic
 * @param s - the element's scale
 * @returns 0 for unscaled, integer (divides exactly) or exactly converted / normal scales; ∞ when ε ≥ 1/2
 */
export function scaledWriteUnderflow(w: Accessor<any, any>, ar: ArithmeticFormat, s: number): number {
  if (!w.scale || w.storage.isInteger || !scaleConversionUnderflows(ar, s)) return 0;
  const { eta, readEta } = arithmeticLimits(ar);
  const epsilon = ((ar.kind === 'number' ? eta : readEta) / Math.abs(s)) * (1 + 2 ** -50);
  return epsilon < 0.5 ? (epsilon / (1 - epsilon)) * (1 + 2 ** -50) : Infinity;
}

/**
 * Whether converting the scale s into `ar` rounds below the arithmetic's normal range (|s| < 2^emin = η·2^p), where
 * its error is absolute (up to η, or all of s where the arithmetic flushes it) instead of relative.
 * @param ar - the kernel's arithmetic
 * @param s - a scale (fp64)
 * @returns false for a scale the conversion keeps exactly, or one in the normal range
 */
export function scaleConversionUnderflows(ar: ArithmeticFormat, s: number): boolean {
  return !exactIn(ar, s) && Math.abs(s) < arithmeticLimits(ar).eta * 2 ** ar.significandBits;
}

/**
 * Whether a scaled read of element i of `r` overflows in `ar` although the stored value and its scale are finite: the
 * read is fl(q)·fl(s), so a scale that converts to ±∞ (fp32 arithmetic reading a scale of 1e300) or a stored value
 * that does (an fp64 storage holding 1e300 under a scale of 1e-300) gives ±∞, or NaN against a 0 — whatever the
 * represented value q·s, even where it is 0 or moderate. No finite bound holds then.
 * @param a - the accessor read (a range's `accessor`, or op(A)'s)
 * @param ar - the kernel's arithmetic
 * @param index - the element
 * @returns true when the bound must be ∞ for this element's read (always false for unscaled accessors, whose
 *   magnitude the bounds compare with the arithmetic's largest value themselves)
 */
export function scaledReadOverflows(a: Accessor<any, any>, ar: ArithmeticFormat, index: readonly number[]): boolean {
  if (!a.scale) return false;
  const s = a.scale.data[a.scaleIndex(index as any)]!;
  const q = numberOfKind(a.storage.kind, a.storage.decode(a.data as never, a.linearIndex(index as any)));
  const overflows = (v: number): boolean => Number.isFinite(v) && !Number.isFinite(ar.toNumber(ar.fromNumber(v)));
  return overflows(s) || overflows(q);
}

/**
 * Whether the double `c` is exactly representable in `ar` (so converting it adds no rounding).
 * @param ar - an arithmetic format
 * @param c - a coefficient or scale
 * @returns true when fromNumber(c) loses nothing (NaN counts as exact: the bound is ∞ anyway)
 */
export function exactIn(ar: ArithmeticFormat, c: number): boolean {
  return ar.toNumber(ar.fromNumber(c)) === c || c !== c;
}

/**
 * An upper bound on |stored value| of element i of a 1-D range (stored × scale for scaled accessors), in fp64:
 * exact for an unscaled storage of kind `number`, else rounded to a double and enlarged by 2^-51.
 * @param r - a 1-D range
 * @param i - the element
 * @returns the magnitude bound; NaN when the element is NaN, ∞ when it is infinite
 */
export function storedMagnitude(r: Range<1, any>, i: number): number {
  const a = r.accessor;
  const k = a.linearIndex([i]);
  const raw = a.storage.decode(a.data as never, k);
  const v = Math.abs(numberOfKind(a.storage.kind, raw));
  if (a.storage.kind === 'number' && !a.scale) return v;
  const scaled = a.scale ? v * Math.abs(a.scale.data[a.scaleIndex([i])]!) : v;
  return scaled * (1 + 2 ** -51);
}

/**
 * Adds the conversion of a kernel's result r to the double it returns (DOT, ASUM, NRM2): none for fp64 and fp32
 * arithmetic, whose values are doubles; for wider ones (dd, RNS) one correctly rounded conversion, u₆₄·|r| plus
 * half the smallest subnormal. ∞ when the double could overflow.
 * @param ar - the kernel's arithmetic
 * @param magnitude - upper bound on |exact|
 * @param error - upper bound on |r − exact| in the arithmetic
 * @returns upper bound on |returned double − exact|
 * @example
 * ```ts
 * returnedDoubleBound(ddArithmetic, 1, 2 ** -100); // ≈ 2^-53: the double cannot hold what dd kept
 * ```
 */
export function returnedDoubleBound(ar: ArithmeticFormat, magnitude: number, error: number): number {
  if (ar.kind === 'number') return error;
  const t = magnitude + error;
  if (!(t * (1 + 2 ** -52) < Number.MAX_VALUE)) return Infinity;
  return (error + 2 ** -53 * t + 2 ** -1075) * EVALUATION_MARGIN;
}

/** A term c·v of an element-wise kernel: an upper bound on |c·v̂| and on the error its path adds to t. */
export interface TermBound {
  /** Upper bound on |c·v̂| (v̂ the value as stored). */
  readonly magnitude: number;
  /** Upper bound on |(computed contribution) − c·v̂| before the output is stored. */
  readonly error: number;
}

/**
 * The term c·v̂ with v = element i of `r`: its read takes {@link elementReadRoundings}, c's conversion one
 * rounding unless exact, and the kernel applies `operations` further roundings (multiplication, addition).
 * Underflow: each read rounding and each operation may add η, the coefficient's may add η·|v̂| (the read's η: float-float
 * flushes a coefficient below 2^-126); these are
 * multiplied by at most (1 + u)^k ≤ 2 on their way to t. ∞ when v̂ or c·v̂ is not finite or v̂ cannot be read into
 * the arithmetic without overflow.
 * @param c - the coefficient (1 for a plain addend)
 * @param r - the vector read
 * @param i - the element
 * @param ar - the kernel's arithmetic
 * @param operations - roundings the kernel applies after the read (multiplication, addition)
 * @returns bounds on |c·v̂| and on the error of its contribution
 */
export function termBound(c: number, r: Range<1, any>, i: number, ar: ArithmeticFormat, operations: number): TermBound {
  const v = storedMagnitude(r, i);
  const { opEta: eta, max, readEta } = arithmeticLimits(ar);
  const reads = elementReadRoundings(r, ar, i);
  const kc = exactIn(ar, c) ? 0 : 1;
  const magnitude = Math.abs(c) * v;
  if (!Number.isFinite(magnitude) || !Number.isFinite(c)) return { magnitude: Infinity, error: Infinity };
  // A coefficient that converts to ±∞ (3.5e38 in fp32), or a scaled read that overflows (a scale of 1e300 in fp32):
  // ±∞, or NaN against a 0, whatever the exact product is.
  if (!Number.isFinite(ar.toNumber(ar.fromNumber(c))) || scaledReadOverflows(r.accessor, ar, [i])) return { magnitude: Infinity, error: Infinity };
  // A stored value beyond the arithmetic's range (fp64 1e45 read into fp32) is read as ±∞, whatever c is.
  if (v * (1 + gamma(reads, ar.unitRoundoff)) >= max) return { magnitude: Infinity, error: Infinity };
  const relative = gamma(kc + reads + operations, ar.unitRoundoff) * magnitude;
  // (c's conversion is a read too: float-float flushes a coefficient below 2^-126, an error of |c|·|v̂| up to 2^-126·|v̂|.)
  const underflow = 4 * readEta * (Math.abs(c) * Math.max(reads, flushableRead(v, readEta)) + kc * v) + 4 * eta * (operations + 1) + 2 * Math.abs(c) * scaleUnderflowError(r, ar, i);
  return { magnitude, error: relative + underflow };
}

/**
 * Whether a write of element i of a scaled floating-point range divides by a scale that converts to 0 or ±∞ in `ar`
 * (8e-323 or 1e300 in fp32): even an exact 0 is then stored as NaN (0/0) or a finite value as ±∞ or 0, so no finite
 * bound holds. Integer storage divides exactly, outside the arithmetic: never.
 * @param w - the output
 * @param i - the element written
 * @param ar - the kernel's arithmetic
 * @returns true when the element's bound must be ∞
 */
export function scaledWriteFails(w: Range<1, any>, i: number, ar: ArithmeticFormat): boolean {
  const a = w.accessor;
  if (!a.scale || a.storage.isInteger) return false;
  const s = w.readScale(i);
  const converted = Math.abs(ar.toNumber(ar.fromNumber(s)));
  return s !== 0 && Number.isFinite(s) && (converted === 0 || !Number.isFinite(converted));
}

/**
 * Bound on |stored w_i − exact| when the arithmetic result t_i satisfies |t_i − exact| ≤ `error` and
 * |exact| ≤ `magnitude`: adds the store (division by the scale, rounding to the storage). ∞ when t_i could
 * overflow the arithmetic or the storage, or saturate an integer storage.
 * @param w - the output vector (its storage, scale and arithmetic-relative write error)
 * @param i - the element written
 * @param ar - the kernel's arithmetic
 * @param magnitude - upper bound on |exact|
 * @param error - upper bound on |t − exact| before the store
 * @returns upper bound on |stored − exact|
 */
export function storeBound(w: Range<1, any>, i: number, ar: ArithmeticFormat, magnitude: number, error: number): number {
  if (!Number.isFinite(magnitude) || !Number.isFinite(error)) return Infinity;
  const a = w.accessor;
  const lim = arithmeticLimits(ar);
  const t = magnitude + error;
  if (t >= lim.max) return Infinity;
  const st = a.storage;
  const s = a.scale ? Math.abs(w.readScale(i)) : 1;
  // Scaled floating-point storage: q = fl(t / fl(s)) — the scale's conversion (unless exact) and the division
  // round; either may underflow. Integer storage rounds the exact t / s to an integer in one step: no division error.
  const divides = a.scale && !st.isInteger;
  if (scaledWriteFails(w, i, ar)) return Infinity;
  const divisions = divides ? (exactIn(ar, w.readScale(i)) ? 1 : 2) : 0;
  // (A scale in the arithmetic's subnormal range converts with a relative error far above u: scaledWriteUnderflow.)
  const scaleError = scaledWriteUnderflow(a, ar, w.readScale(i));
  if (!Number.isFinite(scaleError)) return Infinity;
  const divisionError = divides ? (gamma(divisions, ar.unitRoundoff) + scaleError * (1 + gamma(divisions, ar.unitRoundoff))) * t + 4 * lim.opEta * (s + 1) : 0;
  // Enlarged by two fp64 roundings, so that a quotient at the saturation threshold is not missed.
  const q = ((t + divisionError) / s) * (1 + 2 ** -51);
  let storeError: number;
  if (st.isInteger) {
    // Rounding to an integer is off by at most 1/2 unless the quotient leaves the range and saturates.
    if (q > st.maxValue + 0.5) return Infinity;
    storeError = writeAbsoluteError(w, [i]);
  } else {
    const us = writeRelativeError(w, ar);
    // A scaled write may overflow in its division even where the storage holds the arithmetic's values exactly
    // (fp64 arithmetic into dd storage under a scale of 8e-323).
    // A storage as wide as the arithmetic but of a narrower range (a user's 30-bit significand up to 1023.99, fp32
    // arithmetic) writes exactly (us = 0) below its largest value and overflows above it: axpy stored +∞ for 1500
    // under a bound of 2e-4.
    if ((us > 0 || divides || st.maxValue < lim.max) && q >= st.maxValue) return Infinity;
    if (divides && q >= lim.max) return Infinity;
    // With no relative error the storage may still be coarser at the bottom than the arithmetic (its subnormals).
    const etaStorage = storageLimits(st).eta;
    storeError = us > 0 ? us * (t + divisionError) + etaStorage * s : st.kind === 'number' && etaStorage > 2 * lim.eta ? etaStorage * s : 0;
  }
  return (error + divisionError + storeError) * EVALUATION_MARGIN;
}
