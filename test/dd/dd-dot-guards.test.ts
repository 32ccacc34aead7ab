import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import '../../src/formats/dd/register.js';
import { vector, dot, range, rowMajor } from '../../src/index.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { ddMulAccumulate } from '../../src/formats/dd/mul.js';
import type { DdValue } from '../../src/formats/dd/dd-arithmetic.js';
import { guard, withoutGuards, unguardedFirst } from '../../src/backends/cpu/guards.js';
import { exactDot } from '../../src/testing/exact.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';

type Pairs = [number, number][];
const split = (v: Pairs) => range(rowMajor<1, DdValue>({ size: v.length, storage: 'dd-split', data: new DdSplitArray({ hi: Float64Array.from(v, (p) => p[0]), lo: Float64Array.from(v, (p) => p[1]) }) }));
const interleaved = (v: Pairs) => range(rowMajor<1, DdValue>({ size: v.length, storage: 'dd', data: Float64Array.from(v.flat()) }));
const cell = () => range(rowMajor<1, DdValue>({ size: 1, storage: 'dd' }));
/** The DD DOT as the recursive kernel defines it: s := x_i·y_i + s with the guarded ddMulAccumulate. */
function reference(x: Pairs, y: Pairs): [number, number] {
  const s = new Float64Array(2);
  x.forEach((a, i) => ddMulAccumulate(s, a[0], a[1], y[i]![0], y[i]![1], s[0]!, s[1]!));
  return [s[0]!, s[1]!];
}
/** A normalised DD near v (the low part well below half an ulp of the high part). */
const dd = (v: number, k: number): [number, number] => [v, v * 2 ** -(55 + (k % 7))];
const pairs = (n: number) => fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }).map((a) => a.map(dd));

describe('guards: rare-case statements run out of the loop', () => {
  it('withoutGuards removes exactly the marked statements', () => {
    const src = `a = 1; ${guard('if (e - e !== 0) e = f(e);')} b = 2; ${guard('if (g !== g) g = 0;')}`;
    expect(withoutGuards(src)).toBe('a = 1;  b = 2; ');
    expect(withoutGuards('x = 1;')).toBe('x = 1;');
  });

  it('unguardedFirst: one loop when there is nothing to strip or the accumulation does not promise propagation', () => {
    const loop = (b: string) => `for (;;) { ${b} }`;
    expect(unguardedFirst(loop, 's += 1;', 'r = s;', 'r', 's = 0;', true)).toBe('for (;;) { s += 1; }\nr = s;');
    const body = `s += 1; ${guard('if (s !== s) s = 0;')}`;
    expect(unguardedFirst(loop, body, 'r = s;', 'r', 's = 0;', false)).toBe(`${loop(body)}\nr = s;`);
    const both = unguardedFirst(loop, body, 'r = s;', 'r', 's = 0;', true);
    expect(both).toContain('for (;;) { s += 1;  }');
    expect(both).toContain(`if (!Number.isFinite(r)) {\ns = 0;\n${loop(body)}`);
  });
});

describe('DD DOT without per-element overflow tests: results identical to the guarded loop', () => {
  it('finite data: bit for bit the sequence of guarded ddMulAccumulate steps (split and interleaved layouts)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }).chain((n) => fc.tuple(pairs(n), pairs(n))), ([x, y]) => {
      const want = reference(x, y);
      for (const make of [split, interleaved]) {
        const out = cell();
        // The generated JavaScript's loop (WebAssembly, the automatic choice, sums in lanes: another order, same bound).
        const r = dot(make(x), make(y), { into: out, backend: 'js' });
        expect([out.get(0).hi, out.get(0).lo]).toEqual(want);
        expect(r).toBe(want[0] + want[1]);
      }
    }), { numRuns: 200 });
  });

  it('operands beyond the splitting limit (2^996): the fast loop overflows, the guarded loop reruns and is exact', () => {
    const x: Pairs = [[0.5, 0], [2 ** 1000 + 2 ** 960, 0], [3, 2 ** -60], [-(2 ** 1010), 0]];
    const y: Pairs = [[0.25, 0], [2 ** -30 + 2 ** -80, 0], [1 / 3, 0], [2 ** -40, 0]];
    const want = reference(x, y);
    expect(Number.isFinite(want[0])).toBe(true);
    for (const make of [split, interleaved]) {
      const out = cell();
      dot(make(x), make(y), { into: out });
      expect([out.get(0).hi, out.get(0).lo]).toEqual(want);
    }
    // fp64 data with a large factor: DD arithmetic, and the dd and dot2 accumulations in fp64 are exact here.
    const xs = [2 ** 1000 + 2 ** 960, 1, -(2 ** 998)], ys = [2 ** -30 + 2 ** -80, 2 ** -100, 2 ** -40];
    const exact = roundRationalToDouble(exactDot(xs, ys));
    expect(dot(vector(xs, { arithmetic: 'dd' }), vector(ys))).toBe(exact);
    expect(dot(vector(xs), vector(ys), { accumulation: 'dd' })).toBe(exact);
    expect(dot(vector(xs), vector(ys), { accumulation: 'dot2' })).toBe(exact);
    expect(dot(vector(xs, { arithmetic: 'dd' }), vector(ys), { accumulation: 'pairwise' })).toBe(exact);
  });

  it('NaN, infinities and an overflowing sum give a non-finite result (DD kernels give NaN for ±∞ inputs)', () => {
    const one: [number, number] = [1, 0];
    const nonFinite = (r: number) => expect(Number.isFinite(r)).toBe(false);
    expect(dot(split([one, [NaN, 0]]), split([one, one]))).toBeNaN();
    nonFinite(dot(split([[Infinity, 0], one]), split([one, one])));
    nonFinite(dot(interleaved([[-Infinity, 0], one]), interleaved([one, one])));
    nonFinite(dot(split([[2 ** 1023, 0], [2 ** 1023, 0]]), split([[1.5, 0], [1.5, 0]])));
    const out = cell();
    dot(split([[Infinity, 0], one]), split([one, one]), { into: out });
    nonFinite(out.get(0).hi);
    expect(dot(vector([1, NaN], { arithmetic: 'dd' }), vector([1, 1]))).toBeNaN();
    nonFinite(dot(vector([Infinity, 1]), vector([1, 1]), { accumulation: 'dot2' }));
    nonFinite(dot(vector([2 ** 1000, 1]), vector([2 ** 30, 1]), { accumulation: 'dd' }));
  });
});
