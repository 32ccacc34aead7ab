/**
 * GPU storage formats: lookups over the format registry. Every format's device words and read/write templates are
 * its GPU part — `StorageFormat.gpu` for a storage (the built-in f64, f32, f16, bf16, i8, i16 in src/formats/<name>/,
 * a user's format the same way), the arithmetic's word layout `ArithmeticFormat.gpu.words` for `ff`, which the CPU
 * has only as an arithmetic. Everything on the device lives in 32-bit words (gpu.js binds every array as
 * `array<f32>`; kernels reinterpret the words with `mpBits`). This module adds the helper functions the built-in
 * templates call, and keeps the resident API's names (`gpuFormat`, {@link GPU_FORMATS}).
 *
 * @module
 */
import { fail } from '../../core/errors.js';
import { findFormat, formatNames } from '../../formats/common/registry.js';
import '../../formats/index.js';
import '../../formats/gpu-parts.js';
import '../../formats/dd/register.js';
import type { GpuEncodedArray, GpuHelperFunction, GpuStoragePart, GpuVectorRead } from '../../formats/common/gpu-part.js';

/**
 * Names of the built-in GPU storage formats (the core's format names; `ff` is the float-float arithmetic's words).
 * @group GPU
 */
export type GpuFormatName = 'f32' | 'f16' | 'bf16' | 'f64' | 'ff' | 'i8' | 'i16' | 'dd' | 'dd-split';

/** Words and scales of an encoded array. */
export type EncodedArray = GpuEncodedArray;

/**
 * A GPU storage format: a format's GPU part (src/formats/common/gpu-part.ts has the contract).
 * @group GPU
 */
export type GpuStorageFormat = GpuStoragePart;

/** How a format reads four adjacent elements with vector loads. */
export type VectorRead = GpuVectorRead;

/** Helper functions the read and write templates call. */
export const FORMAT_HELPERS: readonly GpuHelperFunction[] = [
  {
    // IEEE double (high word, low word) → float-float as the CPU's formats.ff reads a double: hi = the double
    // rounded to nearest binary32 (ties to even; so an f32 arithmetic reading hi is correctly rounded, as
    // Math.fround on the CPU), lo = the rest (|lo| ≤ ulp(hi)/2, rounded to binary32 by the int→float conversion).
    // Beyond binary32's range: ±∞ above it (after rounding), ±0 below 2^-126 (binary32 subnormals, which WGSL
    // lets a GPU flush, are not produced).
    source: `function mpF64(hw, lw) {
  const e = (hw >> 20) & 2047;
  const s = hw & -2147483648;
  if (e === 2047) {
    if (((hw & 1048575) | lw) !== 0) { return [mpFloat(s | 2143289344), 0.0]; }
    return [mpFloat(s | 2139095040), 0.0];
  }
  if (e < 897) { return [mpFloat(s), 0.0]; }
  if (e > 1150) { return [mpFloat(s | 2139095040), 0.0]; }
  let t = 8388608 | ((hw & 1048575) << 3) | (lw >>> 29);
  const r = lw & 536870911;
  let rest = r;
  if (r > 268435456) { t = t + 1; rest = r - 536870912; }
  if (r === 268435456) { if ((t & 1) === 1) { t = t + 1; rest = r - 536870912; } }
  const scale = mpFloat((e - 896) << 23);
  const hi = (t * 1.1920928955078125e-7) * scale;
  const lo = (rest * 2.220446049250313e-16) * scale;
  if (s !== 0) { return [-hi, -lo]; }
  return [hi, lo];
}`,
    argumentTypes: { hw: 'Integer', lw: 'Integer' },
    returnType: 'Array(2)',
  },
  {
    // Bits of hi + lo rounded to odd in binary32: a later rounding to ≤ 11 bits is then correct.
    source: `function mpRoundOdd(hi, lo) {
  if (lo === 0.0) { return mpBits(hi); }
  const v = mpKeep(hi + lo); const r = mpKeep(mpKeep(hi - v) + lo);
  const b = mpBits(v);
  if (r > 0.0) { if (v < 0.0) { return (b - 1) | 1; } return b | 1; }
  if (r < 0.0) { if (v > 0.0) { return (b - 1) | 1; } return b | 1; }
  return b;
}`,
    argumentTypes: { hi: 'Number', lo: 'Number' },
    returnType: 'Integer',
  },
  {
    source: `function mpBf16(b) {
  if ((b & 2147483647) > 2139095040) { return ((b >> 16) & 65535) | 64; }
  return ((b + 32767 + ((b >> 16) & 1)) >> 16) & 65535;
}`,
    argumentTypes: { b: 'Integer' },
    returnType: 'Integer',
  },
  {
    source: `function mpF16(b) {
  const s = (b >> 16) & 32768;
  const a = b & 2147483647;
  if (a > 2139095040) { return s | 32256; }
  if (a >= 1199566848) { return s | 31744; }
  if (a >= 947912704) {
    const h = (((a >> 23) - 112) << 10) | ((a >> 13) & 1023);
    const rem = a & 8191;
    if (rem > 4096) { return s | (h + 1); }
    if (rem === 4096) { return s | (h + (h & 1)); }
    return s | h;
  }
  if (a <= 855638016) { return s; }
  const m = (a & 8388607) | 8388608;
  const sh = 126 - (a >> 23);
  const hs = m >> sh;
  const rs = m & ((1 << sh) - 1);
  const half = 1 << (sh - 1);
  if (rs > half) { return s | (hs + 1); }
  if (rs === half) { return s | (hs + (hs & 1)); }
  return s | hs;
}`,
    argumentTypes: { b: 'Integer' },
    returnType: 'Integer',
  },
];

