/**
 * TRSV in RNS arithmetic whose unknown x_k overflows x's storage (fp64, fp32, fp16, bf16, dd): it is stored as ±∞,
 * and RNS, which has no infinity, cannot read it back for the rows after it. Regression: the solve failed part-way
 * with `INVALID_VALUE` naming the conversion's own `value` (`hi` for dd storage) after x_1 … x_k were written
 * (x = [0, −3, 0, 1] became [0, −3, ∞, 1]). Now: `INVALID_VALUE` naming `x[k]`, x exactly as it was, on the automatic
 * CPU choice and on 'js'; an overflow in the last unknown is no error (nothing reads it back) and stores ±∞ as fp64
 * arithmetic does; an error raised before the solve writes (an accumulation RNS cannot run) leaves x's bits alone.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, matrix, ModprecError, range, rowMajor, toArray, trsv, vector } from '../../src/index.js';

const STORAGES = { f64: 1.7976931348623157e308, f32: 3.4e38, bf16: 3.3e38, f16: 65504, dd: 1.7976931348623157e308 } as const;
type StorageName = keyof typeof STORAGES;

const raw = (r: { accessor: { data: unknown } }): number[] => Array.from(r.accessor.data as Float64Array | Float32Array | Uint16Array);

describe('TRSV in RNS arithmetic: an unknown that overflows x\'s storage', () => {
  it('is refused naming x[k], with x left as it was', () => {
    const arb = fc.record({
      storage: fc.constantFrom(...(Object.keys(STORAGES) as StorageName[])),
      n: fc.integer({ min: 3, max: 9 }), k: fc.nat(), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), upper: fc.boolean(),
      backend: fc.constantFrom('cpu', 'js'), arithmetic: fc.constantFrom('rns106', 'rns212'),
      b: fc.array(fc.integer({ min: -8, max: 8 }).filter((v) => v !== 0), { minLength: 9, maxLength: 9 }),
    });
    fc.assert(fc.property(arb, (t) => {
      const n = t.n, big = STORAGES[t.storage];
      // op(A) solves unknowns in order `order`; unknown `o` (not the last solved) gets `big`·x_prev (≥ 2·big in size),
      // which overflows, and a later unknown reads it.
      const lower = t.upper === (t.trans === 'T');
      const order = Array.from({ length: n }, (_, s) => (lower ? s : n - 1 - s));
      const s = 1 + (t.k % (n - 2)); // solve step of the overflowing unknown: after one, before the last
      const [prev, over] = [order[s - 1]!, order[s]!];
      // op(A)[over, prev] = big (op(A) = A or Aᵀ), unit diagonal otherwise empty.
      const A = matrix(n, n, (i, j) => {
        if (i === j) return 1;
        const [r, c] = t.trans === 'N' ? [i, j] : [j, i];
        return r === over && c === prev ? big : 0;
      }, { storage: formats[t.storage] });
      const b = t.b.slice(0, n).map((v, i) => (i === prev ? 2 * Math.sign(v) : v));
      const x = vector(b, { storage: formats[t.storage] });
      const before = raw(x);
      let error: unknown;
      try {
        trsv({ A, x, uplo: t.upper ? 'U' : 'L', trans: t.trans, diag: 'N' }, { arithmetic: t.arithmetic, backend: t.backend } as never);
      } catch (e) { error = e; }
      expect(error).toBeInstanceOf(ModprecError);
      expect(`${(error as ModprecError).code} ${(error as ModprecError).parameter}`).toBe(`INVALID_VALUE x[${over}]`);
      expect(raw(x)).toEqual(before);
    }), { numRuns: 60 });
  });

  it('an overflow in the last unknown solved is stored as ±∞ (as fp64 arithmetic does)', () => {
    const A = matrix(3, 3, (i, j) => (i === j ? 1 : i === 2 && j === 1 ? 3e38 : 0), { storage: formats.f32 });
    const x = vector([1, -2, 5], { storage: formats.f32 });
    trsv({ A, x, uplo: 'L', trans: 'N', diag: 'N' }, { arithmetic: 'rns106' });
    expect([...toArray(x)]).toEqual([1, -2, Infinity]);
  });

  it('an error raised before the solve writes leaves an unnormalised dd pair of x bit for bit', () => {
    // (−1, 1.5·2^-53) is not normalised: putting x back by value would store (−1 + 2^-52, −2^-54).
    const data = Float64Array.of(-1, 1.5 * 2 ** -53, 2, 0);
    const x = range(rowMajor<1>({ size: [2], storage: formats.dd, arithmetic: formats.f64, data }));
    const A = matrix(2, 2, (i, j) => (j <= i ? 1 : 0));
    let error: unknown;
    try { trsv({ A, x, uplo: 'L', trans: 'N', diag: 'N' }, { arithmetic: 'rns106', accumulation: 'kahan' }); } catch (e) { error = e; }
    expect((error as ModprecError).code).toBe('INVALID_OPTION');
    expect(Array.from(data)).toEqual([-1, 1.5 * 2 ** -53, 2, 0]);
  });
});
