/**
 * Scaled outputs (the CPU's scale model) with the dd arithmetic on the GPU (llvmpipe): the kernel's dd result is
 * stored as the CPU's scaled store stores a dd value — integer storage the exact (hi + lo) / scale rounded once to the
 * nearest integer (nearestIntegerOfQuotient), floating-point storage the CPU kernels' guarded dd quotient rounded to the
 * storage — for every fp64 scale, ±0, ±∞ and NaN included, into strided views whose neighbours (sentinels) keep their
 * bytes. The oracle is independent of the kernel's arithmetic: the same GPU call into an unscaled dd vector gives the
 * pairs, and the CPU kernels' store writes each pair into a copy of the scaled range (storeAsKernels). Old values are read through their
 * scales as the CPU's dd reads them (stored × scale, exact): AXPY on f64 storage with scales 0.1 equals the CPU run.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axpy, colMajor, ellOperand, ellSpmv, ellStructure, formats, gemv, range, rowMajor, scal, scaledReducedRowMajor, trsv, waxpby, type Range } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { deviceScaledStoreCount } from '../../src/backends/webgpu/scaled-store.js';
import { ddSlowHelpers } from '../../src/formats/dd/dd-templates.js';
import { ddArithmetic } from '../../src/formats/dd/dd-arithmetic.js';
import { deviceScaledQuotientCount } from '../../src/backends/webgpu/scaled-float-store.js';

type StorageName = 'i8' | 'i16' | 'f16' | 'bf16' | 'f32' | 'f64';
const STORAGES: StorageName[] = ['i8', 'i16', 'f16', 'bf16', 'f32', 'f64'];
const GPU = { backend: 'gpu', arithmetic: formats.dd, strict: true } as const;

const storageOf = (name: StorageName): any => {
  const f = (formats as Record<string, any>)[name];
  return f.storage ?? f;
};

/** Scales the store must take as the CPU does: inexact in binary32, tiny, huge, negative, and the non-finite ones. */
const SCALES = [0.1, 1 / 3, 2 ** -1000, -3, 2 ** 1000, 5e-324, 0, -0, Infinity, -Infinity, NaN];

/**
 * A scaled 1-D view of `n` elements at stride −2 over a buffer whose every element holds a sentinel (a distinct stored
 * value), one scale per element (`scales`, written after creation: the constructor takes finite non-zero ones).
 */
function scaledView(name: StorageName, n: number, scales: readonly number[]): Range<1, any> {
  const st = storageOf(name);
  const data = st.allocate(2 * n + 3);
  for (let k = 0; k < 2 * n + 3; k++) st.encode(data, k, name.startsWith('i') ? (k % 50) - 25 : (k + 1) / 7);
  const scale = new Float64Array(n).fill(1);
  const r = range(scaledReducedRowMajor<1>({ size: [n], storage: st, arithmetic: formats.dd, scaleMask: [true], scale, stride: -2, offset: 2 * n, data }));
  scales.forEach((s, i) => { scale[i] = s; });
  return r;
}

const scratch = new Float64Array(2);
/**
 * Element i of a scaled range := the dd pair p, as the CPU kernels store it: integer storage through Range.set
 * (nearestIntegerOfQuotient, as the kernels), floating-point storage the kernels' guarded division by (s, +0)
 * (dd-templates.ts's ddDivSource; its slow form ddSlowDiv is the same function, an oracle written apart from
 * ddArithmetic.div) exported by toKind.
 */
function storeAsKernels(r: Range<1, any>, i: number, p: { hi: number; lo: number }): void {
  const a = r.accessor;
  if (a.storage.isInteger) return r.set(i, p as never);
  ddSlowHelpers.ddSlowDiv!(scratch, p.hi, p.lo, a.scale!.data[a.scaleIndex([i])]!, 0);
  a.storage.encode(a.data as never, a.linearIndex([i]), ddArithmetic.toKind('number', { hi: scratch[0]!, lo: scratch[1]! }, a.storage.significandBits) as never);
}

