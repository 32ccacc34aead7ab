/**
 * Formats a user defines in application code, through the public entry only (docs/guide.md §4): a table-coded 8-bit
 * storage (posit-like: a sorted code book, saturating), a logarithmic 16-bit storage, a fixed-point integer storage used
 * under its own scale, and an arithmetic that rounds every operation to 16 significand bits.
 */
import {
  createBinaryRounder, registerFormat, typedArrayStorage, type ArithmeticFormat, type Format, type Register,
} from '../../src/index.js';

// ---- tb8: sign bit, 3 exponent bits (2^-3 … 2^4), 4 fraction bits; code 0 is zero, 0x80 is NaN; saturating. ----
const magnitudes: number[] = [];
for (let e = -3; e <= 4; e++) for (let f = 0; f < 16; f++) magnitudes.push((1 + f / 16) * 2 ** e);
magnitudes[0] = 0;
/** Every value of tb8 by code. */
export const tb8Table = new Float64Array(256);
for (let c = 0; c < 128; c++) { tb8Table[c] = magnitudes[c]!; tb8Table[c + 128] = -magnitudes[c]!; }
tb8Table[128] = NaN;
/** Nearest code (ties to the even code), saturating at ±31; NaN to 0x80. */
export function tb8Encode(x: number): number {
  if (x !== x) return 128;
  const a = Math.min(Math.abs(x), magnitudes[127]!);
  let lo = 0, hi = 127;
  while (hi - lo > 1) { const m = (lo + hi) >> 1; if (magnitudes[m]! <= a) lo = m; else hi = m; }
  const dl = a - magnitudes[lo]!, dh = magnitudes[hi]! - a;
  const c = dl < dh ? lo : dh < dl ? hi : lo % 2 === 0 ? lo : hi;
  return c === 0 ? 0 : x < 0 ? c + 128 : c;
}
/** tb8's declared underflow error: half its smallest magnitude (it has no subnormals). */
export const TB8_UNDERFLOW = 1.0625 * 2 ** -4;
/** The value tb8 stores for x. */
export const tb8Round = (x: number): number => tb8Table[tb8Encode(x)]!;

// ---- lns16: bit 15 sign, 15 bits of log2|x| in steps of 1/256, biased by 16384; code 0 is zero. ----
/** The value of an lns16 code. */
export function lnsDecode(b: number): number {
  const m = b & 0x7fff;
  const v = m === 0 ? 0 : 2 ** ((m - 16384) / 256);
  return b & 0x8000 ? -v : v;
}
/** Nearest code in the logarithm (relative error ≤ 2^(1/512) − 1); magnitudes below the range go to the smallest. */
export function lnsEncode(x: number): number {
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === 0 || a !== a) return s;
  return s | Math.min(0x7fff, Math.max(1, Math.round(Math.log2(a) * 256) + 16384));
}
/** What lns16 stores for x. */
export const lnsRound = (x: number): number => lnsDecode(lnsEncode(x));
/** lns16's declared unit roundoff: half a step of the logarithm, relative, with a margin for Math.log2's own error. */
export const LNS_U = (2 ** (1 / 512) - 1) * (1 + 2 ** -30);

// ---- q32: a fixed-point integer storage (Int32, nearest even, saturating), used through a scaled accessor. ----
/** Nearest integer, ties to even, saturating at ±(2^31 − 1); NaN to 0. */
export const q32Encode = (x: number): number => {
  if (x !== x) return 0;
  const r = Math.round(x), t = r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
  return Math.max(-2147483647, Math.min(2147483647, t)) || 0;   // −0 is the integer 0
};

