/**
 * The WebAssembly ELL SpMV: the same bits as the generated JavaScript (each row sums its slots in order), within
 * ellSpmvBound of the exact rational result, for every storage of the values it reads (scaled integers per row
 * included), strided and negative-stride x, f64/f32 y with strides, α/β with β = 0 over NaN in y; padding values
 * never read; non-finite and subnormal values bit for bit; blocks past the staging size; typed refusals. Both
 * inner-loop forms (8 rows a step with scalar index loads, and the earlier 4 rows a step), each with its slots
 * looped or written out one by one (ellSlotsUnrolled).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expectModprec } from '../sparse/sparse-arbitraries.js';
import { ellSpmv, ellSpmvBound, ellOperand, ellWithStorage, laplacianEll, vector, formats, cpuBackendOf, ELL_PADDING, type ModprecErrorCode, type Range } from '../../src/index.js';
import { addRational, mulRational, ZERO } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import {
  buildMatrix, buildVector, changedOutside, errorOf, exactElement, exactVector, matrixSpec, positionsOf, snapshot, withinBound,
  type VectorSpec,
} from '../kernels/matrix-kernel-fixtures.js';
import { setWasmKernelForms } from '../../src/backends/wasm/wasm-kernel-forms.js';
import '../../src/formats/dd/register.js';

const xSpec: fc.Arbitrary<VectorSpec> = fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const, 'i16s' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() });
const ySpec: fc.Arbitrary<VectorSpec> = fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() });

const ellCase = fc.record({
  rows: fc.integer({ min: 1, max: 23 }), cols: fc.integer({ min: 1, max: 9 }), extraStride: fc.integer({ min: 0, max: 2 }),
  extraWidth: fc.integer({ min: 0, max: 2 }), valuesRows: fc.constantFrom<'rows' | 'stride'>('rows', 'stride'),
  // integer values are scaled per row (the WebAssembly reader takes one scale per row, not per slot)
  V: matrixSpec.map((s) => ({ ...s, scaleRows: true })), x: xSpec, y: ySpec,
  alpha: fc.constantFrom(1, -1, 0.5, 3), beta: fc.constantFrom(0, 1, -1, 0.5), seed: fc.integer({ min: 0, max: 2 ** 30 }),
  special: fc.boolean(),
  // the kernel's inner-loop form (src/backends/wasm/wasm-kernel-forms.ts): both must give the JavaScript's bits
  wide: fc.boolean(),
  // the slots written out one by one (ellSlotsUnrolled, widths up to 8) or looped
  unrolled: fc.boolean(),
});
type EllCase = typeof ellCase extends fc.Arbitrary<infer C> ? C : never;

const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 2 ** -1074, -(2 ** -1060), 2 ** -1022];

/** The operands of one case (built twice: one copy per backend). */
function build(c: EllCase): { A: ReturnType<typeof ellOperand>; V: Range<2, any>; x: Range<1, any>; y: Range<1, any> } {
  const random = seededRandom(c.seed);
  const v = (): number => (c.special && random.nextUint32() % 5 === 0 && c.V.storage !== 'i16s'
    ? SPECIALS[random.nextUint32() % SPECIALS.length]!
    : (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6));
  const stride = c.rows + c.extraStride;
  const lengths = Array.from({ length: c.rows }, () => random.nextUint32() % (c.cols + 1));
  const width = Math.max(0, ...lengths) + c.extraWidth;
  const colIndex = new Int32Array(stride * width).fill(ELL_PADDING);
  for (let i = 0; i < c.rows; i++) for (let k = 0; k < lengths[i]!; k++) colIndex[i + k * stride] = random.nextUint32() % c.cols;
  // Padding slots hold NaN where the storage can: a padding value must never reach a result.
  const sentinel = c.V.storage === 'i16s' ? 7 : NaN;
  const V = buildMatrix(c.V, c.valuesRows === 'rows' ? c.rows : stride, width, (i, k) => (i < c.rows && colIndex[i + k * stride] !== ELL_PADDING ? v() : sentinel));
  const A = ellOperand({ rows: c.rows, cols: c.cols, width, stride, colIndex }, V);
  const xv = Float64Array.from({ length: c.cols }, () => (c.x.storage === 'i16s' ? (random.nextDouble() * 2 - 1) : v()));
  const x = buildVector(c.x, xv);
  const y = buildVector(c.y, Float64Array.from({ length: c.rows }, () => (c.beta === 0 ? NaN : random.nextDouble() * 2 - 1)));
  return { A, V, x, y };
}

