/**
 * Exact sums on one grid — how every RNS kernel on the device adds (kernel source pieces for gpu.js).
 *
 * A kernel's result is Σ_j t_j, each term an exact product t_j = ±X_j·Y_j·2^(f_j) of two device numbers (X, Y ≤
 * 2^p, so X·Y ≤ 2^(2p)). Instead of rounding after every addition, all terms are put on one grid 2^G and added
 * exactly in the residues; the result is rounded once (normalize-webgpu.ts). From the evaluations every factor
 * has a bit bound (X < 2^(E + bitsM + 25), at most 2 bits above its bit length, device-eval.ts), so each term has
 * a bound top_j with |t_j| < 2^top_j, and max_j |t_j| ≥ 2^(E_top − 6) for E_top = max_j top_j. With N terms,
 * ν = ⌈log2 N⌉ and H = bitsM − 1 (M ≥ 2^H):
 *
 *     G = max(min_j f_j, E_top + ν + 2 − H).
 *
 * - **The sum fits:** a term with f_j ≥ G is the integer X_j·Y_j·2^(f_j − G) (residues times |2^(f_j−G)|_m), of
 *   magnitude < 2^(E_top − G) ≤ 2^(H − ν − 2); N of them stay below 2^(H−2) ≤ M/4, the bound the rounding needs.
 * - **Dropped terms are negligible:** when G > min f_j, G = E_top + ν + 2 − H and terms with f_j < G are left out.
 *   Each is < 2^(2p + 6 + G) (X, Y < 2^(p+3)), together < 2^(ν + 2p + 6 + G) = 2^(E_top + 2ν + 2p + 8 − H) ≤
 *   2^(2ν + 2p + 14 − H)·max|t_j| ≤ 2^-p·max|t_j|, since the device set has H ≥ 3p + 80 ≥ 3p + 14 + 2ν for N ≤ 2^32
 *   (device-set.ts). When G = min f_j nothing is dropped and the sum is exact.
 *
 * So the computed sum is s + η with |η| ≤ 2^-p·max|t_j|, then rounded once (|δ| ≤ 2^-p): |ŝ − s| ≤ 2^-p·Σ|t_j|·(2 +
 * 2^-p) for N ≥ 2 and ≤ 2^-p·|s| for N = 1 — within γ_N·Σ|t_j| (DOT), γ_2 (WAXPBY) and γ_1 (SCAL) of the
 * format's u > 2^-p. The largest term is never dropped (its f ≥ E_top − 2p − 6 > G).
 *
 * @module
 */
import { WORD_BIAS, type RnsDeviceSet } from './device-set.js';

/** ⌈log2 N⌉ for N ≥ 1 terms. */
export function termsLog2(terms: number): number {
  return terms <= 1 ? 0 : Math.ceil(Math.log2(terms));
}

/** Source reading field f (0 sign, 1 exponent, 2 q_lo, 3 E, 4 q_up, 5 E) of element `k` of array `A` of `L` elements. */
export function fieldRead(set: RnsDeviceSet, A: string, L: string, k: string, f: number): string {
  return `(mpBits(${A}[${set.size} * ${L} + ${f} * ${L} + ${k}]) - ${WORD_BIAS})`;
}

/** Source reading residue `i` of element `k` of array `A`. */
export function residueRead(set: RnsDeviceSet, A: string, k: string, i: string): string {
  return `(mpBits(${A}[${k} * ${set.size} + ${i}]) - ${WORD_BIAS})`;
}

/**
 * A factor of a term as kernel source: declarations (suffixed with a tag), then expressions for zero (1/0), sign,
 * exponent, bit bound (X < 2^bits, at most 2 above the bit length) and the residue modulo m of modulus i.
 */
export interface Factor {
  decl(tag: string): string;
  zero(tag: string): string;
  sign(tag: string): string;
  exp(tag: string): string;
  bits(tag: string): string;
  residue(tag: string): string;
}

/** Element `k` of the device RNS array `A` of `L` elements. */
export function rnsFactor(set: RnsDeviceSet, A: string, L: string, k: string): Factor {
  return {
    decl: () => '',
    zero: () => `(${fieldRead(set, A, L, k, 4)} === 0)`,
    sign: () => fieldRead(set, A, L, k, 0),
    exp: () => fieldRead(set, A, L, k, 1),
    bits: () => `(${fieldRead(set, A, L, k, 5)} + ${set.bitsM + 25})`,
    residue: () => residueRead(set, A, k, 'i'),
  };
}

/** The constant 1 (X = 1, exponent 0): the second factor of a plain sum Σ P_j (ASUM). */
export function oneFactor(): Factor {
  return { decl: () => '', zero: () => 'false', sign: () => '0', exp: () => '0', bits: () => '1', residue: () => '1' };
}

/** The factor |a|: a with its sign dropped (ASUM's terms). */
export function absFactor(a: Factor): Factor {
  return { ...a, sign: () => '0' };
}

/** The factor −a (TRSV's b_i − Σ t_ij·x_j as a sum of terms, so that zeros get IEEE's signs). */
export function negFactor(a: Factor): Factor {
  return { ...a, sign: (t) => `(1 - ${a.sign(t)})` };
}

