/**
 * NRM2: the Euclidean norm, safe from overflow and underflow.
 * @module
 */
import { chooseCpuBackend, orderedNumerics, wasmNumericsOf, type CpuBackendOption } from '../shared/cpu-backend.js';
import { runWasm } from '../shared/run-wasm.js';
import { readTwin } from '../shared/scale-twin.js';
import { wasmSumOfScaledSquares } from './nrm2-wasm.js';
import { wasmDdSumOfScaledSquares } from './nrm2-dd-wasm.js';
import { ddSqrt } from '../../src/formats/dd/sqrt.js';
import { wasmOrderedSquares } from '../shared/ordered-sum-wasm.js';
import type { Range } from '../../src/core/range.js';
import { checkRange, chooseArithmetic, checkReadableIn, type KernelOptions, chooseKernelBackend } from '../shared/kernel-options.js';
import { resolveAccumulationIn } from '../shared/accumulation.js';
import { vectorKernel, operandArgs } from '../../src/backends/cpu/vector-kernel.js';
import { loadVectorElement } from '../../src/backends/cpu/reduction-kernel.js';
import { chooseBackend, prepareGpuCall, nrm2OnGpu, type GpuBackendOptions } from '../../src/backends/webgpu-bridge/gpu-dispatch.js';
import type { GpuNrm2Result } from './nrm2-webgpu.js';
import { threadsOf } from '../shared/threads-option.js';

/**
 * A power of two s with max·s in [1, 2): multiplying by s is exact (no rounding) for every element that
 * stays normal, so scaling adds no error, and the squares can neither overflow nor underflow harmfully.
 */
function scaleFor(max: number): number {
  let e = Math.floor(Math.log2(max));
  // log2 can be off by one near powers of two; correct it so max·2^-e lands in [1, 2).
  if (max * 2 ** -e >= 2) e++;
  if (max * 2 ** -e < 1) e--;
  // 2^-e may not be representable for extreme e: split into two factors applied in sequence.
  return e;
}

/**
 * ‖x‖₂ = √(Σ xᵢ²), computed as 2^e·√(Σ (xᵢ·2^−e)²) with 2^e the power of two just below max|xᵢ|
 * (two passes: the maximum, then the scaled sum of squares in the chosen arithmetic and accumulation).
 * No overflow or underflow for any finite input whose norm is representable; NaN anywhere gives NaN;
 * ±Inf (and no NaN) gives +Inf.
 * @returns the norm rounded to a double (0 for an empty vector)
 * @example
 * ```ts
 * import { vector, nrm2 } from 'modprec';
 *
 * nrm2(vector([3, 4])); // → 5
 * nrm2(vector([3e300, 4e300])); // → 5e+300
 * ```
 * @group Kernels
 */
export function nrm2(x: Range<1, any>, options?: KernelOptions & { backend?: CpuBackendOption }): number;
/**
 * NRM2 on the GPU (WebGPU through gpu.js; the CPU backend with a notice where no adapter exists, unless `strict`),
 * with the same scaling, NaN and ∞ rules.
 * @returns a promise of the value and the run report (backend, adapter, fallback reason, arithmetic)
 */
