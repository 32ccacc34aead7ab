/**
 * The split double-double storage (`dd-split`: separate hi and lo arrays) on the device. One buffer holds a span of
 * S elements as the bytes of its two CPU arrays: the hi doubles (2S words, low word first), padded to a 256-byte
 * boundary, then the lo doubles — so an upload and a read-back copy the bytes of `hi` and `lo` as they are, and a
 * binding of either block may start at any 32-element boundary (WebGPU's 256-byte binding-offset alignment).
 *
 * The GPU kernels read and write dd pairs in the interleaved layout (dd-gpu-words.ts): a dd-split operand goes
 * through them as an interleaved copy of its span, made on the device by one raw-bit pass, and an output's view comes
 * back into the two blocks by two more (src/backends/webgpu/dd-split-device.ts). Kernels therefore compute on the same
 * pair words as for `dd` storage, bit for bit. This part's read template (an element of a binding of the whole
 * buffer) states the layout for code that binds it so; the built-in kernels do not read through it.
 * @module
 */
import type { GpuStoragePart } from '../common/gpu-part.js';
import { checkDdRead } from '../common/gpu-facts.js';
import { ddGpuPart } from './dd-gpu-words.js';

/**
 * Word index of the lo block in the device buffer of a dd-split span of `length` elements: the hi block's 2·length
 * words rounded up to 64 (256 bytes).
 * @param length - elements of the span
 * @returns the word index
 * @example
 * ```ts
 * ddSplitLoWord(3); // → 64
 * ```
 * @group Double-double
 */
export function ddSplitLoWord(length: number): number {
  return Math.ceil((2 * length) / 64) * 64;
}

/** The two blocks of encoded words as doubles (copied: the words may sit at an offset a Float64Array cannot view). */
function blocks(words: Uint32Array, length: number): { hi: Float64Array; lo: Float64Array } {
  const lw = ddSplitLoWord(length);
  return {
    hi: new Float64Array(words.slice(0, 2 * length).buffer),
    lo: new Float64Array(words.slice(lw, lw + 2 * length).buffer),
  };
}

/**
 * Split double-double storage on the device: the span's hi doubles, padded to 256 bytes, then its lo doubles — the
 * bytes of a {@link DdSplitArray}'s two arrays. Read into the GPU dd arithmetic only (others are refused, as for
 * `dd`: they would drop lo); kernels run on an interleaved copy (see the module's notes).
 * @group Double-double
 */
export const ddSplitGpuPart: GpuStoragePart = {
  name: 'dd-split',
  elementsPerWord: 1,
  wordsPerElement: 4,
  significandBits: 106,
  unitRoundoff: 2 ** -106,
  scaled: false,
  writable: true,
  words: (length) => ddSplitLoWord(length) + 2 * length,
  encode(values) {
    // A number is the pair (value, 0): exact.
    const n = values.length;
    const words = new Uint32Array(Math.max(1, ddSplitLoWord(n) + 2 * n));
    new Float64Array(words.buffer, 0, n).set(Array.from(values));
    return { words };
  },
  decode(encoded, length) {
    const { hi, lo } = blocks(encoded.words, length);
    return Float64Array.from(hi, (h, k) => (lo[k] === 0 ? h : h + lo[k]!));
  },
  // An element read from a binding of the whole buffer, given the lo block's word offset `<array>Lo` (readArgs). The
  // built-in kernels do not bind it so: they read the interleaved copy (see the module's notes).
  emitRead(array, index, dst, arithmetic) {
    checkDdRead(arithmetic);
    return {
      code: `const ${dst}k = (${index}) * 2; const ${dst} = [${array}[${dst}k], ${array}[${dst}k + 1], ${array}[${array}Lo + ${dst}k], ${array}[${array}Lo + ${dst}k + 1]];`,
      register: { kind: 'dd', name: dst },
    };
  },
  readArgs: (array) => [[`${array}Lo`, 'Integer']],
  // A kernel's thread returns the pair's four words, as for dd: they go into the interleaved copy, whose pairs the
  // split-back passes then move into the two blocks.
  emitReturn: (values) => ddGpuPart.emitReturn(values),
};
