/**
 * The CPU kernels' scaled store of a double-double value into floating-point storage, replayed on the device: the CPU
 * kernel (src/backends/cpu/operand.ts, emitStore) divides its dd register by (s, +0) with dd-templates.ts's
 * `ddDivSource` — JMP's DWDivDW2 (formats/dd/div.ts) in about thirty binary64 operations, guarded by the special-value
 * rule of docs/double-double.md (a non-finite result is recomputed with the scaled product error, then becomes the
 * fp64 quotient; a zero takes the fp64 quotient's zero) — then exports it as hi − (0 − lo) for binary64 storage or
 * `roundToOddDd(hi, lo)` for narrower storage, which the storage's encoder rounds to nearest. WGSL (native functions
 * of the dd arithmetic's library, on dd-gpu-wgsl.ts's register).
 *
 * (The accessor's `Range.set` of a dd value divides with the same guarded division, `ddArithmetic.div`: ±∞ for
 * 1e308 over 1e-10, as the kernels give.)
 *
 * **Why a replay, not the exact quotient rounded once.** DWDivDW2's result carries an error up to about 3u² (u = 2^-53)
 * relative, and the exact quotient of a double-double by a double can lie closer than that to a rounding boundary
 * without being on it: hi = m·s + 2^-105·2^e (m a binary64 midpoint, m·s ≡ −2^-105 modulo 2^-52 relative, which odd
 * significands allow) and lo = −2^-105·2^e + 2^-157·2^e put v/s within 2^-157 of m. There the correctly rounded
 * quotient and the CPU's bits differ, and often: of 100 000 pairs nearest m·s (m a random binary64 midpoint, s a
 * random 53-bit scale) nudged by up to three units of lo's last place, 14.6 % round differently (e.g. hi =
 * 4.841586659011833e31, lo = 4145565190917121.5, s = 5375239943287806: the CPU stores 9007200999571456, the correctly
 * rounded quotient is 9007200999571454). So each binary64 step of the CPU is replayed instead, in the CPU's order:
 * for operands outside div-window.ts's [2^-900, 2^900] the products by powers of two
 * that scale them to [1, 2); the division's first quotient, the product's error by Veltkamp's split and Dekker's sum,
 * the remainder, its division and the final Fast2Sum; then, for scaled operands, the two products that scale the pair
 * back — and where the result is not finite, the template's slow form (the error recomputed by
 * `twoProdErrorScaled`'s 2^-28 scaling where it is not finite) and the special-value rule, whose tests are bit tests
 * of the replayed values.
 *
 * **Why each step is the CPU's.** A step's operands are binary64 values, taken exactly into the register's working
 * form (`mpXfOfF64`: 53 bits at the top of 128), and the result is rounded once to binary64 by `mpXfToF64U`
 * (nearest even, gradual underflow, overflow to ±∞, from the working form's 128 bits with a sticky bit):
 * - a product (`mpXfMulSSU`): the 106-bit product of two 53-bit significands is exact in 128 bits;
 * - a quotient (`mpXfDivU`): its 113 leading bits are exact, the rest truncated (relative < 2^-112). A quotient of
 *   binary64 values a/b = A·2^c/B (A, B odd) is either a dyadic of ≤ 53 bits (B = 1, exact) or lies at least
 *   2^-107 (relative) from every binary64 midpoint and grid point, subnormal grids included (|A·2^c − M·2^j·B| ≥
 *   2^min(c, j)); the truncation cannot reach one, so the rounding is the exact quotient's;
 * - a sum (`mpXfAddU`, |x| ≥ |y|, d their exponents' difference): for d ≤ 74 the sum or difference of the two
 *   53-bit significands is exact in 128 bits. For d ≥ 75 only y's bits below the 128 go (truncated toward zero):
 *   |y| < 2^-74·2^ex, so the exact and the computed sum both lie strictly within a quarter ulp of x (on x's side of
 *   both of its neighbours' midpoints) or equal x, and both round to x — as IEEE's x + y does. Zeros follow IEEE:
 *   x − x = +0, (−0) + (−0) = −0.
 * So every value the replay forms is the CPU's, bit for bit, and so is the result — except a NaN's sign and payload,
 * which IEEE 754 leaves open and the CPU's code gets by accident (x86's default NaN): here every NaN is the register's
 * positive quiet NaN, and tests compare NaN as NaN.
 *
 * The result goes back as a dd pair (x, +0) — (x, x) for a zero, as dd storage keeps −0 — whose double x is what the
 * storage's rounding then takes: x itself for binary64; for binary32, binary16 and bfloat16 the round-to-odd double,
 * which the update 1·x rounds once more to the storage (src/backends/webgpu/scaled-float-store.ts).
 * @module
 */
import { DIV_SCALE_BACK_STEP } from './div-window.js';

