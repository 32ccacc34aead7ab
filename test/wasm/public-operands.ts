/**
 * Operands for the public-API differential tests: every built-in storage (fp64, fp32, fp16, bf16, i8/i16/i32 under
 * one scale or a scale per element, dd, dd-split), any stride of either sign, sub-ranges, inside a buffer of
 * sentinels — built the same way as often as asked, so one case can run on the JavaScript and the WebAssembly each
 * from identical bits and the raw bytes afterwards compared with Object.is.
 */
import fc from 'fast-check';
import { range, span, formats, type Range } from '../../src/index.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { scaledReducedRowMajor, scaledReducedColMajor } from '../../accessors/scaled-reduced.js';
import { asArithmetic, asStorage } from '../../src/formats/common/registry.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, subRational, type Rational } from '../../src/testing/rational.js';

/** Every built-in storage the CPU kernels take. */
export const STORAGES = ['f64', 'f32', 'f16', 'bf16', 'i8', 'i16', 'i32', 'dd', 'ddSplit'] as const;
export type StorageName = (typeof STORAGES)[number];
/** How a 1-D operand is scaled: none (floats only), one scale, or one per element. */
export type ScaleKind = 'none' | 'one' | 'each';

/** A 1-D operand: formats, layout (stride, sub-range), raw values. */
export interface VecSpec {
  readonly storage: StorageName;
  readonly scale: ScaleKind;
  /** The scale value(s) to use (cycled). */
  readonly scales: readonly number[];
  readonly stride: number;
  readonly before: number;
  readonly after: number;
  /** Values written through an fp64 view; `lo` adds a low part to dd storages (a fraction of ulp(hi)). */
  readonly values: readonly number[];
  readonly lo: readonly number[];
}

const PAD = 2;
const isInt = (s: StorageName): boolean => s === 'i8' || s === 'i16' || s === 'i32';
const storageKey = (s: StorageName): string => (s === 'ddSplit' ? 'dd-split' : s);

/** Special values every kernel must handle. */
export const SPECIALS = [0, -0, NaN, Infinity, -Infinity, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308,
  -1.7e308, 3.4028234663852886e38, 3.5e38, 1.401298464324817e-45, 1.1754943508222875e-38, 65504, 65520, -65536,
  5.960464477539063e-8, 2 ** -149, 2 ** -1074, 1e-310];

/** Values: mostly moderate with a few special ones (`specials` weight 0 turns them off). */
export function valueArb(specials = 2): fc.Arbitrary<number> {
  const moderate = fc.tuple(fc.integer({ min: -(2 ** 24), max: 2 ** 24 }), fc.integer({ min: -30, max: 10 })).map(([m, e]) => m * 2 ** e);
  const wide = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
  const parts: { weight: number; arbitrary: fc.Arbitrary<number> }[] = [{ weight: 10, arbitrary: moderate }, { weight: 6, arbitrary: wide }];
  if (specials > 0) parts.push({ weight: specials, arbitrary: fc.constantFrom(...SPECIALS) });
  return fc.oneof(...parts);
}

/** Scales drawn for scaled storages (exact powers of two, awkward fractions, extremes). */
export const scaleArb = fc.constantFrom(1, 0.5, 2 ** -10, 1 / 3, 1000 / 32767, 3.7e-5, 1e-300, 1e300, 7, 2 ** -1070, 1.25);

// Replays one failure: FC_SEED and FC_PATH from fast-check's report.
if (process.env.FC_SEED) fc.configureGlobal({ seed: Number(process.env.FC_SEED), path: process.env.FC_PATH, endOnFailure: true } as fc.GlobalParameters);

/** Runs per property: `FUZZ_RUNS` multiplies them for a longer hunt. */
export function runs(base: number): number {
  return Math.round(base * Number(process.env.FUZZ_RUNS ?? 1));
}

