/**
 * The forms of the one-dispatch GPU TRSV under test for issue 19 (`TrsvKernelSwitches`,
 * src/backends/webgpu/kernel-switches.ts). Those that only move loads — the column-major inverse copy, P polled
 * early, loads two steps ahead — give the default form's x bit for bit where the run is deterministic (no helper
 * publishes: MODPREC_TRSV_SPIN=0, so every sum is the walker's own). All forms together, row lanes, lazy
 * float-float tiles and pairwise quarter sums included, stay within trsvBound with backend 'gpu' against the exact rational solution of the
 * stored system, with helpers and with the walker alone; and a timed-out early poll drops the stale P it read.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { quadRowsHold, walkerSource } from '../../kernels/trsv/trsv-walker-source.js';
import { gpuF32 } from '../../src/backends/webgpu/arithmetic.js';
import { setTrsvKernelSwitches, type TrsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';
import { trsv, trsvBound, range, colMajor, formats } from '../../src/index.js';
import { Q } from '../dd/exact-rational.js';
import { accurateSum, opError, randomValues, requireRuntime } from './gpu-test-helpers.js';

const OFF: TrsvKernelSwitches = { columnInverse: false, rowLanes: false, lazyTiles: false, earlyPoll: false, ahead: false, treeQuarters: false, quadRows: false, ddLanes: false, transposedCopy: false };
const SAME_BITS: Partial<TrsvKernelSwitches> = { columnInverse: true, earlyPoll: true, ahead: true };
const ALL: TrsvKernelSwitches = { columnInverse: true, rowLanes: true, lazyTiles: true, earlyPoll: true, ahead: true, treeQuarters: true, quadRows: true, ddLanes: false, transposedCopy: false };
/** The default forms (kernel-switches.ts) with quad rows on. */
const QUAD: TrsvKernelSwitches = { columnInverse: true, rowLanes: 'transposed', lazyTiles: true, earlyPoll: true, ahead: true, treeQuarters: false, quadRows: true, ddLanes: false, transposedCopy: false };

function knobs(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rereadTuningKnobs();
}

afterEach(() => {
  setTrsvKernelSwitches(OFF);
  knobs({ MODPREC_TRSV_SPIN: undefined, MODPREC_TRSV_WAIT: undefined });
});

/** Column-major n×n: diagonal ±(1 … 2), off-diagonal entries up to 1/n in both triangles (the unread one too). */
function triangular(n: number, seed: number): Float64Array {
  const a = randomValues(n * n, seed).map((v) => v / n);
  const d = randomValues(n, seed + 1);
  for (let i = 0; i < n; i++) a[i + i * n] = (1.5 + d[i]! / 2) * (i % 2 === 0 ? 1 : -1);
  return a;
}

/** max over rows of |op(A)·x − b| / (8(n + 8)·u·(Σ|op(A)_ij·x_j| + |b_i|)): at most 1 is the property tests' bound (trsv.test.ts). */
function residualRatio(ha: ArrayLike<number>, b: ArrayLike<number>, sol: ArrayLike<number>, n: number, uplo: 'L' | 'U', trans: 'N' | 'T', diag: 'N' | 'U', arithmetic: 'f32' | 'ff'): number {
  const lowerOp = (uplo === 'L') === (trans === 'N');
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const terms = [-b[i]!];
    for (let j = lowerOp ? 0 : i; j <= (lowerOp ? i : n - 1); j++) terms.push((i === j && diag === 'U' ? 1 : trans === 'N' ? ha[i + j * n]! : ha[j + i * n]!) * sol[j]!);
    worst = Math.max(worst, Math.abs(accurateSum(terms)) / (8 * (n + 8) * opError(arithmetic) * accurateSum(terms.map(Math.abs))));
  }
  return worst;
}

/**
 * Solves op(A)·x = b through the public API (A and x fp32 storage, lda = n) with helpers and with the walker alone,
 * and checks x within trsvBound(backend 'gpu') of the exact rational solution of the stored system.
 */
