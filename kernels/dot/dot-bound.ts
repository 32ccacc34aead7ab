/**
 * A-priori forward error bound of DOT (Higham, Accuracy and Stability, eq. 3.5, with the underflow term of
 * §3.1 / Lemma 3.1 ff.): |fl(xᵀy) − xᵀy| ≤ γ_k Σ|xᵢyᵢ| + n·η·(1 + γ_k), with k = n plus the roundings the reads
 * add (storage wider than the arithmetic, scale conversions and products) and η the largest error of a
 * rounding into the arithmetic's subnormal range. ∞ when a value or a partial sum may overflow the arithmetic.
 * Relative to the values as stored; see {@link DotBoundOptions.original}.
 *
 * It bounds what the caller gets: without `into`, the returned double, so an arithmetic wider than fp64 (dd, RNS)
 * adds the final rounding to the nearest double (u₆₄·|result| plus half the smallest subnormal); with `into`, the
 * value stored in `into`, so the write to its storage is added (none for a storage that holds the arithmetic's
 * values exactly, half a quantum of the scale for integer storage).
 * @module
 */
import type { Range } from '../../src/core/range.js';
import { gamma } from '../shared/accumulation.js';
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';
import { absProductSum, arithmeticLimits, flushableRead, elementReadRoundings, returnedDoubleBound, scaledReadOverflows, scaledWriteFails, scaledWriteUnderflow, scaleUnderflowError, storageLimits, storedMagnitude, storeBound } from '../shared/bound-terms.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { compose, vectorMagnitudes } from '../shared/accessor-rounding.js';
import type { DotOptions } from './dot.js';
import { checkDotGpuInto, checkDotInto, checkDotOperands, checkDotThreadsInto } from './dot-arguments.js';
import { checkReadableIn } from '../shared/kernel-options.js';
import { booleanOption } from '../../src/sparse/sparse-checks.js';

/**
 * Options of {@link dotBound}: the kernel's options (`backend` and `strict` included, as every bound function takes
 * them: {@link BoundBackendOptions}) plus what the bound is relative to.
 * @group Kernels
 */
export interface DotBoundOptions extends DotOptions, BoundBackendOptions {
  /**
   * When true, also count the storage rounding of the inputs, so the bound holds against the exact dot
   * product of the ORIGINAL values that were written into x and y (not only of what the storage kept) — doubles
   * written with `set` (or `vector(values)`) through these ranges, in each range's own arithmetic. A boolean
   * (default false); anything else is `INVALID_OPTION` naming `options.original`.
   */
  original?: boolean;
}

/**
 * Upper bound on |r − exact| for `dot(x, y, options)` with the same operands and options, where r is the double
 * dot returns or, when `options.into` is given, the value it stores there (the returned double is then the one dot
 * returns without `into`, which this function bounds without it).
 * @param x - first vector, as dot gets it
 * @param y - second vector
 * @param options - dot's options (arithmetic, accumulation, into) and {@link DotBoundOptions.original} (`backend`, `strict` and `threads` are checked as dot checks them)
 * @returns a non-negative number; ∞ when n·u ≥ 1, when a value is NaN or infinite, or when the arithmetic or
 *   into's storage may overflow
 * @throws {@link ModprecError} as {@link dot} for its options: `INVALID_OPTION` naming `options.accumulation` for an
 *   unknown accumulation or one the kernel refuses in the arithmetic (e.g. 'kahan' or 'dot2' in dd or ff)
 *   — and, before computing anything, every error dot raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, formats, dotBound } from 'modprec';
 *
 * const x = vector([0.1, 0.2, 0.3], { storage: formats.f32, arithmetic: formats.f32 });
 * const bound = dotBound(x, x);   // |dot(x, x) − exact| ≤ bound
 * bound > 0 && bound < 1e-7; // → true
 * ```
 * @group Kernels
 */
