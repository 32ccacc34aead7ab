/**
 * A kernel's store may refuse an element once others are written: RNS storage holds no NaN or ±∞ that an IEEE
 * arithmetic (fp64, fp32, ff, dd) may compute, and a user's storage format may throw in its write; which element,
 * and whether any, is known only once computed. The generated store reports such a refusal with the element's
 * position, before touching it (src/backends/cpu/store-failure.ts); the elements written before it are put back
 * here from a copy taken before the run, so a failing call leaves the output exactly as it was, and the error names
 * the element in the caller's range (`y[1]`). The copy is taken only for such outputs: no other output pays for it.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat, StorageFormat } from '../../src/formats/common/format.js';
import { StoreFailure, storeMayRefuse } from '../../src/backends/cpu/store-failure.js';

type TypedArray = Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array | Uint32Array;

/**
 * A copy of elements `positions` of a buffer, and how to put them back: a typed array's own words (a user's format
 * need not decode and encode back to the same bits), or else the storage's exact values (RNS: the same residues).
 */
function keep(st: StorageFormat, data: unknown, positions: readonly number[]): () => void {
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
    const words = data as TypedArray, w = st.wordsPerElement ?? 1;
    const kept = positions.map((p) => Array.from(words.subarray(p * w, p * w + w) as ArrayLike<number>));
    return () => positions.forEach((p, k) => words.set(kept[k]!, p * w));
  }
  const kept = positions.map((p) => st.decode(data as never, p));
  return () => positions.forEach((p, k) => st.encode(data as never, p, kept[k] as never));
}

/**
 * Runs `run` (the kernel's computation writing `out`); when a store into `out` is refused, restores every element
 * of `out` and throws `INVALID_VALUE` naming `name[i]`, i the element's index in `out`. Nested calls (a kernel that
 * runs itself on sub-ranges) rename the element in their own range.
 * @param out - the output range (1-D)
 * @param name - its public parameter name (`y`, `x`, `w`)
 * @param ar - the arithmetic the kernel computes in
 * @param run - the computation
 * @throws {@link ModprecError} `INVALID_VALUE` naming `name[i]` (a non-finite result for an RNS-stored output, or a
 *   value a user's storage refused); any other error of `run` unchanged (the output restored as well)
 * @example
 * ```ts
 * restoringOutput(y, 'y', ar, () => f(n, ...operandArgs(x, y), alpha));
 * ```
 */
export function restoringOutput<T>(out: Range<1, any>, name: string, ar: ArithmeticFormat, run: () => T): T {
  const a = out.accessor, st = a.storage;
  if (!storeMayRefuse(st, ar)) return run();
  const restore = keep(st, a.data, Array.from({ length: out.length() }, (_, i) => a.linearIndex([i])));
  try {
    return run();
  } catch (e) {
    restore();
    if (!(e instanceof StoreFailure)) throw e;
    const i = (e.position - a.offset) / (a.strides[0] as number);
    throw new StoreFailure(e.position, e.reason, `${name}[${i}]`, st.name);
  }
}
