/**
 * The random TRSV systems that the WebAssembly double-double TRSV tests share (issue 20): the case fields (size,
 * uplo/trans/diag, A's layout and storage, x's storage and layout, special values, zero pivots, huge entries, seed),
 * A built from them (dd storage with low parts that count, one row and column near the top of the range where asked),
 * x in the case's storage, x's stored parts, and the check that WebAssembly stores the JavaScript kernel's parts.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { trsv, cpuBackendOf, fitScales, formats, range, scaledReducedColMajor, scaledReducedRowMajor, type Range } from '../../src/index.js';
import type { KernelOptions } from '../../kernels/shared/kernel-options.js';
import { buildMatrix, buildVector, matrixSpec, type MatrixSpec, type StorageName } from '../kernels/matrix-kernel-fixtures.js';
import { trsvSystem, ddVector, ddVectorSpec, expectSameParts, pairOf, rawParts, type Pair } from './dd-output-fixtures.js';
import { seededRandom } from '../../src/sparse/seeded-random.js';

/**
 * The storage of x: numbers (f64, f32), double-doubles (interleaved, split), or a storage WebAssembly does not write
 * itself (fp16, bf16, int16 with one scale: stored through the JavaScript kernel's own store).
 */
export type XStorage = 'f64' | 'f32' | 'dd' | 'dd-split' | 'f16' | 'bf16' | 'i16s';

/**
 * The fields of a random dd TRSV case. A in int16 storage is scaled per row or per column (`oneScale`: one scale for
 * the whole matrix, in int8 or int16), read as the JavaScript reads it.
 */
export const trsvCaseFields = {
  n: fc.integer({ min: 1, max: 19 }), uplo: fc.constantFrom('L' as const, 'U' as const), trans: fc.constantFrom('N' as const, 'T' as const),
  diag: fc.constantFrom('N' as const, 'U' as const),
  xStorage: fc.constantFrom<XStorage>('f64', 'f32', 'dd', 'dd-split', 'f16', 'bf16', 'i16s'), x: ddVectorSpec,
  A: matrixSpec, ddA: fc.boolean(), oneScale: fc.constantFrom<'i8' | 'i16' | null>(null, null, 'i8', 'i16'),
  special: fc.boolean(), zeroPivot: fc.boolean(), huge: fc.boolean(), seed: fc.integer({ min: 0, max: 2 ** 30 }),
};

/** A random case drawn from {@link trsvCaseFields}. */
export type TrsvCase = { [K in keyof typeof trsvCaseFields]: (typeof trsvCaseFields)[K] extends fc.Arbitrary<infer T> ? T : never };

/** A's entries as built (dd storage: low parts set from the seed), one row and column of huge entries where asked. */
export function systemOf(c: { seed: number; n: number; A: MatrixSpec; ddA: boolean; oneScale?: 'i8' | 'i16' | null; huge: boolean; zeroPivot: boolean; special: boolean }): { A: Range<2, any>; bs: Pair[] } {
  const random = seededRandom(c.seed + 1);
  const spec: MatrixSpec = c.ddA && c.A.storage !== 'i16s' ? { ...c.A, storage: 'dd' as StorageName } : c.A;
  return trsvSystem(c, (entry) => {
    // Where asked, entries near the top of the range: products overflow Dekker's splitting (the guarded slow form).
    // One row and column of A hold them (more would overflow every later x), so rows recomputed by the guards still end finite.
    const value = (i: number, j: number): number => (c.huge && i !== j && Math.min(i, j) === 0 && random.nextDouble() < 0.7 ? 2 ** 1000 * (random.nextDouble() - 0.5) : entry(i, j));
    if (c.oneScale) {
      // One scale for the whole matrix (fitScales: the largest entry maps to the format's largest integer).
      const size = [c.n, c.n] as const, common = { size, storage: formats[c.oneScale], arithmetic: formats.f64, scaleMask: [false, false] };
      const a = c.A.layout === 'col' ? scaledReducedColMajor<2>(common) : scaledReducedRowMajor<2>(common);
      fitScales(a, value);
      return range(a);
    }
    const A = buildMatrix(spec, c.n, c.n, value);
    if (c.ddA && spec.storage === 'dd') {
      const a = A.accessor;
      for (let i = 0; i < c.n; i++) for (let j = 0; j < c.n; j++) {
        const p = a.storage.decode(a.data as never, a.linearIndex([i, j])) as Pair;
        a.storage.encode(a.data as never, a.linearIndex([i, j]), pairOf(p.hi, random.nextDouble() * 2 - 1));
      }
    }
    return A;
  });
}

/**
 * x holding the right-hand sides in the case's storage (number storage: the pairs' high parts; int16 with one scale:
 * room for solutions up to 64 in magnitude — larger ones saturate —, a NaN or ∞ right-hand side as ±64).
 */
export function xOf(c: { xStorage: XStorage; x: { stride: number; sub: boolean } }, bs: readonly Pair[]): Range<1, any> {
  if (c.xStorage === 'dd' || c.xStorage === 'dd-split') return ddVector({ ...c.x, layout: c.xStorage }, bs);
  // A scaled range holds finite values only: a NaN or ∞ right-hand side becomes ±64, the top of its room.
  const finite = (v: number): number => (c.xStorage !== 'i16s' || Number.isFinite(v) ? v : v > 0 ? 64 : -64);
  return buildVector({ storage: c.xStorage, stride: c.x.stride, sub: c.x.sub }, bs.map((p) => finite(p.hi)), 'f64', 64);
}

/**
 * Every stored part of x in the case's storage (sentinels included; a scaled x's scales after them), decoded (an fp16
 * or bf16 NaN compared as NaN: its sign and payload are open), for a bitwise comparison.
 */
export function xParts(xStorage: XStorage, x: Range<1, any>): number[] {
  const a = x.accessor, data = a.data as ArrayLike<number>;
  if (xStorage === 'dd' || xStorage === 'dd-split') return rawParts(x);
  return [...Array.from({ length: data.length }, (_, k) => a.storage.decode(data as never, k) as number), ...(a.scale ? [...a.scale.data] : [])];
}

/**
 * Solves the case's system with backend 'wasm' and with backend 'js' under `options` and expects the same stored
 * parts, bit for bit; first, that the automatic choice keeps such a call in JavaScript giving `reason` (WebAssembly
 * is slower there: row-major op(A), small n) and that backend 'wasm' is accepted, not refused.
 */
export function expectWasmStoresJsParts(c: TrsvCase, options: KernelOptions, reason: RegExp): void {
  const { A, bs } = systemOf(c);
  const x = xOf(c, bs), xjs = xOf(c, bs);
  const args = { A, uplo: c.uplo, trans: c.trans, diag: c.diag };
  expect(cpuBackendOf('trsv', { A, x }, options, ['x']).reason).toMatch(reason);
  expect(cpuBackendOf('trsv', { A, x }, { ...options, backend: 'wasm' }, ['x']).backend).toBe('wasm');
  trsv({ ...args, x }, { ...options, backend: 'wasm' });
  trsv({ ...args, x: xjs }, { ...options, backend: 'js' });
  expectSameParts(xParts(c.xStorage, x), xParts(c.xStorage, xjs), 'wasm against js');
}
