/**
 * trsvBound(…, { backend: 'gpu' }) bounds what the GPU's TRSV (explicitly inverted 64×64 diagonal blocks)
 * returns, also for ILL-conditioned diagonal blocks: unit or graded (±2^k) diagonals with large off-diagonal
 * entries, every uplo × trans × diag, f32 and ff arithmetic, f32/f16/f64 storage, checked against the exact
 * rational solution of the stored system. The CPU's substitution bound is no bound for these runs: a fixed
 * case shows the GPU outside it and inside the GPU bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trsv, trsvBound, range, colMajor, rowMajor, formats, type Range } from '../../src/index.js';
import { Q } from '../dd/exact-rational.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const STORAGES = { f32: formats.f32, f16: formats.f16, f64: formats.f64 } as const;
type StorageName = keyof typeof STORAGES;
type Ar = typeof formats.f32 | typeof formats.ff;

interface Case {
  readonly n: number;
  readonly storage: StorageName;
  readonly rowMajorA: boolean;
  /** log2 of the largest |diagonal| scale (0: unit-sized diagonal). */
  readonly grade: number;
  /** Magnitude of the large off-diagonal entries. */
  readonly big: number;
  /** Chance that an off-diagonal entry is large (the rest are small). */
  readonly density: number;
  /** Off-diagonal signs: random, or all negative under a positive diagonal (an M-matrix: no cancellation in the inverse). */
  readonly signs: 'random' | 'm';
  /** b: random, or op(A)·x₀ for a modest positive x₀ (so that X·b cancels heavily). */
  readonly rhs: 'random' | 'solution';
  readonly seed: number;
}

/** op(A) stored in A's triangle `uplo`; diagonal ±2^k (k ≤ grade), off-diagonal entries small or ±big. */
function problem(c: Case, uplo: 'L' | 'U', trans: 'N' | 'T', diag: 'N' | 'U', ar: Ar): { A: Range<2, any>; x: Range<1, any> } {
  const st = STORAGES[c.storage];
  const { n } = c;
  const A = range((c.rowMajorA ? rowMajor<2> : colMajor<2>)({ size: [n, n], storage: st, arithmetic: ar }));
  const r = randomValues(n * n, c.seed);
  const pick = randomValues(n * n, c.seed + 1);
  const grades = randomValues(n, c.seed + 2);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const inTriangle = uplo === 'L' ? j <= i : j >= i;
      const v = r[i * n + j]!;
      let value = 0;
      const sign = c.signs === 'm' ? (i === j ? 1 : -1) : v < 0 ? -1 : 1;
      if (i === j) value = sign * 2 ** Math.round(grades[i]! * c.grade);
      else if (inTriangle) value = sign * (Math.abs(pick[i * n + j]!) < c.density ? c.big * (0.5 + Math.abs(v) / 2) : Math.abs(v) / 4);
      // The other triangle holds garbage that must never be read.
      A.set(i, j, inTriangle ? value : 1e4 * v + 7);
    }
  }
  const x = range(colMajor<1>({ size: [n], storage: st, arithmetic: ar }));
  const b = randomValues(n, c.seed + 3);
  if (c.rhs === 'solution') {
    const x0 = b.map((v) => 0.75 + v / 4);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += (i === j && diag === 'U' ? 1 : opEntry(A, i, j, uplo, trans)) * x0[j]!;
      b[i] = s;
    }
  }
  for (let i = 0; i < n; i++) x.set(i, b[i]!);
  return { A, x };
}

/** op(A)(i, j) as stored, zero outside the triangle. */
function opEntry(A: Range<2, any>, i: number, j: number, uplo: 'L' | 'U', trans: 'N' | 'T'): number {
  const [r, k] = trans === 'N' ? [i, j] : [j, i];
  return (uplo === 'L' ? k <= r : k >= r) ? storedMatrix(A, r, k) : 0;
}

const storedMatrix = (A: Range<2, any>, i: number, j: number): number => A.accessor.storage.decode(A.accessor.data as never, A.accessor.linearIndex([i, j])) as number;
const storedVector = (x: Range<1, any>): number[] => Array.from({ length: x.length() }, (_, i) => x.accessor.storage.decode(x.accessor.data as never, x.accessor.linearIndex([i])) as number);

