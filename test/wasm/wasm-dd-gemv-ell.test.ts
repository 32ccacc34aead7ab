/**
 * GEMV and ELL SpMV summed in double-double by WebAssembly (double-double arithmetic with the recursive or dd
 * accumulation, fp64 arithmetic with the dd accumulation), on f64, f32, f16, bf16 and dd storage (dd read as its
 * pairs in dd arithmetic, as hi + lo in fp64), f64/f32 outputs, strides (negative too), sub-ranges, α/β with
 * β = 0 over NaN in y. Oracles: the exact rational result within gemvBound / ellSpmvBound (the same options);
 * bit for bit the generated JavaScript where both take the same operations in the same order (GEMV with op(A)
 * read by columns, ELL SpMV: specials NaN/±0/±Inf/subnormals included), the documented lane order of the
 * double-double DOT where GEMV reads op(A) by rows; a cancellation fp64 cannot resolve; non-finite sums answered
 * by the JavaScript kernel; the automatic choice picks WebAssembly (dd outputs too); a scaled or bf16 y runs (wasm-dd-stored-outputs.test.ts); ELL values scaled per slot refused, typed (scaled A, values and x: wasm-dd-scaled.test.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import {
  gemv, gemvBound, ellSpmv, ellSpmvBound, ellOperand, ellWithStorage, laplacianEll, vector, range, rowMajor, colMajor, span, formats,
  cpuBackendOf, ELL_PADDING, type ModprecErrorCode, type Range,
} from '../../src/index.js';
import { addRational, mulRational, ZERO, type Rational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector, changedOutside, errorOf, positionsOf, snapshot, withinBound } from '../kernels/matrix-kernel-fixtures.js';
import { ddTwoProdAccumulate } from '../../src/formats/dd/two-prod-accumulate.js';
import { ddMulAccumulate } from '../../src/formats/dd/mul.js';
import { ddAdd } from '../../src/formats/dd/add.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import '../../src/formats/dd/register.js';

type Storage = 'f64' | 'f32' | 'f16' | 'bf16' | 'dd';
type Pair = { hi: number; lo: number };
const STORAGES: readonly Storage[] = ['f64', 'f32', 'f16', 'bf16', 'dd'];
const NUMERICS = [
  { arithmetic: 'dd', accumulation: 'recursive' }, { arithmetic: 'dd', accumulation: 'dd' }, { arithmetic: 'f64', accumulation: 'dd' },
] as const;
type Numerics = (typeof NUMERICS)[number];
const optionsOf = (n: Numerics) => ({ arithmetic: formats[n.arithmetic], accumulation: n.accumulation });
const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 2 ** -1074, -(2 ** -1060), 2 ** -1022];

/** A value for dd storage: a normalised pair whose low part counts (|lo| < ulp(hi)/2). */
const pairOf = (hi: number, r: number): Pair => ({ hi, lo: Number.isFinite(hi) ? hi * 2 ** -54 * r : 0 });

/** Writes a value through the storage (dd: the pair). */
function put(r: Range<any, any>, index: number[], v: Pair): void {
  const a = r.accessor;
  a.storage.encode(a.data as never, a.linearIndex(index), a.storage.kind === 'dd' ? v : v.hi);
}

/** An m×n matrix (row- or column-major, optionally inside a larger buffer of NaN sentinels). */
function matrixOf(storage: Storage, layout: 'row' | 'col', sub: boolean, m: number, n: number, f: (i: number, j: number) => Pair): Range<2, any> {
  if (storage !== 'dd') return buildMatrix({ storage, layout, sub, scaleRows: false }, m, n, (i, j) => f(i, j).hi);
  const [M, N] = sub ? [m + 3, n + 2] : [m, n];
  const make = layout === 'row' ? rowMajor : colMajor;
  const parent = range(make<2, any>({ size: [M, N], storage: formats.dd, arithmetic: formats.f64 }));
  (parent.accessor.data as Float64Array).fill(NaN);
  const A = sub ? parent.sub(span(2, 2 + m), span(1, 1 + n)) : parent;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) put(A, [i, j], f(i, j));
  return A;
}

