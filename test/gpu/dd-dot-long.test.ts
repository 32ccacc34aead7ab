/**
 * The `ddDotLong` switch (src/backends/webgpu/kernel-switches.ts): DOT's first pass in dd sums its dd·dd, f64·dd,
 * dd·f64 and f64·f64 terms in GEMV's long fixed-point window (`ddGpuArithmeticDotLong`, src/formats/dd/
 * dd-gpu-gemv-long-wgsl.ts), one window a thread across its steps. Checked against the exact BigInt value — within the
 * stated bound γ_{2n+1}(2^-110)·Σ|x·y| + n·2^-1074 (one first-pass thread: `maxThreads: 1`, so every term goes
 * through one window) plus the read-back's rounding to a double, and within the CPU dd dotBound — over genuine pairs
 * over 2^±480 with lo down to 2^-140·hi, zeros, signed zeros, subnormals, unnormalised pairs and runs of maximal
 * significands that pass the window's 2^127 without its headroom settles; ill-conditioned DOTs to cond 1e30; ±∞ and NaN
 * giving the default path's non-finite result; f64 and mixed storage (f64·dd, dd·f64, f64·f64) with ±0, subnormals,
 * ±∞ and NaN. And that the switch takes the path: 1, then 2^-112 a step later, then −1 gives 2^-112 exactly in DOT's
 * default step shape (the per-step lean windows give 0), for dd and for f64 storage. And that the switch's default,
 * 'auto', takes the long window for f64·dd, dd·f64 and f64·f64 (four runs a step) and the lean windows for dd·dd and
 * beside other storage, with a call's `groups` winning. The properties run DOT's
 * two-term step with one accumulator (the same long-window functions; llvmpipe compiles the default eight-term step for
 * tens of seconds a kind).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toDevice, type DeviceArray } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { dotBound } from '../../kernels/dot/dot-bound.js';
import { gpuKernelSwitches, setGpuKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { ddGpuArithmetic, ddGpuArithmeticDotLong, ddGpuArithmeticGemvLongDd, ddGpuArithmeticWindowLean8 } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, rational, subRational, type Rational } from '../../src/testing/rational.js';
import { formats, vector } from '../../src/index.js';
import { ddRange } from './dd-ranges.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { illConditionedPairs } from './dd-window-dot-cases.js';

const initial = gpuKernelSwitches();
afterEach(() => {
  setGpuKernelSwitches(initial);
});

type Pair = { hi: number; lo: number };
type Kind = 'dd' | 'f64';

const DD_DD = { x: 'dd', y: 'dd' };
const F64_DD = { x: 'f64', y: 'dd' };
const F64_F64 = { x: 'f64', y: 'f64' };

/** Two adjacent elements a step into one accumulator, one first-pass thread: every term in one long window. */
const SHAPE = { groupWidth: 2, groups: 1, chains: 1, maxThreads: 1 } as const;

const exactPair = (p: Pair): Rational => addRational(exactOf(p.hi), exactOf(p.lo));
/** The value a kind holds of a pair (f64: its hi). */
const held = (kind: Kind, p: Pair): Pair => (kind === 'dd' ? p : { hi: p.hi, lo: 0 });

/** A device vector of kind `kind` holding `values` (f64: their hi parts). */
function upload(kind: Kind, values: readonly Pair[]): Promise<DeviceArray> {
  if (kind === 'dd') return toDevice(ddRange(values) as never);
  return toDevice(Float64Array.from(values, (p) => p.hi), { format: 'f64' });
}

/** A CPU vector of kind `kind` holding `values` as the device does (for dotBound). */
const cpuVector = (kind: Kind, values: readonly Pair[]): ReturnType<typeof vector> => (kind === 'dd' ? ddRange(values) : vector(values.map((p) => p.hi), { storage: formats.f64, arithmetic: formats.dd }));

/** DOT in dd on the GPU with the switch on (`long` true), off (the lean windows) or 'auto', in `shape`. */
async function dotOf(kinds: readonly [Kind, Kind], xs: readonly Pair[], ys: readonly Pair[], long: boolean | 'auto', shape: object = SHAPE): Promise<number> {
  setGpuKernelSwitches({ ddDotLong: long });
  const got = await gpuDot(await upload(kinds[0], xs), await upload(kinds[1], ys), { arithmetic: 'dd', strict: true, ...shape });
  expect(got.backend).toBe('gpu');
  return got.value;
}

