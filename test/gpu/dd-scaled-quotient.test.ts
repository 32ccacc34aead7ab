/**
 * `mpDdScaledQuotient` (src/formats/dd/dd-gpu-scaled-quotient.ts), the device's replay of the CPU kernels' scaled store
 * of a dd value into floating-point storage, on llvmpipe: for each pair (hi, lo) and fp64 scale s its double is the CPU
 * kernels' guarded dd division by (s, +0) exported by `toKind('number', q, bits)`, bit for bit (bits 53 for binary64
 * storage, below for the narrower ones: round to odd), and that is what the CPU's WAXPBY stores — NaN compared as NaN (IEEE leaves its sign open; the CPU's x86 default NaN is
 * negative, the device's positive). The pairs are the hard ones: quotients within 2^-100 of a rounding boundary of the
 * storage (midpoints of binary64, binary32, binary16, bfloat16 times the scale, rounded to a pair and nudged by units of
 * lo's last place — where the exact quotient rounded once and DWDivDW2's result may differ), scales beyond 2^996 and
 * quotients beyond 2^996 (eft.ts's scaled split), quotients that overflow or underflow binary64 or land among its
 * subnormals, subnormal values and scales, ±0, ±∞, NaN. One compiled kernel; every case of a run in one pass.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ddRange } from './dd-ranges.js';
import { requireRuntime } from './gpu-test-helpers.js';
import { toDevice } from '../../src/backends/webgpu/device-array.js';
import { deviceScaledQuotients } from '../../src/backends/webgpu/scaled-float-store.js';
import { ddArithmetic } from '../../src/formats/dd/dd-arithmetic.js';
import { roundBigToDouble } from '../../src/formats/dd/dd-gpu-words.js';
import { exactOf } from '../../src/testing/exact.js';
import { rational, subRational } from '../../src/testing/rational.js';
import { roundRationalToDouble } from '../../src/testing/round-rational.js';
import { formats, range, scaledReducedRowMajor, waxpby, type Range } from '../../src/index.js';
import { ddSlowHelpers } from '../../src/formats/dd/dd-templates.js';

type Case = { hi: number; lo: number; s: number };
const STORAGES = [['f64', 53], ['f32', 24], ['f16', 11], ['bf16', 8]] as const;

const scratch = new Float64Array(2);
/**
 * The CPU kernels' value of the scaled store before the storage's rounding: their division of the dd register by
 * (s, +0) — dd-templates.ts's ddDivSource, whose slow form `ddSlowDiv` is the fast form with its guard (they differ
 * only where the fast result is not finite, and there the fast form calls it) — exported by toKind. The test checks it
 * against the CPU's WAXPBY 1·x into scaled storage too.
 */
function cpuValue(c: Case, bits: number): number {
  ddSlowHelpers.ddSlowDiv!(scratch, c.hi, c.lo, c.s, 0);
  return ddArithmetic.toKind('number', { hi: scratch[0]!, lo: scratch[1]! }, bits) as number;
}

/** A scaled range of `storage` with the cases' scales (written after creation: the constructor takes finite non-zero ones). */
function scaledOf(cases: readonly Case[], storage: string): Range<1, any> {
  const n = cases.length;
  const scale = new Float64Array(n).fill(1);
  const st = (formats as Record<string, any>)[storage];
  const r = range(scaledReducedRowMajor<1>({ size: [n], storage: st.storage ?? st, arithmetic: formats.dd, scaleMask: [true], scale }));
  cases.forEach((c, i) => { scale[i] = c.s; });
  return r;
}

/** The stored values of a range (labels), and `xs` rounded to its storage as the update 1·x rounds them. */
function storedLabels(r: Range<1, any>): (number | string)[] {
  const st = r.accessor.storage;
  return Array.from({ length: r.length() }, (_, i) => label(st.decode(r.accessor.data as never, r.accessor.linearIndex([i])) as number));
}
function roundedLabels(xs: readonly number[], storage: string): (number | string)[] {
  const f = (formats as Record<string, any>)[storage];
  const st = f.storage ?? f;
  const data = st.allocate(xs.length);
  return xs.map((x, i) => { st.encode(data, i, x); return label(st.decode(data, i) as number); });
}

