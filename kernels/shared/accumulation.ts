/**
 * Accumulation strategies: how a reduction (DOT, GEMV rows, SpMV rows, NRM2, ASUM) sums its terms,
 * chosen independently of storage and arithmetic. The core ships `recursive` (the plain loop);
 * compensated and extended strategies (pairwise, Kahan–Babuška/Neumaier, Dot2, double-double) register here.
 * @module
 */
import type { ArithmeticFormat, Register } from '../../src/formats/common/format.js';
import { fail } from '../../src/core/errors.js';

/**
 * A summation strategy as source templates. The state lives in variables derived from `base`.
 * Generated code calls `emitDeclare` once, `emitReset` before each reduction, `emitAddProduct`/`emitAdd`
 * per term, and `emitResult` once at the end.
 * @group Kernels
 */
export interface Accumulation {
  /** Stable name, used in cache keys and options. */
  readonly name: string;
  /** One-line description: cost and error bound. */
  readonly description: string;
  /** Declares the state (once per kernel). */
  emitDeclare(base: string, ar: ArithmeticFormat): string;
  /** Resets the state to an empty sum. */
  emitReset(base: string, ar: ArithmeticFormat): string;
  /**
   * Adds a·b (registers of `ar`). Must leave the values of a and b as they were: GEMV's `dot-blocked` loop
   * shares one register of x among a block of rows.
   */
  emitAddProduct(base: string, a: Register, b: Register, ar: ArithmeticFormat): string;
  /** Adds a (register of `ar`; it may be clobbered). */
  emitAdd(base: string, a: Register, ar: ArithmeticFormat): string;
  /** dst (register of `ar`) := the sum. */
  emitResult(dst: Register, base: string, ar: ArithmeticFormat): string;
  /**
   * A-priori bound on |computed − exact| of a sum of n terms, as a multiple of Σ|terms|, for arithmetic unit
   * roundoff u; `relativeToResult` is an extra multiple of |exact| (Dot2-type bounds have both).
   */
  bound(n: number, u: number): {
    /** Multiple of Σ|terms|. */
    ofAbsSum: number;
    /** Multiple of |exact sum|. */
    ofResult: number;
  };
  /** Helper values the templates use. */
  readonly helpers: Readonly<Record<string, unknown>>;
  /**
   * Throws the typed error the templates raise where this strategy cannot run in `ar` (`INVALID_OPTION` naming
   * `options.accumulation`); absent, it runs in every arithmetic. The reduction kernels and their bound functions
   * call it (kernels/shared/accumulation.ts, resolveAccumulationIn) before any quick return, so a bound refuses
   * exactly what its kernel refuses.
   */
  checkArithmetic?(ar: ArithmeticFormat): void;
  /**
   * True when every value the templates compute reaches the result through +, −, × only (no value-dependent
   * branch can drop a NaN or ±∞): kernels may then run the arithmetic's rare-case guards out of the loop
   * (src/backends/cpu/guards.ts). Leave it unset when unsure: the kernels stay correct, only slower.
   */
  readonly propagatesNonFinite?: boolean;
}

/**
 * γ_n = n·u / (1 − n·u) (Higham, Accuracy and Stability of Numerical Algorithms, Lemma 3.1); ∞ when n·u ≥ 1.
 * @param n - the number of roundings, a non-negative number (∞ gives ∞)
 * @param u - the unit roundoff, in [0, 1)
 * @throws {@link ModprecError} `INVALID_SIZE` naming `n` (negative, NaN, not a number: a Symbol, a BigInt, a string),
 *   `INVALID_VALUE` naming `u` (outside [0, 1), not a number): a negative γ would make every bound built on it wrong
 * @example
 * ```ts
 * import { gamma } from 'modprec';
 *
 * gamma(100, 2 ** -53) < 100 * 2 ** -53 * 1.001; // → true
 * gamma(2 ** 24, 2 ** -24); // → Infinity
 * ```
 * @group Kernels
 */
export function gamma(n: number, u: number): number {
  if (typeof n !== 'number' || !(n >= 0)) fail('INVALID_SIZE', 'n', 'must be a non-negative number of roundings', n);
  if (typeof u !== 'number' || !(u >= 0 && u < 1)) fail('INVALID_VALUE', 'u', 'must be a unit roundoff in [0, 1)', u);
  const nu = n * u;
  return nu < 1 ? nu / (1 - nu) : Infinity;
}

/**
 * Plain recursive summation in the arithmetic format: s := a·b + s. Cost 1×; bound γ_n Σ|aᵢbᵢ|.
 * @group Kernels
 */
export const recursiveAccumulation: Accumulation = {
  name: 'recursive',
  description: 'plain loop s = s + a·b in the arithmetic format; cost 1×; |error| ≤ γ_n Σ|aᵢbᵢ|',
  emitDeclare: (base, ar) => ar.emitDeclare(ar.register(base)),
  emitReset: (base, ar) => ar.emitFromNumber(ar.register(base), '0'),
  emitAddProduct: (base, a, b, ar) => { const s = ar.register(base); return ar.emitFma(s, a, b, s); },
  emitAdd: (base, a, ar) => { const s = ar.register(base); return ar.emitAdd(s, s, a); },
  emitResult: (dst, base, ar) => ar.emitSet(dst, ar.register(base)),
  bound: (n, u) => ({ ofAbsSum: gamma(n, u), ofResult: 0 }),
  helpers: {},
  propagatesNonFinite: true,
};

