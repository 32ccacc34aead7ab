/**
 * How each kernel splits: which operands are cut into which contiguous parts, and the kernel call each part runs.
 * The calling thread and the workers run a part through the same function ({@link runPart}): the kernel itself,
 * on sub-ranges of the caller's shared storage, with the arithmetic, accumulation and CPU backend the whole call
 * resolved. Elementwise kernels (AXPY, WAXPBY, SCAL) and the row-wise GEMV and ELL SpMV cut their output, so each
 * element is computed as on one thread; the reductions (DOT, ASUM) cut their operands and add the parts' values
 * in part order ({@link combineParts}).
 * @module
 */
import type { Range } from '../core/range.js';
import { span } from '../core/span.js';
import { fail } from '../core/errors.js';
import { findFormat } from '../formats/common/registry.js';
import type { SplitCall } from '../../kernels/shared/threads-option.js';
import { recursiveAccumulation, type Accumulation } from '../../kernels/shared/accumulation.js';
import type { ArithmeticFormat } from '../formats/common/format.js';
import { dot } from '../../kernels/dot/dot.js';
import { asum } from '../../kernels/asum/asum.js';
import { gemv } from '../../kernels/gemv/gemv.js';
import { axpy } from '../../kernels/axpy/axpy.js';
import { waxpby } from '../../kernels/waxpby/waxpby.js';
import { scal } from '../../kernels/scal/scal.js';
import { ellSpmv } from '../../kernels/ell-spmv/ell-spmv.js';
import { ellRowsOf } from '../../kernels/ell-spmv/ell-operand.js';
import type { EllStructure } from '../sparse/ell-matrix.js';
import { inSharedMemory } from '../core/shared-memory.js';
import { splitPoints } from './split-parts.js';

/** One part of a split call: the kernel, its operands (sub-ranges), coefficients and resolved options. */
export interface PartCall {
  readonly kernel: SplitCall['kernel'];
  readonly ranges: Readonly<Record<string, Range<any, any>>>;
  readonly alpha: number;
  readonly beta: number;
  readonly trans: 'N' | 'T';
  readonly loop: string;
  readonly arithmetic: string;
  readonly accumulation: string;
  readonly backend: 'cpu' | 'wasm' | 'js';
  /** ELL SpMV: the structure of the part's rows (its values are `ranges['A.values']`). */
  readonly ell?: EllStructure;
}

/** The operands of a call by parameter name (what must be in shared memory). */
export function operandsOf(call: SplitCall): [string, Range<any, any>][] {
  switch (call.kernel) {
    case 'dot': return [['x', call.x], ['y', call.y]];
    case 'asum': return [['x', call.x]];
    case 'gemv': return [['A', call.A], ['x', call.x], ['y', call.y]];
    case 'ellSpmv': return [['A.values', call.A.values], ['x', call.x], ['y', call.y]];
    case 'axpy': return [['x', call.x], ['y', call.y]];
    case 'waxpby': return [['x', call.x], ['y', call.y], ['w', call.w]];
    case 'scal': return [['x', call.x]];
  }
}

/**
 * Checks that an ELL operand's column indices live in shared memory (its values are an operand range).
 * @throws {@link modprec!ModprecError} `INVALID_STORAGE` naming `A.colIndex`
 */
export function checkSharedStructure(call: SplitCall): void {
  if (call.kernel === 'ellSpmv' && !inSharedMemory(call.A.structure.colIndex)) {
    fail('INVALID_STORAGE', 'A.colIndex', 'must live in shared memory for options.threads (an Int32Array over a SharedArrayBuffer)');
  }
}

/**
 * Checks what a split reduction needs: its parts' values are added on the calling thread in the call's
 * arithmetic, which it can do for fp64 and fp32 with the recursive accumulation (one more addition per part:
 * the usual γ_n bound covers the blocked sum).
 * @throws {@link ModprecError} `INVALID_OPTION` naming `options.arithmetic` or `options.accumulation`
 */
export function checkSplitReduction(kernel: SplitCall['kernel'], ar: ArithmeticFormat, acc: Accumulation): void {
  if (kernel !== 'dot' && kernel !== 'asum') return;
  if (ar !== findFormat('f64')!.arithmetic && ar !== findFormat('f32')!.arithmetic) {
    fail('INVALID_OPTION', 'options.arithmetic', `must be f64 or f32 for a ${kernel} split over threads (its parts are added in the arithmetic; got ${ar.name})`);
  }
  if (acc !== recursiveAccumulation) {
    fail('INVALID_OPTION', 'options.accumulation', `must be recursive for a ${kernel} split over threads (got ${acc.name})`);
  }
}

