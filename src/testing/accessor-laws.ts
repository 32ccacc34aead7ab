/**
 * Laws of a range over an accessor, sentinel style (as Ginkgo's accessor tests and stdlib's
 * padded fixtures): a write reads back as the storage-rounded value, touches nothing else,
 * sub-ranges (and their sub-ranges) alias their parent exactly, a const range refuses writes, and
 * out-of-range indices are refused.
 *
 * The laws use only the public range interface (get, set, length, sub, toConst), described
 * structurally by {@link RangeLike}, so they apply to users' own accessors as well.
 *
 * @module
 */
import fc from 'fast-check';
import { fail } from '../core/errors.js';
import { span, type SpanLike } from '../core/span.js';
import { type Law, type LawRunOptions, checkLaws, lawOf, show } from './law-runner.js';
import { uniformUnit } from './data-arbitraries.js';

/**
 * What the laws need of a range: modprec's `Range` satisfies it.
 * @group Testing
 */
export interface RangeLike {
  /** Number of dimensions. */
  readonly dimensionality: number;
  /** Extent along a dimension. */
  length(dim: number): number;
  /** Reads the element at an index (one number per dimension). */
  get(...index: number[]): unknown;
  /** Writes: the indices, then the value. */
  set(...indexAndValue: never): void;
  /** The sub-range of one span (or point index) per dimension, sharing storage. */
  sub(...spans: SpanLike[]): RangeLike;
  /** A read-only range over the same storage. */
  toConst(): RangeLike;
}

/**
 * The range under test and what its storage does to a written value.
 * @group Testing
 */
export interface AccessorLawSubject {
  /** Name for failure messages, e.g. `'rowMajor f16→f32 3×4'`. */
  readonly name: string;
  /** Makes a fresh range (same shape every time; contents are overwritten by the laws). */
  readonly make: () => RangeLike;
  /**
   * The value a read returns after writing x at an index of the range made by `make`: the storage
   * rounding seen in the arithmetic, e.g. `Math.fround` for fp32 storage, or
   * `(x, [i]) => roundToInt8(x / s[i]) * s[i]` for a scaled int8 accessor.
   */
  readonly round: (x: number, index: readonly number[]) => number;
  /** Values to write (default: uniform in [−1, 1] times a power of two in [2^−8, 2^8]). */
  readonly values?: fc.Arbitrary<number>;
}

/**
 * Throws unless `subject` has a string name and make and round functions (an undefined subject threw a TypeError
 * reading `make`, a subject without make "subject.make is not a function").
 * @throws {@link ModprecError} `INVALID_OPTION` naming the field
 */
function checkSubject(subject: unknown): void {
  const s = subject as Partial<AccessorLawSubject> | null;
  if (typeof s !== 'object' || s === null) fail('INVALID_OPTION', 'subject', 'must be an object { name, make, round }', subject);
  if (typeof s.name !== 'string') fail('INVALID_OPTION', 'subject.name', 'must be a string', s.name);
  if (typeof s.make !== 'function') fail('INVALID_OPTION', 'subject.make', 'must be a function returning a range', s.make);
  if (typeof s.round !== 'function') fail('INVALID_OPTION', 'subject.round', 'must be a function (x, index) => number', s.round);
}

function readNumber(r: RangeLike, index: readonly number[]): number {
  const v = r.get(...index);
  if (typeof v !== 'number') fail('INVALID_VALUE', 'range.get', 'must return numbers for the accessor laws', v);
  return v;
}

function write(r: RangeLike, index: readonly number[], value: number): void {
  (r.set as (...args: number[]) => void)(...index, value);
}

function shapeOf(r: RangeLike): number[] {
  return Array.from({ length: r.dimensionality }, (_, d) => r.length(d));
}

/** Every index of a shape, last dimension fastest. */
function allIndices(shape: readonly number[]): number[][] {
  let out: number[][] = [[]];
  for (const n of shape) {
    const next: number[][] = [];
    for (const prefix of out) for (let i = 0; i < n; i++) next.push([...prefix, i]);
    out = next;
  }
  return out;
}

