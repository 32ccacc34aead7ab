/**
 * dotBound({ original: true }) bounds |dot(x, y) − Σ vxᵢ·vyᵢ| for the ORIGINAL values v that were written into x
 * and y (kernels/dot/dot-bound.ts): every storage's write counted — its relative rounding, the absolute error of a
 * write that underflows (1e-9 into fp16 keeps 0), half a quantum of a scaled integer, an integer that may have
 * saturated (+∞) — checked exactly (BigInt rationals) over every built-in storage, scales, and each arithmetic.
 * Regression: only the storages' unit roundoffs were counted, so values that underflowed on the write (fp16, bf16,
 * fp32) or were quantised to a scaled integer gave a bound far below the error (i8 with scale 0.5: 0.2 against 4e-16).
 * Regression: a scaled float write was modelled in the kernel's arithmetic, but it happened in the range's own (an
 * fp32 range under a scale of 3 keeps 0.10000000521540642 for 0.1; the bound in fp64 was 6.7e-17), without the
 * scale's own conversion (fl(s)) or its subnormal-range error (a scale of 1e-40 in fp32).
 * Regression: `original` was not checked (`{ original: 'no' }` counted as true); it must be a boolean, checked after
 * every check dot makes of the same call.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { dot, dotBound, ModprecError, range, rowMajor, scaledReducedRowMajor, vector } from '../../src/index.js';
import { exactDot } from '../../src/testing/exact.js';
import { within } from '../wasm/public-operands.js';

const STORAGES = ['f64', 'f32', 'f16', 'bf16', 'i8', 'i16', 'i32', 'dd', 'dd-split'] as const;
type Spec = { storage: (typeof STORAGES)[number]; scale: 'none' | 'one' | 'each'; s: number };
const spec: fc.Arbitrary<Spec> = fc.record({
  storage: fc.constantFrom(...STORAGES), scale: fc.constantFrom<'none' | 'one' | 'each'>('none', 'one', 'each'),
  s: fc.constantFrom(1, 0.5, 1 / 3, 2 ** -12, 1000 / 127, 3e-5),
}).map((t) => (t.storage.startsWith('i') && t.scale === 'none' ? { ...t, scale: 'one' as const } : t));
const value = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: -100, max: 100, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: -1e-6, max: 1e-6, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e-9, -3e-8, 2e-45, 1e-300, 5e-324) },
);

/** x holding `values` written through `set` (the originals), in `arithmetic`. */
function written(t: Spec, values: readonly number[], arithmetic: string) {
  const n = values.length;
  const common = { size: [n] as [number], storage: t.storage, arithmetic };
  const r = range(t.scale === 'none' ? rowMajor<1>(common)
    : scaledReducedRowMajor<1>({ ...common, scaleMask: [t.scale === 'each'], scale: Float64Array.from({ length: t.scale === 'each' ? Math.max(1, n) : 1 }, (_, k) => t.s * (1 + (k % 3))) }));
  values.forEach((v, i) => r.set(i, v));
  return r;
}

