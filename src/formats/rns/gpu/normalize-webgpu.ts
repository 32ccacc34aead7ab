/**
 * Rounding on the device, bounded by the size of each value: an accumulator — the residues x̃_i = X̃ mod m_i of a
 * signed integer X̃, a grid exponent G, the sign a zero takes, and a bit bound β with |X̃| < 2^β ≤ M/4 — becomes the
 * device numbers ±round(|X̃|/2^k)·2^(G+k), rounded to nearest (ties to even) to p bits, with their sign, exponent
 * and interval evaluation. The result is the one of a full CRT over all moduli and limbs (Θ(n²) per number whatever
 * its size); only the work shrinks with β:
 *
 * - **The fewest moduli that hold X̃.** For a prefix m_1 … m_{n'} of the set with product M' ≥ 2^(β+2) (a level
 *   of device-set.ts: the first whose capacity bitsM' − 3 is ≥ β), |X̃| < 2^β ≤ 2^(bitsM'−3) ≤ M'/4, so the
 *   prefix's CRT gives X̃ from x̃_1 … x̃_{n'} alone: X̃ = Σ_{i<n'} ξ'_i·M'_i − K'·M' with ξ'_i = |x̃_i·w'_i|_{m_i},
 *   w'_i = |(M'/m_i)^-1|_{m_i} and K' = round(Σ ξ'_i/m_i), exact as in the full CRT (X̃/M' mod 1 ∈ [0, ¼] ∪ [¾, 1),
 *   and the binary32 sum errs by < n'·2^-22.9 + n'²·2^-24 ≤ 0.06 < ¼ for n' ≤ 1000, in any evaluation order).
 * - **The fewest limbs.** With L_e = ⌈(β + 1)/16⌉ limbs, |X̃| < 2^(16·L_e − 1): X̃ mod 2^(16·L_e), which needs only
 *   columns 0 … L_e − 1 of the CRT sum (limbs of M'_i and M' below 16·L_e bits), is X̃'s two's complement, its top
 *   bit X̃'s sign, and the same columns negated give |X̃| (0 < −X̃ < 2^(16·L_e)). L_e ≤ L' (the level's limbs) since
 *   β + 1 ≤ bitsM' − 2.
 * - **No limbs for an exact result.** When k = 0 (|X̃| has at most p bits) the residues of |X̃| are x̃_i or m_i − x̃_i:
 *   the residue threads read no limbs.
 *
 * Per number: n' + n'·L_e modular products and multiply-adds, instead of n + n·limbs (limbs ≈ n: the moduli are
 * 16-bit). A sum of products of doubles at 424 bits (β ≈ 70: n' = 6, L_e = 5) takes 30 instead of 7225; a GEMV row
 * with a full-precision x (β ≈ p + 90) about (β/16)² ≈ (p/16)². Four programs (three by default):
 *
 * 1. **Quotient** (thread per element): the level, and K'. By default (kernel-switches.ts `columnQuotient`) there is
 *    no such pass: each thread of program 2 finds its element's level and K' in the loop that makes the ξ'_i anyway.
 * 2. **Columns** (thread per limb j and element, so that a warp's threads share j and whole warps beyond every L_e
 *    return at once): column j < L_e of Σ ξ'_i·M'_i − K'·M' as sums of the low and high 16 bits of its products
 *    (each below n'·2^16); zeros beyond L_e (never read). Tiled (the default, kernel-switches.ts `columnTiles`): the
 *    threads and columns of 64 elements at a time, limb-major within the tile — an element's accumulator row is
 *    read by its L_e threads while it is still in cache (j-major over the whole vector, each column re-read it from
 *    DRAM: at n = 10^6 and 120 bits, ≈ 8 reads of a 75 MB working set, the bulk of the pass).
 * 3. **Sign and size** (two threads per element): carries the columns through to the limbs of X̃ mod 2^(16·L_e) —
 *    bit 16·L_e − 1 is the sign — and for X̃ < 0 once more negated; the bit length b and top 24 bits T of |X̃|
 *    (first thread); the carry into limb q = ⌊k/16⌋, k = max(0, b − p), and the rounding increment (round bit,
 *    sticky bits, last kept bit: to nearest, ties to even; second thread).
 * 4. **Words** (thread per output word): for k = 0, ±x̃_i; else the limbs q … ⌊(b − 1)/16⌋ of |X̃| shifted right by
 *    k, Σ limb·|2^(16j)|_m as two sums of 16-bit halves (below limbs·2^16: no reduction in the loop), reduced once,
 *    plus the increment. Scalar threads write the sign, exponent G + k and the evaluation (device-eval.ts).
 *
 * The passes read the accumulator through a view (accumulator-view.ts): a stored accumulator, or — for an update
 * α·x + β·y with kernel-switches.ts `updateNoAccumulator` — residues formed from x, y and the terms' codes.
 *
 * @module
 */
