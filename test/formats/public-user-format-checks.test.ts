/**
 * A user's format objects are checked where they enter (registerFormat, asStorage, asArithmetic, the layout factories,
 * a kernel's options.arithmetic), as a user meets them through the public entry:
 * - kernels are compiled and cached by format name, so a second codec under a taken name ran the first one's kernel:
 *   a storage called 'f64' that stores 2x (reads x back) gave dot(x, [1, 2, 3]) = 28 for x = [1, 2, 3] once fp64's
 *   DOT was compiled; two unregistered storages called 'mine' (×3 and ×5 codecs) gave 23.33 for 14;
 * - a floating storage declaring unitRoundoff NaN was taken as exact by the bounds (an fp32 codec's AXPY bound was
 *   1.3e-16 instead of ≈ 6e-8·|y|); an arithmetic with unitRoundoff NaN, −1 or '1e-5', a missing template or an
 *   unknown kind was registered, and failed later with a RangeError naming an inner `u` or a TypeError.
 * - an arithmetic registered under the built-in name 'f16' (which has storage only) extended the built-in entry, and
 *   every fp16 range, the solvers' fp16 vectors included, computed in it by default from then on (dot of the same fp16
 *   data went from 0.14000488817691803 to 0.14000701904296875).
 * Now each is INVALID_FORMAT naming the parameter (or its field), before anything is registered or allocated.
 */
import { describe, expect, it } from 'vitest';
import {
  ModprecError, asArithmetic, asStorage, axpy, axpyBound, dot, dotBound, findFormat, formats, registerFormat, toArray,
  typedArrayStorage, vector, type ArithmeticFormat,
} from '../../src/index.js';
import { exactOf, roundRationalToDouble, subRational, absRational, mulRational, addRational } from '../../src/testing/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

/** A Float64Array storage that stores k·x (so reads give x back exactly): a codec of its own under `name`. */
function scaledCodec(name: string, k: number, helper: string) {
  return typedArrayStorage<Float64Array>({
    name, array: Float64Array, significandBits: 53, unitRoundoff: 2 ** -53, isInteger: false, maxValue: Number.MAX_VALUE,
    encodeHelper: { name: `${helper}Enc`, fn: (x: number) => k * x }, decodeHelper: { name: `${helper}Dec`, fn: (b: number) => b / k },
  });
}

const f64Ar = asArithmetic('f64');
const userArithmetic = (name: string, over: Partial<Record<keyof ArithmeticFormat, unknown>> = {}) =>
  ({ ...f64Ar, name, ...over }) as unknown as ArithmeticFormat<number>;

