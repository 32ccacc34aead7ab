/**
 * Double-double arithmetic gives fp64's special values on the CPU backends ('js', and 'wasm' where it runs the call):
 * for operands drawn from ±0, ±∞, NaN, ±MAX, subnormals and ordinary numbers, every kernel's result (or output
 * vector) in dd arithmetic — over fp64 and over dd storage — is NaN, ±∞ or a signed zero exactly where the same
 * kernel in fp64 arithmetic gives that value (docs/double-double.md, "Special values").
 *
 * Regressions: the dd renormalisation computed ∞ − ∞ = NaN once a high part was ∞, so asum([−∞, 1]),
 * dot([∞, ∞], [∞, ∞]) and the overflowing dot([1e300, 1e300], [1e300, 1e300]) gave NaN (fp64: −∞, +∞, +∞); and
 * adding zero error terms turned −0 into +0: scal(1, [−0]) and scal(−1, [+0]) gave +0 (fp64: −0).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { asum, dot, scal, vector, formats, toArray, ModprecError } from '../../src/index.js';
import { SPECIAL_KERNELS, sameSpecials, show, specialCase, type Setting } from './special-value-cases.js';

const dd = { arithmetic: formats.dd } as const;
const bits = (r: Parameters<typeof toArray>[0]) => [...toArray(r)].map((v) => show(v as number));

describe('double-double special values are fp64’s', () => {
  it('regressions: ∞ stays ∞, an overflow is ±∞, −0 stays −0', () => {
    expect(show(asum(vector([-Infinity, 1], dd)))).toBe('Infinity');
    expect(show(dot(vector([Infinity, Infinity], dd), vector([Infinity, Infinity], dd)))).toBe('Infinity');
    expect(show(dot(vector([1e300, 1e300], dd), vector([1e300, 1e300], dd)))).toBe('Infinity');
    expect(show(dot(vector([-1e300, -1e300], dd), vector([1e300, 1e300], dd)))).toBe('-Infinity');
    expect(show(dot(vector([1e300, -1e300], dd), vector([1e300, 1e300], dd)))).toBe('NaN');
    for (const storage of [formats.f64, formats.dd]) {
      const a = vector([-0, 3], { storage, arithmetic: formats.dd } as never);
      scal(1, a);
      const b = vector([0, -0], { storage, arithmetic: formats.dd } as never);
      scal(-1, b);
      expect([storage.name, bits(a), bits(b)]).toEqual([storage.name, ['-0', '3'], ['-0', '0']]);
    }
    // The WebAssembly DOT hands a non-finite sum to the JavaScript kernel: the same ∞.
    expect(show(dot(vector([1e300, 1e300], dd), vector([1e300, 1e300], dd), { backend: 'wasm' }))).toBe('Infinity');
  });

  it('a dd storage pair with a non-finite high part holds that value, with low part 0', () => {
    const x = vector([Infinity, -1e308, -0], { storage: formats.dd, arithmetic: formats.dd });
    scal(2, x);
    expect(Array.from(x.accessor.data as Float64Array).map(show)).toEqual(['Infinity', '0', '-Infinity', '0', '-0', '-0']);
  });

  for (const storage of ['f64', 'dd'] as const) {
    it(`every kernel, dd arithmetic on ${storage} storage, 'js' and 'wasm': the special values of the fp64 kernel`, async () => {
      await fc.assert(fc.asyncProperty(specialCase(), async (c) => {
        for (const [name, run] of Object.entries(SPECIAL_KERNELS)) {
          const reference = await run(c, { arithmetic: 'f64', storage: 'f64' }, { backend: 'js' });
          const setting: Setting = { arithmetic: 'dd', storage };
          for (const backend of ['js', 'wasm'] as const) {
            let got: string[];
            try {
              got = await run(c, setting, { backend });
            } catch (e) {
              // WebAssembly refuses some calls with a typed error (it runs only what it has a kernel for).
              if (backend === 'wasm' && e instanceof ModprecError) continue;
              throw e;
            }
            if (!sameSpecials(got, reference)) expect({ kernel: name, backend, storage, case: c, got }).toEqual({ kernel: name, backend, storage, case: c, got: reference });
          }
        }
      }), { numRuns: 200, seed: 2611 });
    });
  }
});
