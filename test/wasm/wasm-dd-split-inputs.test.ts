/**
 * dd-split storage as an input operand in WebAssembly (issue 20): staged interleaved, it is read exactly as dd storage
 * is — the same results, bit for bit, as the same pairs in interleaved dd storage on the WebAssembly (whose bits
 * against the JavaScript are the other test/wasm files' subject) — for DOT, GEMV, TRSV, ELL SpMV, AXPY, WAXPBY in fp64,
 * fp32 and double-double arithmetic, ASUM and NRM2 in fp64 and fp32, with strides (negative too), sub-ranges inside NaN sentinels,
 * size 0 and 1, NaN/±∞/±0/subnormal values; and the automatic choice takes WebAssembly for them.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dot, gemv, trsv, ellSpmv, axpy, waxpby, asum, nrm2, ellOperand, formats, cpuBackendOf, vector, matrix, range, rowMajor, span, type Range } from '../../src/index.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { ddVector, expectSameParts, pairOf, SPECIALS, type DdLayout, type Pair } from './dd-output-fixtures.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';

const ARITHMETICS = { f64: formats.f64, f32: formats.f32, dd: formats.dd } as const;

/** An m×n matrix of pairs in dd or dd-split storage (row-major with a padded stride, or its transpose view). */
function ddMatrix(layout: DdLayout, m: number, n: number, entry: (i: number, j: number) => Pair): Range<2, any> {
  const storage = layout === 'dd' ? formats.dd : formats.ddSplit;
  const r = range(rowMajor<2, any>({ size: [m, n], storage, arithmetic: formats.f64, stride: n + 1 }));
  const a = r.accessor;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) a.storage.encode(a.data as never, a.linearIndex([i, j]), entry(i, j));
  return r;
}

const raw = (r: Range<1, any>): number[] => [...(r.accessor.data as Float64Array)];

const inputCase = fc.record({
  n: fc.integer({ min: 0, max: 21 }), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(), special: fc.boolean(),
  arithmetic: fc.constantFrom('f64' as const, 'f32' as const, 'dd' as const), seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

describe('dd-split inputs in WebAssembly', () => {
  it('every kernel reads dd-split as it reads the same pairs in dd storage', () => {
    fc.assert(fc.property(inputCase, (c) => {
      const random = seededRandom(c.seed);
      const value = (): number => (c.special && random.nextDouble() < 0.2 ? SPECIALS[Math.floor(random.nextDouble() * SPECIALS.length)]! : random.nextDouble() * 2 - 1);
      const xs = Array.from({ length: c.n }, () => pairOf(value(), random.nextDouble() * 2 - 1));
      const ys = Array.from({ length: c.n }, () => pairOf(value(), random.nextDouble() * 2 - 1));
      const As = Array.from({ length: c.n * c.n }, () => pairOf(random.nextDouble() - 0.5, random.nextDouble() * 2 - 1));
      const vec = (layout: DdLayout, v: Pair[]): Range<1, any> => ddVector({ layout, stride: c.stride, sub: c.sub }, v);
      const mat = (layout: DdLayout): Range<2, any> => ddMatrix(layout, c.n, c.n, (i, j) => (i === j ? { hi: 2 + As[i * c.n + j]!.hi, lo: 0 } : As[i * c.n + j]!));
      const options = { arithmetic: ARITHMETICS[c.arithmetic], backend: 'wasm' as const };
      const both = <T>(run: (layout: DdLayout) => T): [T, T] => [run('dd-split'), run('dd')];
      const same = (what: string, [split, dd]: [number, number]): void => expect(Object.is(split, dd) || (Number.isNaN(split) && Number.isNaN(dd)), `${what}: ${split} vs ${dd}`).toBe(true);
      const sameOut = (what: string, [split, dd]: [Range<1, any>, Range<1, any>]): void => expectSameParts(raw(split), raw(dd), what);

      const auto = { arithmetic: options.arithmetic };
      if (c.n > 0) expect(cpuBackendOf('dot', { x: vec('dd-split', xs), y: vec('dd-split', ys) }, auto).backend).toBe('wasm');
      same('dot', both((l) => dot(vec(l, xs), vec(l, ys), options)));
      same('asum', both((l) => asum(vec(l, xs), options)));
      same('nrm2', both((l) => nrm2(vec(l, xs), options)));
      sameOut('axpy', both((l) => { const y = vector(ys.map((p) => p.hi)); axpy(0.75, vec(l, xs), y, options); return y; }));
      sameOut('waxpby', both((l) => { const w = vector(c.n); waxpby(0.5, vec(l, xs), -3, vec(l, ys), w, options); return w; }));
      for (const trans of ['N', 'T'] as const) {
        sameOut(`gemv ${trans}`, both((l) => { const y = vector(c.n); gemv({ alpha: 1.5, A: mat(l), x: vec(l, xs), beta: 0, y, trans }, options); return y; }));
        // TRSV reads A (well-conditioned: a dominant diagonal); x, its output, stays f64.
        if (c.arithmetic !== 'dd' || c.n > 0) {
          sameOut(`trsv ${trans}`, both((l) => { const x = vector(xs.map((p) => p.hi)); trsv({ A: mat(l), x, uplo: 'L', trans, diag: 'N' }, options); return x; }));
        }
      }
      // ELL SpMV over A's rows as slots (every column a slot), values in dd or dd-split.
      if (c.n > 0 && c.arithmetic !== 'f32') {
        const colIndex = Int32Array.from({ length: c.n * c.n }, (_, k) => k % c.n);
        sameOut('ellSpmv', both((l) => {
          const V = mat(l);
          const A = ellOperand({ rows: c.n, cols: c.n, width: c.n, stride: c.n, colIndex }, V);
          const y = vector(c.n);
          ellSpmv({ alpha: 1, A, x: vec(l, xs), beta: 0, y }, options);
          return y;
        }));
      }
    }), { numRuns: 150 });
  });

  it('a long dd-split DOT crosses staging chunks as dd does', () => {
    const n = 9000, random = seededRandom(7);
    const xs = Array.from({ length: n }, () => pairOf(random.nextDouble() - 0.5, random.nextDouble()));
    const x = ddVector({ layout: 'dd-split', stride: 1, sub: false }, xs), xd = ddVector({ layout: 'dd', stride: 1, sub: false }, xs);
    expect(x.accessor.data).toBeInstanceOf(DdSplitArray);
    for (const arithmetic of [formats.f64, formats.dd]) {
      expect(Object.is(dot(x, x, { arithmetic, backend: 'wasm' }), dot(xd, xd, { arithmetic, backend: 'wasm' }))).toBe(true);
    }
    expect(matrix(1, 1, () => 1).length(0)).toBe(1);
    expect(range(rowMajor<1, any>({ size: [3], storage: formats.ddSplit })).sub(span(1, 2)).length()).toBe(1);
  });
});
