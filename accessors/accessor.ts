/**
 * The accessor: owns size, strides, offset and storage of a 1- to 3-dimensional array, and converts
 * between its storage format and its arithmetic format on every read and write (Ginkgo's reduced
 * accessor; when storage and arithmetic are the same format it is a plain strided accessor).
 *
 * Every layout modprec offers is a strided one: element (i0, …, iD−1) sits at
 * `offset + Σ i_d · strides[d]` of the storage. Row-major, column-major and block-column-major only
 * differ in which stride is 1 (see the factories in this folder).
 * @module
 */
import type { ArithmeticFormat, MpValueLike, StorageFormat } from '../src/formats/common/format.js';
import { fail } from '../src/core/errors.js';
import { isArithmeticFormat, isStorageFormat } from '../src/formats/common/format-shape.js';
import { admitArithmetic, admitStorage } from '../src/formats/common/format-admission.js';
import { nearestIntegerOfMpQuotient, nearestIntegerOfQuotient, type ExactMpValue } from '../src/formats/convert/scaled-integer.js';
import { toSpan, type SpanLike } from '../src/core/span.js';

/** Largest extent, element count and allocation, in elements: kernels (CPU and GPU) index with 32-bit integers. */
export const MAX_EXTENT = 2 ** 31 - 1;

/**
 * Number of dimensions an accessor spans.
 * @group Ranges & accessors
 */
export type Dimensionality = 1 | 2 | 3;

/**
 * A D-tuple of numbers (sizes, strides or indices).
 * @group Ranges & accessors
 */
export type Tuple<D extends Dimensionality> = D extends 1 ? readonly [number]
  : D extends 2 ? readonly [number, number] : readonly [number, number, number];

/**
 * A tuple of D indices followed by a value (the arguments of `set`).
 * @group Ranges & accessors
 */
export type IndexAndValue<D extends Dimensionality, V> = D extends 1 ? [number, V]
  : D extends 2 ? [number, number, V] : [number, number, number, V];

/**
 * Which stride is unit: informational (kernels read the strides themselves).
 * @group Ranges & accessors
 */
export type LayoutName = 'row-major' | 'col-major' | 'block-col-major' | 'strided';

/**
 * Per-row / per-column scale factors of a scaled accessor: value = stored × scale.
 * `mask[d]` says whether dimension d indexes the scale; `strides[d]` is 0 where it does not.
 * @group Ranges & accessors
 */
export interface ScaleInfo {
  /** The scale factors. */
  readonly data: Float64Array;
  /** Scale element of index (0, …, 0). */
  readonly offset: number;
  /** Distance between neighbouring scales along each dimension (0 where the mask is false). */
  readonly strides: readonly number[];
  /** Which dimensions index the scale. */
  readonly mask: readonly boolean[];
}

/**
 * Everything an {@link Accessor} is made of.
 * @group Ranges & accessors
 */
export interface AccessorInit<D extends Dimensionality, T> {
  /** Extent along each dimension. */
  size: Tuple<D>;
  /** Storage elements between neighbours along each dimension. */
  strides: Tuple<D>;
  /** Storage element of index (0, …, 0). */
  offset: number;
  /** How values sit in memory. */
  storage: StorageFormat;
  /** How values are computed on. */
  arithmetic: ArithmeticFormat<T>;
  /** The storage buffer (checked against `storage`). */
  data: unknown;
  /** Which layout the strides describe. */
  layout: LayoutName;
  /** Scale factors, for scaled accessors. */
  scale?: ScaleInfo | undefined;
  /** False for a read-only accessor (default true). */
  writable?: boolean;
}

/**
 * The structured part of a kernel cache key that an accessor contributes.
 * @group Ranges & accessors
 */
export interface AccessorSignature {
  /** Storage format name. */
  readonly storage: string;
  /** Arithmetic format name. */
  readonly arithmetic: string;
  /** Number of dimensions. */
  readonly dimensionality: Dimensionality;
  /** Scale mask, when scaled. */
  readonly scaled: readonly boolean[] | null;
}