/** The parts of a call for a pool of `threads` threads, part 0 first. */
export function partsOf(call: SplitCall, threads: number, minWork: number): PartCall[] {
  const common = {
    kernel: call.kernel, arithmetic: call.arithmetic.name, accumulation: call.accumulation.name, backend: call.backend,
    alpha: 'alpha' in call ? call.alpha : 0, beta: 'beta' in call ? call.beta : 0,
    trans: call.kernel === 'gemv' ? call.trans : 'N' as const, loop: call.kernel === 'gemv' ? call.loop : 'auto',
  };
  const cut = (r: Range<1, any>, lo: number, hi: number): Range<1, any> => r.sub(span(lo, hi));
  switch (call.kernel) {
    case 'dot':
      return splitPoints(call.x.length(), 1, threads, minWork).map(([lo, hi]) => ({ ...common, ranges: { x: cut(call.x, lo, hi), y: cut(call.y, lo, hi) } }));
    case 'asum':
      return splitPoints(call.x.length(), 1, threads, minWork).map(([lo, hi]) => ({ ...common, ranges: { x: cut(call.x, lo, hi) } }));
    case 'axpy':
      return splitPoints(call.x.length(), 1, threads, minWork).map(([lo, hi]) => ({ ...common, ranges: { x: cut(call.x, lo, hi), y: cut(call.y, lo, hi) } }));
    case 'waxpby':
      return splitPoints(call.x.length(), 1, threads, minWork).map(([lo, hi]) => ({ ...common, ranges: { x: cut(call.x, lo, hi), y: cut(call.y, lo, hi), w: cut(call.w, lo, hi) } }));
    case 'scal':
      return splitPoints(call.x.length(), 1, threads, minWork).map(([lo, hi]) => ({ ...common, ranges: { x: cut(call.x, lo, hi) } }));
    case 'ellSpmv': {
      // Rows lo..hi: their values, and the column indices from row lo on with the same stride.
      const { cols, width, stride, colIndex } = call.A.structure;
      return splitPoints(call.y.length(), width, threads, minWork).map(([lo, hi]) => ({
        ...common,
        ell: { rows: hi - lo, cols, width, stride, colIndex: colIndex.subarray(lo) },
        ranges: { 'A.values': call.A.values.sub(span(lo, hi), span(0, width)), x: call.x, y: cut(call.y, lo, hi) },
      }));
    }
    case 'gemv': {
      // The rows of op(A) (the elements of y): rows of A for 'N', columns of A for 'T'.
      const [ra, ca] = [call.A.length(0), call.A.length(1)];
      const cols = call.trans === 'N' ? ca : ra;
      return splitPoints(call.y.length(), cols, threads, minWork).map(([lo, hi]) => ({
        ...common,
        ranges: {
          A: call.trans === 'N' ? call.A.sub(span(lo, hi), span(0, ca)) : call.A.sub(span(0, ra), span(lo, hi)),
          x: call.x, y: cut(call.y, lo, hi),
        },
      }));
    }
  }
}

/** Runs one part on this thread: the kernel on the part's sub-ranges. @returns the reduction's value, if any */
export function runPart(p: PartCall): number | undefined {
  const options = { arithmetic: p.arithmetic, accumulation: p.accumulation, backend: p.backend };
  const r = p.ranges;
  switch (p.kernel) {
    case 'dot': return dot(r.x!, r.y!, options);
    case 'asum': return asum(r.x!, options);
    case 'gemv': gemv({ alpha: p.alpha, A: r.A!, x: r.x!, beta: p.beta, y: r.y!, trans: p.trans }, { ...options, loop: p.loop as 'auto' }); return undefined;
    case 'ellSpmv': ellSpmv({ alpha: p.alpha, A: ellRowsOf(p.ell!, r['A.values']!), x: r.x!, beta: p.beta, y: r.y! }, options); return undefined;
    case 'axpy': axpy(p.alpha, r.x!, r.y!, options); return undefined;
    case 'waxpby': waxpby(p.alpha, r.x!, p.beta, r.y!, r.w!, options); return undefined;
    case 'scal': scal(p.alpha, r.x!, options); return undefined;
  }
}

/**
 * The value of a split reduction: its parts' values added left to right in the call's arithmetic (fp64, or fp32
 * rounding each sum), in part order whichever thread finished first.
 */
export function combineParts(call: SplitCall, values: readonly number[]): number {
  const f32 = call.arithmetic === findFormat('f32')!.arithmetic;
  let s = values[0]!;
  for (let k = 1; k < values.length; k++) s = f32 ? Math.fround(s + values[k]!) : s + values[k]!;
  return s;
}
