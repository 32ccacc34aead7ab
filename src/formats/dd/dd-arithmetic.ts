/**
 * Double-double as an arithmetic format of the core (`ArithmeticFormat`): registers are pairs
 * [x_hi, x_lo], every operation is inlined from {@link ddAddSource} and friends, so every CPU kernel runs in
 * double-double with no kernel code of its own: fp32/fp64 storage with DD arithmetic (reads are exact),
 * DD storage with DD arithmetic, or DD storage read by fp64 arithmetic (the fp64 format rounds hi + lo).
 * @module
 */
import type { ArithmeticFormat, Register, ValueKind, MpValueLike } from '../common/format.js';
import { fail } from '../../core/errors.js';
import { roundPairToOdd } from '../convert/round-to-odd.js';
import { ddSqrt } from './sqrt.js';
// The kernels' multiply and divide (special values repaired): a scaled range's read and write give what a kernel gives.
import { ddGuardedMul, ddGuardedDiv } from './guarded.js';
import { builtinGpuArithmetic, BUILTIN_ARITHMETIC_GPU_FACTS } from '../common/gpu-facts.js';
import { ddAddSource, ddSubSource, ddMulSource, ddMulAccumulateSource, ddTwoProdAccumulateSource, ddDivSource, ddSqrtSource, ddTemplateHelpers, type DdPair } from './dd-templates.js';

/**
 * A double-double value as the core passes it around (kind `dd`): a normalised pair.
 * @group Double-double
 */
export interface DdValue {
  /** High part. */
  readonly hi: number;
  /** Low part, |lo| ≤ ulp(hi)/2. */
  readonly lo: number;
}

/**
 * The unit roundoff the core's γ_n bounds use for DD arithmetic: it must bound the relative error of EVERY
 * operation. The largest is division, 15u² + 56u³ (JMP Algorithm 17) < 2^-102; addition is ≤ 3u² + 13u³ < 2^-104
 * and multiplication ≤ 7u² < 2^-103. The multiply-add of the kernels (`ddMulAccumulate`, fused: ~34 flops
 * instead of 44) errs by ≤ 15u²|ab| + 4u²|c|, i.e. fl(ab + c) = ab(1 + δ₁) + c(1 + δ₂) with |δᵢ| < 2^-102,
 * the model the γ_n bounds need. Kernels on fp64 data (exact products) meet the tighter γ_n(2^-104); see
 * docs/double-double.md.
 * @group Double-double
 */
export const DD_UNIT_ROUNDOFF = 2 ** -102;

const scratch = new Float64Array(2);
/** A destination register (kind `dd` only) as a pair. */
const pair = (r: Register): DdPair => {
  if (r.kind !== 'dd') throw new Error(`modprec: dd arithmetic got a register of kind ${r.kind}`);
  return [r.names[0]!, r.names[1]!];
};
/** A source register as a pair: a `number` register holds an exact double, its low part is the literal 0. */
const source = (r: Register): DdPair => (r.kind === 'number' ? [r.names[0]!, '0'] : pair(r));

/** A double as a DD value: (x, 0), and a zero as (x, x) so that hi + lo keeps −0 (as `ddFromNumber` does). */
function ddOfNumber(x: number): DdValue { return { hi: x, lo: x === 0 ? x : 0 }; }

/** Scalar: an exact value of `kind` as a DD value (an mp value rounded once, to within 2^-106 relative). */
function ddOfKind(kind: ValueKind, v: unknown): DdValue {
  switch (kind) {
    case 'number': return ddOfNumber(v as number);
    case 'dd': { const p = v as DdValue; return { hi: p.hi, lo: p.lo }; }
    case 'mp': { const out = { hi: 0, lo: 0 }; (v as MpValueLike).toDoubleDouble(out); return out; }
  }
}

/**
 * Double-double arithmetic (about 106 bits; unit roundoff for bounds {@link DD_UNIT_ROUNDOFF}).
 * @group Double-double
 */
