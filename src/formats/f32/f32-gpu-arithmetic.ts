/**
 * The GPU part of binary32 arithmetic: each operation rounded once to binary32, a multiply-add too (the product is
 * rounded before it is added, as the CPU's `Math.fround(Math.fround(a·b) + c)`); values sit in one word each.
 *
 * Why not WGSL `fma`: where it is fused (the H100) it rounds a·b + c once, which is another answer than the CPU's —
 * MAX32·2 − MAX32 is MAX32 fused and +∞ rounded twice, MAX32·(−3) + ∞ is +∞ fused and NaN rounded twice. The product
 * goes through `mpKeep`, which the shader compiler cannot see through, so it cannot contract the two operations into
 * one either. With the `f32FmaKeep` switch (src/backends/webgpu/kernel-switches.ts) the product is `fma(a, b, z)` with z
 * a uniform that is always −0.0 (`mpNegZero`): a·b rounded once (−0.0 keeps the sign of a zero product) by one
 * floating-point operation instead of a multiply and an integer XOR, and no compiler contracts an fma into the sum.
 * @module
 */
import type { GpuArithmeticPart } from '../common/gpu-part.js';
import { absOf, floatPairScalar, headOf, single } from '../common/gpu-word-reads.js';
import { f32GpuPart } from './f32-gpu-words.js';
import { gpuKernelSwitches } from '../../backends/webgpu/kernel-switches.js';

/** a·b rounded to binary32 and pinned (see the module comment). */
const product = (a: string, b: string): string => (gpuKernelSwitches().f32FmaKeep ? `mpFma(${a}, ${b}, mpNegZero())` : `mpKeep(${a} * ${b})`);

/**
 * fp32 arithmetic on the device.
 * @group Formats
 */
export const f32GpuArithmetic: GpuArithmeticPart = {
  name: 'f32',
  unitRoundoff: 2 ** -24,
  components: 1,
  readKinds: ['f32'],
  defaultUpToBits: 24,
  divisionError: 5 * 2 ** -24,
  valueBits: 24,
  defaultChains: 1,
  scalar: floatPairScalar(false),
  literal: (value) => `${value}.0`,
  declareAbs: absOf,
  head: headOf,
  sqrtOfWords: (words) => Math.fround(Math.sqrt(new Float32Array(words.buffer, words.byteOffset, 1)[0]!)),
  assign: (dst, src) => (src.kind === 'ff' ? `${dst} = ${src.name}[0] + ${src.name}[1];` : `${dst} = ${src.name};`),
  words: f32GpuPart,
  declareZero: (dst) => `let ${dst} = 0.0;`,
  declareFrom: (dst, src) => `let ${dst} = ${single(src)};`,
  mulAdd: (acc, a, b) => `${acc} = ${acc} + ${product(single(a), single(b))};`,
  add: (acc, b) => `${acc} = ${acc} + ${single(b)};`,
  declareMul: (dst, a, b) => `let ${dst} = ${product(single(a), single(b))};`,
  declareDiv: (dst, a, b) => `let ${dst} = ${single(a)} / ${single(b)};`,
  declareSub: (dst, a, b) => `let ${dst} = ${single(a)} - ${single(b)};`,
  register: (name) => ({ kind: 'f32', name }),
  returnValue: (acc) => acc,
};
