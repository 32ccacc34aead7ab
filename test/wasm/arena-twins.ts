/**
 * Twin operands for the in-place tests: the same raw storage (and scale) once in ordinary memory and once in a
 * wasmArena, so the staged and the in-place WebAssembly paths can be compared bit for bit.
 */
import fc from 'fast-check';
import { formats, range, rowMajor, colMajor, scaledReducedRowMajor, span, type Range, type WasmArena } from '../../src/index.js';
import type { Accessor } from '../../accessors/accessor.js';

export type TwinStorage = 'f64' | 'f32' | 'f16' | 'bf16' | 'i8s' | 'i8' | 'dd';

/** A 1-D operand: storage, increment, and how many elements of the parent lie before and after the view. */
export interface VectorTwinSpec { storage: TwinStorage; stride: number; lead: number; tail: number }

export const vectorTwinSpec = (storages: readonly TwinStorage[]): fc.Arbitrary<VectorTwinSpec> => fc.record({
  storage: fc.constantFrom(...storages),
  stride: fc.constantFrom(1, 1, 1, 2, -1),
  lead: fc.integer({ min: 0, max: 3 }),
  tail: fc.integer({ min: 0, max: 2 }),
});

const storageOf = (s: TwinStorage) => (s === 'i8s' ? formats.i8 : formats[s]);

/** Element values: mostly moderate doubles, some specials (scaled integers get finite values only). */
export const element = fc.oneof(
  { weight: 10, arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e-310, 6e4, 1e300) },
);

/** Whether the storage takes any double (integers take finite values in their range only). */
const finiteOnly = (s: TwinStorage): boolean => s === 'i8s' || s === 'i8';

/** The operand built in ordinary memory, then its twin in `arena` with a copy of the raw storage and scale. */
export function vectorTwins(spec: VectorTwinSpec, values: readonly number[], arena: WasmArena, arithmetic: 'f64' | 'f32' = 'f64'): [Range<1>, Range<1>] {
  const n = values.length, N = spec.lead + n + spec.tail;
  const make = (memory?: WasmArena): Accessor<1, number> => {
    const common = { size: [N] as [number], storage: storageOf(spec.storage), arithmetic: formats[arithmetic], stride: spec.stride, memory };
    return spec.storage === 'i8s' ? scaledReducedRowMajor<1>({ ...common, scaleMask: [false] }) : rowMajor<1>(common);
  };
  const plain = make();
  // An empty vector (no lead, tail or elements) has no scale entry to write.
  if (plain.scale && N > 0) plain.writeScale(0, 0.375);
  // Elements outside the view hold values a kernel must never read (NaN, or large integers).
  for (let i = 0; i < N; i++) plain.set(i, finiteOnly(spec.storage) ? 100 : NaN);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    plain.set(spec.lead + i, finiteOnly(spec.storage) ? (Number.isFinite(v) ? Math.round(v) % 127 : 5) * (plain.scale ? 0.375 : 1) : v);
  }
  const twin = make(arena);
  copyRaw(plain, twin);
  const view = (a: Accessor<1, number>) => range(a.sub(span(spec.lead, spec.lead + n)) as Accessor<1, number>) as Range<1>;
  return [view(plain), view(twin)];
}

/** A matrix operand: layout, leading-dimension padding, and a sub-matrix offset. */
export interface MatrixTwinSpec { storage: TwinStorage; layout: 'row-major' | 'col-major'; pad: number; row0: number; col0: number }

export const matrixTwinSpec = (storages: readonly TwinStorage[]): fc.Arbitrary<MatrixTwinSpec> => fc.record({
  storage: fc.constantFrom(...storages),
  layout: fc.constantFrom('row-major' as const, 'col-major' as const),
  pad: fc.integer({ min: 0, max: 3 }),
  row0: fc.integer({ min: 0, max: 2 }),
  col0: fc.integer({ min: 0, max: 2 }),
});

/** An m×n matrix built in ordinary memory and its twin in `arena` (the views: a sub-matrix of a larger parent). */
export function matrixTwins(spec: MatrixTwinSpec, m: number, n: number, value: (i: number, j: number) => number, arena: WasmArena, arithmetic: 'f64' | 'f32' = 'f64'): [Range<2>, Range<2>] {
  const M = spec.row0 + m + 1, N = spec.col0 + n + 1;
  const make = (memory?: WasmArena): Accessor<2, number> => {
    const stride = spec.layout === 'row-major' ? N + spec.pad : M + spec.pad;
    const common = { size: [M, N] as [number, number], storage: storageOf(spec.storage), arithmetic: formats[arithmetic], stride, memory };
    if (spec.storage === 'i8s') return scaledReducedRowMajor<2>({ ...common, stride: N + spec.pad, scaleMask: [false, false] });
    return (spec.layout === 'row-major' ? rowMajor<2> : colMajor<2>)(common);
  };
  const plain = make();
  if (plain.scale) plain.writeScale(0, 0, 0.375);
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) plain.set(i, j, finiteOnly(spec.storage) ? 100 : NaN);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const v = value(i, j);
      plain.set(spec.row0 + i, spec.col0 + j, finiteOnly(spec.storage) ? (Math.round(v) % 127) * (plain.scale ? 0.375 : 1) : v);
    }
  }
  const twin = make(arena);
  copyRaw(plain, twin);
  const view = (a: Accessor<2, number>) => range(a.sub(span(spec.row0, spec.row0 + m), span(spec.col0, spec.col0 + n)) as Accessor<2, number>) as Range<2>;
  return [view(plain), view(twin)];
}

function copyRaw(from: Accessor<any, number>, to: Accessor<any, number>): void {
  (to.data as Float64Array).set(from.data as Float64Array);
  if (from.scale) (to.scale!.data as Float64Array).set(from.scale.data as Float64Array);
}

/** A range's raw storage entries (compared with Object.is through toEqual). */
export const raw = (r: Range<any, any>): number[] => Array.from(r.accessor.data as ArrayLike<number>);
