/**
 * The GPU parts of the 16-bit floating-point storages (fp16, bf16): two values per 32-bit word, element 2k in the
 * low half. Reads unpack exactly (fp16 through WGSL's unpack2x16float, bf16 by a shift); writes round a register to
 * the format once (float-float registers are first rounded to odd in binary32, so the second rounding is correct).
 * @module
 */
import type { GpuPartRegister, GpuStoragePart } from './gpu-part.js';
import { decodeBf16, encodeBf16 } from '../convert/bf16.js';
import { decodeF16, encodeF16 } from '../convert/f16.js';
import { bitsForNarrowing, fourRegisters } from './gpu-word-reads.js';

function sixteenBit(name: 'f16' | 'bf16'): GpuStoragePart {
  // The core's exact host conversions (round to nearest even, NaN kept).
  const toBits = name === 'f16' ? encodeF16 : encodeBf16;
  const fromBits = name === 'f16' ? decodeF16 : decodeBf16;
  const p = name === 'f16' ? 11 : 8;
  return {
    name,
    elementsPerWord: 2,
    wordsPerElement: 1,
    significandBits: p,
    unitRoundoff: 2 ** -p,
    scaled: false,
    writable: true,
    bitCopy: true,
    words: (length) => Math.ceil(length / 2),
    encode(values) {
      const words = new Uint32Array(Math.max(1, Math.ceil(values.length / 2)));
      for (let k = 0; k < values.length; k++) words[k >> 1]! |= toBits(values[k]!) << ((k & 1) << 4);
      return { words };
    },
    decode(encoded, length) {
      const out = new Float64Array(length);
      for (let k = 0; k < length; k++) out[k] = fromBits((encoded.words[k >> 1]! >>> ((k & 1) << 4)) & 0xffff);
      return out;
    },
    emitRead(array, index, dst) {
      const head = `const ${dst}k = ${index}; const ${dst}w = mpBits(${array}[${dst}k >> 1]);`;
      if (name === 'f16') {
        // WGSL's unpack2x16float decodes both halves exactly (subnormals, ±Inf, NaN) in one instruction.
        return { code: `${head} const ${dst}p = mpHalfPair(${dst}w); const ${dst} = ${dst}p[${dst}k & 1];`, register: { kind: 'f32', name: dst } };
      }
      return {
        code: `${head} const ${dst}h = (${dst}w >>> ((${dst}k & 1) << 4)) & 65535; const ${dst} = mpFloat(${dst}h << 16);`,
        register: { kind: 'f32', name: dst },
      };
    },
    readArgs: () => [],
    vectorRead: {
      // Four elements are two words: one 8-byte load.
      suffix: 'Pair',
      emit(vector, index, prefix) {
        const v = `${prefix}v`;
        const lines = [`const ${v} = mpPair(${vector}[(${index}) >> 2]); const ${v}w0 = mpBits(${v}[0]); const ${v}w1 = mpBits(${v}[1]);`];
        if (name === 'f16') {
          lines.push(`const ${v}h0 = mpHalfPair(${v}w0); const ${v}h1 = mpHalfPair(${v}w1);`);
          lines.push(`const ${prefix}0 = ${v}h0[0]; const ${prefix}1 = ${v}h0[1]; const ${prefix}2 = ${v}h1[0]; const ${prefix}3 = ${v}h1[1];`);
        } else {
          lines.push(`const ${prefix}0 = mpFloat(${v}w0 << 16); const ${prefix}1 = mpFloat(${v}w0 & -65536); const ${prefix}2 = mpFloat(${v}w1 << 16); const ${prefix}3 = mpFloat(${v}w1 & -65536);`);
        }
        return { code: lines.join(' '), registers: fourRegisters(prefix, 'f32') };
      },
    },
    pairRead: {
      // Elements k, k + 1 (k even) are the low and high halves of word k/2: one 4-byte load, no variable shift.
      suffix: '',
      emit(array, index, prefix) {
        const w = `${prefix}w`;
        const head = `const ${w} = mpBits(${array}[(${index}) >> 1]);`;
        const code = name === 'f16'
          ? `${head} const ${prefix}h = mpHalfPair(${w}); const ${prefix}0 = ${prefix}h[0]; const ${prefix}1 = ${prefix}h[1];`
          : `${head} const ${prefix}0 = mpFloat(${w} << 16); const ${prefix}1 = mpFloat(${w} & -65536);`;
        return { code, registers: [0, 1].map((j) => ({ kind: 'f32', name: `${prefix}${j}` })) };
      },
    },
    octetRead: {
      // Eight elements are four words: one 16-byte load, each word unpacked as pairRead does.
      suffix: 'Quad',
      emit(vector, index, prefix) {
        const v = `${prefix}v`;
        const lines = [`const ${v} = mpQuad(${vector}[(${index}) >> 3]);`];
        for (let w = 0; w < 4; w++) {
          const word = `${v}w${w}`;
          lines.push(`const ${word} = mpBits(${v}[${w}]);`);
          lines.push(name === 'f16'
            ? `const ${v}h${w} = mpHalfPair(${word}); const ${prefix}${2 * w} = ${v}h${w}[0]; const ${prefix}${2 * w + 1} = ${v}h${w}[1];`
            : `const ${prefix}${2 * w} = mpFloat(${word} << 16); const ${prefix}${2 * w + 1} = mpFloat(${word} & -65536);`);
        }
        return { code: lines.join(' '), registers: Array.from({ length: 8 }, (_, j) => ({ kind: 'f32', name: `${prefix}${j}` })) };
      },
    },
    emitReturn(values) {
      const pack = (r: GpuPartRegister | undefined): string => (r ? `${name === 'f16' ? 'mpF16' : 'mpBf16'}(${bitsForNarrowing(r)})` : '0');
      return `return mpFloat(${pack(values[0])} | (${pack(values[1])} << 16));`;
    },
  };
}

/**
 * fp16 on the device.
 * @group Formats
 */
export const f16GpuPart: GpuStoragePart = sixteenBit('f16');
/**
 * bfloat16 on the device.
 * @group Formats
 */
export const bf16GpuPart: GpuStoragePart = sixteenBit('bf16');
