/**
 * The moduli set of RNS numbers on the GPU, and the constant tables its kernels read.
 *
 * **Moduli.** WGSL has neither 64-bit integers nor f64, so the moduli are odd primes below 2^16: a residue
 * product a·b < m² < 2^32 is exact in `u32`, and u32 `%` is exact, so |a·b|_m is one `mpMulMod` (proof: a, b < m
 * ≤ 2^16 − 15 ⇒ a·b ≤ (2^16 − 16)² < 2^32, no wrap-around). The set takes the largest primes below 2^16 (all
 * above 2^15 for the sizes used here) until log2 M ≥ 3p + 81.
 *
 * The kernels' hot loops use `mpMulModR(a, b, m, r)`, which avoids integer division: with x = a·b < 2^32 (u32, exact)
 * and r = fl(1/m) from the table (correctly rounded on the host), q = ⌊fl(fl(x)·r)⌋. The conversion (faithful in
 * WGSL: ≤ 2^-23 relative), r (≤ 2^-24) and the product (≤ 2^-24) give |q̃ − x/m| ≤ 2^17·2^-22 < 1 for the float
 * quotient q̃ (x/m < 2^17 since m > 2^15), so q ∈ {⌊x/m⌋ − 1, ⌊x/m⌋, ⌊x/m⌋ + 1} and r = x − q·m (u32 wrap-around,
 * read as i32: the true value lies in (−m, 2m)) needs one conditional add or subtract of m. The argument holds for
 * any relative float error up to 2^-18, so compiler approximations cannot break it. Nothing in it needs a, b < m: any
 * u32 product works, so mpMulModR(v, 1, m, r) reduces any 32-bit word v (the kernels use it instead of u32 `%`,
 * an integer division of some twenty instructions).
 *
 * **Why M is larger than the CPU's (2p + 3 bits).** A kernel's sum Σ t_j of exact products t_j = X·Y·2^f (X, Y ≤
 * 2^p) is accumulated exactly in the residues on one grid 2^G (see `grid.ts`): every aligned term must fit, with
 * the sum of up to 2^32 terms staying below M/4, while terms below the grid are dropped with a total below
 * 2^-p·max|t_j|. Both hold together when log2 M − 1 ≥ 3p + 2·log2 N + 14 (proof in `grid.ts`), hence 3p + 80 for
 * N ≤ 2^32. The precision stays p: results are rounded to p bits, so the format's unit roundoff (that of the CPU
 * set of the same p) bounds every rounding.
 *
 * **Word encoding.** Every integer the device stores (residue, sign, exponent, evaluation) is kept as v + 2^30 in
 * a 32-bit word bound as f32: the word is then always a normal binary32 (never a subnormal or NaN pattern that a
 * GPU could flush or canonicalise), for |v| < 2^29.
 *
 * @module
 */
import { fail } from '../../../core/errors.js';
import { bitLength } from '../../../core/bit-length.js';
import { MAX_PRECISION, MIN_PRECISION } from '../moduli-set.js';

/** Bias of every integer word on the device (v is stored as v + 2^30). @group GPU */
export const WORD_BIAS = 2 ** 30;

/**
 * Largest |exponent| of a number uploaded to the device: 2^28, so that products and sums of device numbers stay
 * within the ±2^29 a biased word holds.
 * @group GPU
 */
export const DEVICE_MAX_EXPONENT = 2 ** 28;

/**
 * A GPU moduli set (primes below 2^16) and its tables.
 * @group GPU
 */
