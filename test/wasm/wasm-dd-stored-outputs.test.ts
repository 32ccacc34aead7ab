/**
 * WebAssembly outputs in double-double arithmetic (and fp64 with the dd accumulation) that the WebAssembly does not
 * store itself (issue 20): SCAL's x, AXPY's y, WAXPBY's w, GEMV's y and ELL SpMV's y as scaled integers (i8, i16, i32
 * with one scale or one per element), scaled f16/bf16/f32/f64/dd, and unscaled f16, bf16 or integers — each result stored by the
 * JavaScript kernel's own store (the pair divided by the scale, a scaled integer rounded once from the exact quotient,
 * saturating): the JavaScript kernel's stored words and scales, bit for bit (Object.is: ±0 differ, a NaN compared as
 * NaN), over strides of either sign, sub-ranges inside sentinels, n = 0, 1 and across a staging chunk, α = 0, β = 0
 * with NaN in y, NaN/±∞/subnormal inputs, tiny scales that saturate. The automatic choice picks WebAssembly (but for SCAL's x and AXPY's y scaled per
 * element: read through a twin, they stay in JavaScript).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, cpuBackendOf, ellOperand, ellSpmv, formats, gemv, scal, waxpby, ELL_PADDING } from '../../src/index.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';
import { buildMatrix, buildVector } from '../kernels/matrix-kernel-fixtures.js';
import { expectSameParts, SPECIALS } from './dd-output-fixtures.js';
import { outputSpec, outputVector, startValue, storedWords, type OutputSpec, type ScaleKind } from './stored-output-fixtures.js';
import '../../src/formats/dd/register.js';

/** The scale kinds these tests draw: none, one, one per element (the JavaScript store's cursor steps them). */
const KINDS: readonly ScaleKind[] = ['none', 'one', 'per-element'];
const DD = { arithmetic: formats.dd };

/** Input values: moderate and large (saturating under small scales), and now and then a special one. */
function valueSource(seed: number, special: boolean): () => number {
  const random = seededRandom(seed);
  return () => {
    const r = random.nextDouble();
    if (special && r < 0.15) return SPECIALS[Math.floor(random.nextDouble() * SPECIALS.length)]!;
    return r < 0.3 ? (random.nextDouble() * 2 - 1) * 1e6 : random.nextDouble() * 2 - 1;
  };
}

const startOf = (spec: OutputSpec, n: number, nan: boolean, seed: number): number[] => {
  const random = seededRandom(seed + 7);
  return Array.from({ length: n }, () => startValue(spec.storage, nan, random.nextDouble()));
};

describe('WebAssembly element-wise updates in double-double into outputs stored by the JavaScript store', () => {
  const updateCase = fc.record({
    kernel: fc.constantFrom('scal' as const, 'axpy' as const, 'waxpby' as const),
    n: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 17 }) }, { weight: 1, arbitrary: fc.constant(CHUNK + 3) }),
    out: outputSpec(KINDS), x: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'i16s' as const), stride: fc.constantFrom(1, -2), sub: fc.boolean() }),
    alpha: fc.constantFrom(0, 1, -1, 0.5, 3, 0.1), beta: fc.constantFrom(0, 1, -0.75), special: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
  });
  it('the JavaScript kernel\'s stored words and scales, bit for bit; WebAssembly is the automatic choice but over a vector read per element', () => {
    fc.assert(fc.property(updateCase, (c) => {
      const v = valueSource(c.seed, c.special);
      const xs = Array.from({ length: c.n }, v), ys = Array.from({ length: c.n }, v);
      const start = startOf(c.out, c.n, c.kernel === 'waxpby', c.seed);
      // SCAL's x and AXPY's y are read too: scaled per element, the automatic choice keeps them in JavaScript (a twin's pass).
      const auto = c.out.scaleKind === 'per-element' && c.kernel !== 'waxpby' ? 'js' : 'wasm';
      const run = (backend: 'wasm' | 'js'): number[] => {
        const out = outputVector(c.out, start);
        // A scaled integer x holds finite values only (fitScales).
        const x = buildVector(c.x, c.x.storage === 'i16s' ? xs.map((e) => (Number.isFinite(e) ? e : 0)) : xs, 'f64', 1e6), y = buildVector({ storage: 'f64', stride: 1, sub: false }, ys);
        if (c.kernel === 'scal') {
          if (backend === 'wasm') expect(cpuBackendOf('scal', { x: out }, DD, ['x']).backend).toBe(auto);
          scal(c.alpha, out, { ...DD, backend });
        } else if (c.kernel === 'axpy') {
          if (backend === 'wasm') expect(cpuBackendOf('axpy', { x, y: out }, DD, ['y']).backend).toBe(auto);
          axpy(c.alpha, x, out, { ...DD, backend });
        } else {
          if (backend === 'wasm') expect(cpuBackendOf('waxpby', { x, y, w: out }, DD, ['w'])).toEqual({ backend: 'wasm' });
          waxpby(c.alpha, x, c.beta, y, out, { ...DD, backend });
        }
        return storedWords(out);
      };
      // A 16-bit NaN's sign is the engine's: every NaN code of the storage compares as one.
      expectSameParts(run('wasm'), run('js'), `${c.kernel} into ${c.out.scaleKind}-scaled ${c.out.storage}`);
    }), { numRuns: 250 });
  });

  it('saturation and zero signs: results beyond i8/i16/i32 under tiny scales, ±0 under scales of either sign', () => {
    for (const storage of ['i8', 'i16', 'i32', 'f16', 'f64'] as const) {
      for (const scale of [2 ** -40, -(2 ** -40), 0.5, -0.5, 2 ** -1074]) {
        const spec: OutputSpec = { storage, scaleKind: 'one', scales: [scale], stride: 1, sub: false };
        const run = (backend: 'wasm' | 'js'): number[] => {
          const x = buildVector({ storage: 'f64', stride: 1, sub: false }, [1e6, -1e6, -0, 0, 3, 2 ** -1074, NaN, Infinity]);
          const out = outputVector(spec, [1, -1, 0, 0, 2, 0, 1, 1].map((k) => (storage.startsWith('i') ? k : k * 0.25)));
          axpy(-1, x, out, { ...DD, backend });
          scal(-3, out, { ...DD, backend });
          return storedWords(out);
        };
        expectSameParts(run('wasm'), run('js'), `${storage} under ${scale}`);
      }
    }
  });
});

