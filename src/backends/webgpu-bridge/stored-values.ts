/**
 * The values a range STORES, exactly (its storage codec's decode, no conversion to the range's arithmetic), in
 * the packed order the GPU upload takes: a vector in index order, a matrix column-major. Reading through
 * `range.get` instead would round each value to the range's arithmetic first (f64 data read as f32 arithmetic
 * would be uploaded already rounded), which the GPU then reads again: two roundings where the CPU has one.
 * @module
 */
import type { Range } from '../../core/range.js';

/**
 * A range's stored values, packed: 1-D in index order, 2-D column-major ((i, j) at i + j·rows).
 * @param r - an unscaled range whose storage decodes to numbers
 * @param keep - for a matrix, which elements to read (others are 0; ELL padding is never read)
 * @returns the values (a Float32Array view for contiguous f32 storage: its bits are uploaded as they are)
 * @example
 * ```ts
 * storedValues(vector([0.1], { storage: formats.f64, arithmetic: formats.f32 })); // Float64Array [0.1]
 * ```
 */
export function storedValues(r: Range<any, any>, keep?: (i: number, j: number) => boolean): Float64Array | Float32Array {
  const a = r.accessor;
  const data = a.data as never;
  const decode = (k: number): number => a.storage.decode(data, k) as number;
  if (a.dimensionality === 1) {
    const n = a.size[0] as number;
    const s = a.strides[0] as number;
    if (s === 1 && (a.data instanceof Float32Array || a.data instanceof Float64Array)) return a.data.subarray(a.offset, a.offset + n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = decode(a.offset + i * s);
    return out;
  }
  const [m, n] = a.size as readonly number[] as [number, number];
  const [s0, s1] = a.strides as readonly number[] as [number, number];
  const out = new Float64Array(m * n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < m; i++) if (!keep || keep(i, j)) out[i + j * m] = decode(a.offset + i * s0 + j * s1);
  }
  return out;
}
