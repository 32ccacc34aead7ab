/**
 * The plug-in entry points name bad arguments: registerFormat(undefined), registerAccumulation(null),
 * declareStorageRegister(storage, undefined) and typedArrayStorage(undefined) threw TypeErrors reading `name`, `kind`
 * or `array`, and a format or accumulation without a name was registered under `undefined`; createThreadPool(2^60)
 * threw a RangeError sizing its control buffer. Now a ModprecError naming the parameter, before anything is
 * registered or started; valid plug-ins still register and run.
 */
import { describe, expect, it } from 'vitest';
import {
  ModprecError, accumulationNames, asArithmetic, asStorage, declareStorageRegister, dot, findFormat, numberRegister,
  recursiveAccumulation, registerAccumulation, registerFormat, typedArrayStorage, vector,
} from '../../src/index.js';
import { createThreadPool } from '../../src/threads/index.js';

function errorOf(f: () => unknown): [string, string | undefined] {
  try { f(); } catch (e) { if (e instanceof ModprecError) return [e.code, e.parameter]; throw e; }
  return ['none', undefined];
}

describe('plug-in entry points: bad arguments', () => {
  it('registerFormat and registerAccumulation name a missing object or name, and register nothing', () => {
    const before = accumulationNames().length;
    for (const bad of [undefined, null, 3, 'f32']) {
      expect(errorOf(() => registerFormat(bad as never))).toEqual(['INVALID_FORMAT', 'format']);
      expect(errorOf(() => registerAccumulation(bad as never))).toEqual(['INVALID_OPTION', 'accumulation']);
    }
    for (const name of [undefined, '', 7, Symbol('n')]) {
      expect(errorOf(() => registerFormat({ name, storage: asStorage('f32') } as never))).toEqual(['INVALID_FORMAT', 'format.name']);
      expect(errorOf(() => registerAccumulation({ ...recursiveAccumulation, name } as never))).toEqual(['INVALID_OPTION', 'accumulation.name']);
    }
    expect(findFormat(undefined as never)).toBeUndefined();
    expect(accumulationNames().length).toBe(before);
    registerFormat({ name: 's25-f32', storage: asStorage('f32'), arithmetic: asArithmetic('f64') });
    registerAccumulation({ ...recursiveAccumulation, name: 's25-plain' });
    expect(dot(vector([0.1, 2], { storage: 's25-f32' }), vector([3, 4]), { accumulation: 's25-plain' })).toBe(Math.fround(0.1) * 3 + 8);
  });

  it('declareStorageRegister and typedArrayStorage name what they refuse', () => {
    const f16 = asStorage('f16');
    for (const bad of [undefined, null, {}, { kind: 'number', names: [1] }]) {
      expect(errorOf(() => declareStorageRegister(f16, bad as never))).toEqual(['INVALID_OPTION', 'r']);
    }
    expect(errorOf(() => declareStorageRegister(undefined as never, numberRegister('t')))).toEqual(['INVALID_FORMAT', 'storage']);
    expect(declareStorageRegister(f16, numberRegister('t'))).toBe('let t = 0;');
    expect(errorOf(() => typedArrayStorage(undefined as never))).toEqual(['INVALID_FORMAT', 'spec']);
    expect(errorOf(() => typedArrayStorage({ name: 'u8' } as never))).toEqual(['INVALID_FORMAT', 'spec.array']);
    expect(errorOf(() => typedArrayStorage({ array: Uint8Array } as never))).toEqual(['INVALID_FORMAT', 'spec.name']);
  });

  it('createThreadPool refuses a thread count beyond 1024 before starting anything', async () => {
    for (const n of [2 ** 60, 1025, 0, 1.5, NaN]) {
      await expect(createThreadPool(n)).rejects.toMatchObject({ code: 'INVALID_SIZE', parameter: 'threads' });
    }
  });
});
