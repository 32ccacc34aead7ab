/**
 * Non-finite words in an arithmetic without NaN and ±∞ (an RNS arithmetic on fp16, fp32 or fp64 vectors): a result that
 * overflows the vectors' storage is stored as ±∞, and the next kernel to read it refuses it. The CPU space answers such
 * reads as IEEE arithmetic would — NaN — so that the solvers see what they see in fp64 arithmetic (CG scales A·p down,
 * the others break down `non-finite`) instead of an `INVALID_VALUE` thrown part-way through the solve.
 * @module
 */
import type { Range } from '../core/range.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import type { KrylovSpace } from './krylov-space.js';
import { firstNonFinite } from '../../kernels/shared/kernel-options.js';

type CpuSpace = KrylovSpace<Range<1, any>, Range<2, any>>;

/** Whether a range holds a word that is not a finite number (only storages of numbers and double-doubles can). */
const holdsNonFinite = (v: Range<any, any>): boolean => firstNonFinite(v) !== undefined;

/** Writes NaN into every word of a storage of numbers or double-doubles; false for another storage (RNS: no NaN). */
function fillNaN(v: Range<1, any>): boolean {
  const a = v.accessor;
  const st = a.storage;
  if (st.kind !== 'number' && st.kind !== 'dd') return false;
  for (let i = 0; i < v.length(); i++) st.encode(a.data as never, a.linearIndex([i]), (st.kind === 'dd' ? { hi: NaN, lo: NaN } : NaN) as never);
  return true;
}

/**
 * The space with every read of a non-finite word answered as NaN where `arithmetic` has no NaN (kind `mp`): a DOT or
 * NRM2 of such a vector is NaN, a vector operation that reads one (or multiplies by a non-finite coefficient) writes NaN
 * into its output — where the output's storage holds NaN; else the kernel runs and refuses the read, as before.
 * Other arithmetics propagate NaN and ±∞ themselves: the space is returned as it is.
 * @param s - the CPU space
 * @param arithmetic - its arithmetic
 * @returns the guarded space
 */
export function readNonFiniteAsNaN(s: CpuSpace, arithmetic: ArithmeticFormat): CpuSpace {
  if (arithmetic.kind !== 'mp') return s;
  // Whether an operation reading `inputs` (a zero coefficient's vector is not read) with `coefficients` cannot run.
  const blocked = (coefficients: number[], inputs: (Range<any, any> | undefined)[]): boolean =>
    coefficients.some((c) => !Number.isFinite(c)) || inputs.some((v) => v !== undefined && holdsNonFinite(v));
  const vectorOp = (out: Range<1, any>, coefficients: number[], inputs: (Range<any, any> | undefined)[], run: () => void): void => {
    if (blocked(coefficients, inputs) && fillNaN(out)) return;
    run();
  };
  const read = (alpha: number, x: Range<any, any>, beta: number, y: Range<any, any>): (Range<any, any> | undefined)[] =>
    [alpha === 0 ? undefined : x, beta === 0 ? undefined : y];
  const scalar = (inputs: Range<1, any>[], run: () => number): number => (blocked([], inputs) ? NaN : run());
  const wide = s.wide;
  return {
    ...s,
    copy: (src, dst) => vectorOp(dst, [], [src], () => s.copy(src, dst) as void),
    dot: (x, y) => scalar([x, y], () => s.dot(x, y) as number),
    norm: (x) => scalar([x], () => s.norm(x) as number),
    update: (alpha, x, beta, y, out) => vectorOp(out, [alpha, beta], read(alpha, x, beta, y), () => s.update(alpha, x, beta, y, out) as void),
    apply: (alpha, x, beta, y) => vectorOp(y, [alpha, beta], [x, beta === 0 ? undefined : y], () => s.apply(alpha, x, beta, y) as void),
    precondition: (r, z) => vectorOp(z, [], [r], () => s.precondition(r, z) as void),
    gemv: (alpha, M, x, beta, y, trans) => vectorOp(y, [alpha, beta], [M, x, beta === 0 ? undefined : y], () => s.gemv(alpha, M, x, beta, y, trans) as void),
    wide: {
      copy: (src, dst) => vectorOp(dst, [], [src], () => wide.copy(src, dst) as void),
      norm: (x) => scalar([x], () => wide.norm(x) as number),
      apply: (alpha, x, beta, y) => vectorOp(y, [alpha, beta], [x, beta === 0 ? undefined : y], () => wide.apply(alpha, x, beta, y) as void),
    },
  };
}