export interface RnsDeviceSet {
  /** Precision p: significands ≤ 2^p, results rounded to p bits. */
  readonly precision: number;
  /** Number of moduli n. */
  readonly size: number;
  /** The moduli, descending. */
  readonly moduli: Uint32Array;
  /** w_i = |M_i^-1|_{m_i}. */
  readonly w: Uint32Array;
  /** M = ∏ m_i. */
  readonly M: bigint;
  /** M_i = M / m_i. */
  readonly Mi: readonly bigint[];
  /** Bit length of M. */
  readonly bitsM: number;
  /** Number of 16-bit limbs of M (and of every M_i). */
  readonly limbs: number;
  /** Number of entries |2^(16a)|_{m_i}, a ∈ [0, pow16), per modulus; entry (a, i) at a·n + i (threads of adjacent moduli read adjacent words). */
  readonly pow16: number;
  /** Number of entries |2^d|_{m_i}, d ∈ [0, pow2), per modulus (every grid shift is below bitsM); entry (d, i) at d·n + i. */
  readonly pow2: number;
  /** μ = ⌊2^(bitsM + 23)/M⌋ ∈ [2^23, 2^24): 1/M ∈ [μ, μ + 1]·2^-(bitsM + 23). */
  readonly mu: number;
  /**
   * The prefix sets of the bounded rounding (normalize-webgpu.ts): level λ holds the first n'_λ moduli, their
   * product M'_λ, its bit length and 16-bit limb count, ascending in n'_λ; the last level is the whole set.
   */
  readonly levels: readonly RnsDeviceLevel[];
  /** The device table (words as a Uint32Array; float entries are binary32 bits). */
  readonly table: Uint32Array;
  /**
   * Word offsets of the parts of `table`. `levels`: 4 words per level (n', limbs L', capacity bitsM' − 3, offset of
   * its data); a level's data at that offset: w'_i = |(M'/m_i)^-1|_{m_i} (n' words), the L' limbs of every M'/m_i
   * (word i·L' + j after the w'), the L' limbs of M'.
   */
  readonly offsets: { readonly moduli: number; readonly inverse: number; readonly pow16: number; readonly pow2: number; readonly levels: number };
}

/**
 * A prefix of a device moduli set: the first `size` moduli, M' their product.
 * @group GPU
 */
export interface RnsDeviceLevel {
  /** n': number of moduli. */
  readonly size: number;
  /** Bit length of M'. */
  readonly bitsM: number;
  /** 16-bit limbs of M' (and of every M'/m_i): ⌈bitsM/16⌉. */
  readonly limbs: number;
}

/** The largest odd primes below 2^16, descending (enough for p = 4096). */
function primesDescending(): number[] {
  const limit = 65536;
  const sieve = new Uint8Array(limit);
  const out: number[] = [];
  for (let c = 2; c < limit; c++) {
    if (sieve[c]) continue;
    for (let k = c * c; k < limit; k += c) sieve[k] = 1;
  }
  for (let c = limit - 1; c > 2 ** 15; c--) if (!sieve[c] && c % 2 === 1) out.push(c);
  return out;
}

let primes: number[] | undefined;
const cache = new Map<number, RnsDeviceSet>();


