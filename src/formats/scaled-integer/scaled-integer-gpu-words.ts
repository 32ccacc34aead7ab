/**
 * The GPU parts of int8 and int16 storage: four/two signed integers per 32-bit word, times a binary32 scale per
 * block of `scaleBlock` elements (the upload computes the scales; kernels only read these formats — `gpuConvert`
 * writes them, computing the scales first).
 * @module
 */
import type { GpuStoragePart } from '../common/gpu-part.js';
import { fail } from '../../core/errors.js';
import { nearestIntegerOfQuotient } from '../convert/scaled-integer.js';
import { computesFrom } from '../common/gpu-word-reads.js';

function checkFiniteAll(values: ArrayLike<number>, parameter: string): void {
  for (let k = 0; k < values.length; k++) {
    if (!Number.isFinite(values[k]!)) fail('INVALID_VALUE', `${parameter}[${k}]`, 'must be finite for a scaled integer format', values[k]);
  }
}

const bits32 = new Uint32Array(1);
const float32 = new Float32Array(bits32.buffer);
/** The binary32 after a positive finite binary32 `x`. */
function nextBinary32(x: number): number {
  float32[0] = x;
  bits32[0] = bits32[0]! + 1;
  return float32[0]!;
}

function scaledInteger(name: 'i8' | 'i16'): GpuStoragePart {
  const bits = name === 'i8' ? 8 : 16;
  const perWord = 32 / bits;
  const qmax = 2 ** (bits - 1) - 1;
  return {
    name,
    elementsPerWord: perWord,
    wordsPerElement: 1,
    significandBits: bits - 1,
    unitRoundoff: 0.5 / qmax,
    scaled: true,
    writable: false,
    words: (length) => Math.ceil(length / perWord),
    encode(values, parameter, scaleBlock) {
      checkFiniteAll(values, parameter);
      const blocks = Math.max(1, Math.ceil(values.length / scaleBlock));
      const scales = new Float32Array(blocks);
      const words = new Uint32Array(Math.max(1, Math.ceil(values.length / perWord)));
      for (let b = 0; b < blocks; b++) {
        let max = 0;
        const end = Math.min(values.length, (b + 1) * scaleBlock);
        for (let k = b * scaleBlock; k < end; k++) max = Math.max(max, Math.abs(values[k]!));
        // The smallest binary32 s with s·qmax ≥ max (s·qmax is exact in a double), as the device computes it.
        let scale = Math.fround(max / qmax);
        if (scale * qmax < max) scale = nextBinary32(scale);
        // A scale must be a normal binary32, as the device's conversion requires: WGSL lets a device flush a
        // subnormal scale to zero, which would read the whole block as zeros.
        if (scale < 2 ** -126 || !Number.isFinite(scale)) scale = max === 0 ? 1 : fail('INVALID_VALUE', parameter, `must have block maxima whose scale is a normal binary32 (at least 2^-126·${qmax})`, max);
        scales[b] = scale;
        for (let k = b * scaleBlock; k < end; k++) {
          // The CPU's write: values[k]/scale rounded once to the nearest integer (ties to even), as the device does.
          const q = Math.max(-qmax, Math.min(qmax, nearestIntegerOfQuotient(values[k]!, 0, scale)));
          words[Math.floor(k / perWord)]! |= (q & (2 ** bits - 1)) << ((k % perWord) * bits);
        }
      }
      return { words, scales };
    },
    decode(encoded, length, scaleBlock) {
      const out = new Float64Array(length);
      for (let k = 0; k < length; k++) {
        const w = encoded.words[Math.floor(k / perWord)]!;
        const q = (w << (32 - bits - (k % perWord) * bits)) >> (32 - bits);
        out[k] = q * encoded.scales![Math.floor(k / scaleBlock)]!;
      }
      return out;
    },
    emitRead(array, index, dst, arithmetic, scaleOffset) {
      const lane = perWord === 4 ? `((${dst}k & 3) << 3)` : `((${dst}k & 1) << 4)`;
      const word = perWord === 4 ? `${dst}k >> 2` : `${dst}k >> 1`;
      // A binding of the scales that starts elsewhere than the words' binding: element k's block counts from `scaleOffset` elements before it.
      const scaleAt = scaleOffset === undefined ? `${dst}k` : `${dst}k + ${scaleOffset}`;
      const head = `const ${dst}k = ${index}; const ${dst}w = mpBits(${array}[${word}]); const ${dst}q = (${dst}w << (${32 - bits} - ${lane})) >> ${32 - bits}; const ${dst}s = ${array}Scale[mpIdiv(${scaleAt}, ${array}Block)];`;
      if (computesFrom(arithmetic, 'ff')) return { code: `${head} const ${dst} = ffTwoProd(${dst}q * 1.0, ${dst}s);`, register: { kind: 'ff', name: dst } };
      return { code: `${head} const ${dst} = ${dst}q * ${dst}s;`, register: { kind: 'f32', name: dst } };
    },
    readArgs: (array) => [[`${array}Scale`, 'Array'], [`${array}Block`, 'Integer']],
    emitReturn() {
      throw new Error('internal: integer formats are not written on the device');
    },
  };
}

/**
 * int8 times a binary32 scale per block, on the device.
 * @group Formats
 */
export const i8GpuPart: GpuStoragePart = scaledInteger('i8');
/**
 * int16 times a binary32 scale per block, on the device.
 * @group Formats
 */
export const i16GpuPart: GpuStoragePart = scaledInteger('i16');
