/**
 * `strideMultiple` is a size (a rounding granularity, like the GPU's scaleBlock): whatever is not an integer ≥ 1 is
 * INVALID_SIZE naming `options.strideMultiple`, through every public function that takes ELL layout options.
 * Regression: 0 was INVALID_STRIDE while −4 and 1.5 were INVALID_SIZE.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ModprecError, cooToEll, csrToCoo, csrToEll, laplacianCsr, laplacianEll, resolveEllStride } from '../../src/index.js';

function errorOf(f: () => unknown): ModprecError | 'ok' {
  try { f(); return 'ok'; } catch (e) { if (e instanceof ModprecError) return e; throw e; }
}

const A = laplacianCsr([5]);
const entries: [string, (strideMultiple: number) => unknown][] = [
  ['resolveEllStride', (m) => resolveEllStride(5, { strideMultiple: m })],
  ['csrToEll', (m) => csrToEll(A, { strideMultiple: m })],
  ['cooToEll', (m) => cooToEll(csrToCoo(A), { strideMultiple: m })],
  ['laplacianEll', (m) => laplacianEll([5], { strideMultiple: m })],
];

describe('options.strideMultiple', () => {
  it('anything but an integer ≥ 1 (0, negatives, fractions, non-finite) is INVALID_SIZE naming it', () => {
    const bad = fc.oneof(
      fc.constantFrom(0, -0, -4, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 53),
      fc.integer({ max: 0 }),
      fc.double({ noNaN: true }).filter((v) => !Number.isInteger(v)),
    );
    fc.assert(fc.property(bad, fc.constantFrom(...entries), (m, [name, call]) => {
      const e = errorOf(() => call(m));
      expect(e === 'ok' ? 'ok' : [e.code, e.parameter], `${name} with ${m}`).toEqual(['INVALID_SIZE', 'options.strideMultiple']);
    }), { numRuns: 300 });
  });

  it('an integer ≥ 1 rounds the stride up to its multiple', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.constantFrom(...entries.slice(1)), (m, [, call]) => {
      const E = call(m) as { stride: number };
      expect(E.stride % m).toBe(0);
      expect(E.stride - 5).toBeLessThan(m);
      expect(E.stride).toBeGreaterThanOrEqual(5);
    }));
  });
});
