/**
 * Double-double arithmetic on the GPU (llvmpipe) gives the CPU's special values: for operands drawn from ±0, ±∞, NaN,
 * ±MAX, ±1e300, subnormals and ordinary numbers, every kernel's result (or output vector) with `arithmetic: 'dd'` —
 * over fp64 and over dd storage — is NaN, ±∞ or a signed zero exactly where the CPU's dd kernel gives it (which is
 * where fp64 gives it, test/dd/dd-special-values.test.ts). The GPU's register keeps binary64's range per operation
 * (src/formats/dd/dd-gpu-wgsl.ts, "Binary64's range"): an intermediate that overflows is ±∞ (then ∞ − ∞ = NaN), a
 * product below 2^-1075 is ±0 (then ∞·0 = NaN), as on the CPU; NRM2 sums its squares in the register's wide range
 * and still matches the CPU's scaled sum.
 *
 * The operands are the CPU test's (SPECIAL_VALUES, SPECIAL_COEFFICIENTS). The 112-bit register and a double-double
 * round differently only where a sum's parts lie more than 59 bits apart (1e150 + 1 − 1e150: 1 on the CPU, 0 on the
 * GPU); a zero against a non-zero finite value is no special-value difference, and for it to become one (∞·r, r/0)
 * the parts must cancel exactly after losing a term more than 112 bits below, which binary64 loses too — the fp64
 * kernel then differs from the CPU's dd the same way, which the CPU test rules out for these operands.
 *
 * TRSV: where any x is non-finite, the GPU solves again by substitution (kernels/trsv/trsv-substitution-source.ts) and
 * gives the CPU's x, signed zeros included. Where every x is finite it keeps the block-inverse result, whose zeros are
 * sums from +0 (substitution's −0 = (0 + bᵢ)/t for a negative t is +0 there) and which does not overflow where substitution's partial
 * sums do (b = [MAX, MAX], L = [[2, 0], [−1, 2]]: substitution's 1.5·MAX overflows, x₂ = MAX/4 + MAX/2 does not) —
 * so TRSV is compared on operands whose solves cannot overflow (trsvOperands), signs of zeros where the CPU's x has
 * a non-finite entry.
 *
 * Regression: the GPU stored a zero dd result as (±0, +0), which reads back as +0 (the CPU stores (z, z)):
 * scal(−1, [+0]) over dd storage read back +0.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { scal, vector, formats, dot, nrm2, trsv, matrix, toArray } from '../../src/index.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { SPECIAL_KERNELS, sameSpecials, show, specialCase, type Setting, type SpecialCase } from '../dd/special-value-cases.js';

const gpu = { backend: 'gpu', arithmetic: 'dd', strict: true } as const;
const dd = { arithmetic: formats.dd } as const;
const values = (r: Parameters<typeof toArray>[0]) => [...toArray(r)].map((v) => show(v as number));
/**
 * TRSV's operands: ±MAX and ±1e300 become ±2^64, and pivots below 2^-20 (the subnormals, 2^-1050) 2^-20 (see above):
 * then |x₁| ≤ 2^84, |x₂| ≤ 2^168, |x₃| ≤ 2^252 (n ≤ 3), and no partial sum of substitution overflows; tiny values off
 * the diagonal and in b still underflow (x = 5e-324/2, products 0.5·x).
 */
function trsvOperands(c: SpecialCase): SpecialCase {
  const big = (v: number) => (Number.isFinite(v) && Math.abs(v) > 2 ** 100 ? Math.sign(v) * 2 ** 64 : v);
  const pivot = (v: number) => (Number.isFinite(v) && v !== 0 && Math.abs(v) < 2 ** -20 ? Math.sign(v) * 2 ** -20 : big(v));
  return { ...c, x: c.x.map(big), a: c.a.map((v, k) => (k % (c.n + 1) === 0 ? pivot(v) : big(v))) };
}

