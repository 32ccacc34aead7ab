/**
 * TRSV on device RNS arrays: solves op(A)·x = b in place by substitution, row by row, in one submit. Row i
 * (ascending for a lower op(A), descending for an upper one) is two rounded steps:
 *
 *     s_i = fl(b_i − Σ_{j solved} t_ij·x_j)      one exact sum on its grid, rounded once (row-sum-webgpu.ts)
 *     x_i = fl(s_i·h_i + s_i·l_i)               h_i + l_i = 1/t_ii to < 5·2^-(2p) (host-exact.ts), rounded once
 *
 * so RNS division, which has no residue-wise form, becomes a two-term sum of exact products (the reciprocals are
 * computed once per call on the host, exactly in BigInt, from the downloaded diagonal). The CPU's RNS TRSV
 * rounds after every term and divides exactly (rounded once); here a row has two roundings and one truncated
 * reciprocal. Backward error per row: |b_i − Σ_j t_ij·x̂_j| ≤ (3·2^-p + O(2^-2p))·(|T||x̂|)_i (n ≥ 2; n = 1: ≤
 * (2^-p + 5·2^-2p)·|t_11·x̂_1|), within the CPU's γ_{n+1}(|T||x̂|)_i since u = 4/√M > 1.41·2^-p. x_i is then
 * moved into x (a scatter through an atomic binding) before any later row reads it. A unit diagonal needs no
 * reciprocal: x_i = s_i exactly. Signed zeros follow the CPU, whose row sum starts from +0: an exact zero s_i is
 * +0 (IEEE: +0 + −0 = +0), and x_i = +0/t_ii takes the sign of t_ii.
 *
 * Each row is a dozen small dispatches, so this is a latency-bound solve (n·13 dispatches), for the accuracy, not
 * the speed; the blocked inverse-based solve of the f32/ff GPU TRSV would need RNS division on the device.
 *
 * @module
 */
import { fail } from '../../src/core/errors.js';
import { checkArgumentsObject } from '../../src/backends/webgpu/kernel-common.js';
import { getProgram, type Pass } from '../../src/backends/webgpu/program.js';
import type { GpuBuffer } from '../../src/backends/webgpu/webgpu-types.js';
import { rnsZerosOnDevice, type RnsDeviceArray, type RnsExactValue } from '../../src/formats/rns/gpu/rns-device-array.js';
import { checkOperands, deviceTable, runStages, scalarBuffer, scratchBuffer, type RoundedStage } from '../../src/formats/rns/gpu/rns-device-kernel.js';
import { rowSumPasses, rowSumPrograms } from '../../src/formats/rns/gpu/row-sum-webgpu.js';
import { updateStage } from '../../src/formats/rns/gpu/update-rns-webgpu.js';
import { reciprocalSplit } from '../../src/formats/rns/gpu/host-exact.js';
import type { RnsDeviceSet } from '../../src/formats/rns/gpu/device-set.js';

/**
 * Arguments of {@link rnsGpuTrsv}.
 * @group GPU
 */
export interface RnsGpuTrsvArgs {
  /** The n×n matrix, column-major: element (i, j) at i + j·lda; only the `uplo` triangle is read. */
  readonly A: RnsDeviceArray;
  /** Order of A. */
  readonly n: number;
  /** Leading dimension (default n). */
  readonly lda?: number;
  /** On entry b, on return the solution (length n). */
  readonly x: RnsDeviceArray;
  /** `'U'` (default): A upper triangular; `'L'`: lower. */
  readonly uplo?: 'U' | 'L';
  /** `'N'` (default): solve A·x = b; `'T'`: Aᵀ·x = b. */
  readonly trans?: 'N' | 'T';
  /** `'N'` (default): the diagonal is read; `'U'`: unit diagonal, not read. */
  readonly diag?: 'N' | 'U';
}

function choice<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  const v = value ?? fallback;
  if (!allowed.includes(v)) fail('INVALID_OPTION', name, `must be ${allowed.map((a) => `'${a}'`).join(' or ')}`, value);
  return v;
}

/** Moves a one-element device array into element `at` of an array of L elements (thread per word). */
function scatterSource(set: RnsDeviceSet): string {
  const n = set.size;
  return `function (Src, XAtomic, L, at) {
const t = this.thread.x;
let dst = mpI32(0);
if (t < ${n}) { dst = at * ${n} + t; } else { dst = ${n} * L + (t - ${n}) * L + at; }
mpAtomicStore(XAtomic[dst], mpBits(Src[t]));
return 0.0;
}`;
}

/**
 * Solves op(A)·x = b on device RNS arrays, overwriting x; every x_i is rounded twice (see the module comment).
 * @param args - operands and options
 * @returns when the device has finished
 * @throws {@link modprec!ModprecError} before anything is written: `INVALID_OPTION` (uplo, trans, diag),
 *   `INVALID_SIZE` (n), `INVALID_STRIDE` (lda), `INVALID_STORAGE` (A's length), `DIMENSION_MISMATCH`
 *   (x's length), `INVALID_VALUE` naming `A[i, i]` for a zero pivot (RNS has no
 *   infinity to divide into), `INVALID_FORMAT`, `INVALID_STORAGE`
 * @example
 * ```ts
 * import { rnsDeviceSet, rnsToDevice, rnsGpuTrsv } from 'modprec/gpu';
 *
 * const set = rnsDeviceSet(106);
 * const U = await rnsToDevice([2, 0, 1, 4], set);    // [[2, 1], [0, 4]] column-major
 * const x = await rnsToDevice([4, 8], set);
 * await rnsGpuTrsv({ A: U, n: 2, x, uplo: 'U' });
 * (await x.toExact()).map((v) => (v.sign ? -1 : 1) * Number(v.X) * 2 ** v.exp); // → [ 1, 2 ]
 * ```
 * @group GPU
 */
