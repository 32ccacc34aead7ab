/**
 * trsv(…, { backend: 'gpu' }) and the resident gpuTrsv give an exactly-zero xᵢ the sign the CPU's substitution gives
 * it: +0 / tᵢᵢ (−0 under a negative pivot, +0 with a unit diagonal), and s / tᵢᵢ for an infinite pivot. Before, the
 * block-inverse solves summed x = Inv·r from a +0 accumulator: A = −I, b = 0 gave x = −0 on 'js' and 'wasm' and +0 on
 * the GPU with blockSize 128 or 256 (f32, ff) and with dd at its default block size (and with a lower triangle below
 * the pivots, the one-dispatch 64-row solve too).
 *
 * Every case is exact on every backend (pivots powers of two, entries of few bits, and for n > 3 a bidiagonal op(A)
 * with ±1 entries, whose inverse blocks hold ±1 and 0), with b = op(A)·x for an x with zeros, so rows whose sum cancels
 * to zero occur; zero entries of b carry either sign. The GPU's words equal the CPU's bit for bit (Object.is): the 8
 * variants, block sizes 64, 128 and 256, f32, float-float and double-double arithmetic, n = 1, 2, 3 and 260 (more
 * than one block at each size), and f32 with A split across bindings; a nonzero dd value's tail is compared as a number (its zero's sign is no sign of
 * the value). Shapes repeat so that the shaders compile once per variant.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, matrix, trsv, vector } from '../../src/index.js';
import { gpuTrsv, toDevice, type GpuFormatName } from '../../src/backends/webgpu/index.js';
import { deviceMatrix } from '../../kernels/gemv/gemv-webgpu.js';
import { setBindingLimitForTests } from '../../src/backends/webgpu/device-array.js';
import { requireRuntime } from './gpu-test-helpers.js';

interface Setting {
  readonly arithmetic: typeof formats.f32 | typeof formats.ff | typeof formats.dd;
  readonly storageA: typeof formats.f32 | typeof formats.f64;
  readonly storageX: typeof formats.f32 | typeof formats.f64 | typeof formats.dd;
}

const SETTINGS: readonly Setting[] = [
  { arithmetic: formats.f32, storageA: formats.f32, storageX: formats.f32 },
  // An f64 x under float-float (an f32 one would be rounded between rows: always substitution).
  { arithmetic: formats.ff, storageA: formats.f32, storageX: formats.f64 },
  // A dd x under double-double (an f64 one would be rounded between rows: always substitution).
  { arithmetic: formats.dd, storageA: formats.f64, storageX: formats.dd },
];

interface Variant {
  readonly uplo: 'L' | 'U';
  readonly trans: 'N' | 'T';
  readonly diag: 'N' | 'U';
}

const VARIANTS: readonly Variant[] = (['L', 'U'] as const).flatMap((uplo) => (['N', 'T'] as const).flatMap((trans) => (['N', 'U'] as const).map((diag) => ({ uplo, trans, diag }))));

interface Case {
  /** op(A) by rows (only its triangle is used), pivots included. */
  readonly t: number[][];
  /** b, zeros of either sign. */
  readonly b: number[];
}

/**
 * A system whose solve is exact everywhere: pivots ±1, ±2, ±4 (n ≤ 3, sometimes ±∞) or ±1, off-diagonal entries of few
 * bits (n ≤ 3: the whole triangle; n > 3: the first off-diagonal only, 0 or ±1), b = op(A)·x for an x with many zeros
 * (a row with an infinite pivot gets x = 0 and sometimes ±1 more in b: the CPU's s / ±∞ with s ≠ 0).
 */
function caseOf(n: number, lower: boolean, unit: boolean): fc.Arbitrary<Case> {
  const small = n <= 3;
  const pivot = small ? fc.constantFrom(1, -1, 2, -2, 4, -4, 1, -1, 2, -2, 4, -4, Infinity, -Infinity) : fc.constantFrom(1, -1);
  const entry = small ? fc.constantFrom(0, 0.5, -0.5, 1, -1, 2, -2) : fc.constantFrom(0, 1, -1);
  const value = small ? fc.constantFrom(0, 0, 1, -1, 2, -2) : fc.constantFrom(0, 0, 0, 1, -1);
  return fc.record({
    pivots: fc.array(pivot, { minLength: n, maxLength: n }),
    entries: fc.array(entry, { minLength: n * n, maxLength: n * n }),
    x: fc.array(value, { minLength: n, maxLength: n }),
    extra: fc.array(fc.constantFrom(0, 1, -1), { minLength: n, maxLength: n }),
    negativeZero: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
  }).map(({ pivots, entries, x, extra, negativeZero }) => {
    const inTriangle = (i: number, j: number): boolean => (lower ? j < i : j > i) && (small || Math.abs(i - j) === 1);
    const t = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? (unit ? 1 : pivots[i]!) : inTriangle(i, j) ? entries[i * n + j]! : 0)));
    const infinite = (i: number): boolean => !Number.isFinite(t[i]![i]!);
    const xs = x.map((v, i) => (infinite(i) ? 0 : v));
    const b = t.map((row, i) => {
      let s = infinite(i) ? extra[i]! : 0;
      row.forEach((tij, j) => { if (xs[j] !== 0) s += tij * xs[j]!; });
      return s === 0 && negativeZero[i] ? -0 : s === 0 ? 0 : s;
    });
    return { t, b };
  });
}

