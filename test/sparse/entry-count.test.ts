/**
 * Entry counts past 2^31 − 1 cannot live in CSR's Int32 row pointers: the check every conversion runs before storing a
 * count refuses them by name instead of letting an Int32 sum wrap. (A matrix with that many entries needs 17 GB or
 * more, so the check itself is tested here; public-sparse tests cover the conversions it sits in.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModprecError } from '../../src/index.js';
import { checkEntryCount, MAX_SPARSE_INDEX } from '../../src/sparse/sparse-checks.js';

describe('checkEntryCount', () => {
  it('accepts every count an Int32 row pointer holds and refuses every larger one, naming the parameter', () => {
    fc.assert(fc.property(fc.oneof(fc.nat(MAX_SPARSE_INDEX), fc.constant(MAX_SPARSE_INDEX)), (count) => {
      expect(() => checkEntryCount('values', count)).not.toThrow();
    }));
    fc.assert(fc.property(fc.integer({ min: MAX_SPARSE_INDEX + 1, max: Number.MAX_SAFE_INTEGER }), (count) => {
      let error: unknown;
      try { checkEntryCount('D', count); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(ModprecError);
      expect((error as ModprecError).code).toBe('INVALID_SIZE');
      expect((error as ModprecError).message).toContain('D');
      // The wrapped Int32 value a silent overflow would have stored is negative: the check is what prevents it.
      expect(count | 0).not.toBe(count);
    }));
  });
});
