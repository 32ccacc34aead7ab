/** gmp-wasm's MPFR as an independent oracle: exact transfer of rationals in and out. */
import { init, type CalculateTypeWithDestroy } from 'gmp-wasm';
import { q, type Q } from './oracle.js';

let lib: Awaited<ReturnType<typeof init>> | undefined;

/** An MPFR context at `precisionBits` (round to nearest); destroy it after use. */
export async function mpfrContext(precisionBits: number): Promise<CalculateTypeWithDestroy> {
  lib ??= await init();
  return lib.getContext({ precisionBits });
}

/** The part of gmp-wasm's Float the tests use (its published declaration omits the methods). */
export interface MpfrFloat {
  add(v: MpfrFloat): MpfrFloat;
  sub(v: MpfrFloat): MpfrFloat;
  mul(v: MpfrFloat): MpfrFloat;
  isZero(): boolean;
  toString(radix?: number): string;
}

/** An MPFR float of the exact rational (rounded to the context precision). */
export function toMpfr(ctx: CalculateTypeWithDestroy, v: Q): MpfrFloat {
  const f = v.num === 0n ? ctx.Float(0) : ctx.Float(ctx.Rational(v.num.toString(), v.den.toString()));
  return f as unknown as MpfrFloat;
}

/** The exact value of an MPFR float as a rational. */
export function fromMpfr(f: MpfrFloat): Q {
  if (f.isZero()) return q(0n);
  // toRational() rejects non-integers in this gmp-wasm version; the binary string is exact.
  const s = f.toString(2);
  const m = /^(-?)([01]*)(?:\.([01]*))?$/.exec(s);
  if (!m) throw new Error(`unexpected MPFR binary string ${s.slice(0, 40)}`);
  const frac = m[3] ?? '';
  const digits = BigInt('0b' + ((m[2] ?? '') + frac || '0'));
  return q(m[1] === '-' ? -digits : digits, 1n << BigInt(frac.length));
}
