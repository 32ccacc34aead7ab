/**
 * The a-priori forward error bound of TRSV, componentwise, from Higham's backward error analysis of
 * substitution (Accuracy and Stability of Numerical Algorithms, Thm 8.5): the computed x̂ satisfies
 * (T + ΔT)·x̂ = b with |ΔT| ≤ γ_n·|T|, hence
 *   |x − x̂| = |T⁻¹·ΔT·x̂| ≤ |T⁻¹|·|ΔT|·|x̂| ≤ M(T)⁻¹·|ΔT|·|x̂|,
 * where M(T) is the comparison matrix (|tᵢᵢ| on the diagonal, −|tᵢⱼ| off it); M(T)⁻¹ ≥ |T⁻¹| for a triangular T
 * (Higham Thm 8.12), and M(T)⁻¹·r is a substitution on non-negative numbers, so it can be evaluated in fp64
 * with a guaranteed upper bound (below).
 *
 * ΔT is derived row by row for this kernel (b read from x's storage, then an accumulation over the m
 * off-diagonal products and bᵢ, a division, and the write of xᵢ to storage, which later rows read back):
 * - the accumulation's bound (c + d)·Σ|terms| spreads as relative perturbations |εₖ| ≤ c + d of its terms;
 * - diagonal: the read of tᵢᵢ and the division (unless unit), the read of bᵢ, the write's relative part, and
 *   1/(1 + ε₀) of the term bᵢ: |ΔTᵢᵢ| ≤ ω_d·|tᵢᵢ|;
 * - off-diagonal: the reads of tᵢⱼ and x̂ⱼ, εⱼ, and the same division by bᵢ's factors: |ΔTᵢⱼ| ≤ ω_o·|tᵢⱼ|;
 * - the write's absolute part η (subnormals, integer storage) enters as a right-hand side |Δbᵢ| ≤ |tᵢᵢ|·η(1 + ω_d).
 * For fp64 with the recursive sum and no read roundings this is Thm 8.5's γ_n·|T| (ω_o = γ_{m+1}, ω_d = γ_2
 * plus the storage's rounding). Underflow: each product, the division and each read that rounds may round into the
 * arithmetic's subnormal range, off by η absolutely — at most 2η(m + 2) + 2η·|tᵢᵢ| + 2η·Σ(|tᵢⱼ| + |x̂ⱼ|) on row i's
 * residual. A NaN or ±∞ read by a row (or by a row it depends on) makes its bound +∞, and so does an x̂ᵢ an integer
 * storage may have saturated (stored at its largest magnitude) or a scaled x̂ᵢ whose scale converts to 0 or ±∞ in
 * the arithmetic (the write divides by it; so does a scaled read that overflows there). An integer storage also
 * stores a NaN as 0: for it a row whose bᵢ (at most the storage's largest value times xᵢ's scale), sum or quotient
 * may reach ±∞ in the arithmetic gets +∞ too (bᵢ is overwritten, so x̂ᵢ = 0 is all that is left to see).
 * @module
 */
