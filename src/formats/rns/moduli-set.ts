/**
 * RNS moduli sets: for a requested precision, a set of pairwise-coprime moduli {m_1 … m_n} whose
 * product M gives numbers of that precision, with every constant that CRT reconstruction and
 * interval evaluation need, computed exactly with BigInt and cached per (precision, residue arithmetic).
 *
 * Sizing (seed 000, eq. 6 and §6.1): a number ⟨s, X, e, I(X/M)⟩ keeps its significand X ≤ 2^p with
 * p = ⌊log2 √M⌋ − 1, so every product X·Y ≤ 2^(2p) ≤ M/4 stays inside the dynamic range, and every
 * rounding to p bits has relative error at most 2^-p < u = 4/√M. We aim log2 M at 2p + 3, the middle of
 * the admissible window [2p + 2, 2p + 4), and check both ends with a safety margin (see
 * {@link RnsModuliSet.precision}).
 *
 * Residue arithmetic — the trade-off between modulus size and count:
 * - `'f64'` (CPU): moduli < 2^26, so a residue product is < 2^52 and exact in a double; fewest moduli
 *   (about 2p/26), so fewest operations per number. The default.
 * - `'u32'` (GPU, 32-bit integers): moduli < 2^16, products < 2^32 fit an unsigned 32-bit integer
 *   (WGSL `u32`), about 1.6× as many moduli as `'f64'`.
 * - `'f32'` (GPU without integers): moduli < 2^12, products < 2^24 exact in binary32; about 2.2× as many
 *   moduli, and precision is limited by the 564 primes below 2^12 (p ≤ 2903).
 * Any set works with the CPU operations of this folder (all products stay below 2^53).
 * @module
 */
import { fail } from '../../core/errors.js';
import { bitLength } from '../../core/bit-length.js';
import { EXT, normalize } from './ext-float.js';

/**
 * How residue products are computed, which bounds the modulus size.
 * @group RNS
 */
export type ResidueArithmetic = 'f64' | 'u32' | 'f32';

/**
 * Upper bound (exclusive) of the moduli for each residue arithmetic, in bits.
 * @group RNS
 */
export const MODULUS_BITS: Readonly<Record<ResidueArithmetic, number>> = { f64: 26, u32: 16, f32: 12 };

/**
 * Smallest precision accepted: a double's 53-bit significand must fit exactly.
 * @group RNS
 */
export const MIN_PRECISION = 53;
/**
 * Largest precision accepted (the CPU tables grow as n·p; 4096 bits take about 10 MB).
 * @group RNS
 */
export const MAX_PRECISION = 4096;

/** Width in bits of the limbs used for exact low-order-bit reconstruction. */
export const LIMB_BITS = 21;

/**
 * A moduli set and its constants. All arrays are indexed by modulus i ∈ [0, n) unless stated.
 * @group RNS
 */