const NUMERICS = { dd: { arithmetic: formats.dd }, 'dd-accumulation': { arithmetic: formats.f64, accumulation: 'dd' } } as const;

describe('WebAssembly GEMV and ELL SpMV summed in double-double into outputs stored by the JavaScript store', () => {
  const common = {
    numerics: fc.constantFrom('dd' as const, 'dd-accumulation' as const), y: outputSpec(KINDS),
    alpha: fc.constantFrom(1, -1, 0.5, 3), beta: fc.constantFrom(0, 1, -1, 0.75), special: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
  };
  it('GEMV by columns: the JavaScript kernel\'s stored words and scales, bit for bit', () => {
    const gemvCase = fc.record({ ...common, m: fc.integer({ min: 0, max: 13 }), n: fc.integer({ min: 0, max: 9 }), trans: fc.constantFrom('N' as const, 'T' as const) });
    fc.assert(fc.property(gemvCase, (c) => {
      const v = valueSource(c.seed, c.special);
      const [rows, cols] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      // op(A) by columns (the JavaScript's order): column-major A untransposed, row-major A transposed.
      const A = buildMatrix({ storage: 'f64', layout: c.trans === 'N' ? 'col' : 'row', sub: false, scaleRows: false }, rows, cols, () => v());
      const x = buildVector({ storage: 'f64', stride: -1, sub: true }, Array.from({ length: c.n }, v));
      const start = startOf(c.y, c.m, c.beta === 0, c.seed);
      const options = NUMERICS[c.numerics];
      const run = (backend: 'wasm' | 'js'): number[] => {
        const y = outputVector(c.y, start);
        if (backend === 'wasm' && c.m > 0) expect(cpuBackendOf('gemv', { A, x, y }, options, ['y'])).toEqual({ backend: 'wasm' });
        gemv({ alpha: c.alpha, A, x, beta: c.beta, y, trans: c.trans }, { ...options, backend });
        return storedWords(y);
      };
      expectSameParts(run('wasm'), run('js'), `gemv ${c.numerics} into ${c.y.scaleKind}-scaled ${c.y.storage}`);
    }), { numRuns: 200 });
  });

  it('ELL SpMV: the JavaScript kernel\'s stored words and scales, bit for bit', () => {
    const ellCase = fc.record({ ...common, rows: fc.integer({ min: 0, max: 17 }), cols: fc.integer({ min: 1, max: 7 }), width: fc.integer({ min: 1, max: 3 }) });
    fc.assert(fc.property(ellCase, (c) => {
      const v = valueSource(c.seed, c.special), random = seededRandom(c.seed + 1);
      const colIndex = new Int32Array(c.rows * c.width).fill(ELL_PADDING);
      for (let i = 0; i < c.rows; i++) {
        const length = Math.floor(random.nextDouble() * (c.width + 1));
        for (let k = 0; k < length; k++) colIndex[i + k * c.rows] = Math.floor(random.nextDouble() * c.cols);
      }
      const V = buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, c.rows, c.width, () => v());
      const A = ellOperand({ rows: c.rows, cols: c.cols, width: c.width, stride: c.rows, colIndex }, V);
      const x = buildVector({ storage: 'f64', stride: 2, sub: false }, Array.from({ length: c.cols }, v));
      const start = startOf(c.y, c.rows, c.beta === 0, c.seed);
      const options = NUMERICS[c.numerics];
      const run = (backend: 'wasm' | 'js'): number[] => {
        const y = outputVector(c.y, start);
        if (backend === 'wasm' && c.rows > 0) expect(cpuBackendOf('ellSpmv', { x, y }, options, ['y'])).toEqual({ backend: 'wasm' });
        ellSpmv({ alpha: c.alpha, A, x, beta: c.beta, y }, { ...options, backend });
        return storedWords(y);
      };
      expectSameParts(run('wasm'), run('js'), `ellSpmv ${c.numerics} into ${c.y.scaleKind}-scaled ${c.y.storage}`);
    }), { numRuns: 200 });
  });
});