/** A vector with the given stride, optionally a sub-range of a larger buffer of NaN sentinels. */
function vectorOf(storage: Storage, stride: number, sub: boolean, values: readonly Pair[]): Range<1, any> {
  if (storage !== 'dd') return buildVector({ storage, stride, sub }, values.map((p) => p.hi));
  const n = values.length, N = sub ? n + 3 : n;
  const parent = range(rowMajor<1, any>({ size: [N], storage: formats.dd, arithmetic: formats.f64, stride }));
  (parent.accessor.data as Float64Array).fill(NaN);
  const x = sub ? parent.sub(span(1, 1 + n)) : parent;
  values.forEach((p, i) => put(x, [i], p));
  return x;
}

/** The value an element holds: a double, or a pair for dd storage. */
function heldAt(r: Range<any, any>, index: number[]): Pair {
  const a = r.accessor;
  const v = a.storage.decode(a.data as never, a.linearIndex(index)) as number | Pair;
  return typeof v === 'number' ? { hi: v, lo: 0 } : v;
}
const exactPair = (p: Pair): Rational => addRational(exactOf(p.hi), exactOf(p.lo));
const bits = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i) as number);
const sameBits = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/**
 * The double-double DOT's documented order (kernels/dot/dot-dd-wasm.ts) on the values as the arithmetic reads
 * them: lane i mod 8, ddTwoProdAccumulate (ddMulAccumulate when a factor is read as a pair), the tree of ddAdd.
 */
function laneOrderDdDot(a: readonly Pair[], b: readonly Pair[], general: boolean): [number, number] {
  const s = Array.from({ length: 8 }, () => new Float64Array(2));
  for (let i = 0; i < a.length; i++) {
    const p = s[i % 8]!;
    if (general) ddMulAccumulate(p, a[i]!.hi, a[i]!.lo, b[i]!.hi, b[i]!.lo, p[0]!, p[1]!);
    else ddTwoProdAccumulate(p, a[i]!.hi, b[i]!.hi, p[0]!, p[1]!);
  }
  const join = (u: Float64Array, v: Float64Array): Float64Array => { const r = new Float64Array(2); ddAdd(r, u[0]!, u[1]!, v[0]!, v[1]!); return r; };
  const r = join(join(join(s[0]!, s[1]!), join(s[2]!, s[3]!)), join(join(s[4]!, s[5]!), join(s[6]!, s[7]!)));
  return [r[0]!, r[1]!];
}

/** A value as the arithmetic reads it: dd storage as its pair in dd arithmetic, as the double hi + lo in fp64. */
const asRead = (p: Pair, pairs: boolean): Pair => (pairs ? p : { hi: p.hi + p.lo, lo: 0 });

const gemvCase = fc.record({
  m: fc.integer({ min: 1, max: 21 }), n: fc.integer({ min: 1, max: 21 }), trans: fc.constantFrom('N' as const, 'T' as const),
  layout: fc.constantFrom('row' as const, 'col' as const), subA: fc.boolean(), A: fc.constantFrom(...STORAGES),
  x: fc.constantFrom(...STORAGES), xStride: fc.constantFrom(1, 2, -1, -3), subX: fc.boolean(),
  y: fc.constantFrom('f64' as const, 'f32' as const), yStride: fc.constantFrom(1, 2, -1, -3), subY: fc.boolean(),
  alpha: fc.constantFrom(1, -1, 0.5, 3, 0.1, 0), beta: fc.constantFrom(0, 1, -1, 0.5), numerics: fc.constantFrom(...NUMERICS),
  seed: fc.integer({ min: 0, max: 2 ** 30 }), special: fc.boolean(), cancel: fc.boolean(),
});
type GemvCase = typeof gemvCase extends fc.Arbitrary<infer C> ? C : never;