const accumulations = new Map<string, Accumulation>([[recursiveAccumulation.name, recursiveAccumulation]]);

/** The templates and bound every accumulation must implement (what the kernels call). */
const REQUIRED_FUNCTIONS = ['emitDeclare', 'emitReset', 'emitAddProduct', 'emitAdd', 'emitResult', 'bound'] as const;

/** Whether two strategies are the same: every field identical (a spread copy of a registered one is). */
function sameStrategy(a: Accumulation, b: Accumulation): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => Object.is((a as unknown as Record<string, unknown>)[k], (b as unknown as Record<string, unknown>)[k]));
}

/**
 * Registers an accumulation strategy under its name (plugins: double-double, compensated sums). Registering a
 * strategy whose fields are those of the one already under its name returns the registered one (so the kernels,
 * which recognise the built-in strategies, still do).
 * @returns the registered strategy
 * @throws {@link ModprecError} `INVALID_OPTION` naming `accumulation` (not an object), `accumulation.name` (not a
 *   non-empty string, or another strategy already registered under it: a built-in one cannot be replaced),
 *   `accumulation.<template>` (a missing template or `bound`) or `accumulation.helpers` (not an object)
 * @example
 * ```ts
 * import { vector, dot, registerAccumulation, recursiveAccumulation } from 'modprec';
 *
 * // a new name for an existing strategy (a real plugin implements the emit… templates and `bound`)
 * registerAccumulation({ ...recursiveAccumulation, name: 'plain' });
 * dot(vector([1, 2]), vector([3, 4]), { accumulation: 'plain' }); // → 11
 * ```
 * @group Kernels
 */
export function registerAccumulation(a: Accumulation): Accumulation {
  if (typeof a !== 'object' || a === null) fail('INVALID_OPTION', 'accumulation', 'must be an accumulation strategy object', a);
  if (typeof a.name !== 'string' || a.name === '') fail('INVALID_OPTION', 'accumulation.name', 'must be a non-empty string', a.name);
  for (const f of REQUIRED_FUNCTIONS) {
    if (typeof a[f] !== 'function') fail('INVALID_OPTION', `accumulation.${f}`, 'must be a function', a[f]);
  }
  if (typeof a.helpers !== 'object' || a.helpers === null) fail('INVALID_OPTION', 'accumulation.helpers', 'must be an object (of the helpers its templates call)', a.helpers);
  const registered = accumulations.get(a.name);
  if (registered !== undefined) {
    if (registered === a || sameStrategy(registered, a)) return registered;
    fail('INVALID_OPTION', 'accumulation.name', 'is already the name of another registered accumulation (register yours under a name of its own)', a.name);
  }
  accumulations.set(a.name, a);
  return a;
}

/**
 * Names of the registered accumulation strategies.
 * @example
 * ```ts
 * import { accumulationNames } from 'modprec';
 *
 * accumulationNames().includes('kahan'); // → true
 * ```
 * @group Kernels
 */
export function accumulationNames(): string[] {
  return [...accumulations.keys()];
}

/**
 * Resolves an accumulation option (a name or a strategy; default `recursive`).
 * @throws {@link ModprecError} `INVALID_OPTION` for an unknown name
 * @example
 * ```ts
 * import { resolveAccumulation } from 'modprec';
 *
 * resolveAccumulation(undefined).name; // → 'recursive'
 * resolveAccumulation('dot2').name; // → 'dot2'
 * ```
 * @group Kernels
 */
export function resolveAccumulation(option: string | Accumulation | undefined): Accumulation {
  if (option === undefined) return recursiveAccumulation;
  if (typeof option === 'object' && option !== null && typeof option.emitAddProduct === 'function') return option;
  const a = typeof option === 'string' ? accumulations.get(option) : undefined;
  if (!a) fail('INVALID_OPTION', 'options.accumulation', `must be one of ${accumulationNames().join(', ')}`, option);
  return a;
}

/**
 * Resolves an accumulation option as {@link resolveAccumulation} does and checks that the strategy runs in the
 * arithmetic ({@link Accumulation.checkArithmetic}): the one check the reduction kernels (DOT, GEMV, ELL SpMV, ASUM,
 * NRM2, TRSV) and their bound functions share.
 * @param option - the accumulation option (a name or a strategy; default `recursive`)
 * @param ar - the arithmetic the call computes in
 * @returns the strategy
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.accumulation` for an unknown name or a strategy that
 *   cannot run in `ar` (e.g. 'kahan' or 'dot2' in double-double, float-float or RNS arithmetic)
 */
export function resolveAccumulationIn(option: string | Accumulation | undefined, ar: ArithmeticFormat): Accumulation {
  const acc = resolveAccumulation(option);
  acc.checkArithmetic?.(ar);
  return acc;
}
