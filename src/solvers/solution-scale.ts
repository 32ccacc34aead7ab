/**
 * The scale x is stored at in a narrow storage: x holds x/2^e, e fixed by the size of the first step.
 * @module
 */
import type { StorageFormat } from '../formats/common/format.js';
import type { KrylovSpace, Step } from './krylov-space.js';

/**
 * A storage whose exponent range is at least this wide either side of 1 keeps x unscaled while the first step lies
 * within 2^±WIDE_WINDOW (fp32, bf16: as b's own window, so ordinary solves are the ones they were).
 */
const WIDE_WINDOW = 32;

/**
 * How x is stored: x/2^exponent. The solve runs on b scaled to ‖b‖₂ near 1 (solve-start), and x sits near ‖b‖/‖A‖:
 * an A far below 1 put it beyond a narrow storage's range — cg(1e-5·I, b) with fp16 vectors stored x near 10⁵ as ±∞
 * ('non-finite' after one step, x = 0) — and one far above 1 among its subnormals. The first step into x (x₀ = 0) gives
 * x's size; its power of two becomes x's scale, so x is stored near 1 where the storage keeps all its bits. A power of
 * two changes no rounding away from the storage's limits, and x never enters the recurrences but through the true
 * residual b − A·x, computed as b − 2^e·A·(x/2^e). fp64, double-double and RNS vectors hold the double range and are
 * never scaled, nor is an x₀ the caller gave (it is stored at b's scale, and checked to fit there).
 */
export class SolutionScale {
  /** x is stored as x/2^exponent. */
  exponent = 0;
  private pending: boolean;
  private readonly narrow: boolean;

  constructor(storage: StorageFormat, x0Given: boolean) {
    const holdsDoubles = storage.kind !== 'number' || storage.maxValue === Number.MAX_VALUE;
    this.pending = !holdsDoubles && !x0Given;
    this.narrow = storage.kind === 'number' && storage.maxValue < 2 ** (2 * WIDE_WINDOW);
  }

  /** 2^exponent: what x's stored words are multiplied by. */
  get factor(): number {
    return 2 ** this.exponent;
  }

  /** Whether the scale is still to be fixed by the first step. */
  get open(): boolean {
    return this.pending;
  }

  /**
   * Fixes the scale from the size of the first step into x (an x₀ of 0): its power of two in a narrow storage (fp16,
   * a user's), in fp32 and bf16 only where it lies outside 2^±32. A size of 0 or beyond the double range leaves it open.
   */
  settle(size: number): void {
    if (!this.pending || !(size > 0) || !Number.isFinite(size)) return;
    this.pending = false;
    const e = Math.floor(Math.log2(size));
    // At most 2^±1000: 2^e and 2^-e must both be doubles.
    if (this.narrow || Math.abs(e) > WIDE_WINDOW) this.exponent = Math.max(-1000, Math.min(1000, e));
  }
}

/**
 * x := x + coefficient·p for an x stored at `scale` (the step in x's true units): the first such step fixes the scale.
 * @param size - ‖p‖₂ where the caller knows it (else measured, on the first step only)
 */
export function* addToSolution<V>(s: KrylovSpace<V>, scale: SolutionScale, coefficient: number, p: V, x: V, size?: number): Generator<Step<unknown>, void, any> {
  if (scale.open) scale.settle(Math.abs(coefficient) * (size ?? ((yield s.norm(p)) as number)));
  yield s.update(coefficient / scale.factor, p, 1, x, x);
}

/**
 * The power of two a solver's first A·p is divided by before it is stored (CG's q, BiCGStab's v and t, GMRES's w): the
 * exponent of ‖A·p‖₂/‖p‖₂, measured in the true residual's storage (fp64 for narrow vectors, into `scratch`), under
 * the policy of {@link SolutionScale} (fp16 always, fp32 and bf16 outside 2^±32, never for vectors that hold the
 * double range). The solvers raise it further where a later product overflows; the recurrences do not depend on it (a
 * power of two rounds nothing). An A far below 1 put A·p among the storage's subnormals or at 0 — 2^-20·I with fp16
 * vectors stopped 'stagnation' at fp16's accuracy squared, 2^-150·I with fp32 vectors at once —, and one far above 1
 * took a retry per 2^16.
 * @returns σ, 1 where no scale is needed or A·p is 0 or not finite
 */
export function* operatorScale<V>(s: KrylovSpace<V>, storage: StorageFormat, p: V, scratch: V): Generator<Step<unknown>, number, any> {
  if (storage.kind !== 'number' || storage.maxValue === Number.MAX_VALUE) return 1;
  yield s.wide.apply(1, p, 0, scratch);
  const [ap, pNorm] = (yield s.both(s.wide.norm(scratch), s.norm(p))) as [number, number];
  const ratio = ap / pNorm;
  if (!(ratio > 0) || !Number.isFinite(ratio)) return 1;
  const e = Math.max(-1000, Math.min(1000, Math.floor(Math.log2(ratio))));
  const narrow = storage.maxValue < 2 ** (2 * WIDE_WINDOW);
  return narrow || Math.abs(e) > WIDE_WINDOW ? 2 ** e : 1;
}
