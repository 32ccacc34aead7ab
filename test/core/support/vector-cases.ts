/**
 * Random 1-D kernel operands: every storage the kernels must handle (f64, f32, f16, bf16, int16 with a
 * scale), packed, strided, with negative (BLAS-style) increments, or as a sub-range of a longer vector,
 * always inside a larger buffer filled with sentinels so writes or reads outside the view are caught.
 */
import fc from 'fast-check';
import { range, type Range } from '../../../src/core/range.js';
import { span } from '../../../src/core/span.js';
import { rowMajor } from '../../../accessors/row-major.js';
import { scaledReducedRowMajor, fitScales } from '../../../accessors/scaled-reduced.js';
import { asArithmetic, asStorage } from '../../../src/formats/common/registry.js';
import '../../../src/formats/index.js';
import { uniformUnit } from '../../../src/testing/data-arbitraries.js';
import { nearUnderflowOf } from '../../../src/testing/arbitraries.js';

/** Storages of the kernel matrix; `i16s` is int16 through a scaled accessor. */
export const KERNEL_STORAGES = ['f64', 'f32', 'f16', 'bf16', 'i16s'] as const;
export type KernelStorage = (typeof KERNEL_STORAGES)[number];
/** CPU arithmetics of the core. */
export const ARITHMETICS = ['f64', 'f32'] as const;
export type ArithmeticName = (typeof ARITHMETICS)[number];

/** Where the view's elements sit in its buffer. */
export type VectorLayout =
  | { readonly kind: 'packed' }
  | { readonly kind: 'strided'; readonly inc: number }
  | { readonly kind: 'negative'; readonly inc: number }
  | { readonly kind: 'sub'; readonly inc: number; readonly before: number; readonly after: number };

/** A drawn operand: formats, layout and the values written into it. */
export interface VectorSpec {
  readonly storage: KernelStorage;
  readonly layout: VectorLayout;
  /** Scaled storage only: one scale per element (true) or one for the whole vector (false). */
  readonly scalePerElement: boolean;
  /** Scaled storage only: the fitted scales are multiplied by this, so results this much larger still fit. */
  readonly headroom?: number;
  readonly values: readonly number[];
}

/** Elements of padding on either side of every view. */
const PAD = 2;

/** A built operand and a snapshot of everything around it. */
export interface BuiltVector {
  /** The view the kernel gets (its accessor computes in the test's arithmetic). */
  readonly range: Range<1, number>;
  /** Throws if any buffer element outside the view, or any scale, changed since the operand was built. */
  checkOutsideUnchanged(): void;
}

/** Which special magnitudes to draw besides uniform data: `tiny` (near underflow), `huge` (fp64 only, beyond fp32). */
export interface ValueOptions {
  readonly tiny?: boolean;
  readonly huge?: boolean;
}

/** Values a storage holds: mostly uniform, some zeros, some near its underflow threshold, for fp64 a few huge ones. */
export function valueFor(storage: KernelStorage, options: ValueOptions = {}): fc.Arbitrary<number> {
  const normal = fc.tuple(uniformUnit(), fc.integer({ min: -4, max: 4 })).map(([v, k]) => v * 2 ** k);
  const tiny = storage === 'f64' ? fc.constantFrom(5e-324, -1e-310, 2.2250738585072014e-308, -3e-320)
    : storage === 'i16s' ? fc.constant(0) : nearUnderflowOf(storage);
  const zero = fc.constantFrom(0, -0);
  // fp64 storage also holds values an fp32 arithmetic cannot read (the bounds must then say ∞).
  const huge = fc.constantFrom(1e39, -2.5e300);
  const parts = [{ weight: 28, arbitrary: normal }, { weight: 2, arbitrary: zero }];
  if (options.tiny !== false) parts.push({ weight: 2, arbitrary: tiny });
  if (storage === 'f64' && options.huge !== false) parts.push({ weight: 1, arbitrary: huge });
  return fc.oneof(...parts);
}

/** A layout for a view of any length. */
export function layoutArbitrary(): fc.Arbitrary<VectorLayout> {
  const inc = fc.integer({ min: 2, max: 3 });
  return fc.oneof(
    fc.constant<VectorLayout>({ kind: 'packed' }),
    inc.map((k): VectorLayout => ({ kind: 'strided', inc: k })),
    fc.integer({ min: 1, max: 3 }).map((k): VectorLayout => ({ kind: 'negative', inc: k })),
    fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }))
      .map(([k, before, after]): VectorLayout => ({ kind: 'sub', inc: k, before, after })),
  );
}

