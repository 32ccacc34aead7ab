/**
 * The properties of DOT's windowed dd multiply-adds on the GPU, shared by the two term forms (the wide
 * ddGpuArithmeticWindowOf(K): dd-window-dot.test.ts; the lean ddGpuArithmeticWindowLeanOf(K):
 * dd-window-lean-dot.test.ts), against the exact BigInt oracle on llvmpipe: genuine double-doubles over a wide
 * exponent range (lo anywhere from ±ulp/2 down to 2^-140 of hi, every alignment of lo against hi's last bit, zeros),
 * unnormalised pairs and subnormal products (the slow path), ill-conditioned DOTs to cond 1e30, f64 and mixed operands
 * (f64·dd, dd·f64, f64·f64, with ±0, subnormals, ±∞ and NaN), runs of maximal significands (every window's sum at its
 * 2^127 limit) — every finite result within the first-pass bound γ_{2n}(2^-110)·Σ|x_i·y_i| (plus 2^-1074 per term
 * where products reach binary64's underflow range), itself inside the CPU dd dotBound; with ±∞ and NaN, the same
 * non-finite result as the unfused multiply-adds (dd storage) or IEEE 754's (f64 storage); f32 operands, which the
 * window does not take, the unfused multiply-adds' value bit for bit. Windows of 2
 * terms run in DOT steps of two terms; windows of 4 and 8 terms need DOT steps of 4 and 8 terms into one accumulator,
 * which llvmpipe compiles for minutes: opt-in (`MODPREC_SLOW_TESTS=1`), as GEMV N's eight-column step is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ddRange } from './dd-ranges.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { gpuDot } from '../../kernels/dot/dot-webgpu.js';
import { deviceMatrix, gpuGemv } from '../../kernels/gemv/gemv-webgpu.js';
import { doubleDoubles } from '../../src/testing/double-double-laws.js';
import { exactOf } from '../../src/testing/exact.js';
import { absRational, addRational, compareRational, mulRational, rational, subRational, type Rational } from '../../src/testing/rational.js';
import { formats } from '../../src/index.js';
import { dotBound } from '../../kernels/dot/dot-bound.js';
import { ddGpuArithmeticUnfused, type ddGpuArithmeticWindowOf } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';

/** A windowed term form under test. */
export interface WindowForm {
  /** The describe block's title. */
  readonly title: string;
  /** The kernel option's name for windows of `terms` products (e.g. `dd-window2`). */
  readonly name: (terms: number) => string;
  /** The GPU arithmetic with at most `terms` products a window. */
  readonly gpu: (terms: number) => ReturnType<typeof ddGpuArithmeticWindowOf>;
  /** Also run the genuine-pairs property with windows of one term (each product settled on its own). */
  readonly windowsOfOne: boolean;
}

/** A kernel option naming a GPU arithmetic. */
export type ArithmeticOption = { name: string; arithmetic: { gpu: ReturnType<typeof ddGpuArithmeticWindowOf> } };
/** A double-double value as its two parts. */
export type Pair = { hi: number; lo: number };

/**
 * An ill-conditioned DOT of genuine double-doubles (cond up to about 1e30 for big ≤ 100): large terms ±2^big·r that
 * cancel exactly, small ones that survive; lo parts make every operand a full pair.
 * @param seed - the random values' seed
 * @param big - the large terms' exponent
 * @param n - triples of terms (3n in all)
 * @returns the operands
 */
export function illConditionedPairs(seed: number, big: number, n: number): { xs: Pair[]; ys: Pair[] } {
  const r = randomValues(n, seed);
  const s = randomValues(n, seed + 7);
  const xs: Pair[] = [];
  const ys: Pair[] = [];
  const pair = (h: number, f: number): Pair => ({ hi: h, lo: h === 0 ? 0 : h * f * 2 ** -60 });
  for (let k = 0; k < n; k++) {
    xs.push(pair(r[k]! * 2 ** big, s[k]!), pair(s[k]!, r[k]!), pair(-r[k]! * 2 ** big, s[k]!));
    ys.push(pair(1 + s[k]!, r[k]!), pair(1, 0), pair(1 + s[k]!, r[k]!));
  }
  return { xs, ys };
}

