/**
 * The nine BLAS kernels called on one small set of fp32 operands, and a call's outcome as a comparable string: the
 * shared fixture of the tests that check a bad argument is the same typed error everywhere, with nothing written.
 */
import { dot, gemv, trsv, ellSpmv, axpy, waxpby, scal, nrm2, asum, vector, matrix, toArray, formats, ellFromMatrix, ellMatrix, ModprecError } from '../../src/index.js';

/** x, y, w of length 3, a 3×3 A and a diagonal ELL matrix E, all fp32. */
export function kernelOperands() {
  const f = { storage: formats.f32, arithmetic: formats.f32 };
  return {
    x: vector([1, -2, 3], f), y: vector([4, 5, -6], f), w: vector([7, 8, 9], f),
    A: matrix(3, 3, (i, j) => (i === j ? 2 : i + j), f),
    E: ellFromMatrix(ellMatrix({ rows: 3, cols: 3, width: 1, stride: 3, colIndex: Int32Array.of(0, 1, 2), values: Float64Array.of(1, 2, 3) }), 'f32'),
  };
}
export type KernelOperands = ReturnType<typeof kernelOperands>;

/** Each kernel by name, called on the operands with the given options. */
export const KERNEL_CALLS: [string, (o: KernelOperands, options: any) => unknown][] = [
  ['dot', (o, p) => dot(o.x, o.y, p)], ['asum', (o, p) => asum(o.x, p)], ['nrm2', (o, p) => nrm2(o.x, p)],
  ['scal', (o, p) => scal(2, o.x, p)], ['axpy', (o, p) => axpy(2, o.x, o.y, p)], ['waxpby', (o, p) => waxpby(2, o.x, 3, o.y, o.w, p)],
  ['gemv', (o, p) => gemv({ alpha: 1, A: o.A, x: o.x, beta: 1, y: o.y }, p)], ['trsv', (o, p) => trsv({ A: o.A, x: o.x }, p)],
  ['ellSpmv', (o, p) => ellSpmv({ alpha: 1, A: o.E, x: o.x, beta: 1, y: o.y }, p)],
];

/** Every stored value of the ranges, −0 told apart: equal strings mean nothing was written. */
export function rangeBits(ranges: readonly Parameters<typeof toArray>[0][]): string {
  return ranges.map((r) => [...toArray(r)].map((v) => (Object.is(v, -0) ? '-0' : String(v))).join()).join('/');
}

/** A call's outcome: 'ran', `${code} ${parameter}` for a ModprecError (thrown or rejected), `untyped …` otherwise. */
export async function outcome(run: () => unknown): Promise<string> {
  try {
    await run();
    return 'ran';
  } catch (e) {
    if (e instanceof ModprecError) return `${e.code} ${e.parameter}`;
    return `untyped ${(e as Error).message}`;
  }
}