function modInverse(a: number, m: number): number {
  let [r0, r1, s0, s1] = [a % m, m, 1, 0];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

/**
 * Writes the `count` 16-bit limbs of v ≥ 0 (least significant first) at `table[at …]`, from its hexadecimal digits:
 * linear in v's length, where shifting a BigInt limb by limb is quadratic (seconds for the p = 4096 tables).
 */
function writeLimbs(table: Uint32Array, at: number, v: bigint, count: number): void {
  const hex = v.toString(16);
  for (let j = 0; j < count; j++) {
    const end = hex.length - 4 * j;
    table[at + j] = end <= 0 ? 0 : parseInt(hex.slice(Math.max(0, end - 4), end), 16);
  }
}

/** Most prefix levels of a set: the bounded rounding picks the first that fits by a scan of this many entries. */
const MAX_LEVELS = 16;

/**
 * The prefixes of `moduli` the bounded rounding uses: every s-th count of moduli, s = ⌈n/16⌉, then the whole set —
 * at most 17 levels, so a value needs at most s − 1 more moduli than the fewest that hold it, and the tables stay
 * below n³/(3s) words (≈ 0.55 M at p = 1696).
 */
function prefixLevels(moduli: readonly number[]): { size: number; M: bigint; bitsM: number; limbs: number }[] {
  const n = moduli.length, step = Math.max(1, Math.ceil(n / MAX_LEVELS));
  const out: { size: number; M: bigint; bitsM: number; limbs: number }[] = [];
  let M = 1n;
  for (let size = 1; size <= n; size++) {
    M *= BigInt(moduli[size - 1]!);
    if (size % step === 0 || size === n) {
      const bitsM = bitLength(M);
      out.push({ size, M, bitsM, limbs: Math.ceil(bitsM / 16) });
    }
  }
  return out;
}

/**
 * The GPU moduli set for precision p (cached).
 * @param precision - p in bits, an integer in [53, 4096]
 * @returns the set with its tables
 * @throws {@link modprec!ModprecError} `INVALID_SIZE` for p out of range
 * @example
 * ```ts
 * import { rnsDeviceSet } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(424);
 * set.bitsM - 1 >= 3 * 424 + 80; // → true
 * ```
 * @group GPU
 */
export function rnsDeviceSet(precision: number): RnsDeviceSet {
  if (!Number.isInteger(precision) || precision < MIN_PRECISION || precision > MAX_PRECISION) {
    fail('INVALID_SIZE', 'precision', `must be an integer in [${MIN_PRECISION}, ${MAX_PRECISION}]`, precision);
  }
  const known = cache.get(precision);
  if (known) return known;
  primes ??= primesDescending();
  const chosen: number[] = [];
  let M = 1n;
  while (bitLength(M) - 1 < 3 * precision + 80) {
    const m = primes[chosen.length]!;
    chosen.push(m);
    M *= BigInt(m);
  }
  const n = chosen.length;
  const bitsM = bitLength(M);
  const limbs = Math.ceil(bitsM / 16);
  const pow16 = Math.ceil(bitsM / 16) + 1;
  const Mi = chosen.map((m) => M / BigInt(m));
  const w = new Uint32Array(chosen.map((m, i) => modInverse(Number(Mi[i]! % BigInt(m)), m)));
  const mu = Number((1n << BigInt(bitsM + 23)) / M);
  const pow2 = bitsM;
  const levelSets = prefixLevels(chosen);
  // The whole set's CRT constants (w_i, the limbs of M_i and M) are those of the last level.
  const levelsAt = 2 * n + n * pow16 + n * pow2;
  const offsets = { moduli: 0, inverse: n, pow16: 2 * n, pow2: 2 * n + n * pow16, levels: levelsAt };
  let words = levelsAt + 4 * levelSets.length;
  const levelData = levelSets.map((l) => { const at = words; words += l.size + l.size * l.limbs + l.limbs; return at; });
  const buffer = new ArrayBuffer(words * 4);
  const table = new Uint32Array(buffer);
  const floats = new Float32Array(buffer);
  chosen.forEach((m, i) => {
    table[offsets.moduli + i] = m;
    floats[offsets.inverse + i] = 1 / m;
    for (let d = 0, q = 1; d < pow2; d++, q = (q * 2) % m) table[offsets.pow2 + d * n + i] = q;
    let p = 1;
    for (let a = 0; a < pow16; a++) {
      table[offsets.pow16 + a * n + i] = p;
      p = (p * 65536) % m;
    }
  });
  levelSets.forEach((l, lambda) => {
    const at = levelData[lambda]!;
    table.set([l.size, l.limbs, l.bitsM - 3, at], levelsAt + 4 * lambda);
    for (let i = 0; i < l.size; i++) {
      const m = chosen[i]!;
      const mi = l.M / BigInt(m);
      table[at + i] = modInverse(Number(mi % BigInt(m)), m);
      writeLimbs(table, at + l.size + i * l.limbs, mi, l.limbs);
    }
    writeLimbs(table, at + l.size + l.size * l.limbs, l.M, l.limbs);
  });
  const levels = Object.freeze(levelSets.map((l) => Object.freeze({ size: l.size, bitsM: l.bitsM, limbs: l.limbs })));
  const set: RnsDeviceSet = Object.freeze({
    precision, size: n, moduli: new Uint32Array(chosen), w, M, Mi: Object.freeze(Mi), bitsM, limbs, pow16, pow2, mu, levels, table, offsets: Object.freeze(offsets),
  });
  cache.set(precision, set);
  return set;
}
