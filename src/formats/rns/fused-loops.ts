/**
 * The residue pass of the kernels' multiply-add, z := a·b ± c with one operand scaled by 2^γ, in one loop per
 * residue: product, alignment by |2^γ|_{m_i}, add or subtract, one canonical reduction. Used by `rnsFma` (the
 * ordinary path, which then updates the eval) and by open sums (`open-sum.ts`, which keep only a bound).
 * Factors bound to mp_array elements are read in place from the array's Int32Array.
 * @module
 */
import { type RnsModuliSet, rnsTables } from './moduli-set.js';
import { rnsRefOffset } from './rns-array.js';
import type { RnsNumber } from './rns-number-class.js';
import { unrolledLoop } from './unrolled-loop.js';
import { generatedFunction } from '../../core/generated-function.js';

/**
 * z.digits := the residues of A·B·2^γ + C (`scaledFirst`, `same`), A·B·2^γ − C (`scaledFirst`, not `same`),
 * C·2^γ + A·B or C·2^γ − A·B, where A, B, C are the significands of a, b, c (any may alias z; a and b may be
 * bound to array elements, c may not). The caller guarantees that the exact result is below M/2 in magnitude;
 * a difference is left as its residues mod M (its sign is for the caller to find). Only the digits are written:
 * in [0, m_i) if `canonical`, else in [−m_i, 2m_i) (open sums; c's residues may be in that range too).
 * @param z - destination
 * @param a - first factor
 * @param b - second factor
 * @param c - addend (own residues)
 * @param gamma - the shift γ, 0 ≤ γ ≤ the set's maxShift
 * @param scaledFirst - true: the product is scaled; false: c is
 * @param same - true: add; false: subtract as above
 * @param canonical - whether the result's residues must be canonical
 */
export function runFusedLoop(z: RnsNumber, a: RnsNumber, b: RnsNumber, c: RnsNumber, gamma: number,
  scaledFirst: boolean, same: boolean, canonical: boolean): void {
  runLoop((canonical ? 0 : 4) + (scaledFirst ? 0 : 2) + (same ? 0 : 1), z, a, b, c.digits, gamma * z.set.size);
}

/**
 * z.digits := the canonical residues of A·B (significands of a and b; either may be bound to an array element
 * and is then read in place, either may alias z). Only the digits are written; the caller guarantees A·B < M.
 * @param z - destination (own digits)
 * @param a - first factor
 * @param b - second factor
 */
export function runProductLoop(z: RnsNumber, a: RnsNumber, b: RnsNumber): void {
  runLoop(PRODUCT_VARIANT, z, a, b, z.digits, 0);
}

/**
 * Runs loop `variant` of the kind that matches where a's and b's residues are (own digits or an array element):
 * each combination of array kinds has its own compiled copy of the loops, so every copy stays monomorphic.
 */
function runLoop(variant: number, z: RnsNumber, a: RnsNumber, b: RnsNumber, cd: Float64Array, off: number): void {
  let ra = a.refArray, rb = b.refArray;
  if (ra === null && rb !== null) { const t = a; a = b; b = t; ra = rb; rb = null; }
  const family = fusedLoopsOf(z.set);
  const run = ra === null ? family.own : rb === null ? family.refOwn : family.refRef;
  run(variant, z.digits, ra === null ? a.digits : ra.digits, ra === null ? 0 : rnsRefOffset(a, ra),
    rb === null ? b.digits : rb.digits, rb === null ? 0 : rnsRefOffset(b, rb), cd, off);
}

/** The dispatcher's variant for the plain product loop (after the eight multiply-add variants). */
const PRODUCT_VARIANT = 8;

/** One residue loop; arrays are Float64Array (own digits) or Int32Array (bound). */
type FusedLoop = (zd: Float64Array, ad: ArrayLike<number>, ao: number, bd: ArrayLike<number>, bo: number,
  cd: Float64Array, off: number) => void;

/**
 * A kind's loops behind one entry: `variant` = (canonical ? 0 : 4) + (product scaled ? 0 : 2) + (same signs ? 0 : 1)
 * for the multiply-add, or {@link PRODUCT_VARIANT} for the product (which ignores `cd` and `off`).
 */
type FusedDispatch = (variant: number, zd: Float64Array, ad: ArrayLike<number>, ao: number, bd: ArrayLike<number>,
  bo: number, cd: Float64Array, off: number) => void;

/** One moduli set's compiled loops per kind of the factors' arrays (own/own, bound/own, bound/bound). */
interface FusedFamily { readonly own: FusedDispatch; readonly refOwn: FusedDispatch; readonly refRef: FusedDispatch }

/**
 * Sources of the loops. r = A_i·B_i − ⌊A_i·B_i/m⌋·m lies in [−m, 2m) (the floating quotient of a sum below
 * 2^53 is off by at most one), and so does c's residue: canonical in [0, m), or, for an open sum, left in
 * [−m, 2m) by the previous pass. So every sum stays below 2m² + 2m < 2^53 (m < 2^26) and is exact before its
 * one reduction; a difference adds m − (the subtrahend), which is ≡ its negation. Canonical loops then bring
 * the result into [0, m); the open-sum loops leave it in [−m, 2m) — the two compares per residue are ~30 % of
 * the pass, and an open sum only needs canonical residues when it is closed.
 */