import type { GpuRuntime } from '../../../backends/webgpu/runtime.js';
import { getProgram, type Pass, type Program, type ProgramSpec } from '../../../backends/webgpu/program.js';
import { rnsRoundingSwitches } from '../../../backends/webgpu/kernel-switches.js';
import type { GpuBuffer } from '../../../backends/webgpu/webgpu-types.js';
import { WORD_BIAS, type RnsDeviceSet } from './device-set.js';
import { fieldWordsSource } from './normalize-fields.js';
import { fourWordsArgs, fourWordsSource, fourWordsThreads } from './four-words.js';
import { storedAccumulator, type AccumulatorView } from './accumulator-view.js';
import type { BoundArray } from '../../../backends/webgpu/program.js';

const B = WORD_BIAS;

/** Elements per tile of the tiled column layout. */
const TILE = 64;

/**
 * How the columns are stored (kernel-switches.ts): tiled or j-major; as one word per column, lo_j + hi_(j−1) (the
 * only sum of them the sweep uses: |·| < 2·n'·2^16 ≤ 2^29 for n' ≤ 4096, a biased word), or as the pair (lo_j, hi_j).
 */
interface ColumnForm {
  readonly tiled: boolean;
  readonly word: boolean;
  /**
   * Tiled single words, two limbs a thread (`columnPairs`): thread (tile, j/2, e mod 64) writes columns j and j + 1
   * of e as its two words, so column j of e is word ⌊e/64⌋·128·⌈limbs/2⌉ + 128·⌊j/2⌋ + 2·(e mod 64) + j mod 2.
   */
  readonly pairs: boolean;
}

/** Limb pairs of a set (two-limb column threads). */
function limbPairs(set: RnsDeviceSet): number {
  return Math.ceil(set.limbs / 2);
}

/**
 * Source declaring `cb`, the unit of element e's column 0 in the column buffer; column j is at unit `cb + cs·j`
 * with `cs` from {@link columnStride} (tiled: ⌊e/64⌋·64·limbs + e mod 64, stride 64; else e, stride count).
 */
function columnBase(set: RnsDeviceSet, { tiled, pairs }: ColumnForm): string {
  if (pairs) return `const cb = (e >> 6) * ${2 * TILE * limbPairs(set)} + 2 * (e & 63);`;
  return tiled ? `const cb = (e >> 6) * ${TILE * set.limbs} + (e & 63);` : 'const cb = e;';
}

function columnStride({ tiled }: ColumnForm): string {
  return tiled ? String(TILE) : 'count';
}

/** Source declaring `bb` (β of element e) and `Le` = ⌈(β + 1)/16⌉ from the accumulator's bit bound. */
function boundOf(view: AccumulatorView): string {
  return `const bb = ${view.bound('e')};
const Le = (bb + 16) >> 4;`;
}