describe('a format name names one codec', () => {
  it("a storage reusing a built-in's name is refused where it enters, not run through the built-in's kernel", () => {
    const y = vector([1, 2, 3]);
    expect(dot(y, y, { backend: 'js' })).toBe(14);   // fp64's DOT is compiled and cached under 'f64'
    const twice = scaledCodec('f64', 2, 'userTwice');
    expect(errorOf(() => vector([1, 2, 3], { storage: twice }))).toEqual(['INVALID_FORMAT', 'storage']);
    expect(errorOf(() => asStorage(twice, 'x'))).toEqual(['INVALID_FORMAT', 'x']);
    expect(errorOf(() => registerFormat({ name: 'user-twice', storage: twice }))).toEqual(['INVALID_FORMAT', 'format.storage']);
    expect(findFormat('user-twice')).toBeUndefined();
    expect(errorOf(() => registerFormat({ name: 'user-f64-ar', arithmetic: userArithmetic('f64', { emitAdd: () => '' }) })))
      .toEqual(['INVALID_FORMAT', 'format.arithmetic']);
  });

  it("a built-in format is closed to users' parts: an arithmetic registered as 'f16' is refused, fp16 ranges keep fp64", () => {
    const x = vector([0.1, 0.2, 0.3], { storage: formats.f16 });
    const before = dot(x, x);
    const mine = userArithmetic('f16', { significandBits: 16, unitRoundoff: 2 ** -16 });
    expect(errorOf(() => registerFormat({ name: 'f16', arithmetic: mine }))).toEqual(['INVALID_FORMAT', 'format.name']);
    expect(findFormat('f16')?.arithmetic).toBeUndefined();
    const y = vector([0.1, 0.2, 0.3], { storage: formats.f16 });
    expect(y.accessor.arithmetic.name).toBe('f64');
    expect(dot(y, y)).toBe(before);
    expect(errorOf(() => registerFormat({ name: 'ff', storage: asStorage('f32') }))).toEqual(['INVALID_FORMAT', 'format.name']);
    expect(errorOf(() => registerFormat({ name: 'i8', arithmetic: userArithmetic('i8') }))).toEqual(['INVALID_FORMAT', 'format.name']);
    // The built-in entry itself re-registers as a no-op.
    expect(registerFormat(formats.f16)).toEqual(formats.f16);
  });

  it('two unregistered codecs under one name: the second is refused, and the first computes with its own codec', () => {
    const three = scaledCodec('user-mine', 3, 'userMine3'), five = scaledCodec('user-mine', 5, 'userMine5');
    const xs = [1.5, -2, 3.25];
    const a = vector(xs, { storage: three });
    expect([...a.accessor.data as Float64Array]).toEqual(xs.map((v) => 3 * v));
    expect(errorOf(() => vector(xs, { storage: five }))).toEqual(['INVALID_FORMAT', 'storage']);
    const ones = vector([1, 1, 1]);
    expect(dot(a, ones, { backend: 'js' })).toBe(xs.reduce((s, v) => s + v, 0));
  });

  it('a copy of a format is the same codec: a spread or frozen copy enters, and re-registration of the same is a no-op', () => {
    const codec = scaledCodec('user-copied', 4, 'userCopied');
    const f = registerFormat({ name: 'user-copied', storage: codec });
    expect(registerFormat({ name: 'user-copied', storage: codec })).toEqual(f);
    const x = vector([0.5, 2], { storage: Object.freeze({ ...codec }) });
    expect(dot(x, x, { backend: 'js' })).toBe(4.25);
    expect(errorOf(() => registerFormat({ name: 'user-copied', storage: scaledCodec('user-copied', 4, 'userCopied2') })))
      .toEqual(['INVALID_FORMAT', 'format.name']);
  });
});

