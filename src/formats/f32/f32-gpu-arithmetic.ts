/**
 * The GPU part of binary32 arithmetic: each operation rounded once (`fma` for multiply-add); values sit in one
 * word each.
 * @module
 */
import type { GpuArithmeticPart } from '../common/gpu-part.js';
import { absOf, floatPairScalar, headOf, single } from '../common/gpu-word-reads.js';
import { f32GpuPart } from './f32-gpu-words.js';

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
  mulAdd: (acc, a, b) => `${acc} = mpFma(${single(a)}, ${single(b)}, ${acc});`,
  add: (acc, b) => `${acc} = ${acc} + ${single(b)};`,
  declareMul: (dst, a, b) => `let ${dst} = ${single(a)} * ${single(b)};`,
  declareDiv: (dst, a, b) => `let ${dst} = ${single(a)} / ${single(b)};`,
  declareSub: (dst, a, b) => `let ${dst} = ${single(a)} - ${single(b)};`,
  register: (name) => ({ kind: 'f32', name }),
  returnValue: (acc) => acc,
};
