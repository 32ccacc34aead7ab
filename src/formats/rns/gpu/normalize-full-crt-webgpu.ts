/**
 * The rounding on the device before the bounded one of normalize-webgpu.ts (kept for same-run before/after
 * measurements and tests: `MODPREC_GPU_RNS_BOUNDED=0`, src/backends/webgpu/kernel-switches.ts): a full CRT over all
 * n moduli and all limbs, Θ(n²) per number whatever its size. The accumulator's producers then store
 * ξ_i = |X̃·w_i|_{m_i} instead of X̃'s residues. An accumulator — the residues ξ_i of a signed integer X̃ with
 * |X̃| ≤ M/4, a grid exponent G and the sign a zero takes — becomes the device numbers ±round(|X̃|/2^k)·2^(G+k),
 * rounded to nearest (ties to even) to p bits, with their sign, exponent and interval evaluation. Four programs (the CRT quotient, then three):
 *
 * 1. **Columns** (a thread per element computes K, then a thread per element and 16-bit limb j the column): by the
 *    CRT, X̃ = Σ_i ξ_i·M_i − K·M with K = round(Σ_i ξ_i/m_i). The thread returns column j of that sum, split into the sums of the low and high 16 bits of its
 *    products (each product < 2^32, each sum below n·2^16). K is exact: Σ ξ_i/m_i = K₀ + X̃/M mod 1 with X̃/M mod 1 ∈
 *    [0, ¼] ∪ [¾, 1) (because |X̃| ≤ M/4), and round(Σ) is K₀ for X̃ ≥ 0 and K₀ + 1 for X̃ < 0, which makes Σ ξ_i·M_i −
 *    K·M = X̃ in both cases, provided the computed sum is within ¼ of Σ ξ_i/m_i. It is computed in binary32:
 *    ξ_i < 2^16 is exact, fl(1/m_i) and the product each err by ≤ 2^-24 relative, so a term errs by < 2^-22.9; n
 *    additions of partial sums < n err by ≤ n·2^-24 each, in whatever order a compiler chooses (contraction only
 *    removes roundings). Total < n·2^-22.9 + n²·2^-24 ≤ 0.06 for n ≤ 1000 (p = 4096 needs 775 moduli).
 * 2. **Sign and size** (two threads per element): carries the columns through (arithmetic shifts, |partial| <
 *    2^27) to the two's complement limbs of X̃ — the carry out of the last limb is 0 or −1, the sign, since |X̃| <
 *    2^(16·limbs − 1) — then, with the columns negated for X̃ < 0, the limbs of |X̃|: its bit length b and top 24
 *    bits T (first thread). The second thread sweeps once more up to limb q = ⌊k/16⌋, k = max(0, b − p): the carry
 *    into limb q, and the rounding increment (round bit, sticky bits, last kept bit: to nearest, ties to even).
 * 3. **Words** (thread per output word): residue threads sweep only limbs q … ⌊(b − 1)/16⌋ of |X̃| (from the carry
 *    into limb q: about p/16 limbs instead of all), shifted right by k, and sum limb·|2^(16j)|_m (table) as two sums
 *    of 16-bit halves of the products (each below limbs·2^16: no reduction in the loop), reduced once, plus the
 *    increment. Scalar threads write
 *    the sign, exponent G + k and the evaluation (device-eval.ts).
 *
 * @module
 */
import type { GpuRuntime } from '../../../backends/webgpu/runtime.js';
import { getProgram, type Pass, type Program } from '../../../backends/webgpu/program.js';
import type { GpuBuffer } from '../../../backends/webgpu/webgpu-types.js';
import { WORD_BIAS, type RnsDeviceSet } from './device-set.js';
import { fieldWordsSource } from './normalize-fields.js';

const B = WORD_BIAS;

/** Thread per element: K = round(Σ ξ_i·fl(1/m_i)) in binary32 (program 1's quotient, computed once per element). */
function quotientSource(set: RnsDeviceSet): string {
  const n = set.size, o = set.offsets;
  return `function (Acc, Tb) {
const e = this.thread.x;
let s = 0.0;
for (let i = mpI32(0); i < ${n}; i++) {
  s = s + mpToFloat(mpBits(Acc[e * ${n} + i]) - ${B}) * Tb[${o.inverse} + i];
}
return mpFloat(mpToInt(Math.floor(s + 0.5)) + ${B});
}`;
}

