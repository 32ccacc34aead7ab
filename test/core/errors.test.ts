/**
 * Bad input to the core API: every case throws a ModprecError with the documented code and a `parameter` naming
 * the argument, before anything is written.
 */
import { describe, expect, it } from 'vitest';
import { ModprecError, type ModprecErrorCode } from '../../src/core/errors.js';
import { range } from '../../src/core/range.js';
import { span } from '../../src/core/span.js';
import { vector } from '../../src/core/vectors.js';
import '../../src/formats/index.js';
import { rowMajor } from '../../accessors/row-major.js';
import { colMajor } from '../../accessors/col-major.js';
import { blockColMajor } from '../../accessors/block-col-major.js';
import { strided } from '../../accessors/strided.js';
import { scaledReducedRowMajor, fitScales } from '../../accessors/scaled-reduced.js';
import { dot } from '../../kernels/dot/dot.js';
import { axpy } from '../../kernels/axpy/axpy.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { scal } from '../../kernels/scal/scal.js';
import { asum } from '../../kernels/asum/asum.js';
import { nrm2 } from '../../kernels/nrm2/nrm2.js';

/** Runs `call`, expecting a ModprecError with `code` and `parameter`. */
function expectModprecError(call: () => unknown, code: ModprecErrorCode, parameter: string): void {
  let thrown: unknown;
  try { call(); } catch (e) { thrown = e; }
  expect(thrown, 'no error thrown').toBeInstanceOf(ModprecError);
  const e = thrown as ModprecError;
  expect({ code: e.code, parameter: e.parameter }).toEqual({ code, parameter });
  expect(e.message).toContain(parameter);
}

type Case = readonly [description: string, call: () => unknown, code: ModprecErrorCode, parameter: string];
const any = (x: unknown) => x as never;

