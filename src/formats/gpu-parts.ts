/**
 * The built-in formats' GPU parts, given to their format objects (`formats.f32.storage.gpu`, …) when the GPU backend
 * loads: the webgpu modules that read parts import this module, and nothing the main entry `modprec` loads at once
 * does, so a CPU-only bundle carries none of their gpu.js templates (src/formats/common/gpu-facts.ts has what the
 * CPU side checks before). Importing it again is harmless: each part is given once, to the same object.
 * @module
 */
import { provideGpuArithmeticPart, provideGpuStoragePart } from './common/gpu-facts.js';
import { f64Storage } from './f64/f64.js';
import { f64GpuPart } from './f64/f64-gpu-words.js';
import { f32Storage } from './f32/f32.js';
import { f32GpuPart } from './f32/f32-gpu-words.js';
import { f32Arithmetic } from './f32/f32-arithmetic.js';
import { f32GpuArithmetic } from './f32/f32-gpu-arithmetic.js';
import { f16Storage } from './f16/f16.js';
import { bf16Storage } from './bf16/bf16.js';
import { f16GpuPart, bf16GpuPart } from './common/sixteen-bit-gpu-words.js';
import { i8Storage, i16Storage } from './scaled-integer/scaled-integer.js';
import { i8GpuPart, i16GpuPart } from './scaled-integer/scaled-integer-gpu-words.js';
import { ffArithmetic } from './ff/ff.js';
import { ffGpuArithmetic } from './ff/ff-gpu-arithmetic.js';
import { ddStorage, ddSplitStorage } from './dd/dd-storage.js';
import { ddGpuPart } from './dd/dd-gpu-words.js';
import { ddSplitGpuPart } from './dd/dd-split-gpu-words.js';
import { ddArithmetic } from './dd/dd-arithmetic.js';
import { ddGpuArithmetic } from './dd/dd-gpu-arithmetic.js';

provideGpuStoragePart(f64Storage, f64GpuPart);
provideGpuStoragePart(f32Storage, f32GpuPart);
provideGpuStoragePart(f16Storage, f16GpuPart);
provideGpuStoragePart(bf16Storage, bf16GpuPart);
provideGpuStoragePart(i8Storage, i8GpuPart);
provideGpuStoragePart(i16Storage, i16GpuPart);
provideGpuStoragePart(ddStorage, ddGpuPart);
provideGpuStoragePart(ddSplitStorage, ddSplitGpuPart);
provideGpuArithmeticPart(f32Arithmetic, f32GpuArithmetic);
provideGpuArithmeticPart(ffArithmetic, ffGpuArithmetic);
provideGpuArithmeticPart(ddArithmetic, ddGpuArithmetic);
