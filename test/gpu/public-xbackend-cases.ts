/**
 * Shared parts of the cross-backend differential tests (test/gpu/public-xbackend-*.test.ts): one public call run
 * with `backend: 'js'`, `'wasm'` and `'gpu'` (llvmpipe, `strict: true`) on operands built identically for each, and
 * the comparison the one-rule demands — the same typed error (code and parameter) with nothing written, a refusal
 * of a capability the backend lacks (a typed INVALID_FORMAT naming the operand, INVALID_OPTION naming
 * options.arithmetic), or results each within the kernel's documented bound of the exact (BigInt) value with the
 * same NaN/±∞ pattern everywhere.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { colMajor, formats, range, ModprecError, scaledReducedColMajor, span } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';

export const BACKENDS = ['js', 'wasm', 'gpu'] as const;
export type Backend = (typeof BACKENDS)[number];

/**
 * The storages every one of the three backends has a part for: dd interleaved and split, scaled integers under one
 * power-of-two scale (i8s, i16s) or a scale per element (i16e: 1/16 and 3/16 alternately, so reads stay exact).
 */
export const STORAGES = ['f64', 'f32', 'f16', 'bf16', 'dd', 'ddSplit', 'i8s', 'i16s', 'i16e'] as const;
export type StorageName = (typeof STORAGES)[number];
/** The arithmetics asked for (each refused by the backend that has no part for it: f64 on the GPU, ff in WebAssembly). */
export const ARITHMETICS = ['f32', 'ff', 'f64', 'dd'] as const;
export type ArithmeticName = (typeof ARITHMETICS)[number];

/** Special values the kernels must agree on: NaN, ±0, ±∞, subnormals of both binary32 and binary64. */
export const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 2 ** -130, -(2 ** -149), 5e-324, -1e-310, 2 ** -126];

/** Values: small dyadic ones (sums round in f32 and 16-bit storage), some wide ones, and the specials. */
export function valueArb(specialWeight = 2): fc.Arbitrary<number> {
  return fc.oneof(
    { arbitrary: fc.integer({ min: -256, max: 256 }).map((k) => k / 16), weight: 5 },
    { arbitrary: fc.double({ min: -8, max: 8, noNaN: true }), weight: 3 },
    { arbitrary: fc.constantFrom(...SPECIALS), weight: specialWeight },
  );
}

/** A coefficient α or β: the BLAS special cases 0 and 1, ordinary values, and NaN/±∞. */
export const coefficientArb = fc.oneof(
  { arbitrary: fc.constantFrom(0, -0, 1, -1), weight: 4 },
  { arbitrary: fc.integer({ min: -24, max: 24 }).map((k) => k / 8), weight: 3 },
  { arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, 2 ** -140), weight: 1 },
);

/** A vector operand: storage, increment (either sign), padding, values. */
export interface VecSpec { readonly storage: StorageName; readonly inc: number; readonly pad: number; readonly values: readonly number[] }

export function vecSpecArb(n: number, storages: readonly StorageName[] = STORAGES, values = valueArb()): fc.Arbitrary<VecSpec> {
  return fc.record({
    storage: fc.constantFrom(...storages), inc: fc.constantFrom(1, 1, 2, -1), pad: fc.nat(1),
    values: fc.array(values, { minLength: n, maxLength: n }),
  });
}

/**
 * The one documented difference of reads, excluded by construction: in f32 arithmetic a double below 2^-126 from a
 * storage other than f32 is its binary32 subnormal on the CPU (`Math.fround`) and ±0 on the GPU (docs/gpu.md, "Stored
 * values are read once"; docs/double-double.md, "Where the backends still differ"), so 2^-130·∞ is ∞ on one and NaN
 * on the other. Such values become zeros of their sign for f32 arithmetic; f32 storage keeps its subnormals.
 */
export function readableAlike<S extends { readonly storage: StorageName; readonly values: readonly number[] }>(s: S, arithmetic: ArithmeticName): S {
  if (arithmetic !== 'f32' || s.storage === 'f32') return s;
  return { ...s, values: s.values.map((v) => (v !== 0 && Math.abs(v) < 2 ** -126 ? (v < 0 ? -0 : 0) : v)) };
}

/**
 * Double-double arithmetic over scaled integers compiles a program of tens of seconds on llvmpipe (DOT: 23–44 s a
 * signature, DOT's `into` included), so those operands are read from f64 storage instead unless MODPREC_XB_DD_SCALED=1 asks for them (the
 * long hunt); test/gpu/test-matrix.test.ts and dd-scaled-outputs.test.ts run such signatures on purpose.
 */