/**
 * A strided view of storage with a storage format and an arithmetic format.
 * Create one with {@link rowMajor}, {@link colMajor}, {@link blockColMajor}, {@link strided}, the reduced and
 * scaled variants, and wrap it with `range()` for the user-facing interface.
 *
 * @typeParam D - dimensionality (1 to 3)
 * @typeParam T - the arithmetic value type (`number` for fp64/fp32)
 * @group Ranges & accessors
 */
export class Accessor<D extends Dimensionality = Dimensionality, T = number> {
  /** Number of dimensions. */
  readonly dimensionality: D;
  /** Extent along each dimension. */
  readonly size: Tuple<D>;
  /** Distance in storage elements between neighbours along each dimension. */
  readonly strides: Tuple<D>;
  /** Storage element of index (0, …, 0). */
  readonly offset: number;
  /** How values sit in memory. */
  readonly storage: StorageFormat;
  /** How values are computed on (what reads return and writes take). */
  readonly arithmetic: ArithmeticFormat<T>;
  /** The storage buffer, shared with every sub-range. */
  readonly data: unknown;
  /** Which layout the strides describe. */
  readonly layout: LayoutName;
  /** Scale factors, for scaled accessors. */
  readonly scale: ScaleInfo | undefined;
  /** False for a read-only accessor made by {@link Accessor.toConst}. */
  readonly writable: boolean;

  /**
   * Checks the shape against the storage and builds the accessor. Prefer the layout factories.
   * @throws {@link ModprecError} `INVALID_STORAGE` if `data` is not a buffer of `storage` or is too short;
   *   `INVALID_SIZE` for bad sizes (1 to 3 non-negative integers, at most 2^31 − 1 elements in all) or an offset that is not an integer; `INVALID_STRIDE`
   *   for strides that are not one integer per dimension; `INVALID_FORMAT` naming `storage` / `arithmetic` for an object
   *   that is not a storage / arithmetic format; `INVALID_OPTION`, `INVALID_STORAGE`, `INVALID_SIZE` or `INVALID_STRIDE`
   *   naming `scale` or its part for a scale of the wrong shape; `INVALID_VALUE` naming `scale.data[k]` for a scale the
   *   view reaches that is zero, NaN or ±∞ (as the scaled factories and {@link Accessor.writeScale} refuse one)
   */
  constructor(init: AccessorInit<D, T>) {
    checkShape(init);
    this.dimensionality = init.size.length as D;
    this.size = Object.freeze([...init.size]) as unknown as Tuple<D>;
    this.strides = Object.freeze([...init.strides]) as unknown as Tuple<D>;
    this.offset = init.offset;
    this.storage = init.storage;
    this.arithmetic = init.arithmetic;
    this.data = init.data;
    this.layout = init.layout;
    this.scale = init.scale;
    this.writable = init.writable ?? true;
    if (!init.storage.accepts(init.data)) {
      fail('INVALID_STORAGE', 'data', `must be a buffer of storage format ${init.storage.name}`, init.data);
    }
    const [lo, hi] = this.extent();
    if (lo < 0 || hi >= init.storage.capacity(init.data as never)) {
      if (hi >= lo) {
        fail('INVALID_STORAGE', 'data', `must hold elements ${lo}..${hi} of the view (capacity ${init.storage.capacity(init.data as never)})`, init.data);
      }
    }
    if (init.scale) {
      const s = init.scale;
      let slo = s.offset, shi = s.offset;
      for (let d = 0; d < this.dimensionality; d++) {
        if (this.size[d] === 0) return;
        const reach = (this.size[d]! - 1) * s.strides[d]!;
        if (reach < 0) slo += reach; else shi += reach;
      }
      if (slo < 0 || shi >= s.data.length) fail('INVALID_STORAGE', 'scale', `must hold scales ${slo}..${shi}`, s.data);
      // A view made from this one (sub, toConst, withArithmetic) reaches a subset of these scales: checked here, once.
      if ((init as TrustedInit<D, T>)[scalesChecked] !== true) checkScaleValues(s, this.size);
    }
  }

