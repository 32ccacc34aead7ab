/**
 * The transposed copy of the one-dispatch GPU TRSV (`TrsvKernelSwitches.transposedCopy`,
 * kernels/trsv/trsv-transposed-copy.ts): a transposed solve runs the N walker on a column-major copy of op(A)'s block
 * triangle. The copy holds A's values as the walker reads them and the N walker sums them in its own order, so x has
 * the bits of the transposed solve without row lanes and quad rows (and N solves, which it leaves alone, the
 * default's); with every layout (column-major, row-major, sub-ranges) and variant, x is within trsvBound(backend
 * 'gpu') of the exact rational solution of the stored system; non-finite values take the CPU's substitution; a
 * refilled matrix gets a new copy.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuTrsv } from '../../kernels/trsv/trsv-webgpu.js';
import { setTrsvKernelSwitches, trsvKernelSwitches, type TrsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { rereadTuningKnobs } from '../../src/backends/webgpu/tuning-knobs.js';
import { colMajor, formats, matrix, range, rowMajor, scaledReducedColMajor, span, toArray, trsv, trsvBound, vector, type Range } from '../../src/index.js';
import { Q } from '../dd/exact-rational.js';
import { nonFinitePattern, randomValues, requireRuntime } from './gpu-test-helpers.js';

/** The default forms, spelled out (the tests do not depend on the environment's switches). */
const DEFAULT: TrsvKernelSwitches = { columnInverse: true, rowLanes: 'transposed', lazyTiles: true, earlyPoll: true, ahead: true, treeQuarters: false, quadRows: true, ddLanes: false, transposedCopy: false };
const COPY: TrsvKernelSwitches = { ...DEFAULT, transposedCopy: true };
/** The default without row lanes (and so without quad rows): the N walker's numbering on op(A) = Aᵀ read from A. */
const NO_LANES: TrsvKernelSwitches = { ...DEFAULT, rowLanes: false };
const initial = trsvKernelSwitches();

const VARIANTS = (['L', 'U'] as const).flatMap((uplo) => (['N', 'T'] as const).flatMap((trans) => (['N', 'U'] as const).map((diag) => ({ uplo, trans, diag }))));

function spin(value: string | undefined): void {
  if (value === undefined) delete process.env.MODPREC_TRSV_SPIN;
  else process.env.MODPREC_TRSV_SPIN = value;
  rereadTuningKnobs();
}

afterEach(() => {
  setTrsvKernelSwitches(initial);
  spin(undefined);
});

/** Column-major n×n: diagonal ±(1 … 2), off-diagonal entries up to 1/n in both triangles (the unread one too). */
function triangular(n: number, seed: number): Float64Array {
  const a = randomValues(n * n, seed).map((v) => v / n);
  const d = randomValues(n, seed + 1);
  for (let i = 0; i < n; i++) a[i + i * n] = (1.5 + d[i]! / 2) * (i % 2 === 0 ? 1 : -1);
  return a;
}

const signed = (v: ArrayLike<number>): (number | string)[] => Array.from(v, (e) => (Object.is(e, -0) ? '-0' : e));

