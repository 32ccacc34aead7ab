/**
 * f32 arithmetic rounds every operation to binary32 on both backends (docs/gpu.md): a product is rounded before it is
 * added, so MAX32·(−3) is −∞ before it meets +∞ (NaN), and MAX32·2 − MAX32 is +∞ — a fused multiply-add would give
 * +∞ and MAX32. With one or two terms per sum the order of the additions cannot differ between the backends, so the
 * GPU's results must be the CPU's bit for bit (any NaN for a NaN), for every kernel in f32 arithmetic, over values
 * that overflow in a product, in a sum and in the coefficients, ±∞, NaN, ±0 and binary32 subnormals.
 *
 * A device may flush binary32 subnormals (WGSL allows it; the NVIDIA driver does): its bits may instead be the CPU's
 * on the values with subnormals flushed to ±0.
 *
 * llvmpipe's `fma` is not fused, so the device runs here cannot show a fused or contracted multiply-add (the H100's
 * is fused): the emitted code is also run under a model of such a compiler — `fma` rounds once, and a product that is
 * not pinned by `mpKeep` may be kept exact into the following addition.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asum, axpy, dot, ellOperand, ellSpmv, ellStructure, formats, gemv, nrm2, range, rowMajor, scal, toArray, vector, waxpby } from '../../src/index.js';
import { flushedBinary32, gpuFlushesSubnormals, requireRuntime } from './gpu-test-helpers.js';
import { f32GpuArithmetic } from '../../src/formats/f32/f32-gpu-arithmetic.js';

const MAX32 = 3.4028234663852886e38;
/** Values whose products and sums overflow binary32, the non-finite ones, zeros, and subnormals (f32 storage keeps them). */
const SPECIAL = [MAX32, -MAX32, 2 ** 127, -(2 ** 100), 3, -3, 2, 0.5, 1, -1, 0, -0, Infinity, -Infinity, NaN, 2 ** -149, -(2 ** -130), 1.5];
const special = fc.constantFrom(...SPECIAL);
const ar = formats.f32;

/** The same bits, or NaN for NaN (its sign and payload are not specified). */
/** A reduction's value: the CPU returns the number, the GPU a report holding it. */
function valueOf(r: unknown): number {
  return typeof r === 'number' ? r : (r as { value: number }).value;
}

function same(gpu: number, cpu: number): boolean {
  return Object.is(gpu, cpu) || (Number.isNaN(gpu) && Number.isNaN(cpu));
}

function vec(values: readonly number[]) {
  return vector(values as number[], { storage: formats.f32, arithmetic: ar });
}

function mat(rows: number, cols: number, values: readonly number[]) {
  const A = range(rowMajor<2>({ size: [rows, cols], storage: formats.f32, arithmetic: ar }));
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) A.set(i, j, values[i * cols + j]!);
  return A;
}

const gpu = { backend: 'gpu', arithmetic: ar, strict: true } as const;
const cpu = { arithmetic: ar } as const;

/**
 * Runs the f32 part's emitted multiply-add (and product then sum) under a compiler that fuses: `mpFma` rounds a·b + c
 * once, and an operation not pinned by `mpKeep` stays exact in binary64 (its binary32 inputs' products are exact there)
 * until the final rounding of the assigned value.
 */
function underFusingCompiler(a: number, b: number, c: number): { mulAdd: number; mulThenAdd: number } {
  const reg = (name: string) => f32GpuArithmetic.register(name);
  // mpNegZero: the uniform −0.0 of the fma-pinned product (the f32FmaKeep switch of kernel-switches.ts).
  const run = (lines: string[]) => Math.fround(new Function('a', 'b', 'acc', 'mpKeep', 'mpFma', 'mpNegZero', `${lines.join('\n')}\nreturn acc;`)(
    a, b, c, Math.fround, (x: number, y: number, z: number) => Math.fround(x * y + z), () => -0) as number);
  return {
    mulAdd: run([f32GpuArithmetic.mulAdd('acc', reg('a'), reg('b'))]),
    mulThenAdd: run([f32GpuArithmetic.declareMul('p', reg('a'), reg('b')), f32GpuArithmetic.add('acc', reg('p'))]),
  };
}

describe('f32 arithmetic on the GPU: its emitted multiply-add under a compiler that fuses', () => {
  it('rounds the product before the sum (MAX32·2 − MAX32 = +∞, MAX32·(−3) + ∞ = NaN, as Math.fround does on the CPU)', () => {
    for (const [a, b, c] of [[MAX32, 2, -MAX32], [MAX32, -3, Infinity], [1 + 2 ** -12, 1 + 2 ** -12, -1], [3, 2 ** 126, -(2 ** 127)]] as const) {
      const want = Math.fround(Math.fround(a * b) + c);
      const got = underFusingCompiler(a, b, c);
      expect(same(got.mulAdd, want), `mulAdd(${c}, ${a}, ${b}) = ${got.mulAdd}, the CPU's ${want}`).toBe(true);
      expect(same(got.mulThenAdd, want), `${c} + ${a}·${b} = ${got.mulThenAdd}, the CPU's ${want}`).toBe(true);
    }
  });
});