  /** Lowest and highest storage element the view touches ([0, −1] when empty). */
  extent(): [number, number] {
    let lo = this.offset, hi = this.offset;
    for (let d = 0; d < this.dimensionality; d++) {
      if (this.size[d] === 0) return [0, -1];
      const reach = (this.size[d]! - 1) * this.strides[d]!;
      if (reach < 0) lo += reach; else hi += reach;
    }
    return [lo, hi];
  }

  /** Total number of elements. */
  get length(): number {
    let n = 1;
    for (let d = 0; d < this.dimensionality; d++) n *= this.size[d]!;
    return n;
  }

  /** Storage element of an index tuple (no checks). */
  linearIndex(index: readonly number[]): number {
    let k = this.offset;
    for (let d = 0; d < this.dimensionality; d++) k += index[d]! * this.strides[d]!;
    return k;
  }

  /** Scale element of an index tuple (no checks; scaled accessors only). */
  scaleIndex(index: readonly number[]): number {
    const s = this.scale!;
    let k = s.offset;
    for (let d = 0; d < this.dimensionality; d++) k += index[d]! * s.strides[d]!;
    return k;
  }

  private checkIndex(index: readonly number[], what: string): void {
    if (index.length !== this.dimensionality) {
      fail('INDEX_OUT_OF_RANGE', what, `must have ${this.dimensionality} indices`, index.length);
    }
    for (let d = 0; d < this.dimensionality; d++) {
      const i = index[d]!;
      if (!Number.isSafeInteger(i) || i < 0 || i >= this.size[d]!) {
        fail('INDEX_OUT_OF_RANGE', `${what}[${d}]`, `must be an integer in [0, ${this.size[d]})`, i);
      }
    }
  }

  /**
   * Reads one element: decodes the storage exactly, multiplies by the scale (if scaled) and converts to the
   * arithmetic format.
   * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE`; `INVALID_VALUE` naming the element (`range[i, j]`) for a stored
   *   NaN or ±∞ read into a multiple-precision (RNS) arithmetic, which cannot represent it
   */
  get(...index: number[]): T {
    this.checkIndex(index, 'index');
    const ar = this.arithmetic;
    const raw = this.storage.decode(this.data as never, this.linearIndex(index));
    // A multiple-precision arithmetic has no NaN or ∞: name the element, as the kernels do (not the converter's 'value').
    // A double-double is finite when both parts are (a finite hi over a NaN lo failed in the conversion, naming `lo`).
    const finite = typeof raw === 'number' ? Number.isFinite(raw)
      : this.storage.kind !== 'dd' || (Number.isFinite((raw as { hi: number }).hi) && Number.isFinite((raw as { lo: number }).lo));
    if (ar.kind === 'mp' && !finite) {
      fail('INVALID_VALUE', `range[${index.join(', ')}]`, `must be finite for ${ar.name} arithmetic (it has no NaN or infinity)`, raw);
    }
    const v = ar.fromKind(this.storage.kind, raw, this.storage.significandBits);
    return this.scale ? ar.mul(v, ar.fromNumber(this.scale.data[this.scaleIndex(index)]!)) : v;
  }

