/**
 * WAXPBY, AXPY and SCAL on device RNS arrays: w_k = α·x_k + β·y_k as one exact sum of two exact products on a
 * grid (grid.ts), rounded once — a thread per element reads the factors' fields once and writes each term's code
 * (2·(f − G) + sign, or −1 when the term is zero or below the grid), G, the sign of a zero and the bit bound β; then
 * a thread per element and modulus adds the terms' residues from the codes (so the per-term field reads, ≈ 16
 * loads, are made once per element, not by every residue thread); then the rounding passes. With kernel-switches.ts
 * `updateNoAccumulator` (and w not x's or y's buffer) the residue pass goes: the rounding forms those residues itself
 * from x, y and the codes (accumulator-view.ts), the same words.
 * Error per element: |ŵ_k − w_k| ≤ 2^-p(2 + 2^-p)(|αx_k| + |βy_k|) ≤ γ_2(|αx_k| + |βy_k|) (SCAL: one term, ≤ 2^-p·|αx_k|
 * ≤ γ_1|αx_k|), the CPU's bounds.
 *
 * @module
 */
import { fail } from '../../../core/errors.js';
import { WORD_BIAS, type RnsDeviceSet } from './device-set.js';
import { bitBound, gridExponent, residueRead, termInfo, termsLog2 } from './grid.js';
import { accumulatorProgram, checkOperands, programsOf, rnsProgramNames, scratchArray, scratchBuffer, coefficient, deviceTable, runStages, sharedScalars, type RnsCoefficient, type RoundedStage } from './rns-device-kernel.js';
import type { GpuBuffer } from '../../../backends/webgpu/webgpu-types.js';
import { rnsRoundingSwitches } from '../../../backends/webgpu/kernel-switches.js';
import { fourWordsArgs, fourWordsSource, fourWordsThreads, type QuadLoad } from './four-words.js';
import { accumulatorWords } from './normalize-webgpu.js';
import { encodeValues, type RnsDeviceArray, type RnsExactValue } from './rns-device-array.js';
import { updateTermsAccumulator } from './accumulator-view.js';

/** Thread per element: [code0, code1, G, zero sign + 2·β] (code: 2·(f − G) + sign, −1 for no term). */
function codesSource(set: RnsDeviceSet, terms: 1 | 2): string {
  const B = WORD_BIAS;
  const lines = [
    'function (S, X, Y, count) {',
    'const k = this.thread.x;',
    termInfo(set, '0', 'S', '2', '0', 'X', 'count', 'k'),
    'let any = 1 - z0;',
    'let etop = top0;',
    'let fmin = f0;',
  ];
  if (terms === 2) {
    lines.push(termInfo(set, '1', 'S', '2', '1', 'Y', 'count', 'k'));
    lines.push('if (z1 === 0) { if (any === 0 || top1 > etop) { etop = top1; } if (any === 0 || f1 < fmin) { fmin = f1; } any = 1; }');
  }
  lines.push(gridExponent(set, termsLog2(terms)));
  lines.push(
    'let c0 = mpI32(-1);',
    'if (z0 === 0 && f0 >= G) { c0 = 2 * (f0 - G) + s0; }',
    'let c1 = mpI32(-1);',
    terms === 2 ? 'if (z1 === 0 && f1 >= G) { c1 = 2 * (f1 - G) + s1; }' : '',
    // An exact zero is −0 only when every term is a zero of negative sign (IEEE: (−0) + (−0) = −0, x − x = +0).
    'let zs = mpI32(0);',
    terms === 2 ? 'if (z0 !== 0 && z1 !== 0 && s0 !== 0 && s1 !== 0) { zs = 1; }' : 'if (s0 !== 0) { zs = 1; }',
    `return [mpFloat(c0 + ${B}), mpFloat(c1 + ${B}), mpFloat(G + ${B}), mpFloat(zs + 2 * ${bitBound(set, termsLog2(terms))} + ${B})];`,
    '}',
  );
  return lines.join('\n');
}

/**
 * Thread per element and output word of the accumulator: the residues from the codes, then G, zero sign, β. With
 * `vector`, residue t = k·n + i of x (y) is component t − 4q of the thread's vector `xq` (`yq`): four-words.ts.
 */