const CONSTRUCTION: Case[] = [
  ['a negative extent', () => rowMajor({ size: [2, -1] }), 'INVALID_SIZE', 'size[1]'],
  ['a fractional extent', () => colMajor({ size: [2, 1.5] }), 'INVALID_SIZE', 'size[1]'],
  ['four dimensions', () => rowMajor({ size: any([1, 2, 3, 4]) }), 'INVALID_SIZE', 'size'],
  ['a row-major leading dimension below the column count', () => rowMajor({ size: [2, 3], stride: 2 }), 'INVALID_STRIDE', 'stride'],
  ['a zero leading dimension', () => rowMajor({ size: [2, 3], stride: 0 }), 'INVALID_STRIDE', 'stride'],
  ['a negative leading dimension', () => colMajor({ size: [3, 2], stride: -3 }), 'INVALID_STRIDE', 'stride'],
  ['a col-major 3-D outer stride that overlaps', () => colMajor<3>({ size: [3, 2, 2], stride: [3, 4] }), 'INVALID_STRIDE', 'stride[1]'],
  ['a row-major 3-D outer stride that overlaps', () => rowMajor<3>({ size: [2, 2, 2], stride: [2, 2] }), 'INVALID_STRIDE', 'stride[0]'],
  ['a block-col-major leading dimension below the rows', () => blockColMajor({ size: [2, 3, 2], stride: [10, 2] }), 'INVALID_STRIDE', 'stride[1]'],
  ['a block stride that overlaps', () => blockColMajor({ size: [2, 3, 2], stride: [5, 3] }), 'INVALID_STRIDE', 'stride[0]'],
  ['a zero vector increment', () => rowMajor<1>({ size: [4], stride: 0 }), 'INVALID_STRIDE', 'stride'],
  ['the wrong number of strides', () => rowMajor({ size: [2, 2], stride: [3, 1] }), 'INVALID_STRIDE', 'stride'],
  ['a zero explicit stride', () => strided({ size: [2, 2], strides: [1, 0] }), 'INVALID_STRIDE', 'strides[1]'],
  ['too few explicit strides', () => strided({ size: [2, 2], strides: any([1]) }), 'INVALID_STRIDE', 'strides'],
  ['a Float64Array for fp32 storage', () => rowMajor({ size: [2, 2], storage: 'f32', data: new Float64Array(4) }), 'INVALID_STORAGE', 'data'],
  ['a Float32Array for fp16 storage', () => rowMajor({ size: [2, 2], storage: 'f16', data: new Float32Array(4) }), 'INVALID_STORAGE', 'data'],
  ['a plain array as storage', () => rowMajor<1>({ size: [2], data: [1, 2] }), 'INVALID_STORAGE', 'data'],
  ['a too-short buffer', () => rowMajor({ size: [2, 2], data: new Float64Array(3) }), 'INVALID_STORAGE', 'data'],
  ['a buffer too short for the leading dimension', () => rowMajor({ size: [2, 3], stride: 4, data: new Float64Array(6) }), 'INVALID_STORAGE', 'data'],
  ['an offset past the buffer', () => rowMajor<1>({ size: [2], offset: 3, data: new Float64Array(4) }), 'INVALID_STORAGE', 'data'],
  ['a negative offset', () => rowMajor<1>({ size: [2], offset: -1 }), 'INVALID_SIZE', 'offset'],
  ['an unknown storage format', () => rowMajor({ size: [2, 2], storage: 'f128' }), 'INVALID_FORMAT', 'storage'],
  ['fp16 asked as arithmetic', () => rowMajor({ size: [2, 2], storage: 'f16', arithmetic: 'f16' }), 'INVALID_FORMAT', 'arithmetic'],
  ['an integer format asked as arithmetic', () => rowMajor({ size: [2, 2], arithmetic: 'i16' }), 'INVALID_FORMAT', 'arithmetic'],
  ['a scale mask of the wrong length', () => scaledReducedRowMajor({ size: [2, 2], storage: 'i8', scaleMask: [true] }), 'INVALID_OPTION', 'scaleMask'],
  ['a zero scale', () => scaledReducedRowMajor({ size: [2, 2], storage: 'i8', scaleMask: [true, false], scale: new Float64Array([1, 0]) }), 'INVALID_VALUE', 'scale[1]'],
  ['a NaN scale', () => scaledReducedRowMajor({ size: [2, 2], storage: 'i8', scaleMask: [true, false], scale: new Float64Array([NaN, 1]) }), 'INVALID_VALUE', 'scale[0]'],
  ['a Float32Array of scales', () => scaledReducedRowMajor({ size: [2, 2], storage: 'i8', scaleMask: [true, false], scale: any(new Float32Array(2)) }), 'INVALID_STORAGE', 'scale'],
  ['too few scales', () => scaledReducedRowMajor({ size: [2, 2], storage: 'i8', scaleMask: [true, false], scale: new Float64Array(1) }), 'INVALID_STORAGE', 'scale'],
  ['a non-accessor wrapped in a range', () => range(any({ size: [2] })), 'INVALID_OPTION', 'accessor'],
  ['a reversed span', () => span(2, 1), 'INDEX_OUT_OF_RANGE', 'span.end'],
  ['a negative span start', () => span(-1, 1), 'INDEX_OUT_OF_RANGE', 'span.begin'],
];

describe.each(CONSTRUCTION)('constructing with %s', (_description, call, code, parameter) => {
  it(`throws ${code} naming ${parameter}`, () => expectModprecError(call, code, parameter));
});

/** A 2×2 fp64 matrix with known contents, to check that failed calls write nothing. */
function matrix2() {
  const A = range(rowMajor({ size: [2, 2], data: new Float64Array([1, 2, 3, 4]) }));
  return { A, unchanged: () => expect(Array.from(A.accessor.data as Float64Array)).toEqual([1, 2, 3, 4]) };
}

