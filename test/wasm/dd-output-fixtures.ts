/**
 * Double-double outputs for the WebAssembly tests (issue 20): vectors in interleaved (`dd`) and split (`dd-split`)
 * storage with any stride (negative too), optionally a sub-range of a larger buffer of NaN sentinels; their raw
 * (hi, lo) pairs; and the comparison of two runs' pairs, bit for bit (a NaN part compared as NaN only).
 */
import { seededRandom } from '../../src/sparse/seeded-random.js';
import fc from 'fast-check';
import { range, rowMajor, span, formats, type Range } from '../../src/index.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';

export type DdLayout = 'dd' | 'dd-split';
export type Pair = { hi: number; lo: number };

/** How a dd output sits in memory. */
export interface DdVectorSpec { layout: DdLayout; stride: number; sub: boolean }

export const ddVectorSpec: fc.Arbitrary<DdVectorSpec> = fc.record({
  layout: fc.constantFrom('dd' as const, 'dd-split' as const), stride: fc.constantFrom(1, 1, 2, -1, -3), sub: fc.boolean(),
});

/** Special values an element may take: NaN, ±∞, ±0, subnormals, the largest double. */
export const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 2 ** -1074, -(2 ** -1060), Number.MAX_VALUE];

/** A value for dd storage whose low part counts (|lo| < ulp(hi)/2), from hi and r in [−1, 1] (another r: 1/2). */
export const pairOf = (hi: number, r: number): Pair => ({ hi, lo: Number.isFinite(hi) && hi !== 0 ? hi * 2 ** -54 * (Math.abs(r) <= 1 ? r : 0.5) : 0 });

/** A dd or dd-split vector holding `values`, inside NaN sentinels where `sub`. */
export function ddVector(spec: DdVectorSpec, values: readonly Pair[]): Range<1, any> {
  const n = values.length, N = spec.sub ? n + 3 : n;
  const storage = spec.layout === 'dd' ? formats.dd : formats.ddSplit;
  const parent = range(rowMajor<1, any>({ size: [N], storage, arithmetic: formats.f64, stride: spec.stride }));
  const data = parent.accessor.data as Float64Array | DdSplitArray;
  if (data instanceof DdSplitArray) { data.hi.fill(NaN); data.lo.fill(NaN); } else data.fill(NaN);
  const y = spec.sub ? parent.sub(span(1, 1 + n)) : parent;
  const a = y.accessor;
  values.forEach((p, i) => a.storage.encode(a.data as never, a.linearIndex([i]), p));
  return y;
}

/** Every raw part of the vector's buffer (sentinels included): hi and lo of each stored element. */
export function rawParts(r: Range<1, any>): number[] {
  const data = r.accessor.data as Float64Array | DdSplitArray;
  return data instanceof DdSplitArray ? [...data.hi, ...data.lo] : [...data];
}

/** The held pairs of a vector, element by element. */
export function pairsOf(r: Range<1, any>): Pair[] {
  const a = r.accessor;
  return Array.from({ length: r.length() }, (_, i) => a.storage.decode(a.data as never, a.linearIndex([i])) as Pair);
}

/**
 * Throws unless two runs left the same raw parts: every part bit for bit (Object.is, so ±0 differ), a NaN part
 * compared as NaN (IEEE 754 leaves a NaN's sign and payload open between two programs).
 */
export function expectSameParts(got: readonly number[], want: readonly number[], what: string): void {
  if (got.length !== want.length) throw new Error(`${what}: ${got.length} parts ≠ ${want.length}`);
  for (let k = 0; k < got.length; k++) {
    const g = got[k]!, w = want[k]!;
    if (Number.isNaN(g) && Number.isNaN(w)) continue;
    if (!Object.is(g, w)) throw new Error(`${what}: part ${k} of ${got.length} is ${g}, expected ${w}`);
  }
}

/**
 * A TRSV system of a case: a well-conditioned n×n triangle built by `build` (off-diagonal entries small, a zero pivot
 * where asked) and right-hand sides as dd pairs, specials among them where asked; drawn from the case's seed.
 */
export function trsvSystem<M>(c: { n: number; seed: number; zeroPivot: boolean; special: boolean }, build: (entry: (i: number, j: number) => number) => M): { A: M; bs: Pair[] } {
  const random = seededRandom(c.seed);
  const pivot = Math.floor(random.nextDouble() * c.n);
  const A = build((i, j) => (i === j ? (c.zeroPivot && i === pivot ? 0 : 1 + random.nextDouble()) : (random.nextDouble() - 0.5) / c.n));
  const value = (): number => (c.special && random.nextDouble() < 0.2 ? SPECIALS[Math.floor(random.nextDouble() * SPECIALS.length)]! : random.nextDouble() * 2 - 1);
  return { A, bs: Array.from({ length: c.n }, () => pairOf(value(), random.nextDouble() * 2 - 1)) };
}

/**
 * Stored words with every NaN code of a 16-bit float storage replaced by NaN (which {@link expectSameParts} compares
 * as one): a NaN's sign is the engine's (IEEE 754 leaves it open; the bf16 / fp16 encoders keep it where the engine
 * does). Other storages' words are returned as they are.
 */
export function canonicalNanCodes(storage: string, words: readonly number[]): number[] {
  const nanCode = storage === 'bf16' ? (w: number) => (w & 0x7f80) === 0x7f80 && (w & 0x7f) !== 0
    : storage === 'f16' ? (w: number) => (w & 0x7c00) === 0x7c00 && (w & 0x3ff) !== 0 : () => false;
  return words.map((w) => (nanCode(w) ? Number.NaN : w));
}