/** What a form's own tests (beyond the shared ones) use: its windows of 2, the unfused multiply-adds, DOT, inputs. */
export interface WindowDotKit {
  readonly windowed: ArithmeticOption;
  readonly unfused: ArithmeticOption;
  readonly pairs: fc.Arbitrary<Pair>;
  readonly dotOf: (xs: readonly Pair[], ys: readonly Pair[], arithmetic: ArithmeticOption) => Promise<number>;
}

const slowTests = process.env.MODPREC_SLOW_TESTS === '1';
const unfused: ArithmeticOption = { name: 'dd-unfused', arithmetic: { gpu: ddGpuArithmeticUnfused } };

const exactPair = (p: Pair): Rational => addRational(exactOf(p.hi), exactOf(p.lo));

/** Checks |got − Σ x·y| ≤ γ_{2n}(2^-110)·Σ|x·y| + n·2^-1074 exactly, and that this lies inside the CPU dd dotBound. */
function expectWithinBound(got: number, xs: readonly Pair[], ys: readonly Pair[], bound: number): void {
  let exact = rational(0n);
  let mag = rational(0n);
  for (let k = 0; k < xs.length; k++) {
    const t = mulRational(exactPair(xs[k]!), exactPair(ys[k]!));
    exact = addRational(exact, t);
    mag = addRational(mag, absRational(t));
  }
  const n = xs.length;
  const u = 2 ** -110;
  const gamma = (2 * n * u) / (1 - 2 * n * u);
  const err = absRational(subRational(exactOf(got), exact));
  // got is a double: the read-back rounds the register once more (half an ulp of the result, ≤ 2^-53 relative).
  const limit = addRational(addRational(mulRational(exactOf(gamma), mag), exactOf(n * 2 ** -1074)), absRational(mulRational(exactOf(2 ** -53), exact)));
  expect(compareRational(err, limit), `got ${got}`).toBeLessThanOrEqual(0);
  // dotBound is +∞ where Σ|x·y| overflows binary64 (1e300·1e300 beside finite terms): nothing more to check then.
  if (Number.isFinite(bound)) expect(compareRational(err, exactOf(bound))).toBeLessThanOrEqual(0);
}

/** Genuine pairs over a wide range, pairs with lo far below hi's last bit, zeros, and unnormalised pairs (lo of either sign). */
const pairs = fc.oneof(
  { weight: 6, arbitrary: doubleDoubles({ minExponent: -480, maxExponent: 480 }) },
  // lo 54 … 140 bits below hi: every alignment of lo against hi's last bit (shifted up, down within one word, across
  // words, entirely below the window's unit 1).
  { weight: 2, arbitrary: fc.tuple(fc.double({ min: -4, max: 4, noNaN: true }).filter((h) => Math.abs(h) >= 0.5), fc.integer({ min: 54, max: 140 }), fc.double({ min: -1, max: 1, noNaN: true })).map(([h, g, f]) => ({ hi: h, lo: h * f * 2 ** -g })) },
  { weight: 1, arbitrary: fc.constantFrom({ hi: 0, lo: 0 }, { hi: -0, lo: 0 }, { hi: 1, lo: 0.25 }, { hi: 5e-324, lo: 0 }, { hi: 2 ** -1000, lo: 2 ** -1060 }, { hi: -3, lo: 2 ** -51 }, { hi: 2 ** -960, lo: 2 ** -1030 }, { hi: -(2 ** -960), lo: 3 * 2 ** -1074 }, { hi: 1, lo: -(2 ** -53) }, { hi: -(2 - 2 ** -52), lo: 2 ** -53 }) },
);

/**
 * Two adjacent elements a step, one accumulator: windows of up to two terms (the default shape's steps hold four
 * terms per accumulator, two accumulators' worth of eight terms a step — the same generated functions; llvmpipe takes
 * minutes to compile that unrolled step, seconds for this one). The remainder runs the tail loop's plain
 * multiply-adds.
 */
