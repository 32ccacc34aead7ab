/**
 * TRSV in WebAssembly with a double-double x (interleaved `dd`, split `dd-split`; issue 20) in fp64, fp32 and kahan
 * arithmetic: the generated JavaScript's stored parts bit for bit (a NaN part compared as NaN) wherever both solve in
 * the same order (column-oriented: op(A) read by columns; the row-oriented solve sums in the WebAssembly DOT's lanes),
 * and in every layout the parts the same WebAssembly solve leaves in an f64 twin of x, stored as the JavaScript
 * stores a number into double-double storage — over lower/upper, unit/non-unit, strides (negative too), sub-ranges
 * inside NaN sentinels, size 1, zero pivots and NaN/±∞/±0/subnormal right-hand sides.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trsv, formats, cpuBackendOf, type Range } from '../../src/index.js';
import { buildMatrix, buildVector, matrixSpec, type MatrixSpec } from '../kernels/matrix-kernel-fixtures.js';
import { roundToOddDd } from '../../src/formats/convert/round-to-odd.js';
import { trsvSystem, ddVector, ddVectorSpec, expectSameParts, pairsOf, rawParts } from './dd-output-fixtures.js';

const NUMERICS = {
  f64: { arithmetic: formats.f64 }, f32: { arithmetic: formats.f32 }, kahan: { arithmetic: formats.f64, accumulation: 'kahan' },
} as const;

const trsvCase = fc.record({
  numerics: fc.constantFrom(...(Object.keys(NUMERICS) as (keyof typeof NUMERICS)[])),
  n: fc.integer({ min: 1, max: 17 }), uplo: fc.constantFrom('L' as const, 'U' as const), trans: fc.constantFrom('N' as const, 'T' as const),
  diag: fc.constantFrom('N' as const, 'U' as const), x: ddVectorSpec,
  A: matrixSpec.map((s): MatrixSpec => ({ ...s, layout: s.layout === 'col' || s.layout === 'negative' ? 'col' : 'row', storage: s.storage === 'i16s' || s.storage === 'f16' ? 'f64' : s.storage })),
  special: fc.boolean(), zeroPivot: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

describe('WebAssembly TRSV into a double-double x', () => {
  it('the JavaScript parts where both solve by columns; the f64 twin\'s solution stored as the JavaScript stores it, in every layout', () => {
    fc.assert(fc.property(trsvCase, (c) => {
      // A well-conditioned triangle (off-diagonal small); a zero pivot where asked (non-unit only reads it).
      const { A, bs } = trsvSystem(c, (entry) => buildMatrix(c.A, c.n, c.n, entry));
      const x = ddVector(c.x, bs), xjs = ddVector(c.x, bs);
      const options = NUMERICS[c.numerics];
      const args = { A, uplo: c.uplo, trans: c.trans, diag: c.diag };
      expect(cpuBackendOf('trsv', { A, x }, options, ['x']).backend).toBe('wasm');
      // The twin holds bᵢ as the arithmetic reads it (fp32: hi + lo rounded to odd, then once to binary32 by the read).
      const twin: Range<1, any> = buildVector({ storage: 'f64', stride: c.x.stride, sub: false }, bs.map((p) => (c.numerics === 'f32' ? roundToOddDd(p.hi, p.lo) : p.hi + p.lo)));
      trsv({ ...args, x }, { ...options, backend: 'wasm' });
      trsv({ ...args, x: xjs }, { ...options, backend: 'js' });
      trsv({ ...args, x: twin }, { ...options, backend: 'wasm' });
      // op(A) by columns: column-major A untransposed, row-major A transposed.
      if ((c.A.layout === 'col') === (c.trans === 'N')) expectSameParts(rawParts(x), rawParts(xjs), 'wasm against js');
      const want = Array.from({ length: c.n }, (_, i) => twin.get(i) as number).flatMap((q) => [q, q === 0 ? q : 0]);
      expectSameParts(pairsOf(x).flatMap((p) => [p.hi, p.lo]), want, 'wasm against its f64 twin');
    }), { numRuns: 300 });
  });
});