export interface RnsModuliSet {
  /** Stable name, e.g. `rns212` (or `rns212u32`, `rns212f32` for the GPU sets). */
  readonly name: string;
  /** Residue arithmetic the moduli were sized for. */
  readonly residueArithmetic: ResidueArithmetic;
  /**
   * Precision p in bits: significands are kept ≤ 2^p; p = ⌊log2 M / 2⌋ − 1 (seed 000 §6.1), checked so that
   * 2^(2p+2)·(1 + 2^-18) ≤ M ≤ 2^(2p+4)·(1 − 2^-17) (room for aligned sums, and 2^-p < 4/√M with margin).
   */
  readonly precision: number;
  /** Number of moduli n. */
  readonly size: number;
  /** The moduli, ascending, all odd primes (so pairwise coprime and coprime to 2). */
  readonly moduli: Float64Array;
  /** fl(1/m_i), the floating-point images used by the interval evaluation. */
  readonly inverseModuli: Float64Array;
  /** Math.fround(1/m_i), for binary32 GPU code. */
  readonly inverseModuliF32: Float32Array;
  /** M = ∏ m_i. */
  readonly M: bigint;
  /** M_i = M / m_i. */
  readonly Mi: readonly bigint[];
  /** w_i = |M_i^-1|_{m_i}. */
  readonly w: Float64Array;
  /** ⌊log2 M⌋ + 1: bit length of M. */
  readonly bitsM: number;
  /** M = f·2^Me with f ∈ [MfLo, MfUp] ⊂ [1/2, 1]: an enclosure of M as an extended float. */
  readonly MfLo: number;
  /** Upper end of M's fraction enclosure. */
  readonly MfUp: number;
  /** Exponent of M's extended-float image. */
  readonly Me: number;
  /**
   * Unit roundoff u: an upper bound of 4/√M as a double (|δ| < u for every operation). Below the double
   * range (p ≳ 1074) this is the smallest subnormal, still an upper bound; use {@link unitRoundoffLog2} there.
   */
  readonly unitRoundoff: number;
  /** log2 of an upper bound of 4/√M (to about 1e-15 relative), usable at any precision. */
  readonly unitRoundoffLog2: number;
  /**
   * Rigorous bound E of the error of the computed Σ ξ_i/m_i (see `interval-evaluation.ts`): n·2^-51.
   */
  readonly evalError: number;
}

/**
 * CPU tables of a moduli set, built on first use by the CPU operations.
 * @group RNS
 */
export interface RnsTables {
  /** Largest power k with |2^k|_{m_i} in {@link pow2}. */
  readonly maxShift: number;
  /** |2^k|_{m_i} at index k·n + i, k ∈ [0, maxShift]. */
  readonly pow2: Float64Array;
  /** |2^-k|_{m_i} at index k·n + i, k ∈ [0, maxShift]. */
  readonly invPow2: Float64Array;
  /** Number of 21-bit limbs L covering bit lengths up to maxShift + 21. */
  readonly limbs: number;
  /** Limb j of |M_i|_{2^(21L)} at index i·L + j. */
  readonly miLimbs: Float64Array;
  /** Limb j of |M|_{2^(21L)}. */
  readonly mLimbs: Float64Array;
  /** |2^(21j)|_{m_i} at index j·n + i. */
  readonly limbPow: Float64Array;
  /** Extended-float upper bound of 1/(2M): fraction and exponent. */
  readonly halfInvMf: number;
  /** Exponent of the bound of 1/(2M). */
  readonly halfInvMe: number;
  /** Extended-float lower bound T of 2^p / M: a significand with I(X/M).up ≤ T is ≤ 2^p. */
  readonly roundThresholdF: number;
  /** Exponent of {@link roundThresholdF}. */
  readonly roundThresholdE: number;
  /** Scratch: ξ_i and other per-modulus values. */
  readonly scratchXi: Float64Array;
  /** Scratch: per-modulus values. */
  readonly scratchR: Float64Array;
  /** Scratch: limb accumulator of length L + 2. */
  readonly scratchLimbs: Float64Array;
}

const cache = new Map<string, RnsModuliSet>();
/** Every set {@link rnsModuliSet} made: the sets {@link checkModuliSet} accepts. */
const built = new WeakSet<RnsModuliSet>();
const tables = new WeakMap<RnsModuliSet, RnsTables>();

function isPrime(c: number): boolean {
  if (c < 2) return false;
  if (c % 2 === 0) return c === 2;
  for (let d = 3; d * d <= c; d += 2) if (c % d === 0) return false;
  return true;
}

/** The `count` largest odd primes below `bound` (descending), or fewer if there are not that many. */
function primesBelow(bound: number, count: number): number[] {
  const out: number[] = [];
  let c = Math.floor(bound) - 1;
  if (c % 2 === 0) c--;
  for (; c > 2 && out.length < count; c -= 2) if (isPrime(c)) out.push(c);
  return out;
}