const values = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i));
const sameBits = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe('WebAssembly ELL SpMV', () => {
  for (const [accumulation, numRuns] of [['recursive', 300], ['kahan', 150]] as const) it(`gives the bits of the generated JavaScript and stays within ellSpmvBound of the exact result (${accumulation} accumulation)`, () => {
    const options = { accumulation };
    fc.assert(fc.property(ellCase, (c) => {
      const a = build(c), b = build(c);
      expect(cpuBackendOf('ellSpmv', { x: a.x, y: a.y }, options, ['y']).backend).toBe('wasm');
      const yIn = c.beta === 0 ? null : exactVector(a.y);
      const before = { V: snapshot(a.V), x: snapshot(a.x), y: snapshot(a.y) };
      const args = { alpha: c.alpha, A: a.A, x: a.x, beta: c.beta, y: a.y };
      const bound = ellSpmvBound(args, options);
      const previous = setWasmKernelForms({ ellWide: c.wide, ellSlotsUnrolled: c.unrolled });
      try { ellSpmv(args, { ...options, backend: 'wasm' }); } finally { setWasmKernelForms(previous); }
      ellSpmv({ ...args, A: b.A, x: b.x, y: b.y }, { ...options, backend: 'js' });
      expect(changedOutside(a.V, before.V)).toEqual([]);
      expect(changedOutside(a.x, before.x)).toEqual([]);
      expect(changedOutside(a.y, before.y, positionsOf(a.y))).toEqual([]);
      const got = values(a.y), want = values(b.y);
      if (!sameBits(got, want)) throw new Error(`wasm ${got} ≠ js ${want}`);
      if (c.special) return;
      const ex = exactVector(a.x), out = exactVector(a.y);
      const { width, stride, colIndex } = a.A.structure;
      for (let i = 0; i < c.rows; i++) {
        let s = ZERO;
        for (let k = 0; k < width && colIndex[i + k * stride] !== ELL_PADDING; k++) s = addRational(s, mulRational(exactElement(a.V, i, k), ex[colIndex[i + k * stride]!]!));
        let exact = mulRational(exactOf(c.alpha), s);
        if (yIn) exact = addRational(exact, mulRational(exactOf(c.beta), yIn[i]!));
        if (!withinBound(out[i]!, exact, bound[i]!)) throw new Error(`y[${i}]: error ${errorOf(out[i]!, exact)} > bound ${bound[i]}`);
      }
    }), { numRuns });
  });

  it('blocks of rows past the staging size, every value storage of ellWithStorage (i8/i16/i32 scaled per row)', () => {
    const L = laplacianEll([24, 24, 24]);   // 13 824 rows, 7 slots: two blocks and a part
    const random = seededRandom(5);
    const xs = Array.from({ length: L.cols }, () => random.nextDouble() * 2 - 1);
    for (const storage of [formats.f64, formats.f32, formats.f16, formats.bf16, formats.i8, formats.i16, formats.i32]) {
      const A = ellWithStorage(L, { storage });
      const x = vector(xs), y = vector(L.rows), y2 = vector(L.rows);
      ellSpmv({ alpha: 0.75, A, x, beta: 0, y }, { backend: 'wasm' });
      ellSpmv({ alpha: 0.75, A, x, beta: 0, y: y2 }, { backend: 'js' });
      expect(sameBits(values(y), values(y2))).toBe(true);
    }
  });
});

