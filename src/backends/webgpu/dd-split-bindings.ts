/**
 * Binding dd pair operands — interleaved `dd` and `dd-split` (dd-split-gpu-words.ts: a span's hi doubles, then, from
 * the next 256-byte boundary, its lo doubles) — for their common read (dd-gpu-words.ts, ddPairRead: hi's words from
 * `X`, lo's from `XDdLo`, element i at word i·`XDdS`, lo `XDdL` further). Kernels plan every binding of either as
 * interleaved dd (16 bytes an element: the same windows, the same `BACKEND_LIMIT`s, the same index uniforms); at
 * dispatch (program.ts) a dd-split buffer's planned binding becomes the same elements of its hi block for `X` and of
 * its lo block for `XDdLo` — each half the planned size, at half its offset (planned offsets are multiples of 128
 * elements, so both stay on 256-byte boundaries) — with stride 2 and lo at 0; any other buffer is bound to both with
 * stride 4 and lo at 2. Kernels thus read dd-split operands in place, with dd's programs, no copy.
 * @module
 */
import type { BoundArray, Pass } from './program.js';
import type { GpuBuffer } from './webgpu-types.js';

/** Suffix of the lo block's array argument beside an operand's own (hi block) argument. */
export const DD_LO_SUFFIX = 'DdLo';

/** Byte offset of the lo block and byte size of the hi block of each dd-split buffer. */
const splitBuffers = new WeakMap<GpuBuffer, { readonly loByte: number; readonly hiBytes: number }>();

/**
 * Records that `buffer` holds a dd-split span of `spanLength` elements whose lo block starts at word `loWord`.
 * @param buffer - the device buffer
 * @param spanLength - elements of the span
 * @param loWord - word index of the lo block
 */
export function registerDdSplitBuffer(buffer: GpuBuffer, spanLength: number, loWord: number): void {
  splitBuffers.set(buffer, { loByte: 4 * loWord, hiBytes: 8 * spanLength });
}

/**
 * The hi and lo bindings of a binding planned as interleaved dd over a dd-split buffer (undefined for any other buffer).
 * @param planned - the planned binding (offset and size in interleaved bytes: 16 an element)
 * @returns the hi block's and the lo block's bindings
 */
export function ddSplitHalves(planned: BoundArray): { hi: BoundArray; lo: BoundArray } | undefined {
  const split = splitBuffers.get(planned.buffer);
  if (!split) return undefined;
  const offset = (planned.offset ?? 0) / 2;
  if (offset % 256 !== 0) throw new Error(`internal: a dd-split binding planned at byte ${planned.offset} is not on a 256-byte boundary of its blocks`);
  const planSize = planned.size ?? planned.buffer.size - (planned.offset ?? 0);
  // At least one word; never past the block (a binding of the whole buffer plans more than the span's pairs).
  const size = Math.max(4, Math.min(planSize / 2, split.hiBytes - offset));
  return { hi: { buffer: planned.buffer, offset, size }, lo: { buffer: planned.buffer, offset: split.loByte + offset, size } };
}

/**
 * The bindings and scalars of `pass` with the companions of each dd pair read `names` filled in (see the module's
 * notes): `pass`'s own where there is nothing to fill.
 * @param pass - the planned pass
 * @param names - array arguments read by ddPairRead
 * @param fromOutput - arguments the program reads from its output binding (an interleaved dd output: stride 4)
 * @returns arrays and scalars to dispatch with
 */
export function pairBindings(pass: Pass, names: readonly string[], fromOutput: readonly string[] | undefined): { arrays: Readonly<Record<string, BoundArray>>; scalars: Readonly<Record<string, number>> } {
  const arrays: Record<string, BoundArray> = { ...pass.arrays };
  const scalars: Record<string, number> = { ...pass.scalars };
  for (const name of names) {
    const planned = arrays[name];
    if (!planned || arrays[`${name}${DD_LO_SUFFIX}`]) continue;
    const halves = fromOutput?.includes(name) ? undefined : ddSplitHalves(planned);
    if (halves) {
      arrays[name] = halves.hi;
      arrays[`${name}${DD_LO_SUFFIX}`] = halves.lo;
    } else {
      arrays[`${name}${DD_LO_SUFFIX}`] = planned;
    }
    scalars[`${name}DdS`] ??= halves ? 2 : 4;
    scalars[`${name}DdL`] ??= halves ? 0 : 2;
  }
  return { arrays, scalars };
}
