/**
 * The a-priori forward error bound of GEMV, componentwise (Higham §3.5; seed 000 eq. 18):
 *   |ŷ − y| ≤ γ_{n+2}·(|α|·|op(A)|·|x| + |β|·|y|)
 * for the recursive sum with no rounding on reads, generalised to the accumulation's own bound, to the
 * roundings of reads that convert to a narrower arithmetic or apply a scale, to α, β not representable in
 * the arithmetic, and to the rounding of the result to y's storage (see update-bound.ts).
 * @module
 */
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';
import { checkGemvArguments, checkGemvValues, type GemvArguments } from './gemv-arguments.js';
import { checkGpuLoop, chooseLoop, wasmLoopRefusal } from './gemv-loop-option.js';
import type { GemvOptions } from './gemv.js';
import { matrixMagnitudes, vectorMagnitudes, vectorScales, inflate, readRoundings } from '../shared/accessor-rounding.js';
import { scaleBound, updateBound, updateBoundContext } from './update-bound.js';
import { arithmeticLimits, flushableRead, scaledReadOverflows, scaleUnderflowErrorAt } from '../shared/bound-terms.js';

/**
 * Per-component bounds on |ŷᵢ − yᵢ| for `gemv(args, options)`, where ŷ is what gemv stores and y the exact
 * α·op(A)·x + β·y of the values the operands hold. Call it BEFORE gemv: it reads y's entry values.
 * Underflow in the arithmetic is counted (η per rounding); an element whose value, a read or an intermediate may
 * overflow the arithmetic, or whose stored quotient may overflow its storage (an integer storage saturates), gets +∞.
 * Reads that flush to ±0 on a GPU (an f64 value below 2^-126 in f32 or ff) are covered (2^-126 times the other factor).
 * @param args - the arguments gemv will get
 * @param options - the options gemv will get (arithmetic and accumulation matter; the loop order does not; `backend`, `strict` and `threads` are checked as gemv checks them)
 * @returns a Float64Array of length m (0 where gemv leaves y untouched)
 * @throws {@link ModprecError} as {@link gemv}
 *   — and, before computing anything, every error gemv raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, matrix, formats, gemv, gemvBound } from 'modprec';
 *
 * const A = matrix(2, 2, (i, j) => 0.1 * (i + 2 * j + 1), { storage: formats.f32, arithmetic: formats.f32 });
 * const x = vector([0.3, 0.7]), y = vector(2);
 * const bound = gemvBound({ alpha: 1, A, x, beta: 0, y, trans: 'N' });   // before the call: it reads y
 * gemv({ alpha: 1, A, x, beta: 0, y, trans: 'N' }); // |y[i] − exact[i]| ≤ bound[i]
 * bound.every((b) => b > 0 && b < 1e-6); // → true
 * ```
 * @group Kernels
 */
export function gemvBound(args: GemvArguments, options: GemvOptions & BoundBackendOptions = {}): Float64Array {
  const { alpha, beta, opA, A, x, y, m, n } = checkGemvArguments(args);
  // The loop order changes no rounding (both orders do the same operations), but is checked as gemv does.
  const { arithmetic: ar, accumulation: acc } = checkBoundOptions({
    kernel: 'gemv', operands: [['A', A], ['x', x], ['y', y]], cpuOperands: [['A', A, 'read'], ['x', x, 'read'], ['y', y, 'write']],
    beforeGpu: () => checkGpuLoop(options.loop),
    beforeValues: (arithmetic, accumulation) => chooseLoop(options.loop, opA, arithmetic, accumulation),
    values: (arithmetic) => checkGemvValues(arithmetic, args, m, n),
    wasmRefusal: (_, accumulation) => wasmLoopRefusal(options.loop, opA, accumulation),
    split: () => ({ alpha, A, x, beta, y, trans: args.trans ?? 'N', loop: options.loop ?? 'auto' }),
  }, options);
  const out = new Float64Array(m);
  if (m === 0 || n === 0 || (alpha === 0 && beta === 1)) return out;
  const absY = vectorMagnitudes(y.accessor);
  const scaleY = vectorScales(y.accessor);
  if (alpha === 0) {
    for (let i = 0; i < m; i++) out[i] = beta !== 0 && scaledReadOverflows(y.accessor, ar, [i]) ? Infinity : scaleBound(ar, y.accessor, beta, absY(i), scaleY(i), scaleUnderflowErrorAt(y.accessor, ar, [i]));
    return out;
  }
  const ctx = updateBoundContext(ar, acc, opA, x.accessor, y.accessor, alpha, beta);
  const absA = matrixMagnitudes(opA);
  const absX = vectorMagnitudes(x.accessor);
  const xs = Float64Array.from({ length: n }, (_, j) => absX(j));
  // A scale of x converted below the normal range (float-float flushes one below 2^-126): up to 2η|q| on the read, per column.
  const xScaleErrors = x.accessor.scale ? Float64Array.from({ length: n }, (_, j) => scaleUnderflowErrorAt(x.accessor, ar, [j])) : undefined;
  // A read the arithmetic cannot hold (fp64 storage read into fp32 arithmetic, a scale or stored value that
  // overflows there) is ±∞ whatever it is multiplied by, NaN against a 0: every row reads every xⱼ.
  const { max, readEta } = arithmeticLimits(ar);
  const readsA = readRoundings(opA, ar) > 0 ? 1 : 0, readsX = readRoundings(x.accessor, ar) > 0 ? 1 : 0;
  const readLimit = max / (1 + 4 * ar.unitRoundoff);
  for (let j = 0; j < n; j++) if (!(xs[j]! < readLimit) || scaledReadOverflows(x.accessor, ar, [j])) return out.fill(Infinity);
  for (let i = 0; i < m; i++) {
    let s = 0;
    let largest = 0;
    let scaledOverflow = false;
    let readUnderflow = 0;
    for (let j = 0; j < n; j++) {
      const a = absA(i, j);
      largest = Math.max(largest, a);
      s += a * xs[j]!;
      // A read that rounds (a narrower arithmetic, a scale) may round into the subnormal range: η times the other factor.
      readUnderflow += 2 * readEta * (Math.max(readsA, flushableRead(a, readEta)) * xs[j]! + Math.max(readsX, flushableRead(xs[j]!, readEta)) * a);
      // The same for A's scales.
      const ea = opA.scale ? scaleUnderflowErrorAt(opA, ar, [i, j]) : 0, ex = xScaleErrors ? xScaleErrors[j]! : 0;
      if (ea > 0 || ex > 0) readUnderflow += 2 * (ea * xs[j]! + ex * a + ea * ex);
      if (opA.scale && scaledReadOverflows(opA, ar, [i, j])) scaledOverflow = true;
    }
    if (!(largest < readLimit) || scaledOverflow || (beta !== 0 && scaledReadOverflows(y.accessor, ar, [i]))) { out[i] = Infinity; continue; }
    // S is computed in fp64 without cancellation (2n roundings, one more for a scaled element).
    out[i] = updateBound(ctx, n, inflate(s, 3 * n), beta === 0 ? 0 : absY(i), scaleY(i), inflate(readUnderflow, 3 * n), beta === 0 ? 0 : scaleUnderflowErrorAt(y.accessor, ar, [i]));
  }
  return out;
}
