/**
 * Outputs in a sub-word format — the guide's E5M2 (8-bit lanes, four a word, a user's part declaring `hostBytes`), f16
 * and bf16 (16-bit lanes) — written through views with `backend: 'gpu'`: any offset, strides ±1 … ±5 (a matrix
 * column: its row length), two views of one array interleaved in the same words and written one after the other. The
 * device stores each element into its lane of the span (view-output.ts, writesLanes: atomic where two view elements
 * may share a word), and every lane of the span must equal the CPU run's: the views' lanes (a zero's or a NaN's sign
 * aside: expectLanes) and every lane no view covers, bit for bit. Values include NaN and ±∞; α = 0, and β = 0 over
 * NaN in y.
 */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { axpy, waxpby, scal, gemv, ellSpmv, trsv, vector, range, colMajor, formats, csrToEll, laplacianCsr, ellWithStorage } from '../../src/index.js';
import { setBindingLimitForTests } from '../../src/backends/webgpu/device-array.js';
import { setViewStoreSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { SUB_WORD_FORMATS, sentinelLanes, laneView, lanesOf, expectLanes } from './sub-word-views.js';

const STRIDES = [1, 2, 3, 4, 5, -1, -2, -3, -4, -5];

/**
 * Two views A and B of n elements with stride `stride` after `pad` sentinel lanes: B one lane after A where |stride| ≥ 2
 * (their elements alternate within words), else right after A's last lane (sharing its last word unless aligned).
 */
function twoViews(n: number, stride: number, pad: number): { a: { offset: number; stride: number; n: number }; b: { offset: number; stride: number; n: number }; size: number } {
  const s = Math.abs(stride);
  const first = (start: number): number => start + (stride < 0 ? s * (n - 1) : 0);
  const a = { offset: first(pad), stride, n };
  const b = { offset: s >= 2 ? a.offset + 1 : first(pad + n), stride, n };
  const last = Math.max(...lanesOf(a), ...lanesOf(b));
  return { a, b, size: last + 4 };
}

const gpuOptions = { backend: 'gpu', arithmetic: formats.f32, strict: true } as const;
const cpuOptions = { arithmetic: formats.f32 } as const;

describe('sub-word output views written lane by lane on the device', () => {
  it('AXPY, WAXPBY and SCAL into two interleaved views of E5M2, f16 and bf16: every lane the CPU\'s', async () => {
    await requireRuntime();
    const special = fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 57344, 61440, 65520, 2 ** -16, 2 ** -17, 2 ** -25, -1.125);
    // No binary32-subnormal results: llvmpipe's f32 arithmetic gives bf16 −0 (0x8000) for −1.5 × 3.06e-41 where the CPU
    // rounds to 0x8001 — packed outputs as well, so no store decides it (|values| ≥ 2^-100 keep every α·x + β·y normal).
    const value = fc.oneof(fc.double({ min: -70000, max: 70000, noNaN: true }).filter((v) => v === 0 || Math.abs(v) >= 2 ** -100), special);
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 2 }), fc.array(fc.tuple(value, value), { minLength: 1, maxLength: 20 }), fc.constantFrom(...STRIDES), fc.integer({ min: 0, max: 4 }),
      fc.constantFrom(0, 0.75, -1.5), fc.constantFrom(0, -0.5),
      async (fi, pairs, stride, pad, alpha, beta) => {
        const f = SUB_WORD_FORMATS[fi]!;
        const n = pairs.length;
        const { a, b, size } = twoViews(n, stride, pad);
        const x = vector(pairs.map((p) => p[0]), { storage: formats.f64 });
        // y holds NaN where β = 0: it must not be read.
        const yv = vector(pairs.map((p) => (beta === 0 ? NaN : p[1])), { storage: formats.f64 });
        const run = async (backend: 'cpu' | 'gpu'): Promise<(Uint8Array | Uint16Array)[]> => {
          const o = backend === 'gpu' ? gpuOptions : cpuOptions;
          const spans = [0, 1, 2].map(() => sentinelLanes(f, size));
          const [w, y, z] = spans.map((d) => [a, b].map((v) => laneView(f, d, n, v.offset, v.stride)));
          for (const [k, v] of [y![0]!, y![1]!, z![0]!, z![1]!].entries()) for (let i = 0; i < n; i++) v.set(i, pairs[(i + k) % n]![k & 1]!);
          // A then B, one after the other: B's stores keep A's lanes in the words they share, and the other way round.
          for (const v of w!) await waxpby(alpha, x, beta, yv, v, o as never);
          await axpy(alpha, x, y![0]!, o as never);
          await axpy(-alpha, x, y![1]!, o as never);
          await scal(alpha, z![0]!, o as never);
          await scal(beta, z![1]!, o as never);
          return spans;
        };
        const cpu = await run('cpu'), gpu = await run('gpu');
        const written = new Set([...lanesOf(a), ...lanesOf(b)]);
        const what = `${f.name} n=${n} stride=${stride} pad=${pad} α=${alpha} β=${beta}`;
        ['WAXPBY', 'AXPY', 'SCAL'].forEach((k, i) => expectLanes(f, gpu[i]!, cpu[i]!, written, `${k} ${what}`));
      }), { numRuns: 40 });
  });

  it('GEMV N and T into two interleaved views (and a matrix column), α = 0, β = 0 over NaN: every lane the CPU\'s', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(...STRIDES), fc.integer({ min: 0, max: 4 }), fc.constantFrom(1, 0), fc.constantFrom(0, 2),
      fc.boolean(), fc.integer(),
      async (fi, n, stride, pad, alpha, beta, infinite, seed) => {
        const f = SUB_WORD_FORMATS[fi]!;
        const small = xorshift(seed);
        // Small integers: every sum exact in f32, so each element is rounded once, to the format, as on the CPU.
        const A = range(colMajor<2>({ size: [n, n], storage: formats.f64 }));
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A.set(i, j, small(5));
        const xs = Array.from({ length: n }, () => small(7));
        if (infinite) xs[n >> 1] = -Infinity;
        const x = vector(xs, { storage: formats.f64 });
        const { a, b, size } = twoViews(n, stride, pad);
        const run = async (backend: 'cpu' | 'gpu'): Promise<Uint8Array | Uint16Array> => {
          const o = backend === 'gpu' ? gpuOptions : cpuOptions;
          const span = sentinelLanes(f, size);
          const [ya, yb] = [a, b].map((v) => laneView(f, span, n, v.offset, v.stride));
          for (let i = 0; i < n; i++) { ya!.set(i, beta === 0 ? NaN : (i % 7) - 3); yb!.set(i, beta === 0 ? NaN : 3 - (i % 5)); }
          await gemv({ alpha, A, x, beta, y: ya!, trans: 'N' }, o as never);
          await gemv({ alpha, A, x, beta, y: yb!, trans: 'T' }, o as never);
          return span;
        };
        expectLanes(f, await run('gpu'), await run('cpu'), new Set([...lanesOf(a), ...lanesOf(b)]), `GEMV ${f.name} n=${n} stride=${stride} pad=${pad} α=${alpha} β=${beta} ∞=${infinite}`);
      }), { numRuns: 30 });
  });

  it('GEMV T into an E5M2 view whose extent exceeds one binding (its packed elements fit): the twin and scatter, every lane the CPU\'s', async () => {
    await requireRuntime();
    // 600 elements at stride 5 span 3000 bytes, over the lowered limit; packed they are 600 bytes. Every dispatch's
    // bindings are checked against the limit: a lane store binding the extent whole would fail here.
    const n = 600, stride = 5, f = SUB_WORD_FORMATS[0]!;
    const small = xorshift(7);
    const A = range(colMajor<2>({ size: [2, n], storage: formats.f64 }));
    for (let i = 0; i < 2; i++) for (let j = 0; j < n; j++) A.set(i, j, small(9));
    const x = vector([3, -2], { storage: formats.f64 });
    const run = async (backend: 'cpu' | 'gpu'): Promise<Uint8Array | Uint16Array> => {
      const span = sentinelLanes(f, stride * n + 3);
      const y = laneView(f, span, n, 1, stride);
      for (let i = 0; i < n; i++) y.set(i, (i % 7) - 3);
      await gemv({ alpha: 1, A, x, beta: 2, y, trans: 'T' }, (backend === 'gpu' ? gpuOptions : cpuOptions) as never);
      return span;
    };
    const cpu = await run('cpu');
    setBindingLimitForTests(2048);
    try {
      expectLanes(f, await run('gpu'), cpu, new Set(lanesOf({ offset: 1, stride, n })), 'GEMV T over a binding');
    } finally {
      setBindingLimitForTests(undefined);
    }
  });

  it('with the userViewsInPlace switch off (the packed twin and scatter it replaced) E5M2 views get the same lanes', async () => {
    await requireRuntime();
    const f = SUB_WORD_FORMATS[0]!, n = 37;
    const x = vector(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? NaN : Math.sin(i) * 2 ** (i % 11))), { storage: formats.f64 });
    const run = async (): Promise<Uint8Array | Uint16Array> => {
      const span = sentinelLanes(f, 3 * n + 2);
      for (const [offset, stride] of [[1, 2], [2, 2], [3 * n, -3]] as const) await waxpby(1.5, x, 0, x, laneView(f, span, n, offset, stride), gpuOptions as never);
      return span;
    };
    const inPlace = await run();
    const before = setViewStoreSwitches({ userViewsInPlace: false });
    try {
      expectLanes(f, await run(), inPlace, new Set(), 'twin + scatter against lane stores');
    } finally {
      setViewStoreSwitches(before);
    }
  });

  it('ELL SpMV into two interleaved views, β = 0 over NaN and −∞: every lane the CPU\'s', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(...STRIDES), fc.integer({ min: 0, max: 4 }), fc.constantFrom(0, 2), fc.integer(),
      async (fi, n, stride, pad, beta, seed) => {
        const f = SUB_WORD_FORMATS[fi]!;
        const small = xorshift(seed);
        const E = ellWithStorage(csrToEll(laplacianCsr([n])), { storage: formats.f64 });
        const x = vector(Array.from({ length: n }, () => small(9)), { storage: formats.f64 });
        const { a, b, size } = twoViews(n, stride, pad);
        const run = async (backend: 'cpu' | 'gpu'): Promise<Uint8Array | Uint16Array> => {
          const o = backend === 'gpu' ? gpuOptions : cpuOptions;
          const span = sentinelLanes(f, size);
          const [ya, yb] = [a, b].map((v) => laneView(f, span, n, v.offset, v.stride));
          for (let i = 0; i < n; i++) { ya!.set(i, beta === 0 ? NaN : (i % 7) - 3); yb!.set(i, beta === 0 ? -Infinity : 3 - (i % 5)); }
          await ellSpmv({ alpha: 1, A: E, x, beta, y: ya! }, o as never);
          await ellSpmv({ alpha: -2, A: E, x, beta, y: yb! }, o as never);
          return span;
        };
        expectLanes(f, await run('gpu'), await run('cpu'), new Set([...lanesOf(a), ...lanesOf(b)]), `ELL ${f.name} n=${n} stride=${stride} pad=${pad} β=${beta}`);
      }), { numRuns: 30 });
  });

  it('TRSV into two interleaved views of E5M2 and bf16: every lane the CPU\'s', async () => {
    await requireRuntime();
    // f16 stores the same 16-bit lanes as bf16 (one more format would add its shaders to the solve's, the slowest on
    // llvmpipe); its TRSV views are in output-view-cases.ts.
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(0, 2), fc.integer({ min: 1, max: 12 }), fc.constantFrom(...STRIDES), fc.integer({ min: 0, max: 4 }), fc.integer(),
      async (fi, n, stride, pad, seed) => {
        const f = SUB_WORD_FORMATS[fi]!;
        const small = xorshift(seed);
        // Unit lower bidiagonal, b small integers, a subdiagonal entry that would take |x_i| past 8 set to 0: every x_i
        // an integer E5M2 holds, so the CPU (which re-reads each stored x_i) and the device solve the same system.
        const L = range(colMajor<2>({ size: [n, n], storage: formats.f64 }));
        const bs = Array.from({ length: n }, () => small(5));
        for (let i = 0, prev = 0; i < n; i++) {
          L.set(i, i, 1);
          let l = i > 0 ? small(3) : 0;
          if (Math.abs(bs[i]! - l * prev) > 8) l = 0;
          if (i > 0) L.set(i, i - 1, l);
          prev = bs[i]! - l * prev;
        }
        const { a, b, size } = twoViews(n, stride, pad);
        const run = async (backend: 'cpu' | 'gpu'): Promise<Uint8Array | Uint16Array> => {
          const o = backend === 'gpu' ? gpuOptions : cpuOptions;
          const span = sentinelLanes(f, size);
          const [xa, xb] = [a, b].map((v) => laneView(f, span, n, v.offset, v.stride));
          for (let i = 0; i < n; i++) { xa!.set(i, bs[i]!); xb!.set(i, -bs[i]!); }
          await trsv({ A: L, x: xa!, uplo: 'L', trans: 'N', diag: 'N' }, o as never);
          await trsv({ A: L, x: xb!, uplo: 'L', trans: 'N', diag: 'N' }, o as never);
          return span;
        };
        expectLanes(f, await run('gpu'), await run('cpu'), new Set([...lanesOf(a), ...lanesOf(b)]), `TRSV ${f.name} n=${n} stride=${stride} pad=${pad}`);
      }), { numRuns: 30 });
  });
});

/** Reproducible small integers in [−(k−1)/2, (k−1)/2] (xorshift32). */
function xorshift(seed: number): (k: number) => number {
  let s = seed >>> 0 || 1;
  return (k) => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return ((s >>> 0) % k) - ((k - 1) >> 1); };
}