/** Source declaring the level `lam`'s size `np`, limbs `Ll` and data offset `at`. */
function levelOf(set: RnsDeviceSet): string {
  const lv = set.offsets.levels;
  return `const np = mpBits(Tb[${lv} + 4 * lam]);
const Ll = mpBits(Tb[${lv} + 4 * lam + 1]);
const at = mpBits(Tb[${lv} + 4 * lam + 3]);`;
}

/** Source of ξ'_i = |x̃_i·w'_i|_{m_i} for modulus i of element e (level data at `at`). */
function xiPrime(set: RnsDeviceSet, view: AccumulatorView): string {
  const o = set.offsets;
  return `const m = mpBits(Tb[${o.moduli} + i]);
const rm = Tb[${o.inverse} + i];
${view.residue('e', 'i', false)}
const xi = mpMulModR(ar, mpBits(Tb[at + i]), m, rm);`;
}

/** The array arguments of a pass reading the view's residues (four-words: from vectors) and streams, in order. */
function viewArrays(view: AccumulatorView, quad: boolean): string[] {
  return [...new Set([...view.residueArrays(quad), ...view.streamArrays])];
}

/** Source declaring the level `lam`: the first whose capacity holds β (`bb`). */
function levelScan(set: RnsDeviceSet): string {
  const lv = set.offsets.levels;
  return `let lam = mpI32(${set.levels.length - 1});
let found = mpI32(0);
for (let l = mpI32(0); l < ${set.levels.length}; l++) {
  if (found === 0 && mpBits(Tb[${lv} + 4 * l + 2]) >= bb) { lam = l; found = 1; }
}`;
}

/** Thread per element: the level λ (the first whose capacity holds β) and K' = round(Σ_{i<n'} ξ'_i·fl(1/m_i)). */
function quotientSource(set: RnsDeviceSet, view: AccumulatorView): string {
  return `function (${viewArrays(view, false).join(', ')}, Tb, count) {
const e = this.thread.x;
${boundOf(view)}
${levelScan(set)}
${levelOf(set)}
let s = 0.0;
${view.prelude('e')}
for (let i = mpI32(0); i < np; i++) {
  ${xiPrime(set, view)}
  s = s + mpToFloat(xi) * rm;
}
return [mpFloat(mpToInt(Math.floor(s + 0.5)) + ${B}), mpFloat(lam + ${B})];
}`;
}

/**
 * Thread per limb j and element e: column j of Σ ξ'_i·M'_i − K'·M' for j < L_e, else zeros. Tiled: t = ⌊e/64⌋·64·limbs
 * + 64·j + e mod 64 (threads past the last element write zeros); else t = j·count + e. With `fused`, the thread finds
 * the level and K' itself, in the loop that makes the ξ'_i anyway (program 1's sum, term for term: K' is exact in any
 * evaluation order, so it is program 1's K'), and the program reads no Kq.
 */
function columnsSource(set: RnsDeviceSet, view: AccumulatorView, form: ColumnForm, fused: boolean, noZeros: boolean): string {
  const zero = form.word ? `mpFloat(${B})` : `[mpFloat(${B}), mpFloat(${B})]`;
  const none = noZeros ? 'mpNoStore();' : `return ${zero};`;
  const index = form.tiled
    ? `const tile = mpIdiv(t, ${TILE * set.limbs});
const r = t - tile * ${TILE * set.limbs};
const j = r >> 6;
const e = tile * ${TILE} + (r & 63);
if (e >= count) { ${none} }`
    : `const j = mpIdiv(t, count);
const e = t - j * count;`;
  return `function (${viewArrays(view, false).join(', ')}, ${fused ? 'Tb, count' : 'Kq, Tb, count'}) {
const t = this.thread.x;
${index}
${boundOf(view)}
if (j >= Le) { ${none} }
${fused ? levelScan(set) : `const lam = mpBits(Kq[2 * e + 1]) - ${B};`}
${levelOf(set)}
let lo = mpI32(0);
let hi = mpI32(0);
let s = 0.0;
${view.prelude('e')}
for (let i = mpI32(0); i < np; i++) {
  ${xiPrime(set, view)}
  ${fused ? 's = s + mpToFloat(xi) * rm;' : ''}
  const p = xi * mpBits(Tb[at + np + i * Ll + j]);
  lo = lo + (p & 65535);
  ${form.word ? `if (j > 0) {
    const pp = xi * mpBits(Tb[at + np + i * Ll + j - 1]);
    hi = hi + ((pp >> 16) & 65535);
  }` : 'hi = hi + ((p >> 16) & 65535);'}
}
const K = ${fused ? 'mpToInt(Math.floor(s + 0.5))' : `mpBits(Kq[2 * e]) - ${B}`};
const q = K * mpBits(Tb[at + np + np * Ll + j]);
lo = lo - (q & 65535);
${form.word ? `if (j > 0) {
  const qq = K * mpBits(Tb[at + np + np * Ll + j - 1]);
  hi = hi - ((qq >> 16) & 65535);
}
return mpFloat(lo + hi + ${B});` : `hi = hi - ((q >> 16) & 65535);
return [mpFloat(lo + ${B}), mpFloat(hi + ${B})];`}
}`;
}

