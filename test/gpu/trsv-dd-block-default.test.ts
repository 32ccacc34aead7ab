/**
 * The GPU TRSV's default block size follows the arithmetic (kernels/trsv/trsv-block-size.ts): 256 rows in the
 * double-double arithmetic up to 16384 rows (DD_GPU_TRSV_BLOCK_SIZE, DD_GPU_TRSV_BLOCK_MAX_N), 64 in the others — the same in `trsv` and `trsvBound`, so the
 * bound of a call without `blockSize` is the bound of the run it makes.
 */
import { describe, expect, it } from 'vitest';
import { trsv, trsvBound, matrix, vector, formats } from '../../src/index.js';
import { DD_GPU_TRSV_BLOCK_MAX_N, DD_GPU_TRSV_BLOCK_SIZE, trsvBlockSize } from '../../kernels/trsv/trsv-block-size.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

describe('GPU TRSV default block size', () => {
  it('trsvBlockSize: 64 by default, DD_GPU_TRSV_BLOCK_SIZE in double-double up to DD_GPU_TRSV_BLOCK_MAX_N rows, a given size kept, none on the CPU', () => {
    expect(DD_GPU_TRSV_BLOCK_SIZE).toBe(256);
    expect(trsvBlockSize({}, 'gpu')).toBe(64);
    expect(trsvBlockSize({}, 'gpu', true, DD_GPU_TRSV_BLOCK_MAX_N)).toBe(256);
    // Above it 256 columns of a dd matrix could exceed the 128 MiB an adapter binds: 64.
    expect(trsvBlockSize({}, 'gpu', true, DD_GPU_TRSV_BLOCK_MAX_N + 1)).toBe(64);
    expect(trsvBlockSize({ blockSize: 128 }, 'gpu', true)).toBe(128);
    expect(trsvBlockSize({}, 'cpu', true)).toBeUndefined();
  });

  it('dd: trsv and trsvBound without blockSize run and bound with 256-row blocks (the same x words, the same bound); f32 keeps 64', async () => {
    await requireRuntime();
    const n = 300;
    const a = randomValues(n * n, 7);
    const build = (st: typeof formats.dd | typeof formats.f32) => {
      const A = matrix(n, n, (i, j) => (i === j ? 2 + Math.abs(a[i * n + j]!) : j < i ? a[i * n + j]! / n : 0), { storage: st, arithmetic: st });
      const x = vector(randomValues(n, 9), { storage: st, arithmetic: st });
      return { A, x, uplo: 'L' as const, trans: 'N' as const, diag: 'N' as const };
    };
    for (const [st, bs, other] of [[formats.dd, 256, 64], [formats.f32, 64, 256]] as const) {
      const options = { backend: 'gpu', arithmetic: st, strict: true } as const;
      const dflt = build(st), given = build(st), otherArgs = build(st);
      const bound = trsvBound(dflt, options);
      expect(Array.from(bound)).toEqual(Array.from(trsvBound(given, { ...options, blockSize: bs })));
      expect(Array.from(bound)).not.toEqual(Array.from(trsvBound(otherArgs, { ...options, blockSize: other })));
      await trsv(dflt, options);
      await trsv(given, { ...options, blockSize: bs });
      expect(Array.from(dflt.x.accessor.data as Float64Array | Float32Array), st.name).toEqual(Array.from(given.x.accessor.data as Float64Array | Float32Array));
    }
  });
});
