/**
 * 16-bit outputs, two elements a device word, through the public API with `backend: 'gpu'`: GEMV N/T's y, ELL SpMV's y
 * and TRSV's x in f16 or bf16 — packed of an odd length (the last word half used), stride 1 at an odd offset (every
 * word shared with a neighbour outside the view), stride 2 and −1 — over several workgroups, f32 and float-float.
 * Each element against the exact rational value within the library's bound; the neighbours in the storage keep their
 * bits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ELL_PADDING, ellSpmv, ellSpmvBound, ellStructure, ellOperand, colMajor, formats, gemv, gemvBound, range, vector } from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import type { FormatLike } from '../../src/formats/common/registry.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { expectSpanKept, expectWithin, exactSumOfProducts, makeMatrix, makeVector, seededValues, storedMatrix, storedVector, type VecView } from './public-shapes-oracle.js';
import { runTrsvCase } from './public-shapes-trsv-case.js';

type Placement = 'packed' | 'odd-offset' | 'offset-3' | 'stride-2' | 'stride-minus-1';

function output(values: ArrayLike<number>, storage: FormatLike, arithmetic: FormatLike, p: Placement): VecView {
  if (p === 'packed') {
    const r = vector(values, { storage, arithmetic });
    return { r, full: r, at: Array.from({ length: values.length }, (_, i) => i), before: storedVector(r) };
  }
  const [inc, pad] = p === 'odd-offset' ? [1, 1] : p === 'offset-3' ? [1, 3] : p === 'stride-2' ? [2, 1] : [-1, 1];
  return makeVector(values, storage, arithmetic, inc, pad);
}

const placement = fc.constantFrom<Placement>('packed', 'odd-offset', 'offset-3', 'stride-2', 'stride-minus-1');
const half = fc.constantFrom(formats.f16, formats.bf16);
const arith = fc.constantFrom(formats.f32, formats.ff);

describe('16-bit outputs of odd lengths and offsets, backend gpu', () => {
  it('GEMV N and T', async () => {
    await requireRuntime();
    const cases = fc.record({ m: fc.constantFrom(1, 3, 65, 257, 1001), n: fc.constantFrom(1, 3, 64, 97), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), beta: fc.constantFrom(0, 0.5), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, placement, half, arith, async (c, p, storage, arithmetic) => {
      const [rows, inner] = c.trans === 'N' ? [c.m, c.n] : [c.n, c.m];
      const a = seededValues(c.m * c.n, c.seed);
      const A = makeMatrix(c.m, c.n, (i, j) => a[i + j * c.m]!, formats.f32, arithmetic, 'col');
      const x = makeVector(seededValues(inner, c.seed + 1), formats.f32, arithmetic).r;
      const y = output(c.beta === 0 ? new Float64Array(rows).fill(NaN) : seededValues(rows, c.seed + 2), storage, arithmetic, p);
      const args = { alpha: 1, A, x, beta: c.beta, y: y.r, trans: c.trans };
      const bound = gemvBound(args, { arithmetic });
      const [hA, hx, hy] = [storedMatrix(A), storedVector(x), storedVector(y.r)];
      expect((await gemv(args, { backend: 'gpu', strict: true, arithmetic })).backend).toBe('gpu');
      const got = storedVector(y.r);
      const what = `${JSON.stringify(c)} ${p} ${storage.name} ${arithmetic.name}`;
      expectSpanKept(what, y);
      for (let i = 0; i < rows; i++) {
        const terms: number[][] = c.beta === 0 ? [] : [[c.beta, hy[i]!]];
        for (let k = 0; k < inner; k++) terms.push([c.trans === 'N' ? hA[i + k * c.m]! : hA[k + i * c.m]!, hx[k]!]);
        expectWithin(`${what} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }), { numRuns: 30 });
  });

  it('ELL SpMV', async () => {
    await requireRuntime();
    const cases = fc.record({ rows: fc.constantFrom(1, 3, 65, 301), width: fc.constantFrom(1, 3), seed: fc.integer({ min: 1, max: 2 ** 30 }) });
    await fc.assert(fc.asyncProperty(cases, placement, half, arith, async (c, p, storage, arithmetic) => {
      const { rows, width } = c;
      const cols = 41;
      const colIndex = new Int32Array(rows * width).fill(ELL_PADDING);
      for (let i = 0; i < rows; i++) for (let k = 0; k < (i + c.seed) % (width + 1); k++) colIndex[i + k * rows] = (i * 5 + k * 17 + c.seed) % cols;
      const v = seededValues(rows * width, c.seed);
      const values = range(colMajor<2>({ size: [rows, width], storage: formats.f32, arithmetic } as never)) as Range<2, any>;
      for (let k = 0; k < width; k++) for (let i = 0; i < rows; i++) values.set(i, k, colIndex[i + k * rows] === ELL_PADDING ? 0 : v[i + k * rows]!);
      const x = makeVector(seededValues(cols, c.seed + 1), formats.f32, arithmetic).r;
      const y = output(seededValues(rows, c.seed + 2), storage, arithmetic, p);
      const args = { alpha: -1, A: ellOperand(ellStructure({ rows, cols, width, stride: rows, colIndex }), values), x, beta: 2, y: y.r };
      const bound = ellSpmvBound(args, { arithmetic });
      const [hv, hx, hy] = [storedMatrix(values), storedVector(x), storedVector(y.r)];
      expect((await ellSpmv(args, { backend: 'gpu', strict: true, arithmetic })).backend).toBe('gpu');
      const got = storedVector(y.r);
      const what = `${JSON.stringify(c)} ${p} ${storage.name} ${arithmetic.name}`;
      expectSpanKept(what, y);
      for (let i = 0; i < rows; i++) {
        const terms: number[][] = [[2, hy[i]!]];
        for (let k = 0; k < width; k++) if (colIndex[i + k * rows] !== ELL_PADDING) terms.push([-1, hv[i + k * rows]!, hx[colIndex[i + k * rows]!]!]);
        expectWithin(`${what} y[${i}]`, got[i]!, exactSumOfProducts(terms), bound[i]!);
      }
    }), { numRuns: 20 });
  });

  it('TRSV with x in f16 or bf16 at an odd offset (f32 A, the substitution)', async () => {
    await requireRuntime();
    for (const [n, uplo, trans, x] of [[65, 'L', 'N', formats.f16], [66, 'U', 'T', formats.bf16]] as const) {
      await runTrsvCase({ n, uplo, trans, diag: 'N', layout: 'col', incX: 1, seed: n }, formats.f32, formats.f32, { arithmetic: formats.f32 }, x, 1);
    }
  });
});