/** A (n×n, the variant's storage) holding op(A) = t: NaN in the triangle not referenced, and on a unit diagonal. */
function matrixOf(s: Setting, v: Variant, t: number[][]): ReturnType<typeof matrix> {
  const n = t.length;
  const lowerA = v.uplo === 'L';
  return matrix(n, n, (i, j) => {
    if (lowerA ? j > i : j < i) return NaN;
    if (i === j && v.diag === 'U') return NaN;
    return v.trans === 'N' ? t[i]![j]! : t[j]![i]!;
  }, { storage: s.storageA, arithmetic: s.arithmetic });
}

const show = (w: ArrayLike<number>): string => Array.from(w, (v) => (Object.is(v, -0) ? '-0' : String(v))).join(', ');

/** The words of x's storage after the solve on `backend` (the GPU's through the public trsv). */
async function solved(s: Setting, v: Variant, c: Case, options: object): Promise<Float32Array | Float64Array> {
  const A = matrixOf(s, v, c.t);
  const x = vector(c.b, { storage: s.storageX, arithmetic: s.arithmetic });
  await trsv({ A, x, ...v }, options);
  return (x.accessor.data as Float32Array | Float64Array).slice();
}

/**
 * Word for word the same (Object.is), except the tail of a nonzero dd value, compared as a number: the tail's zero is
 * not a zero of the value (the CPU's dd quotient −2 / −1 is (2, −0), the GPU writes (2, +0)). A zero dd value is
 * (z, z), both words compared.
 */
function expectSameBits(cpu: ArrayLike<number>, gpu: ArrayLike<number>, what: string, dd = false): void {
  const same = cpu.length === gpu.length && Array.from(cpu).every((v, k) => Object.is(v, gpu[k]) || (dd && k % 2 === 1 && cpu[k - 1] !== 0 && v === gpu[k]));
  if (!same) expect.fail(`${what}: CPU [${show(cpu)}], GPU [${show(gpu)}]`);
}

describe("trsv with backend 'gpu': the sign of an exactly-zero xᵢ is the CPU's", () => {
  it('A = −I, b = +0: x = −0 (every arithmetic, block sizes 64, 128, 256, public trsv and resident gpuTrsv)', async () => {
    await requireRuntime();
    for (const s of SETTINGS) {
      for (const blockSize of [64, 128, 256]) {
        for (const n of [1, 3]) {
          const c: Case = { t: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? -1 : 0))), b: new Array<number>(n).fill(0) };
          const v: Variant = { uplo: 'U', trans: 'N', diag: 'N' };
          const cpu = await solved(s, v, c, { backend: 'js' });
          expect(Array.from(cpu).every((w) => Object.is(w, -0))).toBe(true);
          expectSameBits(cpu, await solved(s, v, c, { backend: 'gpu', strict: true, blockSize }), `${s.arithmetic.name} block ${blockSize} n ${n}`, s.storageX === formats.dd);
          // The resident solve: the same device code, on arrays made by toDevice (x read back as values).
          const A = await toDevice(Array.from({ length: n * n }, (_, k) => c.t[k % n]![Math.floor(k / n)]!), { format: s.storageA.name as GpuFormatName });
          const x = await toDevice(c.b, { format: s.storageX.name as GpuFormatName });
          await gpuTrsv({ A: deviceMatrix(A, n, n), x, ...v }, { arithmetic: s.arithmetic, blockSize, strict: true });
          expectSameBits(new Float64Array(n).fill(-0), await x.toHost(), `resident ${s.arithmetic.name} block ${blockSize} n ${n}`);
        }
      }
    }
  });

  it("f32, A split across bindings (the redo's window passes): every variant, n = 200", async () => {
    await requireRuntime();
    const s = SETTINGS[0]!;
    // A in f32 is 160 kB: a 64 kB limit binds it in windows of 80 columns.
    setBindingLimitForTests(64 * 1024);
    try {
      for (const v of VARIANTS) {
        const lower = (v.uplo === 'L') === (v.trans === 'N');
        // Not shrunk on failure: each step would be a GPU solve of 200 rows.
        await fc.assert(fc.asyncProperty(caseOf(200, lower, v.diag === 'U'), async (c) => {
          const cpu = await solved(s, v, c, { backend: 'js' });
          expectSameBits(cpu, await solved(s, v, c, { backend: 'gpu', strict: true, blockSize: 64 }), `split ${JSON.stringify(v)}`);
        }), { numRuns: 1, endOnFailure: true });
      }
    } finally {
      setBindingLimitForTests(undefined);
    }
  });

  SETTINGS.forEach((s, si) => {
    it(`${s.arithmetic.name} arithmetic: every variant, block sizes 64, 128, 256, n = 1, 2, 3 (and 260 for two variants a block size)`, async () => {
      await requireRuntime();
      for (const [bi, blockSize] of [64, 128, 256].entries()) {
        for (const [vi, v] of VARIANTS.entries()) {
          const lower = (v.uplo === 'L') === (v.trans === 'N');
          // The long solves (more than one block) take two variants a block size, in turn: all 8 over the arithmetics.
          const first = (2 * (3 * si + bi)) % 8;
          const long = vi === first || vi === first + 1;
          for (const n of long ? [1, 2, 3, 260] : [1, 2, 3]) {
            // A long case is not shrunk on failure (each step would be a GPU solve of 260 rows).
            await fc.assert(fc.asyncProperty(caseOf(n, lower, v.diag === 'U'), async (c) => {
              const cpu = await solved(s, v, c, { backend: 'js' });
              const gpu = await solved(s, v, c, { backend: 'gpu', strict: true, blockSize });
              expectSameBits(cpu, gpu, `${JSON.stringify(v)} block ${blockSize} n ${n}`, s.storageX === formats.dd);
            }), { numRuns: n > 3 || s.arithmetic === formats.dd ? 1 : 2, endOnFailure: n > 3 });
          }
        }
      }
    });
  });
});