/** The exact solution of op(A)·x = b for the stored A and b, by substitution in rationals. */
function exactSolution(A: Range<2, any>, b: number[], uplo: 'L' | 'U', trans: 'N' | 'T', diag: 'N' | 'U'): Q[] {
  const n = b.length;
  const t = (i: number, j: number): number => (trans === 'N' ? storedMatrix(A, i, j) : storedMatrix(A, j, i));
  const lower = (uplo === 'L') === (trans === 'N');
  const x: Q[] = new Array(n);
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    let s = Q.of(b[i]!);
    const [from, to] = lower ? [0, i] : [i + 1, n];
    for (let j = from; j < to; j++) { const a = t(i, j); if (a !== 0) s = s.sub(Q.of(a).mul(x[j]!)); }
    x[i] = diag === 'U' ? s : s.div(Q.of(t(i, i)));
  }
  return x;
}

/** Runs the GPU, returns for each component the error, the GPU bound and the CPU bound (all exact comparisons). */
async function run(c: Case, uplo: 'L' | 'U', trans: 'N' | 'T', diag: 'N' | 'U', ar: Ar, blockSize?: 64 | 128 | 256): Promise<{ withinGpu: boolean[]; withinCpu: boolean[]; finiteGpu: number }> {
  const { A, x } = problem(c, uplo, trans, diag, ar);
  const xe = exactSolution(A, storedVector(x), uplo, trans, diag);
  const report = await trsv({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic: ar, strict: true, blockSize });
  expect(report.backend).toBe('gpu');
  const gpuBound = trsvBound({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic: ar, blockSize });
  const cpuBound = trsvBound({ A, x, uplo, trans, diag }, { arithmetic: ar });
  const got = storedVector(x);
  const within = (bound: Float64Array) => got.map((g, i) => bound[i] === Infinity || (Number.isFinite(g) && Q.of(g).sub(xe[i]!).abs().cmp(Q.of(bound[i]!)) <= 0));
  return { withinGpu: within(gpuBound), withinCpu: within(cpuBound), finiteGpu: [...gpuBound].filter(Number.isFinite).length };
}

const caseArbitrary = fc.record({
  n: fc.integer({ min: 1, max: 140 }),
  storage: fc.constantFrom<StorageName>('f32', 'f16', 'f64'),
  rowMajorA: fc.boolean(),
  grade: fc.integer({ min: 0, max: 12 }),
  big: fc.constantFrom(1, 3, 30, 300),
  density: fc.constantFrom(0.01, 0.05, 0.2),
  signs: fc.constantFrom<'random' | 'm'>('random', 'm'),
  rhs: fc.constantFrom<'random' | 'solution'>('random', 'solution'),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
});

describe("trsvBound with backend 'gpu' on ill-conditioned diagonal blocks", () => {
  for (const ar of [formats.f32, formats.ff] as const) {
    for (const uplo of ['L', 'U'] as const) {
      for (const trans of ['N', 'T'] as const) {
        for (const diag of ['N', 'U'] as const) {
          it(`${uplo}${trans}${diag}, ${ar.name} arithmetic: the GPU's x is within the GPU bound`, async () => {
            await requireRuntime();
            await fc.assert(fc.asyncProperty(caseArbitrary, async (c) => {
              const { withinGpu } = await run(c, uplo, trans, diag, ar);
              withinGpu.forEach((ok, i) => expect(ok, `component ${i}`).toBe(true));
            }), { numRuns: 2 });
          });
        }
      }
    }
  }
});