/**
 * {@link columnsSource} with two limbs a thread (tiled single words, {@link ColumnForm}): columns j and j + 1 from one
 * ξ'_i per modulus — v_j = lo_j + hi_(j−1) and v_(j+1) = lo_(j+1) + hi_j — and 0 for v_(j+1) when j + 1 ≥ L_e (never read;
 * its table reads are clamped to the level's last limb, L_e ≤ L').
 */
function columnPairSource(set: RnsDeviceSet, view: AccumulatorView, fused: boolean, noZeros: boolean): string {
  const none = noZeros ? 'mpNoStore();' : `return [mpFloat(${B}), mpFloat(${B})];`;
  const per = TILE * limbPairs(set);
  const limb = (i: string, j: string): string => `mpBits(Tb[at + np + ${i} * Ll + ${j}])`;
  return `function (${viewArrays(view, false).join(', ')}, ${fused ? 'Tb, count' : 'Kq, Tb, count'}) {
const t = this.thread.x;
const tile = mpIdiv(t, ${per});
const r = t - tile * ${per};
const j = 2 * (r >> 6);
const e = tile * ${TILE} + (r & 63);
if (e >= count) { ${none} }
${boundOf(view)}
if (j >= Le) { ${none} }
${fused ? levelScan(set) : `const lam = mpBits(Kq[2 * e + 1]) - ${B};`}
${levelOf(set)}
const j1 = mpImin(j + 1, Ll - 1);
let lo0 = mpI32(0);
let lo1 = mpI32(0);
let h0 = mpI32(0);
let hp = mpI32(0);
let s = 0.0;
${view.prelude('e')}
for (let i = mpI32(0); i < np; i++) {
  ${xiPrime(set, view)}
  ${fused ? 's = s + mpToFloat(xi) * rm;' : ''}
  const p0 = xi * ${limb('i', 'j')};
  const p1 = xi * ${limb('i', 'j1')};
  lo0 = lo0 + (p0 & 65535);
  h0 = h0 + ((p0 >> 16) & 65535);
  lo1 = lo1 + (p1 & 65535);
  if (j > 0) {
    const pp = xi * ${limb('i', 'j - 1')};
    hp = hp + ((pp >> 16) & 65535);
  }
}
const K = ${fused ? 'mpToInt(Math.floor(s + 0.5))' : `mpBits(Kq[2 * e]) - ${B}`};
const q0 = K * ${limb('np', 'j')};
const q1 = K * ${limb('np', 'j1')};
lo0 = lo0 - (q0 & 65535);
h0 = h0 - ((q0 >> 16) & 65535);
lo1 = lo1 - (q1 & 65535);
if (j > 0) {
  const qq = K * ${limb('np', 'j - 1')};
  hp = hp - ((qq >> 16) & 65535);
}
let v1 = lo1 + h0;
if (j + 1 >= Le) { v1 = 0; }
return [mpFloat(lo0 + hp + ${B}), mpFloat(v1 + ${B})];
}`;
}

