/**
 * Oracles shared by the WebAssembly double-double reduction tests: the kernels' documented lane orders (element i into
 * double-double lane i mod 8, the lanes joined by ddAdd in a fixed tree) evaluated in JavaScript with the library's
 * double-double functions, and the terms the kernels read from an operand — as the JavaScript kernels read them.
 */
import type { Range } from '../../src/index.js';
import type { Accessor } from '../../accessors/accessor.js';
import { ddAdd, ddAddNumber } from '../../src/formats/dd/add.js';
import { ddMul, ddMulAccumulate } from '../../src/formats/dd/mul.js';
import { ddTwoProdAccumulate } from '../../src/formats/dd/two-prod-accumulate.js';
import { ddSqrt } from '../../src/formats/dd/sqrt.js';
import { addRational, mulRational, type Rational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { nrm2Scaling, unscaled } from './nrm2-scaling.js';

/** A term: an exact double (low part undefined) or a double-double pair. */
export type Term = readonly [number, number | undefined];

/** The eight lanes joined in the kernels' tree ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)). */
function joinLanes(s: readonly Float64Array[]): Float64Array {
  const join = (a: Float64Array, b: Float64Array): Float64Array => { const r = new Float64Array(2); ddAdd(r, a[0]!, a[1]!, b[0]!, b[1]!); return r; };
  return join(join(join(s[0]!, s[1]!), join(s[2]!, s[3]!)), join(join(s[4]!, s[5]!), join(s[6]!, s[7]!)));
}

const lanes = (): Float64Array[] => Array.from({ length: 8 }, () => new Float64Array(2));

/** ASUM's documented order on terms (an exact double by Algorithm 4; a pair, made non-negative, by Algorithm 6); hi − (0 − lo). */
export function laneOrderDdAsum(terms: readonly Term[]): number {
  const s = lanes();
  terms.forEach(([h, l], i) => {
    const p = s[i % 8]!;
    if (l === undefined) ddAddNumber(p, p[0]!, p[1]!, Math.abs(h));
    else if (h < 0) ddAdd(p, p[0]!, p[1]!, -h, -l);
    else ddAdd(p, p[0]!, p[1]!, h, l);
  });
  const r = joinLanes(s);
  return r[0]! - (0 - r[1]!);
}

/** NRM2's documented order on terms: scaled by the kernel's factors, squared into lane i mod 8, joined; the root. */
export function laneOrderDdNrm2(terms: readonly Term[], ddRoot: boolean): number {
  const max = terms.reduce((m, [h, l]) => Math.max(m, Math.abs(l === undefined || !ddRoot ? h : h + l)), 0);
  if (max === 0) return 0;
  const { e, h1, h2 } = nrm2Scaling(max);
  const s = lanes();
  terms.forEach(([h, l], i) => {
    const p = s[i % 8]!, z = h * 2 ** h1 * 2 ** h2;
    if (l === undefined) ddTwoProdAccumulate(p, z, z, p[0]!, p[1]!);
    else { const zl = l * 2 ** h1 * 2 ** h2; ddMulAccumulate(p, z, zl, z, zl, p[0]!, p[1]!); }
  });
  const r = joinLanes(s);
  let root: number;
  if (ddRoot) { const q = new Float64Array(2); ddSqrt(q, r[0]!, r[1]!); root = q[0]! - (0 - q[1]!); } else root = Math.sqrt(r[0]! + r[1]!);
  return unscaled(root, e);
}

/**
 * DOT's documented order: xᵢyᵢ into lane i mod 8 — by ddTwoProdAccumulate when both are exact doubles throughout, by
 * ddMulAccumulate (a missing low part 0) when either operand has pairs —, joined; hi + lo.
 */
export function laneOrderDdDot(x: readonly Term[], y: readonly Term[]): number {
  const general = x.some(([, l]) => l !== undefined) || y.some(([, l]) => l !== undefined);
  const s = lanes();
  x.forEach(([xh, xl], i) => {
    const p = s[i % 8]!, [yh, yl] = y[i]!;
    if (general) ddMulAccumulate(p, xh, xl ?? 0, yh, yl ?? 0, p[0]!, p[1]!);
    else ddTwoProdAccumulate(p, xh, yh, p[0]!, p[1]!);
  });
  const r = joinLanes(s);
  return r[0]! + r[1]!;
}

/** The stored value of an element (unscaled): a double, or a double-double storage's pair. */
function storedAt(a: Accessor<any, any>, index: readonly number[]): { hi: number; lo: number } {
  const v = a.storage.decode(a.data as never, a.linearIndex(index)) as number | { hi: number; lo: number };
  return typeof v === 'number' ? { hi: v, lo: 0 } : v;
}

/** An element's scale (1 when unscaled). */
const scaleAt = (a: Accessor<any, any>, index: readonly number[]): number => (a.scale ? a.scale.data[a.scaleIndex(index)]! : 1);

/**
 * The term the kernels read from an element, as the JavaScript kernels read it: in double-double arithmetic (`dd`) a
 * double-double storage's pair, and a scaled element as the arithmetic's product (v, 0)·(s, 0) — (hi, lo)·(s, 0) for
 * double-double storage — by the library's ddMul (the algorithm of the templates); otherwise the fp64 read, hi + lo
 * for double-double storage, times the scale in fp64.
 */
export function termAt(a: Accessor<any, any>, index: readonly number[], dd: boolean): Term {
  const { hi, lo } = storedAt(a, index), s = scaleAt(a, index);
  if (dd && a.scale) { const out = new Float64Array(2); ddMul(out, hi, lo, s, 0); return [out[0]!, out[1]!]; }
  if (dd && a.storage.kind === 'dd') return [hi, lo];
  const v = a.storage.kind === 'dd' ? hi + lo : hi;
  return [a.scale ? v * s : v, undefined];
}

/** The exact value an element represents: (hi + lo)·s, stored × scale. */
export function exactAt(a: Accessor<any, any>, index: readonly number[]): Rational {
  const { hi, lo } = storedAt(a, index);
  return mulRational(addRational(exactOf(hi), exactOf(lo)), exactOf(scaleAt(a, index)));
}

/** The terms of a vector ({@link termAt}). */
export function termsOf(x: Range<1, any>, dd: boolean): Term[] {
  return Array.from({ length: x.length() }, (_, i) => termAt(x.accessor, [i], dd));
}

/** The exact values of a vector ({@link exactAt}). */
export function exactValuesOf(x: Range<1, any>): Rational[] {
  return Array.from({ length: x.length() }, (_, i) => exactAt(x.accessor, [i]));
}