  /**
   * Writes one element: divides by the scale (if scaled) and rounds to the storage format.
   * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE`; `INVALID_STORAGE` on a read-only accessor; `INVALID_VALUE`
   *   naming `value` for a value that is neither a number nor a value of the arithmetic (a string is not coerced)
   */
  set(...args: IndexAndValue<D, T | number>): void {
    const index = args.slice(0, -1) as number[];
    let value = args[args.length - 1] as T | number;
    this.checkIndex(index, 'index');
    if (!this.writable) fail('INVALID_STORAGE', 'accessor', 'is read-only (made by toConst)');
    const ar = this.arithmetic;
    const st = this.storage;
    // A number, or a value of the arithmetic (a double-double pair, an RNS number): anything else ('1', null, 1n)
    // would be coerced by the format's encoder, as vector(['1']) refuses to.
    // An object must be a value of this arithmetic: a dd encoder reads any object's missing hi/lo as NaN, and an
    // mp arithmetic's conversion of a pair or a plain object failed with a TypeError.
    if (typeof value !== 'number' && !isValueOf(ar, value)) {
      fail('INVALID_VALUE', 'value', `must be a number${ar.kind === 'number' ? '' : ` or a ${ar.name} value`} (writing range[${index.join(', ')}])`, value);
    }
    // A plain number goes straight into a number storage: one rounding, not one into the arithmetic and one more
    // into the storage (fp32 arithmetic over fp16 storage would otherwise round twice).
    if (typeof value === 'number' && !this.scale) {
      // Kind `number` and `mp` storages encode a double directly (exact for mp); `dd` takes it as (x, 0).
      st.encode(this.data as never, this.linearIndex(index), st.kind === 'dd' ? { hi: value, lo: 0 } : value);
      return;
    }
    if (this.scale && st.isInteger) {
      // One rounding: the exact value / scale to the nearest integer (not the arithmetic's quotient, rounded again;
      // a plain number is not first rounded to the arithmetic either).
      const s = this.scale.data[this.scaleIndex(index)]!;
      st.encode(this.data as never, this.linearIndex(index), typeof value === 'number' ? nearestIntegerOfQuotient(value, 0, s) : scaledInteger(ar, value, s));
      return;
    }
    let v: T = typeof value === 'number' ? ar.fromNumber(value) : value;
    if (this.scale) v = ar.div(v, ar.fromNumber(this.scale.data[this.scaleIndex(index)]!));
    const k = this.linearIndex(index);
    if (st.kind === 'mp' && ar.kind !== 'mp') {
      // A number or double-double arithmetic has no value of kind mp (its toKind refuses one): set a multiple-precision
      // value from the exact double or pair, as the kernels' export does (setNumber / setDd), and store that.
      const p = ar.kind === 'dd' ? ar.toKind('dd', v, st.significandBits) as { hi: number; lo: number } : { hi: ar.toKind('number', v, st.significandBits) as number, lo: 0 };
      if (!Number.isFinite(p.hi) || !Number.isFinite(p.lo)) fail('INVALID_VALUE', 'value', `must be finite for ${st.name} storage (it has no NaN or infinity)`, p.hi + p.lo);
      const z = st.decode(this.data as never, k) as MpValueLike;
      z.setDd(p.hi, p.lo);
      st.encode(this.data as never, k, z as never);
      return;
    }
    st.encode(this.data as never, k, ar.toKind(st.kind, v, st.significandBits));
  }

  /** The scale that applies at an index (1 for unscaled accessors). @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` */
  readScale(...index: number[]): number {
    this.checkIndex(index, 'index');
    return this.scale ? this.scale.data[this.scaleIndex(index)]! : 1;
  }

  /**
   * Sets the scale that applies at an index (for every element sharing it); stored values are unchanged,
   * so the values they represent change with it.
   * @throws {@link ModprecError} `INVALID_VALUE` for a non-finite or zero scale; `INVALID_STORAGE` when unscaled
   */
  writeScale(...args: IndexAndValue<D, number>): void {
    const index = args.slice(0, -1) as number[];
    const s = args[args.length - 1] as number;
    this.checkIndex(index, 'index');
    if (!this.scale) fail('INVALID_STORAGE', 'accessor', 'has no scale (not a scaled accessor)');
    if (!this.writable) fail('INVALID_STORAGE', 'accessor', 'is read-only (made by toConst)');
    if (!Number.isFinite(s) || s === 0) fail('INVALID_VALUE', 'scale', 'must be finite and non-zero', s);
    this.scale.data[this.scaleIndex(index)] = s;
  }

