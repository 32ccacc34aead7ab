/**
 * The operations a Krylov solver performs, behind one interface for every backend: the CPU space runs the kernels on
 * ranges and answers at once; the GPU space runs them on resident device arrays and answers with promises. The
 * algorithms are written once, as generators that yield each operation's (possibly pending) result, and a driver
 * runs them synchronously (CPU) or awaiting each step (GPU), so the device sees the same sequence of kernels.
 * @module
 */
import type { Range } from '../core/range.js';

/** A value now (CPU) or later (GPU). */
export type Step<T> = T | Promise<T>;

/** An algorithm: yields steps, receives their values, returns its result. */
export type Algorithm<R> = Generator<Step<unknown>, R, any>;

/** The basis of GMRES in a space: columns as vectors, and its leading columns as a matrix for GEMV. */
export interface SpaceBasis<V, M> {
  column(j: number): V;
  leading(k: number): M;
}

/**
 * The vector operations of the solvers, in one storage and one arithmetic. V is the vector type (a range on the CPU,
 * a device array on the GPU); M the basis-matrix type.
 */
export interface KrylovSpace<V = unknown, M = unknown> {
  readonly n: number;
  /** A new zero vector in the solver's storage. */
  make(): V;
  /**
   * A new zero vector for b and true residuals b − A·x: the solver's storage where it holds every double (f64, dd,
   * RNS), else fp64. In fp16 a residual far below ‖b‖ flushed to zero (a solve reported `converged` with a true
   * residual of 0 that was 2^-30), and b rounded to f32 made the residual that of another system (`converged` to
   * 1e-13 with 0, where ‖b − A·x‖/‖b‖ was 3·10⁻⁸).
   */
  makeWide(): V;
  /** A new vector holding b or x₀ (validated before), in the storage of {@link makeWide} when `wide`. */
  load(values: ArrayLike<number> | Range<1, any> | undefined, wide?: boolean): Step<V>;
  /** dst := src. */
  copy(src: V, dst: V): Step<void>;
  /**
   * dst := src for two vectors of the solver's storage, word for word: in an arithmetic that holds the storage (its own
   * on the CPU; on the GPU double-double for f64 and dd, f32 for f32, f16, bf16), not the solve's. The solvers keep and
   * return copies of x with it: copied in fp32 arithmetic, fp64 vectors returned x₀ = 0.1 as 0.10000000149011612.
   */
  copyExact(src: V, dst: V): Step<void>;
  /** xᵀy. */
  dot(x: V, y: V): Step<number>;
  /** ‖x‖₂. */
  norm(x: V): Step<number>;
  /** out := α·x + β·y (out may be x or y; a zero coefficient's vector is not read). */
  update(alpha: number, x: V, beta: number, y: V, out: V): Step<void>;
  /** y := α·A·x + β·y. */
  apply(alpha: number, x: V, beta: number, y: V): Step<void>;
  /** z := M⁻¹·r (only where the solver has a preconditioner). */
  precondition(r: V, z: V): Step<void>;
  /** An n × columns basis stored in `storage`, read and written in the arithmetic. */
  basis(columns: number, storage: unknown): SpaceBasis<V, M>;
  /** y := α·op(M)·x + β·y with a basis matrix (x, y: small vectors for 'T' output and 'N' input). */
  gemv(alpha: number, M: M, x: V, beta: number, y: V, trans: 'N' | 'T'): Step<void>;
  /** A small fp64 vector (Gram–Schmidt coefficients, least-squares solution). */
  small(length: number): V;
  /** The values of a small vector, on the host. */
  read(v: V): Step<Float64Array>;
  /** A new small fp64 vector holding host values. */
  upload(values: Float64Array): Step<V>;
  /** Releases a vector made by `upload` (a no-op on the CPU). */
  free(v: V): void;
  /** The solution as a host range in the solver's storage. */
  result(x: V): Step<Range<1, any>>;
  /** Both values once both are known: on the GPU the two read-backs are in flight together (one wait, not two). */
  both<A, B>(a: Step<A>, b: Step<B>): Step<[A, B]>;
  /**
   * The operations of the true residual b − A·x ({@link residual}): the space's own where its arithmetic is at least
   * as precise as fp64; with fp32 arithmetic a wider one (fp64 on the CPU, float-float on the GPU), with float-float
   * arithmetic fp64 on the CPU and double-double on the GPU. In fp32 a computed b − A·x of 0 stood for a real residual
   * near 10⁻⁷·‖b‖: CG and GMRES reported `converged` to 1e-9 (float-float: to 1e-13, with 2·10⁻¹¹).
   */
  readonly wide: Pick<KrylovSpace<V, M>, 'copy' | 'apply' | 'norm'>;
}

/** Runs an algorithm whose steps are all immediate values (the CPU space). */
export function runNow<R>(algorithm: Algorithm<R>): R {
  let step = algorithm.next();
  while (!step.done) step = algorithm.next(step.value);
  return step.value;
}

/** Runs an algorithm, awaiting each step before the next is issued (the GPU space). */
export async function runAwaiting<R>(algorithm: Algorithm<R>): Promise<R> {
  let step = algorithm.next();
  while (!step.done) step = algorithm.next(await step.value);
  return step.value;
}

/**
 * r := b − A·x in the space's residual arithmetic ({@link KrylovSpace.wide}); yields its norm ‖r‖₂, or +∞ for an x that
 * is not finite. A·x never reads x's entries in a column of A without entries (an ELL or function operator skips
 * them), and on a singular A they can grow to ±∞ or NaN unseen: BiCGStab on a 3×3 ELL matrix with an empty column
 * returned x = (−12.6, NaN, −4.6) with a finite true residual, and GMRES in fp16 an x with −∞. ‖x‖₂ is read with ‖r‖₂
 * (one wait on the GPU), in the same arithmetic (the solve's fp32 would overflow on a finite fp64 x beyond 2^128), so
 * such an x is never converged and a solve that stops short returns its best finite iterate. An x stored scaled (see
 * SolutionScale) holds x/xFactor.
 */
export function* residual<V>(s: KrylovSpace<V>, b: V, x: V, r: V, xFactor = 1): Generator<Step<unknown>, number, any> {
  yield s.wide.copy(b, r);
  yield s.wide.apply(-xFactor, x, 1, r);
  const [rNorm, xNorm] = (yield s.both(s.wide.norm(r), s.wide.norm(x))) as [number, number];
  return Number.isFinite(xNorm) ? rNorm : Infinity;
}
