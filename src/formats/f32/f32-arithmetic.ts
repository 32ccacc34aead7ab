/**
 * fp32 arithmetic on the CPU: every operation is computed in binary64 and rounded to binary32 with
 * `Math.fround`. For +, −, ×, ÷ and √ this equals the IEEE binary32 result, because binary64 has more
 * than 2·24 + 2 significand bits (Figueroa, "When is double rounding innocuous?", 1995).
 * a·b + c is two roundings (no fused multiply-add), as in a non-FMA binary32 unit.
 * @module
 */
import type { ArithmeticFormat, MpValueLike, Register } from '../common/format.js';
import { kindOfNumber, storeNumberInto } from '../f64/f64-arithmetic.js';
import { roundPairToOdd } from '../convert/round-to-odd.js';
import { builtinGpuArithmetic, BUILTIN_ARITHMETIC_GPU_FACTS } from '../common/gpu-facts.js';

const r = (reg: Register, i = 0): string => reg.names[i]!;
const F = 'Math.fround';

/** An mp value as a double-double (a fresh pair: the scalar path is not hot). */
function mpAsDd(v: MpValueLike): { hi: number; lo: number } {
  const out = { hi: 0, lo: 0 };
  v.toDoubleDouble(out);
  return out;
}

/**
 * IEEE binary32 arithmetic emulated exactly with Math.fround (u = 2^-24).
 * @group Formats
 */
export const f32Arithmetic: ArithmeticFormat<number> = builtinGpuArithmetic({
  name: 'f32',
  kind: 'number',
  significandBits: 24,
  unitRoundoff: 2 ** -24,
  fromNumber: (x) => Math.fround(x),
  toNumber: (v) => v,
  fromKind: (kind, v) => {
    if (kind === 'number') return Math.fround(v as number);
    // hi + lo rounded to odd, then to binary32: one rounding (an mp value first as a double-double with lo's sign).
    const p = kind === 'dd' ? (v as { hi: number; lo: number }) : mpAsDd(v as MpValueLike);
    return Math.fround(roundPairToOdd(p.hi, p.lo));
  },
  toKind: (kind, v) => kindOfNumber(kind, v),
  mul: (a, b) => Math.fround(a * b),
  div: (a, b) => Math.fround(a / b),
  register: (base) => ({ kind: 'number', names: [base] }),
  emitDeclare: (d) => `let ${r(d)} = 0;`,
  emitConvert: (d, s, bits) => {
    if (s.kind === 'number') return bits <= 24 ? `${r(d)} = ${r(s)};` : `${r(d)} = ${F}(${r(s)});`;
    // Rounding hi + lo through a double would round twice; round-to-odd first makes it one rounding.
    if (s.kind === 'dd') return `${r(d)} = ${F}(roundToOddDd(${r(s, 0)}, ${r(s, 1)}));`;
    // An mp value through its nearest double would round twice too: its double-double, rounded to odd.
    return `${r(s)}.toDoubleDouble(f32MpRead); ${r(d)} = ${F}(roundToOddDd(f32MpRead.hi, f32MpRead.lo));`;
  },
  emitExport: (d, s) => storeNumberInto(d, r(s)),
  emitSet: (d, a) => `${r(d)} = ${r(a)};`,
  emitAdd: (d, a, b) => `${r(d)} = ${F}(${r(a)} + ${r(b)});`,
  emitSub: (d, a, b) => `${r(d)} = ${F}(${r(a)} - ${r(b)});`,
  emitMul: (d, a, b) => `${r(d)} = ${F}(${r(a)} * ${r(b)});`,
  emitFma: (d, a, b, c) => `${r(d)} = ${F}(${F}(${r(a)} * ${r(b)}) + ${r(c)});`,
  emitDiv: (d, a, b) => `${r(d)} = ${F}(${r(a)} / ${r(b)});`,
  emitSqrt: (d, a) => `${r(d)} = ${F}(Math.sqrt(${r(a)}));`,
  emitAbs: (d, a) => `${r(d)} = Math.abs(${r(a)});`,
  emitNeg: (d, a) => `${r(d)} = -${r(a)};`,
  emitFromNumber: (d, e) => `${r(d)} = ${F}(${e});`,
  emitToNumber: (s) => r(s),
  helpers: { roundToOddDd: roundPairToOdd, f32MpRead: { hi: 0, lo: 0 } },
  // On the GPU: f32-gpu-arithmetic.ts (`gpu` once the GPU backend loads).
}, BUILTIN_ARITHMETIC_GPU_FACTS.f32);