/**
 * Element `k` of an fp64 array `A` on the device (two words per double, low word first), read exactly into RNS:
 * X is the 53-bit integer significand (exact bit length), its residue |hi·2^32 + lo|_m computed in u32
 * (by `mpMulModR`; the residue expression needs `m`, `rm` = fl(1/m) and `r32` = |2^32|_m in scope). Callers reject
 * non-finite values on the host before upload.
 */
export function f64Factor(A: string, k: string): Factor {
  return {
    decl: (t) => `const hw${t} = mpBits(${A}[2 * (${k}) + 1]);
const lw${t} = mpBits(${A}[2 * (${k})]);
const ef${t} = (hw${t} >> 20) & 2047;
let mh${t} = hw${t} & 1048575;
let fe${t} = ef${t} - 1075;
if (ef${t} !== 0) { mh${t} = mh${t} | 1048576; } else { fe${t} = -1074; }
let bl${t} = 32 - mpClz(lw${t});
if (mh${t} !== 0) { bl${t} = 64 - mpClz(mh${t}); }`,
    zero: (t) => `(mh${t} === 0 && lw${t} === 0)`,
    sign: (t) => `((hw${t} >> 31) & 1)`,
    exp: (t) => `fe${t}`,
    bits: (t) => `bl${t}`,
    // |mh·2^32 + lw|_m without integer division: mpMulModR(v, 1) reduces any v < 2^32 (lw as u32), r32 = |2^32|_m.
    residue: (t) => `mpMulModR(mpMulModR(mpMulModR(mh${t}, 1, m, rm), r32, m, rm) + mpMulModR(lw${t}, 1, m, rm), 1, m, rm)`,
  };
}

/**
 * Source declaring, for the product of two factors, the variables z<id> (1 when zero), s<id> (sign), f<id>
 * (exponent) and top<id> (bit bound), all integers.
 */
export function termOf(id: string, a: Factor, b: Factor): string {
  const ta = `${id}a`, tb = `${id}b`;
  return `${a.decl(ta)}
${b.decl(tb)}
let z${id} = mpI32(0);
if (${a.zero(ta)} || ${b.zero(tb)}) { z${id} = 1; }
const s${id} = ${a.sign(ta)} ^ ${b.sign(tb)};
const f${id} = ${a.exp(ta)} + ${b.exp(tb)};
const top${id} = ${a.bits(ta)} + ${b.bits(tb)} + f${id};`;
}

/**
 * Source adding the term `id` (declared by {@link termOf}) to `acc` (residue modulo `m` of modulus `i`, `rm` =
 * fl(1/m)) when it lies on the grid: acc += ±|X·Y·2^(f − G)|_m.
 */
export function addTermOf(set: RnsDeviceSet, id: string, a: Factor, b: Factor): string {
  const o = set.offsets;
  return `if (z${id} === 0 && f${id} >= G) {
  const d${id} = f${id} - G;
  const p2${id} = mpBits(Tb[${o.pow2} + d${id} * ${set.size} + i]);
  let r${id} = mpMulModR(mpMulModR(${a.residue(`${id}a`)}, ${b.residue(`${id}b`)}, m, rm), p2${id}, m, rm);
  if (s${id} !== 0 && r${id} !== 0) { r${id} = m - r${id}; }
  acc = acc + r${id};
  if (acc >= m) { acc = acc - m; }
}`;
}

/** {@link termOf} for two device RNS elements. */
export function termInfo(set: RnsDeviceSet, id: string, A: string, LA: string, ka: string, Bv: string, LB: string, kb: string): string {
  return termOf(id, rnsFactor(set, A, LA, ka), rnsFactor(set, Bv, LB, kb));
}

/** {@link addTermOf} for two device RNS elements. */
export function addTerm(set: RnsDeviceSet, id: string, A: string, ka: string, Bv: string, kb: string): string {
  return addTermOf(set, id, rnsFactor(set, A, '0', ka), rnsFactor(set, Bv, '0', kb));
}

/**
 * Source of the grid exponent G from `etop`, `fmin` (valid when `any` is 1) for N terms.
 * @param set - the GPU moduli set
 * @param nu - ⌈log2 N⌉: a number, or the name of an integer uniform holding it
 */
export function gridExponent(set: RnsDeviceSet, nu: number | string): string {
  const H = set.bitsM - 1;
  return `let G = mpI32(0);
if (any !== 0) { G = etop + ${nu} + ${2 - H}; if (fmin > G) { G = fmin; } }`;
}

/**
 * Source of the bit bound β of an accumulated sum (`any`, `etop`, `G` in scope): every term on the grid is below
 * 2^(top_j − G) ≤ 2^(etop − G), and there are at most 2^ν of them, so |X̃| < 2^(etop − G + ν) — at most H − 2 =
 * bitsM − 3 since G ≥ etop + ν + 2 − H. 0 when there is no term (X̃ = 0).
 * @param set - the GPU moduli set
 * @param nu - ⌈log2 N⌉: a number, or the name of an integer holding it
 * @returns the expression
 */
export function bitBound(set: RnsDeviceSet, nu: number | string): string {
  return `mpImin(mpImax(etop - G + ${nu}, 0) * any, ${set.bitsM - 3})`;
}
