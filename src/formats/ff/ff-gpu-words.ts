/**
 * How a float-float value sits on the device: a pair of binary32 words (hi, lo). The word layout of the ff GPU
 * arithmetic (its partial results) and the `ff` format of the resident API; the CPU has no ff storage.
 * @module
 */
import type { GpuStoragePart } from '../common/gpu-part.js';
import { asPair, twoWordQuadRead } from '../common/gpu-word-reads.js';

/**
 * float-float pairs on the device.
 * @group Formats
 */
export const ffGpuWords: GpuStoragePart = {
  name: 'ff',
  elementsPerWord: 1,
  wordsPerElement: 2,
  significandBits: 48,
  unitRoundoff: 2 ** -48,
  scaled: false,
  writable: true,
  bitCopy: true,
  words: (length) => 2 * length,
  encode(values) {
    const pairs = new Float32Array(Math.max(2, 2 * values.length));
    for (let k = 0; k < values.length; k++) {
      const x = values[k]!;
      const hi = Math.fround(x);
      pairs[2 * k] = hi;
      pairs[2 * k + 1] = Number.isFinite(hi) ? Math.fround(x - hi) : 0;
    }
    return { words: new Uint32Array(pairs.buffer) };
  },
  decode(encoded, length) {
    const pairs = new Float32Array(encoded.words.buffer, encoded.words.byteOffset, 2 * length);
    const out = new Float64Array(length);
    for (let k = 0; k < length; k++) {
      const hi = pairs[2 * k]!;
      const lo = pairs[2 * k + 1]!;
      out[k] = lo === 0 ? hi : hi + lo; // keeps −0
    }
    return out;
  },
  decodePair: (words) => {
    const f = new Float32Array(words.buffer, words.byteOffset, 2);
    return [f[0]!, f[1]!];
  },
  emitRead(array, index, dst) {
    return { code: `const ${dst}k = (${index}) * 2; const ${dst} = [${array}[${dst}k], ${array}[${dst}k + 1]];`, register: { kind: 'ff', name: dst } };
  },
  readArgs: () => [],
  vectorRead: twoWordQuadRead((q, o) => `[${q}[${o}], ${q}[${o + 1}]]`),
  emitReturn: (values) => (values[0] ? `return ${asPair(values[0])};` : 'return [0.0, 0.0];'),
};