/** Lengths at the internal boundaries (SIMD lanes, unroll by 8, the narrow DOT's blocks of 512, chunks of 4096). */
export const BOUNDARY_LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 511, 512, 513];
export const lengthArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...BOUNDARY_LENGTHS) }, { weight: 3, arbitrary: fc.integer({ min: 0, max: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(4095, 4096, 4097, 8200) });

/** A 1-D operand spec of length n. */
export function vecSpecArb(n: number, storages: readonly StorageName[] = STORAGES, specials = 2): fc.Arbitrary<VecSpec> {
  return fc.constantFrom(...storages).chain((storage) => fc.record({
    storage: fc.constant(storage),
    scale: isInt(storage) ? fc.constantFrom<ScaleKind>('one', 'one', 'one', 'each') : fc.constantFrom<ScaleKind>('none', 'none', 'none', 'none', 'one', 'one', 'each'),
    scales: fc.array(scaleArb, { minLength: 1, maxLength: 3 }),
    stride: fc.constantFrom(1, 1, 1, 2, 3, -1, -2),
    before: fc.constantFrom(0, 0, 1, 3),
    after: fc.constantFrom(0, 0, 2),
    values: n > 64 ? fc.constant(null).chain(() => fc.array(valueArb(specials), { minLength: 8, maxLength: 8 }).map((seed) => Array.from({ length: n }, (_, i) => seed[i % 8]! * (1 + (i % 13) / 16))))
      : fc.array(valueArb(specials), { minLength: n, maxLength: n }),
    lo: fc.array(fc.double({ min: -0.49, max: 0.49, noNaN: true }), { minLength: 1, maxLength: 5 }),
  }));
}

/** A built operand: the view, its raw storage (and scales) to compare, and a check that nothing outside it moved. */
export interface Built<D extends 1 | 2> {
  readonly range: Range<D, any>;
  /** Every raw element of the buffer (dd-split: hi then lo) and then every scale. */
  raw(): number[];
  /** Raw positions of the view's elements (to tell which changes were allowed). */
  readonly positions: ReadonlySet<number>;
}

/**
 * A NaN's sign and payload are the engine's (IEEE leaves them open; the f16 and bf16 encoders keep the sign "where
 * the engine keeps it"): 16-bit NaN patterns compare as one value, as Object.is compares the wider formats' NaNs.
 */
function canonicalNaN(storage: StorageName, bits: number): number {
  if (storage === 'f16' && (bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0) return NaN;
  if (storage === 'bf16' && (bits & 0x7f80) === 0x7f80 && (bits & 0x7f) !== 0) return NaN;
  return bits;
}

function rawOf(storage: StorageName, data: any, scale: Float64Array | undefined): number[] {
  const out: number[] = storage === 'ddSplit' ? [...data.hi, ...data.lo] : [...data].map((b: number) => canonicalNaN(storage, b));
  if (scale) out.push(...scale);
  return out;
}

function sentinel(storage: StorageName): number {
  return storage === 'f16' ? 0x7e00 : storage === 'bf16' ? 0x7fc0 : isInt(storage) ? 77 : NaN;
}

function fill(storage: StorageName, data: any): void {
  if (storage === 'ddSplit') { data.hi.fill(NaN); data.lo.fill(NaN); } else data.fill(sentinel(storage));
}

/** Writes a low part beside the high part a dd storage holds at linear index k (a fraction of ulp(hi), normalised). */
function writeLo(storage: StorageName, data: any, k: number, fraction: number): void {
  const hi = storage === 'dd' ? data[2 * k] : data.hi[k];
  if (!Number.isFinite(hi) || hi === 0) return;
  // A few significant bits only (multiples of ulp/64), so exact oracles stay small; |lo| < ulp/2 keeps the pair normalised.
  const lo = (Math.round(fraction * 64) / 64) * ulpOf(hi);
  if (lo === 0 || Math.abs(lo) < 2 ** -1068) return;
  if (storage === 'dd') data[2 * k + 1] = lo; else data.lo[k] = lo;
}

/** The spacing of doubles at |x|. */
export function ulpOf(x: number): number {
  const a = Math.abs(x);
  if (a < 2 ** -1021) return 2 ** -1074;
  const e = Math.floor(Math.log2(a));
  const exp = 2 ** e > a ? e - 1 : 2 ** (e + 1) <= a ? e + 1 : e;
  return 2 ** Math.max(exp - 52, -1074);
}

/** Builds a 1-D operand in `arithmetic`. */
export function buildVec(spec: VecSpec, arithmetic: string): Built<1> {
  const n = spec.values.length;
  const inc = Math.abs(spec.stride);
  const parentLength = spec.before + n + spec.after;
  const st = asStorage(storageKey(spec.storage));
  const data: any = st.allocate(2 * PAD + Math.max(0, parentLength - 1) * inc + 1);
  fill(spec.storage, data);
  const offset = PAD + (spec.stride < 0 ? inc * Math.max(0, parentLength - 1) : 0);
  const common = { size: [parentLength] as [number], storage: storageKey(spec.storage), arithmetic: 'f64', data, stride: spec.stride, offset };
  const scaleData = spec.scale === 'none' ? undefined
    : Float64Array.from({ length: spec.scale === 'each' ? Math.max(1, parentLength) : 1 }, (_, k) => spec.scales[k % spec.scales.length]!);
  const parent = scaleData ? scaledReducedRowMajor<1>({ ...common, scaleMask: [spec.scale === 'each'], scale: scaleData }) : rowMajor<1>(common);
  const view = parent.sub(span(spec.before, spec.before + n));
  const r = range(view);
  for (let i = 0; i < n; i++) r.set(i, spec.values[i]!);
  if (spec.storage === 'dd' || spec.storage === 'ddSplit') {
    for (let i = 0; i < n; i++) writeLo(spec.storage, data, view.linearIndex([i]), spec.lo[i % spec.lo.length]!);
  }
  const positions = new Set<number>();
  for (let i = 0; i < n; i++) positions.add(view.linearIndex([i]));
  return { range: range(view.withArithmetic(asArithmetic(arithmetic))), raw: () => rawOf(spec.storage, data, scaleData), positions };
}

/** A 2-D operand: storage, layout, leading-dimension padding, sub-matrix offsets, scales (none, one, per row or per column). */
export interface MatSpec {
  readonly storage: StorageName;
  readonly scale: 'none' | 'one' | 'rows' | 'cols';
  readonly scales: readonly number[];
  readonly layout: 'row' | 'col';
  readonly pad: number;
  readonly r0: number;
  readonly c0: number;
  readonly values: (i: number, j: number) => number;
  readonly lo: readonly number[];
}

/** A 2-D operand spec over values drawn from `cells` (cycled, varied by position). */
export function matSpecArb(storages: readonly StorageName[] = STORAGES, specials = 1, scaled = true): fc.Arbitrary<MatSpec> {
  return fc.constantFrom(...storages).chain((storage) => fc.record({
    storage: fc.constant(storage),
    scale: isInt(storage) ? fc.constantFrom<MatSpec['scale']>('one', 'rows', 'cols')
      : scaled ? fc.constantFrom<MatSpec['scale']>('none', 'none', 'none', 'one', 'rows') : fc.constant<MatSpec['scale']>('none'),
    scales: fc.array(scaleArb, { minLength: 1, maxLength: 3 }),
    layout: fc.constantFrom<'row' | 'col'>('row', 'col'),
    pad: fc.constantFrom(0, 0, 1, 3),
    r0: fc.constantFrom(0, 0, 1),
    c0: fc.constantFrom(0, 0, 2),
    values: fc.array(valueArb(specials), { minLength: 37, maxLength: 37 }).map((cells) => (i: number, j: number) => {
      const v = cells[(i * 7 + j * 3) % 37]!;
      return Number.isFinite(v) && Math.abs(v) < 1e300 ? v * (1 + ((i + 2 * j) % 5) / 8) : v;
    }),
    lo: fc.array(fc.double({ min: -0.49, max: 0.49, noNaN: true }), { minLength: 1, maxLength: 5 }),
  }));
}

/** Builds an m×n operand (inside a larger parent when r0/c0/pad ask for it) in `arithmetic`. */
export function buildMat(spec: MatSpec, m: number, n: number, arithmetic: string, value: (i: number, j: number) => number = spec.values): Built<2> {
  const pm = m + spec.r0, pn = n + spec.c0;
  const ld = Math.max(1, (spec.layout === 'row' ? pn : pm) + spec.pad);
  const len = 2 * PAD + ld * (spec.layout === 'row' ? pm : pn) + 1;
  const st = asStorage(storageKey(spec.storage));
  const data: any = st.allocate(len);
  fill(spec.storage, data);
  const common = { size: [pm, pn] as [number, number], storage: storageKey(spec.storage), arithmetic: 'f64', data, stride: ld, offset: PAD };
  const scaleCount = spec.scale === 'none' ? 0 : spec.scale === 'one' ? 1 : spec.scale === 'rows' ? Math.max(1, pm) : Math.max(1, pn);
  const scaleData = scaleCount ? Float64Array.from({ length: scaleCount }, (_, k) => spec.scales[k % spec.scales.length]!) : undefined;
  const mask = [spec.scale === 'rows', spec.scale === 'cols'];
  const parent = scaleData
    ? (spec.layout === 'row' ? scaledReducedRowMajor<2> : scaledReducedColMajor<2>)({ ...common, scaleMask: mask, scale: scaleData })
    : (spec.layout === 'row' ? rowMajor<2> : colMajor<2>)(common);
  const view = parent.sub(span(spec.r0, spec.r0 + m), span(spec.c0, spec.c0 + n));
  const r = range(view);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) r.set(i, j, value(i, j));
  if (spec.storage === 'dd' || spec.storage === 'ddSplit') {
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) writeLo(spec.storage, data, view.linearIndex([i, j]), spec.lo[(i + j) % spec.lo.length]!);
  }
  const positions = new Set<number>();
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) positions.add(view.linearIndex([i, j]));
  return { range: range(view.withArithmetic(asArithmetic(arithmetic))), raw: () => rawOf(spec.storage, data, scaleData), positions };
}