function buildGemv(c: GemvCase): { A: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): Pair => {
    if (c.special && random.nextUint32() % 6 === 0) return pairOf(SPECIALS[random.nextUint32() % SPECIALS.length]!, 0);
    return pairOf((random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6), random.nextDouble() * 2 - 1);
  };
  const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
  // cancel: columns 4t and 4t + 1 of op(A) hold a large a and −a against equal xⱼ, so those products cancel exactly
  // and the result is far below the partial sums: the double then shows the double-double sums' own roundings.
  const cancels = (j: number): boolean => c.cancel && j % 4 < 2 && (j | 1) < c.n;
  const big = c.A === 'f16' ? 2 ** 14 : 2 ** 60;
  const values = Array.from({ length: c.m }, () => Array.from({ length: c.n }, () => v()));
  for (let i = 0; i < c.m; i++) for (let j = 0; j < c.n; j += 4) {
    if (!cancels(j)) continue;
    const p = pairOf(big * (random.nextDouble() * 2 - 1), random.nextDouble() * 2 - 1);
    values[i]![j] = p; values[i]![j + 1] = { hi: -p.hi, lo: -p.lo };
  }
  const A = matrixOf(c.A, c.layout, c.subA, rows, cols, (r, k) => (c.trans === 'N' ? values[r]![k]! : values[k]![r]!));
  const xs = Array.from({ length: c.n }, v);
  for (let j = 0; j < c.n; j++) if (cancels(j) && j % 2 === 1) xs[j] = xs[j - 1]!;
  const x = vectorOf(c.x, c.xStride, c.subX, xs);
  const y = vectorOf(c.y, c.yStride, c.subY, Array.from({ length: c.m }, () => pairOf(c.beta === 0 ? NaN : random.nextDouble() * 2 - 1, 0)));
  return { A, x, y };
}

