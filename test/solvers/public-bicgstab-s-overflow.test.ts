/**
 * BiCGStab's s = r − α·v is stored in the vectors' storage: on 494_bus with fp16 vectors (65504 at most) the
 * recurrence residual grows past 3·10⁴·‖b‖ and s overflowed at the 249th step, and the solve broke down 'non-finite'
 * although r, v and x were finite. s is now stored scaled by a power of two where it overflows (ω does not depend on
 * it), and an r that overflows in turn sends the solve to its true residual, as a diverging recurrence does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bicgstab, csrToEll, formats, readMatrixMarketCsr, toArray } from '../../src/index.js';

const market = (name: string) => csrToEll(readMatrixMarketCsr(readFileSync(join(__dirname, `../fixtures/matrices/${name}.mtx`), 'utf8')));

describe('BiCGStab whose s overflows the vectors\' storage', () => {
  it('494_bus with fp16 vectors steps past the 249th step (s stored scaled) and never stops non-finite with a finite x', () => {
    const A = market('494_bus');
    const b = Float64Array.from({ length: A.rows }, (_, i) => Math.sin(i + 1));
    const r = bicgstab(A, b, { storage: formats.f16, tolerance: 1e-6, maxIterations: 300 });
    expect(r.breakdown).not.toBe('non-finite');
    expect(r.iterations).toBeGreaterThan(249);
    // the 249th step's residual r = s − ω·t, from the scaled s, is finite (s itself was ±∞)
    expect(r.history.slice(0, 250).every(Number.isFinite)).toBe(true);
    expect(toArray(r.x).every(Number.isFinite)).toBe(true);
    expect(Number.isFinite(r.trueResidualNorm)).toBe(true);
    // the iterate returned is the best checked one, never worse than x₀ = 0
    expect(r.trueResidualNorm).toBeLessThanOrEqual(1);
  });
});
