/**
 * One rule on both backends, fuzzed: random calls of the nine kernels — storage f64/f32/f16/bf16, arithmetic f32,
 * float-float or the default, strided, negative-stride and offset views, row-/column-major matrices and sub-ranges,
 * α/β including 0 with NaN in y, DOT's `into`, special values (NaN, ±∞, ±0, binary32 subnormals), sizes 0–5 — run
 * with `backend: 'gpu'` (llvmpipe, strict) and on the CPU. Either both throw the same typed error (code and parameter),
 * or the GPU refuses what it documents it cannot do (an option it does not implement, an arithmetic it has no part for),
 * or both succeed with results within the sum of the two a-priori bounds of each other (each is within its bound of
 * the exact value), the same non-finite pattern, and the same values outside every output view.
 * Documented differences are excluded by construction: binary32 subnormals reach the GPU only from f32 storage
 * (f64 storage in f32 arithmetic flushes them on the device, docs/gpu.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asum, asumBound, axpy, axpyBound, colMajor, dot, dotBound, ellMatrix, ellOperand, ellSpmv, ellSpmvBound, formats, gemv, gemvBound, nrm2, nrm2Bound,
  range, rowMajor, scal, scaledReducedColMajor, scalBound, span, toArray, trsv, trsvBound, waxpby, waxpbyBound, ModprecError,
} from '../../src/index.js';
import type { Range } from '../../src/core/range.js';
import { nonFinitePattern, requireRuntime } from './gpu-test-helpers.js';
import { gpuAsum, gpuDot, gpuDotResident, gpuGemv, gpuNrm2, gpuUpdate, toDevice, toDeviceMatrix } from '../../src/backends/webgpu/index.js';

const STORAGE = { f64: formats.f64, f32: formats.f32, f16: formats.f16, bf16: formats.bf16 } as const;
type Name = keyof typeof STORAGE;
/** Scaled ranges (value = stored × scale): integers or f16 with one scale per element, or one for the whole vector. */
const SCALED = { i8: formats.i8, i16: formats.i16, f16s: formats.f16 } as const;
type VecName = Name | keyof typeof SCALED;

/** Refusals the GPU documents (docs/gpu.md "One rule on both backends"): allowed where the CPU runs. */
const GPU_REFUSALS = new Set(['INVALID_OPTION options.arithmetic', 'INVALID_OPTION options.accumulation']);

// ---- operands ----

interface VecSpec { readonly storage: VecName; readonly perElement?: boolean; readonly inc: number; readonly pad: number; readonly values: readonly number[] }
interface MatSpec { readonly storage: Name; readonly rows: number; readonly cols: number; readonly layout: 'col' | 'row'; readonly sub: boolean; readonly values: readonly number[] }
interface Vec { readonly r: Range<1, any>; readonly full: Range<1, any>; readonly at: readonly number[] }

/** Finite values, mostly small and exact, with the special ones now and then. */
function values(storage: VecName): fc.Arbitrary<number> {
  // Binary32 subnormals only from f32 storage (see the module comment); f16/bf16 round them as they round anything.
  const specials = [NaN, Infinity, -Infinity, 0, -0, ...(storage === 'f64' ? [] : [2 ** -130, -(2 ** -140)])];
  return fc.oneof(
    { arbitrary: fc.integer({ min: -64, max: 64 }).map((k) => k / 8), weight: 6 },
    // Tiny doubles (f64 storage, read as flushed binary32 subnormals on the GPU) are the documented difference: none.
    { arbitrary: fc.double({ min: -4, max: 4, noNaN: true }).map((v) => (Math.abs(v) < 2 ** -100 ? 0 : v)), weight: 3 },
    { arbitrary: fc.constantFrom(...specials), weight: 1 },
  );
}

const storageName = fc.constantFrom<Name>('f64', 'f32', 'f16', 'bf16');

const vecStorage = fc.oneof({ arbitrary: storageName, weight: 4 }, { arbitrary: fc.constantFrom<VecName>('i8', 'i16', 'f16s'), weight: 1 });

function vecSpec(n: fc.Arbitrary<number>, storage: fc.Arbitrary<VecName> = vecStorage): fc.Arbitrary<VecSpec> {
  return fc.record({ storage, n, inc: fc.constantFrom(1, 1, 2, -1, -3), pad: fc.nat(2), perElement: fc.boolean() })
    .chain((s) => fc.array(values(s.storage), { minLength: s.n, maxLength: s.n }).map((v) => ({ ...s, values: v })));
}