/**
 * The limb sweep of programs 3 and 4: defines `limb` for j = from … to, from the carry `carry0` into limb `from` and
 * `ph0` = the high half of column from − 1 (column j of element e at unit cb + cs·j, {@link columnBase}; a unit is
 * the pair (lo_j, hi_j), or the word lo_j + hi_(j−1) which already holds the high half, {@link ColumnForm}).
 */
function sweepOpen(form: ColumnForm, from: string, to: string, carry0 = 'mpI32(0)', ph0 = 'mpI32(0)'): string {
  const cs = columnStride(form);
  const read = form.pairs
    ? `const v = mpBits(C[cb + ${2 * TILE} * (j >> 1) + (j & 1)]) - ${B};`
    : form.word
    ? `const v = mpBits(C[cb + ${cs} * j]) - ${B};`
    : `const lo = mpBits(C[2 * (cb + ${cs} * j)]) - ${B};
  const hi = mpBits(C[2 * (cb + ${cs} * j) + 1]) - ${B};
  const v = lo + ph;
  ph = hi;`;
  return `let carry = ${carry0};
${form.word ? '' : `let ph = ${ph0};`}
for (let j = ${from}; j <= ${to}; j++) {
  ${read}
  const cin = carry;
  const tt = sg * v + carry;
  const limb = tt & 65535;
  carry = tt >> 16;`;
}

function sizeSource(set: RnsDeviceSet, view: AccumulatorView, form: ColumnForm): string {
  const p = set.precision;
  return `function (C, ${view.streamArrays.join(', ')}, count) {
const e = mpIdiv(this.thread.x, 2);
const h = this.thread.x - 2 * e;
${columnBase(set, form)}
${boundOf(view)}
let neg = mpI32(0);
let b = mpI32(0);
let T = mpI32(0);
for (let pass = mpI32(0); pass < 2; pass++) {
if (pass === 0 || neg !== 0) {
let sg = 1 - 2 * neg;
let w1 = mpI32(0);
let w2 = mpI32(0);
let top = mpI32(0);
let t1 = mpI32(0);
let t2 = mpI32(0);
let J = mpI32(-1);
let last = mpI32(0);
${sweepOpen(form, 'mpI32(0)', 'Le - 1')}
  if (limb !== 0) { J = j; top = limb; t1 = w1; t2 = w2; }
  w2 = w1;
  w1 = limb;
  last = limb;
}
if (pass === 0) { neg = (last >> 15) & 1; }
if ((neg === 0 || pass === 1) && J >= 0) {
  let bl = mpI32(0);
  for (let r = mpI32(0); r < 16; r++) { if ((top >> r) !== 0) { bl = r + 1; } }
  b = 16 * J + bl;
  let need = 24 - bl;
  let acc = top;
  if (need >= 16) { acc = (acc << 16) | t1; need = need - 16; acc = (acc << need) | (t2 >> (16 - need)); }
  else { acc = (acc << need) | (t1 >> (16 - need)); }
  T = acc;
}
}
}
if (h === 0) { return [mpFloat(neg + 2 * b + ${B}), mpFloat(T + ${B})]; }
let k = b - ${p};
if (k < 0) { k = 0; }
const q = k >> 4;
const s = k & 15;
const kb = k - 1;
const qb = kb >> 4;
const sb = kb & 15;
const sg = 1 - 2 * neg;
let rb = mpI32(0);
let st = mpI32(0);
let lsb = mpI32(0);
let carryq = mpI32(0);
${sweepOpen(form, 'mpI32(0)', 'q')}
  if (j === q) { carryq = cin; lsb = (limb >> s) & 1; }
  if (k > 0) {
    if (j < qb) { st = st | limb; }
    if (j === qb) { rb = (limb >> sb) & 1; st = st | (limb & ((1 << sb) - 1)); }
  }
}
let inc = mpI32(0);
if (k > 0 && rb !== 0 && (st !== 0 || lsb !== 0)) { inc = 1; }
return [mpFloat(carryq + ${B}), mpFloat(inc + ${B})];
}`;
}