/** The bytes of a range's whole storage. */
const bytesOf = (r: Range<1, any>): number[] => {
  const d = r.accessor.data as ArrayBufferView;
  return Array.from(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
};

/**
 * Every stored element of a range's whole storage, decoded: a NaN as 'NaN' (its sign and payload are IEEE's open
 * choice — the CPU's x86 default NaN is negative, the device's positive), −0 as '-0'; every other value decodes from
 * one bit pattern, so equal lists are equal bits.
 */
const storedOf = (r: Range<1, any>): (number | string)[] => {
  const st = r.accessor.storage;
  const d = r.accessor.data as ArrayLike<number>;
  return Array.from({ length: d.length }, (_, k) => {
    const v = st.decode(d as never, k) as number;
    return Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v;
  });
};

describe('scaled outputs with the dd arithmetic on the GPU', () => {
  it('store the kernel\'s dd pairs as the CPU\'s scaled store does (every storage, every scale, ±0/±∞/NaN; the view\'s neighbours untouched)', async () => {
    await requireRuntime();
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    await fc.assert(fc.asyncProperty(
      fc.array(fc.oneof(finite, fc.constantFrom(0, -0, 0.5, 2.5, -1.5, 1e-300)), { minLength: SCALES.length, maxLength: SCALES.length }),
      fc.oneof(finite, fc.constantFrom(1 / 3, -0.1)),
      async (xs, alpha) => {
        const n = xs.length;
        const x = range(rowMajor<1>({ size: [n], storage: formats.f64, arithmetic: formats.dd }));
        xs.forEach((v, i) => x.set(i, v));
        // The pairs the GPU's dd arithmetic gives for w = α·x (β = 0: w's old values are not read).
        const pairs = range(colMajor<1>({ size: [n], storage: formats.dd, arithmetic: formats.dd }));
        await waxpby(alpha, x, 0, x, pairs, GPU);
        for (const name of STORAGES) {
          const w = scaledView(name, n, SCALES), want = scaledView(name, n, SCALES);
          const stores = deviceScaledStoreCount(), quotients = deviceScaledQuotientCount();
          await waxpby(alpha, x, 0, x, w, GPU);
          // Stored on the device, not read back and stored by the CPU: integer storage rounded by mpQuantizeDd,
          // floating-point storage by the replay of ddDiv (mpDdScaledQuotient) and the update into the view.
          if (name.startsWith('i')) expect(deviceScaledStoreCount(), name).toBe(stores + 1);
          else expect(deviceScaledQuotientCount(), name).toBe(quotients + 1);
          for (let i = 0; i < n; i++) storeAsKernels(want, i, pairs.get(i) as never);
          expect(storedOf(w), name).toEqual(storedOf(want));
        }
      },
    ), { numRuns: 6 });
  });

  it('GEMV N/T, ELL SpMV, SCAL, AXPY and TRSV store their dd results into scaled f64/f32/f16/bf16 views on the device as the CPU\'s scaled store stores the same pairs (overflow, underflow, ±0/±∞/NaN scales; NaN as NaN)', async () => {
    await requireRuntime();
    const n = SCALES.length;
    // Scales an output that is also read may hold: finite, non-zero (its old values are stored × scale).
    const readScales = [0.1, 1 / 3, 2 ** -1000, -3, 2 ** 1000, 5e-324, 0.1, -1 / 3, 2 ** -1070, 2 ** 1020, 7];
    const value = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(0, -0, 1e-300, -3e-310, 2 ** 1000));
    await fc.assert(fc.asyncProperty(fc.array(value, { minLength: n * n, maxLength: n * n }), fc.array(value, { minLength: n, maxLength: n }), async (as, xs) => {
      const A = range(colMajor<2>({ size: [n, n], storage: formats.f64, arithmetic: formats.dd }));
      // Lower triangular with a unit diagonal for TRSV (GEMV and ELL read the whole matrix).
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A.set(i, j, i === j ? 1 : as[i + j * n]!);
      const L = range(colMajor<2>({ size: [n, n], storage: formats.f64, arithmetic: formats.dd }));
      for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) L.set(i, j, i === j ? 1 : as[i + j * n]! * 2 ** -20);
      const x = range(rowMajor<1>({ size: [n], storage: formats.f64, arithmetic: formats.dd }));
      xs.forEach((v, i) => x.set(i, v));
      const structure = ellStructure({ rows: n, cols: n, width: 3, stride: n, colIndex: Int32Array.from({ length: 3 * n }, (_, q) => (q * 5 + 1) % n) });
      const ell = ellOperand(structure, range(colMajor<2>({ size: [n, 3], storage: formats.f64, arithmetic: formats.dd, data: Float64Array.from(as.slice(0, 3 * n)) })));
      const families: [string, boolean, (out: Range<1, any>) => Promise<unknown>][] = [
        ['gemv N', false, (y) => gemv({ alpha: 1.5, A, x, beta: 0, y }, GPU)],
        ['gemv T', false, (y) => gemv({ alpha: -1 / 3, A, x, beta: 0, y, trans: 'T' }, GPU)],
        ['ell', false, (y) => ellSpmv({ alpha: 0.1, A: ell, x, beta: 0, y }, GPU)],
        ['scal', true, (y) => scal(1 / 3, y, GPU)],
        ['axpy', true, (y) => axpy(0.1, x, y, GPU)],
        ['trsv', true, (y) => trsv({ A: L, x: y, uplo: 'L' }, GPU)],
      ];
      // One storage per family (each compiled kernel costs seconds on llvmpipe): the store after the kernel is the same
      // pass for all of them, and the first test covers every storage with every scale.
      for (const [k, [family, reads, run]] of families.entries()) {
        {
          const name = (['f64', 'f32', 'f16', 'bf16'] as const)[k % 4]!;
          const scales = reads ? readScales : SCALES;
          const w = scaledView(name, n, scales), want = scaledView(name, n, scales);
          // The same call into a dd vector holding w's values as the device's dd reads them (1·w + 0·w), or zeros.
          const pairs = range(colMajor<1>({ size: [n], storage: formats.dd, arithmetic: formats.dd }));
          if (reads) await waxpby(1, w, 0, w, pairs, GPU);
          await run(pairs);
          const quotients = deviceScaledQuotientCount();
          await run(w);
          expect(deviceScaledQuotientCount(), `${family} ${name}`).toBeGreaterThan(quotients);
          for (let i = 0; i < n; i++) storeAsKernels(want, i, pairs.get(i) as never);
          expect(storedOf(w), `${family} ${name}`).toEqual(storedOf(want));
        }
      }
    }), { numRuns: 1 });
  });

  it('read old values through their scales as the CPU\'s dd does: AXPY into f64 and i16 storage with scales 0.1 and 1/3 equals the CPU run', async () => {
    await requireRuntime();
    for (const name of ['f64', 'i16'] as const) {
      const runs = await Promise.all((['cpu', 'gpu'] as const).map(async (backend) => {
        const x = range(rowMajor<1>({ size: [6], storage: formats.f64, arithmetic: formats.dd }));
        [0.3, -2, 7, 1e-3, 5, -0.25].forEach((v, i) => x.set(i, v));
        const y = scaledView(name, 6, [0.1, 1 / 3, 0.1, 1 / 3, 0.1, 1 / 3]);
        await axpy(1 / 3, x, y, { ...GPU, backend, strict: backend === 'gpu' });
        return bytesOf(y);
      }));
      expect(runs[1], name).toEqual(runs[0]);
    }
  });
});