  /**
   * A view of the same storage restricted to the given spans (one per dimension; an integer is a point span).
   * Rank is kept; offset moves, strides stay.
   * @throws {@link ModprecError} `INDEX_OUT_OF_RANGE` for a span outside the size
   */
  sub(...spans: SpanLike[]): Accessor<D, T> {
    if (spans.length !== this.dimensionality) {
      fail('INDEX_OUT_OF_RANGE', 'spans', `must have ${this.dimensionality} entries`, spans.length);
    }
    const size: number[] = [];
    let offset = this.offset;
    let scaleOffset = this.scale?.offset ?? 0;
    for (let d = 0; d < this.dimensionality; d++) {
      const given = spans[d]!;
      const s = toSpan(given, `spans[${d}]`);
      // A point index is reported as given (sub(3) of a length-3 range said "spans[0].end must be ≤ 3, got 4").
      if (typeof given === 'number' && given >= this.size[d]!) fail('INDEX_OUT_OF_RANGE', `spans[${d}]`, `must be an index in [0, ${this.size[d]})`, given);
      if (s.end > this.size[d]!) fail('INDEX_OUT_OF_RANGE', `spans[${d}].end`, `must be ≤ ${this.size[d]}`, s.end);
      size.push(s.end - s.begin);
      offset += s.begin * this.strides[d]!;
      if (this.scale) scaleOffset += s.begin * this.scale.strides[d]!;
    }
    return new Accessor<D, T>({
      ...this.init(),
      size: size as unknown as Tuple<D>,
      offset,
      scale: this.scale ? { ...this.scale, offset: scaleOffset } : undefined,
    } as TrustedInit<D, T>);
  }

  /** A read-only accessor over the same storage (kernels refuse to write through it). */
  toConst(): Accessor<D, T> {
    return new Accessor<D, T>({ ...this.init(), writable: false });
  }

  /** The same view computed on in another arithmetic (storage shared). */
  withArithmetic<U>(arithmetic: ArithmeticFormat<U>): Accessor<D, U> {
    return new Accessor<D, U>({ ...this.init(), arithmetic } as AccessorInit<D, U>);
  }

  /** The structured part of kernel cache keys this accessor contributes. */
  signature(): AccessorSignature {
    return {
      storage: this.storage.name,
      arithmetic: this.arithmetic.name,
      dimensionality: this.dimensionality,
      scaled: this.scale ? [...this.scale.mask] : null,
    };
  }

  /** This accessor's init, marked as having its scales checked (a view of it reaches a subset of them). */
  private init(): AccessorInit<D, T> {
    const init: TrustedInit<D, T> = {
      size: this.size, strides: this.strides, offset: this.offset, storage: this.storage,
      arithmetic: this.arithmetic, data: this.data, layout: this.layout, scale: this.scale, writable: this.writable,
    };
    init[scalesChecked] = true;
    return init;
  }
}

/**
 * Marks an init made by an accessor's own views (sub, toConst, withArithmetic): their scales are a subset of one
 * already checked, so `sub()` stays O(1). Not exported, so a user's init cannot carry it.
 */
const scalesChecked = Symbol('modprec.scalesChecked');

/** An init that may carry the {@link scalesChecked} mark. */
type TrustedInit<D extends Dimensionality, T> = AccessorInit<D, T> & { [scalesChecked]?: true };

/**
 * Every scale a non-empty view reaches is finite and non-zero, as the scaled factories and writeScale require:
 * the raw constructor took a zero, NaN or ±∞ scale, whose reads gave 0, NaN or ∞ and whose writes divided by it.
 * Only the scales the view reaches are checked (a shared scale array may hold other views' scales beyond them).
 */
function checkScaleValues(s: ScaleInfo, size: readonly number[]): void {
  // The dimensions along which the scale moves (stride 0 or extent 1 reach one scale); up to three nested walks.
  const dims = size.map((n, d) => d).filter((d) => size[d]! > 1 && s.strides[d] !== 0);
  const walk = (k: number, level: number): void => {
    if (level === dims.length) {
      const v = s.data[k]!;
      if (!Number.isFinite(v) || v === 0) fail('INVALID_VALUE', `scale.data[${k}]`, 'must be finite and non-zero', v);
      return;
    }
    const d = dims[level]!;
    for (let i = 0; i < size[d]!; i++) walk(k + i * s.strides[d]!, level + 1);
  };
  walk(s.offset, 0);
}

/**
 * The shape of an accessor's init, checked as the layout factories check theirs: a NaN, fractional or string size,
 * stride or offset (or strides of the wrong count) made an accessor that read NaN or other elements.
 */
