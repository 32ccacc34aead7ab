/**
 * TRSV in WebAssembly (fp64 or fp32 arithmetic) with a double-double x, interleaved (`dd`) or split (`dd-split`):
 * the solve runs on an fp64 twin of x holding each bᵢ as the JavaScript arithmetic reads it — hi + lo in fp64,
 * hi + lo rounded to odd in fp32 (whose read then rounds it to binary32 once, as f32-arithmetic.ts does) — and each
 * solved xᵢ, a number, is stored back as the JavaScript kernels store a number into double-double storage: (xᵢ, 0),
 * a zero as (xᵢ, xᵢ) (dd-storage.ts). A solved xᵢ is exact in the twin, so the later rows read what the JavaScript
 * kernel reads back from x: the same bits. An x in scaled, fp16, bf16 or integer storage goes to
 * ./trsv-stored-x-wasm.ts, whose store each solver calls per row.
 * @module
 */
import type { Accessor } from '../../accessors/accessor.js';
import { findFormat } from '../../src/formats/common/registry.js';
import { roundPairToOdd } from '../../src/formats/convert/round-to-odd.js';
import { DdSplitArray } from '../../src/formats/dd/dd-storage.js';
import { isDdOutput } from '../shared/cpu-backend.js';
import type { ArithmeticFormat } from '../../src/formats/common/format.js';
import { solveOnStoredX, writesXItself, type StoredX } from './trsv-stored-x-wasm.js';

/**
 * Runs `solve` on x itself, or — for a double-double x — on its fp64 twin, storing the twin back into x when `solve`
 * returns true (false: x untouched, the JavaScript kernel runs); for an x in another storage than unscaled f64, f32
 * or double-double, on the twin of ./trsv-stored-x-wasm.ts with its per-row store (`stored`), which `solve` must
 * call for each solved xᵢ. Returns what `solve` returned.
 */
export function solveOnX(
  x: Accessor<1, any>, n: number, lanes: 'f64' | 'f32', ar: ArithmeticFormat, solve: (x: Accessor<1, any>, stored?: StoredX) => boolean,
): boolean {
  if (!isDdOutput(x)) return writesXItself(x) ? solve(x) : solveOnStoredX(x, n, ar, solve);
  const values = new Float64Array(n), stride = x.strides[0] as number;
  const split = x.data instanceof DdSplitArray ? x.data : undefined, data = x.data as Float64Array;
  const hiAt = (p: number): number => (split ? split.hi[p]! : data[2 * p]!), loAt = (p: number): number => (split ? split.lo[p]! : data[2 * p + 1]!);
  for (let i = 0, p = x.offset; i < n; i++, p += stride) values[i] = lanes === 'f32' ? roundPairToOdd(hiAt(p), loAt(p)) : hiAt(p) + loAt(p);
  const twin = { data: values, storage: findFormat('f64')!.storage, offset: 0, strides: [1] } as unknown as Accessor<1, any>;
  if (!solve(twin)) return false;
  for (let i = 0, p = x.offset; i < n; i++, p += stride) {
    const q = values[i]!, lo = q === 0 ? q : 0;
    if (split) { split.hi[p] = q; split.lo[p] = lo; } else { data[2 * p] = q; data[2 * p + 1] = lo; }
  }
  return true;
}
