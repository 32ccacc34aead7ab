/**
 * Shared helpers of the GPU tests: the runtime (a test FAILS when no WebGPU adapter comes up — CI runs
 * them on Mesa's llvmpipe through Dawn's OpenGL backend), reproducible data, an accurate reference sum
 * and the error bounds the kernels are checked against.
 */
import { gpuUnavailableReason } from '../../src/backends/webgpu/backend.js';
import { gpuRuntime, type GpuRuntime } from '../../src/backends/webgpu/runtime.js';

/** The GPU runtime; throws (fails the test) when there is no adapter. */
export async function requireRuntime(): Promise<GpuRuntime> {
  const rt = await gpuRuntime();
  if (!rt) throw new Error(`GPU tests need a WebGPU adapter (CI: llvmpipe via EGL_PLATFORM=surfaceless): ${gpuUnavailableReason()}`);
  return rt;
}

/** Reproducible uniform values in [-1, 1) (xorshift32). */
export function randomValues(n: number, seed: number, scale = 1): Float64Array {
  let s = seed >>> 0 || 1;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[k] = ((s >>> 0) / 2 ** 31 - 1) * scale;
  }
  return out;
}

/**
 * Σ terms with Neumaier's compensation: error ≤ 2^-53·|Σ| + O(n·2^-106)·Σ|t|, far below every GPU
 * bound checked here (the smallest is ~n·2^-47·Σ|t|).
 */
export function accurateSum(terms: ArrayLike<number>): number {
  let s = 0;
  let c = 0;
  for (let k = 0; k < terms.length; k++) {
    const t = terms[k]!;
    const u = s + t;
    c += Math.abs(s) >= Math.abs(t) ? s - u + t : t - u + s;
    s = u;
  }
  return s + c;
}

/** Higham's γ_n = n·u/(1 − n·u). */
export function gamma(n: number, u: number): number {
  return (n * u) / (1 - n * u);
}

/**
 * Relative error per operation of the GPU arithmetic: 2^-24 for f32; for float-float (Joldes, Muller,
 * Popescu 2017) accurate addition ≤ 3·2^-48, word × pair ≤ 2·2^-48, pair × pair ≤ 5·2^-48 — 8·2^-48 covers
 * a multiply-add step.
 */
export function opError(arithmetic: 'f32' | 'ff'): number {
  return arithmetic === 'f32' ? 2 ** -24 : 8 * 2 ** -48;
}

/**
 * Relative error of reading one stored element into the arithmetic, beyond the stored value itself:
 * f64 words decode to float-float by truncation (< 2^-47); an integer times its scale is rounded once in
 * f32 arithmetic (exact as a float-float product).
 */
export function readError(format: string, arithmetic: 'f32' | 'ff'): number {
  if (format === 'f64') return arithmetic === 'ff' ? 2 ** -47 : 2 ** -24;
  if (format === 'ff') return arithmetic === 'ff' ? 0 : 2 ** -24;
  if ((format === 'i8' || format === 'i16') && arithmetic === 'f32') return 2 ** -24;
  return 0;
}

/** Unit roundoff of writing a result in `format` (float-float pairs hold float-float results exactly). */
export function writeError(format: string, arithmetic: 'f32' | 'ff'): number {
  if (format === 'ff') return 0;
  if (format === 'f32') return arithmetic === 'ff' ? 2 ** -24 : 0;
  if (format === 'bf16') return 2 ** -8;
  if (format === 'f16') return 2 ** -11;
  return 0;
}

/** Where values are not finite, and how: 'N' NaN, '+'/'-' ±∞, '.' finite — equal strings, the same IEEE outcome. */
export function nonFinitePattern(values: ArrayLike<number>): string {
  return Array.from(values, (v) => (Number.isNaN(v) ? 'N' : v === Infinity ? '+' : v === -Infinity ? '-' : '.')).join('');
}

/**
 * `v` with a binary32 subnormal magnitude (below 2^-126) replaced by the zero of its sign: the input a device that
 * flushes binary32 subnormals computes on (WGSL allows it; the NVIDIA driver does, llvmpipe does not).
 */
export function flushedBinary32(v: number): number {
  return v !== 0 && Math.abs(v) < 2 ** -126 ? (v < 0 ? -0 : 0) : v;
}

let flushes: Promise<boolean> | undefined;
/**
 * Whether this GPU flushes binary32 subnormals in f32 arithmetic (ASUM of [2^-149] is 0 there): WGSL allows it, the
 * NVIDIA driver does, llvmpipe does not. Cases no CPU run can model on such a device (a subnormal coefficient is 0 in
 * the device's arithmetic but not in the CPU's α = 0 shortcut) are left out only where it does.
 */
export function gpuFlushesSubnormals(): Promise<boolean> {
  flushes ??= (async () => {
    const { asum, formats, vector } = await import('../../src/index.js');
    const r = await asum(vector([2 ** -149], { storage: formats.f32, arithmetic: formats.f32 }), { backend: 'gpu', arithmetic: formats.f32, strict: true });
    return r.value === 0;
  })();
  return flushes;
}