/**
 * Thread per output word (residues, then the six field streams). With `vector` (the four-words form, four-words.ts),
 * residue t = e·n + slot of the accumulator is component t − 4q of the thread's vectors (the view's quad loads).
 */
function wordsSource(set: RnsDeviceSet, view: AccumulatorView, form: ColumnForm, vector = false): string {
  const n = set.size, o = set.offsets, p = set.precision;
  return `function (${viewArrays(view, vector).join(', ')}, C, W, Tb, count) {
const t = this.thread.x;
let e = mpI32(0);
let slot = mpI32(0);
if (t < ${n} * count) { e = mpIdiv(t, ${n}); slot = t - e * ${n}; }
else { const fi = mpIdiv(t - ${n} * count, count); e = t - ${n} * count - fi * count; slot = ${n} + fi; }
const info = mpBits(W[4 * e]) - ${B};
const neg = info & 1;
const b = info >> 1;
const T = mpBits(W[4 * e + 1]) - ${B};
let k = b - ${p};
if (k < 0) { k = 0; }
if (slot < ${n}) {
  const m = mpBits(Tb[${o.moduli} + slot]);
  const rm = Tb[${o.inverse} + slot];
  if (k === 0) {
    ${view.prelude('e')}
    // |X̃| itself: its residue is x̃ (X̃ ≥ 0) or m − x̃ (X̃ < 0), x̃ ∈ [0, m).
    ${view.residue('e', 'slot', vector)}
    let x = ar;
    if (neg !== 0 && x !== 0) { x = m - x; }
    return mpFloat(x + ${B});
  }
  const sg = 1 - 2 * neg;
  const q = k >> 4;
  const s = k & 15;
  const top = (b - 1) >> 4;
  ${columnBase(set, form)}
  let ph0 = mpI32(0);
  ${form.word ? '' : `if (q > 0) { ph0 = mpBits(C[2 * (cb + ${columnStride(form)} * (q - 1)) + 1]) - ${B}; }`}
  const r16 = mpBits(Tb[${o.pow16} + ${n} + slot]);
  let lo16 = mpI32(0);
  let hi16 = mpI32(0);
  let jj = mpI32(0);
  let prev = mpI32(0);
  ${sweepOpen(form, 'q', 'top', `mpBits(W[4 * e + 2]) - ${B}`, 'ph0')}
    if (j > q) {
      const sl = ((prev >> s) | (limb << (16 - s))) & 65535;
      const pp = sl * mpBits(Tb[${o.pow16} + jj * ${n} + slot]);
      lo16 = lo16 + (pp & 65535);
      hi16 = hi16 + ((pp >> 16) & 65535);
      jj = jj + 1;
    }
    prev = limb;
  }
  const pl = (prev >> s) * mpBits(Tb[${o.pow16} + jj * ${n} + slot]);
  lo16 = lo16 + (pl & 65535);
  hi16 = hi16 + ((pl >> 16) & 65535);
  // hi16, lo16 < limbs·2^16 < 2^32: each reduced by mpMulModR(v, 1) (exact for any product below 2^32).
  let res = mpMulModR(mpMulModR(hi16, 1, m, rm), r16, m, rm) + mpMulModR(lo16, 1, m, rm);
  if (res >= m) { res = res - m; }
  if (mpBits(W[4 * e + 3]) - ${B} !== 0) { res = res + 1; if (res >= m) { res = res - m; } }
  return mpFloat(res + ${B});
}
${fieldWordsSource(set, view)}}`;
}

