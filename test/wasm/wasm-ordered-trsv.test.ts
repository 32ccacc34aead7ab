/**
 * TRSV with the `pairwise` and `dot2` accumulations in WebAssembly (issue 20), fp64 and fp32 arithmetic: the
 * generated JavaScript's bits (a NaN compared as NaN) over T in f64, f32, f16, bf16 and i16 with one scale, row- and
 * column-major, sub-ranges, trans N/T, lower/upper, unit/non-unit, x in f64, f32, dd and dd-split with strides
 * (negative too) and sub-ranges, sizes 1 to past pairwise's blocks, zero pivots and NaN/±∞/±0/subnormal right-hand
 * sides (a non-finite row sum answered by the JavaScript kernel, x untouched before).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, formats, cpuBackendOf, type Range } from '../../src/index.js';
import { buildMatrix, buildVector, matrixSpec, type MatrixSpec } from '../kernels/matrix-kernel-fixtures.js';
import { trsvSystem, ddVector, expectSameParts, rawParts } from './dd-output-fixtures.js';

const trsvCase = fc.record({
  accumulation: fc.constantFrom('pairwise' as const, 'dot2' as const), arithmetic: fc.constantFrom('f64' as const, 'f32' as const),
  n: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(150)), uplo: fc.constantFrom('L' as const, 'U' as const),
  trans: fc.constantFrom('N' as const, 'T' as const), diag: fc.constantFrom('N' as const, 'U' as const),
  A: matrixSpec.map((s): MatrixSpec => ({ ...s, layout: s.layout === 'col' || s.layout === 'negative' ? 'col' : 'row', scaleRows: false }))
    .map((s) => (s.storage === 'i16s' ? { ...s, storage: 'f64' as const } : s)),
  x: fc.record({ storage: fc.constantFrom('f64' as const, 'f32' as const, 'dd' as const, 'dd-split' as const), stride: fc.constantFrom(1, 2, -1, -3), sub: fc.boolean() }),
  special: fc.boolean(), zeroPivot: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

const partsOf = (r: Range<1, any>): number[] => (r.accessor.storage.kind === 'dd' ? rawParts(r) : Array.from(r.accessor.data as Float64Array));

describe('WebAssembly TRSV with the pairwise and dot2 accumulations', () => {
  it("the automatic choice keeps them in JavaScript (a row per WebAssembly call is no faster), backend 'wasm' runs them", () => {
    const A = buildMatrix({ storage: 'f64', layout: 'row', sub: false, scaleRows: false }, 2, 2, (i, j) => (i === j ? 1 : 0.5));
    const x = buildVector({ storage: 'f64', stride: 1, sub: false }, [1, 2]);
    for (const accumulation of ['pairwise', 'dot2'] as const) {
      expect(cpuBackendOf('trsv', { A, x }, { accumulation }, ['x']).reason).toMatch(/^options\.accumulation: TRSV's/);
      expect(cpuBackendOf('trsv', { A, x }, { accumulation, backend: 'wasm' }, ['x'])).toEqual({ backend: 'wasm' });
    }
  });

  it('the bits of the generated JavaScript', () => {
    fc.assert(fc.property(trsvCase, (c) => {
      // A well-conditioned triangle (off-diagonal small); a zero pivot where asked (non-unit only reads it).
      const { A, bs } = trsvSystem(c, (entry) => buildMatrix(c.A, c.n, c.n, entry));
      const xOf = (): Range<1, any> => (c.x.storage === 'dd' || c.x.storage === 'dd-split'
        ? ddVector({ layout: c.x.storage, stride: c.x.stride, sub: c.x.sub }, bs)
        : buildVector({ storage: c.x.storage, stride: c.x.stride, sub: c.x.sub }, bs.map((p) => p.hi)));
      const options = { arithmetic: formats[c.arithmetic], accumulation: c.accumulation };
      const x = xOf(), xjs = xOf();
      expect(cpuBackendOf('trsv', { A, x }, { ...options, backend: 'wasm' }, ['x']).backend).toBe('wasm');
      const args = { A, uplo: c.uplo, trans: c.trans, diag: c.diag };
      trsv({ ...args, x }, { ...options, backend: 'wasm' });
      trsv({ ...args, x: xjs }, { ...options, backend: 'js' });
      expectSameParts(partsOf(x), partsOf(xjs), 'wasm against js');
    }), { numRuns: 150 });
  });
});