async function withinBoundExactly(ar: typeof formats.f32 | typeof formats.ff, n: number, uplo: 'L' | 'U', trans: 'N' | 'T', diag: 'N' | 'U', a: ArrayLike<number>, b: ArrayLike<number>): Promise<void> {
  const A = range(colMajor<2>({ size: [n, n], storage: formats.f32, arithmetic: ar }));
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) A.set(i, j, a[i + j * n]!);
  const x = range(colMajor<1>({ size: [n], storage: formats.f32, arithmetic: ar }));
  const stored = (i: number, j: number): number => A.accessor.storage.decode(A.accessor.data as never, A.accessor.linearIndex([i, j])) as number;
  const storedX = (i: number): number => x.accessor.storage.decode(x.accessor.data as never, x.accessor.linearIndex([i])) as number;
  for (let i = 0; i < n; i++) x.set(i, b[i]!);
  const bs = Array.from({ length: n }, (_, i) => storedX(i));
  // Exact substitution in rationals on the stored values (once: the same system for both runs).
  const lower = (uplo === 'L') === (trans === 'N');
  const exact: Q[] = new Array(n);
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    let s = Q.of(bs[i]!);
    for (let j = lower ? 0 : i + 1; j < (lower ? i : n); j++) s = s.sub(Q.of(trans === 'N' ? stored(i, j) : stored(j, i)).mul(exact[j]!));
    exact[i] = diag === 'U' ? s : s.div(Q.of(stored(i, i)));
  }
  for (const spin of [undefined, '0']) {
    knobs({ MODPREC_TRSV_SPIN: spin });
    for (let i = 0; i < n; i++) x.set(i, bs[i]!);
    const report = await trsv({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic: ar, strict: true });
    expect(report.backend).toBe('gpu');
    const bound = trsvBound({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic: ar });
    for (let i = 0; i < n; i++) {
      const got = storedX(i);
      expect(bound[i] === Infinity || (Number.isFinite(got) && Q.of(got).sub(exact[i]!).abs().cmp(Q.of(bound[i]!)) <= 0), `${ar.name} ${uplo}${trans}${diag} n=${n} spin=${spin} component ${i}`).toBe(true);
    }
  }
}