describe("backend 'wasm' refuses ELL SpMV calls it cannot run, before writing", () => {
  const L = laplacianEll([2, 2]);
  const x = vector([1, 2, 3, 4]);
  const perSlot = buildMatrix({ storage: 'i16s', layout: 'col', sub: false, scaleRows: false }, L.stride, L.width, () => 0.5);
  const cases: [string, () => unknown, ModprecErrorCode, string][] = [
    // Values scaled per slot (wasm-per-element-scales.test.ts) and dd values in fp32 (below) run; a per-row scale set to ∞
    // behind the accessor's checks is left to the JavaScript, by name.
    ['values with a non-finite row scale', () => {
      const V = buildMatrix({ storage: 'i16s', layout: 'col', sub: false, scaleRows: true }, L.stride, L.width, () => 0.5);
      V.accessor.scale!.data[1] = Infinity;
      ellSpmv({ alpha: 1, A: ellOperand(L, V), x, beta: 0, y: vector(4) }, { backend: 'wasm' });
    }, 'INVALID_FORMAT', 'A.values'],
  ];
  for (const [name, call, code, parameter] of cases) {
    it(name, () => {
      expectModprec(call, code, parameter);
    });
  }

  it('double-double values in fp32 arithmetic (recursive, kahan) run through a twin of the JavaScript\'s reads: its bits', () => {
    const random = seededRandom(5);
    const L3 = laplacianEll([5, 4]);
    for (const accumulation of ['recursive', 'kahan'] as const) {
      for (const sub of [false, true]) {
        const V = ellWithStorage(L3, { storage: formats.dd }).values;
        // Low parts that count: hi + lo rounds differently to binary32 than hi alone.
        const a = V.accessor;
        for (let i = 0; i < L3.stride; i++) for (let k = 0; k < L3.width; k++) a.storage.encode(a.data as never, a.linearIndex([i, k]), { hi: 1 + 2 ** -24 * (i % 3), lo: (random.nextDouble() - 0.5) * 2 ** -60 } as never);
        const xs = vector(Array.from({ length: L3.cols }, () => random.nextDouble() * 2 - 1));
        const run = (backend: 'wasm' | 'js'): number[] => {
          const y = vector(Array.from({ length: L3.rows }, (_, i) => (sub ? NaN : i)));
          ellSpmv({ alpha: 0.75, A: ellOperand(L3, V), x: xs, beta: sub ? 0 : 1, y }, { arithmetic: formats.f32, accumulation, backend });
          return values(y);
        };
        expect(sameBits(run('wasm'), run('js'))).toBe(true);
      }
    }
  });

  it('dd arithmetic into a scaled y is no longer refused: the JavaScript\'s stored codes (wasm-dd-stored-outputs.test.ts)', () => {
    const run = (backend: 'wasm' | 'js'): number[] => {
      const y = buildVector({ storage: 'i16s', stride: 1, sub: false }, [1, 2, 3, 4]);
      ellSpmv({ alpha: 1, A: ellWithStorage(L, { storage: formats.f32 }), x, beta: 0.5, y }, { backend, arithmetic: formats.dd });
      return [...(y.accessor.data as Int16Array)];
    };
    expect(run('wasm')).toEqual(run('js'));
  });

  it('the automatic choice runs values scaled per slot on the JavaScript kernel (a twin would be one more pass)', () => {
    const y = vector(4), y2 = vector(4);
    ellSpmv({ alpha: 1, A: ellOperand(L, perSlot), x, beta: 0, y });
    ellSpmv({ alpha: 1, A: ellOperand(L, perSlot), x, beta: 0, y: y2 }, { backend: 'js' });
    expect(values(y)).toEqual(values(y2));
    expect(values(y).some((v) => v !== 0)).toBe(true);
  });
});
