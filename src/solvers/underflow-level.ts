/**
 * Where an arithmetic stops keeping its full precision at the small end of its range, for solvers that must tell an
 * underflowed product from a true zero.
 * @module
 */
import type { ArithmeticFormat, StorageFormat } from '../formats/common/format.js';

const levels = new WeakMap<ArithmeticFormat<any>, number>();
const storageLevels = new WeakMap<StorageFormat<any, any>, number>();

/**
 * The smallest power of two 2^e at which `arithmetic` still holds 2^e·(1 + 2^(1−p)) exactly (p its significand bits,
 * at most a double's): its smallest normal number (2^-126 for fp32, 2^-1022 for fp64; float-float, whose low word is
 * an fp32, 2^-102). Below it, products and sums carry absolute errors of about this size, whatever their relative
 * precision above it. Probed once per arithmetic (fromNumber/toNumber), so a user's format needs no declared range;
 * 0 where no power of two from 2^-1022 to 1 holds it.
 */
export function smallestNormal(arithmetic: ArithmeticFormat<any>): number {
  let level = levels.get(arithmetic);
  if (level === undefined) {
    level = firstHeld(arithmetic.significandBits, (v) => arithmetic.toNumber(arithmetic.fromNumber(v)) === v);
    levels.set(arithmetic, level);
  }
  return level;
}

/** The smallest 2^e (e from −1022 to 0) whose 2^e·(1 + 2^(1−p)) `holds` (p: `bits`, at most 53); 0 where none does. */
function firstHeld(bits: number, holds: (v: number) => boolean): number {
  const p = Math.min(bits, 53);
  for (let e = -1022; e <= 0; e++) if (holds(2 ** e * (1 + 2 ** (1 - p)))) return 2 ** e;
  return 0;
}

/**
 * The smallest normal number of a storage whose elements are doubles (kind `number`: 2^-14 for fp16, 2^-126 for fp32
 * and bf16, 2^-1022 for fp64), probed once by storing 2^e·(1 + 2^(1−p)) into one element and reading it back; 0 for
 * other kinds (double-double and RNS storage hold at least a double's range, the arithmetic's level covers them).
 * Below it the vectors a solver stores (q = A·p among them) carry absolute errors of about this size.
 */
export function storageSmallestNormal(storage: StorageFormat<any, any>): number {
  let level = storageLevels.get(storage);
  if (level === undefined) {
    const data = storage.kind === 'number' && !storage.isInteger ? storage.allocate(1) : undefined;
    level = data === undefined ? 0 : firstHeld(storage.significandBits, (v) => { storage.encode(data, 0, v); return storage.decode(data, 0) === v; });
    storageLevels.set(storage, level);
  }
  return level;
}