describe('TRSV transposed copy', () => {
  // n = 150: two full blocks and a partial one, helpers sum a tile. The walker alone and with helpers give the same
  // bits (trsv-walker-forms), so both are compared. For T the copy must differ from the default somewhere in this set
  // (else the comparison could not tell whether the copy ran).
  // The other storages (binary32 registers from bf16, float-float registers from f64) change only A's reads: the T variants.
  for (const [arithmetic, format, only] of [['f32', 'f32', 'all'], ['ff', 'f32', 'all'], ['f32', 'bf16', 'T'], ['ff', 'f64', 'LTN UTU']] as const) {
    it(`${arithmetic}, A ${format}: the bits of the solve without row lanes (T) and of the default (N), variants ${only}`, async () => {
      await requireRuntime();
      const n = 150;
      const A = deviceMatrix(await toDevice(triangular(n, 5), { format }), n, n);
      const b = randomValues(n, 6);
      const solve = async (forms: TrsvKernelSwitches, uplo: 'L' | 'U', trans: 'N' | 'T', diag: 'N' | 'U', helpers: boolean): Promise<(number | string)[]> => {
        setTrsvKernelSwitches(forms);
        spin(helpers ? undefined : '0');
        const x = await toDevice(b, { format: arithmetic === 'ff' ? 'ff' : 'f32' });
        await gpuTrsv({ A, x, uplo, trans, diag }, { arithmetic });
        const sol = signed((await x.toHost()) as Float64Array);
        x.destroy();
        return sol;
      };
      let differs = false;
      for (const [k, { uplo, trans, diag }] of VARIANTS.entries()) {
        if (only === 'T' ? trans !== 'T' : only !== 'all' && !only.split(' ').includes(`${uplo}${trans}${diag}`)) continue;
        const reference = await solve(trans === 'T' ? NO_LANES : DEFAULT, uplo, trans, diag, false);
        expect(await solve(COPY, uplo, trans, diag, k % 2 === 0), `${uplo}${trans}${diag}`).toEqual(reference);
        if (trans === 'T' && format === 'f32' && k < 6) differs ||= JSON.stringify(await solve(DEFAULT, uplo, trans, diag, false)) !== JSON.stringify(reference);
      }
      if (format === 'f32') expect(differs, 'the default (row lanes) differs from the copy somewhere').toBe(true);
      A.data.destroy();
    });
  }

  /**
   * Through the public trsv on a range (layout `layout`): x within trsvBound(backend 'gpu') of the exact rational
   * solution of the stored system, for every variant, the copy on.
   */
  async function exactly(layout: 'col' | 'row' | 'sub', arithmetic: typeof formats.f32 | typeof formats.ff, n: number, seed: number): Promise<void> {
    setTrsvKernelSwitches(COPY);
    for (const [k, { uplo, trans, diag }] of VARIANTS.entries()) {
      const st = { storage: formats.f32, arithmetic };
      // A sub-range: rows 2 … n + 1 and columns 3 … n + 2 of an (n + 5) × (n + 7) column-major range.
      const A: Range<2, number> = layout === 'sub'
        ? range(colMajor<2>({ size: [n + 5, n + 7], ...st } as never)).sub(span(2, n + 2), span(3, n + 3)) as never
        : range((layout === 'row' ? rowMajor<2> : colMajor<2>)({ size: [n, n], ...st } as never)) as never;
      const a = triangular(n, seed + k).map((v) => v * 4);
      for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) A.set(i, j, a[i + j * n]!);
      // x in f64 under ff (an f32 x under ff is rounded between rows: the substitution alone, no walker).
      const bv = randomValues(n, seed + 50 + k);
      const newX = (): Range<1, number> => {
        const v = range(colMajor<1>({ size: [n], storage: arithmetic === formats.ff ? formats.f64 : formats.f32, arithmetic } as never)) as Range<1, number>;
        for (let i = 0; i < n; i++) v.set(i, bv[i]!);
        return v;
      };
      const x = newX();
      // The stored values (an ff range's get gives its arithmetic's value object).
      const stored = (i: number, j: number): number => A.accessor.storage.decode(A.accessor.data as never, A.accessor.linearIndex([i, j])) as number;
      const storedX = (i: number): number => x.accessor.storage.decode(x.accessor.data as never, x.accessor.linearIndex([i])) as number;
      const b = Array.from({ length: n }, (_, i) => storedX(i));
      const lower = (uplo === 'L') === (trans === 'N');
      const exact: Q[] = new Array(n);
      for (let step = 0; step < n; step++) {
        const i = lower ? step : n - 1 - step;
        let s = Q.of(b[i]!);
        for (let j = lower ? 0 : i + 1; j < (lower ? i : n); j++) s = s.sub(Q.of(trans === 'N' ? stored(i, j) : stored(j, i)).mul(exact[j]!));
        exact[i] = diag === 'U' ? s : s.div(Q.of(stored(i, i)));
      }
      spin(k % 2 === 0 ? undefined : '0');
      const report = await trsv({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic, strict: true });
      expect(report.backend).toBe('gpu');
      const bound = trsvBound({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic });
      for (let i = 0; i < n; i++) {
        const got = storedX(i);
        expect(bound[i] === Infinity || (Number.isFinite(got) && Q.of(got).sub(exact[i]!).abs().cmp(Q.of(bound[i]!)) <= 0), `${layout} ${arithmetic.name} ${uplo}${trans}${diag} n=${n} component ${i}`).toBe(true);
      }
      // Where the copy serves (a transposed solve of the stored matrix: T of a column-major A, N of a row-major one), it
      // ran: x has the bits of the solve without row lanes.
      if (n > 1 && (trans === 'T') !== (layout === 'row')) {
        setTrsvKernelSwitches(NO_LANES);
        const other = newX();
        await trsv({ A, x: other, uplo, trans, diag }, { backend: 'gpu', arithmetic, strict: true });
        setTrsvKernelSwitches(COPY);
        expect(signed(Array.from({ length: n }, (_, i) => storedX(i))), `${layout} ${uplo}${trans}${diag}`).toEqual(signed(toArray(other)));
      }
    }
  }

  // n = 70: a full block and a partial one (the copy's rows and columns past n are zero), n = 1 and 64: one block.
  it('column-major, every variant (f32, n = 70; ff, n = 1): within trsvBound of the exact solution', async () => {
    await requireRuntime();
    await exactly('col', formats.f32, 70, 11);
    await exactly('col', formats.ff, 1, 12);
  });

  it('row-major (the transpose of N solves: the copy then serves L N and U N), every variant (ff, n = 70): within trsvBound', async () => {
    await requireRuntime();
    await exactly('row', formats.ff, 70, 21);
  });

  it('a sub-range of a larger column-major range, every variant (f32, n = 64): within trsvBound', async () => {
    await requireRuntime();
    await exactly('sub', formats.f32, 64, 31);
  });

  // A scaled integer storage (i8, a scale per column): the copy holds the reads through the scales, binary32.
  it('A in i8 with column scales, L T N (f32, n = 70): the bits of the solve without row lanes', async () => {
    await requireRuntime();
    const n = 70;
    const scale = Float64Array.from({ length: n }, (_, j) => 2 ** -(6 + (j % 5)));
    const A = range(scaledReducedColMajor<2>({ size: [n, n], storage: formats.i8, arithmetic: formats.f32, scaleMask: [false, true], scale } as never)) as Range<2, number>;
    const r = randomValues(n * n, 61);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) A.set(i, j, (i === j ? 127 : Math.round(r[i + j * n]! * 1.4)) * scale[j]!);
    const b = Array.from(randomValues(n, 62));
    for (const [uplo, diag] of [['L', 'N']] as const) {
      const solve = async (forms: TrsvKernelSwitches): Promise<(number | string)[]> => {
        setTrsvKernelSwitches(forms);
        const x = vector(b, { storage: formats.f32 });
        await trsv({ A, x, uplo, trans: 'T', diag }, { arithmetic: formats.f32, backend: 'gpu', strict: true });
        return signed(toArray(x));
      };
      const copied = await solve(COPY);
      expect(copied.every((v) => typeof v === 'number' && Number.isFinite(v)), `${uplo}T${diag}`).toBe(true);
      expect(copied, `${uplo}T${diag}`).toEqual(await solve(NO_LANES));
    }
  });

  // The redo reads the copy: the substitution's terms in the CPU's order, so the CPU's IEEE result.
  it('non-finite: a zero pivot gives the CPU\'s x = [−∞, ∞, 0.5] for L T N (L = Uᵀ), f32 and ff', async () => {
    await requireRuntime();
    setTrsvKernelSwitches(COPY);
    for (const arithmetic of [formats.f32, formats.ff]) {
      const A = matrix(3, 3, (i, j) => (i === j ? [2, 0, 2][i]! : i > j ? 1 : 0), { storage: formats.f32 });
      // x in f64 under ff: not rounded between rows, so the walker solves (and redoes).
      const storage = arithmetic === formats.ff ? formats.f64 : formats.f32;
      const xc = vector([1, 1, 1], { storage });
      const xg = vector([1, 1, 1], { storage });
      trsv({ A, x: xc, uplo: 'L', trans: 'T' }, { arithmetic });
      await trsv({ A, x: xg, uplo: 'L', trans: 'T' }, { arithmetic, backend: 'gpu', strict: true });
      expect([...toArray(xc)]).toEqual([-Infinity, Infinity, 0.5]);
      expect(signed(toArray(xg)), arithmetic.name).toEqual(signed(toArray(xc)));
    }
  });

  // n = 130: a NaN entry in op(A)'s row 100 (A(30, 100) for U T N) and a zero pivot at row 120: the CPU's non-finite
  // pattern, and the bits of the solve that reads A itself without row lanes (the redo reads the copy's equal values).
  it('non-finite: NaN entry and zero pivot in a three-block U T N — the CPU\'s pattern, the bits without row lanes', async () => {
    await requireRuntime();
    const n = 130;
    const a = triangular(n, 41);
    a[30 + 100 * n] = NaN;
    a[120 + 120 * n] = 0;
    const A = matrix(n, n, (i, j) => a[i + j * n]!, { storage: formats.f32 });
    const b = Array.from(randomValues(n, 42));
    const xc = vector(b, { storage: formats.f32 });
    trsv({ A, x: xc, uplo: 'U', trans: 'T' }, { arithmetic: formats.f32 });
    const gpu = async (forms: TrsvKernelSwitches): Promise<Float64Array> => {
      setTrsvKernelSwitches(forms);
      const xg = vector(b, { storage: formats.f32 });
      await trsv({ A, x: xg, uplo: 'U', trans: 'T' }, { arithmetic: formats.f32, backend: 'gpu', strict: true });
      return toArray(xg);
    };
    const copied = await gpu(COPY);
    expect(nonFinitePattern(copied)).toBe(nonFinitePattern(toArray(xc)));
    expect(toArray(xc).some((v) => !Number.isFinite(v))).toBe(true);
    expect(signed(copied)).toEqual(signed(await gpu(NO_LANES)));
  });

  // A range's upload is refilled in place on the next call (issue 19, item 5): the copy is made again for the new values.
  it('a refilled matrix gets a new copy: the same bits as a fresh range with those values', async () => {
    await requireRuntime();
    setTrsvKernelSwitches(COPY);
    const n = 100;
    const make = (seed: number): Range<2, number> => {
      const A = range(colMajor<2>({ size: [n, n], storage: formats.f32, arithmetic: formats.f32 } as never)) as Range<2, number>;
      const a = triangular(n, seed);
      for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) A.set(i, j, a[i + j * n]!);
      return A;
    };
    const b = Array.from(randomValues(n, 52));
    const solve = async (A: Range<2, number>): Promise<(number | string)[]> => {
      const x = vector(b, { storage: formats.f32 });
      await trsv({ A, x, uplo: 'L', trans: 'T' }, { arithmetic: formats.f32, backend: 'gpu', strict: true });
      return signed(toArray(x));
    };
    const A = make(51);
    const first = await solve(A);
    const fresh = make(53);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) A.set(i, j, fresh.get(i, j));
    const second = await solve(A);
    expect(second).not.toEqual(first);
    expect(second).toEqual(await solve(fresh));
  });
});
