/**
 * The residue pass of z := a·x·2^γ ± b·y: two exact products, the first aligned to the second, added or
 * subtracted, in one loop per residue. Used by `rnsMulAdd2` (WAXPBY's α·x + β·y), which then sets the eval.
 * @module
 */
import { type RnsModuliSet, rnsTables } from './moduli-set.js';
import { rnsRefOffset } from './rns-array.js';
import type { RnsNumber } from './rns-number-class.js';
import { unrolledLoop } from './unrolled-loop.js';
import { generatedFunction } from '../../core/generated-function.js';

/**
 * z.digits := the canonical residues of A·X·2^γ + B·Y (`same`) or A·X·2^γ − B·Y (significands of a, x, b, y;
 * a and b own their digits, x and y may be bound to array elements, z may alias any of them). The caller
 * guarantees that the exact result is below M/2 in magnitude; a difference is left as its residues mod M.
 * @param z - destination
 * @param a - first factor of the scaled product (own digits)
 * @param x - second factor of the scaled product
 * @param b - first factor of the other product (own digits)
 * @param y - second factor of the other product
 * @param gamma - the shift γ, 0 ≤ γ ≤ the set's maxShift
 * @param same - true: add; false: subtract
 */
export function runTwoProductLoop(z: RnsNumber, a: RnsNumber, x: RnsNumber, b: RnsNumber, y: RnsNumber,
  gamma: number, same: boolean): void {
  const rx = x.refArray, ry = y.refArray;
  const family = twoProductLoopsOf(z.set);
  const run = rx === null ? (ry === null ? family.ownOwn : family.ownRef) : (ry === null ? family.refOwn : family.refRef);
  run(same, z.digits, a.digits, rx === null ? x.digits : rx.digits, rx === null ? 0 : rnsRefOffset(x, rx),
    b.digits, ry === null ? y.digits : ry.digits, ry === null ? 0 : rnsRefOffset(y, ry), gamma * z.set.size);
}

/** One kind's loops behind one entry (the add or the subtract loop). */
type TwoProductDispatch = (same: boolean, zd: Float64Array, ad: Float64Array, xd: ArrayLike<number>, xo: number,
  bd: Float64Array, yd: ArrayLike<number>, yo: number, off: number) => void;

/** A moduli set's loops per kind of x's and y's arrays (own digits or a bound element). */
interface TwoProductFamily {
  readonly ownOwn: TwoProductDispatch; readonly ownRef: TwoProductDispatch;
  readonly refOwn: TwoProductDispatch; readonly refRef: TwoProductDispatch;
}

/**
 * Sources of the add and subtract loops. Each product A_i·X_i < m² < 2^52 is reduced once to r ∈ [−m, 2m)
 * (the floating quotient is off by at most one); r·|2^γ|_m ± t stays below 2m² + 2m < 2^53 in magnitude
 * (m < 2^26), so it is exact before its reduction, and the result is brought into [0, m).
 */
const LOOP_SOURCES = ['+', '-'].map((op) => `return function twoProductLoop(zd, ad, xd, xo, bd, yd, yo, off) {
  ${unrolledLoop((j, q) => `{
      const mm${q} = m[${j}], iv${q} = inv[${j}];
      const p${q} = ad[${j}] * xd[xo + ${j}];
      const r${q} = p${q} - Math.floor(p${q} * iv${q}) * mm${q};
      const q${q} = bd[${j}] * yd[yo + ${j}];
      const t${q} = q${q} - Math.floor(q${q} * iv${q}) * mm${q};
      const s${q} = r${q} * pw[off + ${j}] ${op} t${q};
      const v${q} = s${q} - Math.floor(s${q} * iv${q}) * mm${q};
      zd[${j}] = v${q} < 0 ? v${q} + mm${q} : v${q} >= mm${q} ? v${q} - mm${q} : v${q};
    }`)}
};`);

const DISPATCH_SOURCE = `return function twoProductDispatch(same, zd, ad, xd, xo, bd, yd, yo, off) {
  if (same) L0(zd, ad, xd, xo, bd, yd, yo, off); else L1(zd, ad, xd, xo, bd, yd, yo, off);
};`;

/** Count of compiled families, which makes each kind's sources distinct (V8 shares feedback by source). */
let compiled = 0;
const families = new WeakMap<RnsModuliSet, TwoProductFamily>();
// The last set's family: a kernel calls this once per element, mostly with one set (no map lookup then).
let lastSet: RnsModuliSet | null = null;
let lastFamily: TwoProductFamily | null = null;

/** The loops of `set`, compiled once per set and kind, with the set's tables as closure constants (fused-loops.ts says why). */
function twoProductLoopsOf(set: RnsModuliSet): TwoProductFamily {
  if (set === lastSet) return lastFamily!;
  let f = families.get(set);
  if (!f) {
    const tables = rnsTables(set);
    const compile = (kind: string): TwoProductDispatch => {
      const loops = LOOP_SOURCES.map((source) => (generatedFunction('an RNS residue loop', ['m', 'inv', 'pw', 'n'], `// two-product ${kind} ${++compiled}\n${source}`) as
        (m: Float64Array, inv: Float64Array, pw: Float64Array, n: number) => unknown)(set.moduli, set.inverseModuli, tables.pow2, set.size));
      return (generatedFunction('an RNS loop dispatcher', ['L0', 'L1'], `// two-product ${kind} ${compiled}\n${DISPATCH_SOURCE}`) as (...l: unknown[]) => TwoProductDispatch)(...loops);
    };
    f = { ownOwn: compile('ownOwn'), ownRef: compile('ownRef'), refOwn: compile('refOwn'), refRef: compile('refRef') };
    families.set(set, f);
  }
  lastSet = set;
  lastFamily = f;
  return f;
}