/** |a^-1|_m by the extended Euclidean algorithm (a, m coprime, m < 2^26: all values exact doubles). */
function modInverse(a: number, m: number): number {
  let [r0, r1] = [a % m, m];
  let [s0, s1] = [1, 0];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

/** Whether log2 M sits in the admissible window for precision p (see {@link RnsModuliSet.precision}). */
function windowHolds(M: bigint, p: number): boolean {
  const lower = (1n << BigInt(2 * p + 2)) + (1n << BigInt(2 * p + 2 - 18));
  const upper = (1n << BigInt(2 * p + 4)) - (1n << BigInt(2 * p + 4 - 17));
  return M >= lower && M <= upper;
}

function log2BigInt(x: bigint): number {
  const b = bitLength(x);
  return b <= 53 ? Math.log2(Number(x)) : b - 53 + Math.log2(Number(x >> BigInt(b - 53)));
}

function build(precision: number, arithmetic: ResidueArithmetic): RnsModuliSet {
  const maxBits = MODULUS_BITS[arithmetic];
  // Aim log2 M at 2p + 3: pick n, then raise the modulus bound until prime gaps no longer leave M short;
  // if the bound would pass 2^maxBits, take one more modulus.
  const target = 2 * precision + 3;
  for (let n = Math.ceil(target / (maxBits - 0.05)); n <= 4 * target; n++) {
    let bits = target / n;
    for (let attempt = 0; attempt < 8 && bits <= maxBits; attempt++) {
      const primes = primesBelow(2 ** bits, n);
      if (primes.length < n) break;
      const M = primes.reduce((acc, m) => acc * BigInt(m), 1n);
      if (windowHolds(M, precision)) return makeSet(precision, arithmetic, primes, M);
      bits = Math.min(maxBits, bits + (target - log2BigInt(M)) / n);
      if (attempt > 0 && bits === maxBits && log2BigInt(M) < target - 1) break;
    }
  }
  const primes = largestFirstPrimes(precision, maxBits);
  if (primes) return makeSet(precision, arithmetic, primes, primes.reduce((acc, m) => acc * BigInt(m), 1n));
  return fail('INVALID_OPTION', 'precision', `cannot be reached with ${arithmetic} residues (moduli < 2^${maxBits})`, precision);
}

/**
 * The fallback where the balanced search above misses the window: near the end of the primes below 2^maxBits
 * (f32 sets from p = 1866), moving the bound by one prime changes log2 M by more than the window's two bits, and
 * 1866 ≤ p ≤ 2903 (all 564 odd primes below 2^12 reach p = 2903) were refused. Take the largest primes while their
 * product P stays below the window's lower end L, then one more prime q in [L/P, U/P]: the largest unused prime q
 * with P·q ≤ U is that one when P·q ≥ L, and since U/L ≈ 4 Bertrand's postulate puts a prime in (L/P, 2L/P], below
 * the primes taken (which were all needed: P·m < L for each of them but the last taken).
 * @returns the moduli, or undefined where even all primes below 2^maxBits fall short
 */
function largestFirstPrimes(precision: number, maxBits: number): number[] | undefined {
  const all = primesBelow(2 ** maxBits, Infinity);
  const lower = (1n << BigInt(2 * precision + 2)) + (1n << BigInt(2 * precision + 2 - 18));
  const upper = (1n << BigInt(2 * precision + 4)) - (1n << BigInt(2 * precision + 4 - 17));
  let P = 1n;
  let k = 0;
  while (k < all.length && P * BigInt(all[k]!) < lower) P *= BigInt(all[k++]!);
  for (let j = k; j < all.length; j++) {
    const M = P * BigInt(all[j]!);
    if (M <= upper) return M >= lower ? [...all.slice(0, k), all[j]!] : undefined;
  }
  return undefined;
}

function makeSet(precision: number, arithmetic: ResidueArithmetic, primes: number[], M: bigint): RnsModuliSet {
  const n = primes.length;
  primes.sort((a, b) => a - b);
  const moduli = new Float64Array(primes);
  const Mi = primes.map((m) => M / BigInt(m));
  const w = new Float64Array(primes.map((m, i) => modInverse(Number(Mi[i]! % BigInt(m)), m)));
  const bitsM = bitLength(M);
  const top = Number(M >> BigInt(bitsM - 53)); // exact: 53 bits
  const MfLo = top * 2 ** -53;
  const MfUp = (top + 1) * 2 ** -53;
  const Me = bitsM;
  // 4/√M ≤ 4/√(MfLo·2^Me) = (4/√(MfLo·2^(Me mod 2)))·2^-⌊Me/2⌋: sqrt and divide each round once, widened.
  const sq = Math.sqrt(MfLo * 2 ** (Me % 2)) * (1 - 2 ** -52);
  const uFrac = (4 / sq) * (1 + 2 ** -52);
  const uExp = -Math.floor(Me / 2);
  const suffix = arithmetic === 'f64' ? '' : arithmetic;
  return Object.freeze({
    name: `rns${precision}${suffix}`,
    residueArithmetic: arithmetic,
    precision,
    size: n,
    moduli,
    inverseModuli: new Float64Array(primes.map((m) => 1 / m)),
    inverseModuliF32: new Float32Array(primes.map((m) => 1 / m)),
    M,
    Mi: Object.freeze(Mi),
    w,
    bitsM,
    MfLo,
    MfUp,
    Me,
    unitRoundoff: Math.max(uFrac * 2 ** uExp, Number.MIN_VALUE),
    unitRoundoffLog2: Math.log2(uFrac) + uExp,
    evalError: n * 2 ** -51,
  });
}

/**
 * The moduli set for a precision of `precision` bits (cached: the same object for the same arguments).
 *
 * @param precision - significand precision p in bits, an integer in [53, 4096]
 * @param residueArithmetic - `'f64'` (CPU, default), `'u32'` or `'f32'` (GPU sets)
 * @returns the moduli set with its CRT and interval-evaluation constants
 * @throws {@link ModprecError} `INVALID_SIZE` if `precision` is not an integer in range;
 *   `INVALID_OPTION` for an unknown residue arithmetic or a precision it cannot reach
 * @example
 * ```ts
 * import { rnsModuliSet } from 'modprec';
 *
 * const set = rnsModuliSet(212);
 * set.size;          // 17 moduli below 2^26
 * set.unitRoundoff;  // < 2^-211
 * ```
 * @group RNS
 */
export function rnsModuliSet(precision: number, residueArithmetic: ResidueArithmetic = 'f64'): RnsModuliSet {
  if (typeof precision !== 'number' || !Number.isInteger(precision) || precision < MIN_PRECISION || precision > MAX_PRECISION) {
    fail('INVALID_SIZE', 'precision', `must be an integer in [${MIN_PRECISION}, ${MAX_PRECISION}]`, precision);
  }
  if (residueArithmetic !== 'f64' && residueArithmetic !== 'u32' && residueArithmetic !== 'f32') {
    fail('INVALID_OPTION', 'residueArithmetic', "must be 'f64', 'u32' or 'f32'", residueArithmetic);
  }
  const key = `${residueArithmetic}:${precision}`;
  let set = cache.get(key);
  if (!set) {
    set = build(precision, residueArithmetic);
    cache.set(key, set);
    built.add(set);
  }
  return set;
}

/**
 * Throws unless `set` is a moduli set made by {@link rnsModuliSet}. One WeakSet lookup: an object that only looks like
 * one ({ size, precision, moduli }, a copy with other moduli) passed the former shape test and then threw a TypeError
 * or a RangeError (division by zero) deep in the tables, or computed with moduli that were not the set's.
 * @throws {@link ModprecError} `INVALID_VALUE` naming `parameter`
 */
export function checkModuliSet(parameter: string, set: unknown): asserts set is RnsModuliSet {
  if (!built.has(set as RnsModuliSet)) {
    fail('INVALID_VALUE', parameter, 'must be a moduli set made by rnsModuliSet (a copy or a look-alike is not one)', set);
  }
}

/** |a·b|_m for a, b ∈ [0, m), m < 2^26.5 (the product is exact in a double). */
export function modMul(a: number, b: number, m: number, invM: number): number {
  const p = a * b;
  const r = p - Math.floor(p * invM) * m;
  return r < 0 ? r + m : r >= m ? r - m : r;
}

/**
 * The CPU tables of `set` (powers of two modulo each m_i, limb images of M_i and M, scratch), built once.
 * @param set - a moduli set from {@link rnsModuliSet}
 * @throws {@link ModprecError} `INVALID_VALUE` naming `set` for anything {@link rnsModuliSet} did not make
 * @example
 * ```ts
 * import { rnsModuliSet, rnsTables } from 'modprec';
 *
 * const tables = rnsTables(rnsModuliSet(106));   // built on first use, then shared
 * tables === rnsTables(rnsModuliSet(106)); // → true
 * ```
 * @group RNS
 */
export function rnsTables(set: RnsModuliSet): RnsTables {
  let t = tables.get(set);
  if (t) return t;
  checkModuliSet('set', set);
  const n = set.size;
  const p = set.precision;
  const maxShift = 2 * p + 8;
  const { moduli, inverseModuli } = set;
  const pow2 = new Float64Array((maxShift + 1) * n);
  const invPow2 = new Float64Array((maxShift + 1) * n);
  for (let i = 0; i < n; i++) {
    const m = moduli[i]!;
    const half = (m + 1) / 2; // |2^-1|_m for odd m
    let a = 1;
    let b = 1;
    for (let k = 0; k <= maxShift; k++) {
      pow2[k * n + i] = a;
      invPow2[k * n + i] = b;
      a = modMul(a, 2, m, inverseModuli[i]!);
      b = modMul(b, half, m, inverseModuli[i]!);
    }
  }
  const limbs = Math.ceil((maxShift + LIMB_BITS) / LIMB_BITS);
  const mask = (1n << BigInt(LIMB_BITS)) - 1n;
  const miLimbs = new Float64Array(n * limbs);
  for (let i = 0; i < n; i++) {
    let v = set.Mi[i]!;
    for (let j = 0; j < limbs; j++) { miLimbs[i * limbs + j] = Number(v & mask); v >>= BigInt(LIMB_BITS); }
  }
  const mLimbs = new Float64Array(limbs);
  let v = set.M;
  for (let j = 0; j < limbs; j++) { mLimbs[j] = Number(v & mask); v >>= BigInt(LIMB_BITS); }
  const limbPow = new Float64Array(limbs * n);
  for (let j = 0; j < limbs; j++) for (let i = 0; i < n; i++) {
    limbPow[j * n + i] = Number((1n << BigInt(LIMB_BITS * j)) % BigInt(moduli[i]!));
  }
  // 1/(2M) ≤ (0.5/MfLo)·2^-Me, rounded up once; 2^p/M ≥ (1/MfUp)·2^(p−Me), rounded down once.
  const h = (0.5 / set.MfLo) * (1 + 2 ** -52);
  const th = (1 / set.MfUp) * (1 - 2 ** -52);
  normalize(h, 0);
  const [hF, hExp] = [EXT.f, EXT.e];
  normalize(th, 0);
  const [tF, tExp] = [EXT.f, EXT.e];
  t = {
    maxShift,
    pow2,
    invPow2,
    limbs,
    miLimbs,
    mLimbs,
    limbPow,
    halfInvMf: hF,
    halfInvMe: hExp - set.Me,
    roundThresholdF: tF,
    roundThresholdE: tExp + p - set.Me,
    scratchXi: new Float64Array(n),
    scratchR: new Float64Array(n),
    scratchLimbs: new Float64Array(limbs + 2),
  };
  tables.set(set, t);
  return t;
}