const SHAPE = { groupWidth: 2, groups: 1, chains: 1 } as const;
/** Steps of four and eight terms into one accumulator: one window of 4 or 8 terms (the opt-in tests). */
const SHAPE4 = { groupWidth: 4, groups: 1, chains: 1 } as const;
const SHAPE8 = { groupWidth: 4, groups: 2, chains: 1 } as const;
type Shape = typeof SHAPE | typeof SHAPE4 | typeof SHAPE8;

/** The largest significand of a normalised pair: hi = 2 − 2^-52, lo = 2^-53·(1 − 2^-52) (G just below 2^126). */
const MAX_PAIR: Pair = { hi: 2 - 2 ** -52, lo: 2 ** -53 * (1 - 2 ** -52) };
/** Runs of ±MAX_PAIR·MAX_PAIR: window sums of same-sign products at their 2^127 limit (K < 2^124 each). */
const maximalTerms = fc.array(fc.boolean(), { minLength: 1, maxLength: 24 }).map((signs) => signs.map((s) => [s ? MAX_PAIR : { hi: -MAX_PAIR.hi, lo: -MAX_PAIR.lo }, MAX_PAIR] as [Pair, Pair]));

async function dotOf(xs: readonly Pair[], ys: readonly Pair[], arithmetic: ArithmeticOption, shape: Shape = SHAPE): Promise<number> {
  const got = await gpuDot(await toDevice(ddRange(xs) as never), await toDevice(ddRange(ys) as never), { arithmetic, strict: true, ...shape });
  expect(got.backend).toBe('gpu');
  return got.value;
}

/**
 * Registers the shared properties for one term form, then the form's own tests (`extra`) in the same describe block.
 */
