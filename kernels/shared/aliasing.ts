/**
 * Exact overlap of a kernel's output with its inputs, decided before anything is written.
 *
 * An operand's elements sit in memory as byte intervals: element at storage position p of a view over a typed
 * array occupies [byteOffset + p·w, byteOffset + p·w + w) of the array's ArrayBuffer, w the bytes one element takes
 * (so views of different types over one ArrayBuffer are compared too). Split double-double storage lives in two
 * such arrays, its hi and its lo (each may view any buffer, another operand's included), and is compared in both.
 * Other storage that is not a typed array (RNS arrays) is one region per buffer object, compared by identity in
 * element units.
 *
 * A 1-D view is one arithmetic progression of intervals, a 2-D view one progression per index of its shorter
 * dimension. Two progressions a + i·da (i < n, width wa) and b + j·db (j < m, width wb) overlap iff
 * i·da − j·db = t for some integer t in (b − a − wa, b − a + wb): a bounded linear Diophantine equation, solved
 * exactly with the extended Euclidean algorithm (BigInt, as i·da can pass 2^53). Bounding boxes first: views of
 * different buffers, or of disjoint parts of one, cost O(1).
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { fail } from '../../src/core/errors.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';

/** One memory an operand's elements live in: a region, the byte address of position 0, the bytes per element. */
interface Placement {
  readonly region: object;
  readonly base: number;
  readonly width: number;
}

/** One arithmetic progression of byte intervals: first address, step, count, width. */
interface Progression {
  readonly first: number;
  readonly step: number;
  readonly count: number;
  readonly width: number;
}

/** A kernel operand for the overlap test: an accessor, or a plain typed array read whole (ELL's column indices). */
export type AliasOperand = Accessor<any, any> | ArrayBufferView;

