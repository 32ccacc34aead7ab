/**
 * A user format's helpers are bound by name around the generated kernels. Through the public API:
 * - a helper called like a variable of the kernel (`n`, `i`, `alpha`, `x_d`, `y_p`) was hidden by it, and the first
 *   call threw a TypeError ("n is not a function");
 * - `eval`, `arguments` or a reserved word passed the identifier check and the kernel's compilation threw a SyntaxError;
 *   a helper called `Math` replaced Math inside the kernel;
 * - two formats of one call defining a helper name differently threw a plain Error.
 * Now each is a ModprecError INVALID_FORMAT naming the helper, before anything is written.
 */
import { describe, expect, it } from 'vitest';
import {
  ModprecError, axpy, dot, gemv, matrix, numberRegister, registerFormat, toArray, typedArrayStorage, vector, asStorage,
} from '../../src/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

/** Float64Array storage of 2x under `name`, its encoder a helper called `helper`. */
function doubling(name: string, helper: string, fn = (x: number) => 2 * x) {
  return registerFormat({
    name,
    storage: typedArrayStorage<Float64Array>({
      name, array: Float64Array, significandBits: 53, unitRoundoff: 2 ** -53, isInteger: false, maxValue: Number.MAX_VALUE,
      encodeHelper: { name: helper, fn }, decodeHelper: { name: `${helper}Decode`, fn: (b: number) => b / 2 },
    }),
  });
}

describe("helper names in a user's format", () => {
  it.each(['n', 'i', 'alpha', 'x_d', 'y_p'])('a helper called %s, a variable of the kernels: refused where a kernel declares it, nothing written', (h) => {
    const f = doubling(`user-helper-${h}`, h);
    const x = vector([1, 2, 3], { storage: f });
    // Each kernel either runs correctly or refuses, naming the helper, before it writes; one of them declares the name.
    const calls: [() => unknown, () => unknown, unknown][] = [];
    const y = vector([1, 1, 1], { storage: f });
    calls.push([() => axpy(2, x, y, { backend: 'js' }), () => [...toArray(y)], [3, 5, 7]]);
    const A = matrix(2, 3, (i, j) => i + j, { storage: f }), z = vector(2, { storage: f });
    calls.push([() => gemv({ alpha: 1, A, x, beta: 0, y: z }, { backend: 'js' }), () => [...toArray(z)], [8, 14]]);
    let d = 0;
    calls.push([() => { d = dot(x, x, { backend: 'js' }); }, () => d, 14]);
    let refused = 0;
    for (const [call, result, expected] of calls) {
      const before = result();
      const e = errorOf(call);
      if (e[0] === 'none') expect(result()).toEqual(expected);
      else { expect(e).toEqual(['INVALID_FORMAT', `helpers.${h}`]); expect(result()).toEqual(before); refused++; }
    }
    expect(refused).toBeGreaterThan(0);
  });

  it('a prefixed helper name runs', () => {
    const f = doubling('user-helper-ok', 'userHelperOkEncode');
    const x = vector([1, 2, 3], { storage: f });
    expect(dot(x, x, { backend: 'js' })).toBe(14);
    expect([...(x.accessor.data as Float64Array)]).toEqual([2, 4, 6]);
  });

  it.each(['eval', 'arguments', 'for', 'class', 'Math', 'undefined', 'Float64Array'])('%s is not a helper name', (h) => {
    expect(errorOf(() => doubling(`user-helper-bad-${h}`, h))).toEqual(['INVALID_FORMAT', 'spec.encodeHelper.name']);
    const good = asStorage(doubling(`user-helper-base-${h}`, `userBase${h}`));
    expect(errorOf(() => registerFormat({ name: `user-helper-hand-${h}`, storage: { ...good, name: `user-helper-hand-${h}`, helpers: { [h]: Math.abs } } })))
      .toEqual(['INVALID_FORMAT', 'format.storage.helpers']);
    expect(errorOf(() => numberRegister(h))).toEqual(['INVALID_OPTION', 'name']);
  });

  it('two formats of one call defining a helper differently: a typed error naming it, nothing written', () => {
    const a = doubling('user-helper-twin-a', 'userTwinEncode', (x) => 2 * x);
    const b = doubling('user-helper-twin-b', 'userTwinEncode', (x) => x + x);
    const x = vector([1, 2], { storage: a }), y = vector([3, 4], { storage: b });
    expect(errorOf(() => axpy(1, x, y, { backend: 'js' }))).toEqual(['INVALID_FORMAT', 'helpers.userTwinEncode']);
    expect([...toArray(y)]).toEqual([3, 4]);
    expect(dot(x, x, { backend: 'js' })).toBe(5);   // each alone runs
  });
});