/** The bounded-rounding programs of one GPU moduli set, in one form. */
export interface BoundedPrograms {
  /** How the columns are stored (kernel-switches.ts `columnTiles`, `columnWord`). */
  readonly form: ColumnForm;
  /** Program 1, or undefined where the columns pass finds the level and K' itself (`columnQuotient`). */
  readonly quotients: Program | undefined;
  readonly columns: Program;
  readonly size: Program;
  readonly words: Program;
  /** Whether the words pass makes four words a thread (kernel-switches.ts `vectorWords`, four-words.ts). */
  readonly fourWords: boolean;
  /** Where the passes read the values they round (accumulator-view.ts). */
  readonly view: AccumulatorView;
}

/** Array arguments of a pass, as a program spec lists them. */
function arrayArgs(names: readonly string[]): [string, 'Array'][] {
  return names.map((a) => [a, 'Array']);
}

const programs = new WeakMap<RnsDeviceSet, Map<string, Promise<BoundedPrograms>>>();

/**
 * The rounding programs of `set` in the form the switches select now (compiled once per set, form and view).
 * @param runtime - the runtime
 * @param set - the GPU moduli set
 * @param view - where the values to round are read (default: a stored accumulator, {@link accumulatorWords})
 * @returns the programs
 */
export function normalizePrograms(runtime: GpuRuntime, set: RnsDeviceSet, view: AccumulatorView = storedAccumulator(set)): Promise<BoundedPrograms> {
  const { columnTiles: tiled, columnQuotient: fused, columnWord: word, columnPairs, vectorWords: vector, noZeroColumns: noZeros } = rnsRoundingSwitches();
  const form: ColumnForm = { tiled, word, pairs: columnPairs && tiled && word };
  const key = `${view.key}: ${tiled ? 'tiled' : 'j-major'} ${fused ? 'fused' : 'quotient pass'} ${word ? 'word' : 'pair'} ${form.pairs ? 'two limbs' : 'one limb'} ${vector ? 'four words' : 'one word'}${noZeros ? ' no zero columns' : ''}`;
  let bySet = programs.get(set);
  if (!bySet) programs.set(set, (bySet = new Map()));
  let p = bySet.get(key);
  if (!p) {
    const ctx = runtime.context;
    const reads = arrayArgs(viewArrays(view, false));
    const wordsArgs = (quad: boolean): ProgramSpec['args'] => [...arrayArgs(viewArrays(view, quad)), ['C', 'Array'], ['W', 'Array'], ['Tb', 'Array'], ['count', 'Integer']];
    const loads = view.quadLoads(set);
    p = Promise.all([
      fused ? undefined : getProgram(ctx, { source: quotientSource(set, view), args: [...reads, ['Tb', 'Array'], ['count', 'Integer']], components: 2 }),
      getProgram(ctx, { source: form.pairs ? columnPairSource(set, view, fused, noZeros) : columnsSource(set, view, form, fused, noZeros), args: fused ? [...reads, ['Tb', 'Array'], ['count', 'Integer']] : [...reads, ['Kq', 'Array'], ['Tb', 'Array'], ['count', 'Integer']], components: word && !form.pairs ? 1 : 2 }),
      getProgram(ctx, { source: sizeSource(set, view, form), args: [['C', 'Array'], ...arrayArgs(view.streamArrays), ['count', 'Integer']], components: 2 }),
      vector
        ? getProgram(ctx, { source: fourWordsSource(wordsSource(set, view, form, true), loads), args: fourWordsArgs(wordsArgs(true), loads), components: 4, vectorOutput: true })
        : getProgram(ctx, { source: wordsSource(set, view, form), args: wordsArgs(false), components: 1 }),
    ]).then(([quotients, columns, size, words]) => ({ form, quotients, columns, size, words, fourWords: vector, view }));
    bySet.set(key, p);
    const made = p;
    p.catch(() => { if (bySet.get(key) === made) bySet.delete(key); });
  }
  return p;
}

/**
 * The names of the passes {@link normalizePasses} returns for programs `p`, in order (for profiles).
 * @param p - the programs
 * @returns the names
 */