function residuesSource(set: RnsDeviceSet, terms: 1 | 2, vector = false): string {
  const n = set.size, B = WORD_BIAS, o = set.offsets;
  const xRead = vector ? `(mpBits(xq[c]) - ${B})` : residueRead(set, 'X', 'k', 'i');
  const yRead = vector ? `(mpBits(yq[c]) - ${B})` : residueRead(set, 'Y', 'k', 'i');
  const add = (c: string, a: string, b: string): string => `if (${c} >= 0) {
  let r = mpMulModR(mpMulModR(${a}, ${b}, m, rm), mpBits(Tb[${o.pow2} + (${c} >> 1) * ${n} + i]), m, rm);
  if ((${c} & 1) !== 0 && r !== 0) { r = m - r; }
  acc = acc + r;
  if (acc >= m) { acc = acc - m; }
}`;
  return `function (S, X, Y, Cd, Tb, count) {
const t = this.thread.x;
let k = mpI32(0);
let i = mpI32(0);
if (t < ${n} * count) { k = mpIdiv(t, ${n}); i = t - k * ${n}; } else { k = mpImod(t - ${n} * count, count); i = ${n} + mpIdiv(t - ${n} * count, count); }
if (i < ${n}) {
  const c0 = mpBits(Cd[4 * k]) - ${B};
  const c1 = mpBits(Cd[4 * k + 1]) - ${B};
  const m = mpBits(Tb[${o.moduli} + i]);
  const rm = Tb[${o.inverse} + i];
  let acc = mpI32(0);
  ${add('c0', residueRead(set, 'S', '0', 'i'), xRead)}
  ${terms === 2 ? add('c1', residueRead(set, 'S', '1', 'i'), yRead) : ''}
  return mpFloat(acc + ${B});
}
if (i === ${n}) { return Cd[4 * k + 2]; }
const w = mpBits(Cd[4 * k + 3]) - ${B};
if (i === ${n + 1}) { return mpFloat((w & 1) + ${B}); }
return mpFloat((w >> 1) + ${B});
}`;
}

/**
 * w := α·x + β·y on device RNS arrays, rounded once per element (w may be x or y).
 * @param alpha - α, finite
 * @param x - x
 * @param beta - β, finite
 * @param y - y
 * @param w - the output
 * @returns when the device has finished
 * @throws {@link modprec!ModprecError} before anything is written: `INVALID_VALUE` (α, β non-finite),
 *   `DIMENSION_MISMATCH` (lengths differ), `INVALID_FORMAT` (moduli sets differ), `INVALID_STORAGE`
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuWaxpby } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(106);
 * const x = await rnsToDevice([1, 2], set), y = await rnsToDevice([3, 4], set), w = await rnsToDevice([0, 0], set);
 * await rnsGpuWaxpby(2, x, 0.5, y, w);
 * (await w.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 3.5, 6 ]
 * ```
 * @group GPU
 */
export async function rnsGpuWaxpby(alpha: RnsCoefficient, x: RnsDeviceArray, beta: RnsCoefficient, y: RnsDeviceArray, w: RnsDeviceArray): Promise<void> {
  const a = coefficient('alpha', alpha), b = coefficient('beta', beta);
  const { runtime, set } = checkOperands({ x, y, w });
  if (y.length !== x.length) fail('DIMENSION_MISMATCH', 'y', `must have the length of x (${x.length})`, y.length);
  if (w.length !== x.length) fail('DIMENSION_MISMATCH', 'w', `must have the length of x (${x.length})`, w.length);
  await update(runtime, set, [a, b], x, y, w, 2);
}

/**
 * y := α·x + y on device RNS arrays (one rounding per element).
 * @param alpha - α, finite
 * @param x - x
 * @param y - y, overwritten
 * @returns when the device has finished
 * @throws {@link modprec!ModprecError} as {@link rnsGpuWaxpby}
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuAxpy } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(106);
 * const x = await rnsToDevice([1, 2], set), y = await rnsToDevice([3, 4], set);
 * await rnsGpuAxpy(-1, x, y);
 * (await y.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 2, 2 ]
 * ```
 * @group GPU
 */
