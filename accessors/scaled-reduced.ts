/**
 * Scaled reduced accessors (Ginkgo's scaled_reduced_row_major): value = stored × scale, where the scale is
 * kept per row, per column or per any subset of dimensions (`scaleMask`). With an integer storage
 * (int8/int16/int32) this is a lossy compression: each row (say) keeps one fp64 scale and small integers.
 * Reads return `stored × scale`, writes store `round(value / scale)` (for integer storage the exact quotient rounded
 * once to the nearest integer, ties to even); the accessor also reads and writes the
 * scales ({@link Accessor.readScale}, {@link Accessor.writeScale}).
 * @module
 */
import type { Accessor, Dimensionality, ScaleInfo } from './accessor.js';
import { checkLayoutOptions, makeAccessor, resolveSize, type LayoutOptions } from './layout-options.js';
import { rowMajorStridesOf, vectorDefaultOffset } from './row-major.js';
import { colMajorStridesOf } from './col-major.js';
import { fail } from '../src/core/errors.js';
import { nextDown } from '../src/formats/convert/double-neighbours.js';

/**
 * Options of the scaled factories.
 * @group Ranges & accessors
 */
export interface ScaledOptions<D extends Dimensionality, T> extends LayoutOptions<D, T> {
  /** Which dimensions index the scale: `[true, false]` = one scale per row of a matrix. */
  scaleMask: readonly boolean[];
  /** Scales, packed row-major over the masked dimensions (default: a new array of ones). */
  scale?: Float64Array;
}

function scaleInfo(size: readonly number[], mask: readonly boolean[], given: Float64Array | undefined): ScaleInfo {
  if (!Array.isArray(mask) || mask.length !== size.length || mask.some((m) => typeof m !== 'boolean')) {
    fail('INVALID_OPTION', 'scaleMask', `must be ${size.length} booleans`, mask);
  }
  const strides = new Array<number>(size.length).fill(0);
  let count = 1;
  for (let d = size.length - 1; d >= 0; d--) {
    if (mask[d]) { strides[d] = count; count *= size[d]!; }
  }
  let data = given;
  if (data === undefined) data = new Float64Array(count).fill(1);
  else if (!(data instanceof Float64Array)) fail('INVALID_STORAGE', 'scale', 'must be a Float64Array', data);
  else if (data.length < count) fail('INVALID_STORAGE', 'scale', `must hold ${count} scales`, data);
  for (let k = 0; k < count; k++) {
    if (!Number.isFinite(data[k]!) || data[k] === 0) fail('INVALID_VALUE', `scale[${k}]`, 'must be finite and non-zero', data[k]);
  }
  return { data, offset: 0, strides, mask: [...mask] };
}

function scaled<D extends Dimensionality, T>(
  layout: 'row-major' | 'col-major', opts: ScaledOptions<D, T>,
): Accessor<D, T> {
  checkLayoutOptions(opts);
  const size = resolveSize<D>(opts.size, [1, 2, 3]);
  const strides = layout === 'row-major' ? rowMajorStridesOf(size, opts.stride) : colMajorStridesOf(size, opts.stride);
  const info = scaleInfo(size, opts.scaleMask, opts.scale);
  return makeAccessor(layout, opts, size, strides, vectorDefaultOffset(size, strides), () => info);
}

/**
 * A row-major accessor that stores value / scale (Ginkgo's scaled_reduced_row_major).
 * @example
 * ```ts
 * import { range, formats, scaledReducedRowMajor } from 'modprec';
 *
 * // int16 storage, one scale per row, computed on in fp64
 * const A = range(scaledReducedRowMajor({ size: [2, 3], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true, false] }));
 * A.writeScale(1, 0, 0.01);   // row 1 holds multiples of 0.01
 * A.set(1, 2, 1.234);
 * A.get(1, 2); // → 1.23
 * ```
 * @throws {@link ModprecError} as {@link rowMajor}, plus `INVALID_OPTION` for a bad mask, `INVALID_VALUE` for a zero scale
 * @group Ranges & accessors
 */
export function scaledReducedRowMajor<D extends Dimensionality = 2, T = number>(opts: ScaledOptions<D, T>): Accessor<D, T> {
  return scaled('row-major', opts);
}

/**
 * The column-major counterpart of {@link scaledReducedRowMajor}.
 * @example
 * ```ts
 * import { range, formats, scaledReducedColMajor } from 'modprec';
 *
 * // int8 storage with one scale per column
 * const A = range(scaledReducedColMajor({ size: [3, 2], storage: formats.i8, arithmetic: formats.f64, scaleMask: [false, true] }));
 * A.writeScale(0, 1, 0.5);   // column 1 stores value / 0.5
 * A.set(2, 1, 10);
 * A.get(2, 1); // → 10
 * ```
 * @group Ranges & accessors
 */
export function scaledReducedColMajor<D extends Dimensionality = 2, T = number>(opts: ScaledOptions<D, T>): Accessor<D, T> {
  return scaled('col-major', opts);
}

/**
 * The scale that maps a group whose largest magnitude is `maxAbs` onto integers of magnitude at most
 * `maxValue`: maxAbs / maxValue, raised to the smallest double for which maxAbs / scale still rounds to at
 * most maxValue (for tiny, subnormal groups the plain quotient underflows or lands one integer too high,
 * which would saturate with an error of a whole quantum instead of half). 1 for an all-zero group.
 * @param maxAbs - the group's largest magnitude (finite, ≥ 0)
 * @param maxValue - the storage's largest value (finite, ≥ 1; integers up to its floor are used)
 * @returns a positive finite scale
 * @throws {@link ModprecError} `INVALID_VALUE` naming `maxAbs` or `maxValue` outside those ranges
 * @example
 * ```ts
 * import { fitScale } from 'modprec';
 *
 * fitScale(1000, 32767); // → 0.030518509475997192
 * fitScale(0, 127); // → 1
 * ```
 * @group Ranges & accessors
 */