export function nrm2(x: Range<1, any>, options: GpuBackendOptions): Promise<GpuNrm2Result>;
export function nrm2(x: Range<1, any>, options: (KernelOptions & { backend?: CpuBackendOption }) | GpuBackendOptions = {}): number | Promise<GpuNrm2Result> {
  checkRange('x', x, 1);
  if (chooseKernelBackend('nrm2', options) === 'gpu') {
    const call = prepareGpuCall('nrm2', [['x', x]], options as GpuBackendOptions, undefined, (ar) => checkReadableIn(ar, [['x', x]]));
    return nrm2OnGpu(x, call, () => nrm2(x, { arithmetic: call.arithmetic }));
  }
  options = options as KernelOptions;
  const n = x.length();
  const ar = chooseArithmetic(options.arithmetic, [x]);
  // Options, then values (then what a backend cannot run): the order of every backend.
  const acc = resolveAccumulationIn(options.accumulation, ar);
  checkReadableIn(ar, [['x', x]]);
  // WebAssembly runs the second pass (the sum of scaled squares); the maximum is a scan in JavaScript.
  const requested = chooseBackend(options);
  const cpu = chooseCpuBackend(requested, { kernel: 'nrm2', operands: [['x', x, 'read']], arithmetic: ar, accumulation: acc });
  threadsOf(options, 'nrm2', false);
  if (n === 0) return 0;
  const xv = ar.register('xv');
  const res = ar.register('res');
  const sc = ar.register('sc');
  // Pass 1: max |x_i| as a double (NaN-propagating).
  const maxKernel = vectorKernel({
    kernel: 'nrm2max', operands: [['x', x.accessor]], scalars: [], registers: ['xv'], ar,
    prologue: () => 'let m = 0;',
    body: (o) => `${loadVectorElement(o.x!, ar, xv)} { const v = Math.abs(${ar.emitToNumber(xv)}); if (v > m) m = v; else if (v !== v) return NaN; }`,
    epilogue: () => 'return m;',
  });
  const max = maxKernel(n, ...operandArgs(x)) as number;
  if (max === 0 || !Number.isFinite(max)) return max;
  const e = scaleFor(max);
  // Pass 2: Σ (x_i · 2^-e)² with 2^-e applied as two exact factors (each representable).
  const h1 = Math.trunc(-e / 2);
  const h2 = -e - h1;
  let squares = 0;
  const numerics = cpu === 'wasm' ? wasmNumericsOf(ar, acc) : undefined;
  const ordered = orderedNumerics(numerics);
  // A scale per element: the values as the arithmetic reads them, in an unscaled twin (kernels/shared/scale-twin.ts).
  const xa = numerics === undefined ? x.accessor : readTwin(x.accessor, n, numerics, ar.kind === 'dd');
  const lanes = numerics === 'f32' || numerics === 'kahan-f32' || ordered?.arithmetic === 'f32' ? 'f32' : 'f64', kahan = numerics === 'kahan-f64' || numerics === 'kahan-f32';
  // A non-finite compensated or ordered sum (TwoSum's error NaN; Dot2's rescaled TwoProd) is recomputed by the
  // JavaScript kernel: its special values. pairwise and dot2 give the JavaScript loop's bits (ordered-sum-wasm.ts).
  const run = (): void => {
    squares = ordered ? wasmOrderedSquares(xa, n, 2 ** h1, 2 ** h2, ordered.accumulation, ordered.arithmetic) : wasmSumOfScaledSquares(xa, n, 2 ** h1, 2 ** h2, lanes, kahan);
  };
  if (cpu === 'wasm' && numerics === 'dd') {
    // Eight double-double lanes (kernels/nrm2/nrm2-dd-wasm.ts), then the root as the JavaScript kernel takes it: in
    // double-double (ddSqrt, then hi − (0 − lo)) or, fp64 with the dd accumulation, Math.sqrt of hi + lo. Within
    // nrm2Bound; a non-finite sum (±Inf, NaN) is the JavaScript's to answer.
    let pair: [number, number] = [NaN, NaN];
    if (runWasm(requested, () => { pair = wasmDdSumOfScaledSquares(xa, n, 2 ** h1, 2 ** h2, ar.kind === 'dd'); }) && Number.isFinite(pair[0] + pair[1])) {
      let root: number;
      if (ar.kind === 'dd') { const r = new Float64Array(2); ddSqrt(r, pair[0], pair[1]); root = r[0]! - (0 - r[1]!); } else root = Math.sqrt(pair[0] + pair[1]);
      return root * 2 ** (e - Math.trunc(e / 2)) * 2 ** Math.trunc(e / 2);
    }
  } else if (cpu === 'wasm' && runWasm(requested, run) && ((!kahan && !ordered) || Number.isFinite(squares))) {
    // The square root in the arithmetic, as the JavaScript kernel's (binary32: Math.fround of the double root).
    const root = lanes === 'f32' ? Math.fround(Math.sqrt(squares)) : Math.sqrt(squares);
    return root * 2 ** (e - Math.trunc(e / 2)) * 2 ** Math.trunc(e / 2);
  }
  const f = vectorKernel({
    kernel: 'nrm2', operands: [['x', x.accessor]], scalars: ['s1', 's2'], registers: ['xv', 'res', 'sc', 'sc2'], ar, acc,
    prologue: () => `${ar.emitFromNumber(sc, 's1')} ${ar.emitFromNumber(ar.register('sc2'), 's2')}`,
    body: (o) => `${loadVectorElement(o.x!, ar, xv)} ${ar.emitMul(xv, xv, sc)} ${ar.emitMul(xv, xv, ar.register('sc2'))} ${acc.emitAddProduct('s', xv, xv, ar)}`,
    epilogue: () => `${acc.emitResult(res, 's', ar)} ${ar.emitSqrt(res, res)} return ${ar.emitToNumber(res)};`,
  });
  const root = f(n, ...operandArgs(x), 2 ** h1, 2 ** h2) as number;
  // Undo the scaling in two exact steps so an intermediate cannot overflow or underflow.
  return root * 2 ** (e - Math.trunc(e / 2)) * 2 ** Math.trunc(e / 2);
}