/** The first raw element where two snapshots differ by Object.is, or null. */
export function firstRawDifference(a: readonly number[], b: readonly number[]): string | null {
  if (a.length !== b.length) return `lengths ${a.length} vs ${b.length}`;
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) return `raw[${k}]: ${a[k]} vs ${b[k]}`;
  return null;
}

/** A short description for failure messages. */
export function describeVec(s: VecSpec): string {
  return `${s.storage}/${s.scale}${s.scale === 'none' ? '' : `[${s.scales.join(',')}]`} n=${s.values.length} stride=${s.stride} sub=${s.before},${s.after}`;
}

export { formats };

/** The exact value an element holds (stored × scale; a dd pair as hi + lo), or null when it is NaN or ±∞. */
export function exactAt(r: Range<any, any>, idx: readonly number[]): Rational | null {
  const a = r.accessor;
  const d = a.storage.decode(a.data as never, a.linearIndex(idx)) as number | { hi: number; lo: number };
  const parts = typeof d === 'number' ? [d] : [d.hi, d.lo];
  if (parts.some((p) => !Number.isFinite(p))) return null;
  let v = parts.map(exactOf).reduce(addRational);
  if (a.scale) {
    const s = a.scale.data[a.scaleIndex(idx as any)]!;
    if (!Number.isFinite(s)) return null;
    v = mulRational(v, exactOf(s));
  }
  return v;
}

/** The exact values of a vector (null where not finite). */
export function exactVec(r: Range<1, any>): (Rational | null)[] {
  return Array.from({ length: r.length() }, (_, i) => exactAt(r, [i]));
}

/** Whether |computed − exact| ≤ bound, decided exactly (an infinite bound always holds; NaN never). */
export function within(computed: number, exact: Rational, bound: number): boolean {
  if (bound === Infinity) return true;
  if (!Number.isFinite(computed) || !(bound >= 0)) return false;
  return compareRational(absRational(subRational(exactOf(computed), exact)), exactOf(bound)) <= 0;
}