describe('one-dispatch TRSV forms', () => {
  // n = 150: two full blocks and a partial one (rows and columns past n in the last tile). The walker alone
  // (no helper publishes) is deterministic: the forms that only move loads give the default's bits; every form
  // on (row lanes, lazy tiles too) gives another order of the same sums, within the bound, alone and with helpers.
  for (const [arithmetic, uplo, trans, diag, format] of [['f32', 'L', 'N', 'N', 'bf16'], ['ff', 'U', 'T', 'U', 'f32']] as const) {
    it(`${uplo}${trans}${diag}, A ${format}, ${arithmetic}: column inverse, early poll, two ahead give the default's bits; all forms within the bound`, async () => {
      await requireRuntime();
      const n = 150;
      const A = deviceMatrix(await toDevice(triangular(n, 5), { format }), n, n);
      const ha = await A.data.toHost();
      const b = randomValues(n, 6);
      const solve = async (forms: Partial<TrsvKernelSwitches>, spin?: string): Promise<{ sol: Float64Array; b: Float64Array }> => {
        setTrsvKernelSwitches({ ...OFF, ...forms });
        knobs({ MODPREC_TRSV_SPIN: spin });
        const x = await toDevice(b, { format: arithmetic === 'ff' ? 'ff' : 'f32' });
        const stored = (await x.toHost()) as Float64Array;
        await gpuTrsv({ A, x, uplo, trans, diag }, { arithmetic });
        const sol = (await x.toHost()) as Float64Array;
        x.destroy();
        return { sol, b: stored };
      };
      const signed = (v: Float64Array): (number | string)[] => [...v].map((e) => (Object.is(e, -0) ? '-0' : e));
      const base = await solve({}, '0');
      expect(signed((await solve(SAME_BITS, '0')).sol)).toEqual(signed(base.sol));
      for (const spin of ['0', undefined]) {
        const all = await solve(ALL, spin);
        expect(residualRatio(ha, all.b, all.sol, n, uplo, trans, diag, arithmetic), `spin ${spin}`).toBeLessThanOrEqual(1);
      }
      A.data.destroy();
    });
  }

  // Whether a helper's P came in time or the walker made it itself, x has the same bits: the walker makes P as the
  // helper does (same tiles, chains and quarter sums). n = 300: five blocks, helpers for blocks 2 … 4. On llvmpipe
  // the walker finds helpers' P words when it polls 1000 rounds (the build before gave other bits then: blocks 2 …).
  for (const [arithmetic, uplo, trans, diag, forms] of [['f32', 'L', 'N', 'N', QUAD], ['ff', 'U', 'T', 'U', OFF], ['ff', 'L', 'T', 'N', ALL]] as const) {
    it(`${uplo}${trans}${diag} ${arithmetic}: the same bits with helpers (waiting long for P) as with the walker alone`, async () => {
      await requireRuntime();
      setTrsvKernelSwitches(forms);
      const n = 300;
      const A = deviceMatrix(await toDevice(triangular(n, 31), { format: 'f32' }), n, n);
      const b = randomValues(n, 32);
      const solve = async (spin: string | undefined, wait: string | undefined): Promise<(number | string)[]> => {
        knobs({ MODPREC_TRSV_SPIN: spin, MODPREC_TRSV_WAIT: wait });
        const x = await toDevice(b, { format: arithmetic === 'ff' ? 'ff' : 'f32' });
        await gpuTrsv({ A, x, uplo, trans, diag }, { arithmetic });
        const sol = [...((await x.toHost()) as Float64Array)].map((e) => (Object.is(e, -0) ? '-0' : e));
        x.destroy();
        return sol;
      };
      const alone = await solve('0', '1');
      for (let round = 0; round < 3; round++) expect(await solve(undefined, '1000'), `round ${round}`).toEqual(alone);
      A.data.destroy();
    });
  }

  // As in trsv.test.ts for the default form: the second solve on a plan whose helpers published polls once and
  // finds the first solve's P, stale under its key; it must sum every earlier block itself and not add that P too.
  // (A in bf16 and x in f32: the program of the L N N case above.)
  it('early poll: a timed-out first poll drops the stale P words it read', async () => {
    await requireRuntime();
    setTrsvKernelSwitches(ALL);
    const n = 333;
    const A = deviceMatrix(await toDevice(triangular(n, 21), { format: 'bf16' }), n, n);
    const ha = await A.data.toHost();
    const x = await toDevice(randomValues(n, 22), { format: 'f32' });
    await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
    const b = await x.toHost();
    knobs({ MODPREC_TRSV_SPIN: '0', MODPREC_TRSV_WAIT: '1' });
    await gpuTrsv({ A, x, uplo: 'L' }, { arithmetic: 'f32' });
    expect(residualRatio(ha, b, await x.toHost(), n, 'L', 'N', 'N', 'f32')).toBeLessThanOrEqual(1);
    A.data.destroy();
    x.destroy();
  });

  // Every form on, a random variant and arithmetic: x within trsvBound(backend 'gpu') of the exact solution of the
  // stored system, with helpers and with the walker alone.
  it('all forms: within trsvBound against the exact solution, with helpers and walker alone', async () => {
    await requireRuntime();
    setTrsvKernelSwitches(ALL);
    const shape = fc.record({
      ar: fc.constantFrom(formats.f32, formats.ff),
      n: fc.integer({ min: 1, max: 140 }),
      uplo: fc.constantFrom<'L' | 'U'>('L', 'U'),
      trans: fc.constantFrom<'N' | 'T'>('N', 'T'),
      diag: fc.constantFrom<'N' | 'U'>('N', 'U'),
      big: fc.constantFrom(0.05, 0.5),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(fc.asyncProperty(shape, async ({ ar, n, uplo, trans, diag, big, seed }) => {
      const a = triangular(n, seed).map((v, k) => (k % (n + 1) === 0 ? v : v * n * big));
      await withinBoundExactly(ar, n, uplo, trans, diag, a, randomValues(n, seed + 2));
    }), { numRuns: 1 });
  });

  // Quad rows hold only where the 16-byte loads are aligned runs of a column of A: op(A) = Aᵀ, binary32, lda % 4 = 0.
  it('quad rows: 16-byte reads of op(A) = Aᵀ only where they hold', async () => {
    await requireRuntime();
    for (const [n, trans, format, holds] of [[152, true, 'f32', true], [150, true, 'f32', false], [152, false, 'f32', false], [152, true, 'bf16', false]] as const) {
      const A = deviceMatrix(await toDevice(triangular(n, 3), { format }), n, n);
      expect(quadRowsHold(A.data, trans, n), `${n} ${trans} ${format}`).toBe(holds);
      if (holds) expect(walkerSource(gpuF32, A.data, { lowerOp: false, trans, unit: false }, 1, 4, undefined, { rowLanes: true, quadRows: true }).source).toContain('AQuad');
      A.data.destroy();
    }
  });

  // The timed case of issue 19 (L T, A fp32) with lda = n a multiple of 4, the default forms and quad rows; unit
  // diagonal (the tiles, what quad rows change, are those of L T N; the exact solution stays dyadic, so quick). n = 68:
  // a full block and a partial one (runs of four past n), against the exact solution (rationals grow fast with n);
  // n = 152, three blocks so that a helper sums a tile too, against the residual bound of the first test, f32 only
  // (its kernel is the one the exact check compiled).
  it('quad rows: L T U, A f32: within trsvBound against the exact solution (f32, ff), and the residual bound with helpers', async () => {
    await requireRuntime();
    setTrsvKernelSwitches(QUAD);
    for (const [ar, seed] of [[formats.f32, 31], [formats.ff, 37]] as const) await withinBoundExactly(ar, 68, 'L', 'T', 'U', triangular(68, seed).map((v) => v * 8), randomValues(68, seed + 2));
    const n = 152;
    const A = deviceMatrix(await toDevice(triangular(n, 41).map((v) => v * 8), { format: 'f32' }), n, n);
    const ha = await A.data.toHost();
    const b = randomValues(n, 42);
    for (const spin of ['0', undefined]) {
      knobs({ MODPREC_TRSV_SPIN: spin });
      const x = await toDevice(b, { format: 'f32' });
      const stored = await x.toHost();
      await gpuTrsv({ A, x, uplo: 'L', trans: 'T', diag: 'U' }, { arithmetic: 'f32' });
      expect(residualRatio(ha, stored, await x.toHost(), n, 'L', 'T', 'U', 'f32'), `spin ${spin}`).toBeLessThanOrEqual(1);
      x.destroy();
    }
    A.data.destroy();
  });
});
