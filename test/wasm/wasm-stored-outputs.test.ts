/**
 * Outputs the WebAssembly does not write itself (issue 20): AXPY, WAXPBY, SCAL, GEMV and ELL SpMV in fp64 and fp32
 * arithmetic into scaled int16 (one scale), fp16 and bf16 storage, with strides (negative too) and sub-ranges inside
 * sentinels — run in WebAssembly and stored by the JavaScript kernels' own store: the JavaScript's stored bits and
 * scales (GEMV reading op(A) by columns, where both sum in the same order), NaN/±∞/±0/subnormal values included;
 * the automatic choice takes WebAssembly for them; double-double arithmetic into them too (wasm-dd-stored-outputs.test.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, waxpby, scal, gemv, ellSpmv, ellOperand, formats, cpuBackendOf, vector, ELL_PADDING, type Range } from '../../src/index.js';
import { buildMatrix, buildVector, type StorageName } from '../kernels/matrix-kernel-fixtures.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';

const SPECIALS = [NaN, Infinity, -Infinity, 0, -0, 2 ** -1074, -(2 ** -1060), 2 ** -1022];
type OutStorage = Extract<StorageName, 'i16s' | 'f16' | 'bf16'>;

/**
 * Every element of a range's buffer decoded (sentinels included; a NaN compared as NaN: IEEE 754 leaves its sign and
 * payload open between two programs), then its scales (a scaled range's).
 */
const raw = (r: Range<1, any>): number[] => {
  const a = r.accessor, data = a.data as ArrayLike<number>;
  return [...Array.from({ length: data.length }, (_, k) => a.storage.decode(data as never, k) as number), ...(a.scale ? [...a.scale.data] : [])];
};

const outCase = fc.record({
  kernel: fc.constantFrom('axpy' as const, 'waxpby' as const, 'scal' as const, 'gemv' as const, 'ellSpmv' as const),
  arithmetic: fc.constantFrom('f64' as const, 'f32' as const), out: fc.constantFrom<OutStorage>('i16s', 'f16', 'bf16'),
  n: fc.integer({ min: 0, max: 19 }), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean(), trans: fc.constantFrom('N' as const, 'T' as const),
  alpha: fc.constantFrom(1, -0.75, 3), beta: fc.constantFrom(0, 1, 0.5), special: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

describe('WebAssembly into scaled, fp16 and bf16 outputs', () => {
  it("the JavaScript kernel's stored bits", () => {
    fc.assert(fc.property(outCase, (c) => {
      const run = (backend: 'wasm' | 'js'): number[] => {
        const random = seededRandom(c.seed);
        const v = (): number => (c.special && c.out !== 'i16s' && random.nextUint32() % 5 === 0 ? SPECIALS[random.nextUint32() % SPECIALS.length]! : (random.nextDouble() * 2 - 1) * 2 ** -(random.nextUint32() % 6));
        const vec = (values: number[]): Range<1, any> => buildVector({ storage: 'f64', stride: c.stride, sub: c.sub }, values);
        const out = buildVector({ storage: c.out, stride: c.stride, sub: c.sub }, Array.from({ length: c.n }, v), c.arithmetic, 64);
        const options = { arithmetic: formats[c.arithmetic], backend };
        const x = vec(Array.from({ length: c.n }, v)), y = vec(Array.from({ length: c.n }, v));
        switch (c.kernel) {
          case 'axpy': axpy(c.alpha, x, out, options); break;
          case 'waxpby': waxpby(c.alpha, x, c.beta, y, out, options); break;
          case 'scal': scal(c.alpha, out, options); break;
          case 'gemv': {
            // op(A) read by columns: column-major A untransposed, row-major transposed (the JavaScript's order).
            const A = buildMatrix({ storage: 'f32', layout: c.trans === 'N' ? 'col' : 'row', sub: c.sub, scaleRows: false }, c.n, c.n, () => v() / 4);
            gemv({ alpha: c.alpha, A, x, beta: c.beta, y: out, trans: c.trans }, options);
            break;
          }
          case 'ellSpmv': {
            const width = 3, colIndex = new Int32Array(c.n * width).fill(ELL_PADDING);
            for (let i = 0; i < c.n; i++) for (let k = 0, len = random.nextUint32() % (width + 1); k < len; k++) colIndex[i + k * c.n] = random.nextUint32() % c.n;
            const V = buildMatrix({ storage: 'f64', layout: 'col', sub: false, scaleRows: false }, c.n, width, () => v() / 4);
            ellSpmv({ alpha: c.alpha, A: ellOperand({ rows: c.n, cols: c.n, width, stride: c.n, colIndex }, V), x, beta: c.beta, y: out }, options);
            break;
          }
        }
        if (backend === 'wasm') {
          const writes = c.kernel === 'ellSpmv' || c.kernel === 'gemv' ? { x, y: out } : c.kernel === 'scal' ? { x: out } : { x, y: out };
          expect(cpuBackendOf(c.kernel === 'ellSpmv' ? 'ellSpmv' : c.kernel, writes, { arithmetic: formats[c.arithmetic] }, c.kernel === 'scal' ? ['x'] : ['y']).backend).toBe('wasm');
        }
        return raw(out);
      };
      const wasm = run('wasm'), js = run('js');
      expect(wasm.length).toBe(js.length);
      wasm.forEach((w, k) => expect(Object.is(w, js[k]) || (Number.isNaN(w) && Number.isNaN(js[k])), `element ${k}: ${w} vs ${js[k]}`).toBe(true));
    }), { numRuns: 400 });
  });

  it('double-double arithmetic into a scaled output runs in WebAssembly too, with the JavaScript\'s stored codes (wasm-dd-stored-outputs.test.ts)', () => {
    const run = (backend: 'wasm' | 'js'): number[] => {
      const y = buildVector({ storage: 'i16s', stride: 1, sub: false }, [1, 2]);
      axpy(2, vector([1, 1 / 3]), y, { arithmetic: formats.dd, backend });
      return raw(y);
    };
    expect(run('wasm')).toEqual(run('js'));
  });
});
