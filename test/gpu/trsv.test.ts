/**
 * GPU TRSV (blocked, chained on the device) for every uplo × trans × diag, both arithmetics and block
 * sizes: the residual |op(A)·x − b| is within c·n·u·(|op(A)||x| + |b|) on diagonally dominant matrices
 * (whose diagonal blocks are well conditioned, so the explicit block inverses cost little accuracy).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { accurateSum, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';

function triangular(n: number, lda: number, seed: number): Float64Array {
  const a = randomValues(lda * n, seed).map((v) => v / n);
  const d = randomValues(n, seed + 1);
  for (let i = 0; i < n; i++) a[i + i * lda] = (1.5 + d[i]! / 2) * (i % 2 === 0 ? 1 : -1);
  return a;
}

describe('gpuTrsv', () => {
  for (const arithmetic of ['f32', 'ff'] as const) {
    for (const uplo of ['L', 'U'] as const) {
      for (const trans of ['N', 'T'] as const) {
        for (const diag of ['N', 'U'] as const) {
          it(`${uplo}${trans}${diag}, ${arithmetic} arithmetic`, async () => {
            await requireRuntime();
            await fc.assert(
              fc.asyncProperty(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom(64, 128), fc.integer({ min: 1, max: 2 ** 30 }), async (n, pad, blockSize, seed) => {
                const lda = n + pad;
                const A = deviceMatrix(await toDevice(triangular(n, lda, seed)), n, n, lda);
                const b = randomValues(n, seed + 2);
                // Lower float-float solves keep x in f64 (decoded to and written from float-float), the others in ff/f32.
                const x = await toDevice(b, { format: arithmetic === 'ff' ? (uplo === 'L' ? 'f64' : 'ff') : 'f32' });
                const hb = await x.toHost();
                const r = await gpuTrsv({ A, x, uplo, trans, diag }, { arithmetic, blockSize });
                expect(r.backend).toBe('gpu');
                const [ha, sol] = [await A.data.toHost(), await x.toHost()];
                const lowerOp = (uplo === 'L') === (trans === 'N');
                for (let i = 0; i < n; i++) {
                  const terms = [-hb[i]!];
                  for (let j = 0; j < n; j++) {
                    if (lowerOp ? j > i : j < i) continue;
                    const a = i === j && diag === 'U' ? 1 : trans === 'N' ? ha[i + j * lda]! : ha[j + i * lda]!;
                    terms.push(a * sol[j]!);
                  }
                  const residual = Math.abs(accurateSum(terms));
                  const mag = accurateSum(terms.map(Math.abs));
                  // 4n operations per row through the block inverse and the updates, doubled for the inverse's own error.
                  expect(residual).toBeLessThanOrEqual(8 * (n + 8) * opError(arithmetic) * mag);
                }
              }),
              { numRuns: 2 },
            );
          });
        }
      }
    }
  }

  // The one-dispatch solve (64-row blocks): with helpers, and with none publishing (MODPREC_TRSV_SPIN=0: every
  // helper gives up at once, so the walker sums every earlier block itself — the path taken when workgroups
  // do not run concurrently).
  for (const spin of [undefined, '0'] as const) {
    it(`one-dispatch solve of every variant, ${spin === undefined ? 'with helpers' : 'walker alone'}: residual within the bound of the property tests`, async () => {
      await requireRuntime();
      if (spin !== undefined) process.env.MODPREC_TRSV_SPIN = spin;
      rereadTuningKnobs();
      try {
        const n = 333;
        for (const arithmetic of ['f32', 'ff'] as const) for (const uplo of ['L', 'U'] as const) for (const trans of ['N', 'T'] as const) for (const diag of ['N', 'U'] as const) {
          // Unit-diagonal variants read A from 16-bit storage (the residual uses the stored values).
          const format = diag === 'N' ? 'f32' : uplo === 'L' ? 'bf16' : 'f16';
          const A = deviceMatrix(await toDevice(triangular(n, n, 11), { format }), n, n);
          const ha = await A.data.toHost();
          const hb = randomValues(n, 12);
          const x = await toDevice(hb, { format: arithmetic === 'ff' ? 'ff' : 'f32' });
          const b = await x.toHost();
          await gpuTrsv({ A, x, uplo, trans, diag }, { arithmetic });
          const sol = await x.toHost();
          const lowerOp = (uplo === 'L') === (trans === 'N');
          for (let i = 0; i < n; i++) {
            const terms = [-b[i]!];
            for (let j = lowerOp ? 0 : i; j <= (lowerOp ? i : n - 1); j++) terms.push((i === j && diag === 'U' ? 1 : trans === 'N' ? ha[i + j * n]! : ha[j + i * n]!) * sol[j]!);
            expect(Math.abs(accurateSum(terms)), `${uplo}${trans}${diag} ${format} ${arithmetic} row ${i}`).toBeLessThanOrEqual(8 * (n + 8) * opError(arithmetic) * accurateSum(terms.map(Math.abs)));
          }
          A.data.destroy();
          x.destroy();
        }
      } finally {
        delete process.env.MODPREC_TRSV_SPIN;
        rereadTuningKnobs();
      }
    });
  }

  // A walker that gives up polling for a helper's partial sum (P) sums every earlier block itself and must then drop
  // whatever P words its last poll read: here the second solve on the same plan polls once (MODPREC_TRSV_WAIT=1) while
  // its helpers publish nothing (MODPREC_TRSV_SPIN=0), so its poll reads the first solve's P words, stale under the
  // new call's key. Added to the walker's own sums they would count those blocks twice.
  it('one-dispatch solve: a timed-out poll for P drops the words it read (second solve on a plan whose helpers published)', async () => {
    await requireRuntime();
    const n = 333;
    const A = deviceMatrix(await toDevice(triangular(n, n, 21)), n, n);
    const ha = await A.data.toHost();
    const hb = randomValues(n, 22);
    const x = await toDevice(hb, { format: 'f32' });
    let b: Float32Array | Float64Array;
    try {
      await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
      b = await x.toHost(); // the second solve's right-hand side: the first one's solution
      process.env.MODPREC_TRSV_SPIN = '0';
      process.env.MODPREC_TRSV_WAIT = '1';
      rereadTuningKnobs();
      await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
    } finally {
      delete process.env.MODPREC_TRSV_SPIN;
      delete process.env.MODPREC_TRSV_WAIT;
      rereadTuningKnobs();
    }
    const sol = await x.toHost();
    for (let i = 0; i < n; i++) {
      const terms = [-b[i]!];
      for (let j = 0; j <= i; j++) terms.push(ha[i + j * n]! * sol[j]!);
      expect(Math.abs(accurateSum(terms)), `row ${i}`).toBeLessThanOrEqual(8 * (n + 8) * opError('f32') * accurateSum(terms.map(Math.abs)));
    }
    A.data.destroy();
    x.destroy();
  });

  it('reuses the cached block inverses and stays correct after A changes', async () => {
    await requireRuntime();
    const n = 70;
    const A = deviceMatrix(await toDevice(triangular(n, n, 3)), n, n);
    const x1 = await toDevice(randomValues(n, 4), { format: 'ff' });
    const x2 = await toDevice(await x1.toHost(), { format: 'ff' });
    await gpuTrsv({ A, x: x1 }, { arithmetic: 'ff' });
    await gpuTrsv({ A, x: x2 }, { arithmetic: 'ff' });
    expect([...(await x1.toHost())]).toEqual([...(await x2.toHost())]);
  });
});
