/**
 * Binding dd pair operands — interleaved `dd` and `dd-split` (dd-split-gpu-words.ts: a span's hi doubles, then, from
 * the next 256-byte boundary, its lo doubles) — for their common read (dd-gpu-words.ts, ddPairRead: hi's words from
 * `X`, lo's from `XDdLo`, element i at word i·`XDdS`, lo `XDdL` further). Kernels plan every binding of either as
 * interleaved dd (16 bytes an element: the same windows, the same `BACKEND_LIMIT`s, the same index uniforms); at
 * dispatch (program.ts) a dd-split buffer's planned binding becomes the same elements of its hi block for `X` and of
 * its lo block for `XDdLo` — each half the planned size, at half its offset (planned offsets are multiples of 128
 * elements, so both stay on 256-byte boundaries) — with stride 2 and lo at 0; any other buffer is bound to both with
 * stride 4 and lo at 2. Kernels thus read dd-split operands in place, with dd's programs, no copy.
 *
 * Outputs alike: a program whose output is a dd pair store (`pairOutput`) writes pair k's hi words at k·`OutDdS` and its
 * lo words `OutDdL` further (gpujs-extensions.ts, applyPairOutput); the dispatch binds a dd-split output as one window
 * from its first hi element through its last lo element, with stride 2 and the lo block's offset ({@link
 * pairOutputBinding}), interleaved dd with 4 and 2 — the same program for both, writing the hi and lo blocks in place.
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
 * Whether a storage format's elements are dd pairs in one of the two layouts (interleaved `dd`, `dd-split`): what a
 * program's {@link PAIR_OUTPUT_ARGS} store writes.
 * @param format - a storage format (its name)
 * @returns true for dd and dd-split
 */
export function isDdPairFormat(format: { readonly name: string }): boolean {
  return format.name === 'dd' || format.name === 'dd-split';
}

/**
 * Integer arguments of a program whose output is a dd pair store (program.ts, `pairOutput`): thread t's pair goes to
 * words t·`OutDdS` (hi) and that plus `OutDdL` (lo) of its output binding — 4 and 2 for interleaved dd; 2 and the lo
 * block's word offset for a dd-split buffer, whose binding then runs from the first hi element of the planned window
 * through its lo elements (see {@link pairOutputBinding}).
 */
export const PAIR_OUTPUT_ARGS: readonly (readonly [string, 'Integer'])[] = [['OutDdS', 'Integer'], ['OutDdL', 'Integer']];

/**
 * The output binding and pair placement of a dd pair store whose binding was planned as interleaved dd (16 bytes an
 * element). Over a dd-split buffer: one binding from the window's first hi element (half the planned offset, a 256-byte
 * boundary for windows starting on 32 elements) to its last lo element — hi words at stride 2, lo words the lo block's
 * offset further — so the hi and lo blocks are written in place by one writable binding (no interleaved copy, no
 * extra pass, no extra storage buffer). It spans the lo block's distance from the hi block: the caller keeps the
 * buffer within one storage binding (dd-split-device.ts). Any other buffer: the planned binding, stride 4, lo at 2.
 * @param planned - the planned output binding
 * @returns the binding and the `OutDdS`/`OutDdL` values
 */
export function pairOutputBinding(planned: BoundArray): { output: BoundArray; stride: number; lo: number } {
  const split = splitBuffers.get(planned.buffer);
  if (!split) return { output: planned, stride: 4, lo: 2 };
  const offset = (planned.offset ?? 0) / 2;
  if (offset % 256 !== 0) throw new Error(`internal: a dd-split output planned at byte ${planned.offset} is not on a 256-byte boundary of its blocks`);
  const planSize = planned.size ?? planned.buffer.size - (planned.offset ?? 0);
  const hiSize = Math.max(4, Math.min(planSize / 2, split.hiBytes - offset));
  return { output: { buffer: planned.buffer, offset, size: split.loByte + hiSize }, stride: 2, lo: split.loByte / 4 };
}

/**
 * The bindings and scalars of `pass` with the companions of each dd pair read `names` filled in (see the module's
 * notes), and with a dd pair store's output binding and placement ({@link pairOutputBinding}) where `pairOutput`:
 * `pass`'s own where there is nothing to fill.
 * @param pass - the planned pass
 * @param names - array arguments read by ddPairRead
 * @param fromOutput - arguments the program reads from its output binding (their pairs placed as the output's)
 * @param pairOutput - whether the program's output is a dd pair store
 * @returns arrays, scalars and output to dispatch with
 */
export function pairBindings(pass: Pass, names: readonly string[], fromOutput: readonly string[] | undefined, pairOutput: boolean): { arrays: Readonly<Record<string, BoundArray>>; scalars: Readonly<Record<string, number>>; output: BoundArray } {
  const arrays: Record<string, BoundArray> = { ...pass.arrays };
  const scalars: Record<string, number> = { ...pass.scalars };
  const out = pairOutput ? pairOutputBinding(pass.output) : { output: pass.output, stride: 4, lo: 2 };
  if (pairOutput) {
    scalars.OutDdS = out.stride;
    scalars.OutDdL = out.lo;
  }
  for (const name of names) {
    const planned = arrays[name];
    if (!planned || arrays[`${name}${DD_LO_SUFFIX}`]) continue;
    if (fromOutput?.includes(name)) {
      // Read from the output binding (gpujs-extensions.ts, applyInputsFromOutput): its pairs sit as the output's.
      arrays[`${name}${DD_LO_SUFFIX}`] = planned;
      scalars[`${name}DdS`] ??= out.stride;
      scalars[`${name}DdL`] ??= out.lo;
      continue;
    }
    const halves = ddSplitHalves(planned);
    if (halves) {
      arrays[name] = halves.hi;
      arrays[`${name}${DD_LO_SUFFIX}`] = halves.lo;
    } else {
      arrays[`${name}${DD_LO_SUFFIX}`] = planned;
    }
    scalars[`${name}DdS`] ??= halves ? 2 : 4;
    scalars[`${name}DdL`] ??= halves ? 0 : 2;
  }
  return { arrays, scalars, output: out.output };
}
