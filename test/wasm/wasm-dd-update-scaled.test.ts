/**
 * AXPY and WAXPBY in WebAssembly in double-double arithmetic over inputs with one scale (issue 20): x (and WAXPBY's y)
 * in i8, i16, i32, f32, f64, dd or dd-split storage, read as the JavaScript reads them — the pair (v, 0) (dd storage:
 * its own pair) times (s, 0) by the template's whole product, its cross term vh·0 and zero-sign repair included —
 * then the update, stored into dd, dd-split, f64 or f32: the JavaScript kernel's stored parts bit for bit (zero
 * signs too). Negative scales, powers of two, scales near the top and bottom of the range (the splitting overflows:
 * the JavaScript's answer), saturated codes, ±0, NaN/±∞, strides of either sign, sub-ranges inside sentinels,
 * n = 0, 1, odd and across a staging chunk; zero scales. Scaled outputs (AXPY's y, WAXPBY's w, SCAL's x) run too
 * (wasm-dd-stored-outputs.test.ts), and a scale per element (wasm-per-element-scales.test.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, cpuBackendOf, formats, range, scal, scaledReducedRowMajor, span, waxpby, type Range } from '../../src/index.js';
import { CHUNK } from '../../src/backends/wasm/wasm-storage.js';
import { ddVector, expectSameParts, rawParts, type DdLayout, type Pair } from './dd-output-fixtures.js';
import { buildVector } from '../kernels/matrix-kernel-fixtures.js';
import '../../src/formats/dd/register.js';

type InputStorage = 'i8' | 'i16' | 'i32' | 'f32' | 'f64' | 'dd' | 'ddSplit';
const INPUTS: readonly InputStorage[] = ['i8', 'i16', 'i32', 'i8', 'i16', 'f32', 'f64', 'dd', 'ddSplit'];
type OutputStorage = 'f64' | 'f32' | DdLayout;
const DD = { arithmetic: formats.dd };

/** A vector of `storage` with one scale holding raw codes or pairs (the rest of its buffer a sentinel). */
function scaledVector(storage: InputStorage, stored: readonly Pair[], scale: number, stride: number, sub: boolean): Range<1, any> {
  const n = stored.length, N = sub ? n + 3 : n;
  const parent = scaledReducedRowMajor<1, any>({ size: [N], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false], stride });
  const st = parent.storage;
  parent.scale!.data[0] = scale;
  const put = (a: typeof parent, i: number, v: Pair): void => st.encode(a.data as never, a.linearIndex([i]), (st.kind === 'dd' ? v : v.hi) as never);
  for (let i = 0; i < N; i++) put(parent, i, { hi: st.isInteger ? 0 : NaN, lo: 0 });
  const view = sub ? parent.sub(span(1, 1 + n)) : parent;
  stored.forEach((v, i) => put(view, i, v));
  return range(view);
}

/** Stored values: integer codes (saturated ones and 0 often), doubles with ±0 and (`specials`) NaN/±∞, dd pairs. */
function storedOf(storage: InputStorage, specials: boolean): fc.Arbitrary<Pair> {
  const st = scaledReducedRowMajor<1, any>({ size: [1], storage: formats[storage], arithmetic: formats.f64, scaleMask: [false] }).storage;
  if (st.isInteger) {
    const max = st.maxValue;
    return fc.oneof({ weight: 5, arbitrary: fc.integer({ min: -max, max }) }, { weight: 2, arbitrary: fc.constantFrom(max, -max, 0, 1, -1) }).map((hi) => ({ hi, lo: 0 }));
  }
  const special = specials ? fc.constantFrom(NaN, Infinity, -Infinity, -0, 0) : fc.constantFrom(-0, 0);
  const hi = fc.oneof({ weight: 8, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) }, { weight: 2, arbitrary: special });
  if (st.kind !== 'dd') return hi.map((h) => ({ hi: st.name === 'f32' ? Math.fround(h) : h, lo: 0 }));
  // dd pairs: a low part below half an ulp of the high part, or a zero of either sign.
  return fc.tuple(hi, fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(-0, 0))).map(([h, r]) => ({ hi: h, lo: Number.isFinite(h) && h !== 0 ? h * r * 2 ** -54 : r === 0 ? r : 0 }));
}