describe('WebAssembly GEMV summed in double-double', () => {
  it('within gemvBound of the exact result; the bits of the JavaScript where op(A) is read by columns, the DD DOT lane order where by rows', () => {
    fc.assert(fc.property(gemvCase, (c) => {
      const a = buildGemv(c), b = buildGemv(c);
      const options = optionsOf(c.numerics);
      const ddArithmetic = c.numerics.arithmetic === 'dd';
      expect(cpuBackendOf('gemv', { A: a.A, x: a.x, y: a.y }, options, ['y']).backend).toBe('wasm');
      const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y, trans: c.trans };
      const yIn = bits(a.y), before = snapshot(a.y);
      const bound = gemvBound(args, options);
      const opA = (i: number, j: number): Pair => (c.trans === 'N' ? heldAt(a.A, [i, j]) : heldAt(a.A, [j, i]));
      const xs = Array.from({ length: c.n }, (_, j) => heldAt(a.x, [j]));
      gemv(args, { ...options, backend: 'wasm' });
      gemv({ ...args, A: b.A, x: b.x, y: b.y }, { ...options, backend: 'js' });
      expect(changedOutside(a.y, before, positionsOf(a.y))).toEqual([]);
      const got = bits(a.y), js = bits(b.y);
      const byColumns = (c.layout === 'col') === (c.trans === 'N');
      const finite = Array.from({ length: c.m }, (_, i) => xs.every((p, j) => Number.isFinite(p.hi) && Number.isFinite(opA(i, j).hi))).every(Boolean);
      // Same order, or a non-finite operand (the call then runs on the JavaScript): the same bits.
      if (byColumns || !finite || c.alpha === 0) { if (!sameBits(got, js)) throw new Error(`wasm ${got} ≠ js ${js}`); }
      else if (c.alpha === 1 && c.beta === 0 && c.y === 'f64') {
        const pairA = ddArithmetic && c.A === 'dd', pairX = ddArithmetic && c.x === 'dd';
        const want = Array.from({ length: c.m }, (_, i) => {
          const [hi, lo] = laneOrderDdDot(Array.from({ length: c.n }, (_, j) => asRead(opA(i, j), pairA)), xs.map((p) => asRead(p, pairX)), pairA || pairX);
          return hi + lo;
        });
        if (!sameBits(got, want)) throw new Error(`wasm ${got} ≠ lane order ${want}`);
      }
      if (c.special) return;
      for (let i = 0; i < c.m; i++) {
        let s = ZERO;
        for (let j = 0; j < c.n; j++) s = addRational(s, mulRational(exactPair(opA(i, j)), exactPair(xs[j]!)));
        let exact = mulRational(exactOf(c.alpha), s);
        if (c.beta !== 0) exact = addRational(exact, mulRational(exactOf(c.beta), exactOf(yIn[i]!)));
        if (!withinBound(exactOf(got[i]!), exact, bound[i]!)) throw new Error(`y[${i}]: error ${errorOf(exactOf(got[i]!), exact)} > bound ${bound[i]}`);
      }
    }), { numRuns: 400 });
  });

  it('resolves a cancellation fp64 cannot, in both loop orders, across staging chunks', () => {
    const n = 2 * CHUNK + 13;
    const row = (j: number): number => (j === n - 1 ? 1 : j % 2 === 0 ? 2 ** 60 : -(2 ** 60));
    const xs = Array.from({ length: n }, (_, j) => (j === n - 2 ? 1 + 2 ** -52 : 1));
    const exact = ((n - 2) % 2 === 0 ? 2 ** 8 : -(2 ** 8)) + 1;
    for (const layout of ['row', 'col'] as const) {
      // Two rows of A (trans 'N' for row-major: by rows; trans 'T' of a column-major n×2: by rows too; 'N' column-major 2×n: by columns)
      const A = matrixOf('f64', layout, false, 2, n, (i, j) => ({ hi: i === 0 ? row(j) : 1, lo: 0 }));
      for (const numerics of NUMERICS) {
        const y = vector(2);
        gemv({ alpha: 1, A, x: vector(xs), beta: 0, y }, { ...optionsOf(numerics), backend: 'wasm' });
        expect(y.get(0)).toBe(exact);
      }
    }
  });

  it('past the staging size: row blocks by columns (the bits of the JavaScript), long rows by rows (within the bound)', () => {
    for (const [layout, m, n] of [['col', CHUNK + 5, 6], ['row', 3, CHUNK + 11]] as const) {
      for (const numerics of NUMERICS) {
        const A = matrixOf('dd', layout, true, m, n, (i, j) => pairOf(Math.sin(i + 3 * j), Math.cos(i - j)));
        const x = vector(Array.from({ length: n }, (_, j) => Math.cos(j)));
        const y = vector(m), y2 = vector(m);
        const bound = gemvBound({ alpha: 1, A, x, beta: 0, y }, optionsOf(numerics));
        gemv({ alpha: 1, A, x, beta: 0, y }, { ...optionsOf(numerics), backend: 'wasm' });
        gemv({ alpha: 1, A, x, beta: 0, y: y2 }, { ...optionsOf(numerics), backend: 'js' });
        if (layout === 'col') expect(sameBits(bits(y), bits(y2))).toBe(true);
        else for (let i = 0; i < m; i++) expect(Math.abs(y.get(i) - y2.get(i))).toBeLessThanOrEqual(2 * bound[i]!);
      }
    }
  });

  it('dd storage: its pairs in dd arithmetic (the low parts count), hi + lo in fp64 arithmetic, in both loop orders and in ELL SpMV', () => {
    // Row 0 of op(A) = ((1, 2^-60), (−1, 0), (0.5, 2^-80)) against x = ((1, 2^-70), (1, 0), (0, 0)): 2^-60 + 2^-70 exactly in
    // dd arithmetic; in fp64 each pair reads as its double and the sum is 0.
    const rowOf = (j: number): Pair => [{ hi: 1, lo: 2 ** -60 }, { hi: -1, lo: 0 }, { hi: 0.5, lo: 2 ** -80 }][j]!;
    const xp = [{ hi: 1, lo: 2 ** -70 }, { hi: 1, lo: 0 }, { hi: 0, lo: 0 }];
    for (const [layout, trans] of [['row', 'N'], ['col', 'N'], ['row', 'T'], ['col', 'T']] as const) {
      const A = matrixOf('dd', layout, true, trans === 'N' ? 2 : 3, trans === 'N' ? 3 : 2, (i, j) => (trans === 'N' ? (i === 0 ? rowOf(j) : xp[j]!) : (j === 0 ? rowOf(i) : xp[i]!)));
      const x = vectorOf('dd', -2, true, xp);
      for (const numerics of NUMERICS) {
        const y = vector(2);
        gemv({ alpha: 1, A, x, beta: 0, y, trans }, { ...optionsOf(numerics), backend: 'wasm' });
        expect(y.get(0)).toBe(numerics.arithmetic === 'dd' ? 2 ** -60 + 2 ** -70 : 0);
      }
    }
    const V = matrixOf('dd', 'col', false, 1, 3, (_, k) => rowOf(k));
    const A = ellOperand({ rows: 1, cols: 3, width: 3, stride: 1, colIndex: Int32Array.of(0, 1, 2) }, V);
    for (const numerics of NUMERICS) {
      const y = vector(1);
      ellSpmv({ alpha: 1, A, x: vectorOf('dd', 1, false, xp), beta: 0, y }, { ...optionsOf(numerics), backend: 'wasm' });
      expect(y.get(0)).toBe(numerics.arithmetic === 'dd' ? 2 ** -60 + 2 ** -70 : 0);
    }
  });

  it('splitting overflows and infinities: the JavaScript kernel\'s answer; empty op(A) leaves y untouched', () => {
    for (const big of [1.5e301, -1.7e308, Infinity]) {
      const A = matrixOf('f64', 'row', false, 2, 9, (i, j) => ({ hi: i === 0 && j === 3 ? big : 1 + j, lo: 0 }));
      const x = vector([3, 1e10, 0.5, 1e-300, 2, 3, 4, 5, 6]);
      for (const numerics of NUMERICS) {
        const y = vector([1, 2]), y2 = vector([1, 2]);
        gemv({ alpha: 1, A, x, beta: 0.5, y }, { ...optionsOf(numerics), backend: 'wasm' });
        gemv({ alpha: 1, A, x, beta: 0.5, y: y2 }, { ...optionsOf(numerics), backend: 'js' });
        expect(sameBits(bits(y), bits(y2))).toBe(true);
      }
    }
    for (const [m, n] of [[0, 3], [3, 0]] as const) {
      const y = vector(Array.from({ length: m }, () => NaN));
      gemv({ alpha: 1, A: matrixOf('f64', 'col', false, m, n, () => ({ hi: 1, lo: 0 })), x: vector(n), beta: 0, y }, { arithmetic: formats.dd, backend: 'wasm' });
      expect(bits(y).every(Number.isNaN)).toBe(true);
    }
  });
});

