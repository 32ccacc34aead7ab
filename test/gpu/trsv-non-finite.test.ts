/**
 * GPU TRSV with zero, infinite or NaN pivots, non-finite entries and right-hand sides, or inverse blocks that
 * overflow: the IEEE result of substitution, as on the CPU — every variant, f32 and float-float arithmetic, the
 * one-dispatch solve (block 64), the blocked solve (128) and the blocked solve with 64-row blocks.
 * Before the fix the block inverses turned x = [−∞, ∞, 0.5] (U = [[2, 1, 1], [0, 0, 1], [0, 0, 2]], b = 1, f32) into
 * [NaN, NaN, 0.5].
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colMajor, formats, matrix, range, scaledReducedColMajor, toArray, trsv, vector } from '../../src/index.js';
import { nonFinitePattern, requireRuntime } from './gpu-test-helpers.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';

const f32 = { storage: formats.f32 };

/** Solves on the CPU and on the GPU (strict: no fallback); returns both x. */
async function both(a: (i: number, j: number) => number, b: number[], call: { uplo: 'U' | 'L'; trans: 'N' | 'T'; diag: 'N' | 'U' }, arithmetic: typeof formats.f32, blockSize: number): Promise<[Float64Array, Float64Array]> {
  const n = b.length;
  const A = matrix(n, n, a, f32);
  const xc = vector(b, f32);
  const xg = vector(b, f32);
  trsv({ A, x: xc, ...call }, { arithmetic });
  const report = await trsv({ A, x: xg, ...call }, { arithmetic, backend: 'gpu', strict: true, blockSize });
  expect(report.backend).toBe('gpu');
  return [toArray(xc), toArray(xg)];
}

/** Same non-finite pattern; finite entries close (the redo is substitution in the CPU's order; rows it did not reach are the block solve's). */
function expectSameOutcome(cpu: Float64Array, gpu: Float64Array): void {
  expect(nonFinitePattern(gpu)).toBe(nonFinitePattern(cpu));
  for (let i = 0; i < cpu.length; i++) if (Number.isFinite(cpu[i]!)) expect(Math.abs(gpu[i]! - cpu[i]!)).toBeLessThanOrEqual(1e-3 * (1 + Math.abs(cpu[i]!)));
}

const variants = fc.record({ uplo: fc.constantFrom('U' as const, 'L' as const), trans: fc.constantFrom('N' as const, 'T' as const), diag: fc.constantFrom('N' as const, 'U' as const) });