/** Scales: moderate of either sign, powers of two, and (`extremes`) near the top and bottom of the range. */
function scaleOf(extremes: boolean): fc.Arbitrary<number> {
  const moderate = fc.double({ min: 2 ** -30, max: 2 ** 30, noNaN: true }).chain((s) => fc.constantFrom(s, -s));
  const pow2 = fc.integer({ min: -60, max: 60 }).chain((k) => fc.constantFrom(2 ** k, -(2 ** k)));
  const edge = fc.constantFrom(2 ** 1000, -(2 ** 997) * 1.5, 2 ** -1060, -(2 ** -1040) * 3, 0.1, -0.1, 1);
  return extremes ? fc.oneof({ weight: 5, arbitrary: moderate }, { weight: 3, arbitrary: pow2 }, { weight: 2, arbitrary: edge }) : fc.oneof(moderate, pow2);
}

const operand = (n: number, extremes: boolean) => fc.record({ storage: fc.constantFrom(...INPUTS), scale: scaleOf(extremes), stride: fc.constantFrom(1, 1, 2, -1, -3), sub: fc.boolean() })
  .chain((o) => fc.array(storedOf(o.storage, extremes), { minLength: n, maxLength: n }).map((stored) => ({ ...o, stored })));
type Operand = typeof operand extends (...a: any[]) => fc.Arbitrary<infer O> ? O : never;
const build = (o: Operand): Range<1, any> => scaledVector(o.storage, o.stored, o.scale, o.stride, o.sub);

const updateCase = fc.record({
  n: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 19 }) }, { weight: 1, arbitrary: fc.constant(CHUNK + 5) }),
  extremes: fc.boolean(),
}).chain(({ n, extremes }) => fc.record({
  kernel: fc.constantFrom('axpy' as const, 'waxpby' as const), x: operand(n, extremes),
  // WAXPBY's y: scaled (an operand) or unscaled fp64 (null).
  y: fc.option(operand(n, extremes), { freq: 3 }), yValues: fc.array(fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(-0, 0)), { minLength: n, maxLength: n }),
  out: fc.record({ storage: fc.constantFrom<OutputStorage>('dd', 'dd-split', 'f64', 'f32'), stride: fc.constantFrom(1, -1, 2), sub: fc.boolean() }),
  alpha: fc.constantFrom(1, -1, 0.5, 3, -0.75, 0.1), beta: fc.constantFrom(0, 1, -1, 0.25, -3),
}));

/** An unscaled output (or AXPY's y) holding `values`. */
function outputOf(spec: { storage: OutputStorage; stride: number; sub: boolean }, values: readonly number[]): Range<1, any> {
  const pairs = values.map((hi) => ({ hi, lo: 0 }));
  return spec.storage === 'dd' || spec.storage === 'dd-split' ? ddVector({ layout: spec.storage, stride: spec.stride, sub: spec.sub }, pairs) : buildVector({ storage: spec.storage, stride: spec.stride, sub: spec.sub }, values);
}

const partsOf = (r: Range<1, any>): number[] => (r.accessor.storage.kind === 'dd' ? rawParts(r) : Array.from(r.accessor.data as Float64Array));

