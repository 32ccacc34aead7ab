/**
 * The GPU dd arithmetic's fused multiply-adds (dd-gpu-fused.ts: operands straight from their storage kinds, the
 * product skipping the limbs a binary64/binary32 read leaves zero) against the unfused path they replace (each
 * operand packed into a register, then the general multiply-add): the same result bit for bit, on GEMV's dd output
 * words and DOT's value, over pairs of the storages the dd arithmetic reads (dd, f64, f32, ff, f16) and values
 * with zeros, signed zeros, subnormals, huge and tiny magnitudes, ±∞ and NaN. dd's own GEMV runs its `gemvVariant`
 * (windows of eight products, ddGpuArithmeticGemvWindow8) on the same inputs and shaders: within the exact BigInt
 * value's bound, the non-finite results of the unfused path, and the fused words where an operand is not dd or f64.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ddGpuArithmetic, ddGpuArithmeticGemvLongDd, ddGpuArithmeticUnfused, ddGpuArithmeticWindowLean8 } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, compareRational, subRational } from '../../src/testing/rational.js';
import { exactPair, exactRow, expectRowWithin } from './dd-gemv-rows.js';
import { formats, gemvBound, matrix, vector } from '../../src/index.js';
import { ddRange } from './dd-ranges.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

const unfused = { name: 'dd-unfused', arithmetic: { gpu: ddGpuArithmeticUnfused } };
/**
 * dd with its fused multiply-adds in DOT too (dd itself runs DOT windowed: its dotVariant, faster there), with DOT's
 * own default accumulators, as the unfused arithmetic it is compared with (dd's dotChains is 1).
 */
const fusedDot = { name: 'dd-fused-dot', arithmetic: { gpu: { ...ddGpuArithmetic, name: 'dd-fused-dot', dotVariant: undefined, dotChains: undefined, dotGroups: undefined } } };
/** dd with its fused multiply-adds in GEMV's partial pass too (dd itself runs it windowed: its gemvVariant). */
const fusedGemv = { name: 'dd-fused-gemv', arithmetic: { gpu: { ...ddGpuArithmetic, name: 'dd-fused-gemv', gemvVariant: undefined } } };
/** One partial-pass thread per row (N) or column (T): every thread sums whole eight-term steps, the windows' shape. */
const ONE_CHUNK = { targetThreads: 1 } as const;

/** Doubles with the edge cases the arithmetic branches on (specials only where `specials`). */
const doubles = (specials: boolean): fc.Arbitrary<number> =>
  fc.oneof(
    fc.double({ min: -4, max: 4, noNaN: true }),
    fc.constantFrom(0, -0, 5e-324, -2.5e-308, 1e300, -1e-300, 3),
    ...(specials ? [fc.constantFrom(Infinity, -Infinity, NaN)] : []),
  );

type Storage = 'dd' | 'f64' | 'f32' | 'ff' | 'f16';
/**
 * Pairs of storages (each reads into its own register kind: xf products of two long operands, one short, two short)
 * with GEMV's orientation; every pair compiles its own shaders, which llvmpipe takes seconds for, so the list is
 * short and covers each multiplication (long × long, long × short both ways, short × short).
 */
const GEMV_CASES: readonly [Storage, Storage, 'N' | 'T'][] = [['dd', 'dd', 'N'], ['f64', 'f64', 'T'], ['f32', 'f64', 'N'], ['dd', 'f64', 'T'], ['f64', 'dd', 'N'], ['ff', 'f16', 'T']];
const DOT_CASES: readonly [Storage, Storage][] = [['dd', 'dd'], ['f64', 'f32'], ['ff', 'dd']];

/** A device vector of `storage` holding `values` (dd: genuine pairs from `pairs`). */
async function upload(storage: Storage, values: readonly number[], pairs: readonly { hi: number; lo: number }[]): Promise<Awaited<ReturnType<typeof toDevice>>> {
  if (storage === 'dd') return toDevice(ddRange(pairs) as never);
  return toDevice(Float64Array.from(values), { format: storage });
}

/** The words of a dd device array. */
async function words(a: Awaited<ReturnType<typeof toDevice>>): Promise<number[]> {
  return Array.from((await a.encoded()).words);
}

const initialSwitches = gpuKernelSwitches();
afterEach(() => {
  setGpuKernelSwitches(initialSwitches);
});
// x decoded once a call (ddGemvDecodedXDd, on by default since session 22) gives the same words
// (test/gpu/dd-gemv-decoded-x-dd.test.ts); this file means the long window deriving x's limbs itself.
beforeEach(() => void setGpuKernelSwitches({ ddGemvDecodedXDd: false }));


