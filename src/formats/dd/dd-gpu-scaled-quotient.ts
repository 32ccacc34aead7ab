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
 * the division's first quotient, the product's error by Veltkamp's split and Dekker's sum, the remainder, its division
 * and the final Fast2Sum — and where the result is not finite, the template's slow form (the error recomputed by
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

// The CPU kernels' ddDiv(ah, al, bh, bl) (dd-templates.ts's ddDivSource: div.ts's steps, guarded) as a tape of binary64 steps run by ONE loop body (one copy of each operation in the
// shader: straight-line code inlines ~40 register operations and took minutes to compile on llvmpipe). Step k is
// op | dst << 2 | a << 7 | b << 12 over registers r0 … r29 (op 0 add, 1 sub, 2 mul, 3 div):
//   0: r10 = div(r0, r2)  th = ah / bh
//   1: r11 = mul(r2, r10)  p = bh·th
//   2: r12 = mul(r2, r6)  a = bh·fa (fa = 1, or 2^-28 beyond 2^996 in the scaled path)
//   3: r13 = mul(r10, r7)  b = th·fb
//   4: r14 = mul(r8, r9)  scale = ua·ub (1, 2^28 or 2^56)
//   5: r15 = div(r11, r14)  p / scale
//   6: r16 = mul(r4, r12)  t = splitter·a
//   7: r17 = sub(r16, r12)  t − a
//   8: r17 = sub(r16, r17)  a1 = t − (t − a)
//   9: r18 = sub(r12, r17)  a2 = a − a1
//  10: r16 = mul(r4, r13)  t = splitter·b
//  11: r19 = sub(r16, r13)  t − b
//  12: r19 = sub(r16, r19)  b1 = t − (t − b)
//  13: r20 = sub(r13, r19)  b2 = b − b1
//  14: r21 = mul(r17, r19)  a1·b1
//  15: r21 = sub(r21, r15)  a1·b1 − p
//  16: r22 = mul(r17, r20)  a1·b2
//  17: r21 = add(r21, r22)  + a1·b2
//  18: r22 = mul(r18, r19)  a2·b1
//  19: r21 = add(r21, r22)  + a2·b1
//  20: r22 = mul(r18, r20)  a2·b2
//  21: r21 = add(r21, r22)  + a2·b2
//  22: r21 = mul(r21, r14)  e = Dekker·scale
//  23: r22 = mul(r3, r10)  c2 = bl·th
//  24: r23 = add(r11, r22)  sh = p + c2
//  25: r24 = sub(r23, r11)  sh − p
//  26: r24 = sub(r22, r24)  sl1 = c2 − (sh − p)
//  27: r24 = add(r24, r21)  sl2 = sl1 + e
//  28: r25 = add(r23, r24)  rh = sh + sl2
//  29: r26 = sub(r25, r23)  rh − sh
//  30: r26 = sub(r24, r26)  rl = sl2 − (rh − sh)
//  31: r25 = sub(r0, r25)  ah − rh
//  32: r26 = sub(r1, r26)  al − rl
//  33: r25 = add(r25, r26)  (ah − rh) + (al − rl)
//  34: r25 = div(r25, r2)  tl = … / bh
//  35: r26 = add(r10, r25)  hi = th + tl
//  36: r27 = sub(r26, r10)  hi − th
//  37: r27 = sub(r25, r27)  lo = tl − (hi − th)
//  38: r28 = sub(r5, r27)  0 − lo
//  39: r28 = sub(r26, r28)  hi − (0 − lo): the binary64 export
//  40: r29 = add(r26, r27)  hi + lo: roundToOddDd for a zero or non-finite hi
// Registers r0 … r5: ah, al, bh, bl, 2^27 + 1 (Veltkamp's splitter: words 0x02000000, 0x41A00000), +0. r6 … r9 =
// fa, fb, ua, ub are 1 (the products and the quotient by 1 are identities, NaN and ±∞ included) except in the scaled
// error below. The CPU kernels' division is dd-templates.ts's ddDivSource (the fast form, then finish()):
// - fast: Dekker's error of bh·th unscaled (steps 2 … 22 with all factors 1), the rest of the steps;
// - a non-finite hi (checked before step 38) runs the slow form on the same operands: steps 2 … 37 again, but an error
//   that is not finite is recomputed by eft.ts's twoProdErrorScaled(bh, th, p): p (a NaN p) or +0 (an infinite p);
//   otherwise each operand beyond 2^996 scaled by 2^-28 (fa/fb) and the error by 2^28 back (ua·ub) — steps 2 … 22
//   once more (a finite p has finite operands, below 2^996 once scaled: no second scaling). A hi still not finite
//   becomes the fp64 quotient th with lo = +0;
// - a zero hi whose fp64 quotient th is a zero takes th's zero (−0/3 is −0, not the +0 of the cancelled terms).
// The steps after 37 export the repaired pair. At most 41 + 36 + 21 steps run.
fn mpF64DdDiv(ah: vec2<u32>, al: vec2<u32>, bh: vec2<u32>, bl: vec2<u32>) -> array<vec2<u32>, 30> {
  var tape = array<u32, 41>(8235u, 41262u, 24882u, 30006u, 37946u, 58815u, 49730u, 51269u, 71749u, 71241u, 53826u, 55373u, 79949u, 79569u, 80086u, 64213u, 84186u, 92884u, 80218u, 92884u, 84314u, 92884u, 60118u, 41434u, 91612u, 48097u, 101217u, 89184u, 101348u, 97513u, 109673u, 102501u, 106729u, 109796u, 11495u, 103784u, 44397u, 113901u, 111345u, 118129u, 114036u);
  let one = vec2<u32>(0u, 0x3FF00000u);
  var r: array<vec2<u32>, 30>;
  r[0] = ah; r[1] = al; r[2] = bh; r[3] = bl; r[4] = vec2<u32>(0x02000000u, 0x41A00000u); r[5] = vec2<u32>(0u);
  r[6] = one; r[7] = one; r[8] = one; r[9] = one;
  var slow = false;
  var scaled = false;
  var i = 0u;
  loop {
    if (i >= 41u) { break; }
    if (i == 23u && slow && !scaled && !mpF64Finite(r[21])) {
      scaled = true;
      if (mpF64Finite(r[11])) {
        r[6] = select(vec2<u32>(0u, 0x3E300000u), one, mpF64Splittable(r[2]));
        r[7] = select(vec2<u32>(0u, 0x3E300000u), one, mpF64Splittable(r[10]));
        r[8] = select(vec2<u32>(0u, 0x41B00000u), one, mpF64Splittable(r[2]));
        r[9] = select(vec2<u32>(0u, 0x41B00000u), one, mpF64Splittable(r[10]));
        i = 2u;
        continue;
      }
      r[21] = select(vec2<u32>(0u), r[11], (r[11].y & 0xFFFFFu) != 0u || r[11].x != 0u);
    }
    if (i == 38u) {
      if (!mpF64Finite(r[26])) {
        if (!slow) { slow = true; i = 2u; continue; }
        r[26] = r[10];
        r[27] = vec2<u32>(0u);
      } else if (mpF64IsZero(r[26]) && mpF64IsZero(r[10])) {
        r[26] = r[10];
      }
    }
    let k = tape[i];
    let op = k & 3u;
    let x = mpXfOfF64(r[(k >> 7u) & 31u].x, r[(k >> 7u) & 31u].y);
    var y = mpXfOfF64(r[(k >> 12u) & 31u].x, r[(k >> 12u) & 31u].y);
    if (op == 1u) { y = mpXfNegU(y); }
    var z: MpXfU;
    if (op <= 1u) { z = mpXfAddU(x, y); } else if (op == 2u) { z = mpXfMulSSU(x, y); } else { z = mpXfDivU(x, y); }
    r[(k >> 2u) & 31u] = mpXfToF64U(z);
    i = i + 1u;
  }
  return r;
}

// dd-arithmetic.ts's toKind('number', (hi, lo), bits) of the tape's pair (r26, r27): for 53 bits (narrow = 0)
// hi − (0 − lo) (r28); below, round-to-odd.ts's roundToOddDd(hi, lo) — hi for a zero lo or an odd hi, hi + lo (r29)
// for a zero or non-finite hi, else hi's bit pattern moved by one towards lo.
fn mpF64DdExport(r: array<vec2<u32>, 30>, narrow: i32) -> vec2<u32> {
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