const ellCase = fc.record({
  rows: fc.integer({ min: 1, max: 23 }), cols: fc.integer({ min: 1, max: 9 }), extraStride: fc.integer({ min: 0, max: 2 }),
  extraWidth: fc.integer({ min: 0, max: 2 }), layout: fc.constantFrom('row' as const, 'col' as const), sub: fc.boolean(),
  V: fc.constantFrom(...STORAGES), x: fc.constantFrom(...STORAGES), xStride: fc.constantFrom(1, 2, -1, -3), subX: fc.boolean(),
  y: fc.constantFrom('f64' as const, 'f32' as const), yStride: fc.constantFrom(1, 2, -1, -3), subY: fc.boolean(),
  alpha: fc.constantFrom(1, -1, 0.5, 3, 0.1, 0), beta: fc.constantFrom(0, 1, -1, 0.5), numerics: fc.constantFrom(...NUMERICS),
  seed: fc.integer({ min: 0, max: 2 ** 30 }), special: fc.boolean(), cancel: fc.boolean(),
});
type EllCase = typeof ellCase extends fc.Arbitrary<infer C> ? C : never;

function buildEll(c: EllCase): { A: ReturnType<typeof ellOperand>; V: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): Pair => {
    if (c.special && random.nextUint32() % 5 === 0) return pairOf(SPECIALS[random.nextUint32() % SPECIALS.length]!, 0);
    return pairOf((random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6), random.nextDouble() * 2 - 1);
  };
  const stride = c.rows + c.extraStride;
  const lengths = Array.from({ length: c.rows }, () => random.nextUint32() % (c.cols + 1));
  const width = Math.max(0, ...lengths) + c.extraWidth;
  const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
  for (let i = 0; i < c.rows; i++) for (let k = 0; k < lengths[i]!; k++) colIndex[i + k * stride] = random.nextUint32() % c.cols;
  // cancel: slots 4t and 4t + 1 hold a large v and −v on the same column (as in the GEMV cases above).
  const big = c.V === 'f16' ? 2 ** 14 : 2 ** 60;
  const slotValues = Array.from({ length: stride }, (_, i) => Array.from({ length: width }, (_, k) => (i < c.rows && colIndex[i + k * stride] !== ELL_PADDING ? v() : pairOf(NaN, 0))));
  for (let i = 0; i < c.rows; i++) for (let k = 0; k + 1 < lengths[i]!; k += 4) {
    if (!c.cancel) break;
    colIndex[i + (k + 1) * stride] = colIndex[i + k * stride]!;
    const p = pairOf(big * (random.nextDouble() * 2 - 1), random.nextDouble() * 2 - 1);
    slotValues[i]![k] = p; slotValues[i]![k + 1] = { hi: -p.hi, lo: -p.lo };
  }
  // Padding slots hold NaN: a padding value must never reach a result.
  const V = matrixOf(c.V, c.layout, c.sub, stride, width, (i, k) => slotValues[i]![k]!);
  const A = ellOperand({ rows: c.rows, cols: c.cols, width, stride, colIndex }, V);
  const x = vectorOf(c.x, c.xStride, c.subX, Array.from({ length: c.cols }, v));
  const y = vectorOf(c.y, c.yStride, c.subY, Array.from({ length: c.rows }, () => pairOf(c.beta === 0 ? NaN : random.nextDouble() * 2 - 1, 0)));
  return { A, V, x, y };
}