export function describeWindowedDot(form: WindowForm, extra?: (kit: WindowDotKit) => void): void {
  const windowOf = (terms: number): ArithmeticOption => ({ name: form.name(terms), arithmetic: { gpu: form.gpu(terms) } });
  const windowed = windowOf(2);
  describe(form.title, () => {
    /** The property of the first test for windows of `terms` in DOT steps of `shape`. */
    const genuinePairs = async (terms: number, shape: Shape, numRuns: number): Promise<void> => {
      await requireRuntime();
      const arithmetic = windowOf(terms);
      // Mostly general pairs; one run in four of maximal same-or-mixed-sign products (window sums at their limit).
      const inputs = fc.oneof({ weight: 3, arbitrary: fc.array(fc.tuple(pairs, pairs), { minLength: 1, maxLength: 40 }) }, { weight: 1, arbitrary: maximalTerms });
      await fc.assert(fc.asyncProperty(inputs, async (terms) => {
        const xs = terms.map((t) => t[0]);
        const ys = terms.map((t) => t[1]);
        const bound = dotBound(ddRange(xs) as never, ddRange(ys) as never, { arithmetic: formats.dd });
        expectWithinBound(await dotOf(xs, ys, arithmetic, shape), xs, ys, bound);
      }), { numRuns });
    };

    it('dd storage, genuine pairs, lo 54 … 140 bits below hi, zero and unnormalised pairs, maximal significands: windows of 2 within γ_{2n}(2^-110)·Σ|x·y| of the exact value', async () => {
      await genuinePairs(2, SHAPE, 25);
    });

    if (form.windowsOfOne) {
      it('the same with windows of one term (each product settled on its own)', async () => {
        await genuinePairs(1, SHAPE, 12);
      });
    }

    it.skipIf(!slowTests)('the same with windows of 4 (DOT steps of four terms into one accumulator; also windows of 2, two a step)', async () => {
      await genuinePairs(4, SHAPE4, 15);
      await genuinePairs(2, SHAPE4, 10);
    });

    it.skipIf(!slowTests)('the same with windows of 8 (DOT steps of eight terms into one accumulator: eight maximal products reach the 2^127 limit)', async () => {
      await genuinePairs(8, SHAPE8, 15);
    });

    it('ill-conditioned DOTs (cond up to 1e30) of genuine double-doubles: within γ_{2n}(2^-110)·Σ|x·y| and the CPU dd dotBound', async () => {
      await requireRuntime();
      await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 10, max: 100 }), fc.integer({ min: 2, max: 30 }), async (seed, big, n) => {
        const { xs, ys } = illConditionedPairs(seed, big, n);
        const bound = dotBound(ddRange(xs) as never, ddRange(ys) as never, { arithmetic: formats.dd });
        expectWithinBound(await dotOf(xs, ys, windowed), xs, ys, bound);
      }), { numRuns: 10 });
    });

    it('±∞ and NaN operands: the same non-finite result as the unfused multiply-adds; finite results within the bound', async () => {
      await requireRuntime();
      const special = fc.oneof(
        { weight: 4, arbitrary: doubleDoubles({ minExponent: -20, maxExponent: 20 }) },
        { weight: 1, arbitrary: fc.constantFrom({ hi: Infinity, lo: 0 }, { hi: -Infinity, lo: 0 }, { hi: NaN, lo: 0 }, { hi: 1e300, lo: 0 }, { hi: 0, lo: 0 }) },
      );
      await fc.assert(fc.asyncProperty(fc.array(fc.tuple(special, special), { minLength: 1, maxLength: 24 }), async (terms) => {
        const xs = terms.map((t) => t[0]);
        const ys = terms.map((t) => t[1]);
        const got = await dotOf(xs, ys, windowed);
        const before = await dotOf(xs, ys, unfused);
        if (!Number.isFinite(before) || !Number.isFinite(got)) {
          // NaN's sign is open (IEEE 754): compare NaN as NaN.
          if (Number.isNaN(before)) expect(got).toBeNaN();
          else expect(got).toBe(before);
          return;
        }
        const bound = dotBound(ddRange(xs) as never, ddRange(ys) as never, { arithmetic: formats.dd });
        expectWithinBound(got, xs, ys, bound);
      }), { numRuns: 15 });
    });

    it('f64 storage (f64·dd, dd·f64 and f64·f64 terms, their shorter products) with ±0, subnormals, ±∞ and NaN: finite results within γ_{2n}(2^-110)·Σ|x·y| of the exact value, non-finite ones IEEE 754\'s', async () => {
      await requireRuntime();
      const head = fc.oneof(
        { weight: 6, arbitrary: doubleDoubles({ minExponent: -480, maxExponent: 480 }).map((p) => ({ hi: p.hi, lo: 0 })) },
        { weight: 1, arbitrary: fc.constantFrom({ hi: 0, lo: 0 }, { hi: -0, lo: 0 }, { hi: 5e-324, lo: 0 }, { hi: -2.5e-308, lo: 0 }, { hi: -(2 ** -1000), lo: 0 }, { hi: 2 ** 500, lo: 0 }) },
      );
      // At most two special operands a DOT (at a term, in x, the dd operand y or z), so most DOTs stay finite.
      const specials = fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 2), fc.constantFrom(Infinity, -Infinity, NaN)), { maxLength: 2 });
      await fc.assert(fc.asyncProperty(fc.array(fc.tuple(head, pairs, head), { minLength: 1, maxLength: 30 }), fc.oneof(fc.constant([]), specials), async (terms, put) => {
        const cols = [terms.map((t) => t[0]), terms.map((t) => t[1]), terms.map((t) => t[2])];
        for (const [at, col, v] of put) cols[col]![at % terms.length] = { hi: v, lo: 0 };
        const [xs, ys, zs] = cols as [Pair[], Pair[], Pair[]];
        const X = await toDevice(Float64Array.from(xs, (p) => p.hi), { format: 'f64' });
        const Y = await toDevice(ddRange(ys) as never);
        const Z = await toDevice(Float64Array.from(zs, (p) => p.hi), { format: 'f64' });
        const check = (got: number, a: readonly Pair[], b: readonly Pair[]): void => {
          // The products' sum in binary64: NaN or ±∞ exactly where the exact sum has a NaN or ∞ product (the finite
          // products here stay far from overflow), as IEEE 754 sets the result then (NaN's sign open).
          const special = a.reduce((s, p, k) => s + p.hi * b[k]!.hi, 0);
          if (!Number.isFinite(special)) {
            if (Number.isNaN(special)) expect(got).toBeNaN();
            else expect(got).toBe(special);
            return;
          }
          expectWithinBound(got, a, b, dotBound(ddRange(a) as never, ddRange(b) as never, { arithmetic: formats.dd }));
        };
        check((await gpuDot(X, Y, { arithmetic: windowed, strict: true, ...SHAPE })).value, xs, ys);
        check((await gpuDot(Y, X, { arithmetic: windowed, strict: true, ...SHAPE })).value, ys, xs);
        check((await gpuDot(X, Z, { arithmetic: windowed, strict: true, ...SHAPE })).value, xs, zs);
      }), { numRuns: 12 });
    });

    // One such storage on the GPU (two shaders, tens of seconds on llvmpipe); test/dd/dd-gpu-window-steps.test.ts checks
    // that every kind the window does not take (f32, ff) gets the unfused multiply-adds' source.
    it('a storage the window does not take (f32 with dd): the unfused multiply-adds\' value, bit for bit', async () => {
      await requireRuntime();
      const small = fc.double({ min: -4, max: 4, noNaN: true });
      await fc.assert(fc.asyncProperty(fc.array(fc.tuple(small, pairs), { minLength: 1, maxLength: 30 }), async (terms) => {
        const X = await toDevice(Float64Array.from(terms, (t) => t[0]), { format: 'f32' });
        const Y = await toDevice(ddRange(terms.map((t) => t[1])) as never);
        const got = await gpuDot(X, Y, { arithmetic: windowed, strict: true, ...SHAPE });
        const before = await gpuDot(X, Y, { arithmetic: unfused, strict: true, ...SHAPE });
        expect(Object.is(got.value, before.value), `got ${got.value}, unfused ${before.value}`).toBe(true);
      }), { numRuns: 8 });
    });

    // llvmpipe compiles GEMV N's eight-column step of windowed multiply-adds for about four minutes: opt-in
    // (MODPREC_SLOW_TESTS=1), as the 256-row TRSV blocks are; bench/gpu/dd-gpu.ts checks GEMV's window rows too.
    it.skipIf(!slowTests)('GEMV N (its row pass shares the step code), dd storage: every row within γ_{2n}(2^-110)·Σ|a·x| + 2^-105·|y| of the exact value', async () => {
      await requireRuntime();
      await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(fc.tuple(pairs, pairs, pairs), { minLength: 1, maxLength: 30 }), async (m, cols) => {
        const n = cols.length;
        const a: Pair[] = [];
        for (let j = 0; j < n; j++) for (let i = 0; i < m; i++) a.push(i === 0 ? cols[j]![0] : i === 1 ? cols[j]![2] : { hi: cols[j]![0].hi * (i + 1), lo: 0 });
        const x = cols.map((c) => c[1]);
        const y = await toDevice(new Float64Array(m), { format: 'dd' });
        const A = deviceMatrix(await toDevice(ddRange(a) as never), m, n);
        await gpuGemv({ A, x: await toDevice(ddRange(x) as never), y, alpha: 1, beta: 0 }, { arithmetic: windowOf(8), strict: true });
        const words = (await y.encoded()).words;
        const got = new Float64Array(words.buffer, words.byteOffset, 2 * m);
        for (let i = 0; i < m; i++) {
          let exact = rational(0n);
          let mag = rational(0n);
          for (let j = 0; j < n; j++) {
            const t = mulRational(exactPair(a[i + j * m]!), exactPair(x[j]!));
            exact = addRational(exact, t);
            mag = addRational(mag, absRational(t));
          }
          const u = 2 ** -110;
          const gamma = (2 * n * u) / (1 - 2 * n * u);
          const value = exactPair({ hi: got[2 * i]!, lo: got[2 * i + 1]! });
          const err = absRational(subRational(value, exact));
          const limit = addRational(addRational(mulRational(exactOf(gamma), mag), exactOf(n * 2 ** -1074)), absRational(mulRational(exactOf(2 ** -105), exact)));
          expect(compareRational(err, limit), `row ${i}: got ${got[2 * i]} + ${got[2 * i + 1]}`).toBeLessThanOrEqual(0);
        }
      }), { numRuns: 8 });
    });
    extra?.({ windowed, unfused, pairs, dotOf: (xs, ys, arithmetic) => dotOf(xs, ys, arithmetic) });
  });
}