/** 'NaN' for any NaN, '-0' for −0, the value otherwise (one bit pattern each). */
const label = (x: number): number | string => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x);

/** The device's values for the cases into a scaled range of `storage` (one quotient pass). */
async function deviceValues(cases: readonly Case[], storage: string): Promise<number[]> {
  const n = cases.length;
  const r = scaledOf(cases, storage);
  const d = await toDevice(ddRange(cases) as never);
  const q = await deviceScaledQuotients(r as never, d);
  try {
    const w = (await q.encoded()).words;
    const pairs = new Float64Array(w.buffer, w.byteOffset, 2 * n);
    return Array.from({ length: n }, (_, k) => {
      // A dd pair the update reads exactly: (x, +0), or (x, x) for a zero x.
      const lo = pairs[2 * k + 1]!;
      expect(Object.is(lo, 0) || Object.is(lo, pairs[2 * k]!), `pair ${k}`).toBe(true);
      return pairs[2 * k]!;
    });
  } finally {
    q.destroy();
    d.destroy();
  }
}

/** The normalised pair nearest the exact ±m·2^k (m > 0), nudged by `nudge` units of lo's last place. */
function pairOf(m: bigint, k: number, nudge: number, negative: boolean): { hi: number; lo: number } {
  const { hi, lo } = positivePairOf(m, k, nudge);
  return negative ? { hi: -hi, lo: -lo } : { hi, lo };
}

function positivePairOf(m: bigint, k: number, nudge: number): { hi: number; lo: number } {
  const hi = roundBigToDouble(m, k);
  if (!Number.isFinite(hi)) return { hi, lo: 0 };
  const exact = k >= 0 ? rational(m << BigInt(k)) : rational(m, 1n << BigInt(-k));
  let lo = roundRationalToDouble(subRational(exact, exactOf(hi)));
  if (lo !== 0 && nudge !== 0) {
    const ulp = 2 ** (Math.floor(Math.log2(Math.abs(lo))) - 52);
    if (ulp >= 2 ** -1074) lo += nudge * ulp;
  }
  // Keep it normalised (|lo| ≤ ulp(hi)/2): a nudge across the half, or a lo below the subnormals, goes.
  return Math.abs(lo) <= Math.abs(hi) * 2 ** -53 ? { hi, lo } : { hi, lo: 0 };
}

const bigOf = (lo: number, hi: number): bigint => BigInt(Math.floor(lo)) + (BigInt(Math.floor(hi)) << 26n);

/** A 53-bit significand S ∈ [2^52, 2^53). */
const significand = fc.tuple(fc.integer({ min: 0, max: 2 ** 26 - 1 }), fc.integer({ min: 2 ** 26, max: 2 ** 27 - 1 })).map(([l, h]) => bigOf(l, h));

/** Scale exponents: ordinary, tiny (subnormal scales included), huge (beyond 2^996: eft's scaled split). */
const scaleExponent = fc.oneof(fc.integer({ min: -30, max: 30 }), fc.integer({ min: -1074, max: -1000 }), fc.integer({ min: 990, max: 1023 }));

/**
 * A quotient within 2^-100 of a rounding boundary: q = M·2^(eq − p) with M odd of p + 1 bits (a midpoint at precision
 * p), times the scale S·2^(es − 52), rounded to a pair and nudged. Quotient exponents eq reach binary64's subnormals,
 * its overflow, and beyond 2^996.
 */
