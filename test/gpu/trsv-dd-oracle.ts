/**
 * Shared by the double-double TRSV lane tests (trsv-dd-lanes, trsv-dd-lanes-fused): systems whose pivots are powers of
 * two, so the exact solution is a dyadic rational, built in dd or f64 storage (dd entries genuine pairs), and that
 * exact arithmetic.
 */
import { range, colMajor, rowMajor, span, formats, type Range } from '../../src/index.js';
import { randomValues } from './gpu-test-helpers.js';

/** The storages the dd TRSV lane tests solve in. */
export type Storage = typeof formats.dd | typeof formats.f64;
/**
 * Exact dyadic rationals m·2^e (BigInt m): the solution of a system whose pivots are powers of two is one, and
 * without a gcd per operation the oracle stays fast at n = 150 (a pair's 106+ bits a level).
 */
export interface Dy { readonly m: bigint; readonly e: number }
export const dyOf = (x: number): Dy => {
  if (!Number.isFinite(x)) throw new Error(`not finite: ${x}`);
  let k = 0;
  while (!Number.isInteger(x)) { x *= 2; k++; }
  return { m: BigInt(x), e: -k };
};
export const add = (a: Dy, b: Dy): Dy => (a.e <= b.e ? { m: a.m + (b.m << BigInt(b.e - a.e)), e: a.e } : add(b, a));
export const neg = (a: Dy): Dy => ({ m: -a.m, e: a.e });
export const mul = (a: Dy, b: Dy): Dy => ({ m: a.m * b.m, e: a.e + b.e });
/** a / p for p = ±2^k. */
export const divPow2 = (a: Dy, p: Dy): Dy => {
  const mag = p.m < 0n ? -p.m : p.m;
  if ((mag & (mag - 1n)) !== 0n) throw new Error('pivot not a power of two');
  return { m: p.m < 0n ? -a.m : a.m, e: a.e - p.e - (mag.toString(2).length - 1) };
};
/** |a| ≤ b. */
export const atMost = (a: Dy, b: number): boolean => {
  if (b === Infinity) return true;
  const d = add(a.m < 0n ? neg(a) : a, neg(dyOf(b)));
  return d.m <= 0n;
};
export const exactOf = (v: unknown): Dy => (typeof v === 'number' ? dyOf(v) : add(dyOf((v as { hi: number }).hi), dyOf((v as { lo: number }).lo)));

/** Writes v (with a lo part of about 2^-60·v for dd storage: a genuine pair) as element `index` of the accessor. */
export function put(r: Range<any, any>, index: number, v: number, lo: number): void {
  const a = r.accessor;
  a.storage.encode(a.data as never, index, (a.storage === formats.dd ? { hi: v, lo: Number.isFinite(v) ? v * lo * 2 ** -60 : 0 } : v) as never);
}

/** n×n: diagonal ±1 or ±2 (powers of two: a dyadic solution), off-diagonal entries up to 1/n in both triangles; packed, or a row-major sub-range. */
export function matrixOf(storage: Storage, n: number, seed: number, layout: 'packed' | 'sub'): Range<2, any> {
  const A = layout === 'packed'
    ? range(colMajor<2>({ size: [n, n], storage: storage as never, arithmetic: formats.dd as never }))
    : range(rowMajor<2>({ size: [n + 3, n + 2], storage: storage as never, arithmetic: formats.dd as never })).sub(span(2, n + 2), span(1, n + 1));
  const a = randomValues(n * n, seed);
  const d = randomValues(n, seed + 1);
  const lo = randomValues(n * n, seed + 2);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const v = i === j ? (d[i]! < 0 ? 1 : 2) * (i % 2 === 0 ? 1 : -1) : a[i + j * n]! / n;
      put(A, A.accessor.linearIndex([i, j]), v, i === j ? 0 : lo[i + j * n]!);
    }
  }
  return A;
}

/** x holding b: packed, or every other element walked backwards. */
export function vectorOf(storage: Storage, b: ArrayLike<number>, layout: 'packed' | 'strided'): Range<1, any> {
  const n = b.length;
  const x = layout === 'packed'
    ? range(colMajor<1>({ size: [n], storage: storage as never, arithmetic: formats.dd as never }))
    : range(colMajor<1>({ size: [n], stride: -2, storage: storage as never, arithmetic: formats.dd as never }));
  for (let i = 0; i < n; i++) put(x, x.accessor.linearIndex([i]), b[i]!, b[(i + 1) % n]!);
  return x;
}

export const storedOf = (r: Range<any, any>, index: readonly number[]): unknown => r.accessor.storage.decode(r.accessor.data as never, r.accessor.linearIndex(index as never));

/** A TRSV variant: uplo, trans, diag. */
export type Variant = readonly ['L' | 'U', 'N' | 'T', 'N' | 'U'];

/** The exact solution of the stored system (pivots are powers of two). */
export function exactSolution(A: Range<2, any>, x: Range<1, any>, n: number, [uplo, trans, diag]: Variant): Dy[] {
  const b = Array.from({ length: n }, (_, i) => exactOf(storedOf(x, [i])));
  const t = (i: number, j: number): Dy => exactOf(storedOf(A, trans === 'N' ? [i, j] : [j, i]));
  const lower = (uplo === 'L') === (trans === 'N');
  const exact: Dy[] = new Array(n);
  for (let step = 0; step < n; step++) {
    const i = lower ? step : n - 1 - step;
    let s = b[i]!;
    for (let j = lower ? 0 : i + 1; j < (lower ? i : n); j++) s = add(s, neg(mul(t(i, j), exact[j]!)));
    exact[i] = diag === 'U' ? s : divPow2(s, t(i, i));
  }
  return exact;
}