/** Small integers every storage format holds exactly (int8 and bfloat16 included), varied per element. */
function sentinel(k: number): number {
  return ((k * 37) % 101) - 50;
}

/** Fills every element with a sentinel and returns what reads back (the baseline to compare against). */
function fillWithSentinels(r: RangeLike, indices: readonly number[][]): number[] {
  indices.forEach((index, k) => write(r, index, sentinel(k)));
  return indices.map((index) => readNumber(r, index));
}

function indexArbitrary(shape: readonly number[]): fc.Arbitrary<number[]> {
  return fc.tuple(...shape.map((n) => fc.integer({ min: 0, max: n - 1 })));
}

/** Spans for each dimension: a half-open [begin, end) or, one time in four, a point index. */
function spansArbitrary(shape: readonly number[]): fc.Arbitrary<SpanLike[]> {
  return fc.tuple(
    ...shape.map((n) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.tuple(fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: n })).map(([a, b]) => span(Math.min(a, b), Math.max(a, b))) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: Math.max(0, n - 1) }) },
      ),
    ),
  ).filter((spans) => spans.every((s, d) => typeof s !== 'number' || s < shape[d]!));
}

const spanBegin = (s: SpanLike): number => (typeof s === 'number' ? s : s.begin);
const spanLength = (s: SpanLike): number => (typeof s === 'number' ? 1 : s.end - s.begin);

/** Whether f throws. */
function throws(f: () => unknown): boolean {
  try {
    f();
  } catch {
    return true;
  }
  return false;
}

/** Equal as stored values: bit-identical, so −0 ≠ +0 and NaN = NaN. */
function sameNumber(a: number, b: number): boolean {
  return Object.is(a, b);
}

/**
 * The laws of a range: write-then-read (storage rounding), writes touch only their element,
 * sub-ranges alias the parent (reads, writes both ways, extents and rank) and compose (a sub-range of a sub-range),
 * const ranges and their sub-ranges refuse writes, and an index outside a range or sub-range is refused by get and
 * set without writing anything.
 *
 * @param subject - how to make the range, and the storage rounding to expect
 * @returns the laws, each runnable on its own
 * @throws {@link ModprecError} `INVALID_SIZE` when `make` returns an empty range (nothing to write)
 * @example
 * ```ts
 * import { range, rowMajor } from 'modprec';
 * import { accessorLaws } from 'modprec/testing';
 *
 * const subject = { name: 'f32 in f64', round: (x: number) => Math.fround(x),
 *   make: () => range(rowMajor<2>({ size: [3, 4], storage: 'f32', arithmetic: 'f64' })) };
 * // in a test file: for (const law of accessorLaws(subject)) it(law.name, () => law.check());
 * for (const law of accessorLaws(subject)) law.check({ numRuns: 50 });
 * ```
 * @group Testing
 */
