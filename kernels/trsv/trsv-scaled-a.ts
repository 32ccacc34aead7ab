/**
 * A scaled A (one scale, or one per row, column or element) as the JavaScript TRSV reads it, for the column-oriented
 * WebAssembly solves summed in double-double (./trsv-dd-wasm.ts, ./trsv-dd-sum-wasm.ts): each element is the stored
 * value times its scale — in double-double arithmetic the template's product (v, 0)·(s, 0) (double-double storage: its
 * pair), the guarded template itself, zero-sign repair included; in fp64 arithmetic the double fl(v·s). A column is
 * staged already scaled (pairs interleaved as dd storage, or doubles), so the kernels' unscaled column steps run on it.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { ddGuardedMul } from '../../src/formats/dd/guarded.js';
import { numberAt } from '../../src/backends/wasm/wasm-storage.js';

/** The scale of T's element (i, j): one scale, or one per row, column or element (1 when T is unscaled). */
export function scaleAt(T: Accessor<2, any>, i: number, j: number): number {
  const s = T.scale;
  return s ? s.data[s.offset + i * s.strides[0]! + j * s.strides[1]!]! : 1;
}

/** out := T's element (i, j) as double-double arithmetic reads it (the pair (v, 0), or dd storage's, times (s, 0) when scaled). */
export function ddElementAt(T: Accessor<2, any>, i: number, j: number, out: Float64Array): void {
  const [ld, cs] = T.strides as [number, number];
  const v = T.storage.decode(T.data as never, T.offset + i * ld + j * cs) as number | { hi: number; lo: number };
  const [h, l] = typeof v === 'number' ? [v, 0] : [v.hi, v.lo];
  if (T.scale) ddGuardedMul(out, h, l, scaleAt(T, i, j), 0);
  else { out[0] = h; out[1] = l; }
}

/** T's element (i, j) as fp64 arithmetic reads it: its value (dd storage: hi + lo), times the scale in one rounding. */
export function numberElementAt(T: Accessor<2, any>, i: number, j: number): number {
  const [ld, cs] = T.strides as [number, number];
  const v = numberAt(T, T.offset + i * ld + j * cs);
  return T.scale ? v * scaleAt(T, i, j) : v;
}

/**
 * Stages T's elements (from + k, j) for k < count at byte address `address` of `buffer`, zero-padded to `padded`
 * elements: as pairs interleaved (`pairs`, double-double arithmetic) or as doubles (fp64 arithmetic), read as
 * {@link ddElementAt} and {@link numberElementAt} read them.
 */
export function stageScaledColumn(T: Accessor<2, any>, from: number, count: number, j: number, address: number, padded: number, buffer: ArrayBuffer, pairs: boolean): void {
  const view = new Float64Array(buffer, address, pairs ? 2 * padded : padded);
  if (pairs) {
    const q = new Float64Array(2);
    for (let k = 0; k < count; k++) { ddElementAt(T, from + k, j, q); view[2 * k] = q[0]!; view[2 * k + 1] = q[1]!; }
    view.fill(0, 2 * count);
  } else {
    for (let k = 0; k < count; k++) view[k] = numberElementAt(T, from + k, j);
    view.fill(0, count);
  }
}