export function affordable<S extends { readonly storage: StorageName }>(s: S, arithmetic: ArithmeticName): S {
  const scaled = s.storage === 'i8s' || s.storage === 'i16s' || s.storage === 'i16e';
  return arithmetic === 'dd' && scaled && process.env.MODPREC_XB_DD_SCALED !== '1' ? { ...s, storage: 'f64' } : s;
}

/** The operand arithmetic a storage is read through here: dd keeps its pair (the oracle reads it exactly). */
function operandArithmetic(s: StorageName): any {
  return s === 'dd' || s === 'ddSplit' ? formats.dd : formats.f64;
}

/** Sentinel of span element k: exact in every storage here, i8/i16 under the scale 1/16 included. */
const sentinel = (k: number): number => 0.5 + (k % 7) / 8;

/** A vector built from its spec, inside a span of sentinels (`full`); `at` is the span index of each element. */
export interface Vec { readonly r: Range<1, any>; readonly full: Range<1, any>; readonly at: readonly number[] }

export function makeVec(s: VecSpec): Vec {
  const n = s.values.length;
  if (s.storage === 'i8s' || s.storage === 'i16s' || s.storage === 'i16e') {
    const each = s.storage === 'i16e';
    const r = range(scaledReducedColMajor<1>({
      size: [n], storage: (s.storage === 'i8s' ? formats.i8 : formats.i16) as never, arithmetic: formats.f64, scaleMask: [each],
      scale: each ? Float64Array.from({ length: n }, (_, i) => (i % 2 ? 3 / 16 : 1 / 16)) : Float64Array.of(1 / 16),
    })) as Range<1, any>;
    s.values.forEach((v, i) => r.set(i, v));
    return { r, full: r, at: s.values.map((_, i) => i) };
  }
  const storage = formats[s.storage];
  const a = Math.abs(s.inc);
  const size = 2 * s.pad + (n > 0 ? (n - 1) * a + 1 : 0);
  const full = range(colMajor<1>({ size: [size], storage, arithmetic: operandArithmetic(s.storage) } as never)) as Range<1, any>;
  for (let k = 0; k < size; k++) full.set(k, sentinel(k) as never);
  const offset = s.pad + (s.inc < 0 && n > 0 ? (n - 1) * a : 0);
  const r = range(colMajor<1>({ size: [n], stride: s.inc, offset, storage, arithmetic: operandArithmetic(s.storage), data: full.accessor.data } as never)) as Range<1, any>;
  s.values.forEach((v, i) => r.set(i, v as never));
  return { r, full, at: s.values.map((_, i) => offset + i * s.inc) };
}

/** The raw bits of the span elements outside the view (an output's neighbours must keep them). */
export function outsideBits(v: Vec): string {
  const inView = new Set(v.at);
  const out: string[] = [];
  for (let k = 0; k < v.full.length(); k++) if (!inView.has(k)) out.push(JSON.stringify(v.full.get(k)));
  return out.join();
}

/** A matrix operand: storage, layout, values column-major. */
export interface MatSpec { readonly storage: StorageName; readonly rows: number; readonly cols: number; readonly sub: boolean; readonly values: readonly number[] }

export function matSpecArb(rows: number, cols: number, storages: readonly StorageName[] = STORAGES, values = valueArb()): fc.Arbitrary<MatSpec> {
  return fc.record({
    storage: fc.constantFrom(...storages), rows: fc.constant(rows), cols: fc.constant(cols), sub: fc.boolean(),
    values: fc.array(values, { minLength: rows * cols, maxLength: rows * cols }),
  });
}

/** A matrix from its spec (a sub-range of a sentinel-filled parent when `sub`); `full` is the parent. */
export function makeMat(s: MatSpec): { r: Range<2, any>; full: Range<2, any> } {
  const [R, C] = s.sub ? [s.rows + 2, s.cols + 1] : [s.rows, s.cols];
  let full: Range<2, any>;
  if (s.storage === 'i8s' || s.storage === 'i16s' || s.storage === 'i16e') {
    // i16e: a scale per row (1/16 and 3/16 alternately).
    const each = s.storage === 'i16e';
    full = range(scaledReducedColMajor<2>({
      size: [R, C], storage: (s.storage === 'i8s' ? formats.i8 : formats.i16) as never, arithmetic: formats.f64, scaleMask: [each, false],
      scale: each ? Float64Array.from({ length: R }, (_, i) => (i % 2 ? 3 / 16 : 1 / 16)) : Float64Array.of(1 / 16),
    })) as Range<2, any>;
  } else {
    full = range(colMajor<2>({ size: [R, C], storage: formats[s.storage], arithmetic: operandArithmetic(s.storage) } as never)) as Range<2, any>;
  }
  for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) full.set(i, j, sentinel(i + 3 * j) as never);
  const r = s.sub ? full.sub(span(1, s.rows + 1), span(1, s.cols + 1)) : full;
  for (let j = 0; j < s.cols; j++) for (let i = 0; i < s.rows; i++) r.set(i, j, s.values[i + j * s.rows]! as never);
  return { r, full };
}

