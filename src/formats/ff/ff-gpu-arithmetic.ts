/**
 * The GPU part of float-float arithmetic (about 48 significand bits from two binary32 words): the templates call
 * the error-free transformations `ffTwoProd`, `ffAdd`, `ffMul`, … that src/backends/webgpu/arithmetic.ts adds to gpu.js
 * (TwoProd through a fused `fma` where the adapter has one, Dekker's split otherwise). Values sit in word pairs.
 * @module
 */
import type { GpuArithmeticPart, GpuPartRegister } from '../common/gpu-part.js';
import { absOf, asPair, floatPairScalar, headOf } from '../common/gpu-word-reads.js';
import { ffSqrtInto } from './ff-ops.js';
import { ffGpuWords } from './ff-gpu-words.js';
import { gpuKernelSwitches } from '../../backends/webgpu/kernel-switches.js';

/** `name` or its twin pinned by fmas with opaque uniforms (`ffFmaKeep`, src/backends/webgpu/kernel-switches.ts). */
const pinned = (name: string): string => (gpuKernelSwitches().ffFmaKeep ? `${name}U` : name);

/** The product a·b as a pair expression: TwoProd of two words (exact), ffMulF/ffMul where a pair is involved. */
function productPair(a: GpuPartRegister, b: GpuPartRegister): string {
  if (a.kind === 'f32' && b.kind === 'f32') return `${pinned('ffTwoProd')}(${a.name}, ${b.name})`;
  if (a.kind === 'ff' && b.kind === 'ff') return `ffMul(${a.name}, ${b.name})`;
  const [p, q] = a.kind === 'ff' ? [a, b] : [b, a];
  return `ffMulF(${p.name}, ${q.name})`;
}

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
  lazyMulAdd: (acc, a, b) => `${acc} = ${pinned('ffLazyAdd')}(${acc}, ${productPair(a, b)});`,
  settle: (acc) => `${acc} = ${pinned('ffSettle')}(${acc});`,
  // Why 8 terms keep the ff bounds (16u² per term, u = 2^-24; kernels' tests check γ_{2n+3}(8u²)): start from a
  // settled pair (h, l), |l| ≤ u|h| ≤ uA, A = Σ of the magnitudes added so far. Term k is a pair (p, e) with
  // p + e = a·b exactly or within 5u² (TwoProd; ffMulF/ffMul for pair operands, whose error the other ff ops count
  // alike) and |e| ≤ u|p|. TwoSum makes h' + t = h + p exactly, |t| ≤ u|h'| ≤ uA(1 + u). The tail takes
  // fl(l + fl(t + e)): the inner rounding errs by ≤ u(|t| + |e|) ≤ u²(A + |p|), the outer by ≤ u|l_k| with
  // |l_k| ≤ uA + Σ_{j≤k} (|t_j| + |e_j|)(1 + u) ≤ uA(k + 2) (1 + O(u)). Summed over K terms:
  // u²A(3K + K(K + 1)/2) + u²A = 61u²A at K = 8 (7.6u² per term); settling (TwoSum) is exact.
  lazyTerms: 8,
  declareMul: (dst, a, b) => {
    if (a.kind === 'f32' && b.kind === 'f32') return `let ${dst} = ffProd(${a.name}, ${b.name});`;
    if (a.kind === 'ff' && b.kind === 'ff') return `let ${dst} = ffMul(${a.name}, ${b.name});`;
    const [p, q] = a.kind === 'ff' ? [a, b] : [b, a];
    return `let ${dst} = ffMulF(${p.name}, ${q.name});`;
  },
  declareDiv: (dst, a, b) => `let ${dst} = ffDiv(${asPair(a)}, ${asPair(b)});`,
  declareSub: (dst, a, b) => (b.kind === 'ff' ? `let ${dst} = ffAdd(${asPair(a)}, [-${b.name}[0], -${b.name}[1]]);` : `let ${dst} = ffAdd(${asPair(a)}, [-${b.name}, 0.0]);`),
  register: (name) => ({ kind: 'ff', name }),
  returnValue: (acc) => acc,
};