export async function rnsGpuAxpy(alpha: RnsCoefficient, x: RnsDeviceArray, y: RnsDeviceArray): Promise<void> {
  return rnsGpuWaxpby(alpha, x, 1, y, y);
}

/**
 * x := α·x on a device RNS array (one rounding per element).
 * @param alpha - α, finite
 * @param x - x, overwritten
 * @returns when the device has finished
 * @throws {@link modprec!ModprecError} `INVALID_VALUE` for a non-finite α, `INVALID_STORAGE`
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuScal } from 'modprec/gpu';
 *
 * const x = await rnsToDevice([1, 2], rnsDeviceSet(106));
 * await rnsGpuScal(1 / 3, x); // exact here: the double 1/3 times 1 and 2
 * (await x.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 0.3333333333333333, 0.6666666666666666 ]
 * ```
 * @group GPU
 */
export async function rnsGpuScal(alpha: RnsCoefficient, x: RnsDeviceArray): Promise<void> {
  const a = coefficient('alpha', alpha);
  const { runtime, set } = checkOperands({ x });
  await update(runtime, set, [a, { sign: 0, X: 0n, exp: 0 }], x, x, x, 1);
}

/**
 * The vectors of x's and y's residues the four-words residue threads read (y's only with two terms): vector q holds
 * residues 4q … 4q + 3, whole inside the (n + 6)·L words of the array for every q up to ⌊n·L/4⌋.
 */
function residueLoads(set: RnsDeviceSet, terms: 1 | 2): QuadLoad[] {
  const last = `(${set.size} * count) >> 2`;
  return [{ name: 'xq', array: 'X', last }, ...(terms === 2 ? [{ name: 'yq', array: 'Y', last }] : [])];
}

async function update(runtime: RnsDeviceArray['runtime'], set: RnsDeviceSet, scalars: readonly RnsExactValue[], x: RnsDeviceArray, y: RnsDeviceArray, w: RnsDeviceArray, terms: 1 | 2): Promise<void> {
  if (x.length === 0) return;
  const words = encodeValues(set, scalars);
  const inPlace = w.live('w') === x.live('x') || w.live('w') === y.live('y');
  const stage = await updateStage(runtime, set, () => sharedScalars(runtime, words, 'update'), x, y, () => w, terms, inPlace);
  await runStages(runtime, set, [stage], []);
}

/**
 * The stage d = α·x (one rounding per element) into the scratch vector of `role`, for a kernel that scales x before
 * its row sums (GEMV, ELL SpMV): d and α's scalars are the role's scratch buffers, reused by every call.
 * @returns the stage, and d (taken by the stage when it binds: call it from a later stage's `before` only)
 */
export async function scaledVectorStage(runtime: RnsDeviceArray['runtime'], set: RnsDeviceSet, alpha: RnsExactValue, x: RnsDeviceArray, role: string): Promise<{ stage: RoundedStage; d: () => RnsDeviceArray }> {
  const words = encodeValues(set, [alpha, { sign: 0, X: 0n, exp: 0 }]);
  let d: RnsDeviceArray | undefined;
  const vector = (): RnsDeviceArray => (d ??= scratchArray(runtime, set, `${role}: α·x`, x.length));
  return { stage: await updateStage(runtime, set, () => sharedScalars(runtime, words, `${role}: α`), x, x, vector, 1), d: vector };
}

/**
 * The stage computing w = S₀·x + S₁·y (S: two device scalars; one term: S₀·x), to be run with other stages. S and
 * w are taken when the stage binds (they may be shared buffers: {@link RoundedStage}).
 * @param inPlace - whether w is x's or y's buffer: then the rounding reads a stored accumulator whatever the switch
 *   `updateNoAccumulator` says (its passes would read x or y in the dispatch that writes w)
 * @returns the stage
 */
