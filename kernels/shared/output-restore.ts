/**
 * A kernel whose output is RNS storage and whose arithmetic is IEEE (fp64, fp32, ff, dd) may compute a NaN or ±∞
 * for an element that storage cannot hold; which element, and whether any, is known only once computed. The
 * generated store refuses such a value before touching the element (src/backends/cpu/store-failure.ts); the
 * elements written before it are put back here from a copy taken before the run, so a failing call leaves the
 * output exactly as it was, and the error names the element in the caller's range (`y[1]`). The copy is taken only
 * for that pairing of storage and arithmetic: no other output pays for it.
 * @module
 */
import type { Range } from '../../src/core/range.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { StoreFailure, storeChecksFinite } from '../../src/backends/cpu/store-failure.js';

/**
 * Runs `run` (the kernel's computation writing `out`); when a store into `out` is refused as not finite, restores
 * every element of `out` and throws `INVALID_VALUE` naming `name[i]`, i the element's index in `out`. Nested calls
 * (a kernel that runs itself on sub-ranges) rename the element in their own range.
 * @param out - the output range (1-D)
 * @param name - its public parameter name (`y`, `x`, `w`)
 * @param ar - the arithmetic the kernel computes in
 * @param run - the computation
 * @throws {@link ModprecError} `INVALID_VALUE` naming `name[i]` (a non-finite result for an RNS-stored output);
 *   any other error of `run` unchanged (the output restored as well)
 * @example
 * ```ts
 * restoringOutput(y, 'y', ar, () => f(n, ...operandArgs(x, y), alpha));
 * ```
 */
export function restoringOutput<T>(out: Range<1, any>, name: string, ar: ArithmeticFormat, run: () => T): T {
  const a = out.accessor, st = a.storage;
  if (!storeChecksFinite(st, ar)) return run();
  const n = out.length();
  const at = (i: number): number => a.linearIndex([i]);
  const kept = Array.from({ length: n }, (_, i) => st.decode(a.data as never, at(i)));
  try {
    return run();
  } catch (e) {
    // Elements of one set decode to exact numbers and encode back exactly (the same residues).
    for (let i = 0; i < n; i++) st.encode(a.data as never, at(i), kept[i] as never);
    if (!(e instanceof StoreFailure)) throw e;
    const i = (e.position - a.offset) / (a.strides[0] as number);
    throw new StoreFailure(e.position, e.value, `${name}[${i}]`, st.name);
  }
}