describe("trsvBound with backend 'gpu' and blockSize 128, 256: the bound of the block size that ran", () => {
  for (const blockSize of [128, 256] as const) {
    for (const ar of [formats.f32, formats.ff] as const) {
      // blockSize 256 inverts 256×256 blocks: 3.5–7 minutes per case on a shared llvmpipe (2026-11-26), so it runs when
      // MODPREC_SLOW_TESTS=1 (it passed there: f32 and ff, n 250–262); 128 runs always, with the same code path.
      it.skipIf(blockSize === 256 && process.env.MODPREC_SLOW_TESTS !== '1')(`blockSize ${blockSize}, ${ar.name} arithmetic: a random uplo × trans × diag within the bound (around a block boundary)`, async () => {
        await requireRuntime();
        const shape = fc.record({ uplo: fc.constantFrom<'L' | 'U'>('L', 'U'), trans: fc.constantFrom<'N' | 'T'>('N', 'T'), diag: fc.constantFrom<'N' | 'U'>('N', 'U') });
        // Around one block boundary: a full block, then a partial one (or a single partial block).
        // The exact oracle's numbers grow with n·(log2 big + grade), and every storage × layout compiles its own programs:
        // milder entries in one storage keep the 256 case affordable on llvmpipe (the other cases vary them).
        const mild = (c: Case): Case => (blockSize === 256 ? { ...c, big: Math.min(c.big, 3), grade: Math.min(c.grade, 2), density: 0.01, storage: 'f32', rowMajorA: false } : c);
        const [lo, hi] = blockSize === 256 ? [250, 262] : [blockSize - 16, blockSize + 16];
        const sized = caseArbitrary.chain((c) => fc.integer({ min: lo, max: hi }).map((n) => mild({ ...c, n })));
        await fc.assert(fc.asyncProperty(sized, shape, async (c, s) => {
          const { withinGpu } = await run(c, s.uplo, s.trans, s.diag, ar, blockSize);
          withinGpu.forEach((ok, i) => expect(ok, `component ${i}`).toBe(true));
        }), { numRuns: 1 });
      });
    }
  }

  it('the block size is part of the bound: a 128-row block bounded as 64-row blocks is not covered', async () => {
    await requireRuntime();
    // One unit lower bidiagonal M-matrix block of 128 rows (subdiagonal −a): its inverse grows like (1 + a)^127, so
    // the 128-block run carries that condition, which the 64-block model (two blocks of (1 + a)^63) does not see.
    const n = 128, a = 1;
    const build = () => {
      const A = range(colMajor<2>({ size: [n, n], storage: formats.f32, arithmetic: formats.f32 }));
      for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) A.set(i, j, i === j ? 1 : i === j + 1 ? -a : 0);
      const x = range(colMajor<1>({ size: [n], storage: formats.f32, arithmetic: formats.f32 }));
      const x0 = randomValues(n, 9).map((v) => 0.75 + v / 4);
      for (let i = 0; i < n; i++) x.set(i, x0[i]! - (i > 0 ? a * x0[i - 1]! : 0));
      return { A, x };
    };
    const { A, x } = build();
    const exact = exactSolution(A, storedVector(x), 'L', 'N', 'U');
    await trsv({ A, x, uplo: 'L', diag: 'U' }, { backend: 'gpu', arithmetic: formats.f32, strict: true, blockSize: 128 });
    const got = storedVector(x);
    const b128 = trsvBound({ A, x, uplo: 'L', diag: 'U' }, { backend: 'gpu', arithmetic: formats.f32, blockSize: 128 });
    const b64 = trsvBound({ A, x, uplo: 'L', diag: 'U' }, { backend: 'gpu', arithmetic: formats.f32 });
    const err = got.map((g, i) => Q.of(g).sub(exact[i]!).abs());
    err.forEach((e, i) => expect(b128[i] === Infinity || e.cmp(Q.of(b128[i]!)) <= 0, `component ${i}`).toBe(true));
    // The 128-row model is at least as large everywhere (a longer inverse chain, a larger block condition).
    for (let i = 0; i < n; i++) expect(b128[i]!).toBeGreaterThanOrEqual(b64[i]!);
  });

  it('validates blockSize as gpuTrsv does, and refuses it on the CPU', async () => {
    const { A, x } = problem({ n: 3, storage: 'f32', rowMajorA: false, grade: 0, big: 1, density: 0.1, signs: 'random', rhs: 'random', seed: 3 }, 'L', 'N', 'N', formats.f32);
    expect(() => trsvBound({ A, x, uplo: 'L' }, { backend: 'gpu', arithmetic: formats.f32, blockSize: 32 as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.blockSize' }));
    expect(() => trsv({ A, x, uplo: 'L' }, { backend: 'gpu', arithmetic: formats.f32, blockSize: 100 as never })).toThrow(expect.objectContaining({ parameter: 'options.blockSize' }));
    expect(() => trsv({ A, x, uplo: 'L' }, { blockSize: 128 } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.blockSize' }));
  });
});

/** A unit lower bidiagonal M-matrix block, subdiagonal −a: cond(D) ≈ (1 + a)^63 for a 64×64 block. */
async function bidiagonal(a: number, ar: Ar): Promise<{ got: number[]; exact: Q[]; gpu: Float64Array; cpu: Float64Array }> {
  const n = 64;
  const A = range(colMajor<2>({ size: [n, n], storage: formats.f32, arithmetic: ar }));
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) A.set(i, j, i === j ? 1 : i === j + 1 ? -a : 0);
  const x = range(colMajor<1>({ size: [n], storage: formats.f32, arithmetic: ar }));
  const x0 = randomValues(n, 5).map((v) => 0.75 + v / 4);
  for (let i = 0; i < n; i++) x.set(i, x0[i]! - (i > 0 ? a * x0[i - 1]! : 0));
  const exact = exactSolution(A, storedVector(x), 'L', 'N', 'U');
  await trsv({ A, x, uplo: 'L', diag: 'U' }, { backend: 'gpu', arithmetic: ar, strict: true });
  return { got: storedVector(x), exact, gpu: trsvBound({ A, x, uplo: 'L', diag: 'U' }, { backend: 'gpu', arithmetic: ar }), cpu: trsvBound({ A, x, uplo: 'L', diag: 'U' }, { arithmetic: ar }) };
}

describe("trsvBound with backend 'gpu': what it promises", () => {
  it('an ill-conditioned block (cond ≈ 1e5) in f32: a finite bound, larger than substitution\'s, that holds', async () => {
    await requireRuntime();
    const { got, exact, gpu, cpu } = await bidiagonal(1.2, formats.f32);
    for (let i = 0; i < got.length; i++) {
      expect(Number.isFinite(gpu[i]!), `bound ${i}`).toBe(true);
      expect(Q.of(got[i]!).sub(exact[i]!).abs().cmp(Q.of(gpu[i]!)) <= 0, `component ${i}`).toBe(true);
    }
    // The explicit inverse's price: the last row's bound is far above the substitution bound.
    expect(gpu[63]!).toBeGreaterThan(10 * cpu[63]!);
  });

  it('+∞ where a block is too ill conditioned for x̂ to say anything about the residual (cond ≫ 1/u)', async () => {
    await requireRuntime();
    const { gpu } = await bidiagonal(3, formats.f32);
    expect(gpu[63]).toBe(Infinity);
  });

  it('validates options as the GPU call does: arithmetic and accumulation', () => {
    const A = range(colMajor<2>({ size: [2, 2], storage: formats.f32, arithmetic: formats.f32 }));
    const x = range(colMajor<1>({ size: [2], storage: formats.f32, arithmetic: formats.f32 }));
    A.set(0, 0, 1); A.set(1, 1, 1);
    expect(() => trsvBound({ A, x }, { backend: 'gpu', arithmetic: formats.f64 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.arithmetic' }));
    expect(() => trsvBound({ A, x }, { backend: 'gpu', accumulation: 'pairwise' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.accumulation' }));
    expect(() => trsvBound({ A, x }, { backend: 'tpu' } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'options.backend' }));
    // x̂ = 0 says b was 0 — or a binary32 subnormal that a flushing device read as ±0, or products it flushed: a
    // bound at binary32's underflow threshold, not 0 (test/gpu/trsv-gpu-bound-flush.test.ts).
    const zero = [...trsvBound({ A, x }, { backend: 'gpu' })];
    expect(zero.every((v) => v >= 2 ** -126 && v <= 2 ** -120)).toBe(true);
  });
});