export function normalizePassNames(p: BoundedPrograms): string[] {
  return p.quotients ? ['quotient', 'columns', 'size', 'words'] : ['columns (with the quotient)', 'size', 'words'];
}

/**
 * Words of the column buffer for a rounding of `count` elements by programs `p`: 2 per limb and element, or 1 (one
 * word per column), `count` rounded up to whole tiles of 64 where tiled.
 * @param p - the programs
 * @param set - the GPU moduli set
 * @param count - number of elements
 * @returns the words
 */
export function columnWords(p: BoundedPrograms, set: RnsDeviceSet, count: number): number {
  if (p.form.pairs) return 2 * limbPairs(set) * TILE * Math.ceil(count / TILE);
  return (p.form.word ? 1 : 2) * set.limbs * (p.form.tiled ? TILE * Math.ceil(count / TILE) : count);
}

/** Scratch buffers of a normalization of `count` elements: columns ({@link columnWords}) and sizes (4 words each). */
export interface NormalizeScratch {
  readonly columns: GpuBuffer;
  readonly sizes: GpuBuffer;
}

/** Words per element of an accumulator: n residues, then the streams G, the sign of a zero, and the bit bound β. */
export function accumulatorWords(set: RnsDeviceSet): number {
  return set.size + 3;
}

/**
 * The arrays an accumulator view reads, by argument name (a stored accumulator: `Acc` and `AccQuad`, both the
 * accumulator's buffer; see accumulator-view.ts).
 */
export interface AccumulatorBindings {
  readonly arrays: Readonly<Record<string, BoundArray>>;
}

/**
 * The passes rounding the accumulator `acc` ((n + 3)·count words: the residues x̃_i, then
 * the streams G, the sign of a zero and β) into the device numbers at `out` ((n + 6)·count words).
 * @param p - the set's programs
 * @param set - the GPU moduli set
 * @param acc - the accumulator, or the arrays the programs' view reads ({@link AccumulatorBindings})
 * @param count - number of elements
 * @param scratch - column and size buffers large enough for `count`
 * @param table - the set's table on the device
 * @param out - the destination buffer
 * @returns the passes, in order (three without program 1: {@link BoundedPrograms})
 */
export function normalizePasses(p: BoundedPrograms, set: RnsDeviceSet, acc: GpuBuffer | AccumulatorBindings, count: number, scratch: NormalizeScratch, table: GpuBuffer, out: GpuBuffer): Pass[] {
  // Every pass gets all of the view's arrays; a program binds only those it names.
  const reads = 'arrays' in acc ? acc.arrays : { Acc: { buffer: acc }, AccQuad: { buffer: acc } };
  // The quotients and levels go into the sizes buffer, free until the size pass overwrites it (after the columns
  // read them).
  const columns = { program: p.columns, scalars: { count }, output: { buffer: scratch.columns }, threads: columnWords(p, set, count) / (p.form.word && !p.form.pairs ? 1 : 2) };
  return [
    ...(p.quotients
      ? [
        { program: p.quotients, arrays: { ...reads, Tb: { buffer: table } }, scalars: { count }, output: { buffer: scratch.sizes }, threads: count },
        { ...columns, arrays: { ...reads, Kq: { buffer: scratch.sizes }, Tb: { buffer: table } } },
      ]
      : [{ ...columns, arrays: { ...reads, Tb: { buffer: table } } }]),
    { program: p.size, arrays: { ...reads, C: { buffer: scratch.columns } }, scalars: { count }, output: { buffer: scratch.sizes }, threads: 2 * count },
    { program: p.words, arrays: { ...reads, C: { buffer: scratch.columns }, W: { buffer: scratch.sizes }, Tb: { buffer: table } }, scalars: { count }, output: { buffer: out }, threads: p.fourWords ? fourWordsThreads((set.size + 6) * count) : (set.size + 6) * count },
  ];
}