/** Every raw stored value of the ranges (−0 and NaN told apart): equal strings, nothing written. */
export function rawBits(ranges: readonly Range<any, any>[]): string {
  return ranges.map((r) => {
    const a = r.accessor;
    const text = (d: ArrayLike<number>): string => Array.from(d, (v) => (Object.is(v, -0) ? '-0' : String(v))).join();
    // dd-split storage keeps two arrays, hi and lo.
    const split = a.data as { hi?: ArrayLike<number>; lo?: ArrayLike<number> };
    const parts = [split.hi && split.lo ? `${text(split.hi)};${text(split.lo)}` : text(a.data as ArrayLike<number>)];
    if (a.scale) parts.push(Array.from(a.scale.data as ArrayLike<number>).join());
    return parts.join('|');
  }).join('/');
}

/** A value as read back: a double, or a dd pair as hi and lo. */
export function readBack(r: Range<1, any>): number[][] {
  return Array.from({ length: r.length() }, (_, i) => {
    const v = r.get(i) as number | { hi: number; lo: number };
    return typeof v === 'number' ? [v] : [v.hi, v.lo];
  });
}

/** What a call gave: an error (code and parameter), or what it returned / wrote. */
export type Outcome = { readonly error: string } | { readonly ran: true; readonly value?: number };

export async function attempt(run: () => unknown): Promise<Outcome> {
  try {
    const r = await run();
    return { ran: true, value: typeof r === 'number' ? r : (r as { value?: number } | undefined)?.value };
  } catch (e) {
    if (e instanceof ModprecError) return { error: `${e.code} ${e.parameter}` };
    return { error: `untyped ${(e as Error)?.message}` };
  }
}

/**
 * Whether a backend's error is the typed refusal of a capability it documents lacking (docs/gpu.md "Capabilities",
 * docs/guide.md's WebAssembly table): an arithmetic it has no part for, an operand storage it cannot read or write.
 */
export function capabilityRefusal(error: string, operands: readonly string[]): boolean {
  const [code, parameter] = error.split(' ');
  return (code === 'INVALID_OPTION' && parameter === 'options.arithmetic') || (code === 'INVALID_FORMAT' && operands.includes(parameter!));
}

/**
 * Where values are not finite, and how: N NaN, + / − ±∞, . finite; with `zeros`, also 0 / z for +0 / −0 — the
 * double-double and float-float rule (docs/double-double.md "Special values": a dd kernel gives fp64's special
 * values and zero signs, an ff kernel binary32's, on every backend).
 */
export function pattern(values: readonly number[], zeros = false): string {
  return values.map((v) => (Number.isNaN(v) ? 'N' : v === Infinity ? '+' : v === -Infinity ? '-' : zeros && v === 0 ? (Object.is(v, -0) ? 'z' : '0') : '.')).join('');
}

/**
 * Checks the outcomes of one call on the three backends: every typed error that is not a capability refusal is the
 * same everywhere (and none is untyped); an error leaves every operand's bits as they were (checked by the caller's
 * `kept`); the backends that ran agree on which results are NaN or ±∞.
 */
export function expectOneRule(what: string, outcomes: ReadonlyMap<Backend, Outcome>, operands: readonly string[], patterns: ReadonlyMap<Backend, string>): void {
  const errors = new Set<string>();
  let ran = 0;
  for (const [backend, o] of outcomes) {
    if ('error' in o) {
      expect(o.error.startsWith('untyped'), `${what} [${backend}]: ${o.error}`).toBe(false);
      if (!capabilityRefusal(o.error, operands)) errors.add(o.error);
    } else ran++;
  }
  // A non-capability error must be everyone's (a backend that runs what another rejects as invalid input is a split rule).
  if (errors.size > 0) {
    expect([...errors], `${what}: ${[...outcomes].map(([b, o]) => `${b}: ${'error' in o ? o.error : 'ran'}`).join('; ')}`).toHaveLength(1);
    expect(ran, `${what}: ${[...outcomes].map(([b, o]) => `${b}: ${'error' in o ? o.error : 'ran'}`).join('; ')}`).toBe(0);
  }
  const seen = new Set(patterns.values());
  expect(seen.size, `${what}: NaN/±∞ patterns ${[...patterns].map(([b, p]) => `${b} ${p}`).join(', ')}`).toBeLessThanOrEqual(1);
}