describe('element access', () => {
  const cases: Case[] = [
    ['get past the end', () => matrix2().A.get(2, 0), 'INDEX_OUT_OF_RANGE', 'index[0]'],
    ['get with a negative index', () => matrix2().A.get(0, -1), 'INDEX_OUT_OF_RANGE', 'index[1]'],
    ['get with a fractional index', () => matrix2().A.get(0, 0.5), 'INDEX_OUT_OF_RANGE', 'index[1]'],
    ['get with too few indices', () => matrix2().A.get(0), 'INDEX_OUT_OF_RANGE', 'index'],
    ['length of a missing dimension', () => matrix2().A.length(2), 'INDEX_OUT_OF_RANGE', 'dim'],
    ['a span past the end', () => matrix2().A.sub(span(0, 3), 0), 'INDEX_OUT_OF_RANGE', 'spans[0].end'],
    ['a negative point span', () => matrix2().A.sub(-1, 0), 'INDEX_OUT_OF_RANGE', 'spans[0]'],
    ['too few spans', () => matrix2().A.sub(0), 'INDEX_OUT_OF_RANGE', 'spans'],
    ['readScale past the end', () => matrix2().A.readScale(0, 2), 'INDEX_OUT_OF_RANGE', 'index[1]'],
  ];
  it.each(cases)('%s throws', (_d, call, code, parameter) => expectModprecError(call, code, parameter));

  it('set out of range throws INDEX_OUT_OF_RANGE and writes nothing', () => {
    const { A, unchanged } = matrix2();
    expectModprecError(() => A.set(0, 5, 9), 'INDEX_OUT_OF_RANGE', 'index[1]');
    expectModprecError(() => A.set(-1, 0, 9), 'INDEX_OUT_OF_RANGE', 'index[0]');
    unchanged();
  });

  it('set through toConst throws INVALID_STORAGE and writes nothing', () => {
    const { A, unchanged } = matrix2();
    expectModprecError(() => A.toConst().set(0, 0, 9), 'INVALID_STORAGE', 'accessor');
    unchanged();
  });

  it('writeScale on an unscaled range, or with a zero or infinite scale, throws and writes nothing', () => {
    const { A } = matrix2();
    expectModprecError(() => A.writeScale(0, 0, 2), 'INVALID_STORAGE', 'accessor');
    const S = range(scaledReducedRowMajor({ size: [2, 2], storage: 'i16', scaleMask: [true, false] }));
    expectModprecError(() => S.writeScale(0, 0, 0), 'INVALID_VALUE', 'scale');
    expectModprecError(() => S.writeScale(0, 0, Infinity), 'INVALID_VALUE', 'scale');
    expectModprecError(() => S.toConst().writeScale(0, 0, 2), 'INVALID_STORAGE', 'accessor');
    expect(Array.from(S.accessor.scale!.data)).toEqual([1, 1]);
  });

  it('fitScales refuses unscaled accessors and non-finite values, before writing any value or scale', () => {
    expectModprecError(() => fitScales(matrix2().A.accessor, () => 1), 'INVALID_STORAGE', 'accessor');
    const S = range(scaledReducedRowMajor({ size: [2, 2], storage: 'i16', scaleMask: [true, false] }));
    expectModprecError(() => fitScales(S.accessor, (i, j) => (i === 1 && j === 1 ? NaN : 5)), 'INVALID_VALUE', 'values(1, 1)');
    expect(Array.from(S.accessor.data as Int16Array)).toEqual([0, 0, 0, 0]);
    expect(Array.from(S.accessor.scale!.data)).toEqual([1, 1]);
  });
});

