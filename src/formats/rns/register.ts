/**
 * Registers RNS formats with the core's registry: `rns106`, `rns212`, `rns424`, `rns848`, `rns1696` on import,
 * any other precision through {@link rnsFormat}. Tables are built lazily, on the first operation.
 * @module
 */
import { findFormat, registerBuiltinFormat, type Format } from '../common/registry.js';
import { rnsFormatPair } from './rns-formats.js';
import type { RnsNumber } from './rns-number-class.js';

/**
 * The registered RNS format of `precision` bits (storage: mp_array; arithmetic: RNS), registering it on first use.
 * @param precision - bits, an integer in [53, 4096]
 * @returns the format, usable wherever the core takes a format (also by its name `rns<precision>`)
 * @throws {@link ModprecError} `INVALID_SIZE` for a precision out of range
 * @example
 * ```ts
 * import { vector, dot, rnsFormat } from 'modprec';
 *
 * const rns300 = rnsFormat(300);   // 300-bit RNS storage and arithmetic
 * const x = vector([1, 2, 3], { storage: rns300, arithmetic: rns300 });
 * dot(x, x); // → 14
 * ```
 * @group RNS
 */
export function rnsFormat(precision: number): Format<RnsNumber> {
  const pair = rnsFormatPair(precision);
  return (findFormat(pair.name) as Format<RnsNumber> | undefined) ?? registerBuiltinFormat<RnsNumber>(pair);
}

/**
 * RNS at 106 bits.
 * @group RNS
 */
export const rns106 = rnsFormat(106);
/**
 * RNS at 212 bits.
 * @group RNS
 */
export const rns212 = rnsFormat(212);
/**
 * RNS at 424 bits.
 * @group RNS
 */
export const rns424 = rnsFormat(424);
/**
 * RNS at 848 bits.
 * @group RNS
 */
export const rns848 = rnsFormat(848);
/**
 * RNS at 1696 bits.
 * @group RNS
 */
export const rns1696 = rnsFormat(1696);
