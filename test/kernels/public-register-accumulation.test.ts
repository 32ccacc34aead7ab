/**
 * registerAccumulation checks what it registers: an object with a non-empty name, every template and `bound` a
 * function, helpers an object — else `INVALID_OPTION` naming the field — and never replaces a strategy registered
 * under the same name by a different one (the built-ins included, which the kernels recognise: the WebAssembly
 * backend, threads and bounds test for them); a copy with the same fields returns the registered strategy.
 * Regression: it stored anything — `{}` and `{ name }` registered (the kernels then failed with TypeErrors), and
 * `registerAccumulation({ ...kahan, bound: myBound })` silently replaced the built-in Kahan–Neumaier sum.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { registerAccumulation, resolveAccumulation, recursiveAccumulation, accumulationNames, dot, vector, ModprecError, type Accumulation } from '../../src/index.js';

const refusal = (f: () => unknown): string => {
  try { f(); } catch (e) { if (e instanceof ModprecError) return `${e.code} ${e.parameter}`; throw e; }
  return 'ran';
};

describe('registerAccumulation', () => {
  it('refuses what is not a strategy, naming the field', () => {
    expect(refusal(() => registerAccumulation(null as never))).toBe('INVALID_OPTION accumulation');
    expect(refusal(() => registerAccumulation('kahan' as never))).toBe('INVALID_OPTION accumulation');
    expect(refusal(() => registerAccumulation({} as never))).toBe('INVALID_OPTION accumulation.name');
    expect(refusal(() => registerAccumulation({ ...recursiveAccumulation, name: '' }))).toBe('INVALID_OPTION accumulation.name');
    for (const f of ['emitDeclare', 'emitReset', 'emitAddProduct', 'emitAdd', 'emitResult', 'bound']) {
      expect(refusal(() => registerAccumulation({ ...recursiveAccumulation, name: `missing-${f}`, [f]: undefined } as never))).toBe(`INVALID_OPTION accumulation.${f}`);
    }
    expect(refusal(() => registerAccumulation({ ...recursiveAccumulation, name: 'no-helpers', helpers: null } as never))).toBe('INVALID_OPTION accumulation.helpers');
    expect(accumulationNames().some((n) => n.startsWith('missing-') || n === '' || n === 'no-helpers')).toBe(false);
  });

  it('never replaces a registered strategy by a different one; a copy returns the registered one', () => {
    fc.assert(fc.property(fc.constantFrom(...accumulationNames().filter((n) => ['recursive', 'pairwise', 'kahan', 'dot2', 'dd'].includes(n))), (name) => {
      const builtin = resolveAccumulation(name);
      const other: Accumulation = { ...builtin, bound: () => ({ ofAbsSum: 0, ofResult: 0 }) };
      expect(refusal(() => registerAccumulation(other))).toBe('INVALID_OPTION accumulation.name');
      expect(registerAccumulation({ ...builtin })).toBe(builtin);
      expect(resolveAccumulation(name)).toBe(builtin);
    }));
    // A new name is registered and runs; the same fields again are the same strategy.
    const plain = registerAccumulation({ ...recursiveAccumulation, name: 'public-register-plain' });
    expect(registerAccumulation({ ...recursiveAccumulation, name: 'public-register-plain' })).toBe(plain);
    expect(dot(vector([1, 2]), vector([3, 4]), { accumulation: 'public-register-plain' })).toBe(11);
  });
});
