/**
 * Where the rounding passes (normalize-webgpu.ts) read the values they round: per element, the residues x̃_i of X̃,
 * the grid exponent G, the sign of a zero and the bit bound β.
 *
 * - **Stored** (every kernel): an accumulator buffer `Acc` that an earlier pass wrote — n residues per element, then
 *   the streams G, zero sign, β.
 * - **From the terms** (WAXPBY, AXPY, SCAL and the α·x stages, kernel-switches.ts `updateNoAccumulator`): the update's
 *   codes pass already wrote G, the sign of a zero and β per element (`Cd`, with each term's code 2·(f − G) + sign),
 *   and x̃_i = |S₀ᵢ·xᵢ·2^(f₀−G) ± S₁ᵢ·yᵢ·2^(f₁−G)|_mᵢ is two products of residues the rounding's threads can form
 *   themselves from x, y and the scalars S. The pass writing (n + 3) words per element and the reads of them go: the
 *   columns threads read x's and y's first n' residues instead of the accumulator's, the words threads (k = 0) x's
 *   and y's residue vectors instead of the accumulator's. Each x̃_i is computed by the statements of the residue
 *   pass it replaces (update-rns-webgpu.ts), so the same integers and the same words.
 *
 * @module
 */
import { WORD_BIAS, type RnsDeviceSet } from './device-set.js';
import type { QuadLoad } from './four-words.js';
import { residueRead } from './grid.js';

const B = WORD_BIAS;

/** The reads of one accumulator form, as kernel source. */
export interface AccumulatorView {
  /** Names everything the sources depend on beside the set (programs are cached per set and key). */
  readonly key: string;
  /**
   * The array arguments the residue reads use (`quad`: in the four-words words pass, which reads residues from the
   * vectors of {@link AccumulatorView.quadLoads} and binds those as `<array>Quad` too).
   */
  residueArrays(quad: boolean): readonly string[];
  /** The array arguments {@link AccumulatorView.bound}, `grid` and `zeroSign` read. */
  readonly streamArrays: readonly string[];
  /** Statements declaring what {@link AccumulatorView.residue} reads once per element (placed before a loop over i). */
  prelude(e: string): string;
  /**
   * Statements declaring `ar`, residue i of element e in [0, m) (the prelude, `m`, `rm` = fl(1/m) and the table `Tb`
   * in scope; with `quad`, the four-words pass's `c`, and residue e·n + i is component c of the vectors).
   */
  residue(e: string, i: string, quad: boolean): string;
  /** Expression: β of element e. */
  bound(e: string): string;
  /** Expression: G of element e. */
  grid(e: string): string;
  /** Expression: the sign of a zero of element e (0 or 1). */
  zeroSign(e: string): string;
  /** The vectors the four-words words pass loads (vector q: residues 4q … 4q + 3). */
  quadLoads(set: RnsDeviceSet): QuadLoad[];
}

/** Last residue vector of an array of `count` elements: ⌊n·count/4⌋, whole inside its buffer. */
function lastVector(set: RnsDeviceSet): string {
  return `(${set.size} * count) >> 2`;
}

/**
 * The stored accumulator `Acc` ((n + 3)·count words: residues, then G, zero sign, β).
 * @param set - the GPU moduli set
 * @returns the view
 */
export function storedAccumulator(set: RnsDeviceSet): AccumulatorView {
  const n = set.size;
  const stream = (f: number, e: string): string => `(mpBits(Acc[${n + f} * count + ${e}]) - ${B})`;
  return {
    key: 'stored',
    residueArrays: () => ['Acc'],
    streamArrays: ['Acc'],
    prelude: () => '',
    residue: (e, i, quad) => `const ar = mpBits(${quad ? 'aq[c]' : `Acc[${e} * ${n} + ${i}]`}) - ${B};`,
    grid: (e) => stream(0, e),
    zeroSign: (e) => stream(1, e),
    bound: (e) => stream(2, e),
    quadLoads: (s) => [{ name: 'aq', array: 'Acc', last: lastVector(s) }],
  };
}

/**
 * The accumulator of an update w = S₀·x + S₁·y (one term: S₀·x) formed from its terms: the scalars `S` (a device
 * array of two numbers), `X`, `Y` and the codes `Cd` ([code₀, code₁, G, zero sign + 2β] per element, code = 2·(f − G)
 * + sign or −1 for no term). The residue statements are the residue pass's (update-rns-webgpu.ts `residuesSource`).
 * @param set - the GPU moduli set
 * @param terms - 1 or 2
 * @returns the view
 */
export function updateTermsAccumulator(set: RnsDeviceSet, terms: 1 | 2): AccumulatorView {
  const n = set.size, pow2 = set.offsets.pow2;
  const code = (e: string, w: number): string => `(mpBits(Cd[4 * ${e} + ${w}]) - ${B})`;
  const term = (id: number, i: string, operand: string): string => `if (ac${id} >= 0) {
  let at${id} = mpMulModR(mpMulModR(${residueRead(set, 'S', String(id), i)}, ${operand}, m, rm), mpBits(Tb[${pow2} + (ac${id} >> 1) * ${n} + ${i}]), m, rm);
  if ((ac${id} & 1) !== 0 && at${id} !== 0) { at${id} = m - at${id}; }
  ar = ar + at${id};
  if (ar >= m) { ar = ar - m; }
}`;
  const operand = (A: string, vector: string, e: string, i: string, quad: boolean): string => (quad ? `(mpBits(${vector}[c]) - ${B})` : residueRead(set, A, e, i));
  return {
    key: `update terms ${terms}`,
    residueArrays: (quad) => (quad ? ['S', 'Cd'] : terms === 2 ? ['S', 'X', 'Y', 'Cd'] : ['S', 'X', 'Cd']),
    streamArrays: ['Cd'],
    prelude: (e) => `const ac0 = ${code(e, 0)};
${terms === 2 ? `const ac1 = ${code(e, 1)};` : ''}`,
    residue: (e, i, quad) => `let ar = mpI32(0);
${term(0, i, operand('X', 'xq', e, i, quad))}
${terms === 2 ? term(1, i, operand('Y', 'yq', e, i, quad)) : ''}`,
    grid: (e) => code(e, 2),
    zeroSign: (e) => `(${code(e, 3)} & 1)`,
    bound: (e) => `(${code(e, 3)} >> 1)`,
    quadLoads: (s) => [{ name: 'xq', array: 'X', last: lastVector(s) }, ...(terms === 2 ? [{ name: 'yq', array: 'Y', last: lastVector(s) }] : [])],
  };
}