describe("a format's declared numbers and methods", () => {
  it('a floating storage must declare a unit roundoff in [0, 1): NaN is for integer storage only', () => {
    const spec = { name: 'user-f32like', array: Float32Array, significandBits: 24, isInteger: false, maxValue: 3.4e38 } as const;
    for (const u of [NaN, -1, 1, Infinity, '2^-24']) {
      expect(errorOf(() => typedArrayStorage({ ...spec, unitRoundoff: u as number }))).toEqual(['INVALID_FORMAT', 'spec.unitRoundoff']);
    }
    expect(errorOf(() => typedArrayStorage({ ...spec, name: 'user-int-nan', isInteger: true, unitRoundoff: NaN }))).toEqual(['none', undefined]);
    const honest = typedArrayStorage({ ...spec, unitRoundoff: 2 ** -24 });
    // A hand-built object with NaN is refused too, naming the field.
    expect(errorOf(() => registerFormat({ name: 'user-f32like', storage: { ...honest, unitRoundoff: NaN } }))).toEqual(['INVALID_FORMAT', 'format.storage.unitRoundoff']);
    expect(findFormat('user-f32like')).toBeUndefined();
    // The honest declaration's AXPY bound covers the fp32 write: |ŷ − (αx + y)| ≤ bound, checked exactly.
    const x = vector([0.1, 1 / 3, -7.7], { storage: honest }), y = vector([1, 2, 3], { storage: honest });
    const before = [...toArray(y)], bound = axpyBound(0.1, x, y);
    axpy(0.1, x, y, { backend: 'js' });
    const xs = [...toArray(x)], ys = [...toArray(y)];
    ys.forEach((v, i) => {
      const exact = addRational(mulRational(exactOf(0.1), exactOf(xs[i]!)), exactOf(before[i]!));
      expect(roundRationalToDouble(absRational(subRational(exactOf(v), exact)))).toBeLessThanOrEqual(bound[i]!);
    });
    expect(Math.max(...bound)).toBeGreaterThan(2 ** -24);   // the write's rounding is counted, not taken as exact
  });

  it('an arithmetic must declare a unit roundoff in [0, 1), every template, and a known kind', () => {
    const cases: [Partial<Record<keyof ArithmeticFormat, unknown>>, string][] = [
      [{ unitRoundoff: NaN }, 'unitRoundoff'], [{ unitRoundoff: -1 }, 'unitRoundoff'], [{ unitRoundoff: '1e-5' }, 'unitRoundoff'],
      [{ unitRoundoff: 1 }, 'unitRoundoff'], [{ significandBits: 'x' }, 'significandBits'], [{ kind: 'quad' }, 'kind'],
      [{ emitAdd: undefined }, 'emitAdd'], [{ emitSqrt: 3 }, 'emitSqrt'], [{ fromKind: undefined }, 'fromKind'], [{ helpers: null }, 'helpers'],
    ];
    cases.forEach(([over, field], k) => {
      const ar = userArithmetic(`user-bad-ar-${k}`, over);
      expect(errorOf(() => registerFormat({ name: ar.name, arithmetic: ar })), field).toEqual(['INVALID_FORMAT', `format.arithmetic.${field}`]);
      expect(findFormat(ar.name)).toBeUndefined();
      expect(errorOf(() => dotBound(vector([1, 2]), vector([3, 4]), { arithmetic: ar })), field).toEqual(['INVALID_FORMAT', `options.arithmetic.${field}`]);
      expect(errorOf(() => dot(vector([1, 2]), vector([3, 4]), { arithmetic: ar })), field).toEqual(['INVALID_FORMAT', `options.arithmetic.${field}`]);
      expect(errorOf(() => vector([1], { arithmetic: ar })), field).toEqual(['INVALID_FORMAT', `arithmetic.${field}`]);
    });
  });

  it("a decode table must be fn's values at every code of an unsigned storage", () => {
    // Kernels read table[code], ranges fn(code): a 16-entry table of a Uint8Array storage gave get [1, 2, 10] and dot NaN.
    const fn = (b: number) => b / 4;
    const spec = (name: string, array: typeof Uint8Array | typeof Int8Array | typeof Uint16Array, table: Float64Array) => ({
      name, array, significandBits: 8, unitRoundoff: 2 ** -9, isInteger: false, maxValue: 63.75,
      encodeHelper: { name: `${name.replace(/-/g, '')}Enc`, fn: (x: number) => Math.max(0, Math.min(255, Math.round(4 * x))) },
      decodeHelper: { name: `${name.replace(/-/g, '')}Dec`, fn, table },
    });
    const full = Float64Array.from({ length: 256 }, (_, k) => fn(k));
    const bad: [string, Float64Array, typeof Uint8Array | typeof Int8Array][] = [
      ['short', full.subarray(0, 16), Uint8Array], ['halved', full.map((v) => v * 2), Uint8Array], ['signed', full, Int8Array],
      ['one-wrong', full.map((v, k) => (k === 201 ? 0 : v)), Uint8Array],
    ];
    for (const [what, table, array] of bad) {
      expect(errorOf(() => typedArrayStorage(spec(`user-tab-${what}`, array, table) as never)), what).toEqual(['INVALID_FORMAT', 'spec.decodeHelper.table']);
    }
    const good = registerFormat({ name: 'user-tab-good', storage: typedArrayStorage(spec('user-tab-good', Uint8Array, full) as never) });
    const x = vector([1, 2, 10], { storage: good });
    expect(dot(x, x, { backend: 'js' })).toBe(105);
  });

  it('a storage must have every method and a positive maxValue', () => {
    const good = scaledCodec('user-hand', 1, 'userHand');
    for (const [over, field] of [[{ decode: undefined }, 'decode'], [{ maxValue: -1 }, 'maxValue'], [{ isInteger: 'no' }, 'isInteger'], [{ significandBits: 0 }, 'significandBits']] as const) {
      // A storage without `decode` is not a storage at all to asStorage: it names the parameter itself.
      const expected = field === 'decode' ? 'format.storage' : `format.storage.${field}`;
      expect(errorOf(() => registerFormat({ name: `user-hand-${field}`, storage: { ...good, name: `user-hand-${field}`, ...over } as never }))).toEqual(['INVALID_FORMAT', expected]);
    }
  });
});