describe('WebAssembly ELL SpMV summed in double-double', () => {
  it('the bits of the generated JavaScript (specials included), within ellSpmvBound of the exact result', () => {
    fc.assert(fc.property(ellCase, (c) => {
      const a = buildEll(c), b = buildEll(c);
      const options = optionsOf(c.numerics);
      expect(cpuBackendOf('ellSpmv', { x: a.x, y: a.y }, options, ['y']).backend).toBe('wasm');
      const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y };
      const yIn = bits(a.y);
      const before = { V: snapshot(a.V), x: snapshot(a.x), y: snapshot(a.y) };
      const bound = ellSpmvBound(args, options);
      ellSpmv(args, { ...options, backend: 'wasm' });
      ellSpmv({ ...args, A: b.A, x: b.x, y: b.y }, { ...options, backend: 'js' });
      expect(changedOutside(a.V, before.V)).toEqual([]);
      expect(changedOutside(a.x, before.x)).toEqual([]);
      expect(changedOutside(a.y, before.y, positionsOf(a.y))).toEqual([]);
      const got = bits(a.y), js = bits(b.y);
      if (!sameBits(got, js)) throw new Error(`wasm ${got} ≠ js ${js}`);
      if (c.special) return;
      const { width, stride, colIndex } = a.A.structure;
      for (let i = 0; i < c.rows; i++) {
        let s = ZERO;
        for (let k = 0; k < width && colIndex[i + k * stride] !== ELL_PADDING; k++) {
          s = addRational(s, mulRational(exactPair(heldAt(a.V, [i, k])), exactPair(heldAt(a.x, [colIndex[i + k * stride]!]))));
        }
        let exact = mulRational(exactOf(c.alpha), s);
        if (c.beta !== 0) exact = addRational(exact, mulRational(exactOf(c.beta), exactOf(yIn[i]!)));
        if (!withinBound(exactOf(got[i]!), exact, bound[i]!)) throw new Error(`y[${i}]: error ${errorOf(exactOf(got[i]!), exact)} > bound ${bound[i]}`);
      }
    }), { numRuns: 400 });
  });

  it('blocks of rows past the staging size, odd and even widths: the bits of the JavaScript; a cancellation resolved', () => {
    for (const dims of [[24, 24, 24], [40, 40]]) {
      const L = laplacianEll(dims);
      const random = seededRandom(7);
      const x = vector(Array.from({ length: L.cols }, () => random.nextDouble() * 2 - 1));
      for (const storage of [formats.f32, formats.dd]) {
        const A = ellWithStorage(L, { storage });
        for (const numerics of NUMERICS) {
          const y = vector(L.rows), y2 = vector(L.rows);
          ellSpmv({ alpha: 0.75, A, x, beta: 0, y }, { ...optionsOf(numerics), backend: 'wasm' });
          ellSpmv({ alpha: 0.75, A, x, beta: 0, y: y2 }, { ...optionsOf(numerics), backend: 'js' });
          expect(sameBits(bits(y), bits(y2))).toBe(true);
        }
      }
    }
    // No rows: y untouched.
    const empty = ellOperand({ rows: 0, cols: 2, width: 1, stride: 0, colIndex: new Int32Array(0) }, matrixOf('f64', 'col', false, 0, 1, () => ({ hi: 1, lo: 0 })));
    ellSpmv({ alpha: 1, A: empty, x: vector([1, 2]), beta: 0, y: vector(0) }, { arithmetic: formats.dd, backend: 'wasm' });
    // Row 0: 2^60·1 − 2^60·1 + 1·(1 + 2^-52)·2^8 … fp64 loses the small terms.
    const A = ellOperand({ rows: 1, cols: 3, width: 3, stride: 1, colIndex: Int32Array.of(0, 1, 2) }, matrixOf('f64', 'col', false, 1, 3, (_, k) => ({ hi: [2 ** 60, 1, -(2 ** 60)][k]!, lo: 0 })));
    for (const numerics of NUMERICS) {
      const y = vector(1);
      ellSpmv({ alpha: 1, A, x: vector([1, 1 + 2 ** -52, 1]), beta: 0, y }, { ...optionsOf(numerics), backend: 'wasm' });
      expect(y.get(0)).toBe(1 + 2 ** -52);
    }
  });
});

