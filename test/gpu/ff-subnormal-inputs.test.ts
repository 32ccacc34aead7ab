/**
 * Float-float reads a double below 2^-126 as a signed zero on both backends (formats.ff's read, ffFromNumberInto; WGSL
 * lets an adapter flush binary32 subnormals, so the pair holds none): fp64 storage and the coefficients α, β alike. The
 * GPU kept a tiny α or β as a subnormal head, so α·∞ was ±∞ on the GPU and 0·∞ = NaN on the CPU.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axpy, dot, ellOperand, ellSpmv, ellStructure, formats, gemv, range, rowMajor, scal, toArray, vector, waxpby } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

const ar = formats.ff;
const gpu = { backend: 'gpu', arithmetic: ar, strict: true } as const;
const cpu = { arithmetic: ar } as const;

/** Doubles below binary32's normal range, either sign: binary32 subnormals, values beyond them, double subnormals. */
const tiny = fc.oneof(
  fc.double({ min: 2 ** -149, max: 2 ** -126, noNaN: true, maxExcluded: true }),
  fc.double({ min: 2 ** -1074, max: 2 ** -149, noNaN: true, maxExcluded: true }),
  fc.constantFrom(2 ** -126 - 2 ** -178, 2 ** -1074, 2 ** -149, 1.5 * 2 ** -149),
).chain((t) => fc.boolean().map((neg) => (neg ? -t : t)));
/** What a tiny value meets: ±∞ (0·∞ = NaN shows a flushed read), NaN, ±0, ordinary and huge values. */
const partner = fc.constantFrom(Infinity, -Infinity, NaN, 0, -0, 1, -3, 2 ** 100, 2 ** 120);

function same(gpuValue: number, cpuValue: number): boolean {
  return Object.is(gpuValue, cpuValue) || (Number.isNaN(gpuValue) && Number.isNaN(cpuValue));
}

function vec(values: number[]) {
  return vector(values, { storage: formats.f64, arithmetic: ar });
}

describe('float-float: a double below 2^-126 reads as ±0 on both backends', () => {
  it('1e-40 as α of GEMV and WAXPBY times ∞ is NaN on both (regression: the GPU gave ∞)', async () => {
    await requireRuntime();
    for (const o of [cpu, gpu]) {
      const A = range(rowMajor<2>({ size: [1, 1], storage: formats.f64, arithmetic: ar }));
      A.set(0, 0, Infinity);
      const y = vec([0]);
      await gemv({ alpha: 1e-40, A, x: vec([1]), beta: 0, y }, o as never);
      expect(toArray(y)[0], o === gpu ? 'GPU' : 'CPU').toBeNaN();
      const w = vec([0]);
      await waxpby(1e-40, vec([Infinity]), 0, vec([0]), w, o as never);
      expect(toArray(w)[0], o === gpu ? 'GPU' : 'CPU').toBeNaN();
    }
  });

  it('tiny α, β, x, y or A against ±∞, NaN, ±0 and ordinary values: GEMV, ELL SpMV, WAXPBY, AXPY, SCAL and DOT give the CPU bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(tiny, partner), { minLength: 5, maxLength: 5 }), tiny, partner, fc.boolean(),
      async ([a, b, c, d, e], t, p, tinyAlpha) => {
        const [alpha, beta] = tinyAlpha ? [t, p] : [p, t];
        const run = async (o: object) => {
          const out: Record<string, number[]> = {};
          const A = range(rowMajor<2>({ size: [1, 2], storage: formats.f64, arithmetic: ar }));
          A.set(0, 0, a!); A.set(0, 1, b!);
          const y = vec([e!]);
          await gemv({ alpha, A, x: vec([c!, d!]), beta, y }, o as never);
          out.gemv = [...toArray(y)];
          const ye = vec([e!]);
          await ellSpmv({ alpha, A: ellOperand(ellStructure({ rows: 1, cols: 2, width: 2, stride: 1, colIndex: Int32Array.from([0, 1]) }), A), x: vec([c!, d!]), beta, y: ye }, o as never);
          out.ell = [...toArray(ye)];
          const w = vec([0, 0]);
          await waxpby(alpha, vec([a!, c!]), beta, vec([b!, d!]), w, o as never);
          out.waxpby = [...toArray(w)];
          const ya = vec([b!, d!]);
          await axpy(alpha, vec([a!, c!]), ya, o as never);
          out.axpy = [...toArray(ya)];
          const s = vec([a!, b!]);
          await scal(alpha, s, o as never);
          out.scal = [...toArray(s)];
          const r = await dot(vec([a!, b!]), vec([c!, d!]), o as never);
          out.dot = [typeof r === 'number' ? r : (r as { value: number }).value];
          return out;
        };
        const [g, h] = [await run(gpu), await run(cpu)];
        for (const k of Object.keys(h)) {
          const ok = h[k]!.every((v, i) => same(g[k]![i]!, v));
          expect(ok, `${k}: values ${[a, b, c, d, e]}, α = ${alpha}, β = ${beta}: GPU ${g[k]} CPU ${h[k]}`).toBe(true);
        }
      }), { numRuns: 60 });
  });
});
