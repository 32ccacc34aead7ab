/**
 * Outputs the WebAssembly kernels store through the JavaScript kernels' own store (issue 20): vectors in i8, i16,
 * i32, f16, bf16, f32, f64 or dd storage, unscaled, with one scale or with a scale per element, any stride (negative
 * too), optionally a sub-range of a larger buffer of sentinels; their raw stored words and scales; start values that
 * hold NaN where the storage can (β = 0 must not read them). Scales include tiny ones, so results saturate the
 * integer formats.
 */
import fc from 'fast-check';
import { formats, range, rowMajor, scaledReducedRowMajor, span, type Range } from '../../src/index.js';
import type { Accessor } from '../../accessors/accessor.js';
import { canonicalNanCodes } from './dd-output-fixtures.js';

export type OutputStorage = 'i8' | 'i16' | 'i32' | 'f16' | 'bf16' | 'f32' | 'f64' | 'dd';
export type ScaleKind = 'none' | 'one' | 'per-element';

/** How a stored output sits in memory, and its scales. */
export interface OutputSpec {
  storage: OutputStorage;
  scaleKind: ScaleKind;
  /** The scales drawn (the first for one scale; cycled for a scale per element). */
  scales: number[];
  stride: number;
  sub: boolean;
}

/** Scales: moderate of either sign, powers of two, and tiny ones under which results saturate an integer format. */
export const outputScale: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: 2 ** -12, max: 2 ** 12, noNaN: true }).chain((s) => fc.constantFrom(s, -s)) },
  { weight: 2, arbitrary: fc.integer({ min: -20, max: 20 }).chain((k) => fc.constantFrom(2 ** k, -(2 ** k))) },
  { weight: 2, arbitrary: fc.constantFrom(2 ** -40, -(2 ** -30), 1e-9, 2 ** -1074, 2 ** 1000, 0.1, -3) },
);

/** An output spec over `kinds` of scales (unscaled outputs take storages the WebAssembly does not write itself). */
export function outputSpec(kinds: readonly ScaleKind[]): fc.Arbitrary<OutputSpec> {
  return fc.record({
    storage: fc.constantFrom<OutputStorage>('i8', 'i16', 'i32', 'i16', 'f16', 'bf16', 'f32', 'f64', 'dd'),
    scaleKind: fc.constantFrom(...kinds), scales: fc.array(outputScale, { minLength: 1, maxLength: 4 }),
    stride: fc.constantFrom(1, 1, 2, -1, -3), sub: fc.boolean(),
  }).map((s) => (s.scaleKind === 'none' && ['f32', 'f64', 'dd'].includes(s.storage) ? { ...s, storage: 'i16' as const } : s));
}

/** The value a start element holds: NaN (where the storage can hold it) for β = 0, else moderate values. */
export function startValue(storage: OutputStorage, nan: boolean, r: number): number {
  const integer = storage === 'i8' || storage === 'i16' || storage === 'i32';
  if (integer) return Math.round((r * 2 - 1) * (storage === 'i8' ? 127 : 1000));
  return nan ? NaN : (r * 2 - 1) * 100;
}

/** The output: `start` values (raw codes for integers, else values) inside sentinels where `sub`. */
export function outputVector(spec: OutputSpec, start: readonly number[]): Range<1, any> {
  const n = start.length, N = spec.sub ? n + 3 : n;
  const common = { size: [N] as const, storage: formats[spec.storage === 'dd' ? 'dd' : spec.storage], arithmetic: formats.f64, stride: spec.stride };
  const parent: Accessor<1, any> = spec.scaleKind === 'none' ? rowMajor<1, any>(common) : scaledReducedRowMajor<1, any>({ ...common, scaleMask: [spec.scaleKind === 'per-element'] });
  const st = parent.storage;
  const put = (a: Accessor<1, any>, i: number, v: number): void => st.encode(a.data as never, a.linearIndex([i]), (st.kind === 'dd' ? { hi: v, lo: 0 } : v) as never);
  for (let i = 0; i < N; i++) put(parent, i, st.isInteger ? 77 : NaN);
  if (parent.scale) for (let k = 0; k < parent.scale.data.length; k++) parent.scale.data[k] = spec.scales[k % spec.scales.length]!;
  const view = spec.sub ? parent.sub(span(1, 1 + n)) : parent;
  start.forEach((v, i) => put(view, i, v));
  return range(view);
}

/**
 * Every raw word of the output's buffer (sentinels included), then its scales. A NaN code of a 16-bit float storage is
 * returned as NaN: its sign depends on the instructions that made it (IEEE 754 leaves it open; an ELL SpMV with kahan
 * numerics stored 0xFE00 from WebAssembly and 0x7E00 from JavaScript for one NaN in x), and the encoders keep it.
 */
export function storedWords(r: Range<1, any>): number[] {
  const a = r.accessor;
  const words = canonicalNanCodes(a.storage.name, Array.from(a.data as ArrayLike<number>));
  return [...words, ...(a.scale ? Array.from(a.scale.data) : [])];
}