function matSpec(rows: number, cols: number): fc.Arbitrary<MatSpec> {
  return fc.record({ storage: storageName, layout: fc.constantFrom<'col' | 'row'>('col', 'row'), sub: fc.boolean() })
    .chain((s) => fc.array(values(s.storage), { minLength: rows * cols, maxLength: rows * cols }).map((v) => ({ ...s, rows, cols, values: v })));
}

/** Backing storage with distinct finite sentinels (a write outside a view changes one). */
function backing(storage: Name, size: number): Range<1, any> {
  const full = range(colMajor<1>({ size: [size], storage: STORAGE[storage] as never }));
  for (let k = 0; k < size; k++) full.set(k, 0.5 + (k % 7) / 8);
  return full;
}

function makeVec(s: VecSpec): Vec {
  const n = s.values.length;
  if (s.storage === 'i8' || s.storage === 'i16' || s.storage === 'f16s') {
    // Scales 1/8 (exact) or 3/16 per element, one 1/4 for the whole vector.
    const scale = s.perElement ? Float64Array.from({ length: n }, (_, i) => (i % 2 ? 3 / 16 : 1 / 8)) : Float64Array.of(1 / 4);
    const r = range(scaledReducedColMajor<1>({ size: [n], storage: SCALED[s.storage] as never, arithmetic: formats.f64, scaleMask: [s.perElement === true], scale }));
    s.values.forEach((v, i) => r.set(i, v));
    return { r, full: r, at: Array.from({ length: n }, (_, i) => i) };
  }
  const a = Math.abs(s.inc);
  const size = s.pad + (n > 0 ? (n - 1) * a + 1 : 0) + 1;
  const full = backing(s.storage, size);
  const offset = s.pad + (s.inc < 0 && n > 0 ? (n - 1) * a : 0);
  const r = range(colMajor<1>({ size: [n], stride: s.inc, offset, storage: STORAGE[s.storage] as never, data: full.accessor.data as never }));
  s.values.forEach((v, i) => r.set(i, v));
  return { r, full, at: Array.from({ length: n }, (_, i) => offset + i * s.inc) };
}

function makeMat(s: MatSpec): Range<2, any> {
  const [R, C] = s.sub ? [s.rows + 2, s.cols + 1] : [s.rows, s.cols];
  const layout = s.layout === 'col' ? colMajor : rowMajor;
  const full = range(layout<2>({ size: [R, C], storage: STORAGE[s.storage] as never }));
  for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) full.set(i, j, 0.25 + ((i + 2 * j) % 5) / 4);
  const A = s.sub ? full.sub(span(1, s.rows + 1), span(1, s.cols + 1)) : full;
  for (let i = 0; i < s.rows; i++) for (let j = 0; j < s.cols; j++) A.set(i, j, s.values[i + j * s.rows]!);
  return A;
}

// ---- options ----

const arithmetic = fc.constantFrom(undefined, formats.f32, formats.f32, formats.ff, formats.ff);
/** Mostly omitted; named ones the GPU refuses (documented), an unknown one both refuse alike. */
const accumulation = fc.oneof({ arbitrary: fc.constant(undefined), weight: 10 }, { arbitrary: fc.constantFrom('recursive', 'kahan', 'bogus'), weight: 3 });
const scalar = fc.oneof(
  { arbitrary: fc.constantFrom(0, 1, -1, 0.5, -0), weight: 4 },
  { arbitrary: fc.integer({ min: -16, max: 16 }).map((k) => k / 4), weight: 3 },
  { arbitrary: fc.constantFrom(NaN, Infinity, -Infinity), weight: 1 },
);

// ---- comparison ----

type Outcome = { error: string } | { value?: number };

async function attempt(run: () => unknown): Promise<Outcome> {
  try {
    const r = await run();
    const value = typeof r === 'number' ? r : (r as { value?: number } | undefined)?.value;
    return { value };
  } catch (e) {
    if (e instanceof ModprecError) return { error: `${e.code} ${e.parameter}` };
    throw e;
  }
}

/** Bounds as the CPU computes them, or undefined where the bound function refuses the call. */
function boundOf(f: () => number | Float64Array): Float64Array | undefined {
  try {
    const b = f();
    return typeof b === 'number' ? Float64Array.of(b) : b;
  } catch (e) {
    if (e instanceof ModprecError) return undefined;
    throw e;
  }
}