export function fitScale(maxAbs: number, maxValue: number): number {
  // Checked first: maxValue < 1, NaN or ∞, or maxAbs = ∞, sent the ulp-stepping loops below around (all but) forever.
  if (typeof maxAbs !== 'number' || !(maxAbs >= 0) || maxAbs === Infinity) fail('INVALID_VALUE', 'maxAbs', 'must be a finite number ≥ 0', maxAbs);
  if (typeof maxValue !== 'number' || !(maxValue >= 1) || maxValue === Infinity) fail('INVALID_VALUE', 'maxValue', 'must be a finite number ≥ 1', maxValue);
  if (maxAbs === 0) return 1;
  // The largest integer a write may round to: the quotient starts next to it (a non-integer maxValue such as 1.9
  // started at 1.9, to be stepped below 1.5 one ulp at a time).
  const top = Math.floor(maxValue);
  let scale = Math.max(maxAbs / top, Number.MIN_VALUE);
  // Step up one ulp at a time (at most a few steps): the quotient decides, as the write computes it.
  while (Math.round(maxAbs / scale) > top) scale = scale >= 2 ** -1022 ? scale * (1 + 2 ** -52) : scale + Number.MIN_VALUE;
  // A read is stored × scale: near Number.MAX_VALUE the rounded quotient can make top × scale overflow (±MAX_VALUE
  // read back as ±∞); one ulp down keeps the quotient's rounding (it moves by about maxValue·2^-52 ≪ ½).
  while (!Number.isFinite(top * scale)) scale = nextDown(scale);
  return scale;
}

/**
 * Chooses each scale so the largest magnitude of its group maps to the storage's largest value, then writes
 * `values` through the accessor: the usual way to fill an integer-scaled accessor. Each stored value then is
 * within half a quantum: |stored·scale − value| ≤ scale/2 for integer storage (the exact value/scale is rounded
 * to an integer in one step, whatever the arithmetic).
 *
 * Subnormal groups (largest |v| below 2^-1022): a scale is a double, so there it is a multiple of 2^-1074 — the one
 * nearest maxAbs/maxValue, or the next one up where that saturates ({@link fitScale}). The bound above still holds,
 * but the quantum is then up to 2^-1074 off maxAbs/maxValue, so even the group's largest value is only within half a
 * quantum:
 * with int8, 1e-320 (2024·2^-1074) gets the scale 16·2^-1074 and reads back 126·16·2^-1074 ≈ 9.96e-321 (no scale
 * reads both it and a neighbour like 3e-321 exactly). A group whose largest |v| is at most maxValue·2^-1074 gets the
 * scale 2^-1074 and is stored exactly.
 *
 * Through a sub-range, a group may reach outside the view (columns 0–1 of a row with one scale per row): its scale is
 * fitted to the view's values alone, and the group's elements outside the view keep their stored integers, so the
 * values they represent change with the scale (as with {@link Accessor.writeScale}).
 * @param accessor - a scaled accessor
 * @param values - the value at each index
 * @throws {@link ModprecError} `INVALID_STORAGE` if the accessor is not scaled or is read-only (toConst); `INVALID_VALUE` for
 *   non-finite values; `INVALID_OPTION` when `values` is not a function — each before any scale or element is written
 * @example
 * ```ts
 * import { range, formats, scaledReducedRowMajor, fitScales } from 'modprec';
 *
 * const rows = [[0.5, -0.25], [1000, 3]];
 * const A = range(scaledReducedRowMajor({ size: [2, 2], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true, false] }));
 * fitScales(A.accessor, (i, j) => rows[i]![j]!);
 * A.get(1, 0); // → 1000
 * Math.abs(A.get(1, 1) - 3) <= A.readScale(1, 0) / 2; // → true
 * ```
 * @group Ranges & accessors
 */
export function fitScales<D extends Dimensionality, T>(
  accessor: Accessor<D, T>, values: (...index: number[]) => number,
): void {
  const s = typeof accessor === 'object' && accessor !== null ? accessor.scale : undefined;
  if (!s) fail('INVALID_STORAGE', 'accessor', 'must be a scaled accessor');
  // Before any scale is replaced: through toConst() the scales were fitted, then the first store refused.
  if (!accessor.writable) fail('INVALID_STORAGE', 'accessor', 'is read-only (made by toConst)');
  if (typeof values !== 'function') fail('INVALID_OPTION', 'values', 'must be a function (...index) => number', values);
  const size = accessor.size as readonly number[];
  const all: number[][] = [];
  const walk = (prefix: number[]): void => {
    if (prefix.length === size.length) { all.push(prefix); return; }
    for (let i = 0; i < size[prefix.length]!; i++) walk([...prefix, i]);
  };
  walk([]);
  const maxAbs = new Map<number, number>();
  const vals = all.map((idx) => {
    const v = values(...idx);
    if (!Number.isFinite(v)) fail('INVALID_VALUE', `values(${idx.join(', ')})`, 'must be finite', v);
    const k = accessor.scaleIndex(idx);
    maxAbs.set(k, Math.max(maxAbs.get(k) ?? 0, Math.abs(v)));
    return v;
  });
  const top = accessor.storage.maxValue;
  for (const [k, m] of maxAbs) s.data[k] = fitScale(m, top);
  all.forEach((idx, n) => (accessor.set as (...a: unknown[]) => void)(...idx, vals[n]));
}