const nearBoundary = fc.record({
  p: fc.constantFrom(53, 24, 11, 8),
  M: significand,
  S: significand,
  es: scaleExponent,
  eq: fc.oneof(fc.integer({ min: -40, max: 40 }), fc.integer({ min: -1080, max: -1000 }), fc.integer({ min: 990, max: 1024 }), fc.integer({ min: -150, max: -120 })),
  nudge: fc.integer({ min: -2, max: 2 }),
  negative: fc.boolean(),
  scaleNegative: fc.boolean(),
}).map(({ p, M, S, es, eq, nudge, negative, scaleNegative }): Case => {
  const mid = (M >> BigInt(52 - p)) | 1n; // p + 1 bits, odd
  const s = (scaleNegative ? -1 : 1) * roundBigToDouble(S, es - 52);
  // v = q·s: the quotient's sign is `negative`.
  const { hi, lo } = pairOf(mid * S, eq - p + es - 52, nudge, negative !== scaleNegative);
  return { hi, lo, s };
});

/** Any double with a tail, any scale: specials, subnormals, huge and tiny quotients. */
const anyPair = fc.record({
  hi: fc.oneof(fc.double(), fc.constantFrom(0, -0, Infinity, -Infinity, NaN, 5e-324, -(2 ** -1022), 2 ** 1023, 1.7976931348623157e308)),
  tail: fc.oneof(fc.constant(0), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1, max: 1 }).map((t) => t * 2 ** -53), fc.constantFrom(5e-324, -5e-324)),
  s: fc.oneof(fc.double(), fc.constantFrom(0.1, 1 / 3, 3, 2 ** -1074, 2 ** 1000, 2 ** 997 * 1.5, 0, -0, Infinity, -Infinity, NaN)),
}).map(({ hi, tail, s }): Case => {
  const lo = Number.isFinite(hi) ? (Math.abs(tail) < 1e-300 ? tail : tail * Math.abs(hi)) : 0;
  return { hi, lo: Math.abs(lo) <= Math.abs(hi) * 2 ** -53 ? lo : 0, s };
});

describe('mpDdScaledQuotient', () => {
  it('gives the CPU\'s scaled-store value of a dd by an fp64 scale, bit for bit (near-boundary quotients, scaled splits, overflow, underflow, subnormals, ±0, ±∞, NaN as NaN)', async () => {
    await requireRuntime();
    await fc.assert(fc.asyncProperty(fc.array(fc.oneof(nearBoundary, anyPair), { minLength: 150, maxLength: 150 }), async (cases) => {
      for (const [storage, bits] of STORAGES) {
        const got = await deviceValues(cases, storage);
        const want = cases.map((c) => cpuValue(c, bits));
        const bad = cases.flatMap((c, i) => (label(got[i]!) === label(want[i]!) ? [] : [`(${c.hi}, ${c.lo}) / ${c.s}: device ${got[i]}, CPU ${want[i]}`]));
        expect(bad, storage).toEqual([]);
        // The oracle is the CPU kernel's store: WAXPBY 1·x + 0·x of the pairs into the scaled range, wherever its dd
        // arithmetic keeps the pair (its multiply-add may move a tail at the bottom of the range: 1·x is not always x).
        const out = scaledOf(cases, storage);
        waxpby(1, ddRange(cases), 0, ddRange(cases), out, { arithmetic: formats.dd });
        const copy = ddRange(cases.map(() => ({ hi: 0, lo: 0 })));
        waxpby(1, ddRange(cases), 0, ddRange(cases), copy, { arithmetic: formats.dd });
        const kept = copy.accessor.data as Float64Array;
        const [kernel, rounded] = [storedLabels(out), roundedLabels(want, storage)];
        const off = cases.flatMap((c, i) => (kernel[i] === rounded[i] || !Object.is(kept[2 * i], c.hi) || !Object.is(kept[2 * i + 1], c.lo) ? [] : [`(${c.hi}, ${c.lo}) / ${c.s}: CPU kernel ${kernel[i]}, oracle ${rounded[i]}`]));
        expect(off, storage).toEqual([]);
      }
    }), { numRuns: 10 });
  });
});