/** Same non-finite pattern; finite values within bound (the sum of both runs' bounds, or twice the shared one). */
function expectClose(what: string, gpu: ArrayLike<number>, cpu: ArrayLike<number>, bound: Float64Array | undefined): void {
  expect(nonFinitePattern(gpu), `${what}: non-finite pattern`).toBe(nonFinitePattern(cpu));
  if (!bound) return;
  for (let i = 0; i < cpu.length; i++) {
    const [g, c, b] = [gpu[i]!, cpu[i]!, bound[i]!];
    if (!Number.isFinite(c) || !Number.isFinite(b)) continue;
    expect(Math.abs(g - c), `${what}[${i}]: gpu ${g}, cpu ${c}, bound ${b}`).toBeLessThanOrEqual(b);
  }
}

/** Outside the view the backing storage is untouched by both (equal, element for element); inside, close. */
function expectSameVector(what: string, gpu: Vec, cpu: Vec, bound: Float64Array | undefined): void {
  const [g, c] = [toArray(gpu.full), toArray(cpu.full)];
  const inView = new Set(cpu.at);
  for (let k = 0; k < c.length; k++) if (!inView.has(k)) expect(Object.is(g[k], c[k]), `${what}: storage element ${k} outside the view`).toBe(true);
  expectClose(what, toArray(gpu.r), toArray(cpu.r), bound);
}

interface Compared<O> {
  readonly make: () => O;
  readonly run: (o: O, options: object) => unknown;
  /** The bound of the result (scalar kernels) or of the output's elements, from the CPU's operands before the run. */
  readonly bound?: (o: O, options: object) => number | Float64Array;
  readonly output?: (o: O) => Vec;
}

/** Runs a call on both backends and checks the one rule; returns the outcome pair for the caller's statistics. */
async function compare<O>(property: string, c: Compared<O>, options: { arithmetic?: unknown; [k: string]: unknown }, doubled = true): Promise<string> {
  const cpuOps = c.make();
  const gpuOps = c.make();
  const cpuOptions = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  let bound = c.bound ? boundOf(() => c.bound!(cpuOps, cpuOptions)) : undefined;
  if (bound && doubled) bound = bound.map((b) => 2 * b);
  const cpu = await attempt(() => c.run(cpuOps, cpuOptions));
  const gpu = await attempt(() => c.run(gpuOps, { ...cpuOptions, backend: 'gpu', strict: true }));
  if ('error' in cpu || 'error' in gpu) {
    const [ce, ge] = ['error' in cpu ? cpu.error : 'ran', 'error' in gpu ? gpu.error : 'ran'];
    if (ce !== 'ran' || !GPU_REFUSALS.has(ge)) expect(ge, 'GPU outcome vs CPU outcome').toBe(ce);
    return `${ce}|${ge}`;
  }
  if (c.output) expectSameVector('output', c.output(gpuOps), c.output(cpuOps), bound);
  else expectClose('result', [gpu.value!], [cpu.value!], bound);
  compared.set(property, (compared.get(property) ?? 0) + 1);
  return 'ran';
}

/** Runs per property: each new signature compiles programs on llvmpipe (seconds), so a few dozen calls at most. */
const RUNS = Number(process.env.MODPREC_FUZZ_RUNS ?? 15);

/** Calls that ran on both backends and were compared, per property: a generator that only draws refusals tests nothing. */
const compared = new Map<string, number>();
function expectMostlyCompared(property: string, runs: number): void {
  expect(compared.get(property) ?? 0, `${property}: calls compared`).toBeGreaterThanOrEqual(Math.ceil(runs / 5));
}

