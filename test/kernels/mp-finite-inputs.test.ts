/**
 * Arithmetics without NaN or infinity (RNS) refuse non-finite inputs before anything is written, and leave
 * unread operands alone (β = 0: y is not read, so NaN there is fine).
 */
import { describe, expect, it } from 'vitest';
import { axpy, gemv, vector, matrix, toArray, ModprecError, rns212, dot } from '../../src/index.js';

describe('non-finite inputs with RNS arithmetic', () => {
  it('AXPY throws INVALID_VALUE naming the element, and writes nothing', () => {
    const x = vector([1, 2, NaN, 4]);
    const y = vector([1, 1, 1, 1]);
    let error: unknown;
    try { axpy(2, x, y, { arithmetic: rns212 }); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ModprecError);
    expect((error as ModprecError).code).toBe('INVALID_VALUE');
    expect((error as ModprecError).parameter).toBe('x[2]');
    expect([...toArray(y)]).toEqual([1, 1, 1, 1]);
  });

  it('GEMV with β = 0 does not read y, so NaN there is no error; Inf in A is', () => {
    const A = matrix(2, 2, (i, j) => i + 2 * j + 1);
    const x = vector([1, -1]);
    const y = vector([NaN, NaN]);
    gemv({ alpha: 1, A, x, beta: 0, y, trans: 'N' }, { arithmetic: rns212 });
    expect([...toArray(y)]).toEqual([-2, -2]);
    A.set(1, 1, Infinity);
    expect(() => gemv({ alpha: 1, A, x, beta: 0, y, trans: 'N' }, { arithmetic: rns212 })).toThrow(/A\[1, 1\]/);
    expect([...toArray(y)]).toEqual([-2, -2]);
  });

  it('fp64 arithmetic still propagates NaN as IEEE does', () => {
    expect(dot(vector([NaN]), vector([1]))).toBeNaN();
  });
});