function checkShape(init: AccessorInit<any, any>): void {
  if (typeof init !== 'object' || init === null) fail('INVALID_OPTION', 'init', 'must be an object { size, strides, offset, storage, arithmetic, data, layout }', init);
  const { size, strides, offset } = init;
  if (!Array.isArray(size) || size.length < 1 || size.length > 3) fail('INVALID_SIZE', 'size', 'must have 1, 2 or 3 entries', size);
  size.forEach((v: unknown, d: number) => { if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail('INVALID_SIZE', `size[${d}]`, 'must be a non-negative integer', v); });
  // As the factories: a view of 2^40 elements (zero strides over one element) was accepted, then toArray threw a
  // native RangeError and a kernel looped over it for ever.
  const count = (size as number[]).reduce((p, v) => p * v, 1);
  if (count > MAX_EXTENT) fail('INVALID_SIZE', 'size', `must have at most 2^31 − 1 elements in all (kernels index with 32-bit integers); has ${count}`, size);
  if (!Array.isArray(strides) || strides.length !== size.length) fail('INVALID_STRIDE', 'strides', `must have ${size.length} entries`, strides);
  strides.forEach((v: unknown, d: number) => { if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail('INVALID_STRIDE', `strides[${d}]`, 'must be an integer', v); });
  // A sub-range that is empty may sit before element 0 (an empty span of a backwards view); a non-empty view's
  // elements are checked against the data by the constructor.
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset)) fail('INVALID_SIZE', 'offset', 'must be an integer', offset);
  // The formats and scales were trusted: a missing storage threw a TypeError calling `accepts`, a scale without
  // strides one reading `strides[0]`.
  if (!isStorageFormat(init.storage)) fail('INVALID_FORMAT', 'storage', 'must be a storage format (asStorage)', init.storage);
  if (!isArithmeticFormat(init.arithmetic)) fail('INVALID_FORMAT', 'arithmetic', 'must be an arithmetic format (asArithmetic)', init.arithmetic);
  // Their fields, and that no other codec holds their names: kernels are cached by format name.
  admitStorage(init.storage, 'storage');
  admitArithmetic(init.arithmetic, 'arithmetic');
  if (init.scale !== undefined) checkScaleInfo(init.scale, size.length);
}

/** A scale's shape: a Float64Array, an integer offset, and one integer stride and one boolean mask entry per dimension. */
function checkScaleInfo(scale: unknown, dims: number): void {
  if (typeof scale !== 'object' || scale === null) fail('INVALID_OPTION', 'scale', 'must be { data, offset, strides, mask }', scale);
  const { data, offset, strides, mask } = scale as Partial<ScaleInfo>;
  if (!(data instanceof Float64Array)) fail('INVALID_STORAGE', 'scale.data', 'must be a Float64Array', data);
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset)) fail('INVALID_SIZE', 'scale.offset', 'must be an integer', offset);
  if (!Array.isArray(strides) || strides.length !== dims || !strides.every((s) => typeof s === 'number' && Number.isSafeInteger(s))) {
    fail('INVALID_STRIDE', 'scale.strides', `must be ${dims} integers`, strides);
  }
  if (!Array.isArray(mask) || mask.length !== dims || !mask.every((m) => typeof m === 'boolean')) fail('INVALID_OPTION', 'scale.mask', `must be ${dims} booleans`, mask);
}

/**
 * Whether `v` is a value of the arithmetic `ar`: a pair of numbers `{ hi, lo }` for kind `dd`, a multiple-precision
 * value ({@link MpValueLike}: an RnsNumber) for kind `mp`; kind `number` has no object values.
 */
function isValueOf(ar: ArithmeticFormat, v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (ar.kind === 'dd') return typeof (v as { hi?: unknown }).hi === 'number' && typeof (v as { lo?: unknown }).lo === 'number';
  if (ar.kind === 'mp') return typeof (v as Partial<MpValueLike>).toDoubleDouble === 'function';
  return false;
}

/** The integer a scaled integer storage keeps for the arithmetic value v under scale s (one rounding). */
function scaledInteger(ar: ArithmeticFormat, v: unknown, s: number): number {
  switch (ar.kind) {
    case 'number': return nearestIntegerOfQuotient(v as number, 0, s);
    case 'dd': { const p = v as { hi: number; lo: number }; return nearestIntegerOfQuotient(p.hi, p.lo, s); }
    case 'mp': return nearestIntegerOfMpQuotient(v as ExactMpValue, s);
  }
}