describe('backend gpu against the CPU on random calls', () => {
  it('DOT (with into), ASUM, NRM2', async () => {
    const P = 'DOT (with into), ASUM, NRM2';
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.nat(5).chain((n) => fc.tuple(vecSpec(fc.constant(n)), vecSpec(fc.constant(n)))), arithmetic,
      fc.constantFrom('dot', 'dot-into', 'asum', 'nrm2'), vecSpec(fc.constant(1)), accumulation,
      async ([xs, ys], ar, kernel, intoSpec, acc) => {
        if (kernel === 'asum' || kernel === 'nrm2') {
          const [run, bound] = kernel === 'asum' ? [asum, asumBound] as const : [nrm2, nrm2Bound] as const;
          await compare(P, { make: () => makeVec(xs), run: (x, p) => run(x.r, p), bound: (x, p) => bound(x.r, p) }, { arithmetic: ar, accumulation: acc });
          return;
        }
        if (kernel === 'dot') {
          await compare(P, { make: () => [makeVec(xs), makeVec(ys)] as const, run: ([x, y], p) => dot(x.r, y.r, p), bound: ([x, y], p) => dotBound(x.r, y.r, p) }, { arithmetic: ar, accumulation: acc });
          return;
        }
        await compare(P, {
          make: () => [makeVec(xs), makeVec(ys), makeVec(intoSpec)] as const,
          run: ([x, y, into], p) => dot(x.r, y.r, { ...p, into: into.r }),
          output: ([, , into]) => into,
          bound: ([x, y, into], p) => dotBound(x.r, y.r, { ...p, into: into.r }),
        }, { arithmetic: ar, accumulation: acc });
      },
    ), { numRuns: RUNS });
    expectMostlyCompared(P, RUNS);
  });

  it('AXPY, WAXPBY, SCAL', async () => {
    const P = 'AXPY, WAXPBY, SCAL';
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.nat(5).chain((n) => fc.tuple(vecSpec(fc.constant(n)), vecSpec(fc.constant(n)), vecSpec(fc.constant(n)))), arithmetic, scalar, scalar,
      fc.constantFrom('axpy', 'waxpby', 'scal'), accumulation,
      async ([xs, ys, ws], ar, alpha, beta, kernel, acc) => {
        if (kernel === 'scal') {
          await compare(P, { make: () => makeVec(xs), run: (x, p) => scal(alpha, x.r, p), output: (x) => x, bound: (x, p) => scalBound(alpha, x.r, p) }, { arithmetic: ar, accumulation: acc });
        } else if (kernel === 'axpy') {
          await compare(P, { make: () => [makeVec(xs), makeVec(ys)] as const, run: ([x, y], p) => axpy(alpha, x.r, y.r, p), output: ([, y]) => y, bound: ([x, y], p) => axpyBound(alpha, x.r, y.r, p) }, { arithmetic: ar, accumulation: acc });
        } else {
          await compare(P, {
            make: () => [makeVec(xs), makeVec(ys), makeVec(ws)] as const,
            run: ([x, y, w], p) => waxpby(alpha, x.r, beta, y.r, w.r, p), output: ([, , w]) => w,
            bound: ([x, y, w], p) => waxpbyBound(alpha, x.r, beta, y.r, w.r, p),
          }, { arithmetic: ar, accumulation: acc });
        }
      },
    ), { numRuns: RUNS });
    expectMostlyCompared(P, RUNS);
  });

  it('GEMV N and T (β = 0 with NaN in y included)', async () => {
    const P = 'GEMV N and T (β = 0 with NaN in y included)';
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.constantFrom<'N' | 'T'>('N', 'T'))
        .chain(([m, n, trans]) => fc.tuple(fc.constant(trans), matSpec(m, n), vecSpec(fc.constant(trans === 'N' ? n : m)), vecSpec(fc.constant(trans === 'N' ? m : n)))),
      arithmetic, scalar, scalar, accumulation,
      async ([trans, As, xs, ys], ar, alpha, beta, acc) => {
        await compare(P, {
          make: () => ({ A: makeMat(As), x: makeVec(xs), y: makeVec(ys) }),
          run: (o, p) => gemv({ alpha, A: o.A, x: o.x.r, beta, y: o.y.r, trans }, p), output: (o) => o.y,
          bound: (o, p) => gemvBound({ alpha, A: o.A, x: o.x.r, beta, y: o.y.r, trans }, p),
        }, { arithmetic: ar, accumulation: acc });
      },
    ), { numRuns: RUNS });
    expectMostlyCompared(P, RUNS);
  });

  it('ELL SpMV', async () => {
    const P = 'ELL SpMV';
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 2 }))
        .chain(([rows, cols, width]) => fc.tuple(
          fc.constant([rows, cols, width] as const), storageName,
          // Column indices slot-major (entry k of row i at i + k·rows); padding (−1) last in a row.
          fc.array(fc.tuple(fc.nat(width), fc.array(fc.nat(cols - 1), { minLength: width, maxLength: width })), { minLength: rows, maxLength: rows })
            .map((perRow) => Array.from({ length: rows * width }, (_, at) => {
              const [i, k] = [at % rows, Math.floor(at / rows)];
              return k < perRow[i]![0] ? perRow[i]![1][k]! : -1;
            })),
          fc.array(values('f64'), { minLength: rows * width, maxLength: rows * width }),
          vecSpec(fc.constant(cols)), vecSpec(fc.constant(rows)))),
      arithmetic, scalar, scalar, accumulation,
      async ([[rows, cols, width], storage, colIndex, vals, xs, ys], ar, alpha, beta, acc) => {
        const structure = ellMatrix({ rows, cols, width, stride: rows, colIndex: Int32Array.from(colIndex), values: new Float64Array(rows * width) });
        const stored = range(colMajor<2>({ size: [rows, width], stride: rows, storage: STORAGE[storage] as never }));
        vals.forEach((v, k) => stored.set(k % rows, Math.floor(k / rows), colIndex[k] === -1 ? 0 : v));
        const E = ellOperand(structure, stored);
        await compare(P, {
          make: () => ({ x: makeVec(xs), y: makeVec(ys) }),
          run: (o, p) => ellSpmv({ alpha, A: E, x: o.x.r, beta, y: o.y.r }, p), output: (o) => o.y,
          bound: (o, p) => ellSpmvBound({ alpha, A: E, x: o.x.r, beta, y: o.y.r }, p),
        }, { arithmetic: ar, accumulation: acc });
      },
    ), { numRuns: RUNS });
    expectMostlyCompared(P, RUNS);
  });

  it('TRSV, every variant', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(matSpec(n, n), vecSpec(fc.constant(n)))),
      arithmetic, fc.constantFrom<'U' | 'L'>('U', 'L'), fc.constantFrom<'N' | 'T'>('N', 'T'), fc.constantFrom<'N' | 'U'>('N', 'U'),
      // The one-dispatch solve (64) or the blocked one (128), whose redo pass reads b from x's storage.
      fc.constantFrom(64, 128),
      async ([As, xs], ar, uplo, trans, diag, blockSize) => {
        // A well-conditioned diagonal (so that the bounds say something) unless a special value was drawn for it.
        const vals = As.values.map((v, k) => (k % (As.rows + 1) === 0 && Number.isFinite(v) ? 4 + v : v));
        const spec = { ...As, values: vals };
        const make = () => ({ A: makeMat(spec), x: makeVec(xs) });
        const cpuOps = make();
        const gpuOps = make();
        const options = ar ? { arithmetic: ar } : {};
        const cpu = await attempt(() => trsv({ A: cpuOps.A, x: cpuOps.x.r, uplo, trans, diag }, options));
        const gpu = await attempt(() => trsv({ A: gpuOps.A, x: gpuOps.x.r, uplo, trans, diag }, { ...options, backend: 'gpu', strict: true, blockSize }));
        if ('error' in cpu || 'error' in gpu) {
          const [ce, ge] = ['error' in cpu ? cpu.error : 'ran', 'error' in gpu ? gpu.error : 'ran'];
          if (ce !== 'ran' || !GPU_REFUSALS.has(ge)) expect(ge).toBe(ce);
          return;
        }
        // A posteriori bounds: each run's own (the GPU's bounds its block-inverse algorithm).
        const bc = trsvBound({ A: cpuOps.A, x: cpuOps.x.r, uplo, trans, diag }, options);
        const bg = trsvBound({ A: gpuOps.A, x: gpuOps.x.r, uplo, trans, diag }, { ...options, backend: 'gpu', blockSize });
        expectSameVector('x', gpuOps.x, cpuOps.x, bc.map((b, i) => b + bg[i]!));
      },
    ), { numRuns: Math.ceil(RUNS / 2.5) });
  });
});

