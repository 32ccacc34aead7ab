/**
 * TRSV in RNS arithmetic on the GPU (`backend: 'gpu'`) whose unknown x_k overflows x's storage: the CPU refuses it
 * with `INVALID_VALUE` naming `x[k]` (the first unknown in solve order stored as ±∞, when a later row reads it back)
 * and leaves x exactly as it was (test/rns/public-trsv-overflow.test.ts). Regression: the GPU solve, which keeps x
 * in RNS until the end, wrote ±∞ into x and returned. Now the GPU gives the CPU's error and x's bits; an overflow in
 * the last unknown solved is stored as ±∞ on both.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formats, matrix, ModprecError, trsv, vector } from '../../src/index.js';
import { requireRuntime } from '../gpu/gpu-test-helpers.js';

// The storages RNS arithmetic reads on the GPU (dd storage is refused there: INVALID_FORMAT).
const STORAGES = { f64: 1.7976931348623157e308, f32: 3.4e38, bf16: 3.3e38, f16: 65504 } as const;
type StorageName = keyof typeof STORAGES;

const raw = (r: { accessor: { data: unknown } }): number[] => Array.from(r.accessor.data as Float64Array | Float32Array | Uint16Array);

/** The outcome of one solve: the error's code and parameter (or 'ok') and x's raw words after it. */
async function outcome(run: () => unknown, x: { accessor: { data: unknown } }): Promise<{ result: string; x: number[] }> {
  try {
    await run();
    return { result: 'ok', x: raw(x) };
  } catch (e) {
    if (!(e instanceof ModprecError)) throw e;
    return { result: `${e.code} ${e.parameter}`, x: raw(x) };
  }
}

describe('RNS TRSV on the GPU: an unknown that overflows x\'s storage', () => {
  it('is refused as on the CPU (INVALID_VALUE naming x[k]), x left as it was', async () => {
    await requireRuntime();
    const arb = fc.record({
      storage: fc.constantFrom(...(Object.keys(STORAGES) as StorageName[])),
      n: fc.integer({ min: 2, max: 4 }), k: fc.nat(), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), upper: fc.boolean(),
      b: fc.array(fc.integer({ min: -8, max: 8 }).filter((v) => v !== 0), { minLength: 4, maxLength: 4 }),
    });
    await fc.assert(fc.asyncProperty(arb, async (t) => {
      const n = t.n, big = STORAGES[t.storage];
      // Unknown `over` (solve step s ≥ 1, the last one included) gets big·x_prev with |x_prev| = 2: beyond x's storage.
      const lower = t.upper === (t.trans === 'T');
      const order = Array.from({ length: n }, (_, s) => (lower ? s : n - 1 - s));
      const s = 1 + (t.k % (n - 1));
      const [prev, over] = [order[s - 1]!, order[s]!];
      const make = (): { A: ReturnType<typeof matrix>; x: ReturnType<typeof vector> } => ({
        A: matrix(n, n, (i, j) => {
          if (i === j) return 1;
          const [r, c] = t.trans === 'N' ? [i, j] : [j, i];
          return r === over && c === prev ? big : 0;
        }, { storage: formats[t.storage] }),
        x: vector(t.b.slice(0, n).map((v, i) => (i === prev ? 2 * Math.sign(v) : v)), { storage: formats[t.storage] }),
      });
      const args = (o: ReturnType<typeof make>) => ({ A: o.A, x: o.x, uplo: t.upper ? 'U' as const : 'L' as const, trans: t.trans, diag: 'N' as const });
      const cpu = make(), gpu = make();
      const before = raw(gpu.x);
      const onCpu = await outcome(() => trsv(args(cpu), { arithmetic: formats.rns106 }), cpu.x);
      const onGpu = await outcome(() => trsv(args(gpu), { arithmetic: formats.rns106, backend: 'gpu', strict: true }), gpu.x);
      const last = s === n - 1;
      expect(onCpu.result).toBe(last ? 'ok' : `INVALID_VALUE x[${over}]`);
      expect(onGpu).toEqual(onCpu);
      if (!last) expect(onGpu.x).toEqual(before);
    }), { numRuns: 12 });
  });
});