describe('WebAssembly AXPY and WAXPBY in double-double over inputs with one scale', () => {
  it('the JavaScript kernel\'s stored parts, bit for bit (zero signs included); WebAssembly is the automatic choice', () => {
    fc.assert(fc.property(updateCase, (c) => {
      const run = (backend: 'wasm' | 'js'): number[] => {
        const x = build(c.x);
        const y = c.y ? build(c.y) : outputOf({ storage: 'f64', stride: 1, sub: false }, c.yValues);
        const out = outputOf(c.out, c.yValues);
        if (c.kernel === 'axpy') {
          if (backend === 'wasm') expect(cpuBackendOf('axpy', { x, y: out }, DD, ['y'])).toEqual({ backend: 'wasm' });
          axpy(c.alpha, x, out, { ...DD, backend });
        } else {
          if (backend === 'wasm') expect(cpuBackendOf('waxpby', { x, y, w: out }, DD, ['w'])).toEqual({ backend: 'wasm' });
          waxpby(c.alpha, x, c.beta, y, out, { ...DD, backend });
        }
        return partsOf(out);
      };
      expectSameParts(run('wasm'), run('js'), `${c.kernel} wasm against js`);
    }), { numRuns: 300 });
  });

  it('zero signs: ±0 codes and values under scales of either sign, α of either sign, into dd and f64', () => {
    for (const [storage, v, s] of [['i8', 0, -2], ['i16', 0, 0.1], ['f64', -0, 3], ['f64', -0, -0.5], ['dd', -0, -1], ['i32', 5, 2 ** -1074], ['i8', -3, -(2 ** -1073)], ['i16', 9, -0], ['f32', -2, 0]] as const) {
      for (const alpha of [1, -1, 0.5]) {
        for (const layout of ['dd', 'f64'] as const) {
          const run = (backend: 'wasm' | 'js'): number[] => {
            const x = scaledVector(storage, [{ hi: v, lo: 0 }, { hi: 7, lo: 0 }, { hi: v, lo: 0 }], s, 1, false);
            const y = outputOf({ storage: layout, stride: 1, sub: false }, [-0, 0, 1]);
            axpy(alpha, x, y, { ...DD, backend });
            const w = outputOf({ storage: layout, stride: -1, sub: true }, [0, 0, 0]);
            waxpby(alpha, x, 0, y, w, { ...DD, backend });
            return [...partsOf(y), ...partsOf(w)];
          };
          expectSameParts(run('wasm'), run('js'), `${storage} ${v}·${s}, α = ${alpha}, into ${layout}`);
        }
      }
    }
  });

  it('scaled outputs (AXPY\'s y, WAXPBY\'s w, SCAL\'s x) run through the JavaScript store (wasm-dd-stored-outputs.test.ts); so does a scale per element', () => {
    const x = scaledVector('i16', [{ hi: 1, lo: 0 }, { hi: 2, lo: 0 }], 0.5, 1, false);
    const run = (backend: 'wasm' | 'js'): number[] => {
      const y = scaledVector('i16', [{ hi: 3, lo: 0 }, { hi: 4, lo: 0 }], 0.25, 1, false);
      const w = scaledVector('i8', [{ hi: 3, lo: 0 }, { hi: 4, lo: 0 }], -0.5, -1, true);
      axpy(2, x, y, { ...DD, backend });
      waxpby(2, x, 1, y, w, { ...DD, backend });
      scal(3, y, { ...DD, backend });
      return [...(y.accessor.data as Int16Array), ...(w.accessor.data as Int8Array)];
    };
    expect(run('wasm')).toEqual(run('js'));
    expect(cpuBackendOf('scal', { x }, DD, ['x'])).toEqual({ backend: 'wasm' });
    // A scale per element of an input runs too, read from a twin of the JavaScript's reads (wasm-per-element-scales.test.ts).
    const perElement = range(scaledReducedRowMajor<1, any>({ size: [2], storage: formats.i16, arithmetic: formats.f64, scaleMask: [true], scale: Float64Array.of(0.5, -3) }));
    perElement.set(0, 7); perElement.set(1, -0);
    const both = (backend: 'wasm' | 'js'): number[] => {
      const out = outputOf({ storage: 'f64', stride: 1, sub: false }, [1, 2]);
      axpy(2, perElement, out, { ...DD, backend });
      waxpby(2, x, 1, perElement, out, { ...DD, backend });
      return partsOf(out);
    };
    expectSameParts(both('wasm'), both('js'), 'a scale per element');
  });
});
