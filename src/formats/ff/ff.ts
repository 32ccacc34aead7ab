/**
 * Float-float (`ff`) as an arithmetic format of the core: registers are pairs [x_hi, x_lo] of binary32 values
 * (kind `dd`: two doubles that happen to hold binary32 numbers), every operation is one of the functions of
 * ./ff-ops.ts — the GPU's float-float algorithms emulated exactly with Math.fround. So every CPU kernel runs in
 * float-float, the GPU backend's precise arithmetic, and a kernel given `arithmetic: formats.ff` computes the
 * same way on both backends (the CPU fallback of `backend: 'gpu'` is this arithmetic, not binary64).
 *
 * Precision: about 48 significand bits while both words are normal binary32 numbers (|x| ≥ 2^-102); binary32's
 * exponent range (overflow above ~3.4e38). Like the GPU templates, the operations do not repair non-finite
 * intermediates: an overflow or an infinite operand gives NaN (the error-free transformations compute ∞ − ∞).
 * @module
 */
import type { ArithmeticFormat, Register, ValueKind, MpValueLike } from '../common/format.js';
import { fail } from '../../core/errors.js';
import { roundPairToOdd } from '../convert/round-to-odd.js';
import { builtinGpuArithmetic, BUILTIN_ARITHMETIC_GPU_FACTS } from '../common/gpu-facts.js';
import { ffAddInto, ffMulInto, ffFmaInto, ffDivInto, ffSqrtInto, ffFromNumberInto, ffFromPairInto } from './ff-ops.js';

/**
 * The unit roundoff the core's γ_n bounds use for float-float: it must bound every operation's relative error.
 * With u = 2^-24: accurate addition ≤ 3u², pair × pair ≤ 5u², a multiply-add ≤ 8u²; the one-correction division
 * and square root stay below 16u² = 2^-44, which is the value used (the GPU tests' figure too).
 * @group Formats
 */
export const FF_UNIT_ROUNDOFF = 2 ** -44;

/**
 * A float-float value (kind `dd`): hi and lo are binary32 numbers, |lo| ≤ ulp₃₂(hi)/2.
 * @group Formats
 */
export interface FfValue {
  readonly hi: number;
  readonly lo: number;
}

const scratch = new Float64Array(2);
const pairOf = (out: Float64Array): FfValue => ({ hi: out[0]!, lo: out[1]! });

/**
 * Scalar: an exact value of `kind` rounded to float-float. A number from a storage of at most 24 bits is a binary32
 * value, taken as it is (subnormals included), as emitConvert reads it: range.get of f32 storage read 1e-40 as 0 where
 * every kernel read it.
 */
function ffOfKind(kind: ValueKind, v: unknown, sourceBits = 53): FfValue {
  switch (kind) {
    case 'number':
      if (sourceBits <= 24) { scratch[0] = v as number; scratch[1] = 0; } else ffFromNumberInto(scratch, v as number);
      break;
    case 'dd': ffFromPairInto(scratch, (v as FfValue).hi, (v as FfValue).lo); break;
    case 'mp': ffFromNumberInto(scratch, (v as MpValueLike).toNumber()); break;
  }
  // A zero (±0, or a value below binary32's normal range, flushed to a signed zero) as (z, z): hi + lo of (−0, +0) is +0.
  if (scratch[0] === 0) scratch[1] = scratch[0];
  return pairOf(scratch);
}

/** hi + lo rounded to odd at 53 bits (through an exact Fast2Sum in binary64), for one correct later rounding. */
function ffRoundToOdd(hi: number, lo: number): number {
  if (lo === 0) return hi;
  const s = hi + lo;
  return roundPairToOdd(s, lo - (s - hi));
}

const dst = (r: Register): [string, string] => {
  if (r.kind !== 'dd') throw new Error(`modprec: ff arithmetic got a register of kind ${r.kind}`);
  return [r.names[0]!, r.names[1]!];
};
/** A source register as a pair; a `number` register (an exact binary32 read) has a zero tail. */
const src = (r: Register): [string, string] => (r.kind === 'number' ? [r.names[0]!, '0'] : dst(r));
/** Statements: call `fn` into the shared scratch pair, then copy it into `d`. */
const call = (d: Register, fn: string, args: readonly string[]): string => {
  const [h, l] = dst(d);
  return `${fn}(ffOut, ${args.join(', ')}); ${h} = ffOut[0]; ${l} = ffOut[1];`;
};

/**
 * Float-float arithmetic (about 48 bits; unit roundoff for bounds {@link FF_UNIT_ROUNDOFF}).
 * @group Formats
 */
