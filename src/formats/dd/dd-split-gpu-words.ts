/**
 * The split double-double storage (`dd-split`: separate hi and lo arrays) on the device. One buffer holds a span of
 * S elements as the bytes of its two CPU arrays: the hi doubles (2S words, low word first), padded to a 256-byte
 * boundary, then the lo doubles — so an upload and a read-back copy the bytes of `hi` and `lo` as they are, and a
 * binding of either block may start at any 32-element boundary (WebGPU's 256-byte binding-offset alignment).
 *
 * The GPU kernels read dd-split operands in place, with dd's read (dd-gpu-words.ts, ddPairRead): the dispatch binds the
 * hi block to the operand's argument and the lo block to its `…DdLo` companion, over the elements the kernel planned as
 * for interleaved dd (src/backends/webgpu/dd-split-bindings.ts) — the same programs, the same pair words, bit for bit.
 * Outputs are written in place alike, by dd's pair store: the kernel's thread returns the pair's four words and the
 * store puts hi's into the hi block and lo's into the lo block through one binding of both
 * (src/backends/webgpu/dd-split-bindings.ts); where that binding cannot be made, an interleaved copy of the span and
 * two passes back (src/backends/webgpu/dd-split-device.ts).
 * @module
 */
import type { GpuStoragePart } from '../common/gpu-part.js';
import { ddGpuPart, ddPairRead, ddPairReadArgs } from './dd-gpu-words.js';

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
 * `dd`: they would drop lo), and written, in place (see the module's notes).
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
  // dd's read (ddPairRead): the dispatch binds `<array>` to the hi block and `<array>DdLo` to the lo block
  // (src/backends/webgpu/dd-split-bindings.ts), so kernels read the two blocks directly with dd's own programs.
  emitRead: ddPairRead,
  readArgs: ddPairReadArgs,
  // A kernel's thread returns the pair's four words, as for dd: the pair store writes them into the two blocks.
  emitReturn: (values) => ddGpuPart.emitReturn(values),
};