import type { KernelOptions } from '../shared/kernel-options.js';
import { gamma } from '../shared/accumulation.js';
import { checkBoundOptions, type BoundBackendOptions } from '../shared/bound-options.js';
import { wasmTrsvCallRefusal } from './trsv-wasm.js';
import {
  compose, inflate, matrixMagnitudes, orInfinity, readRoundings, vectorMagnitudes, vectorScales, writeError,
} from '../shared/accessor-rounding.js';
import { arithmeticLimits, EVALUATION_MARGIN, flushableRead, storageLimits, scaleConversionUnderflows, scaledReadOverflows, scaleUnderflowErrorAt } from '../shared/bound-terms.js';
import { numberOfKind } from '../../src/formats/f64/f64-arithmetic.js';
import { checkTrsvArguments, type CheckedTrsv, type TrsvArguments } from './trsv-arguments.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import type { Accumulation } from '../shared/accumulation.js';
import type { Range } from '../../src/core/range.js';
import { rnsGpuBlockSize, trsvBlockSize, type TrsvGpuOptions } from './trsv-block-size.js';
import { gpuTrsvBound } from './trsv-gpu-bound.js';
import { checkTrsvValues } from './trsv-pivots.js';
import { isRnsArithmetic } from '../../src/backends/webgpu-bridge/gpu-backend.js';
import { trsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';

/**
 * Whether the GPU solves this x by the CPU's substitution, rounding each x_j to x's storage between rows
 * (kernels/trsv/trsv-webgpu.ts: `storageRoundTrip` and the scaled storages `backend: 'gpu'` rounds): then the CPU's
 * substitution bound is the GPU run's (up to the device's binary32 division, which WGSL lets err by 2.5 ulp).
 * @param x - the solve's x
 * @param arithmetic - the GPU arithmetic's name
 * @returns true where the GPU substitutes
 */
function gpuSubstitutes(x: Range<1, any>, arithmetic: string): boolean {
  const a = x.accessor;
  const st = a.storage.name;
  if (a.scale) {
    const finite = Array.prototype.every.call(a.scale.data, (v: number) => Number.isFinite(v) && v !== 0);
    return finite && (arithmetic === 'f32' || arithmetic === 'ff') && ['i8', 'i16', 'f16', 'bf16'].includes(st);
  }
  if (st === 'f16' || st === 'bf16') return true;
  // With the ddLanes switch an f64 x under dd is solved blocked, kept in the register and rounded once at the end.
  return (st === 'f32' && (arithmetic === 'ff' || arithmetic === 'dd')) || (st === 'f64' && arithmetic === 'dd' && !trsvKernelSwitches().ddLanes);
}

/**
 * Per-component bounds on |x̂ᵢ − xᵢ| after `trsv(args, options)`, where x̂ is what trsv stored and x the exact
 * solution of op(A)·x = b for the values A and b held. Call it AFTER trsv: the bound is in terms of x̂.
 * With `backend: 'gpu'` (the options trsv got) it bounds the GPU's algorithm, which multiplies by explicitly
 * inverted 64×64 diagonal blocks: the substitution bound times, roughly, the condition |D_k||D_k⁻¹| of the
 * diagonal blocks (kernels/trsv/trsv-gpu-bound.ts derives it); +∞ for rows behind a block too ill conditioned
 * for the inverse to be trusted. (Where no adapter exists trsv runs the CPU kernel: use the CPU bound then,
 * as the run report's `backend` says.)
 * @param args - the arguments trsv got (x now holding x̂)
 * @param options - the options trsv got (arithmetic and accumulation matter; `backend: 'gpu'` for a GPU run)
 * @returns a Float64Array of length n
 * @throws {@link ModprecError} as {@link trsv}, in its order (for `backend: 'gpu'`, the errors of the GPU call)
 * @example
 * ```ts
 * import { vector, matrix, formats, trsv, trsvBound } from 'modprec';
 *
 * const U = matrix(2, 2, (i, j) => (j >= i ? 1 / (i + j + 1) : 0), { storage: formats.f32, arithmetic: formats.f32 });
 * const x = vector([1, 1], { storage: formats.f32 });
 * trsv({ A: U, x, uplo: 'U', trans: 'N', diag: 'N' });
 * const bound = trsvBound({ A: U, x, uplo: 'U', trans: 'N', diag: 'N' });   // after the call: it reads x̂
 * // |x[i] − exact[i]| ≤ bound[i]
 * bound.length; // → 2
 * ```
 * @group Kernels
 */
export function trsvBound(args: TrsvArguments, options: (KernelOptions & { backend?: 'cpu' | 'wasm' | 'js' }) | TrsvGpuOptions = {}): Float64Array {
  const checked = checkTrsvArguments(args);
  const { A, x, T, unit, n } = checked;
  // The options as trsv checks them: backend, strict, threads (refused: a substitution does not split), the block size.
  const { arithmetic: ar, accumulation: acc, gpu } = checkBoundOptions({
    kernel: 'trsv', operands: [['A', A], ['x', x]], cpuOperands: [['A', A, 'read'], ['x', x, 'write']],
    beforeGpu: () => trsvBlockSize(options, 'gpu'),
    // RNS on the GPU solves by substitution (no blockSize: it refuses one).
    afterGpu: (call) => { trsvBlockSize(options, 'gpu', call.gpuArithmetic === 'dd', n); },
    beforeCpu: () => trsvBlockSize(options, 'cpu'),
    values: (arithmetic) => {
      // An RNS block size before the values, as trsv orders them on the GPU (the CPU refused any block size before).
      if (isRnsArithmetic(arithmetic)) rnsGpuBlockSize(options);
      checkTrsvValues(arithmetic, A, x, (args.uplo ?? 'U') === 'U', unit);
    },
    wasmRefusal: (arithmetic, accumulation) => wasmTrsvCallRefusal(T, arithmetic, accumulation),
  }, options as BoundBackendOptions);
  // RNS on the GPU solves by substitution, as the CPU (two roundings a row, within its bound): the CPU's bound, in the
  // GPU call's arithmetic. So does an x the GPU rounds to its storage between rows (gpuSubstitutes); its blockSize,
  // valid, goes unused, as in trsv itself.
  // The block-inverse solve redoes by substitution where its result is not finite (an inverse entry that overflows):
  // its bound takes the substitution's too unless that cannot have happened (gpuTrsvBound's overflow check).
  if (gpu && !gpu.rns && !gpuSubstitutes(x, gpu.arithmetic.name)) {
    return gpuTrsvBound(checked, gpu.arithmetic, trsvBlockSize(options, 'gpu', gpu.gpuArithmetic === 'dd', n)!, () => substitutionBound(checked, ar, acc));
  }
  return substitutionBound(checked, ar, acc);
}

/**
 * The substitution's bound (the CPU's algorithm, and the GPU's where it substitutes): per-component bounds on
 * |x̂ᵢ − xᵢ| for x̂ as x holds it (see {@link trsvBound}).
 * @param checked - the validated arguments
 * @param ar - the arithmetic the solve ran
 * @param acc - its accumulation
 * @returns a Float64Array of length n
 */
function substitutionBound(checked: CheckedTrsv, ar: ArithmeticFormat, acc: Accumulation): Float64Array {
  const { x, T, lower, unit, n } = checked;
  const u = ar.unitRoundoff;
  const readsT = readRoundings(T, ar);
  const readsX = readRoundings(x.accessor, ar);
  const write = writeError(x.accessor, ar);
  const absT = matrixMagnitudes(T);
  const absX = vectorMagnitudes(x.accessor);
  const scaleX = vectorScales(x.accessor);
  const xs = Float64Array.from({ length: n }, (_, i) => absX(i));
  const diagonal = (i: number): number => (unit ? 1 : absT(i, i));
  const offDiagonal = (i: number): [number, number] => (lower ? [0, i] : [i + 1, n]);
  // off = Σ|tᵢⱼ||x̂ⱼ| hides a non-finite tᵢⱼ when x̂ⱼ = 0 (∞·0 is NaN, caught; but NaN·0 too): check the reads.
  const rowIsFinite = (i: number, from: number, to: number): boolean => {
    for (let j = from; j < to; j++) if (!Number.isFinite(absT(i, j)) || !Number.isFinite(xs[j]!)) return false;
    return true;
  };

  const { opEta: eta, readEta } = arithmeticLimits(ar);
  // b, gone after the call, may have been a binary32 subnormal that a read flushes (f32/bf16 storage in f32 or ff).
  const bMayFlush = !x.accessor.storage.isInteger && storageLimits(x.accessor.storage).eta < readEta;
  const xa = x.accessor;
  // A scaled read is fl(q)·fl(s): where the stored q may convert into the arithmetic's subnormal range (fp64 storage
  // read into fp32 or ff) or be flushed, its error ε ≤ η is multiplied by |s| — 2^-150·2^120 for fp64 2^-150 under a
  // scale of 2^120 in fp32, all of bᵢ = 0.001 under a scale of 1e38 in ff (which flushed q = 1e-41 to 0).
  const qMayUnderflow = !!xa.scale && !xa.storage.isInteger && (bMayFlush || storageLimits(xa.storage).eta < arithmeticLimits(ar).eta);
  const scaledRead = (j: number): number => (qMayUnderflow ? scaleX(j) : 0);
  // x̂ᵢ as stored may be wrong beyond any bound: an integer storage saturated (its largest magnitude), a scaled
  // floating-point storage whose scale converts to 0 or ±∞ in the arithmetic (divided by it), a scaled read that overflows.
  const unreliable = (i: number): boolean => {
    if (scaledReadOverflows(xa, ar, [i])) return true;
    if (!xa.scale) return false;
    const s = xa.scale.data[xa.scaleIndex([i])]!;
    const converted = Math.abs(ar.toNumber(ar.fromNumber(s)));
    // (Also an integer storage: a scale that converts below the normal range loses up to all its digits — float-float
    // flushes one below 2^-126 — and bᵢ's stored value, which that error multiplies, is gone after the solve.)
    if (s !== 0 && (converted === 0 || !Number.isFinite(converted) || scaleConversionUnderflows(ar, s))) return true;
    return xa.storage.isInteger && Math.abs(numberOfKind(xa.storage.kind, xa.storage.decode(xa.data as never, xa.linearIndex([i])))) >= xa.storage.maxValue;
  };
  // An integer x stores a NaN as 0 and ±∞ saturated: a row whose bᵢ (gone after the solve: at most the storage's
  // largest value times its scale), sums or quotient may reach ±∞ in the arithmetic (bᵢ read as ∞ under a scale of
  // 1e300; a compensated sum turns ∞ into NaN) may have stored 0, which no finite bound in terms of x̂ covers.
  const arithmeticMax = arithmeticLimits(ar).max;
  const mayStoreNaN = (i: number, from: number, to: number, e: number): boolean => {
    if (!xa.storage.isInteger) return false;
    let reach = xa.storage.maxValue * scaleX(i);
    for (let j = from; j < to; j++) reach += absT(i, j) * xs[j]!;
    reach *= (1 + 2 * (e + gamma(readsT + 2 * readsX + 4, u))) * EVALUATION_MARGIN;
    if (!unit) reach = Math.max(reach, reach / absT(i, i));
    return !(reach < arithmeticMax);
  };
  // A read the arithmetic cannot hold (fp64 or dd storage beyond binary32 read into fp32 arithmetic) is ±∞: a pivot of
  // 3.5e38 read as ∞ solves xᵢ = 0.
  const readLimit = arithmeticLimits(ar).max / (1 + 4 * u);
  const rowOverflows = (i: number, from: number, to: number): boolean => {
    if (!(xs[i]! < readLimit) || (!unit && !(absT(i, i) < readLimit))) return true;
    for (let j = from; j < to; j++) if (!(absT(i, j) < readLimit) || !(xs[j]! < readLimit)) return true;
    if (!T.scale) return false;
    for (let j = from; j < to; j++) if (scaledReadOverflows(T, ar, [i, j])) return true;
    return !unit && scaledReadOverflows(T, ar, [i, i]);
  };

  // Each row is evaluated scaled by a power of two σᵢ that brings its largest |tᵢⱼ| near 1 (r and the substitution are
  // homogeneous in a row of T, and the scaling is exact): a row of subnormal entries would otherwise lose the bound's
  // terms to underflow in fp64 (ω·|tᵢᵢ|·|x̂ᵢ| became 0 for tᵢᵢ ≈ 1e-318 and x̂ᵢ ≈ 1e12). Absolute terms, in b's units,
  // are multiplied by σᵢ.
  const rowScale = new Float64Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    const [from, to] = offDiagonal(i);
    let largest = diagonal(i);
    for (let j = from; j < to; j++) largest = Math.max(largest, absT(i, j));
    if (largest > 0 && Number.isFinite(largest)) rowScale[i] = 2 ** Math.min(1000, Math.max(-1000, -Math.floor(Math.log2(largest))));
  }
  const tS = (i: number, j: number): number => absT(i, j) * rowScale[i]!;

  // r = |ΔT|·|x̂| + |Δb|, row by row (row i scaled by σᵢ).
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [from, to] = offDiagonal(i);
    const { ofAbsSum, ofResult } = acc.bound(to - from + 1, u);
    const e = ofAbsSum + ofResult;
    const eInverse = e < 1 ? e / (1 - e) : Infinity;
    const omegaDiagonal = compose(gamma((unit ? 0 : readsT + 1) + readsX, u), write.relative, eInverse);
    const omegaOff = compose(gamma(readsT + 2 * readsX, u), e, eInverse);
    const sigma = rowScale[i]!;
    let off = 0;
    for (let j = from; j < to; j++) off += rowTerm(absT(i, j), xs[j]!, sigma);
    off += (to - from) * Number.MIN_VALUE;
    const tii = diagonal(i) * sigma;
    // A NaN or ±∞ read by row i (T's row, x̂ⱼ, x̂ᵢ) leaves nothing finite to promise: +∞, which z carries on.
    if (!Number.isFinite(off) || !Number.isFinite(tii) || !Number.isFinite(xs[i]!) || !rowIsFinite(i, from, to) ||
      unreliable(i) || rowOverflows(i, from, to) || mayStoreNaN(i, from, to, e)) { r[i] = Infinity; continue; }
    // Underflow in the arithmetic: the products, bᵢ's addition and the sums (η each), the division (η times tᵢᵢ in
    // b's terms), and reads that round into the subnormal range (η times the other factor).
    // (A binary32 subnormal read without rounding may be flushed too: flushableRead.)
    let readsOfX = 0, readsOfT = 0;
    for (let j = from; j < to; j++) {
      readsOfX += readsT > 0 || flushableRead(absT(i, j), readEta) ? xs[j]! : 0;
      readsOfT += (readsX > 0 || flushableRead(xs[j]!, readEta) ? tS(i, j) : 0) + rowTerm(absT(i, j), scaledRead(j), sigma);
    }
    // (tᵢᵢ's own read, when it rounds, errs by η times |x̂ᵢ|.)
    const diagonalRead = (readsT > 0 || flushableRead(absT(i, i), readEta)) && !unit ? xs[i]! : 0;
    // A scale of T below the arithmetic's normal range errs absolutely on its read (scaleUnderflowErrorAt: up to 2η|q|,
    // a flushed one |q·s|), times |x̂ⱼ|.
    let scaleReads = 0;
    if (T.scale) {
      for (let j = from; j < to; j++) scaleReads += scaleUnderflowErrorAt(T, ar, [i, j]) * xs[j]!;
      if (!unit) scaleReads += scaleUnderflowErrorAt(T, ar, [i, i]) * xs[i]!;
    }
    const underflow = 2 * eta * (sigma * ((to - from) + 2) + tii) + 2 * readEta * (sigma * (readsOfX + diagonalRead) + readsOfT + (readsX > 0 || bMayFlush ? sigma : 0) + sigma * scaledRead(i)) + 2 * sigma * scaleReads;
    // The write's absolute part per unit of scale times the scale first (η·|tᵢᵢ| alone may underflow to 0 in fp64 before
    // a scale of 1e300 lifts it), and two smallest doubles (σᵢ-scaled) for the subnormal rounding of these products.
    const absolute = write.absolutePerScale > 0 ? (write.absolutePerScale * scaleX(i)) * tii * (1 + omegaDiagonal) + 2 * Number.MIN_VALUE * sigma : 0;
    // ω·|tᵢᵢ|·|x̂ᵢ| with the product first: ω·|tᵢᵢ| underflows for a subnormal pivot in a row whose largest entry is
    // ordinary (ω = 2^-53, tᵢᵢ = 4.3e-309, x̂ᵢ = −1.2e308: the write's rounding was lost, a bound of u/2 relative).
    const tx = tii * xs[i]!;
    const diagonalTerm = Number.isFinite(tx) ? omegaDiagonal * tx : omegaDiagonal * tii * xs[i]!;
    r[i] = inflate(diagonalTerm + omegaOff * off + absolute + underflow, 2 * (to - from) + 12);
  }

  // z = M(T)⁻¹·r by substitution: every quantity is non-negative, so each computed zᵢ is at least
  // (1 − γ) times its formula evaluated on the earlier computed z's; inflating each step makes it an upper
  // bound, and since the formula increases with the earlier z's, by induction every zᵢ bounds the exact one.
  const z = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = lower ? k : n - 1 - k;
    const [from, to] = offDiagonal(i);
    let s = r[i]! + (to - from) * Number.MIN_VALUE;
    for (let j = from; j < to; j++) s += rowTerm(absT(i, j), z[j]!, rowScale[i]!);
    z[i] = orInfinity(inflate(s / (diagonal(i) * rowScale[i]!), 2 * (to - from) + 4));
  }
  return z;
}

/**
 * |tᵢⱼ|·v scaled by row i's σ, never lost to underflow: (|tᵢⱼ|·σ)·v drops a tiny |tᵢⱼ| scaled below the smallest
 * double however large v is (1.2e-264 in a row whose pivot is 1e300 times an earlier bound of 5e299: the bound of
 * 0.59e-264 became 0), so the product is also formed as (|tᵢⱼ|·v)·σ, which cannot overflow where the first underflows,
 * and the larger taken. (Each leaves at most one subnormal rounding, which the callers add as the smallest double.)
 */
function rowTerm(t: number, v: number, sigma: number): number {
  const scaledFirst = t * sigma * v;
  const productFirst = t * v * sigma;
  return Number.isFinite(productFirst) ? Math.max(scaledFirst, productFirst) : scaledFirst;
}
