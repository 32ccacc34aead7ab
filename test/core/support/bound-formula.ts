/** Checks that an a-priori bound equals a stated formula up to the bound's own evaluation margin and underflow allowance. */
import { expect } from 'vitest';

/** Expects formula ≤ bound ≤ formula·(1 + 1e-9) + 1e-300. */
export function expectBoundToBe(bound: number, formula: number, what: string): void {
  expect(bound, what).toBeGreaterThanOrEqual(formula);
  expect(bound, what).toBeLessThanOrEqual(formula * (1 + 1e-9) + 1e-300);
}
