/**
 * The GPU part of binary32 storage: one value per 32-bit word, read as is (four at a time with a 16-byte load).
 * @module
 */
import type { GpuStoragePart } from '../common/gpu-part.js';
import { fourRegisters, single } from '../common/gpu-word-reads.js';

/**
 * fp32 on the device.
 * @group Formats
 */
export const f32GpuPart: GpuStoragePart = {
  name: 'f32',
  elementsPerWord: 1,
  wordsPerElement: 1,
  significandBits: 24,
  unitRoundoff: 2 ** -24,
  scaled: false,
  writable: true,
  bitCopy: true,
  words: (length) => length,
  encode(values) {
    if (values instanceof Float32Array) {
      // Already binary32: the words are its bits.
      const words = new Uint32Array(Math.max(1, values.length));
      words.set(new Uint32Array(values.buffer, values.byteOffset, values.length));
      return { words };
    }
    const words = new Uint32Array(Math.max(1, values.length));
    const view = new Float32Array(words.buffer);
    for (let k = 0; k < values.length; k++) view[k] = values[k]!;
    return { words };
  },
  decode(encoded, length) {
    return Float64Array.from(new Float32Array(encoded.words.buffer, encoded.words.byteOffset, length));
  },
  emitRead: (array, index, dst) => ({ code: `const ${dst} = ${array}[${index}];`, register: { kind: 'f32', name: dst } }),
  readArgs: () => [],
  vectorRead: {
    suffix: 'Quad',
    emit(vector, index, prefix) {
      const v = `${prefix}v`;
      const regs = [0, 1, 2, 3].map((j) => `const ${prefix}${j} = ${v}[${j}];`).join(' ');
      return { code: `const ${v} = mpQuad(${vector}[(${index}) >> 2]); ${regs}`, registers: fourRegisters(prefix, 'f32') };
    },
  },
  pairRead: {
    suffix: 'Pair',
    emit(vector, index, prefix) {
      const v = `${prefix}v`;
      return { code: `const ${v} = mpPair(${vector}[(${index}) >> 1]); const ${prefix}0 = ${v}[0]; const ${prefix}1 = ${v}[1];`, registers: [0, 1].map((j) => ({ kind: 'f32', name: `${prefix}${j}` })) };
    },
  },
  emitReturn: (values) => `return ${values[0] ? single(values[0]) : '0.0'};`,
};