/**
 * |got − Σ x·y| ≤ e·(1 + 2^-52) + 2^-53·|Σ x·y| with e = γ_k(2^-110)·Σ|x·y| + n·2^-1074 (the long window's bound for one
 * thread's n terms, k = 2n + 1 with one accumulator; then the read-back's rounding to a double), exactly; and within
 * the CPU dd dotBound.
 */
function expectWithinBound(got: number, kinds: readonly [Kind, Kind], xs: readonly Pair[], ys: readonly Pair[], roundings = 2 * xs.length + 1): void {
  let exact = rational(0n);
  let mag = rational(0n);
  for (let k = 0; k < xs.length; k++) {
    const t = mulRational(exactPair(held(kinds[0], xs[k]!)), exactPair(held(kinds[1], ys[k]!)));
    exact = addRational(exact, t);
    mag = addRational(mag, absRational(t));
  }
  const n = xs.length;
  const nu = roundings * 2 ** -110;
  const err = absRational(subRational(exactOf(got), exact));
  // The register's error e, then the read-back's rounding: ≤ 2^-53·|Σ x·y + e| ≤ 2^-53·(|Σ x·y| + e).
  const e = addRational(mulRational(exactOf(nu / (1 - nu)), mag), exactOf(n * 2 ** -1074));
  const limit = addRational(mulRational(e, exactOf(1 + 2 ** -52)), absRational(mulRational(exactOf(2 ** -53), exact)));
  expect(compareRational(err, limit), `got ${got}`).toBeLessThanOrEqual(0);
  // dotBound is +∞ where Σ|x·y| may overflow binary64: nothing more to check then.
  const bound = dotBound(cpuVector(kinds[0], xs), cpuVector(kinds[1], ys), { arithmetic: formats.dd });
  if (Number.isFinite(bound)) expect(compareRational(err, exactOf(bound)), `dotBound, got ${got}`).toBeLessThanOrEqual(0);
}

/** Non-finite results as the default path's (NaN's sign open); finite ones within the bound. */
async function expectAsDefault(got: number, kinds: readonly [Kind, Kind], xs: readonly Pair[], ys: readonly Pair[]): Promise<void> {
  const before = await dotOf(kinds, xs, ys, false);
  if (!Number.isFinite(before) || !Number.isFinite(got)) {
    if (Number.isNaN(before)) expect(got).toBeNaN();
    else expect(got).toBe(before);
    return;
  }
  expectWithinBound(got, kinds, xs, ys);
}

