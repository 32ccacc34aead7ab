/**
 * int8 and int16 as a range stores them (Int8Array / Int16Array bytes: four / two signed integers per 32-bit word,
 * element 4k / 2k in the lowest bits), with no scale of their own: the reading half of a scaled range on the device,
 * where the range's own scales (its scale mask and strides) multiply the integer (src/backends/webgpu/range-scale.ts).
 * The registered i8/i16 GPU parts are a different model — a binary32 scale per block of elements, chosen by the upload
 * — which is why these parts are not registered: they are never a format of their own.
 * @module
 */
import type { GpuStoragePart } from '../common/gpu-part.js';

function integerWords(name: 'i8' | 'i16'): GpuStoragePart {
  const bits = name === 'i8' ? 8 : 16;
  const perWord = 32 / bits;
  const refuse = (): never => { throw new Error(`internal: ${name} range words are read only through a range's scales`); };
  return {
    name: `${name}-words`,
    elementsPerWord: perWord,
    wordsPerElement: 1,
    significandBits: bits - 1,
    unitRoundoff: NaN,
    scaled: false,
    writable: false,
    words: (length) => Math.ceil(length / perWord),
    encode: refuse,
    decode(encoded, length) {
      const out = new Float64Array(length);
      for (let k = 0; k < length; k++) out[k] = (encoded.words[Math.floor(k / perWord)]! << (32 - bits - (k % perWord) * bits)) >> (32 - bits);
      return out;
    },
    emitRead(array, index, dst, arithmetic) {
      const lane = perWord === 4 ? `((${dst}k & 3) << 3)` : `((${dst}k & 1) << 4)`;
      const word = perWord === 4 ? `${dst}k >> 2` : `${dst}k >> 1`;
      // Every integer of at most 16 bits is a binary32 value: the read is exact in either arithmetic.
      const code = `const ${dst}k = ${index}; const ${dst}w = mpBits(${array}[${word}]); const ${dst}i = (${dst}w << (${32 - bits} - ${lane})) >> ${32 - bits}; const ${dst} = ${dst}i * 1.0;`;
      void arithmetic;
      return { code, register: { kind: 'f32', name: dst } };
    },
    readArgs: () => [],
    emitReturn: refuse,
  };
}

/**
 * Signed 8-bit integers as an Int8Array stores them, read exactly (no scale).
 * @group Formats
 */
export const i8WordsGpuPart: GpuStoragePart = integerWords('i8');
/**
 * Signed 16-bit integers as an Int16Array stores them, read exactly (no scale).
 * @group Formats
 */
export const i16WordsGpuPart: GpuStoragePart = integerWords('i16');
