/**
 * The same bad option is the same typed error on every backend — 'cpu', 'js', 'wasm' and 'gpu' (llvmpipe) — with
 * the same code and parameter, raised before anything is written. Regression: AXPY, WAXPBY and SCAL ignored
 * `accumulation` on the CPU (`axpy(2, x, y, { accumulation: 'bogus' })` ran) while `backend: 'gpu'` refused it
 * (INVALID_OPTION); a `strict` that is not a boolean was refused by 'gpu' and ignored by the CPU backends.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  dot, gemv, trsv, ellSpmv, axpy, waxpby, scal, nrm2, asum, vector, matrix, toArray, formats, ellFromMatrix, ellMatrix, ModprecError,
} from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';

function operands() {
  const f = { storage: formats.f32, arithmetic: formats.f32 };
  return {
    x: vector([1, -2, 3], f), y: vector([4, 5, -6], f), w: vector([7, 8, 9], f),
    A: matrix(3, 3, (i, j) => (i === j ? 2 : i + j), f),
    E: ellFromMatrix(ellMatrix({ rows: 3, cols: 3, width: 1, stride: 3, colIndex: Int32Array.of(0, 1, 2), values: Float64Array.of(1, 2, 3) }), 'f32'),
  };
}
type Operands = ReturnType<typeof operands>;

const kernels: [string, (o: Operands, options: any) => unknown][] = [
  ['dot', (o, p) => dot(o.x, o.y, p)], ['asum', (o, p) => asum(o.x, p)], ['nrm2', (o, p) => nrm2(o.x, p)],
  ['scal', (o, p) => scal(2, o.x, p)], ['axpy', (o, p) => axpy(2, o.x, o.y, p)], ['waxpby', (o, p) => waxpby(2, o.x, 3, o.y, o.w, p)],
  ['gemv', (o, p) => gemv({ alpha: 1, A: o.A, x: o.x, beta: 1, y: o.y }, p)], ['trsv', (o, p) => trsv({ A: o.A, x: o.x }, p)],
  ['ellSpmv', (o, p) => ellSpmv({ alpha: 1, A: o.E, x: o.x, beta: 1, y: o.y }, p)],
];

const badOptions = fc.constantFrom<Record<string, unknown>>(
  { accumulation: 'bogus' }, { accumulation: 17 }, { arithmetic: 'bogus' }, { arithmetic: 3 }, { arithmetic: formats.i8 },
  { backend: 'GPU' }, { accumulation: 'bogus', arithmetic: 'bogus' }, { strict: 'yes' }, { strict: 1 },
);

const bits = (o: Operands): string => [o.x, o.y, o.w].map((r) => [...toArray(r)].map((v) => (Object.is(v, -0) ? '-0' : String(v))).join()).join('/');

/** The typed error of a call (thrown, or a rejected promise), or 'ran'. */
async function outcome(run: () => unknown): Promise<string> {
  try {
    await run();
    return 'ran';
  } catch (e) {
    if (e instanceof ModprecError) return `${e.code} ${e.parameter}`;
    throw e;
  }
}

describe('a bad option is one error on every backend', () => {
  it.each(kernels)('%s', async (_, kernel) => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(badOptions, async (bad) => {
      const seen = new Set<string>();
      for (const backend of [undefined, 'cpu', 'js', 'wasm', 'gpu']) {
        const o = operands();
        const before = bits(o);
        const options = backend === undefined || bad.backend !== undefined ? bad : { ...bad, backend };
        const result = await outcome(() => kernel(o, options));
        expect(result).not.toBe('ran');
        expect(bits(o)).toBe(before);
        seen.add(result);
      }
      expect([...seen]).toHaveLength(1);
    }), { numRuns: 9 });
  });
});