/** The memory of a typed array: its ArrayBuffer, from its byte offset, `perElement` words an element. */
function placementOfView(data: ArrayBufferView, perElement: number): Placement {
  const perWord = (data as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1;
  return { region: data.buffer, base: data.byteOffset, width: perWord * perElement };
}

/**
 * Where an operand's elements live: one placement, or — split double-double storage — two, its high and its low
 * parts, each a Float64Array that may be a view of any buffer (another operand's, or each other's).
 */
function placementsOf(a: Accessor<any, any>): Placement[] {
  const data = a.data as unknown;
  if (ArrayBuffer.isView(data)) return [placementOfView(data, a.storage.wordsPerElement ?? 1)];
  if (data instanceof DdSplitArray) return [placementOfView(data.hi, 1), placementOfView(data.lo, 1)];
  return [{ region: data as object, base: 0, width: 1 }];
}

/** The memory regions an operand lives in (ArrayBuffers, or the buffer object itself). */
function regionsOf(op: AliasOperand): object[] {
  return ArrayBuffer.isView(op) ? [op.buffer] : placementsOf(op).map((p) => p.region);
}

/** The progressions of a view in each memory it lives in (none for an empty view). */
function progressions(op: AliasOperand): { region: object; rows: Progression[] }[] {
  if (ArrayBuffer.isView(op)) {
    const w = (op as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1;
    return [{ region: op.buffer, rows: [{ first: op.byteOffset, step: w, count: op.byteLength / w, width: w }] }];
  }
  const size = op.size as readonly number[];
  const strides = op.strides as readonly number[];
  return placementsOf(op).map(({ region, base, width }) => {
    if (size.some((s) => s === 0)) return { region, rows: [] };
    const start = base + op.offset * width;
    if (size.length === 1) return { region, rows: [{ first: start, step: strides[0]! * width, count: size[0]!, width }] };
    if (size.length !== 2) throw new Error(`modprec: overlap test of a ${size.length}-D view`);
    // One progression per index of the shorter dimension, running along the longer one.
    const outer = size[0]! <= size[1]! ? 0 : 1, inner = 1 - outer;
    const rows: Progression[] = [];
    for (let k = 0; k < size[outer]!; k++) {
      rows.push({ first: start + k * strides[outer]! * width, step: strides[inner]! * width, count: size[inner]!, width });
    }
    return { region, rows };
  });
}

/** [lowest byte, one past the highest byte] a progression touches. */
function span(p: Progression): [number, number] {
  const last = p.first + (p.count - 1) * p.step;
  return [Math.min(p.first, last), Math.max(p.first, last) + p.width];
}

function spanOfAll(rows: readonly Progression[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const r of rows) { const [a, b] = span(r); lo = Math.min(lo, a); hi = Math.max(hi, b); }
  return [lo, hi];
}

/** Extended Euclid on non-negative a, b: [g, x, y] with a·x + b·y = g. */
function extendedGcd(a: bigint, b: bigint): [bigint, bigint, bigint] {
  let [r0, r1, x0, x1, y0, y1] = [a, b, 1n, 0n, 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [x0, x1] = [x1, x0 - q * x1];
    [y0, y1] = [y1, y0 - q * y1];
  }
  return [r0, x0, y0];
}

const floorDiv = (a: bigint, b: bigint): bigint => { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; };
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);

/** The k with lo ≤ i0 + k·p ≤ hi (p ≠ 0), as an inclusive range. */
function kRange(i0: bigint, p: bigint, lo: bigint, hi: bigint): [bigint, bigint] {
  return p > 0n ? [ceilDiv(lo - i0, p), floorDiv(hi - i0, p)] : [ceilDiv(hi - i0, p), floorDiv(lo - i0, p)];
}

/** Whether i·a + j·c = t has a solution with 0 ≤ i < n, 0 ≤ j < m. */
function solvable(a: bigint, n: bigint, c: bigint, m: bigint, t: bigint): boolean {
  if (n === 1n) a = 0n;
  if (m === 1n) c = 0n;
  if (a === 0n && c === 0n) return t === 0n;
  if (a === 0n) return t % c === 0n && t / c >= 0n && t / c < m;
  if (c === 0n) return t % a === 0n && t / a >= 0n && t / a < n;
  const [g, x, y] = extendedGcd(a < 0n ? -a : a, c < 0n ? -c : c);
  if (t % g !== 0n) return false;
  const i0 = (a < 0n ? -x : x) * (t / g), j0 = (c < 0n ? -y : y) * (t / g);
  // All solutions: i = i0 + k·(c/g), j = j0 − k·(a/g).
  const [k1, k2] = kRange(i0, c / g, 0n, n - 1n);
  const [k3, k4] = kRange(j0, -a / g, 0n, m - 1n);
  return (k1 > k3 ? k1 : k3) <= (k2 < k4 ? k2 : k4);
}

/** Whether two progressions share a byte. */
function progressionsOverlap(p: Progression, q: Progression): boolean {
  const [pl, ph] = span(p), [ql, qh] = span(q);
  if (ph <= ql || qh <= pl) return false;
  // (a + i·da) − (b + j·db) ∈ (−wa, wb)  ⇔  i·da − j·db = t for an integer t in (b − a − wa, b − a + wb).
  const d = q.first - p.first;
  for (let t = d - p.width + 1; t < d + q.width; t++) {
    if (solvable(BigInt(p.step), BigInt(p.count), BigInt(-q.step), BigInt(q.count), BigInt(t))) return true;
  }
  return false;
}

/**
 * Whether two operands share at least one byte of memory (exactly, for any strides and offsets).
 * @param a - an operand
 * @param b - another operand
 * @returns true when some element of a and some element of b overlap in memory
 * @example
 * ```ts
 * const v = vector(10);
 * overlaps(v.sub(span(0, 5)).accessor, v.sub(span(5, 10)).accessor); // false
 * ```
 */
export function overlaps(a: AliasOperand, b: AliasOperand): boolean {
  // The common case, operands in different buffers, costs no progression at all.
  const rb = regionsOf(b);
  if (!regionsOf(a).some((r) => rb.includes(r))) return false;
  for (const pa of progressions(a)) {
    for (const pb of progressions(b)) if (pa.region === pb.region && rowsOverlap(pa.rows, pb.rows)) return true;
  }
  return false;
}

/** Whether two sets of progressions in one region share a byte. */
function rowsOverlap(pa: readonly Progression[], pb: readonly Progression[]): boolean {
  if (pa.length === 0 || pb.length === 0) return false;
  const [al, ah] = spanOfAll(pa), [bl, bh] = spanOfAll(pb);
  if (ah <= bl || bh <= al) return false;
  for (const p of pa) for (const q of pb) if (progressionsOverlap(p, q)) return true;
  return false;
}

/**
 * Whether two 1-D accessors put element i at the same memory for every i (same region, address, width and step):
 * an element-wise kernel that reads element i of both before writing element i of one computes as if they were
 * copies.
 * @param a - a vector accessor
 * @param b - another one, of the same length
 * @returns true when the index maps coincide
 * @example
 * ```ts
 * const x = vector(4);
 * sameElements(x.accessor, x.accessor); // true
 * ```
 */
export function sameElements(a: Accessor<1, any>, b: Accessor<1, any>): boolean {
  const pa = progressions(a), pb = progressions(b);
  // Each memory in turn (split double-double: high parts with high parts, low with low).
  return pa.length === pb.length && pa.every((p, k) => {
    const q = pb[k]!;
    if (p.region !== q.region || p.rows.length !== q.rows.length) return false;
    if (p.rows.length === 0) return true;
    const r = p.rows[0]!, t = q.rows[0]!;
    return r.first === t.first && r.width === t.width && r.count === t.count && (r.count === 1 || r.step === t.step);
  });
}

/**
 * Refuses, before the kernel writes anything, an output that overlaps an input or an input's scales (or its own
 * scales, or — split double-double — whose hi and lo arrays overlap each other): `INVALID_STORAGE` naming the
 * output and the input. With `elementwise`, a 1-D input whose elements coincide with the output's (the same
 * vector, or the same view of it) is allowed: output i then depends only on inputs i, which the kernel reads first.
 * @param outputName - the output's parameter name
 * @param output - the output operand
 * @param inputs - [parameter name, operand] of every input
 * @param elementwise - whether coinciding element maps are safe (AXPY, WAXPBY)
 * @throws {@link ModprecError} `INVALID_STORAGE` for an overlap
 * @example
 * ```ts
 * checkNoOverlap('y', y.accessor, [['A', A.accessor], ['x', x.accessor]]);
 * ```
 */
export function checkNoOverlap(
  outputName: string, output: AliasOperand, inputs: readonly (readonly [string, AliasOperand])[], elementwise = false,
): void {
  // A split double-double output writes its high and its low part of each element: the two arrays must not overlap.
  if (!ArrayBuffer.isView(output) && output.data instanceof DdSplitArray) {
    const [hi, lo] = progressions(output);
    if (hi!.region === lo!.region && rowsOverlap(hi!.rows, lo!.rows)) {
      fail('INVALID_STORAGE', outputName, 'must not have split double-double hi and lo arrays that overlap in memory (each element writes both)');
    }
  }
  // The output's own scales are read while its elements are written.
  const ownScales = ArrayBuffer.isView(output) ? undefined : scalesOf(output);
  if (ownScales && overlaps(output, ownScales)) fail('INVALID_STORAGE', outputName, 'must not share storage with its own scales (their elements overlap in memory)');
  for (const [name, input] of inputs) {
    // An input's scales are read as its elements are: writing over them changes the values read.
    const scales = ArrayBuffer.isView(input) ? undefined : scalesOf(input);
    if (scales && overlaps(output, scales)) {
      fail('INVALID_STORAGE', outputName, `must not share storage with ${name}.scale (their elements overlap in memory)`);
    }
    if (elementwise && !ArrayBuffer.isView(input) && !ArrayBuffer.isView(output) &&
      input.dimensionality === 1 && output.dimensionality === 1 && sameElements(output as Accessor<1, any>, input as Accessor<1, any>)) continue;
    if (overlaps(output, input)) {
      fail('INVALID_STORAGE', outputName, `must not share storage with ${name} (their elements overlap in memory)${elementwise ? ', unless both are the same view' : ''}`);
    }
  }
}

/**
 * The scales a scaled operand reads, as an operand of its own for the overlap test: element (i…) of the view reads
 * scale offset + Σ i_d·strides[d] (stride 0 along a dimension the scale does not depend on); undefined unscaled.
 */
function scalesOf(a: Accessor<any, any>): AliasOperand | undefined {
  const sc = a.scale;
  if (!sc) return undefined;
  return { data: sc.data, size: a.size, strides: sc.strides, offset: sc.offset, storage: { wordsPerElement: 1 }, dimensionality: a.dimensionality } as unknown as AliasOperand;
}
