/**
 * The GPU part of binary32 arithmetic: each operation rounded once (`fma` for multiply-add); values sit in one
 * word each.
 * @module
 */
import type { GpuArithmeticPart } from '../common/gpu-part.js';
import { single } from '../common/gpu-word-reads.js';
import { f32GpuPart } from './f32-gpu-words.js';

/**
 * fp32 arithmetic on the device.
 * @group Formats
 */
export const f32GpuArithmetic: GpuArithmeticPart = {
  name: 'f32',
  unitRoundoff: 2 ** -24,
  components: 1,
  words: f32GpuPart,
  declareZero: (dst) => `let ${dst} = 0.0;`,
  declareFrom: (dst, src) => `let ${dst} = ${single(src)};`,
  mulAdd: (acc, a, b) => `${acc} = mpFma(${single(a)}, ${single(b)}, ${acc});`,
  add: (acc, b) => `${acc} = ${acc} + ${single(b)};`,
  declareMul: (dst, a, b) => `let ${dst} = ${single(a)} * ${single(b)};`,
  declareDiv: (dst, a, b) => `let ${dst} = ${single(a)} / ${single(b)};`,
  declareSub: (dst, a, b) => `let ${dst} = ${single(a)} - ${single(b)};`,
  register: (name) => ({ kind: 'f32', name }),
  returnValue: (acc) => acc,
};
