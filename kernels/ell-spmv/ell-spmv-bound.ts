/**
 * The a-priori forward error bound of ELL SpMV, componentwise: row i is a GEMV row with Kᵢ products (its
 * non-padding slots), so |ŷᵢ − yᵢ| ≤ γ_{Kᵢ+2}(|α|·Σₖ|aᵢₖ||x_{c(i,k)}| + |β||yᵢ|) for the recursive sum without
 * read roundings, generalised as for GEMV (reads, coefficients, accumulation, output storage; see
 * ../gemv/update-bound.ts).
 * @module
 */
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';
import { wasmEllRefusal } from './ell-spmv-wasm.js';
import { ELL_PADDING } from '../../src/sparse/ell-matrix.js';
import { inflate, matrixMagnitudes, readRoundings, vectorMagnitudes, vectorScales } from '../shared/accessor-rounding.js';
import { scaleBound, updateBound, updateBoundContext } from '../gemv/update-bound.js';
import { checkEllSpmvArguments, checkEllValues, type EllSpmvArguments } from './ell-spmv-arguments.js';
import { arithmeticLimits, flushableRead, scaledReadOverflows, scaleUnderflowErrorAt } from '../shared/bound-terms.js';

/**
 * Per-component bounds on |ŷᵢ − yᵢ| for `ellSpmv(args, options)`, where ŷ is what ellSpmv stores and y the
 * exact α·A·x + β·y of the values the operands hold. Call it BEFORE ellSpmv: it reads y's entry values.
 * Underflow in the arithmetic is counted (η per rounding); an element whose value, a read or an intermediate may
 * overflow the arithmetic, or whose stored quotient may overflow its storage (an integer storage saturates), gets +∞.
 * Reads that flush to ±0 on a GPU (an f64 value below 2^-126 in f32 or ff) are covered (2^-126 times the other factor).
 * @param args - the arguments ellSpmv will get
 * @param options - the options ellSpmv will get (`backend`, `strict` and `threads` are checked as ellSpmv checks them)
 * @returns a Float64Array of length rows (0 where y is left untouched)
 * @throws {@link ModprecError} as {@link ellSpmv}
 *   — and, before computing anything, every error ellSpmv raises for the same operands and options, in its order (`backend`,
 *   `strict`, `threads`, the backend's arithmetic and accumulation limits; then `INVALID_VALUE` for a value or
 *   coefficient an RNS arithmetic cannot hold; then what the backend or the pool cannot run), with the same code and
 *   parameter
 * @example
 * ```ts
 * import { vector, formats, ellSpmv, ellSpmvBound, ellWithStorage, ELL_PADDING, ellMatrix } from 'modprec';
 *
 * // [[2, 1], [0, 3]] in ELL, stored in fp32
 * const A = ellWithStorage(ellMatrix({ rows: 2, cols: 2, width: 2, stride: 2,
 *   colIndex: Int32Array.of(0, 1, 1, ELL_PADDING), values: Float64Array.of(2, 3, 1, 0) }), { storage: formats.f32 });
 * const x = vector([0.1, 0.2]), y = vector(2);
 * const bounds = ellSpmvBound({ alpha: 1, A, x, beta: 0, y });   // before the call: it reads y
 * ellSpmv({ alpha: 1, A, x, beta: 0, y });
 * bounds.length; // → 2
 * ```
 * @group Kernels
 */
export function ellSpmvBound(args: EllSpmvArguments, options: BoundBackendOptions = {}): Float64Array {
  const { alpha, beta, A, x, y } = checkEllSpmvArguments(args);
  const { rows, cols, width, stride, colIndex } = A.structure;
  const { arithmetic: ar, accumulation: acc } = checkBoundOptions({
    kernel: 'ellSpmv', operands: [['A.values', A.values], ['x', x], ['y', y]], cpuOperands: [['x', x, 'read'], ['y', y, 'write']],
    values: (arithmetic) => checkEllValues(arithmetic, alpha, beta, A, x, y),
    wasmRefusal: () => wasmEllRefusal(A.values.accessor, rows),
    split: () => ({ alpha, A, x, beta, y }),
  }, options);
  const out = new Float64Array(rows);
  if (rows === 0 || (alpha === 0 && beta === 1)) return out;
  const absY = vectorMagnitudes(y.accessor);
  const scaleY = vectorScales(y.accessor);
  if (alpha === 0 || cols === 0 || width === 0) {
    for (let i = 0; i < rows; i++) out[i] = beta !== 0 && scaledReadOverflows(y.accessor, ar, [i]) ? Infinity : scaleBound(ar, y.accessor, beta, absY(i), scaleY(i), scaleUnderflowErrorAt(y.accessor, ar, [i]));
    return out;
  }
  const ctx = updateBoundContext(ar, acc, A.values.accessor, x.accessor, y.accessor, alpha, beta);
  const absV = matrixMagnitudes(A.values.accessor);
  const absX = vectorMagnitudes(x.accessor);
  // A read the arithmetic cannot hold (fp64 storage read into fp32 arithmetic, a scale or stored value that
  // overflows there) is ±∞ whatever it is multiplied by, NaN against a 0.
  const { max, readEta } = arithmeticLimits(ar);
  const readLimit = max / (1 + 4 * ar.unitRoundoff);
  const readsV = readRoundings(A.values.accessor, ar) > 0 ? 1 : 0, readsX = readRoundings(x.accessor, ar) > 0 ? 1 : 0;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    let k = 0;
    let overflows = beta !== 0 && scaledReadOverflows(y.accessor, ar, [i]);
    let readUnderflow = 0;
    for (; k < width; k++) {
      const col = colIndex[i + k * stride]!;
      if (col === ELL_PADDING) break;
      const v = absV(i, k), xv = absX(col);
      if (!(v < readLimit) || !(xv < readLimit) || scaledReadOverflows(x.accessor, ar, [col]) || scaledReadOverflows(A.values.accessor, ar, [i, k])) overflows = true;
      s += v * xv;
      // A read that rounds may round into the subnormal range: η times the other factor; a scale that converts into
      // the subnormal range (or flushes) errs by up to 2η·|q| on the read (q the stored value), times the other factor.
      readUnderflow += 2 * readEta * (Math.max(readsV, flushableRead(v, readEta)) * xv + Math.max(readsX, flushableRead(xv, readEta)) * v);
      const ev = scaleUnderflowErrorAt(A.values.accessor, ar, [i, k]), ex = scaleUnderflowErrorAt(x.accessor, ar, [col]);
      if (ev > 0 || ex > 0) readUnderflow += 2 * (ev * xv + ex * v + ev * ex);
    }
    if (overflows) { out[i] = Infinity; continue; }
    out[i] = updateBound(ctx, k, inflate(s, 3 * k), beta === 0 ? 0 : absY(i), scaleY(i), inflate(readUnderflow, 3 * k), beta === 0 ? 0 : scaleUnderflowErrorAt(y.accessor, ar, [i]));
  }
  return out;
}