/** One binary64 step of the tape: op (0 add, 1 sub, 2 mul, 3 div), destination register, operand registers. */
type Step = readonly [op: 0 | 1 | 2 | 3, dst: number, a: number, b: number];
const [ADD, SUB, MUL, DIV] = [0, 1, 2, 3] as const;

/**
 * The CPU kernels' division (dd-templates.ts's ddDivSource, guarded) as a tape over registers r0 … r36:
 * r0 … r3 ah, al, bh, bl; r4 Veltkamp's splitter 2^27 + 1; r5 +0; r6 … r9 fa, fb, ua, ub (the scaled product error's
 * factors, 1 unless it runs); r30 the fp64 quotient ah/bh of the operands as given (the special-value rule's);
 * r31 … r34 the operands' factors 2^a1, 2^a2, 2^b1, 2^b2 and r35, r36 the quotient's 2^k1, 2^k2 (div-window.ts).
 */
const TAPE: readonly Step[] = [
  [DIV, 30, 0, 2], //  0: th0 = ah / bh (the rule's fp64 quotient)
  // 1 … 8 only where div-window.ts's divScales: each part times its operand's two factors (divScaledInto)
  [MUL, 0, 0, 31], [MUL, 0, 0, 32], [MUL, 1, 1, 31], [MUL, 1, 1, 32],
  [MUL, 2, 2, 33], [MUL, 2, 2, 34], [MUL, 3, 3, 33], [MUL, 3, 3, 34],
  [DIV, 10, 0, 2], //  9: th = ah / bh
  [MUL, 11, 2, 10], // 10: p = bh·th
  [MUL, 12, 2, 6], // 11: a = bh·fa
  [MUL, 13, 10, 7], // 12: b = th·fb
  [MUL, 14, 8, 9], // 13: scale = ua·ub (1, 2^28 or 2^56)
  [DIV, 15, 11, 14], // 14: p / scale
  [MUL, 16, 4, 12], [SUB, 17, 16, 12], [SUB, 17, 16, 17], [SUB, 18, 12, 17], // 15 … 18: a1 = t − (t − a), a2 = a − a1
  [MUL, 16, 4, 13], [SUB, 19, 16, 13], [SUB, 19, 16, 19], [SUB, 20, 13, 19], // 19 … 22: b1, b2
  [MUL, 21, 17, 19], [SUB, 21, 21, 15], // 23, 24: a1·b1 − p
  [MUL, 22, 17, 20], [ADD, 21, 21, 22], // 25, 26: + a1·b2
  [MUL, 22, 18, 19], [ADD, 21, 21, 22], // 27, 28: + a2·b1
  [MUL, 22, 18, 20], [ADD, 21, 21, 22], // 29, 30: + a2·b2
  [MUL, 21, 21, 14], // 31: e = Dekker·scale
  [MUL, 22, 3, 10], // 32: c2 = bl·th
  [ADD, 23, 11, 22], [SUB, 24, 23, 11], [SUB, 24, 22, 24], // 33 … 35: sh = p + c2, sl1 = c2 − (sh − p)
  [ADD, 24, 24, 21], // 36: sl2 = sl1 + e
  [ADD, 25, 23, 24], [SUB, 26, 25, 23], [SUB, 26, 24, 26], // 37 … 39: rh = sh + sl2, rl = sl2 − (rh − sh)
  [SUB, 25, 0, 25], [SUB, 26, 1, 26], [ADD, 25, 25, 26], // 40 … 42: (ah − rh) + (al − rl)
  [DIV, 25, 25, 2], // 43: tl = … / bh
  [ADD, 26, 10, 25], [SUB, 27, 26, 10], [SUB, 27, 25, 27], // 44 … 46: hi = th + tl, lo = tl − (hi − th)
  // 47 … 50 only where divScales: hi and lo times 2^k1 then 2^k2
  [MUL, 26, 26, 35], [MUL, 26, 26, 36], [MUL, 27, 27, 35], [MUL, 27, 27, 36],
  [SUB, 28, 5, 27], [SUB, 28, 26, 28], // 51, 52: hi − (0 − lo), the binary64 export
  [ADD, 29, 26, 27], // 53: hi + lo, roundToOddDd's for a zero or non-finite hi
];

/** A step as one u32: op | dst << 2 | a << 8 | b << 14 (six bits a register). */
const encode = ([op, dst, a, b]: Step): number => op | (dst << 2) | (a << 8) | (b << 14);

/**
 * WGSL of `mpDdScaledQuotient(v, s, narrow)`: the double-double v (its four IEEE words: hi's low and high, lo's low and
 * high) divided by the double s (its two words) as the CPU's scaled store does, then exported as the CPU's
 * `toKind('number', q, bits)` does (narrow = 0: binary64 storage, hi − (0 − lo); otherwise round to odd), as dd words.
 * Binary64 values are vec2<u32> (low word, high word). Needs dd-gpu-wgsl.ts's library (appended with it).
 */