describe('double-double on the GPU: the CPU’s special values', () => {
  it('regressions: a zero is stored as (z, z); ∞ and overflow as on the CPU', async () => {
    await requireRuntime();
    const x = vector([0, -0, 2], { storage: formats.dd, arithmetic: formats.dd });
    await scal(-1, x, gpu);
    expect(Array.from(x.accessor.data as Float64Array).map(show)).toEqual(['-0', '-0', '0', '0', '-2', '0']);
    const big = vector([1e300, 1e300], { arithmetic: formats.dd });
    expect(show((await dot(big, big, gpu)).value)).toBe('Infinity');
    const inf = vector([Infinity, Infinity], { arithmetic: formats.dd });
    expect(show((await dot(inf, inf, gpu)).value)).toBe('Infinity');
  });

  it('binary64’s range: an overflowing product is ±∞, a product below 2^-1075 is ±0, as on the CPU', async () => {
    await requireRuntime();
    const cases: [number[], number[]][] = [
      [[1e300, -1e300], [1e300, 1e300]], // ∞ − ∞: NaN (the register kept 0 before)
      [[Infinity, 0.5], [1, 5e-324]], // ∞ + 2^-1075·… : ∞
      [[0.5, -0.5], [5e-324, 5e-324]], // 2^-1075 rounds to ±0 (ties to even): +0
      [[0.75, 3], [5e-324, 5e-324]], // 0.75·2^-1074 rounds to 2^-1074: 4·2^-1074
      [[Number.MAX_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE], [1, 1, 1]], // MAX + MAX overflows before −MAX: ∞
      [[2 ** 512, -(2 ** 512)], [2 ** 511, 2 ** 511]], // 2^1023 − 2^1023: finite products, +0
      [[2 ** 512, 2 ** 512, -(2 ** 512)], [2 ** 511, 2 ** 511, 2 ** 511]], // 2^1024 overflows: ∞
    ];
    for (const [x, y] of cases) {
      const cpu = show(dot(vector(x, dd), vector(y, dd)));
      expect([x, y, show((await dot(vector(x, dd), vector(y, dd), gpu)).value)]).toEqual([x, y, cpu]);
    }
    // ∞·(0.5·5e-324): the product is +0 on both, so ∞·0 = NaN (the register kept 2^-1075 and gave ∞).
    const t = vector([5e-324], dd);
    await scal(0.5, t, gpu);
    expect(values(t)).toEqual(['0']);
    const u = vector([-(2 ** -1074), 3 * 2 ** -1074], dd);
    await scal(0.5, u, gpu);
    expect(values(u)).toEqual(['-0', String(2 * 2 ** -1074)]);
    // NRM2 sums squares unscaled in the register's wide range: no overflow at 1e300, no flush at 5e-324.
    for (const x of [[1e300, 1e300], [5e-324], [1e-300, 5e-324], [Number.MAX_VALUE, Number.MAX_VALUE]]) {
      expect([x, (await nrm2(vector(x, dd), gpu)).value]).toEqual([x, nrm2(vector(x, dd))]);
    }
  });

  it('TRSV with a non-finite x solves by substitution: the CPU’s x, signed zeros included', async () => {
    await requireRuntime();
    // U = [[2, 1, 1], [0, 0, 1], [0, 0, 2]], b = 1: x = [−∞, ∞, 0.5] (the inverse gave NaN); (0 + (−0))/(−2) = −0 beside
    // a NaN (substitution's sums start at 0 + bᵢ, as the CPU's: the redo gave +0 when it formed bᵢ − Σ).
    const cases: { a: number[]; b: number[]; uplo: 'U' | 'L' }[] = [
      { a: [2, 1, 1, 0, 0, 1, 0, 0, 2], b: [1, 1, 1], uplo: 'U' },
      { a: [-2, 0, 0, 0, 2, 0, 1, Infinity, 2], b: [-0, 0, 1], uplo: 'L' },
      { a: [2, 0, 0, -1, 0, 0, 5e-324, 1, 2], b: [1, 1, 0], uplo: 'L' },
    ];
    for (const storage of [formats.f64, formats.dd]) {
      for (const c of cases) {
        const run = async (o: object) => {
          const A = matrix(3, 3, (i, j) => c.a[i * 3 + j]!, { storage, arithmetic: formats.dd } as never);
          const x = vector(c.b, { storage, arithmetic: formats.dd } as never);
          await trsv({ A, x, uplo: c.uplo }, o as never);
          return values(x);
        };
        expect([storage.name, c, await run(gpu)]).toEqual([storage.name, c, await run({ backend: 'js' })]);
      }
    }
  });

  for (const storage of ['f64', 'dd'] as const) {
    it(`every kernel, dd arithmetic on ${storage} storage: the special values of the CPU's dd kernel`, async () => {
      await requireRuntime();
      const setting: Setting = { arithmetic: 'dd', storage };
      await fc.assert(fc.asyncProperty(specialCase(), async (c) => {
        for (const [name, run] of Object.entries(SPECIAL_KERNELS)) {
          const k = name === 'trsv' ? trsvOperands(c) : c;
          let cpu = await run(k, setting, { backend: 'js' });
          let got = await run(k, setting, gpu);
          // TRSV keeps the block-inverse result where every x is finite: its zeros are +0 (see above).
          if (name === 'trsv' && cpu.every((v) => Number.isFinite(Number(v)))) {
            const unsigned = (r: string[]) => r.map((v) => (v === '-0' ? '0' : v));
            [cpu, got] = [unsigned(cpu), unsigned(got)];
          }
          if (!sameSpecials(got, cpu)) expect({ kernel: name, storage, case: k, got }).toEqual({ kernel: name, storage, case: k, got: cpu });
        }
      }), { numRuns: 200, seed: 2612 });
    });
  }
});