/** Genuine pairs over 2^±480, lo 54 … 140 bits below hi, zeros, signed zeros, subnormals and unnormalised pairs. */
const pairs: fc.Arbitrary<Pair> = fc.oneof(
  { weight: 6, arbitrary: doubleDoubles({ minExponent: -480, maxExponent: 480 }) },
  { weight: 2, arbitrary: fc.tuple(fc.double({ min: -4, max: 4, noNaN: true }).filter((h) => Math.abs(h) >= 0.5), fc.integer({ min: 54, max: 140 }), fc.double({ min: -1, max: 1, noNaN: true })).map(([h, g, f]) => ({ hi: h, lo: h * f * 2 ** -g })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Pair>(
      { hi: 0, lo: 0 }, { hi: -0, lo: -0 }, { hi: -0, lo: 0 }, { hi: 5e-324, lo: 0 }, { hi: -2.5e-308, lo: 0 }, { hi: 2 ** -1000, lo: 2 ** -1060 },
      { hi: 2 ** -960, lo: -(2 ** -1070) }, { hi: 1, lo: 0.25 }, { hi: -3, lo: 2 ** -51 }, { hi: 1, lo: -(2 ** -53) }, { hi: 1.5 * 2 ** 480, lo: 2 ** 420 },
    ),
  },
);

/** The largest significand of a normalised pair (hi = 2 − 2^-52, lo = 2^-53·(1 − 2^-52)). */
const MAX_PAIR: Pair = { hi: 2 - 2 ** -52, lo: 2 ** -53 * (1 - 2 ** -52) };

const specials = fc.constantFrom<Pair>({ hi: Infinity, lo: 0 }, { hi: -Infinity, lo: 0 }, { hi: NaN, lo: 0 });

describe('dd DOT with the long window (ddDotLong)', () => {
  it('the switch picks ddGpuArithmeticDotLong (GEMV\'s long window with dd terms, under DOT\'s name) with one accumulator a thread; off, the lean windows of eight', () => {
    setGpuKernelSwitches({ ddDotLong: true });
    for (const operands of [DD_DD, F64_DD, F64_F64, { x: 'f32', y: 'dd' }]) {
      expect(ddGpuArithmetic.dotVariant?.(operands)).toBe(ddGpuArithmeticDotLong);
      expect(ddGpuArithmetic.dotChains?.(operands)).toBe(1);
      // On everywhere: DOT's own two runs a step (the switch as first timed).
      expect(ddGpuArithmetic.dotGroups?.(operands)).toBeUndefined();
    }
    expect(ddGpuArithmeticDotLong.name).toBe('dd-dot-long');
    const terms = Array.from({ length: 8 }, (_, q) => ({ acc: 'acc', a: { kind: 'dd', name: `a${q}` }, b: { kind: q % 2 ? 'f64' : 'dd', name: `b${q}` } }));
    expect(ddGpuArithmeticDotLong.mulAddSteps!(terms)).toEqual(ddGpuArithmeticGemvLongDd.mulAddSteps!(terms));
    expect(ddGpuArithmeticDotLong.declareZero('acc')).toBe(ddGpuArithmeticGemvLongDd.declareZero('acc'));
    expect(ddGpuArithmeticDotLong.returnValue('acc')).toBe('mpDgSettle(acc, accW, accF)');
    setGpuKernelSwitches({ ddDotLong: false, ddDotLean: true });
    for (const operands of [DD_DD, F64_DD, F64_F64]) {
      expect(ddGpuArithmetic.dotVariant?.(operands)).toBe(ddGpuArithmeticWindowLean8);
      expect(ddGpuArithmetic.dotGroups?.(operands)).toBeUndefined();
    }
    expect(() => setGpuKernelSwitches({ ddDotLong: 'yes' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', parameter: 'ddDotLong' }));
  });

  it("'auto' (the default unless MODPREC_GPU_DD_DOT_LONG is set): the long window where an operand is stored as f64 and the other as f64 or dd — four runs a step for f64·f64 — the lean windows for dd·dd and beside any other storage", () => {
    const env = process.env.MODPREC_GPU_DD_DOT_LONG;
    expect(initial.ddDotLong).toBe(env === '1' ? true : env === '0' ? false : 'auto');
    setGpuKernelSwitches({ ddDotLong: 'auto', ddDotLean: true });
    for (const operands of [F64_DD, { x: 'dd', y: 'f64' }, F64_F64]) {
      expect(ddGpuArithmetic.dotVariant?.(operands)).toBe(ddGpuArithmeticDotLong);
      expect(ddGpuArithmetic.dotChains?.(operands)).toBe(1);
    }
    expect(ddGpuArithmetic.dotGroups?.(F64_DD)).toBeUndefined();
    expect(ddGpuArithmetic.dotGroups?.(F64_F64)).toBe(4);
    for (const operands of [DD_DD, { x: 'dd-split', y: 'f64' }, { x: 'f64', y: 'f32' }, { x: 'ff', y: 'dd' }, { x: 'f16', y: 'f64' }]) {
      expect(ddGpuArithmetic.dotVariant?.(operands)).toBe(ddGpuArithmeticWindowLean8);
      expect(ddGpuArithmetic.dotChains?.(operands)).toBe(1);
      expect(ddGpuArithmetic.dotGroups?.(operands)).toBeUndefined();
    }
  });

  it('dd storage: genuine pairs, lo down to 2^-140·hi, zeros, subnormals, unnormalised pairs, maximal significands — within γ_{2n+1}(2^-110)·Σ|x·y| of the exact value and the CPU dotBound', async () => {
    await requireRuntime();
    // One run in four: up to 600 equal-magnitude maximal products (the window passes 2^125 every ≈ 128 of them).
    const maximal = fc.tuple(fc.integer({ min: 1, max: 600 }), fc.boolean()).map(([n, mixed]) => Array.from({ length: n }, (_, k) => [mixed && k % 3 === 2 ? { hi: -MAX_PAIR.hi, lo: -MAX_PAIR.lo } : MAX_PAIR, MAX_PAIR] as [Pair, Pair]));
    const inputs = fc.oneof({ weight: 3, arbitrary: fc.array(fc.tuple(pairs, pairs), { minLength: 1, maxLength: 40 }) }, { weight: 1, arbitrary: maximal });
    await fc.assert(fc.asyncProperty(inputs, async (terms) => {
      const xs = terms.map((t) => t[0]);
      const ys = terms.map((t) => t[1]);
      expectWithinBound(await dotOf(['dd', 'dd'], xs, ys, true), ['dd', 'dd'], xs, ys);
    }), { numRuns: 25 });
  });

  it('two accumulators a thread (chains: 2; the second window settled where the chains combine): within γ_{2n+3}(2^-110)·Σ|x·y| and the CPU dotBound', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(pairs, pairs), { minLength: 1, maxLength: 40 }), async (terms) => {
      const xs = terms.map((t) => t[0]);
      const ys = terms.map((t) => t[1]);
      expectWithinBound(await dotOf(['dd', 'dd'], xs, ys, true, { ...SHAPE, chains: 2 }), ['dd', 'dd'], xs, ys, 2 * xs.length + 3);
    }), { numRuns: 10 });
  });

  it('ill-conditioned DOTs (cond up to 1e30) of genuine pairs: within the bound and the CPU dotBound', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 10, max: 100 }), fc.integer({ min: 2, max: 30 }), async (seed, big, n) => {
      // ±2^big·r terms that cancel exactly steps apart, small ones that survive.
      const { xs, ys } = illConditionedPairs(seed, big, n);
      expectWithinBound(await dotOf(['dd', 'dd'], xs, ys, true), ['dd', 'dd'], xs, ys);
    }), { numRuns: 10 });
  });

  it('±∞ and NaN among dd pairs (also 1e300, whose products leave the window\'s range): the default path\'s non-finite result; finite results within the bound', async () => {
    await requireRuntime();
    const values = fc.oneof(
      { weight: 4, arbitrary: doubleDoubles({ minExponent: -20, maxExponent: 20 }) },
      { weight: 1, arbitrary: fc.oneof(specials, fc.constantFrom<Pair>({ hi: 1e300, lo: 0 }, { hi: -1e300, lo: 1e283 }, { hi: 0, lo: 0 }, { hi: -0, lo: 0 })) },
    );
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(values, values), { minLength: 1, maxLength: 24 }), async (terms) => {
      const xs = terms.map((t) => t[0]);
      const ys = terms.map((t) => t[1]);
      await expectAsDefault(await dotOf(['dd', 'dd'], xs, ys, true), ['dd', 'dd'], xs, ys);
    }), { numRuns: 15 });
  });

  it('f64 and mixed storage (f64·dd, dd·f64, f64·f64) with ±0, subnormals, ±∞ and NaN: finite results within the bound, non-finite ones the default path\'s', async () => {
    await requireRuntime();
    const head = fc.oneof(
      { weight: 6, arbitrary: doubleDoubles({ minExponent: -480, maxExponent: 480 }).map((p) => ({ hi: p.hi, lo: 0 })) },
      { weight: 1, arbitrary: fc.constantFrom<Pair>({ hi: 0, lo: 0 }, { hi: -0, lo: 0 }, { hi: 5e-324, lo: 0 }, { hi: -2.5e-308, lo: 0 }, { hi: -(2 ** -1000), lo: 0 }, { hi: 2 ** 500, lo: 0 }) },
    );
    // At most two special operands a DOT, so most DOTs stay finite.
    const put = fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 2), specials), { maxLength: 2 });
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(head, pairs, head), { minLength: 1, maxLength: 30 }), fc.oneof(fc.constant([]), put), async (terms, specialsAt) => {
      const cols = [terms.map((t) => t[0]), terms.map((t) => t[1]), terms.map((t) => t[2])];
      for (const [at, col, v] of specialsAt) cols[col]![at % terms.length] = v;
      const [xs, ys, zs] = cols as [Pair[], Pair[], Pair[]];
      for (const [kinds, a, b] of [[['f64', 'dd'], xs, ys], [['dd', 'f64'], ys, xs], [['f64', 'f64'], xs, zs]] as const) {
        await expectAsDefault(await dotOf(kinds, a, b, true), kinds, a, b);
      }
    }), { numRuns: 10 });
  });

  // The library's shape (eight terms a step, dd's one chain; n = 24: one thread): the terms lie in three steps.
  // Two shaders a storage (tens of seconds on llvmpipe): one test each.
  for (const kind of ['dd', 'f64'] as const) {
    it(`the switch runs the long window in DOT's default step, ${kind} storage: 1, then 2^-112 a step later, then −1 gives 2^-112 exactly (the per-step lean windows: 0)`, async () => {
      await requireRuntime();
      const xs: Pair[] = Array.from({ length: 24 }, () => ({ hi: 0, lo: 0 }));
      xs[0] = { hi: 1, lo: 0 };
      xs[9] = { hi: 2 ** -112, lo: 0 };
      xs[17] = { hi: -1, lo: 0 };
      const ones = Array.from({ length: 24 }, () => ({ hi: 1, lo: 0 }));
      expect(await dotOf([kind, kind], xs, ones, true, {})).toBe(2 ** -112);
      expect(await dotOf([kind, kind], xs, ones, false, {})).toBe(0);
    });
  }

  // The 'auto' default, one thread. A (n = 32): 1 at 0, 2^-112 at 9, −1 at 17 — 2^-112 in the long window in any step
  // shape (the three in one window), 0 in the per-step lean windows (2^-112 settled into 1 is rounded away). B (n = 24,
  // the library's runs of four): 1, 2^-115, −1 at 16, 17, 18 — two runs a step (steps 0–7, 8–15, 16–23) put the three
  // in the long window: 2^-115; four (one step 0–15, then the loop's tail of fused multiply-adds into the 112-bit
  // register, where 1 + 2^-115 rounds to 1) give 0. So A tells the long window from the lean, B four runs from two.
  // f64·dd runs A in the two-term step of the properties above (the same shader: the eight-term f64·dd step compiles
  // for over a minute on llvmpipe; its two runs a step are dotGroups' undefined, checked above); dd·dd in the library's
  // shape (the lean shader of the switch test above).
  const zeros = (n: number): Pair[] => Array.from({ length: n }, () => ({ hi: 0, lo: 0 }));
  const patternA = (): Pair[] => Object.assign(zeros(32), { 0: { hi: 1, lo: 0 }, 9: { hi: 2 ** -112, lo: 0 }, 17: { hi: -1, lo: 0 } });
  const patternB = (): Pair[] => Object.assign(zeros(24), { 16: { hi: 1, lo: 0 }, 17: { hi: 2 ** -115, lo: 0 }, 18: { hi: -1, lo: 0 } });
  const ones = (n: number): Pair[] => Array.from({ length: n }, () => ({ hi: 1, lo: 0 }));

  it("'auto' takes the long window for f64·dd and dd·f64 storage (A: 2^-112) and the lean windows for dd·dd (A: 0)", async () => {
    await requireRuntime();
    expect(await dotOf(['f64', 'dd'], patternA(), ones(32), 'auto', SHAPE)).toBe(2 ** -112);
    expect(await dotOf(['dd', 'f64'], patternA(), ones(32), 'auto', SHAPE)).toBe(2 ** -112);
    expect(await dotOf(['dd', 'dd'], patternA(), ones(32), 'auto', {})).toBe(0);
  });

  it("'auto' takes the long window with four runs a step for f64·f64 storage (A: 2^-112, B: 0); a call's groups win (groups: 2, B: 2^-115)", async () => {
    await requireRuntime();
    expect(await dotOf(['f64', 'f64'], patternA(), ones(32), 'auto', {})).toBe(2 ** -112);
    expect(await dotOf(['f64', 'f64'], patternB(), ones(24), 'auto', {})).toBe(0);
    expect(await dotOf(['f64', 'f64'], patternB(), ones(24), 'auto', { groups: 2 })).toBe(2 ** -115);
  });
});