/** Lengths with the edge cases 0 and 1 drawn often. */
export function lengthArbitrary(max = 40): fc.Arbitrary<number> {
  return fc.oneof(fc.constant(0), fc.constant(1), fc.integer({ min: 2, max }));
}

/** An operand of length n with a storage drawn from `storages`. */
export function vectorSpec(
  n: number, storages: readonly KernelStorage[] = KERNEL_STORAGES, options: ValueOptions = {},
): fc.Arbitrary<VectorSpec> {
  return fc.constantFrom(...storages).chain((storage) =>
    fc.record({
      storage: fc.constant(storage),
      layout: layoutArbitrary(),
      scalePerElement: fc.boolean(),
      headroom: fc.double({ min: 2, max: 8, noNaN: true }),
      values: fc.array(valueFor(storage, options), { minLength: n, maxLength: n }),
    }));
}

/** A sentinel raw value for a storage: NaN bit patterns for floats, the largest integer for int16. */
function fillSentinel(data: Float64Array | Float32Array | Uint16Array | Int16Array, storage: KernelStorage): void {
  const sentinel = storage === 'f16' ? 0x7e00 : storage === 'bf16' ? 0x7fc0 : storage === 'i16s' ? 32767 : NaN;
  data.fill(sentinel);
}

/**
 * Builds the operand: a buffer with padding and gaps, all sentinels, then the values written through an fp64
 * view (so an fp64 storage keeps values an fp32 arithmetic cannot hold), returned as a view in `arithmetic`.
 */
export function buildVector(spec: VectorSpec, arithmetic: ArithmeticName): BuiltVector {
  const n = spec.values.length;
  const layout = spec.layout;
  const inc = layout.kind === 'packed' ? 1 : layout.inc;
  const parentLength = layout.kind === 'sub' ? layout.before + n + layout.after : n;
  const storageName = spec.storage === 'i16s' ? 'i16' : spec.storage;
  const st = asStorage(storageName);
  const data = st.allocate(2 * PAD + Math.max(0, parentLength - 1) * inc + 1) as Float64Array;
  fillSentinel(data, spec.storage);
  const stride = layout.kind === 'negative' ? -inc : inc;
  const offset = PAD + (stride < 0 ? inc * Math.max(0, parentLength - 1) : 0);
  const common = { size: [parentLength] as const, storage: storageName, arithmetic: 'f64', data, stride, offset };
  const parent = spec.storage === 'i16s'
    ? scaledReducedRowMajor<1>({ ...common, scaleMask: [spec.scalePerElement],
      scale: new Float64Array(spec.scalePerElement ? Math.max(1, parentLength) : 1).fill(1) })
    : rowMajor<1>(common);
  const view = layout.kind === 'sub' ? parent.sub(span(layout.before, layout.before + n)) : parent;
  if (spec.storage === 'i16s') {
    // Fit the scales, then leave headroom so kernel results a few times larger do not saturate (a random factor,
    // so the stored integers are not all powers of two, whose products would be exact).
    fitScales(view, (i) => spec.values[i]!);
    const widened = new Set<number>();
    for (let i = 0; i < n; i++) {
      const k = view.scaleIndex([i]);
      if (!widened.has(k)) { view.scale!.data[k]! *= spec.headroom ?? 4; widened.add(k); }
    }
  }
  for (let i = 0; i < n; i++) view.set(i, spec.values[i]!);
  const before = data.slice();
  const scaleBefore = view.scale?.data.slice();
  const inView = new Set<number>();
  for (let i = 0; i < n; i++) inView.add(view.linearIndex([i]));
  return {
    range: range(view.withArithmetic(asArithmetic<number>(arithmetic))),
    checkOutsideUnchanged() {
      for (let k = 0; k < data.length; k++) {
        if (!inView.has(k) && !Object.is(data[k], before[k])) {
          throw new Error(`element ${k} outside the view changed from ${before[k]} to ${data[k]}`);
        }
      }
      if (scaleBefore && view.scale!.data.some((s, k) => !Object.is(s, scaleBefore[k]))) throw new Error('a scale changed');
    },
  };
}

/** A short description of an operand for failure messages. */
export function describeSpec(spec: VectorSpec): string {
  return `${spec.storage}${spec.storage === 'i16s' ? (spec.scalePerElement ? '/per-element' : '/one-scale') : ''} ${JSON.stringify(spec.layout)}`;
}
