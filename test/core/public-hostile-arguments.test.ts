/**
 * Hostile arguments at every public entry point: whatever a call throws is a ModprecError with a code and the
 * parameter's name, never a native TypeError/RangeError, and a call that throws has written nothing.
 *
 * Two sweeps. The first enumerates every runtime export of the package's entry points (package.json "exports":
 * `modprec`, `modprec/threads`, `modprec/testing`, `modprec/gpu`) and calls each function and constructor with each
 * hostile value in every position (the GPU entry's functions that start or release the device are left out: they
 * take no operands). The second starts from a
 * valid call of each function (checked to succeed) and replaces one argument, one property of an object argument
 * or one element of an array argument at a time; a frozen or getter-only copy of each object argument must give
 * the same outcome as the plain object. Calls run on the CPU backends only (`backend: 'gpu'` is never asked for).
 *
 * Regressions: `new ModprecError('INVALID_SIZE', Symbol())` threw a TypeError converting the Symbol to a string,
 * `new ThreadPool(undefined)` a TypeError reading `workers.length`, `new DeviceArray()` one reading `format.words`,
 * `deviceMatrix(a, Symbol())` one computing the default ld, `deviceMatrixView(a)` and `deviceEllView()` ones reading
 * their shapes; the second sweep's findings are listed in the commit that added it.
 */
import { describe, expect, it } from 'vitest';
import * as main from '../../src/index.js';
import * as threads from '../../src/threads/index.js';
import * as testing from '../../src/testing/index.js';
import * as gpu from '../../src/backends/webgpu/index.js';
import { hostileValues, outcomeOf, sweepTemplate, type Outcome } from './support/hostile-sweep.js';
import { TEMPLATES } from './support/hostile-templates.js';

const ENTRIES = { modprec: main, 'modprec/threads': threads, 'modprec/testing': testing, 'modprec/gpu': gpu } as const;

/** The GPU entry's device lifecycle: no operands to check, and calling them starts or drops the device. */
const DEVICE_LIFECYCLE = new Set(['gpuDevice', 'requireGpu', 'gpuRuntime', 'gpuUnavailableReason', 'releaseGpu', 'releaseGpuWhenIdle']);

/** A class (called with `new`) rather than a function. */
const isClass = (f: Function): boolean => /^class\b/.test(Function.prototype.toString.call(f));

/** A failure worth reporting: anything thrown that is not a ModprecError naming a parameter. */
function untyped(o: Outcome): boolean {
  return o.kind === 'threw' && !o.typed;
}

describe('every runtime export, each hostile value in each position', () => {
  for (const [entry, module] of Object.entries(ENTRIES)) {
    it(`${entry}: throws only ModprecErrors naming a parameter`, async () => {
      const failures: string[] = [];
      let calls = 0;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'function' || (module === gpu && DEVICE_LIFECYCLE.has(name))) continue;
        const construct = isClass(value);
        const positions = Math.max(1, value.length);
        for (const [label, make] of hostileValues()) {
          for (let at = 0; at < positions; at++) {
            const args: unknown[] = Array.from({ length: at + 1 }, () => undefined);
            args[at] = make();
            const o = await outcomeOf(() => (construct ? new (value as new (...a: unknown[]) => unknown)(...args) : (value as (...a: unknown[]) => unknown)(...args)));
            calls++;
            if (untyped(o)) failures.push(`${name}: argument ${at} = ${label}: ${o.description}`);
          }
        }
      }
      expect(calls).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    });
  }

  it('ModprecError refuses a message, code or parameter that is not a string with a ModprecError naming it', () => {
    for (const [args, parameter] of [
      [['INVALID_SIZE', Symbol('m')], 'message'],
      [[Symbol('c'), 'text'], 'code'],
      [['INVALID_SIZE', 'text', 5], 'parameter'],
    ] as const) {
      let thrown: unknown;
      try { new main.ModprecError(...(args as unknown as [main.ModprecErrorCode, string, string])); } catch (e) { thrown = e; }
      expect(thrown).toBeInstanceOf(main.ModprecError);
      expect({ code: (thrown as main.ModprecError).code, parameter: (thrown as main.ModprecError).parameter }).toEqual({ code: 'INVALID_OPTION', parameter });
    }
    const ok = new main.ModprecError('INVALID_SIZE', 'invalid argument: n must be …', 'n');
    expect([ok.code, ok.message, ok.parameter, ok.name]).toEqual(['INVALID_SIZE', 'invalid argument: n must be …', 'n', 'ModprecError']);
    expect(new main.ModprecError('PARSE_ERROR', 'x').parameter).toBeUndefined();
  });
});

describe('a WasmArena made outside wasmArena', () => {
  it('is INVALID_OPTION naming WasmArena: new WasmArena(0, n) claimed memory nothing had reserved', () => {
    for (const args of [[0, 1 << 20], [], [Symbol('token'), 0, 64]]) {
      let thrown: unknown;
      try { new (main.WasmArena as unknown as new (...a: unknown[]) => unknown)(...args); } catch (e) { thrown = e; }
      expect(thrown).toBeInstanceOf(main.ModprecError);
      expect([(thrown as main.ModprecError).code, (thrown as main.ModprecError).parameter]).toEqual(['INVALID_OPTION', 'WasmArena']);
    }
    const arena = main.wasmArena(256);
    expect(arena).toBeInstanceOf(main.WasmArena);
    expect(main.toArray(main.vector([1, 2], { memory: arena }))).toEqual(Float64Array.of(1, 2));
    arena.release();
  });
});

describe('a DD made outside the DD module', () => {
  it('is INVALID_OPTION naming DD: the constructor is private in TypeScript only, and new DD(Symbol(), \'x\') built a value', () => {
    for (const args of [[Symbol('hi'), 'x'], [1, 0], [], [1, 0, Symbol('DD')]]) {
      let thrown: unknown;
      try { new (main.DD as unknown as new (...a: unknown[]) => unknown)(...args); } catch (e) { thrown = e; }
      expect(thrown).toBeInstanceOf(main.ModprecError);
      expect([(thrown as main.ModprecError).code, (thrown as main.ModprecError).parameter]).toEqual(['INVALID_OPTION', 'DD']);
    }
    expect(main.DD.from(1).div(3).mul(3).sub(main.DD.ONE).toNumber()).toBeCloseTo(0, 30);
  });
});

describe.each(TEMPLATES.map((t) => [t.name, t] as const))('%s from a valid call', (_name, template) => {
  it('with one argument, property or element replaced: only ModprecErrors naming a parameter, nothing written', async () => {
    const report = await sweepTemplate(template);
    expect(report.validOutcome, 'the valid call itself').toMatchObject({ kind: 'returned' });
    expect(report.variants).toBeGreaterThan(0);
    expect(report.failures).toEqual([]);
  });
});