function columnsSource(set: RnsDeviceSet): string {
  const n = set.size, Lm = set.limbs, o = set.offsets;
  return `function (Acc, Kq, Tb) {
const t = this.thread.x;
const e = mpIdiv(t, ${Lm});
const j = t - e * ${Lm};
let lo = mpI32(0);
let hi = mpI32(0);
for (let i = mpI32(0); i < ${n}; i++) {
  const xi = mpBits(Acc[e * ${n} + i]) - ${B};
  const p = xi * mpBits(Tb[${o.miLimbs} + i * ${Lm} + j]);
  lo = lo + (p & 65535);
  hi = hi + ((p >> 16) & 65535);
}
const K = mpBits(Kq[e]) - ${B};
const q = K * mpBits(Tb[${o.mLimbs} + j]);
lo = lo - (q & 65535);
hi = hi - ((q >> 16) & 65535);
return [mpFloat(lo + ${B}), mpFloat(hi + ${B})];
}`;
}

/**
 * The limb sweep shared by programs 2 and 3: defines `limb` for j = from … to (limb `limbs` is carries only), from
 * the carry `carry0` into limb `from` and `ph0` = the high half of column from − 1.
 */
function sweepOpen(Lm: number, from = 'mpI32(0)', to = String(Lm), carry0 = 'mpI32(0)', ph0 = 'mpI32(0)'): string {
  return `let carry = ${carry0};
let ph = ${ph0};
for (let j = ${from}; j <= ${to}; j++) {
  let lo = mpI32(0);
  let hi = mpI32(0);
  if (j < ${Lm}) {
    lo = mpBits(C[2 * (e * ${Lm} + j)]) - ${B};
    hi = mpBits(C[2 * (e * ${Lm} + j) + 1]) - ${B};
  }
  const cin = carry;
  const tt = sg * (lo + ph) + carry;
  const limb = tt & 65535;
  carry = tt >> 16;
  ph = hi;`;
}