export function dotBound(x: Range<1, any>, y: Range<1, any>, options: DotBoundOptions = {}): number {
  checkDotOperands(x, y);
  let into: Range<1, any> | undefined;
  // Options are checked as dot checks them (backend, strict, threads included), also where the bound is 0.
  const { arithmetic: ar, accumulation: acc } = checkBoundOptions({
    kernel: 'dot', operands: [['x', x], ['y', y]], cpuOperands: [['x', x, 'read'], ['y', y, 'read']], split: () => ({ x, y }),
    afterBackend: () => { into = checkDotInto(x, y, options.into); },
    afterGpu: (call) => checkDotGpuInto(into, call),
    values: (arithmetic) => checkReadableIn(arithmetic, [['x', x], ['y', y]]),
    beforeSplit: (pool) => checkDotThreadsInto(into, pool),
  }, options);
  // The bound's own option, after every check of dot's (which ignores it): 'yes' or 1 would count as true unchecked.
  const original = booleanOption('options.original', options.original, false);
  const n = x.length();
  // An empty dot stores an exact 0 — but 0 divided by a scale that converts to 0 in the arithmetic is NaN (an fp64
  // into under a scale of 1e-300 in fp32 arithmetic), which no finite bound covers.
  if (n === 0) return into && scaledWriteFails(into, 0, ar) ? Infinity : 0;
  const u = ar.unitRoundoff;
  const { opEta: eta, max, readEta } = arithmeticLimits(ar);
  // Magnitudes of the values as stored (not as rounded by a narrower arithmetic).
  const xs = vectorMagnitudes(x.accessor);
  const ys = vectorMagnitudes(y.accessor);
  let extra = 0, maxX = 0, maxY = 0, readUnderflow = 0;
  for (let i = 0; i < n; i++) {
    if (scaledReadOverflows(x.accessor, ar, [i]) || scaledReadOverflows(y.accessor, ar, [i])) return Infinity;
    const rx = elementReadRoundings(x, ar, i), ry = elementReadRoundings(y, ar, i);
    const ax = Math.abs(xs(i)), ay = Math.abs(ys(i));
    extra = Math.max(extra, rx + ry);
    maxX = Math.max(maxX, ax);
    maxY = Math.max(maxY, ay);
    // A read that rounds into the subnormal range errs by up to η absolutely, then is multiplied by the other factor.
    readUnderflow += 2 * readEta * (Math.max(rx, flushableRead(ax, readEta)) * ay + Math.max(ry, flushableRead(ay, readEta)) * ax);
    // A scale whose conversion underflows errs absolutely by up to ex (ey) on the read, times the other factor.
    const ex = scaleUnderflowError(x, ar, i), ey = scaleUnderflowError(y, ar, i);
    if (ex > 0 || ey > 0) readUnderflow += 2 * (ex * ay + ey * ax + ex * ey);
  }
  const absSum = absProductSum(n, xs, ys);
  // No overflow anywhere: every read, product and partial sum stays below the arithmetic's largest value
  // (with room for the rounding of each); otherwise nothing finite can be promised.
  if (!Number.isFinite(absSum) || maxX * (1 + 4 * u) >= max || maxY * (1 + 4 * u) >= max ||
    n * maxX * maxY * (1 + gamma(n + extra + 2, u)) >= max) {
    return Infinity;
  }
  const b = acc.bound(n, u);
  // Read roundings perturb each term by (1+δ)^extra before the sum: (1+γ_n)(1+γ_extra) − 1 ≤ γ_{n+extra}.
  const relative = b.ofAbsSum + gamma(extra, u) * (1 + b.ofAbsSum) + b.ofResult;
  let bound = relative * absSum + (2 * n * eta + readUnderflow) * (1 + relative);
  if (original) {
    // Each original value v differs from what its storage kept (magnitude a) by at most rel·a + abs: with δx, δy
    // so bounded, |Σ vx·vy − Σ x·y| ≤ Σ δx·|y| + |x|·δy + δx·δy.
    const wx = originalWriteError(x), wy = originalWriteError(y);
    let perturbation = 0;
    for (let i = 0; i < n; i++) {
      const ax = Math.abs(xs(i)), ay = Math.abs(ys(i));
      const dx = wx.rel * ax + wx.abs(i), dy = wy.rel * ay + wy.abs(i);
      perturbation += dx * ay + ax * dy + dx * dy;
    }
    if (!Number.isFinite(perturbation)) return Infinity;
    bound += perturbation * (1 + relative);
  }
  return resultRounding(into, ar, absSum, bound);
}