export function accessorLaws(subject: AccessorLawSubject): Law[] {
  checkSubject(subject);
  const shape = shapeOf(subject.make());
  if (shape.some((n) => n === 0)) fail('INVALID_SIZE', 'subject.make()', 'must return a non-empty range', shape);
  const indices = allIndices(shape);
  const values = subject.values ?? fc.tuple(uniformUnit(), fc.integer({ min: -8, max: 8 })).map(([u, e]) => u * 2 ** e);
  const name = subject.name;

  const writeThenRead = fc.property(indexArbitrary(shape), values, (index, x) => {
    const r = subject.make();
    write(r, index, x);
    const got = readNumber(r, index);
    const expected = subject.round(x, index);
    if (!sameNumber(got, expected)) throw new Error(`${name}: set(${index}, ${show(x)}) then get → ${show(got)}, expected ${show(expected)}`);
  });

  const writeTouchesOnlyItsElement = fc.property(indexArbitrary(shape), values, (index, x) => {
    const r = subject.make();
    const before = fillWithSentinels(r, indices);
    write(r, index, x);
    indices.forEach((other, k) => {
      if (other.every((i, d) => i === index[d])) return;
      const now = readNumber(r, other);
      if (!sameNumber(now, before[k]!)) throw new Error(`${name}: set(${index}, ${show(x)}) changed element (${other}) from ${show(before[k]!)} to ${show(now)}`);
    });
  });

  const subAliasesParent = fc.property(spansArbitrary(shape), values, fc.nat(), (spans, x, pick) => {
    const parent = subject.make();
    const before = fillWithSentinels(parent, indices);
    const sub = parent.sub(...spans);
    const subShape = shapeOf(sub);
    if (sub.dimensionality !== parent.dimensionality) throw new Error(`${name}: sub dropped rank (${sub.dimensionality} ≠ ${parent.dimensionality})`);
    spans.forEach((s, d) => {
      if (subShape[d] !== spanLength(s)) throw new Error(`${name}: sub length(${d}) = ${subShape[d]}, expected ${spanLength(s)}`);
    });
    const toParent = (i: readonly number[]) => i.map((v, d) => v + spanBegin(spans[d]!));
    const subIndices = allIndices(subShape);
    for (const i of subIndices) {
      const a = readNumber(sub, i);
      const b = readNumber(parent, toParent(i));
      if (!sameNumber(a, b)) throw new Error(`${name}: sub(${JSON.stringify(spans)}).get(${i}) = ${show(a)} but parent.get(${toParent(i)}) = ${show(b)}`);
    }
    if (subIndices.length === 0) return;
    // A write through the sub-range shows in the parent at the shifted index, and nowhere else.
    const target = subIndices[pick % subIndices.length]!;
    const parentTarget = toParent(target);
    write(sub, target, x);
    indices.forEach((other, k) => {
      const now = readNumber(parent, other);
      const isTarget = other.every((v, d) => v === parentTarget[d]);
      const expected = isTarget ? subject.round(x, parentTarget) : before[k]!;
      if (!sameNumber(now, expected)) throw new Error(`${name}: after sub(${JSON.stringify(spans)}).set(${target}, ${show(x)}), parent (${other}) = ${show(now)}, expected ${show(expected)}`);
    });
    // And a write through the parent shows in the sub-range.
    write(parent, parentTarget, 0);
    if (!sameNumber(readNumber(sub, target), subject.round(0, parentTarget))) throw new Error(`${name}: parent write at (${parentTarget}) not visible through the sub-range`);
  });

  const constRefusesWrites = fc.property(indexArbitrary(shape), values, (index, x) => {
    const r = subject.make();
    const before = fillWithSentinels(r, indices);
    const c = r.toConst();
    indices.forEach((i, k) => {
      if (!sameNumber(readNumber(c, i), before[k]!)) throw new Error(`${name}: toConst() reads (${i}) differently`);
    });
    if (!throws(() => write(c, index, x))) throw new Error(`${name}: set on a toConst() range did not throw`);
    // A view of a read-only range is read-only too (a sub-range that forgot it wrote through).
    const whole = shape.map((n) => span(0, n));
    if (!throws(() => write(c.sub(...whole), index, x))) throw new Error(`${name}: set on a sub-range of a toConst() range did not throw`);
    indices.forEach((i, k) => {
      if (!sameNumber(readNumber(r, i), before[k]!)) throw new Error(`${name}: a refused write through toConst() changed (${i})`);
    });
  });

  // A sub-range of a sub-range sits at the sum of both begins (a view that took its begin from the root, not from its
  // parent, passes the one-level law above).
  const subOfSubComposes = fc.property(spansArbitrary(shape).chain((outer) => {
    const outerShape = outer.map(spanLength);
    return fc.tuple(fc.constant(outer), outerShape.some((n) => n === 0) ? fc.constant(null) : spansArbitrary(outerShape));
  }), values, fc.nat(), ([outer, inner], x, pick) => {
    if (inner === null) return;
    const parent = subject.make();
    const before = fillWithSentinels(parent, indices);
    const view = parent.sub(...outer).sub(...inner);
    const toParent = (i: readonly number[]) => i.map((v, d) => v + spanBegin(outer[d]!) + spanBegin(inner[d]!));
    const viewShape = shapeOf(view);
    inner.forEach((s, d) => {
      if (viewShape[d] !== spanLength(s)) throw new Error(`${name}: sub().sub() length(${d}) = ${viewShape[d]}, expected ${spanLength(s)}`);
    });
    const viewIndices = allIndices(viewShape);
    for (const i of viewIndices) {
      const a = readNumber(view, i), b = readNumber(parent, toParent(i));
      if (!sameNumber(a, b)) throw new Error(`${name}: sub(${JSON.stringify(outer)}).sub(${JSON.stringify(inner)}).get(${i}) = ${show(a)} but parent.get(${toParent(i)}) = ${show(b)}`);
    }
    if (viewIndices.length === 0) return;
    const target = viewIndices[pick % viewIndices.length]!;
    const parentTarget = toParent(target);
    write(view, target, x);
    indices.forEach((other, k) => {
      const isTarget = other.every((v, d) => v === parentTarget[d]);
      const expected = isTarget ? subject.round(x, parentTarget) : before[k]!;
      const now = readNumber(parent, other);
      if (!sameNumber(now, expected)) throw new Error(`${name}: after sub(${JSON.stringify(outer)}).sub(${JSON.stringify(inner)}).set(${target}, ${show(x)}), parent (${other}) = ${show(now)}, expected ${show(expected)}`);
    });
  });

  // An index outside a range — of the whole range, or of a sub-range, whose neighbours are elements of its parent — is
  // refused by get and set, and the refused set writes nothing (an unchecked view wrote into its parent's next element).
  const outOfRangeRefused = fc.property(spansArbitrary(shape), indexArbitrary(shape), fc.nat(), fc.boolean(), values, (spans, at, dim, below, x) => {
    const parent = subject.make();
    const before = fillWithSentinels(parent, indices);
    for (const r of [parent, parent.sub(...spans)]) {
      const rShape = shapeOf(r);
      const d = dim % rShape.length;
      const index = rShape.map((n, k) => Math.min(at[k]!, Math.max(0, n - 1)));
      index[d] = below ? -1 : rShape[d]!;
      if (!throws(() => r.get(...index))) throw new Error(`${name}: get(${index}) of a range of shape (${rShape}) did not throw`);
      if (!throws(() => write(r, index, x))) throw new Error(`${name}: set(${index}, ${show(x)}) of a range of shape (${rShape}) did not throw`);
    }
    indices.forEach((i, k) => {
      const now = readNumber(parent, i);
      if (!sameNumber(now, before[k]!)) throw new Error(`${name}: a refused out-of-range set changed (${i}) from ${show(before[k]!)} to ${show(now)}`);
    });
  });

  return [
    lawOf(name, 'write then read gives the storage-rounded value', writeThenRead),
    lawOf(name, 'a write touches only its element', writeTouchesOnlyItsElement),
    lawOf(name, 'sub-ranges alias the parent', subAliasesParent),
    lawOf(name, 'const ranges refuse writes', constRefusesWrites),
    lawOf(name, 'sub-ranges of sub-ranges compose', subOfSubComposes),
    lawOf(name, 'out-of-range indices are refused and write nothing', outOfRangeRefused),
  ];
}

/**
 * Checks every law of {@link accessorLaws}; throws on the first failure.
 *
 * @param subject - how to make the range, and the storage rounding to expect
 * @param options - runs per law and seed
 * @throws Error naming the law and a counterexample
 * @example
 * ```ts
 * import { range, roundToF16, rowMajor } from 'modprec';
 * import { checkAccessorLaws } from 'modprec/testing';
 *
 * checkAccessorLaws({ name: 'rowMajor f16→f64 2×3', round: (x: number) => roundToF16(x),
 *   make: () => range(rowMajor<2>({ size: [2, 3], storage: 'f16', arithmetic: 'f64' })) }, { numRuns: 50 });
 * ```
 * @group Testing
 */
export function checkAccessorLaws(subject: AccessorLawSubject, options?: LawRunOptions): void {
  checkLaws(accessorLaws(subject), options);
}