function sizeSource(set: RnsDeviceSet): string {
  const Lm = set.limbs, p = set.precision;
  return `function (C) {
const e = mpIdiv(this.thread.x, 2);
const h = this.thread.x - 2 * e;
let neg = mpI32(0);
let b = mpI32(0);
let T = mpI32(0);
for (let pass = mpI32(0); pass < 2; pass++) {
let sg = 1 - 2 * neg;
let w1 = mpI32(0);
let w2 = mpI32(0);
let top = mpI32(0);
let t1 = mpI32(0);
let t2 = mpI32(0);
let J = mpI32(-1);
${sweepOpen(Lm)}
  if (limb !== 0) { J = j; top = limb; t1 = w1; t2 = w2; }
  w2 = w1;
  w1 = limb;
}
if (pass === 0) {
  if (carry < 0) { neg = 1; }
} else if (J >= 0) {
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
${sweepOpen(Lm, 'mpI32(0)', 'q')}
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

function wordsSource(set: RnsDeviceSet): string {
  const n = set.size, Lm = set.limbs, o = set.offsets, p = set.precision;
  return `function (Acc, C, W, Tb, count) {
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
  const sg = 1 - 2 * neg;
  const q = k >> 4;
  const s = k & 15;
  const top = (b - 1) >> 4;
  let ph0 = mpI32(0);
  if (q > 0) { ph0 = mpBits(C[2 * (e * ${Lm} + q - 1) + 1]) - ${B}; }
  const rm = Tb[${o.inverse} + slot];
  const r16 = mpBits(Tb[${o.pow16} + ${n} + slot]);
  let lo16 = mpI32(0);
  let hi16 = mpI32(0);
  let jj = mpI32(0);
  let prev = mpI32(0);
  ${sweepOpen(Lm, 'q', 'top', `mpBits(W[4 * e + 2]) - ${B}`, 'ph0')}
    if (j > q) {
      const sl = ((prev >> s) | (limb << (16 - s))) & 65535;
      const pp = sl * mpBits(Tb[${o.pow16} + jj * ${set.size} + slot]);
      lo16 = lo16 + (pp & 65535);
      hi16 = hi16 + ((pp >> 16) & 65535);
      jj = jj + 1;
    }
    prev = limb;
  }
  const pl = (prev >> s) * mpBits(Tb[${o.pow16} + jj * ${set.size} + slot]);
  lo16 = lo16 + (pl & 65535);
  hi16 = hi16 + ((pl >> 16) & 65535);
  // hi16, lo16 < limbs·2^16 < 2^32: each reduced by mpMulModR(v, 1) (exact for any product below 2^32).
  let res = mpMulModR(mpMulModR(hi16, 1, m, rm), r16, m, rm) + mpMulModR(lo16, 1, m, rm);
  if (res >= m) { res = res - m; }
  if (mpBits(W[4 * e + 3]) - ${B} !== 0) { res = res + 1; if (res >= m) { res = res - m; } }
  return mpFloat(res + ${B});
}
${fieldWordsSource(set)}}`;
}

/** The four programs of one GPU moduli set. */
export interface FullCrtPrograms {
  readonly quotients: Program;
  readonly columns: Program;
  readonly size: Program;
  readonly words: Program;
}

const programs = new WeakMap<RnsDeviceSet, Promise<FullCrtPrograms>>();

/**
 * The full-CRT rounding programs of `set` (compiled once per set).
 * @param runtime - the runtime
 * @param set - the GPU moduli set
 * @returns the programs
 */
export function fullCrtPrograms(runtime: GpuRuntime, set: RnsDeviceSet): Promise<FullCrtPrograms> {
  let p = programs.get(set);
  if (!p) {
    const ctx = runtime.context;
    p = Promise.all([
      getProgram(ctx, { source: quotientSource(set), args: [['Acc', 'Array'], ['Tb', 'Array']], components: 1 }),
      getProgram(ctx, { source: columnsSource(set), args: [['Acc', 'Array'], ['Kq', 'Array'], ['Tb', 'Array']], components: 2 }),
      getProgram(ctx, { source: sizeSource(set), args: [['C', 'Array']], components: 2 }),
      getProgram(ctx, { source: wordsSource(set), args: [['Acc', 'Array'], ['C', 'Array'], ['W', 'Array'], ['Tb', 'Array'], ['count', 'Integer']], components: 1 }),
    ]).then(([quotients, columns, size, words]) => ({ quotients, columns, size, words }));
    programs.set(set, p);
  }
  return p;
}

/**
 * The full-CRT passes rounding the accumulator `acc` (ξ residues, G, zero sign, …) into the device numbers at
 * `out` ((n + 6)·count words).
 * @param programs - the set's programs
 * @param set - the GPU moduli set
 * @param acc - the accumulator
 * @param count - number of elements
 * @param scratch - column and size buffers large enough for `count`
 * @param table - the set's table on the device
 * @param out - the destination buffer
 * @returns the four passes, in order
 */
export function fullCrtPasses(programs: FullCrtPrograms, set: RnsDeviceSet, acc: GpuBuffer, count: number, scratch: { readonly columns: GpuBuffer; readonly sizes: GpuBuffer }, table: GpuBuffer, out: GpuBuffer): Pass[] {
  // The quotients K go into the sizes buffer, free until the size pass overwrites it (after the columns read K).
  return [
    { program: programs.quotients, arrays: { Acc: { buffer: acc }, Tb: { buffer: table } }, scalars: {}, output: { buffer: scratch.sizes }, threads: count },
    { program: programs.columns, arrays: { Acc: { buffer: acc }, Kq: { buffer: scratch.sizes }, Tb: { buffer: table } }, scalars: {}, output: { buffer: scratch.columns }, threads: count * set.limbs },
    { program: programs.size, arrays: { C: { buffer: scratch.columns } }, scalars: {}, output: { buffer: scratch.sizes }, threads: 2 * count },
    { program: programs.words, arrays: { Acc: { buffer: acc }, C: { buffer: scratch.columns }, W: { buffer: scratch.sizes }, Tb: { buffer: table } }, scalars: { count }, output: { buffer: out }, threads: (set.size + 6) * count },
  ];
}