describe('fused dd multiply-adds on the GPU', () => {
  it.each(GEMV_CASES)('GEMV into dd storage, A in %s, x in %s, %s: fused and unfused give the same words; dd (windowed) is within the bound of the exact value', async (sa, sx, trans) => {
    await requireRuntime();
    // The default: the long window for every term kind (within the window limit below).
    expect(ddGpuArithmetic.gemvVariant?.()).toBe(ddGpuArithmeticGemvLongDd);
    const pair = doubleDoubles({ minExponent: -300, maxExponent: 300 });
    const transposed = trans === 'T';
    const windowKinds = (sa === 'dd' || sa === 'f64') && (sx === 'dd' || sx === 'f64');
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 20 }),
      fc.array(doubles(true), { minLength: 80, maxLength: 80 }), fc.array(pair, { minLength: 80, maxLength: 80 }),
      async (outer, inner, values, pairs) => {
        // inner: the summed dimension (columns of N, rows of T), up to two full eight-term steps and a tail.
        const [m, n] = transposed ? [inner, outer] : [outer, inner];
        const A = deviceMatrix(await upload(sa, values.slice(0, m * n), pairs.slice(0, m * n)), m, n);
        const x = await upload(sx, values.slice(80 - inner), pairs.slice(80 - inner));
        const outs: number[][] = [];
        for (const arithmetic of [fusedGemv, unfused, 'dd'] as const) {
          const y = await toDevice(new Float64Array(outer), { format: 'dd' });
          await gpuGemv({ A, x, y, alpha: 1, beta: 0, trans: transposed ? 'T' : 'N' }, { arithmetic, strict: true, ...ONE_CHUNK });
          outs.push(await words(y));
        }
        const [fused, plain, windowed] = outs as [number[], number[], number[]];
        expect(fused).toEqual(plain);
        // Operands the window does not take (f32, ff, f16 reads) go through the fused multiply-adds: the same words.
        if (!windowKinds) {
          expect(windowed).toEqual(fused);
          return;
        }
        const aValue = (k: number): { hi: number; lo: number } => (sa === 'dd' ? pairs[k]! : { hi: values[k]!, lo: 0 });
        const xValue = (k: number): { hi: number; lo: number } => (sx === 'dd' ? pairs[80 - inner + k]! : { hi: values[80 - inner + k]!, lo: 0 });
        const asPairs = (w: number[]): { hi: number; lo: number }[] => {
          const d = new Float64Array(Uint32Array.from(w).buffer);
          return Array.from({ length: outer }, (_, r) => ({ hi: d[2 * r]!, lo: d[2 * r + 1]! }));
        };
        const got = asPairs(windowed);
        const before = asPairs(plain);
        for (let r = 0; r < outer; r++) {
          if (!Number.isFinite(before[r]!.hi)) {
            // ±∞ and NaN as the unfused path (NaN's sign is open: NaN as NaN).
            if (Number.isNaN(before[r]!.hi)) expect(got[r]!.hi).toBeNaN();
            else expect(got[r]!.hi).toBe(before[r]!.hi);
            continue;
          }
          // A finite unfused result has finite operands only (∞·0 is NaN, ∞·b ∞): the exact sum exists.
          const { exact, mag } = exactRow(inner, (k) => [aValue(transposed ? k + r * m : r + k * m), xValue(k)]);
          expectRowWithin(got[r]!, exact, mag, inner, `${trans} row ${r}`);
        }
      },
    ), { numRuns: 4 });
  });

  it('GEMV N and T into dd storage, ill-conditioned rows (cond up to 1e30), dd and f64 storage: dd (windowed) within the exact value\'s bound and gemvBound', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 10, max: 100 }), fc.integer({ min: 1, max: 7 }), fc.boolean(), async (seed, big, k, transposed) => {
      // Row i of op(A): ±2^big·r terms that cancel exactly and small terms that survive (cond ≈ 2^big·Σ|r| / |result|),
      // 3k terms: whole windows and a tail; two rows, the second scaled by 3.
      const r = randomValues(k, seed);
      const s = randomValues(k, seed + 7);
      const row: number[] = [];
      const xs: number[] = [];
      for (let q = 0; q < k; q++) {
        row.push(r[q]! * 2 ** big, s[q]!, -r[q]! * 2 ** big);
        xs.push(1 + s[q]!, 1, 1 + s[q]!);
      }
      const inner = row.length;
      // dd storage (N: A dd, x dd pairs with lo 0) or f64 storage (T): the windows' dd·dd and f64·f64 products.
      const storage = transposed ? 'f64' : 'dd';
      const opA = (i: number, j: number): number => row[j]! * (i === 1 ? 3 : 1);
      const [m, n] = transposed ? [inner, 2] : [2, inner];
      const colMajor = Float64Array.from({ length: m * n }, (_, e) => (transposed ? opA(Math.floor(e / m), e % m) : opA(e % m, Math.floor(e / m))));
      const upload = (v: Float64Array): Promise<Awaited<ReturnType<typeof toDevice>>> => (storage === 'dd' ? toDevice(ddRange(Array.from(v, (hi) => ({ hi, lo: 0 }))) as never) : toDevice(v, { format: 'f64' }));
      const A = deviceMatrix(await upload(colMajor), m, n);
      const y = await toDevice(new Float64Array(2), { format: 'dd' });
      await gpuGemv({ A, x: await upload(Float64Array.from(xs)), y, alpha: 1, beta: 0, trans: transposed ? 'T' : 'N' }, { arithmetic: 'dd', strict: true, ...ONE_CHUNK });
      const got = new Float64Array(Uint32Array.from(await words(y)).buffer);
      const cpuA = matrix(m, n, (i, j) => colMajor[i + j * m]!, { storage: formats.f64, arithmetic: formats.dd });
      const bound = gemvBound({ alpha: 1, A: cpuA, x: vector(xs, { storage: formats.f64, arithmetic: formats.dd }), beta: 0, y: vector(2, { storage: formats.dd, arithmetic: formats.dd }), trans: transposed ? 'T' : 'N' }, { arithmetic: formats.dd });
      for (let i = 0; i < 2; i++) {
        const { exact, mag } = exactRow(inner, (j) => [opA(i, j), xs[j]!]);
        const value = { hi: got[2 * i]!, lo: got[2 * i + 1]! };
        expectRowWithin(value, exact, mag, inner, `cond 2^${big}, row ${i}`);
        expect(compareRational(absRational(subRational(exactPair(value), exact)), exactOf(bound[i]!)), `gemvBound row ${i}`).toBeLessThanOrEqual(0);
      }
    }), { numRuns: 8 });
  });

  it('GEMV N and T in dd run the window: 1 + 2^-120 − 1 in one step is 2^-120 (exact in the window), 0 in the fused path (1 + 2^-120 rounds to 112 bits)', async () => {
    await requireRuntime();
    // The windows of 8 (ddGemvLong off): the long f64 window keeps headroom below its anchor and may round 2^-120 away,
    // within the same bound (test/gpu/dd-gemv-long.test.ts).
    setGpuKernelSwitches({ ddGemvLong: false });
    const column = [1, 2 ** -120, -1, 0, 0, 0, 0, 0];
    for (const trans of ['N', 'T'] as const) {
      // N: one row of dd pairs; T: one column of f64 (dd·dd and f64·f64 windows, the shapes above).
      const storage = trans === 'N' ? 'dd' : 'f64';
      const data = (v: number[]): Promise<Awaited<ReturnType<typeof toDevice>>> => (storage === 'dd' ? toDevice(ddRange(v.map((hi) => ({ hi, lo: 0 }))) as never) : toDevice(Float64Array.from(v), { format: 'f64' }));
      const A = trans === 'N' ? deviceMatrix(await data(column), 1, 8) : deviceMatrix(await data(column), 8, 1);
      const x = await data([1, 1, 1, 1, 1, 1, 1, 1]);
      const results: number[] = [];
      for (const arithmetic of ['dd', fusedGemv] as const) {
        const y = await toDevice(new Float64Array(1), { format: 'dd' });
        await gpuGemv({ A, x, y, alpha: 1, beta: 0, trans }, { arithmetic, strict: true, ...ONE_CHUNK });
        results.push(new Float64Array(Uint32Array.from(await words(y)).buffer)[0]!);
      }
      expect(results, trans).toEqual([2 ** -120, 0]);
    }
  });

  // dd's DOT runs the windowed multiply-adds (another rounding, within the same bound: dd-window-dot and dd-gpu test
  // it); the fused and unfused forms, which GEMV, TRSV and the updates run, must agree bit for bit.
  it.each(DOT_CASES)('DOT, x in %s, y in %s: the fused and unfused multiply-adds give the same value (dd runs the windowed)', async (sx, sy) => {
    // dd's DOT: the lean windows of 8, one accumulator a thread (the ddDotLean switch, on by default).
    expect(ddGpuArithmetic.dotVariant?.({ x: sx, y: sy })).toBe(ddGpuArithmeticWindowLean8);
    expect(ddGpuArithmetic.dotChains?.({ x: sx, y: sy })).toBe(1);
    await requireRuntime();
    const pair = doubleDoubles({ minExponent: -300, maxExponent: 300 });
    await fc.assert(fc.asyncProperty(
      fc.array(doubles(false), { minLength: 1, maxLength: 70 }), fc.array(pair, { minLength: 70, maxLength: 70 }),
      async (values, pairs) => {
        const n = values.length;
        const x = await upload(sx, values, pairs.slice(0, n));
        const y = await upload(sy, values.map((v, k) => values[(k * 7) % n]! - v), pairs.slice(70 - n));
        const fused = await gpuDot(x, y, { arithmetic: fusedDot, strict: true });
        const plain = await gpuDot(x, y, { arithmetic: unfused, strict: true });
        expect(Object.is(fused.value, plain.value) || (Number.isNaN(fused.value) && Number.isNaN(plain.value))).toBe(true);
      },
    ), { numRuns: 4 });
  });
});