describe('GPU TRSV with non-finite values', () => {
  it('the reported system: x = [−∞, ∞, 0.5] in f32 on every path', async () => {
    await requireRuntime();
    for (const blockSize of [64, 128]) {
      const [cpu, gpu] = await both((i, j) => (i === j ? [2, 0, 2][i]! : j > i ? 1 : 0), [1, 1, 1], { uplo: 'U', trans: 'N', diag: 'N' }, formats.f32, blockSize);
      expect([...cpu]).toEqual([-Infinity, Infinity, 0.5]);
      expect([...gpu]).toEqual([-Infinity, Infinity, 0.5]);
    }
  });

  it('an inverse block that overflows where substitution does not: finite x', async () => {
    await requireRuntime();
    // U = [[ε, 1], [0, ε]], ε = 2^-70: the inverse's corner −1/ε² overflows binary32, b = [1, 0] never needs it.
    for (const blockSize of [64, 128]) {
      const [cpu, gpu] = await both((i, j) => (i === j ? 2 ** -70 : j > i ? 1 : 0), [1, 0], { uplo: 'U', trans: 'N', diag: 'N' }, formats.f32, blockSize);
      expect([...cpu]).toEqual([2 ** 70, 0]);
      expect([...gpu]).toEqual([2 ** 70, 0]);
    }
  });

  it('a row that overflows x\'s storage (f16, bf16) reaches later rows as ±∞, as the CPU stores and re-reads it', async () => {
    await requireRuntime();
    // U = [[1, 0.5], [0, 0.5]], b = [1, 40000] (f16): x₁ = 80000 → +∞ in f16, so x₀ = 1 − 0.5·∞ = −∞ (the GPU gave −40000).
    // bf16: x₁ = 1.5·2^127 / 0.7509765625 ≈ 1.9974·2^127, finite in binary32, past bf16's (2 − 2^-8)·2^127.
    for (const [storage, big, pivot] of [[formats.f16, 40000, 0.5], [formats.bf16, 1.5 * 2 ** 127, 0.7509765625]] as const) {
      for (const blockSize of [64, 128]) {
        const A = matrix(2, 2, (i, j) => (i === j ? [1, pivot][i]! : j > i ? 0.5 : 0), f32);
        const [xc, xg] = [vector([1, big], { storage }), vector([1, big], { storage })];
        trsv({ A, x: xc, uplo: 'U' }, { arithmetic: formats.f32 });
        await trsv({ A, x: xg, uplo: 'U' }, { arithmetic: formats.f32, backend: 'gpu', strict: true, blockSize });
        expect([...toArray(xc)]).toEqual([-Infinity, Infinity]);
        expect([...toArray(xg)]).toEqual([-Infinity, Infinity]);
      }
    }
  });

  for (const [name, arithmetic, runs] of [['f32', formats.f32, 16], ['ff', formats.ff, 6]] as const) {
    it(`${name}: zero/±∞/NaN pivots, entries and right-hand sides — the CPU's non-finite pattern`, async () => {
      await requireRuntime();
      await fc.assert(fc.asyncProperty(
        variants,
        fc.constantFrom(1, 3, 67),
        fc.constantFrom(64, 128),
        fc.constantFrom('pivot', 'entry', 'rhs'),
        fc.constantFrom(0, Infinity, -Infinity, NaN),
        fc.nat(), fc.nat(),
        async (call, n, blockSize, where, special, s1, s2) => {
          const k = s1 % n;
          const j = s2 % n;
          const b = Array.from({ length: n }, (_, i) => 1 + (i % 3));
          if (where === 'rhs') b[k] = special;
          // Diagonally dominant, both triangles filled (only uplo's is read).
          const a = (r: number, c: number): number => {
            if (where === 'pivot' && r === k && c === k) return special;
            if (where === 'entry' && r === k && c === j && r !== c) return special;
            return r === c ? 4 + (r % 3) : 1 / (2 + r + 2 * c);
          };
          const [cpu, gpu] = await both(a, b, call, arithmetic, blockSize);
          expectSameOutcome(cpu, gpu);
        },
      ), { numRuns: runs });
    });
  }

  it('the blocked redo reads b from x as stored: a negative-stride f16 view and a scaled f16 range', async () => {
    await requireRuntime();
    const n = 5;
    const A = matrix(n, n, (i, j) => (i === j ? (i === 2 ? 0 : 2) : j > i ? 0.5 : 0), f32);
    const b = [1, -2, 3, 0.5, 4];
    const makers = [
      () => {
        const span = range(colMajor<1>({ size: [2 * n + 1], storage: formats.f16 }));
        for (let k = 0; k < 2 * n + 1; k++) span.set(k, 7 + k);
        const x = range(colMajor<1>({ size: [n], stride: -2, offset: 2 * n - 1, storage: formats.f16, data: span.accessor.data as never }));
        b.forEach((v, i) => x.set(i, v));
        return { x, span };
      },
      () => {
        const x = range(scaledReducedColMajor<1>({ size: [n], storage: formats.f16, arithmetic: formats.f64, scaleMask: [true], scale: Float64Array.from({ length: n }, (_, i) => 2 ** -(i + 2)) }));
        b.forEach((v, i) => x.set(i, v));
        return { x, span: x };
      },
    ];
    for (const make of makers) {
      const [c, g] = [make(), make()];
      trsv({ A, x: c.x, uplo: 'U' }, { arithmetic: formats.f32 });
      await trsv({ A, x: g.x, uplo: 'U' }, { arithmetic: formats.f32, backend: 'gpu', strict: true, blockSize: 128 });
      // Rows 0–2 depend on the zero pivot; the whole span is compared (nothing else written).
      expect(nonFinitePattern(toArray(c.x))).toMatch(/^[N+-]{3}/);
      expect([...toArray(g.span)]).toEqual([...toArray(c.span)]);
    }
  });

  it('the blocked solve with 64-row blocks (one dispatch off) takes the same path', async () => {
    await requireRuntime();
    process.env.MODPREC_TRSV_ONE_DISPATCH = '0';
    rereadTuningKnobs();
    try {
      for (const call of [{ uplo: 'U', trans: 'N', diag: 'N' }, { uplo: 'L', trans: 'T', diag: 'N' }] as const) {
        const [cpu, gpu] = await both((i, j) => (i === j ? (i === 40 ? 0 : 3) : 0.25), Array.from({ length: 70 }, () => 1), call, formats.f32, 64);
        expectSameOutcome(cpu, gpu);
        expect(nonFinitePattern(cpu)).toMatch(/[N+-]/);
      }
    } finally {
      delete process.env.MODPREC_TRSV_ONE_DISPATCH;
      rereadTuningKnobs();
    }
  });
});