export async function rnsGpuTrsv(args: RnsGpuTrsvArgs): Promise<void> {
  checkArgumentsObject(args, '{ A, x, n, uplo, trans, diag, lda }');
  const { A, x, n } = args;
  const uplo = choice('uplo', args.uplo, ['U', 'L'], 'U');
  const trans = choice('trans', args.trans, ['N', 'T'], 'N');
  const diag = choice('diag', args.diag, ['N', 'U'], 'N');
  const { runtime, set } = checkOperands({ A, x });
  if (!Number.isSafeInteger(n) || n < 0) fail('INVALID_SIZE', 'n', 'must be a non-negative integer', n);
  const lda = args.lda ?? Math.max(1, n);
  if (!Number.isSafeInteger(lda) || lda < Math.max(1, n)) fail('INVALID_STRIDE', 'lda', `must be an integer ≥ max(1, n) = ${Math.max(1, n)}`, lda);
  if (n > 0 && A.length < lda * (n - 1) + n) fail('INVALID_STORAGE', 'A', `must hold lda·(n − 1) + n = ${lda * (n - 1) + n} elements`, A.length);
  if (x.length !== n) fail('DIMENSION_MISMATCH', 'x', `must have ${n} elements`, x.length);
  if (n === 0) return;
  const unit = diag === 'U';
  // Pivots: downloaded once, checked before anything is written, turned into 1/t_ii = h + l.
  let pivots: RnsExactValue[] = [];
  if (!unit) {
    pivots = await A.toExact(Array.from({ length: n }, (_, i) => i + i * lda));
    pivots.forEach((v, i) => { if (v.X === 0n) fail('INVALID_VALUE', `A[${i}, ${i}]`, 'must be non-zero: a zero pivot, and RNS has no infinity to divide into', 0); });
  }
  const lower = (uplo === 'L') !== (trans === 'T');
  // T = op(A): t_ij = A[i + j·lda] ('N') or A[j + i·lda] ('T'); a row of T steps by cs, a column by rs.
  const [rs, cs] = trans === 'N' ? [1, lda] : [lda, 1];
  const table = deviceTable(runtime, set);
  const programs = await rowSumPrograms(runtime, set, { beta: true, p: 'rns', gather: false, neg: true, plusZero: true });
  const scatter = await getProgram(runtime.context, { source: scatterSource(set), args: [['Src', 'Array'], ['XAtomic', 'Array'], ['L', 'Integer'], ['at', 'Integer']], components: 1 });
  const one = scalarBuffer(runtime, set, [{ sign: 0, X: 1n, exp: 0 }]);
  const s = rnsZerosOnDevice(runtime, set, 1), q = rnsZerosOnDevice(runtime, set, 1);
  const temporaries: GpuBuffer[] = [one];
  const sink = scratchBuffer(runtime, 'trsv-sink', set.size + 6);
  const stages: RoundedStage[] = [];
  // The row sums' scratch buffers grow with the number of terms, and a larger request replaces a buffer that
  // earlier rows' passes are bound to: size them for the longest row (n − 1 terms) before binding any.
  rowSumPasses(runtime, set, programs, { R: 1, N: n - 1, rs: 0, cs, LP: A.length, LQ: n, LY: n, beta: true }, A.live('A'), x.live('x'), one, x.live('x'), table, sink);
  try {
    for (let step = 0; step < n; step++) {
      const i = lower ? step : n - 1 - step;
      // Solved columns: j < i (forward) or j > i (backward), as a run starting at j0.
      const j0 = lower ? 0 : i + 1;
      const shape = { R: 1, N: step, rs: 0, cs, p0: i * rs + j0 * cs, q0: j0, LP: A.length, LQ: n, LY: n, y0: i, beta: true };
      stages.push({ before: (acc) => rowSumPasses(runtime, set, programs, shape, A.live('A'), x.live('x'), one, x.live('x'), table, acc), count: 1, out: () => s.live('s') });
      // x_i = s·(h + l) with h + l = 1/t_ii, or s for a unit diagonal (exact).
      const coefficients = unit ? [{ sign: 0 as const, X: 1n, exp: 0 }, { sign: 0 as const, X: 0n, exp: 0 }] : reciprocalSplit(pivots[i]!, false, set.precision);
      const S = scalarBuffer(runtime, set, coefficients);
      temporaries.push(S);
      const update = await updateStage(runtime, set, () => S, s, s, () => q, unit ? 1 : 2);
      const move: Pass = { program: scatter, arrays: { Src: { buffer: q.live('q') }, XAtomic: { buffer: x.live('x') } }, scalars: { L: n, at: i }, output: { buffer: sink }, threads: set.size + 6 };
      stages.push({ ...update, after: [move] });
    }
    await runStages(runtime, set, stages, temporaries);
  } finally {
    s.destroy();
    q.destroy();
  }
}