describe('dotBound with original: true', () => {
  it('bounds the error against the exact dot product of the values written, on every CPU backend', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 24 }).chain((n) => fc.tuple(fc.array(value, { minLength: n, maxLength: n }), fc.array(value, { minLength: n, maxLength: n }))),
      spec, spec, fc.constantFrom('f64', 'f32', 'dd'), fc.constantFrom('js', 'wasm'), ([vx, vy], sx, sy, arithmetic, backend) => {
        const x = written(sx, vx, arithmetic), y = written(sy, vy, arithmetic);
        const bound = dotBound(x, y, { original: true, arithmetic });
        expect(bound >= 0).toBe(true);
        const r = dot(x, y, { arithmetic, backend });
        const what = `${sx.storage}/${sx.scale}×${sx.s} · ${sy.storage}/${sy.scale}×${sy.s} ${arithmetic} ${backend}: ${r}, bound ${bound}`;
        expect(within(r, exactDot(vx, vy), bound), what).toBe(true);
      }), { numRuns: 400 });
  });

  it('fp64 under a scale of 1/3 in dd arithmetic: the rounding of v / s to the storage is counted (it was lost as 1 + 2^-53 → 1)', () => {
    const vx = [1.2856404972446352e-42], vy = [-3.5532432923873413e-189];
    const x = written({ storage: 'f64', scale: 'each', s: 1 / 3 }, vx, 'dd'), y = written({ storage: 'dd-split', scale: 'none', s: 1 }, vy, 'dd');
    const bound = dotBound(x, y, { original: true, arithmetic: 'dd' });
    expect(bound).toBeGreaterThan(dotBound(x, y, { arithmetic: 'dd' }) * 1.5);
    for (const backend of ['js', 'wasm'] as const) expect(within(dot(x, y, { arithmetic: 'dd', backend }), exactDot(vx, vy), bound)).toBe(true);
  });

  it('the write is the range’s: an fp32 range over fp64 storage under a scale of 3 keeps 0.10000000521540642 for 0.1', () => {
    const x = written({ storage: 'f64', scale: 'one', s: 3 }, [0.1], 'f32'), one = written({ storage: 'f64', scale: 'none', s: 1 }, [1], 'f64');
    for (const backend of ['js', 'wasm'] as const) {
      const r = dot(x, one, { arithmetic: 'f64', backend });
      expect(r).toBe(0.10000000521540642);
      expect(within(r, exactDot([0.1], [1]), dotBound(x, one, { original: true, arithmetic: 'f64', backend }))).toBe(true);
    }
    // A scale of 1e-40 converts to fp32 with a relative error near 10^-5, which the kept value carries.
    const y = written({ storage: 'f64', scale: 'one', s: 1e-40 }, [0.75], 'f32');
    expect(within(dot(y, one), exactDot([0.75], [1]), dotBound(y, one, { original: true }))).toBe(true);
  });

  it('ranges written in one arithmetic, DOT in another: within the bound', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }).chain((n) => fc.tuple(fc.array(value, { minLength: n, maxLength: n }), fc.array(value, { minLength: n, maxLength: n }))),
      spec, spec, fc.constantFrom('f64', 'f32', 'dd', 'ff'), fc.constantFrom('f64', 'f32', 'dd', 'ff'), fc.constantFrom('f64', 'f32', 'dd'), ([vx, vy], sx, sy, ax, ay, arithmetic) => {
        const x = written(sx, vx, ax), y = written(sy, vy, ay);
        const r = dot(x, y, { arithmetic });
        expect(within(r, exactDot(vx, vy), dotBound(x, y, { original: true, arithmetic })), `${sx.storage}/${sx.scale}×${sx.s} in ${ax} · ${sy.storage}/${sy.scale}×${sy.s} in ${ay}, ${arithmetic}: ${r}`).toBe(true);
      }), { numRuns: 300 });
  });

  it('fp16 keeps 0 for 1e-9, i8 under scale 0.5 keeps 0.5 for 0.7: both within the bound', () => {
    const small = written({ storage: 'f16', scale: 'none', s: 1 }, [1e-9, 1e-9, 1e-9], 'f64'), ones = written({ storage: 'f64', scale: 'none', s: 1 }, [1, 1, 1], 'f64');
    expect(dot(small, ones)).toBe(0);
    expect(dotBound(small, ones, { original: true })).toBeGreaterThanOrEqual(3e-9);
    const q = written({ storage: 'i8', scale: 'one', s: 0.5 }, [0.2, 0.3, 0.7], 'f64');
    expect(Math.abs(dot(q, ones) - 1.2)).toBeLessThanOrEqual(dotBound(q, ones, { original: true }));
  });

  it('original must be a boolean: anything else is INVALID_OPTION naming it, after the errors dot raises', () => {
    const code = (f: () => unknown): string => { try { f(); return 'ok'; } catch (e) { if (e instanceof ModprecError) return `${e.code} ${e.parameter}`; throw e; } };
    const x = vector([0.1, 0.2]);
    for (const original of ['no', 1, 0, null, {}]) {
      expect(code(() => dotBound(x, x, { original } as never))).toBe('INVALID_OPTION options.original');
      expect(code(() => dotBound(vector([]), vector([]), { original } as never))).toBe('INVALID_OPTION options.original');
      // dot's own refusal of the same call first (dot ignores original).
      expect(code(() => dotBound(x, x, { original, accumulation: 'nope' } as never))).toBe(code(() => dot(x, x, { accumulation: 'nope' } as never)));
    }
    expect(dotBound(x, x, { original: false })).toBe(dotBound(x, x));
    expect(dotBound(x, x, { original: true })).toBeGreaterThan(dotBound(x, x));
  });
});
