/**
 * DOT's `into` in WebAssembly (issue 20): the WebAssembly's result stored into a 1-element range (f64, f32, dd,
 * dd-split; a sub-range inside NaN sentinels, which stay) as the JavaScript DOT stores its result register — the
 * double-double pair kept whole in dd storage (a zero hi's sign in lo), hi − (0 − lo) in f64, rounded to odd then
 * to binary32 in f32 —, the same double returned as without `into`, within dotBound of the exact value; under
 * `pairwise` and `dot2` (the JavaScript's order) the JavaScript kernel's stored parts bit for bit.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, formats, vector, cpuBackendOf, range, rowMajor, span, type Range } from '../../src/index.js';
import { buildVector, exactDotOf, exactVector, errorOf, withinBound, type VectorSpec } from '../kernels/matrix-kernel-fixtures.js';
import { ddTwoProdAccumulate } from '../../src/formats/dd/two-prod-accumulate.js';
import { ddAdd } from '../../src/formats/dd/add.js';
import { roundToOddDd } from '../../src/formats/convert/round-to-odd.js';
import { addRational } from '../../src/testing/rational.js';
import { exactOf } from '../../src/testing/exact.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { expectSameParts } from './dd-output-fixtures.js';

/** The WebAssembly DD DOT's documented order (eight lanes of ddTwoProdAccumulate, the tree of ddAdd) as its pair. */
function laneOrderDdPair(x: readonly number[], y: readonly number[]): [number, number] {
  const s = Array.from({ length: 8 }, () => new Float64Array(2));
  for (let i = 0; i < x.length; i++) { const p = s[i % 8]!; ddTwoProdAccumulate(p, x[i]!, y[i]!, p[0]!, p[1]!); }
  const join = (a: Float64Array, b: Float64Array): Float64Array => { const r = new Float64Array(2); ddAdd(r, a[0]!, a[1]!, b[0]!, b[1]!); return r; };
  const r = join(join(join(s[0]!, s[1]!), join(s[2]!, s[3]!)), join(join(s[4]!, s[5]!), join(s[6]!, s[7]!)));
  return [r[0]!, r[1]!];
}

type IntoStorage = 'f64' | 'f32' | 'dd' | 'dd-split';

/** A 1-element range of `storage`, inside NaN sentinels where `sub`. */
function intoOf(storage: IntoStorage, sub: boolean): Range<1, any> {
  const format = { f64: formats.f64, f32: formats.f32, dd: formats.dd, 'dd-split': formats.ddSplit }[storage];
  const parent = range(rowMajor<1, any>({ size: [sub ? 3 : 1], storage: format, arithmetic: formats.f64 }));
  const data = parent.accessor.data as Float64Array | Float32Array | DdSplitArray;
  if (data instanceof DdSplitArray) { data.hi.fill(NaN); data.lo.fill(NaN); } else data.fill(NaN);
  return sub ? parent.sub(span(1, 2)) : parent;
}

/** Every raw part of into's buffer (sentinels included). */
const partsOf = (r: Range<1, any>): number[] => {
  const data = r.accessor.data as Float64Array | Float32Array | DdSplitArray;
  return data instanceof DdSplitArray ? [...data.hi, ...data.lo] : [...data];
};

/** The parts the JavaScript DOT's store leaves for a result pair (hi, lo) (a double: lo = 0), sentinels around it. */
function storedParts(storage: IntoStorage, sub: boolean, hi: number, lo: number): number[] {
  const element = storage === 'f64' ? [hi - (0 - lo)] : storage === 'f32' ? [Math.fround(roundToOddDd(hi, lo))] : [hi, hi === 0 ? hi : lo];
  if (!sub) return element;
  return storage === 'dd' ? [NaN, NaN, ...element, NaN, NaN] : storage === 'dd-split' ? [NaN, element[0]!, NaN, NaN, element[1]!, NaN] : [NaN, element[0]!, NaN];
}

