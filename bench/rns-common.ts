/**
 * Shared setup of the RNS benchmarks: deterministic data (doubles, or full-precision significands), the same
 * values as RNS arrays and as MPFR variables, and MPFR used through gmp-wasm's raw bindings (preallocated
 * mpfr_t, no conversions or allocations inside the timed region) — the fastest way its API allows.
 * @module
 */
import { init } from 'gmp-wasm';
import { rnsModuliSet, type RnsModuliSet } from '../src/formats/rns/moduli-set.js';
import { RnsArray } from '../src/formats/rns/rns-array.js';
import { rnsStore } from '../src/formats/rns/array-store.js';
import { RnsNumber } from '../src/formats/rns/rns-number.js';
import { rnsFromNumber } from '../src/formats/rns/convert-number.js';
import { rnsFromRational, rnsToRational } from '../src/formats/rns/convert-exact.js';

/** Precisions of the seeds' Table 5. */
export const PRECISIONS = [106, 212, 424, 848, 1696] as const;

/** xorshift PRNG in [0, 1), deterministic per seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32; };
}

/** What the input values are: doubles in (−1, 1), or random p-bit significands in (−1, 1). */
export type DataKind = 'double' | 'full';

/**
 * Benchmark values: doubles (kept as a Float64Array: no per-value objects, which matters at 10^6 elements) or
 * full-precision RNS numbers.
 */
export interface Values {
  /** Number of values. */
  readonly count: number;
  /** The values, when the inputs are doubles. */
  readonly doubles?: Float64Array;
  /** The values, when they are full-precision. */
  readonly numbers?: RnsNumber[];
}

/** `count` values for `set` (doubles in (−1, 1), or random p-bit significands in (−1, 1)). */
export function makeValues(set: RnsModuliSet, count: number, kind: DataKind, seed: number): Values {
  const r = prng(seed);
  if (kind === 'double') return { count, doubles: Float64Array.from({ length: count }, () => 2 * r() - 1) };
  const numbers: RnsNumber[] = [];
  const p = BigInt(set.precision);
  for (let i = 0; i < count; i++) {
    const z = new RnsNumber(set);
    let s = 0n;
    for (let b = 0n; b < p; b += 30n) s = (s << 30n) | BigInt(Math.floor(r() * 2 ** 30));
    s &= (1n << p) - 1n;
    rnsFromRational(z, r() < 0.5 ? -s : s, 1n << p);
    numbers.push(z);
  }
  return { count, numbers };
}

/** An RNS array holding the values. */
export function toRnsArray(set: RnsModuliSet, values: Values): RnsArray {
  const a = new RnsArray(set, values.count);
  const z = new RnsNumber(set);
  for (let k = 0; k < values.count; k++) {
    if (values.doubles) { rnsFromNumber(z, values.doubles[k]!); rnsStore(a, k, z); } else rnsStore(a, k, values.numbers![k]!);
  }
  return a;
}

/** The raw MPFR bindings and helpers for preallocated variables. */
export async function mpfr(): Promise<{
  b: Awaited<ReturnType<typeof init>>['binding'];
  make: (prec: number) => number;
  fromRns: (ptr: number, x: RnsNumber) => void;
  load: (values: Values, prec: number) => number[];
}> {
  const { binding: b } = await init();
  const make = (prec: number): number => { const x = b.mpfr_t(); b.mpfr_init2(x, prec); return x; };
  const fromRns = (ptr: number, x: RnsNumber): void => {
    // Exact transfer: the significand as a binary string, then the power-of-two scaling.
    const { num, den } = rnsToRational(x);
    const neg = num < 0n;
    const s = b.malloc_cstr((neg ? '-' : '') + (neg ? -num : num).toString(16));
    b.mpfr_set_str(ptr, s, 16, 0);
    b.free(s);
    const shift = den.toString(2).length - 1;
    b.mpfr_mul_2si(ptr, ptr, -shift, 0);
  };
  /** Preallocated MPFR copies of the values (mpfr_set_d for doubles: exact and fast). */
  const load = (values: Values, prec: number): number[] => Array.from({ length: values.count }, (_, k) => {
    const ptr = make(prec);
    if (values.doubles) b.mpfr_set_d(ptr, values.doubles[k]!, 0); else fromRns(ptr, values.numbers![k]!);
    return ptr;
  });
  return { b, make, fromRns, load };
}

export { rnsModuliSet };

/** Formats a number with 3 significant digits. */
export function fmt(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/**
 * Minimum of the timings (ms) of `reps` calls after `warmup` calls. The minimum, not the median: this 2-core
 * machine is shared with other jobs, and interference only ever adds time.
 */
export function minTime(fn: () => unknown, reps = 5, warmup = 2): number {
  for (let i = 0; i < warmup; i++) fn();
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** Sizes actually run: the seeds' sizes, reduced where a precision would take minutes (reported). */
export function sizeFor(full: number, precision: number, kind: DataKind, reduced: Record<string, number>): number {
  return reduced[`${kind}:${precision}`] ?? reduced[`*:${precision}`] ?? full;
}