/**
 * The GPU words of the registered format `name`: its storage's GPU part, else its arithmetic's word layout (`ff`).
 * @param name - a registered format's name
 * @returns the part, or `undefined` when the format has none
 */
function registeredGpuPart(name: string): GpuStorageFormat | undefined {
  const f = findFormat(name);
  return f?.storage?.gpu ?? f?.arithmetic?.gpu?.words;
}

/** A built-in format's GPU part (present by construction: src/formats carries them). */
function builtIn(name: GpuFormatName): GpuStorageFormat {
  const part = registeredGpuPart(name);
  if (!part) throw new Error(`internal: the built-in format ${name} has no GPU part`);
  return part;
}

/**
 * The built-in GPU storage formats by name (the registry's parts, looked up once).
 * @group GPU
 */
export const GPU_FORMATS: Readonly<Record<GpuFormatName, GpuStorageFormat>> = Object.freeze({
  f32: builtIn('f32'),
  f16: builtIn('f16'),
  bf16: builtIn('bf16'),
  f64: builtIn('f64'),
  ff: builtIn('ff'),
  i8: builtIn('i8'),
  i16: builtIn('i16'),
  dd: builtIn('dd'),
  'dd-split': builtIn('dd-split'),
});

/**
 * The GPU storage format named `name`: the GPU part of the registered format of that name (built-in or a user's).
 * @param name - a registered format with a GPU part ({@link GpuFormatName} for the built-in ones)
 * @param parameter - the parameter name for the error
 * @returns the format
 * @throws {@link modprec!ModprecError} `INVALID_FORMAT` for other names
 * @example
 * ```ts
 * import { gpuFormat } from 'modprec/gpu';
 *
 * gpuFormat('bf16').elementsPerWord; // → 2
 * gpuFormat('ff').significandBits; // → 48
 * ```
 * @group GPU
 */
export function gpuFormat(name: string, parameter = 'format'): GpuStorageFormat {
  const f = typeof name === 'string' ? registeredGpuPart(name) : undefined;
  if (!f) fail('INVALID_FORMAT', parameter, `must be a GPU storage format (a registered format with a GPU part: ${formatNames().filter((n) => registeredGpuPart(n)).join(', ')})`, name);
  return f;
}
