/**
 * The built-in formats, by name. `formats.f32` etc. can be passed as `storage` or `arithmetic` of an accessor.
 * @module
 */
import { registerBuiltinFormat, f64, f32, type Format } from './common/registry.js';
import { f16Storage } from './f16/f16.js';
import { bf16Storage } from './bf16/bf16.js';
import { i8Storage, i16Storage, i32Storage } from './scaled-integer/scaled-integer.js';
import { ffArithmetic } from './ff/ff.js';

/**
 * fp16 (IEEE binary16): storage only on the CPU (compute in fp32 or fp64).
 * @group Formats
 */
export const f16 = registerBuiltinFormat({ name: 'f16', storage: f16Storage });
/**
 * bfloat16: storage only on the CPU.
 * @group Formats
 */
export const bf16 = registerBuiltinFormat({ name: 'bf16', storage: bf16Storage });
/**
 * int8, for scaled storage.
 * @group Formats
 */
export const i8 = registerBuiltinFormat({ name: 'i8', storage: i8Storage });
/**
 * int16, for scaled storage.
 * @group Formats
 */
export const i16 = registerBuiltinFormat({ name: 'i16', storage: i16Storage });
/**
 * int32, for scaled storage.
 * @group Formats
 */
export const i32 = registerBuiltinFormat({ name: 'i32', storage: i32Storage });

/**
 * float-float (two binary32 words, about 48 bits): arithmetic only. The GPU backend's precise arithmetic; on the
 * CPU the same algorithms emulated exactly, so `arithmetic: formats.ff` means the same on both backends.
 * @group Formats
 */
export const ff = registerBuiltinFormat({ name: 'ff', arithmetic: ffArithmetic });

/** The built-in formats by name. */
export const formats: {
  readonly f64: Format<number>; readonly f32: Format<number>; readonly f16: Format; readonly bf16: Format;
  readonly i8: Format; readonly i16: Format; readonly i32: Format; readonly ff: Format;
} = Object.freeze({ f64, f32, f16, bf16, i8, i16, i32, ff });

export { f64, f32 };
export { registerFormat, findFormat, formatNames, asStorage, asArithmetic } from './common/registry.js';
export type { Format, FormatLike } from './common/registry.js';
export type { StorageFormat, ArithmeticFormat, ValueKind, Register, TemplateHelpers, MpValueLike } from './common/format.js';
export type { GpuStoragePart, GpuPartRegister, GpuRegisterKind, GpuEncodedArray, GpuVectorRead, GpuPairRead, GpuReadTarget, GpuArithmeticPart, GpuDotOperands, GpuArithmeticName, GpuScalarPart, GpuNativeLibrary, GpuValueType } from './common/gpu-part.js';
export { registerOfKind, numberRegister, declareStorageRegister } from './common/format.js';
export { f64Storage } from './f64/f64.js';
export { f32Storage } from './f32/f32.js';
export { f16Storage } from './f16/f16.js';
export { bf16Storage } from './bf16/bf16.js';
export { i8Storage, i16Storage, i32Storage } from './scaled-integer/scaled-integer.js';
export { f64Arithmetic } from './f64/f64-arithmetic.js';
export { f32Arithmetic } from './f32/f32-arithmetic.js';
export { ffArithmetic, FF_UNIT_ROUNDOFF, type FfValue } from './ff/ff.js';
export { typedArrayStorage } from './common/typed-array-storage.js';
