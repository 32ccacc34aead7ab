/**
 * One case of the wide far update's tests (`ddOverlapFarLanes`): a dd solve on the GPU with the overlapped lane form,
 * every component of x within trsvBound (backend 'gpu') of the exact rational solution (src/testing
 * exactTriangularSolve over the stored A and b), every bound finite.
 */
import { expect } from 'vitest';
import { setTrsvKernelSwitches } from '../../src/backends/webgpu/kernel-switches.js';
import { trsv, trsvBound, formats, type Range } from '../../src/index.js';
import { addRational, exactOf, exactTriangularSolve, type Rational } from '../../src/testing/index.js';
import { randomValues, requireRuntime } from './gpu-test-helpers.js';
import { matrixOf, storedOf, vectorOf, type Variant } from './trsv-dd-oracle.js';
import { expectWithin, type Factor } from './public-shapes-oracle.js';

/** A case: storage of A and x, size, variant, near/solve lanes W, far lanes F, block size, layouts, seed. */
export interface FarLanesCase {
  readonly storage: 'dd' | 'f64';
  readonly n: number;
  readonly variant: Variant;
  readonly W: number;
  readonly F: number;
  readonly blockSize: 64 | 128 | 256;
  readonly A: 'packed' | 'sub';
  readonly x: 'packed' | 'strided';
  readonly seed: number;
}

/** A stored element (a double or a dd pair) as it is held. */
const factorOf = (r: Range<any, any>, index: readonly number[]): Factor => storedOf(r, index) as Factor;

/** A stored element as an exact rational. */
function rationalOf(f: Factor): Rational {
  return typeof f === 'number' ? exactOf(f) : addRational(exactOf(f.hi), exactOf(f.lo));
}

/**
 * Solves the case with `ddOverlapLanes` W and `ddOverlapFarLanes` F (the caller restores the switches) and holds x to
 * the bound of the exact solution of the stored system.
 * @param c - the case
 */
export async function farLanesWithinBound(c: FarLanesCase): Promise<void> {
  await requireRuntime();
  const { n, variant: [uplo, trans, diag], blockSize } = c;
  const storage = c.storage === 'dd' ? formats.dd : formats.f64;
  const A = matrixOf(storage, n, c.seed, c.A);
  const x = vectorOf(storage, randomValues(n, c.seed + 7), c.x);
  const lower = (uplo === 'L') === (trans === 'N');
  const T = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => rationalOf(factorOf(A, trans === 'N' ? [i, j] : [j, i]))));
  const exact = exactTriangularSolve(T, Array.from({ length: n }, (_, i) => rationalOf(factorOf(x, [i]))), lower, diag === 'U');
  setTrsvKernelSwitches({ ddLanes: true, ddOverlapLanes: c.W, ddOverlapFarLanes: c.F });
  const report = await trsv({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic: formats.dd, strict: true, blockSize });
  expect(report.backend).toBe('gpu');
  const bound = trsvBound({ A, x, uplo, trans, diag }, { backend: 'gpu', arithmetic: formats.dd, blockSize });
  const label = `${c.storage} ${uplo}${trans}${diag} n ${n} W ${c.W} F ${c.F} bs ${blockSize} A ${c.A} x ${c.x}`;
  for (let i = 0; i < n; i++) {
    expect(Number.isFinite(bound[i]), `${label} bound ${i}`).toBe(true);
    expectWithin(`${label} x[${i}]`, factorOf(x, [i]), exact[i]!, bound[i]!);
  }
}