export const ddArithmetic: ArithmeticFormat<DdValue> = builtinGpuArithmetic({
  name: 'dd',
  kind: 'dd',
  significandBits: 106,
  unitRoundoff: DD_UNIT_ROUNDOFF,
  // On the GPU: the 112-bit register arithmetic of dd-gpu-wgsl.ts (u = 2^-110 per operation, inside DD_UNIT_ROUNDOFF);
  // `gpu` once the GPU backend loads.
  fromNumber: ddOfNumber,
  // hi − (0 − lo): a zero lo keeps hi's zero (hi + lo turns (−0, +0) into +0).
  toNumber: (v) => v.hi - (0 - v.lo),
  fromKind: ddOfKind,
  toKind: (kind, v, targetBits) => {
    switch (kind) {
      // Below 53 bits, round to odd first so the storage's rounding is the only one (no double rounding).
      case 'number': return targetBits < 53 ? roundPairToOdd(v.hi, v.lo) : v.hi - (0 - v.lo);
      case 'dd': return { hi: v.hi, lo: v.lo };
      case 'mp': return fail('INVALID_FORMAT', 'storage', 'of kind mp must be written through its own encode()', kind);
    }
  },
  mul: (a, b) => { ddGuardedMul(scratch, a.hi, a.lo, b.hi, b.lo); return { hi: scratch[0]!, lo: scratch[1]! }; },
  div: (a, b) => { ddGuardedDiv(scratch, a.hi, a.lo, b.hi, b.lo); return { hi: scratch[0]!, lo: scratch[1]! }; },

  register: (base) => ({ kind: 'dd', names: [`${base}_hi`, `${base}_lo`] }),
  emitDeclare: (r) => `let ${r.names[0]} = 0, ${r.names[1]} = 0;`,
  emitConvert: (d, s) => {
    const [h, l] = pair(d);
    switch (s.kind) {
      case 'number': return `${h} = ${s.names[0]}; ${l} = 0;`;
      case 'dd': return `${h} = ${s.names[0]}; ${l} = ${s.names[1]};`;
      // Both halves of the mp value (one rounding within 2^-106 relative), not its nearest double.
      case 'mp': return `${s.names[0]}.toDoubleDouble(ddMpRead); ${h} = ddMpRead.hi; ${l} = ddMpRead.lo;`;
    }
  },
  emitExport: (d, s, targetBits) => {
    const [h, l] = source(s);
    switch (d.kind) {
      case 'number': return targetBits < 53 ? `${d.names[0]} = roundToOddDd(${h}, ${l});` : `${d.names[0]} = ${h} - (0 - ${l});`;
      case 'dd': return `${d.names[0]} = ${h}; ${d.names[1]} = ${l};`;
      case 'mp': return `${d.names[0]}.setDd(${h}, ${l});`;
    }
  },
  emitSet: (d, a) => { const [h, l] = source(a); return `${pair(d)[0]} = ${h}; ${d.names[1]} = ${l};`; },
  emitAdd: (d, a, b) => ddAddSource(pair(d), source(a), source(b)),
  emitSub: (d, a, b) => ddSubSource(pair(d), source(a), source(b)),
  emitMul: (d, a, b) => ddMulSource(pair(d), source(a), source(b)),
  // Two exact doubles (fp64/fp32 storage read straight into number registers): TwoProd-based, 28 flops not 35.
  emitFma: (d, a, b, c) => (a.kind === 'number' && b.kind === 'number'
    ? ddTwoProdAccumulateSource(pair(d), a.names[0]!, b.names[0]!, source(c))
    : ddMulAccumulateSource(pair(d), source(a), source(b), source(c))),
  emitDiv: (d, a, b) => ddDivSource(pair(d), source(a), source(b)),
  emitSqrt: (d, a) => ddSqrtSource(pair(d), source(a)),
  emitAbs: (d, a) => {
    const [h, l] = source(a);
    const [dh, dl] = pair(d);
    // The sign of hi + lo: hi's for a normalised pair, and a raw (1, −∞) or (1, −3) is negated too.
    return `if (${h} + ${l} < 0) { ${dh} = -${h}; ${dl} = -${l}; } else { ${dh} = ${h}; ${dl} = ${l}; }`;
  },
  emitNeg: (d, a) => { const [h, l] = source(a); return `${pair(d)[0]} = -${h}; ${d.names[1]} = -${l};`; },
  emitFromNumber: (d, e) => `${pair(d)[0]} = ${e}; ${d.names[1]} = 0;`,
  emitToNumber: (s) => { const [h, l] = source(s); return `(${h} - (0 - ${l}))`; },
  helpers: { ...ddTemplateHelpers, ddMpRead: { hi: 0, lo: 0 }, ddSqrtInto: ddSqrt, roundToOddDd: roundPairToOdd },
  takesNumberOperands: true,
}, BUILTIN_ARITHMETIC_GPU_FACTS.dd);
