/**
 * The GPU runs' writes through a storage codec on the CPU (DOT's `into`, outputs whose device words are decoded and
 * written back, RNS results): a user's storage whose write throws is treated as the CPU kernels' stores treat it.
 * @module
 */
import type { Range } from '../../core/range.js';
import type { ArithmeticFormat } from '../../formats/common/format.js';
import { restoringOutput } from '../../../kernels/shared/output-restore.js';
import { storeCatches, storeThrew } from '../cpu/store-failure.js';

/**
 * Writes elements 0…n−1 of `r` by its storage codec (`write(i)`). A user's storage whose write throws is INVALID_VALUE
 * naming `name[i]` with the format's error as `cause`, and `r` is put back as it was, as the CPU kernels do
 * (kernels/shared/output-restore.ts, src/backends/cpu/store-failure.ts). Without `name` (a caller that does not say
 * its output's public name) the format's error passes as it is.
 * @param r - the output range
 * @param name - its public parameter name (`y`, `options.into`, …)
 * @param ar - the arithmetic of the call
 * @param write - writes element i
 * @throws {@link ModprecError} `INVALID_VALUE` naming `name[i]`
 * @example
 * ```ts
 * codecWrites(y, 'y', call.arithmetic, (i) => st.encode(data, y.accessor.linearIndex([i]), v[i]));
 * ```
 */
export function codecWrites(r: Range<1, any>, name: string | undefined, ar: ArithmeticFormat, write: (i: number) => void): void {
  const a = r.accessor, n = r.length();
  if (name === undefined || !storeCatches(a.storage)) {
    for (let i = 0; i < n; i++) write(i);
    return;
  }
  restoringOutput(r, name, ar, () => {
    for (let i = 0; i < n; i++) {
      try { write(i); } catch (e) { storeThrew(a.linearIndex([i]), e, a.storage.name); }
    }
  });
}