describe('the choice of backend for double-double GEMV and ELL SpMV', () => {
  const A = matrixOf('f64', 'row', false, 2, 2, (i, j) => ({ hi: i + 2 * j + 1, lo: 0 }));
  const L = laplacianEll([2, 2]);
  const x4 = vector([1, 2, 3, 4]);
  const ddY = (n: number): Range<1, any> => vectorOf('dd', 1, false, Array.from({ length: n }, () => pairOf(0.5, 0.5)));
  const scaled = buildVector({ storage: 'i16s', stride: 1, sub: false }, [0.5, 0.25]);
  const cases: [string, () => unknown, ModprecErrorCode, string][] = [
    // Scales per element, row, column or slot run (wasm-per-element-scales.test.ts); a one-scale operand whose scale was
    // set to ∞ behind the accessor's checks is left to the JavaScript, by name.
    ['GEMV with an x whose one scale is not finite', () => { const xs = buildVector({ storage: 'i16s', stride: 1, sub: false }, [1, 1]); xs.accessor.scale!.data[0] = Infinity; gemv({ alpha: 1, A, x: xs, beta: 0, y: vector(2) }, { backend: 'wasm', arithmetic: formats.dd }); }, 'INVALID_FORMAT', 'x'],
  ];
  for (const [name, call, code, parameter] of cases) {
    it(`backend 'wasm' refuses ${name}, naming it, before writing`, () => {
      const e = expectModprec(call, code, parameter);
      if (name.startsWith('GEMV')) expect(e.message).toContain('a non-finite scale is left to the JavaScript kernels');
    });
  }

  it("backend 'cpu' picks WebAssembly, and reports why not where it cannot; the automatic runs agree with both", () => {
    const x = vector([1, -1]);
    for (const numerics of NUMERICS) {
      expect(cpuBackendOf('gemv', { A, x, y: vector(2) }, optionsOf(numerics), ['y'])).toEqual({ backend: 'wasm' });
      expect(cpuBackendOf('ellSpmv', { x: x4, y: vector(4) }, optionsOf(numerics), ['y'])).toEqual({ backend: 'wasm' });
      const y = vector(2), y2 = vector(2);
      gemv({ alpha: 1, A, x, beta: 0, y }, optionsOf(numerics));
      gemv({ alpha: 1, A, x, beta: 0, y: y2 }, { ...optionsOf(numerics), backend: 'wasm' });
      expect(bits(y)).toEqual(bits(y2));
    }
    // A dd y is written by WebAssembly too (test/wasm/wasm-dd-outputs-gemv-ell.test.ts), with the JavaScript's pairs.
    expect(cpuBackendOf('gemv', { A, x, y: ddY(2) }, { arithmetic: formats.dd }, ['y'])).toEqual({ backend: 'wasm' });
    // A scaled, bf16 or integer y too, through the JavaScript kernels' store (test/wasm/wasm-dd-stored-outputs.test.ts).
    expect(cpuBackendOf('gemv', { A, x, y: scaled }, { arithmetic: formats.dd }, ['y'])).toEqual({ backend: 'wasm' });
    expect(cpuBackendOf('ellSpmv', { x: x4, y: vector(4, { storage: formats.bf16, arithmetic: formats.f64 }) }, { accumulation: 'dd' }, ['y'])).toEqual({ backend: 'wasm' });
    const y = ddY(2), y2 = ddY(2);
    gemv({ alpha: 1, A, x, beta: 0, y }, { arithmetic: formats.dd });
    gemv({ alpha: 1, A, x, beta: 0, y: y2 }, { arithmetic: formats.dd, backend: 'js' });
    expect(Array.from(y.accessor.data as Float64Array)).toEqual(Array.from(y2.accessor.data as Float64Array));
  });
});