export const ffArithmetic: ArithmeticFormat<FfValue> = builtinGpuArithmetic({
  name: 'ff',
  kind: 'dd',
  significandBits: 48,
  unitRoundoff: FF_UNIT_ROUNDOFF,
  fromNumber: (x) => ffOfKind('number', x),
  // hi − (0 − lo): a zero lo keeps hi's zero (hi + lo turns (−0, +0) into +0).
  toNumber: (v) => v.hi - (0 - v.lo),
  fromKind: ffOfKind,
  toKind: (kind, v, targetBits) => {
    switch (kind) {
      case 'number': return targetBits < 53 ? ffRoundToOdd(v.hi, v.lo) : v.hi - (0 - v.lo);
      // s = hi exactly when the head is ±∞ (its tail is 0): lo 0 there, where s − hi would be ∞ − ∞ = NaN.
      case 'dd': { const s = v.hi - (0 - v.lo); return { hi: s, lo: v.lo - (s === v.hi ? 0 : s - v.hi) }; }
      case 'mp': return fail('INVALID_FORMAT', 'storage', 'of kind mp must be written through its own encode()', kind);
    }
  },
  mul: (a, b) => { ffMulInto(scratch, a.hi, a.lo, b.hi, b.lo); return pairOf(scratch); },
  div: (a, b) => { ffDivInto(scratch, a.hi, a.lo, b.hi, b.lo); return pairOf(scratch); },

  register: (base) => ({ kind: 'dd', names: [`${base}_hi`, `${base}_lo`] }),
  emitDeclare: (r) => `let ${r.names[0]} = 0, ${r.names[1]} = 0;`,
  emitConvert: (d, s, bits) => {
    const [h, l] = dst(d);
    switch (s.kind) {
      // A binary32-or-narrower read is exact in the head.
      case 'number': return bits <= 24 ? `${h} = ${s.names[0]}; ${l} = 0;` : call(d, 'ffFromNumberInto', [s.names[0]!]);
      case 'dd': return call(d, 'ffFromPairInto', [s.names[0]!, s.names[1]!]);
      case 'mp': return call(d, 'ffFromNumberInto', [`${s.names[0]}.toNumber()`]);
    }
  },
  emitExport: (d, s, targetBits) => {
    const [h, l] = src(s);
    switch (d.kind) {
      case 'number': return targetBits < 53 ? `${d.names[0]} = ffRoundToOdd(${h}, ${l});` : `${d.names[0]} = ${h} - (0 - ${l});`;
      // A pair stands for hi + lo: an infinite head (tail 0) is stored as (±∞, 0), not (±∞, ∞ − ∞ = NaN).
      case 'dd': return `${d.names[0]} = ${h} - (0 - ${l}); ${d.names[1]} = ${l} - (${d.names[0]} === ${h} ? 0 : ${d.names[0]} - ${h});`;
      case 'mp': return `${d.names[0]}.setDd(${h}, ${l});`;
    }
  },
  emitSet: (d, a) => { const [h, l] = src(a); const [dh, dl] = dst(d); return `${dh} = ${h}; ${dl} = ${l};`; },
  emitAdd: (d, a, b) => call(d, 'ffAddInto', [...src(a), ...src(b)]),
  emitSub: (d, a, b) => { const [bh, bl] = src(b); return call(d, 'ffAddInto', [...src(a), `-${bh}`, `-${bl}`]); },
  emitMul: (d, a, b) => call(d, 'ffMulInto', [...src(a), ...src(b)]),
  emitFma: (d, a, b, c) => call(d, 'ffFmaInto', [...src(a), ...src(b), ...src(c)]),
  emitDiv: (d, a, b) => call(d, 'ffDivInto', [...src(a), ...src(b)]),
  emitSqrt: (d, a) => call(d, 'ffSqrtInto', src(a)),
  emitAbs: (d, a) => {
    const [h, l] = src(a);
    const [dh, dl] = dst(d);
    return `if (${h} < 0) { ${dh} = -${h}; ${dl} = -${l}; } else { ${dh} = ${h}; ${dl} = ${l}; }`;
  },
  emitNeg: (d, a) => { const [h, l] = src(a); const [dh, dl] = dst(d); return `${dh} = -${h}; ${dl} = -${l};`; },
  emitFromNumber: (d, e) => call(d, 'ffFromNumberInto', [`(${e})`]),
  emitToNumber: (s) => { const [h, l] = src(s); return `(${h} - (0 - ${l}))`; },
  helpers: { ffOut: new Float64Array(2), ffAddInto, ffMulInto, ffFmaInto, ffDivInto, ffSqrtInto, ffFromNumberInto, ffFromPairInto, ffRoundToOdd },
  // On the GPU: ff-gpu-arithmetic.ts (`gpu` once the GPU backend loads).
}, BUILTIN_ARITHMETIC_GPU_FACTS.ff);