describe('kernels', () => {
  const v = (values: number[]) => vector(values);
  const cases: Case[] = [
    ['dot of vectors of different lengths', () => dot(v([1, 2, 3]), v([1, 2])), 'DIMENSION_MISMATCH', 'y'],
    ['dot of a matrix', () => dot(any(matrix2().A), v([1, 2])), 'DIMENSION_MISMATCH', 'x'],
    ['dot of a plain array', () => dot(any([1, 2]), v([1, 2])), 'INVALID_OPTION', 'x'],
    ['dot in fp16 arithmetic', () => dot(v([1]), v([1]), { arithmetic: 'f16' }), 'INVALID_FORMAT', 'options.arithmetic'],
    ['dot with an unknown accumulation', () => dot(v([1]), v([1]), { accumulation: 'magic' }), 'INVALID_OPTION', 'options.accumulation'],
    ['dot into a 2-element range', () => dot(v([1]), v([1]), { into: v([0, 0]) }), 'DIMENSION_MISMATCH', 'options.into'],
    ['nrm2 of a matrix', () => nrm2(any(matrix2().A)), 'DIMENSION_MISMATCH', 'x'],
    ['asum of a non-range', () => asum(any(new Float64Array(2))), 'INVALID_OPTION', 'x'],
    ['asum in bf16 arithmetic', () => asum(v([1]), { arithmetic: 'bf16' }), 'INVALID_FORMAT', 'options.arithmetic'],
    ['nrm2 with an unknown accumulation', () => nrm2(v([1]), { accumulation: 'magic' }), 'INVALID_OPTION', 'options.accumulation'],
  ];
  it.each(cases)('%s throws', (_d, call, code, parameter) => expectModprecError(call, code, parameter));

  it('axpy with a bad α, mismatched lengths or a read-only y throws and leaves y unchanged', () => {
    const y = v([1, 2]);
    expectModprecError(() => axpy(any('2'), v([1, 1]), y), 'INVALID_VALUE', 'alpha');
    expectModprecError(() => axpy(2, v([1, 1, 1]), y), 'DIMENSION_MISMATCH', 'y');
    expectModprecError(() => axpy(2, v([1, 1]), y.toConst()), 'INVALID_STORAGE', 'y');
    expectModprecError(() => axpy(2, v([1, 1]), y, { arithmetic: 'f16' }), 'INVALID_FORMAT', 'options.arithmetic');
    expect([y.get(0), y.get(1)]).toEqual([1, 2]);
  });

  it('waxpby with a bad β, a wrong-length or read-only w throws and leaves w unchanged', () => {
    const w = v([7, 7]);
    expectModprecError(() => waxpby(1, v([1, 1]), any(null), v([1, 1]), w), 'INVALID_VALUE', 'beta');
    expectModprecError(() => waxpby(1, v([1, 1]), 1, v([1]), w), 'DIMENSION_MISMATCH', 'y');
    expectModprecError(() => waxpby(1, v([1, 1, 1]), 1, v([1, 1, 1]), w), 'DIMENSION_MISMATCH', 'w');
    expectModprecError(() => waxpby(1, v([1, 1]), 1, v([1, 1]), w.toConst()), 'INVALID_STORAGE', 'w');
    expect([w.get(0), w.get(1)]).toEqual([7, 7]);
  });

  it('scal of a read-only vector or with a bad α throws and leaves x unchanged', () => {
    const x = v([3, 4]);
    expectModprecError(() => scal(2, x.toConst()), 'INVALID_STORAGE', 'x');
    expectModprecError(() => scal(any(undefined), x), 'INVALID_VALUE', 'alpha');
    expectModprecError(() => scal(2, x, { arithmetic: 'i8' }), 'INVALID_FORMAT', 'options.arithmetic');
    expect([x.get(0), x.get(1)]).toEqual([3, 4]);
  });

  // These kernels return early (α = 0, α = 1, empty vectors); the options are checked before that early return.
  it.each([
    ['axpy with α = 0', () => axpy(0, v([1]), v([1]), { arithmetic: 'f16' }), 'INVALID_FORMAT', 'options.arithmetic'],
    ['scal with α = 1', () => scal(1, v([1]), { arithmetic: 'f16' }), 'INVALID_FORMAT', 'options.arithmetic'],
    ['waxpby of empty vectors', () => waxpby(1, v([]), 1, v([]), v([]), { arithmetic: 'f16' }), 'INVALID_FORMAT', 'options.arithmetic'],
    ['asum of an empty vector', () => asum(v([]), { accumulation: 'magic' }), 'INVALID_OPTION', 'options.accumulation'],
    ['nrm2 of an empty vector', () => nrm2(v([]), { arithmetic: 'f16' }), 'INVALID_FORMAT', 'options.arithmetic'],
  ] as Case[])('%s still rejects a bad option', (_d, call, code, parameter) => expectModprecError(call, code, parameter));
});
