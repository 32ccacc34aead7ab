/**
 * The GPU part of binary64 storage: the two words of an IEEE double (low word first), decoded on the device into a
 * float-float pair (`mpF64`, gpu-helpers.ts) and written from one as the nearest double (`mpF64Words`).
 * @module
 */
import type { GpuStoragePart } from '../common/gpu-part.js';
import { computesFrom, twoWordQuadRead } from '../common/gpu-word-reads.js';

/**
 * fp64 on the device.
 * @group Formats
 */
export const f64GpuPart: GpuStoragePart = {
  name: 'f64',
  elementsPerWord: 1,
  wordsPerElement: 2,
  significandBits: 53,
  unitRoundoff: 2 ** -53,
  scaled: false,
  writable: true,
  bitCopy: true,
  words: (length) => 2 * length,
  encode(values) {
    const doubles = new Float64Array(Math.max(1, values.length));
    // Exact: the words of each double (how the device reads them into an arithmetic: see mpF64).
    for (let k = 0; k < values.length; k++) doubles[k] = values[k]!;
    return { words: new Uint32Array(doubles.buffer) };
  },
  decode(encoded, length) {
    return new Float64Array(encoded.words.buffer.slice(encoded.words.byteOffset, encoded.words.byteOffset + 8 * length));
  },
  // An arithmetic of binary32 registers (f32) reads only the head: it is the double correctly rounded to binary32 (adding the tail in
  // binary32 could round a second time when the tail is exactly half an ulp after its own rounding).
  emitRead(array, index, dst, arithmetic) {
    const pair = `mpF64(mpBits(${array}[${dst}k + 1]), mpBits(${array}[${dst}k]))`;
    if (computesFrom(arithmetic, 'f64')) {
      // The raw words, for an arithmetic that holds all 53 bits (the GPU dd arithmetic).
      return { code: `const ${dst}k = (${index}) * 2; const ${dst} = [${array}[${dst}k], ${array}[${dst}k + 1]];`, register: { kind: 'f64', name: dst } };
    }
    if (!computesFrom(arithmetic, 'ff')) {
      return { code: `const ${dst}k = (${index}) * 2; const ${dst}p = ${pair}; const ${dst} = ${dst}p[0];`, register: { kind: 'f32', name: dst } };
    }
    return { code: `const ${dst}k = (${index}) * 2; const ${dst} = ${pair};`, register: { kind: 'ff', name: dst } };
  },
  readArgs: () => [],
  // The low word of a double comes first.
  vectorRead: twoWordQuadRead((q, o) => `mpF64(mpBits(${q}[${o + 1}]), mpBits(${q}[${o}]))`, true, 'f64'),
  // The double nearest the register's value (float-float values hold at most 48 significant bits, so the
  // words are exact for them; see src/backends/webgpu/format-writers.ts).
  emitReturn: (values) => {
    const r = values[0];
    if (!r) return 'return [0.0, 0.0];';
    if (r.kind === 'xf') return `return mpXfToF64Words(${r.name});`;
    if (r.kind === 'f64') return `return ${r.name};`;
    return r.kind === 'ff' ? `return mpF64Words(${r.name}[0], ${r.name}[1]);` : `return mpF64Words(${r.name}, 0.0);`;
  },
};
