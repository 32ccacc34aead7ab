/**
 * The GPU side of public-bicgstab-operator-scale.test.ts: the same algorithm over device arrays scales A·p and A·s
 * where they overflow fp16 vectors (it broke down 'non-finite' at 0 iterations there too).
 */
import { describe, expect, it } from 'vitest';
import { bicgstab, formats, matrix, toArray } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';
import { exactRelativeResidual } from './diagonal-residual.js';

describe("BiCGStab with an A beyond the vectors' storage, backend: 'gpu'", () => {
  it('1e5·I with fp16 vectors and b = 1e5·(1, 2) converges to x ≈ (1, 2) in fp32 and float-float arithmetic', async () => {
    await requireRuntime();
    const A = matrix(2, 2, (i, j) => (i === j ? 1e5 : 0));
    for (const arithmetic of [formats.f32, formats.ff]) {
      const r = await bicgstab(A, [1e5, 2e5], { backend: 'gpu', strict: true, storage: formats.f16, arithmetic, tolerance: 1e-3 });
      expect([r.status, r.breakdown]).toEqual(['converged', undefined]);
      const x = Array.from(toArray(r.x));
      // x stored near 1 (public-solution-scale), to fp16's 11 bits (it was exact among fp16's subnormals by chance)
      expect(Math.max(Math.abs(x[0]! - 1), Math.abs(x[1]! - 2) / 2)).toBeLessThanOrEqual(2 ** -10);
      expect(exactRelativeResidual([1e5, 1e5], x, [1e5, 2e5])).toBeLessThanOrEqual(1e-3);
    }
  });
});
