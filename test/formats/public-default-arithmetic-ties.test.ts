/**
 * A kernel without options.arithmetic computes in "the most precise arithmetic among the operands". It compared
 * significand bits only, and a tie went to the first operand: dot(x, y) of a dd and an rns106 operand (106 bits each)
 * computed in dd and dot(y, x) in rns106 (dotBound 9.750326018995888e-17 against 9.750326018995809e-17), and a user's
 * 53-bit arithmetic against fp64 went by order too. Now the smaller unit roundoff
 * decides (rns106's 1.7e-32 < dd's 2.0e-31), then the bits; arithmetics alike in both, of different names, are
 * INVALID_FORMAT naming options.arithmetic — on every kernel and bound, before anything is written.
 */
import { describe, expect, it } from 'vitest';
import {
  ModprecError, asArithmetic, axpy, axpyBound, dot, dotBound, formats, gemv, matrix, registerFormat, toArray, vector,
  type ArithmeticFormat,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

/** A user's arithmetic as precise as fp64 (u = 2^-53, 53 bits): here fp64's own templates under a name of its own. */
const rz = { ...(asArithmetic('f64') as ArithmeticFormat<number>), name: 'user-f64-alike' };
const user = registerFormat({ name: 'user-f64-alike', arithmetic: rz });

describe('the default arithmetic does not depend on the order of the operands', () => {
  it('dd against rns106: the smaller unit roundoff (rns106) both ways', () => {
    const xs = [0.1, 1 / 3, 2 / 7, 1e-17, -0.3];
    const x = vector(xs, { storage: formats.dd }), y = vector(xs.map((t) => 3 * t), { storage: formats.rns106 });
    expect(dotBound(x, y)).toBe(dotBound(y, x));
    expect(dotBound(x, y)).toBe(dotBound(x, y, { arithmetic: formats.rns106 }));
    expect(dot(x, y)).toBe(dot(y, x));
  });

  it("a user's arithmetic as precise as fp64: a typed error asking for options.arithmetic, nothing written", () => {
    const x = vector([0.1, 0.7, 1e16], { arithmetic: user }), y = vector([3, 1 / 3, 1]);
    expect(errorOf(() => dot(x, y))).toEqual(['INVALID_FORMAT', 'options.arithmetic']);
    expect(errorOf(() => dot(y, x))).toEqual(['INVALID_FORMAT', 'options.arithmetic']);
    expect(errorOf(() => dotBound(x, y))).toEqual(['INVALID_FORMAT', 'options.arithmetic']);
    const before = [...toArray(y)];
    expect(errorOf(() => axpy(2, x, y))).toEqual(['INVALID_FORMAT', 'options.arithmetic']);
    expect(errorOf(() => axpyBound(2, x, y))).toEqual(['INVALID_FORMAT', 'options.arithmetic']);
    expect([...toArray(y)]).toEqual(before);
    // Chosen explicitly, either runs; and a more precise operand settles it (dd over both).
    expect(dot(x, y, { arithmetic: user })).toBe(dot(y, x, { arithmetic: user }));
    expect(dot(x, y, { arithmetic: 'f64' })).toBe(dot(y, x, { arithmetic: 'f64' }));
    const z = vector(2, { storage: formats.dd });
    const A = matrix(2, 3, (i, j) => i + j, { arithmetic: user });
    expect(errorOf(() => gemv({ alpha: 1, A, x: y, beta: 0, y: z }))).toEqual(['none', undefined]);
    expect(z.accessor.arithmetic.name).toBe('dd');
  });
});