/**
 * How far an original value written into `r` (`set` with a double, in `r`'s own arithmetic — not the kernel's: the
 * write happened before) may lie from what the storage kept: rel·|kept| + abs(i). A plain number goes into unscaled
 * storage in one rounding (its unit roundoff, and η where it underflows, e.g. 1e-9 into fp16 keeps 0); under a scale,
 * an integer storage keeps the exact v / s rounded to the nearest integer (half a quantum, |s|/2; an element at the
 * storage's largest magnitude may have saturated: ∞), a float storage fl(fl(v) / fl(s)) in r's arithmetic, rounded
 * to the storage.
 */
function originalWriteError(r: Range<1, any>): { rel: number; abs: (i: number) => number } {
  const a = r.accessor, st = a.storage, sc = a.scale;
  const scaleAt = (i: number): number => (sc ? Math.abs(sc.data[sc.offset + i * sc.strides[0]!]!) : 1);
  // Multiple-precision storage keeps its own rounding model (its unit roundoff, as before).
  if (st.kind === 'mp') return { rel: st.unitRoundoff || 0, abs: () => 0 };
  if (st.isInteger) {
    return {
      rel: 0,
      abs: (i) => {
        const q = Math.abs(st.decode(a.data as never, a.linearIndex([i])) as number);
        return q >= st.maxValue ? Infinity : scaleAt(i) / 2;
      },
    };
  }
  const us = st.unitRoundoff || 0, etaStorage = storageLimits(st).eta;
  if (!sc) return { rel: us, abs: () => etaStorage };
  // v and s rounded into the range's arithmetic, divided there, rounded to the storage: four roundings, each relative
  // or (underflowing) absolute, the quotient's scaled back by |s|. (An fp32 range under a scale of 3 kept
  // 0.10000000521540642 of 0.1: the kernel's fp64 u, which this took before, bounded it by 6.7e-17.)
  const ar: ArithmeticFormat = a.arithmetic;
  const lim = arithmeticLimits(ar);
  // (Float-float flushes below 2^-126 in every binary32 step of its operations: its operation η.)
  const u = ar.unitRoundoff, etaAr = ar.kind === 'number' ? lim.eta : lim.opEta;
  // Relative to the kept value: γ_3 for fl(v), fl(s) and the division, γ_1 of the storage (both as 1/(1 + δ) too).
  const rel = compose(gamma(3, u), gamma(1, us));
  return {
    rel,
    abs: (i) => {
      // A scale in the arithmetic's subnormal range converts with a relative error up to ε = η/|s| (every value kept
      // under it carries it: scaledWriteUnderflow), which no unit roundoff covers.
      const e = scaledWriteUnderflow(a, ar, sc.data[sc.offset + i * sc.strides[0]!]!);
      const scaleConversion = e === 0 ? 0 : e * storedMagnitude(r, i) * (1 + rel);
      return (etaStorage + 2 * etaAr) * scaleAt(i) * (1 + rel) + etaAr * (1 + rel) + scaleConversion;
    },
  };
}

/**
 * Adds the rounding of the arithmetic's result r (|r − exact| ≤ `error`, |exact| ≤ `magnitude`) to what the caller
 * receives: the store into `into`, or the conversion to a double (exact for fp64 and fp32 arithmetic, whose values
 * are doubles; one correctly rounded conversion for dd and RNS).
 */
function resultRounding(into: Range<1, any> | undefined, ar: ArithmeticFormat, magnitude: number, error: number): number {
  return into ? storeBound(into, 0, ar, magnitude, error) : returnedDoubleBound(ar, magnitude, error);
}