const spec: fc.Arbitrary<VectorSpec> = fc.record({
  storage: fc.constantFrom('f64' as const, 'f32' as const, 'f16' as const, 'bf16' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(),
});
const NUMERICS = [
  { arithmetic: 'dd', accumulation: 'recursive', pair: true }, { arithmetic: 'dd', accumulation: 'dd', pair: true }, { arithmetic: 'f64', accumulation: 'dd', pair: true },
  { arithmetic: 'f64', accumulation: 'recursive', pair: false }, { arithmetic: 'f32', accumulation: 'recursive', pair: false },
  { arithmetic: 'f64', accumulation: 'kahan', pair: false }, { arithmetic: 'f64', accumulation: 'pairwise', pair: false },
  { arithmetic: 'f32', accumulation: 'dot2', pair: false },
] as const;
const read = (r: Range<1, any>): number[] => Array.from({ length: r.length() }, (_, i) => r.get(i) as number);

describe("WebAssembly DOT's into", () => {
  it('stores the WebAssembly result as the JavaScript DOT stores its register; returns what it returns without into', () => {
    const input = fc.integer({ min: 0, max: 40 }).chain((n) => fc.record({
      a: spec, b: spec, numerics: fc.constantFrom(...NUMERICS), into: fc.constantFrom<IntoStorage>('f64', 'f32', 'dd', 'dd-split'), sub: fc.boolean(),
      x: fc.array(fc.double({ min: -6e4, max: 6e4, noNaN: true }), { minLength: n, maxLength: n }),
      y: fc.array(fc.double({ min: -6e4, max: 6e4, noNaN: true }), { minLength: n, maxLength: n }),
    }));
    fc.assert(fc.property(input, ({ a, b, numerics, into: intoStorage, sub, x: xs, y: ys }) => {
      const x = buildVector(a, xs), y = buildVector(b, ys);
      const options = { arithmetic: formats[numerics.arithmetic], accumulation: numerics.accumulation };
      const into = intoOf(intoStorage, sub);
      // (The automatic choice keeps dot2 in JavaScript: same bits, no faster.)
      expect(cpuBackendOf('dot', { x, y }, options).backend).toBe(numerics.accumulation === 'dot2' ? 'js' : 'wasm');
      const plain = dot(x, y, { ...options, backend: 'wasm' });
      const got = dot(x, y, { ...options, backend: 'wasm', into });
      expect(Object.is(got, plain), `returned ${got}, without into ${plain}`).toBe(true);
      if (numerics.pair) {
        const [hi, lo] = laneOrderDdPair(read(x), read(y));
        // fp64 arithmetic's result register is the pair rounded to a double.
        const stored = numerics.arithmetic === 'dd' ? storedParts(intoStorage, sub, hi, lo) : storedParts(intoStorage, sub, hi + lo, 0);
        expectSameParts(partsOf(into), stored, 'into');
      } else {
        expectSameParts(partsOf(into), storedParts(intoStorage, sub, got, 0), 'into');
      }
      if (numerics.accumulation === 'pairwise' || numerics.accumulation === 'dot2') {
        const js = intoOf(intoStorage, sub);
        dot(x, y, { ...options, backend: 'js', into: js });
        expectSameParts(partsOf(into), partsOf(js), 'into against the JavaScript kernel');
      }
      // The stored value (a dd pair: hi + lo exactly) within dotBound of the exact dot product.
      const exact = exactDotOf(exactVector(x), exactVector(y));
      const p = into.accessor.storage.decode(into.accessor.data as never, into.accessor.offset) as number | { hi: number; lo: number };
      const computed = typeof p === 'number' ? exactOf(p) : addRational(exactOf(p.hi), exactOf(p.lo));
      const bound = dotBound(x, y, { ...options, into });
      if (!withinBound(computed, exact, bound)) throw new Error(`error ${errorOf(computed, exact)} > bound ${bound}`);
    }), { numRuns: 400 });
  });

  it('keeps the low part a double cannot: a dd into resolves a cancellation', () => {
    const x = vector([1, 2 ** -80, -1]), y = vector([1, 1, 1]);
    const into = intoOf('dd', false);
    expect(dot(x, y, { arithmetic: formats.dd, backend: 'wasm', into })).toBe(2 ** -80);
    expect(partsOf(into)).toEqual([2 ** -80, 0]);
    const big = vector([2 ** 60, 1, -(2 ** 60), 2 ** -60]), ones = vector([1, 1, 1, 1]);
    dot(big, ones, { arithmetic: formats.dd, backend: 'wasm', into });
    expect(partsOf(into)).toEqual([1, 2 ** -60]);
  });
});