export const DD_SCALED_QUOTIENT_WGSL = `
// |a| ≤ 2^996 (eft.ts's SPLIT_LIMIT; false for NaN, as the CPU's comparison).
fn mpF64Splittable(a: vec2<u32>) -> bool { let h = a.y & 0x7FFFFFFFu; return h < 0x7E300000u || (h == 0x7E300000u && a.x == 0u); }
fn mpF64Finite(a: vec2<u32>) -> bool { return (a.y & 0x7FF00000u) != 0x7FF00000u; }
fn mpF64IsZero(a: vec2<u32>) -> bool { return (a.y & 0x7FFFFFFFu) == 0u && a.x == 0u; }
// 2^-900 ≤ |a| ≤ 2^900 (div-window.ts's window: biased exponents 123 and 1923).
fn mpF64InDivWindow(a: vec2<u32>) -> bool { let h = a.y & 0x7FFFFFFFu; return h >= 0x07B00000u && (h < 0x78300000u || (h == 0x78300000u && a.x == 0u)); }
// ⌊log2 |a|⌋ of a finite non-zero a, subnormals included (div-window.ts's binaryExponent).
fn mpF64Exponent(a: vec2<u32>) -> i32 {
  let b = (a.y >> 20u) & 0x7FFu;
  if (b != 0u) { return i32(b) - 1023; }
  let h = a.y & 0xFFFFFu;
  if (h != 0u) { return i32(firstLeadingBit(h)) + 32 - 1074; }
  return i32(firstLeadingBit(a.x)) - 1074;
}
// 2^j for -1074 ≤ j ≤ 1023 (subnormal below -1022).
fn mpF64Pow2(j: i32) -> vec2<u32> {
  if (j >= -1022) { return vec2<u32>(0u, u32(j + 1023) << 20u); }
  let t = u32(j + 1074);
  if (t >= 32u) { return vec2<u32>(0u, 1u << (t - 32u)); }
  return vec2<u32>(1u << t, 0u);
}

// The CPU kernels' ddDiv(ah, al, bh, bl) (dd-templates.ts's ddDivSource: div.ts's steps, guarded, and div-window.ts's
// scaling outside [2^-900, 2^900]) as a tape of binary64 steps run by ONE loop body (one copy of each operation in the
// shader: straight-line code inlines ~40 register operations and took minutes to compile on llvmpipe). Step k is
// op | dst << 2 | a << 8 | b << 14 (dd-gpu-scaled-quotient.ts's TAPE lists them). The CPU's division:
// - operands whose high parts are finite, non-zero and not both in the window (divScales) run the slow form's scaled
//   path: steps 1 … 8 scale them to [1, 2), 9 … 46 divide, 47 … 50 scale the pair back (its bare steps cannot overflow
//   there, so no product error is rescaled), then the rule below;
// - others skip 1 … 8 and 47 … 50: the fast form, Dekker's error of bh·th unscaled (steps 11 … 31 with all factors 1);
//   a non-finite hi (checked before step 51) runs the slow form on the same operands: steps 11 … 46 again, but an
//   error that is not finite is recomputed by eft.ts's twoProdErrorScaled(bh, th, p): p (a NaN p) or +0 (an infinite
//   p); otherwise each operand beyond 2^996 scaled by 2^-28 (fa/fb) and the error by 2^28 back (ua·ub) — steps
//   11 … 31 once more (a finite p has finite operands, below 2^996 once scaled: no second scaling);
// - the rule: a hi still not finite becomes the fp64 quotient th0 with lo = +0; a zero hi whose fp64 quotient th0 is a
//   zero takes th0's zero (−0/3 is −0, not the +0 of the cancelled terms).
// The steps from 51 export the repaired pair.
fn mpF64DdDiv(ah: vec2<u32>, al: vec2<u32>, bh: vec2<u32>, bl: vec2<u32>) -> array<vec2<u32>, 37> {
  var tape = array<u32, ${TAPE.length}>(${TAPE.map((t) => `${encode(t)}u`).join(', ')});
  let one = vec2<u32>(0u, 0x3FF00000u);
  var r: array<vec2<u32>, 37>;
  r[0] = ah; r[1] = al; r[2] = bh; r[3] = bl; r[4] = vec2<u32>(0x02000000u, 0x41A00000u); r[5] = vec2<u32>(0u);
  r[6] = one; r[7] = one; r[8] = one; r[9] = one;
  let outside = mpF64Finite(ah) && mpF64Finite(bh) && !mpF64IsZero(ah) && !mpF64IsZero(bh) && !(mpF64InDivWindow(ah) && mpF64InDivWindow(bh));
  var slow = outside;
  var scaled = false;
  if (outside) {
    let ea = mpF64Exponent(ah);
    let eb = mpF64Exponent(bh);
    // divScaledInto's factors: 2^-e in one step, or 2^1023 first for a subnormal; the quotient back by 2^(ea − eb),
    // at most 2^±${DIV_SCALE_BACK_STEP} first (exact), the rest clamped to the double range.
    r[31] = mpF64Pow2(min(-ea, 1023)); r[32] = mpF64Pow2(max(-ea - 1023, 0));
    r[33] = mpF64Pow2(min(-eb, 1023)); r[34] = mpF64Pow2(max(-eb - 1023, 0));
    let k1 = clamp(ea - eb, -${DIV_SCALE_BACK_STEP}, ${DIV_SCALE_BACK_STEP});
    r[35] = mpF64Pow2(k1); r[36] = mpF64Pow2(clamp(ea - eb - k1, -1074, 1023));
  }
  var i = 0u;
  loop {
    if (i >= ${TAPE.length}u) { break; }
    if (i == 1u && !outside) { i = 9u; continue; }
    if (i == 47u && !outside) { i = 51u; continue; }
    if (i == 32u && slow && !scaled && !mpF64Finite(r[21])) {
      scaled = true;
      if (mpF64Finite(r[11])) {
        r[6] = select(vec2<u32>(0u, 0x3E300000u), one, mpF64Splittable(r[2]));
        r[7] = select(vec2<u32>(0u, 0x3E300000u), one, mpF64Splittable(r[10]));
        r[8] = select(vec2<u32>(0u, 0x41B00000u), one, mpF64Splittable(r[2]));
        r[9] = select(vec2<u32>(0u, 0x41B00000u), one, mpF64Splittable(r[10]));
        i = 11u;
        continue;
      }
      r[21] = select(vec2<u32>(0u), r[11], (r[11].y & 0xFFFFFu) != 0u || r[11].x != 0u);
    }
    if (i == 51u) {
      if (!mpF64Finite(r[26])) {
        if (!slow) { slow = true; i = 11u; continue; }
        r[26] = r[30];
        r[27] = vec2<u32>(0u);
      } else if (mpF64IsZero(r[26]) && mpF64IsZero(r[30])) {
        r[26] = r[30];
      }
    }
    let k = tape[i];
    let op = k & 3u;
    let x = mpXfOfF64(r[(k >> 8u) & 63u].x, r[(k >> 8u) & 63u].y);
    var y = mpXfOfF64(r[(k >> 14u) & 63u].x, r[(k >> 14u) & 63u].y);
    if (op == 1u) { y = mpXfNegU(y); }
    var z: MpXfU;
    if (op <= 1u) { z = mpXfAddU(x, y); } else if (op == 2u) { z = mpXfMulSSU(x, y); } else { z = mpXfDivU(x, y); }
    r[(k >> 2u) & 63u] = mpXfToF64U(z);
    i = i + 1u;
  }
  return r;
}

// dd-arithmetic.ts's toKind('number', (hi, lo), bits) of the tape's pair (r26, r27): for 53 bits (narrow = 0)
// hi − (0 − lo) (r28); below, round-to-odd.ts's roundToOddDd(hi, lo) — hi for a zero lo or an odd hi, hi + lo (r29)
// for a zero or non-finite hi, else hi's bit pattern moved by one towards lo.
fn mpF64DdExport(r: array<vec2<u32>, 37>, narrow: i32) -> vec2<u32> {
  let hi = r[26];
  let lo = r[27];
  if (narrow == 0) { return r[28]; }
  if (mpF64IsZero(lo)) { return hi; }
  if (mpF64IsZero(hi) || !mpF64Finite(hi)) { return r[29]; }
  if ((hi.x & 1u) == 1u) { return hi; }
  if ((hi.y >> 31u) == (lo.y >> 31u)) { return vec2<u32>(hi.x + 1u, hi.y); }
  if (hi.x == 0u) { return vec2<u32>(0xFFFFFFFFu, hi.y - 1u); }
  return vec2<u32>(hi.x - 1u, hi.y);
}

// The scaled store's value of the dd v by the double s (the kernels' scale register is (s, +0)): the division, exported,
// as dd words.
fn mpDdScaledQuotient(v: vec4<f32>, s: vec2<f32>, narrow: i32) -> vec4<f32> {
  let w = bitcast<vec4<u32>>(v);
  let x = mpF64DdExport(mpF64DdDiv(w.xy, w.zw, bitcast<vec2<u32>>(s), vec2<u32>(0u)), narrow);
  if (mpF64IsZero(x)) { return bitcast<vec4<f32>>(vec4<u32>(x, x)); }
  return bitcast<vec4<f32>>(vec4<u32>(x, 0u, 0u));
}
`;
