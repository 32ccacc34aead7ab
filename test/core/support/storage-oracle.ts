/**
 * What a storage keeps, from the conversion functions (not from the accessor under test), and the exact
 * value of what an accessor holds, as a BigInt rational.
 */
import { roundToF32, roundToF16, roundToBf16, roundToInt8, roundToInt16, roundToInt32 } from '../../../src/formats/convert/index.js';
import type { Range } from '../../../src/core/range.js';
import { exactOf } from '../../../src/testing/exact.js';
import { mulRational, type Rational } from '../../../src/testing/rational.js';

/** Names of the built-in storage formats. */
export type StorageName = 'f64' | 'f32' | 'f16' | 'bf16' | 'i8' | 'i16' | 'i32';
/** The floating-point ones. */
export const FLOAT_STORAGES = ['f64', 'f32', 'f16', 'bf16'] as const;
/** The integer ones (scaled accessors only). */
export const INTEGER_STORAGES = ['i8', 'i16', 'i32'] as const;

const ROUNDERS: Record<StorageName, (x: number) => number> = {
  f64: (x) => x, f32: roundToF32, f16: roundToF16, bf16: roundToBf16, i8: roundToInt8, i16: roundToInt16, i32: roundToInt32,
};

/** The value `x` becomes when stored in `storage` (correctly rounded; integers round to nearest even and saturate). */
export function storageRound(storage: StorageName, x: number): number {
  return ROUNDERS[storage](x);
}

/** The raw decoded element at `index` (no scale): a double, possibly NaN or ±∞. */
export function storedElement(r: Range<any, any>, index: readonly number[]): number {
  const a = r.accessor;
  return a.storage.decode(a.data as never, a.linearIndex(index)) as number;
}

/** The exact value the accessor holds at `index`: the stored element times its scale. Finite elements only. */
export function storedExact(r: Range<any, any>, index: readonly number[]): Rational {
  const a = r.accessor;
  const v = exactOf(storedElement(r, index));
  return a.scale ? mulRational(v, exactOf(a.scale.data[a.scaleIndex(index)]!)) : v;
}

/** The exact values of a 1-D range, in index order. */
export function storedVector(r: Range<1, any>): Rational[] {
  const out: Rational[] = [];
  for (let i = 0; i < r.length(); i++) out.push(storedExact(r, [i]));
  return out;
}