const FUSED_SOURCES = [true, false].flatMap((canonical) => [
  (j: string, q: number) => `r${q} * pw[off + ${j}] + cd[${j}]`,
  (j: string, q: number) => `r${q} * pw[off + ${j}] + (mm${q} - cd[${j}])`,
  (j: string, q: number) => `cd[${j}] * pw[off + ${j}] + r${q}`,
  (j: string, q: number) => `cd[${j}] * pw[off + ${j}] + (mm${q} - r${q})`,
].map((sum) => `return function fusedLoop(zd, ad, ao, bd, bo, cd, off) {
  ${unrolledLoop((j, q) => `{
      const mm${q} = m[${j}], iv${q} = inv[${j}];
      const pr${q} = ad[ao + ${j}] * bd[bo + ${j}];
      const r${q} = pr${q} - Math.floor(pr${q} * iv${q}) * mm${q};
      const s${q} = ${sum(j, q)};
      const v${q} = s${q} - Math.floor(s${q} * iv${q}) * mm${q};
      zd[${j}] = ${canonical ? `v${q} < 0 ? v${q} + mm${q} : v${q} >= mm${q} ? v${q} - mm${q} : v${q}` : `v${q}`};
    }`)}
};`));

/** Source of the product loop: canonical residues of A_i·B_i (one floor-based reduction, then into [0, m)). */
const PRODUCT_SOURCE = `return function productLoop(zd, ad, ao, bd, bo) {
  ${unrolledLoop((j, q) => `{
      const mm${q} = m[${j}];
      const pr${q} = ad[ao + ${j}] * bd[bo + ${j}];
      const r${q} = pr${q} - Math.floor(pr${q} * inv[${j}]) * mm${q};
      zd[${j}] = r${q} < 0 ? r${q} + mm${q} : r${q} >= mm${q} ? r${q} - mm${q} : r${q};
    }`)}
};`;

/** Source of a kind's dispatcher over its loops L0…L8 (the product, then a branch tree on the variant's three bits). */
const DISPATCH_SOURCE = (() => {
  const tree = (lo: number, size: number): string => size === 1
    ? `L${lo}(zd, ad, ao, bd, bo, cd, off);`
    : `if ((v & ${size / 2}) === 0) { ${tree(lo, size / 2)} } else { ${tree(lo + size / 2, size / 2)} }`;
  return `return function fusedDispatch(v, zd, ad, ao, bd, bo, cd, off) {
  if (v === ${PRODUCT_VARIANT}) { L${PRODUCT_VARIANT}(zd, ad, ao, bd, bo); return; }
  ${tree(0, 8)}
};`;
})();

/** Count of compiled loop families, which makes each family's sources distinct. */
let compiledSets = 0;

const families = new WeakMap<RnsModuliSet, FusedFamily>();
let lastSet: RnsModuliSet | null = null;
let lastFamily: FusedFamily | null = null;

/**
 * The fused loops of `set`, compiled once per set and kind. Why compiled per set: the moduli, their inverses
 * and the power table are then constants of the closure, which V8 folds into the loop (measured ~1.5× faster
 * than passing them as arguments).
 */
function fusedLoopsOf(set: RnsModuliSet): FusedFamily {
  if (set === lastSet) return lastFamily!;
  let f = families.get(set);
  if (!f) {
    const tables = rnsTables(set);
    // One function per loop and kind: a function holding all the loops measured ~1.3–1.7× slower. The loops are
    // reached through a dispatcher that branches to each as a closure constant: V8 inlines such calls, while a
    // call through an array of loops (a polymorphic call site once a sum uses two variants) cost ~50 ns per
    // call at 33 moduli, half the loop's own time.
    // A distinct first line per kind: V8 caches `new Function` by source, and copies sharing a source share
    // their type feedback, which would make them polymorphic again.
    const compile = (kind: string): FusedDispatch => {
      const loops = [...FUSED_SOURCES, PRODUCT_SOURCE].map((source) =>
        (generatedFunction('an RNS residue loop', ['m', 'inv', 'pw', 'n'], `// ${kind} ${++compiledSets}\n${source}`) as (m: Float64Array, inv: Float64Array, pw: Float64Array, n: number) => FusedLoop)(
          set.moduli, set.inverseModuli, tables.pow2, set.size));
      return (generatedFunction('an RNS loop dispatcher', loops.map((_, k) => `L${k}`), `// ${kind} ${compiledSets}\n${DISPATCH_SOURCE}`) as (...l: FusedLoop[]) => FusedDispatch)(...loops);
    };
    f = { own: compile('own'), refOwn: compile('refOwn'), refRef: compile('refRef') };
    families.set(set, f);
  }
  lastSet = set;
  lastFamily = f;
  return f;
}

