/**
 * The GPU part of float-float arithmetic (about 48 significand bits from two binary32 words): the templates call
 * the error-free transformations `ffTwoProd`, `ffAdd`, `ffMul`, … that src/backends/webgpu/arithmetic.ts adds to gpu.js
 * (TwoProd through a fused `fma` where the adapter has one, Dekker's split otherwise). Values sit in word pairs.
 * @module
 */
import type { GpuArithmeticPart } from '../common/gpu-part.js';
import { absOf, asPair, floatPairScalar, headOf } from '../common/gpu-word-reads.js';
import { ffSqrtInto } from './ff-ops.js';
import { ffGpuWords } from './ff-gpu-words.js';

/**
 * float-float arithmetic on the device.
 * @group Formats
 */
export const ffGpuArithmetic: GpuArithmeticPart = {
  name: 'ff',
  unitRoundoff: 2 ** -48,
  components: 2,
  readKinds: ['f32', 'ff'],
  // f64 storage (53 bits) computes in float-float unless told otherwise (its reads truncate to 48 bits).
  defaultUpToBits: 53,
  // Two accumulators per GEMV thread: each float-float addition is a long dependency chain.
  divisionError: 4 * 2 ** -48,
  defaultChains: 2,
  scalar: floatPairScalar(true),
  literal: (value) => `[${value}.0, 0.0]`,
  declareAbs: absOf,
  head: headOf,
  // The same algorithm as the CPU's float-float square root (formats.ff).
  sqrtOfWords: (words) => {
    const f = new Float32Array(words.buffer, words.byteOffset, 2);
    const out = new Float64Array(2);
    ffSqrtInto(out, f[0]!, f[1]!);
    return out[0]! + out[1]!;
  },
  assign: (dst, src) => (src.kind === 'ff' ? `${dst} = ${src.name};` : `${dst} = [${src.name}, 0.0];`),
  words: ffGpuWords,
  declareZero: (dst) => `let ${dst} = [0.0, 0.0];`,
  declareFrom: (dst, src) => `let ${dst} = ${asPair(src)};`,
  mulAdd: (acc, a, b) => {
    if (a.kind === 'f32' && b.kind === 'f32') return `${acc} = ffMulAddF(${acc}, ${a.name}, ${b.name});`;
    if (a.kind === 'ff' && b.kind === 'ff') return `${acc} = ffAdd(${acc}, ffMul(${a.name}, ${b.name}));`;
    const [p, q] = a.kind === 'ff' ? [a, b] : [b, a];
    return `${acc} = ffAdd(${acc}, ffMulF(${p.name}, ${q.name}));`;
  },
  add: (acc, b) => `${acc} = ffAdd(${acc}, ${asPair(b)});`,
  declareMul: (dst, a, b) => {
    if (a.kind === 'f32' && b.kind === 'f32') return `let ${dst} = ffTwoProd(${a.name}, ${b.name});`;
    if (a.kind === 'ff' && b.kind === 'ff') return `let ${dst} = ffMul(${a.name}, ${b.name});`;
    const [p, q] = a.kind === 'ff' ? [a, b] : [b, a];
    return `let ${dst} = ffMulF(${p.name}, ${q.name});`;
  },
  declareDiv: (dst, a, b) => `let ${dst} = ffDiv(${asPair(a)}, ${asPair(b)});`,
  declareSub: (dst, a, b) => (b.kind === 'ff' ? `let ${dst} = ffAdd(${asPair(a)}, [-${b.name}[0], -${b.name}[1]]);` : `let ${dst} = ffAdd(${asPair(a)}, [-${b.name}, 0.0]);`),
  register: (name) => ({ kind: 'ff', name }),
  returnValue: (acc) => acc,
};