// ---- r16: every operation rounded to 16 significand bits (binary64's exponent range). ----
/** Rounds a double to 16 significand bits, once, correctly. */
export const r16Round = createBinaryRounder({ significandBits: 16, minExponent: -1022, maxExponent: 1023 });
const v = (r: Register, i = 0): string => r.names[i]!;
const R = 'userR16Round';
const r16Arithmetic: ArithmeticFormat<number> = {
  name: 'user-r16', kind: 'number', significandBits: 16, unitRoundoff: 2 ** -16,
  fromNumber: r16Round, toNumber: (x) => x,
  fromKind: (kind, x) => (kind === 'number' ? r16Round(x as number) : r16Round((x as { hi: number }).hi)),
  toKind: (kind, x) => (kind === 'dd' ? { hi: x, lo: 0 } : x),
  mul: (a, b) => r16Round(a * b), div: (a, b) => r16Round(a / b),
  register: (base) => ({ kind: 'number', names: [base] }),
  emitDeclare: (d) => `let ${v(d)} = 0;`,
  // A double has 53 ≥ 2·16 + 2 bits: rounding an exact double result to 16 bits is the correctly rounded operation.
  emitConvert: (d, s) => `${v(d)} = ${R}(${v(s)});`,
  emitExport: (d, s) => (d.kind === 'dd' ? `${v(d, 0)} = ${v(s)}; ${v(d, 1)} = 0;` : `${v(d)} = ${v(s)};`),
  emitSet: (d, a) => `${v(d)} = ${v(a)};`,
  emitAdd: (d, a, b) => `${v(d)} = ${R}(${v(a)} + ${v(b)});`,
  emitSub: (d, a, b) => `${v(d)} = ${R}(${v(a)} - ${v(b)});`,
  emitMul: (d, a, b) => `${v(d)} = ${R}(${v(a)} * ${v(b)});`,
  emitFma: (d, a, b, c) => `${v(d)} = ${R}(${R}(${v(a)} * ${v(b)}) + ${v(c)});`,
  emitDiv: (d, a, b) => `${v(d)} = ${R}(${v(a)} / ${v(b)});`,
  emitSqrt: (d, a) => `${v(d)} = ${R}(Math.sqrt(${v(a)}));`,
  emitAbs: (d, a) => `${v(d)} = Math.abs(${v(a)});`,
  emitNeg: (d, a) => `${v(d)} = -${v(a)};`,
  emitFromNumber: (d, e) => `${v(d)} = ${R}(${e});`,
  emitToNumber: (s) => v(s),
  helpers: { [R]: r16Round },
};

/** The registered formats. */
export const tb8: Format = registerFormat({
  name: 'user-tb8',
  storage: typedArrayStorage<Uint8Array>({
    name: 'user-tb8', array: Uint8Array, significandBits: 5, unitRoundoff: 2 ** -5, isInteger: false, maxValue: 31,
    // No subnormals: below 2^-3 a value goes to 0 or to the smallest magnitude 1.0625·2^-3, half of which it may miss by.
    underflowError: TB8_UNDERFLOW,
    encodeHelper: { name: 'userTb8Encode', fn: tb8Encode }, decodeHelper: { name: 'userTb8Decode', fn: (b) => tb8Table[b]!, table: tb8Table },
  }),
});
export const lns16: Format = registerFormat({
  name: 'user-lns16',
  storage: typedArrayStorage<Uint16Array>({
    name: 'user-lns16', array: Uint16Array, significandBits: 9, unitRoundoff: LNS_U, isInteger: false, maxValue: lnsDecode(0x7fff),
    // Below the smallest magnitude 2^(-16383/256) a value rounds up to it: off by less than it.
    underflowError: lnsDecode(1),
    encodeHelper: { name: 'userLnsEncode', fn: lnsEncode }, decodeHelper: { name: 'userLnsDecode', fn: lnsDecode },
  }),
});
export const q32: Format = registerFormat({
  name: 'user-q32',
  storage: typedArrayStorage<Int32Array>({
    name: 'user-q32', array: Int32Array, significandBits: 31, unitRoundoff: NaN, isInteger: true, maxValue: 2147483647,
    encodeHelper: { name: 'userQ32Encode', fn: q32Encode },
  }),
});
export const r16: Format<number> = registerFormat({ name: 'user-r16', arithmetic: r16Arithmetic });