describe('f32 arithmetic: every operation rounded to binary32 on the GPU as on the CPU', () => {
  it('MAX32·(−3) + ∞·∞ is NaN and MAX32·2 − MAX32 is +∞ on both (regressions)', async () => {
    await requireRuntime();
    for (const [a, b, want] of [[[MAX32, Infinity], [-3, Infinity], NaN], [[MAX32, MAX32], [2, -1], Infinity], [[MAX32, MAX32], [-1, 2], Infinity]] as const) {
      for (const o of [cpu, gpu]) {
        const y = vec([0]);
        await ellSpmv1(a, b, 1, 0, y, o);
        expect(same(y.get(0), want), `ELL ${o === gpu ? 'GPU' : 'CPU'}: ${a}·${b} gave ${y.get(0)}`).toBe(true);
        const d = valueOf(await dot(vec(a), vec(b), o as never));
        expect(same(d, want), `DOT ${o === gpu ? 'GPU' : 'CPU'}: ${a}·${b} gave ${d}`).toBe(true);
      }
    }
  });

  it('DOT, GEMV N and T, ELL SpMV, AXPY, WAXPBY, SCAL, ASUM, NRM2: the GPU gives the CPU bits', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 }), fc.array(special, { minLength: 12, maxLength: 12 }), special, special,
      async (m, n, v, alpha, beta) => {
        const A = v.slice(0, m * n), x = v.slice(6, 6 + n), y = v.slice(8, 8 + m);
        const xm = v.slice(6, 6 + m);
        // The CPU's bits twice: from the values, and from the values with binary32 subnormals flushed to ±0 (what a
        // device that flushes them computes on; among these values no product or sum of normals is subnormal) — where
        // a flushed coefficient or value makes a zero, of either sign (the driver's flush of a coefficient gave +0).
        const runs = [[gpu, v, alpha, beta], [cpu, v, alpha, beta], [cpu, v.map(flushedBinary32), flushedBinary32(alpha), flushedBinary32(beta)]] as const;
        const results = await Promise.all(runs.map(async ([o, v, alpha, beta]) => {
          const A = v.slice(0, m * n), x = v.slice(6, 6 + n), y = v.slice(8, 8 + m);
          const xm = v.slice(6, 6 + m);
          const out: Record<string, number[]> = {};
          out.dot = [valueOf(await dot(vec(x), vec(v.slice(10, 10 + n)), o as never))];
          const yN = vec(y);
          await gemv({ alpha, A: mat(m, n, A), x: vec(x), beta, y: yN }, o as never);
          out.gemvN = [...toArray(yN)];
          const yT = vec(x);
          await gemv({ alpha, A: mat(m, n, A), x: vec(xm), beta, y: yT, trans: 'T' } as never, o as never);
          out.gemvT = [...toArray(yT)];
          const yE = vec(y);
          await ellSpmvRows(m, n, A, x, alpha, beta, yE, o);
          out.ell = [...toArray(yE)];
          const ya = vec(y);
          await axpy(alpha, vec(xm), ya, o as never);
          out.axpy = [...toArray(ya)];
          const w = vec(y.map(() => 0));
          await waxpby(alpha, vec(xm), beta, vec(y), w, o as never);
          out.waxpby = [...toArray(w)];
          const s = vec(xm);
          await scal(alpha, s, o as never);
          out.scal = [...toArray(s)];
          out.asum = [valueOf(await asum(vec(x), o as never))];
          out.nrm2 = [valueOf(await nrm2(vec(x), o as never))];
          return out;
        }));
        // A subnormal coefficient on a flushing device: 0 in its arithmetic, not 0 in the CPU's α = 0 shortcut.
        if ((!Object.is(flushedBinary32(alpha), alpha) || !Object.is(flushedBinary32(beta), beta)) && (await gpuFlushesSubnormals())) return;
        const [g, c, cf] = results as [Record<string, number[]>, Record<string, number[]>, Record<string, number[]>];
        for (const k of Object.keys(c)) {
          const ok = c[k]!.length === g[k]!.length && c[k]!.every((cv, i) => same(g[k]![i]!, cv) || same(g[k]![i]!, cf[k]![i]!) || (g[k]![i] === 0 && cf[k]![i] === 0));
          expect(ok, `${k}: m = ${m}, n = ${n}, A = ${A}, x = ${x}, y = ${y}, α = ${alpha}, β = ${beta}: GPU ${g[k]} CPU ${c[k]} (${cf[k]} flushed)`).toBe(true);
        }
      }), { numRuns: 60 });
  });
});

/** One ELL row of the given slots: y := α·Σ a_k·x_k + β·y. */
async function ellSpmv1(a: readonly number[], b: readonly number[], alpha: number, beta: number, y: ReturnType<typeof vec>, o: object): Promise<void> {
  await ellSpmvRows(1, a.length, a, b, alpha, beta, y, o);
}

/** ELL SpMV of the m×n dense A (every slot used, column k in slot k). */
async function ellSpmvRows(m: number, n: number, A: readonly number[], x: readonly number[], alpha: number, beta: number, y: ReturnType<typeof vec>, o: object): Promise<void> {
  const colIndex = Int32Array.from({ length: m * n }, (_, q) => Math.floor(q / m)); // slot k of row i at i + k·m
  const values = mat(m, n, A);
  await ellSpmv({ alpha, A: ellOperand(ellStructure({ rows: m, cols: n, width: n, stride: m, colIndex }), values), x: vec(x), beta, y }, o as never);
}