describe('the resident API (toDevice of ranges and views) against the CPU', () => {
  it('DOT (and its resident result), ASUM, NRM2, GEMV N/T, AXPY and SCAL through gpuUpdate', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(
      fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.constantFrom<'N' | 'T'>('N', 'T'))
        .chain(([m, n, trans]) => fc.tuple(fc.constant(trans), matSpec(m, Math.max(n, 1)), vecSpec(fc.constant(trans === 'N' ? Math.max(n, 1) : m), storageName), vecSpec(fc.constant(trans === 'N' ? m : Math.max(n, 1)), storageName), vecSpec(fc.constant(n), storageName), vecSpec(fc.constant(n), storageName))),
      fc.constantFrom(undefined, 'f32' as const, 'ff' as const), scalar, scalar,
      fc.constantFrom('dot', 'dotResident', 'asum', 'nrm2', 'gemv', 'axpy', 'scal'),
      async ([trans, As, gx, gy, xs, ys], name, alpha, beta, kernel) => {
        // The resident default: float-float when an operand is stored in f64, else binary32 (docs/gpu.md).
        const used: string[] = kernel === 'gemv' ? [As.storage, gx.storage, gy.storage] : kernel === 'asum' || kernel === 'nrm2' || kernel === 'scal' ? [xs.storage] : [xs.storage, ys.storage];
        const ar = name ?? (used.includes('f64') ? 'ff' : 'f32');
        const options = { arithmetic: ar === 'ff' ? formats.ff : formats.f32 };
        const gpuOptions = name ? { arithmetic: name, strict: true } : { strict: true };
        if (kernel === 'gemv') {
          const [cpu, dev] = [{ A: makeMat(As), x: makeVec(gx), y: makeVec(gy) }, { A: makeMat(As), x: makeVec(gx), y: makeVec(gy) }];
          const args = { alpha, A: cpu.A, x: cpu.x.r, beta, y: cpu.y.r, trans };
          const bound = boundOf(() => gemvBound(args, options))?.map((b) => 2 * b);
          gemv(args, options);
          const y = await toDevice(dev.y.r);
          await gpuGemv({ alpha, A: await toDeviceMatrix(dev.A), x: await toDevice(dev.x.r), beta, y, trans }, gpuOptions);
          expectClose('y', await y.toHost(), toArray(cpu.y.r), bound);
          return;
        }
        const [cx, cy, dx, dy] = [makeVec(xs), makeVec(ys), makeVec(xs), makeVec(ys)];
        if (kernel === 'axpy' || kernel === 'scal') {
          // gpuUpdate is WAXPBY: with α = 0 it still writes 1·y rounded in the arithmetic (an f64 y through ff), where
          // the CPU's axpy returns at once — its CPU twin there is waxpby(0, x, 1, y, y).
          const asWaxpby = kernel === 'axpy' && alpha === 0;
          const bound = boundOf(() => (asWaxpby ? waxpbyBound(0, cx.r, 1, cy.r, cy.r, options) : kernel === 'axpy' ? axpyBound(alpha, cx.r, cy.r, options) : scalBound(alpha, cx.r, options)))?.map((b) => 2 * b);
          const out = kernel === 'axpy' ? cy : cx;
          if (asWaxpby) waxpby(0, cx.r, 1, cy.r, cy.r, options);
          else if (kernel === 'axpy') axpy(alpha, cx.r, cy.r, options); else scal(alpha, cx.r, options);
          const [x, y] = [await toDevice(dx.r), await toDevice(dy.r)];
          await gpuUpdate(kernel === 'axpy' ? { alpha, x, beta: 1, y, out: y } : { alpha, x, beta: 0, out: x }, gpuOptions);
          expectClose(kernel, await (kernel === 'axpy' ? y : x).toHost(), toArray(out.r), bound);
          return;
        }
        const x = await toDevice(dx.r);
        let gpu: number;
        let cpu: number;
        let bound: Float64Array | undefined;
        if (kernel === 'asum' || kernel === 'nrm2') {
          bound = boundOf(() => (kernel === 'asum' ? asumBound : nrm2Bound)(cx.r, options));
          cpu = (kernel === 'asum' ? asum : nrm2)(cx.r, options);
          gpu = (await (kernel === 'asum' ? gpuAsum : gpuNrm2)(x, gpuOptions)).value;
        } else {
          bound = boundOf(() => dotBound(cx.r, cy.r, options));
          cpu = dot(cx.r, cy.r, options);
          const y = await toDevice(dy.r);
          gpu = kernel === 'dot' ? (await gpuDot(x, y, gpuOptions)).value : (await (await gpuDotResident(x, y, gpuOptions)).result.toHost())[0]!;
        }
        expectClose(kernel, [gpu], [cpu], bound?.map((b) => 2 * b));
      },
    ), { numRuns: RUNS });
  });
});