export async function updateStage(runtime: RnsDeviceArray['runtime'], set: RnsDeviceSet, S: () => GpuBuffer, x: RnsDeviceArray, y: RnsDeviceArray, w: () => RnsDeviceArray, terms: 1 | 2, inPlace = false): Promise<RoundedStage> {
  const L = x.length;
  const table = deviceTable(runtime, set);
  x.live('x');
  y.live('y');
  const { vectorWords: vector, updateNoAccumulator } = rnsRoundingSwitches();
  if (updateNoAccumulator && !inPlace) return termsStage(runtime, set, S, x, y, w, terms, vector);
  const [codes, residues] = await programsOf(runtime, set, `update ${terms}${vector ? ' four words' : ''}`, async () => {
    const args = [['S', 'Array'], ['X', 'Array'], ['Y', 'Array'], ['Cd', 'Array'], ['Tb', 'Array'], ['count', 'Integer']] as const;
    const made = await Promise.all([
      // The four codes of an element are one 16-byte store where vectors are on (the codes buffer holds 4 words a thread).
      accumulatorProgram(runtime, { source: codesSource(set, terms), args: [['S', 'Array'], ['X', 'Array'], ['Y', 'Array'], ['count', 'Integer']], components: 4, ...(vector ? { vectorOutput: true } : {}) }),
      vector
        ? accumulatorProgram(runtime, { source: fourWordsSource(residuesSource(set, terms, true), residueLoads(set, terms)), args: fourWordsArgs(args, residueLoads(set, terms)), components: 4, vectorOutput: true })
        : accumulatorProgram(runtime, { source: residuesSource(set, terms), args, components: 1 }),
    ]);
    rnsProgramNames.set(made[0], 'update: term codes');
    rnsProgramNames.set(made[1], terms === 2 ? 'update: residues of α·x + β·y' : 'update: residues of α·x');
    return made;
  });
  return {
    before: (acc) => {
      const operands = { S: { buffer: S() }, X: { buffer: x.live('x') }, Y: { buffer: y.live('y') } };
      const Cd = scratchBuffer(runtime, 'update-codes', 4 * L);
      const words = accumulatorWords(set) * L;
      return [
        { program: codes, arrays: operands, scalars: { count: L }, output: { buffer: Cd }, threads: L },
        vector
          ? { program: residues, arrays: { ...operands, XQuad: operands.X, YQuad: operands.Y, Cd: { buffer: Cd }, Tb: { buffer: table } }, scalars: { count: L }, output: { buffer: acc }, threads: fourWordsThreads(words) }
          : { program: residues, arrays: { ...operands, Cd: { buffer: Cd }, Tb: { buffer: table } }, scalars: { count: L }, output: { buffer: acc }, threads: words },
      ];
    },
    count: L,
    out: () => w().live('w'),
  };
}

/**
 * {@link updateStage} without an accumulator (kernel-switches.ts `updateNoAccumulator`): the codes pass alone, and a
 * rounding that forms the residues of S₀·x + S₁·y from x, y, S and the codes itself (accumulator-view.ts).
 */
async function termsStage(runtime: RnsDeviceArray['runtime'], set: RnsDeviceSet, S: () => GpuBuffer, x: RnsDeviceArray, y: RnsDeviceArray, w: () => RnsDeviceArray, terms: 1 | 2, vector: boolean): Promise<RoundedStage> {
  const L = x.length;
  const codes = await programsOf(runtime, set, `update codes ${terms}${vector ? ' four words' : ''}`, async () => {
    const made = await accumulatorProgram(runtime, { source: codesSource(set, terms), args: [['S', 'Array'], ['X', 'Array'], ['Y', 'Array'], ['count', 'Integer']], components: 4, ...(vector ? { vectorOutput: true } : {}) });
    rnsProgramNames.set(made, 'update: term codes');
    return made;
  });
  let arrays: Record<string, { buffer: GpuBuffer }> | undefined;
  return {
    before: () => {
      const X = { buffer: x.live('x') }, Y = { buffer: y.live('y') };
      const operands = { S: { buffer: S() }, X, Y };
      const Cd = { buffer: scratchBuffer(runtime, 'update-codes', 4 * L) };
      arrays = { ...operands, XQuad: X, YQuad: Y, Cd };
      return [{ program: codes, arrays: operands, scalars: { count: L }, output: Cd, threads: L }];
    },
    reads: { view: updateTermsAccumulator(set, terms), arrays: () => arrays! },
    count: L,
    out: () => w().live('w'),
  };
}
